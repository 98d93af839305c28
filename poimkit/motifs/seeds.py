"""Candidate motifs from a POIM: strongest k-mers, assembled where they overlap.

Entries of the highest POIM order and the peaks of the differential POIM
give k-mers at positions. Candidates are taken strongest first; one joins an
existing seed when its k-mer occurs in the seed's string (the same motif at
another position: the spread) or overlaps the seed's string at the matching
position and agrees with it there (a longer motif seen through shorter
windows). A seed is only extended by letters the POIM prefers clearly over
the three alternatives, so a k-mer that merely contains a motif plus a random
neighbour does not lengthen the motif.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..alphabet import ALPHABET, kmer_index, kmer_string

if TYPE_CHECKING:
    from ..poim import Poim

#: an extension letter must beat every alternative letter by this factor
SPECIFICITY = 1.15
#: distinct k-mers of the highest order taken as site seeds, by their best
#: start (`site_seeds`): a strong motif's many variants fill the strongest
#: entries, so a second factor's weaker words would otherwise never be seeds
N_DISTINCT = 50


@dataclass
class Seed:
    """A candidate motif: a consensus string and where it was seen.

    Parameters
    ----------
    string : str
        The consensus over ``ACGT``.
    start : int
        0-based start of ``string[0]`` at the strongest sighting.
    value : float
        The strongest POIM value.
    starts : list of int
        0-based start of ``string[0]``, one per sighting.
    values : list of float
        POIM value of each sighting.
    """

    string: str
    start: int  # 0-based start of string[0] at the strongest sighting
    value: float  # strongest POIM value
    starts: list[int] = field(default_factory=list)  # one per sighting
    values: list[float] = field(default_factory=list)

    @property
    def mean_start(self) -> float:
        """Value-weighted mean 0-based start over the sightings."""
        w = np.asarray(self.values)
        return float(np.average(self.starts, weights=w))

    @property
    def spread(self) -> float:
        """Value-weighted standard deviation of the sightings' starts."""
        w = np.asarray(self.values)
        mean = np.average(self.starts, weights=w)
        return float(
            np.sqrt(np.average((np.asarray(self.starts) - mean) ** 2, weights=w))
        )


def _candidates(
    poim, n_top: int, every_start: bool = False
) -> list[tuple[str, int, float]]:
    """Positive (k-mer, 0-based start, value) of the top order and of D peaks.

    The ``n_top`` strongest entries of the highest order, with ``every_start``
    also the strongest k-mer at every start (so that a strong motif's many
    variants cannot crowd out a weaker motif elsewhere), and the strongest
    k-mer at the differential POIM's peaks.
    """
    order = poim.max_order
    q = poim.q(order)
    flat = q.ravel()
    take = min(n_top, flat.size)
    best = set(np.argpartition(-flat, take - 1)[:take].tolist())
    if every_start:
        best |= set((np.arange(q.shape[0]) * q.shape[1] + q.argmax(axis=1)).tolist())
    out = []
    for f in sorted(best):
        j, z = divmod(int(f), q.shape[1])
        if q[j, z] > 0:
            out.append((kmer_string(z, order), j, float(q[j, z])))
    diff = poim.differential()
    for l in range(2, order + 1):
        row = np.nan_to_num(diff[l - 1], nan=-np.inf)
        for j in np.argsort(-row)[:3]:
            if row[j] > 0:
                z = int(np.argmax(poim.q(l)[j]))
                out.append((kmer_string(z, l), int(j), float(poim.q(l)[j, z])))
    out.sort(key=lambda c: -c[2])
    return out


def _specific(poim, kmer: str, starts: list[int], index: int) -> bool:
    """True if the letter at ``kmer[index]`` is clearly preferred where it occurs.

    The POIM values of the k-mer and of its three variants at ``index`` are
    summed over ``starts`` (the k-mer's start at each sighting of the seed), so
    that a letter the POIM favours at one position by chance does not pass.
    """
    l = len(kmer)
    q = poim.q(l)
    starts = [s for s in starts if 0 <= s < q.shape[0]]
    values = []
    for letter in ALPHABET:
        variant = kmer_index(kmer[:index] + letter + kmer[index + 1 :])
        values.append(sum(float(q[s, variant]) for s in starts))
    own = values[ALPHABET.index(kmer[index])]
    others = max(v for v, a in zip(values, ALPHABET, strict=True) if a != kmer[index])
    return own > 0 and own >= SPECIFICITY * max(others, 0.0) + 1e-12


def _mismatches(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b, strict=True))


def _tolerated(overlap: int) -> int:
    """Mismatches allowed in an overlap of this many letters (mutated copies)."""
    return 0 if overlap < 5 else 1 if overlap < 7 else 2


def _absorb(seed: Seed, kmer: str, start: int, value: float, poim, window: int) -> bool:
    """Add the sighting to the seed if it belongs to it; extend the seed if clear.

    A k-mer belongs to a seed if it occurs in the seed's string (up to
    `_tolerated` mismatches: a mutated copy) within ``window`` of a sighting,
    or overlaps the string at one of the seed's sighting positions, agreeing
    there up to `_tolerated` mismatches. Only an exact overlap may extend the
    string, and only by letters the POIM clearly prefers (`_specific`).
    """
    k = len(kmer)
    for at in range(len(seed.string) - k + 1):
        implied = start - at
        if (
            _mismatches(seed.string[at : at + k], kmer) <= _tolerated(k)
            and min(abs(implied - s) for s in seed.starts) <= window
        ):
            seed.starts.append(implied)
            seed.values.append(value)
            return True
    for anchor in sorted(set(seed.starts), key=lambda a: abs(start - a)):
        shift = start - anchor  # kmer[0] sits at seed.string[shift]
        lo, hi = max(0, shift), min(len(seed.string), shift + k)
        if hi - lo < max(3, k - 2):
            continue
        wrong = _mismatches(seed.string[lo:hi], kmer[lo - shift : hi - shift])
        if wrong > _tolerated(hi - lo):
            continue
        if wrong == 0:
            _extend(seed, kmer, start, shift, poim)
        return True
    return False


def _extend(seed: Seed, kmer: str, start: int, shift: int, poim) -> None:
    """Extend the seed's string by the k-mer's overhanging letters, if specific."""
    k = len(kmer)
    if k > poim.max_order:  # a merged seed longer than the POIM: no table to check
        return
    anchor = start - shift
    strongest = np.argsort(seed.values)[::-1][:10]
    starts = sorted({seed.starts[i] - anchor + start for i in strongest} | {start})
    left = kmer[: max(0, -shift)]
    n_right = max(0, shift + k - len(seed.string))
    if left and all(_specific(poim, kmer, starts, i) for i in range(len(left))):
        seed.string = left + seed.string
        seed.start -= len(left)
        seed.starts = [s - len(left) for s in seed.starts]
    if n_right and all(
        _specific(poim, kmer, starts, k - 1 - i) for i in range(n_right)
    ):
        seed.string = seed.string + kmer[k - n_right :]


def find_seeds(
    poim: Poim, max_seeds: int = 3, n_top: int = 200, window: int = 25
) -> list[Seed]:
    """Candidate motifs of a POIM, strongest first.

    Parameters
    ----------
    poim : Poim
        POIMs of a model.
    max_seeds : int
        How many seeds to return at most.
    n_top : int
        How many top entries of the highest order to consider.
    window : int
        Largest distance between sightings of one motif (in positions).

    Returns
    -------
    list of Seed
    """
    seeds: list[Seed] = []
    for kmer, start, value in _candidates(poim, n_top):
        if any(_absorb(s, kmer, start, value, poim, window) for s in seeds):
            continue
        seeds.append(Seed(kmer, start, value, [start], [value]))
    seeds.sort(key=lambda s: -s.value)
    return _merge(seeds, poim, window)[:max_seeds]


def _merge(seeds: list[Seed], poim, window: int) -> list[Seed]:
    """Fold weaker seeds into stronger ones they belong to.

    Undoes order effects of the greedy pass: a sighting may arrive before the
    one it overlaps.
    """
    kept: list[Seed] = []
    for seed in seeds:
        home = next(
            (
                k
                for k in kept
                if any(
                    _absorb(k, seed.string, start, value, poim, window)
                    for start, value in zip(seed.starts, seed.values, strict=True)
                )
            ),
            None,
        )
        if home is None:
            kept.append(seed)
    return kept


def site_seeds(poim: Poim, n_top: int = 200) -> list[str]:
    """Distinct k-mers of the strongest POIM entries, of every start, and more.

    The k-mers of `_candidates` (with every start) as they are, not
    assembled: a motif planted on both strands at one place shows both
    orientations there, and assembling them would make a chimera. Longer
    motifs grow from these seeds by their flanks (`poimkit.motifs.sites`).
    Then the `N_DISTINCT` highest-order k-mers with the largest values at
    their best start, so that every strong family of k-mers has seeds, not
    only the strongest one (whose variants fill the strongest entries).

    Parameters
    ----------
    poim : Poim
        POIMs of a model.
    n_top : int
        How many top entries of the highest order to take.

    Returns
    -------
    list of str
        Strongest first.
    """
    q = poim.q(poim.max_order)
    best = q.max(axis=0)
    distinct = [
        kmer_string(int(z), poim.max_order)
        for z in np.argsort(-best, kind="stable")[:N_DISTINCT]
        if best[z] > 0
    ]
    found = [k for k, _, _ in _candidates(poim, n_top, True)]
    return list(dict.fromkeys(found + distinct))
