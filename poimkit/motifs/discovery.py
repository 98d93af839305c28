"""Site motifs from a POIM's seeds: the discovery shared by every kind of evidence.

`discover` turns the seeds a POIM rewards into site motifs (PWMs of their real
occurrences) in a set of discovery sequences; `poimkit.motifs.extract` (labels:
Fisher's test) and `poimkit.motifs.continuous` (continuous targets: a rank test)
count the evidence for them on sequences the PWMs never saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..background import kmer_probability_table
from .seeds import site_seeds

if TYPE_CHECKING:
    from ..background import MarkovBackground
    from ..poim import Poim
    from .scan import Sites

#: POIM seeds turned into site motifs (`extract_motifs` with sequences), the
#: ones that explain the most score mass (`poimkit.motifs.sites.seed_mass`)
MAX_SITE_SEEDS = 100
#: a longer motif on the same sites replaces a found one if it keeps this share
#: of its sites (a motif's weakest columns can be missed from its first seed)
KEEP_SITES = 0.9
#: a seed whose sites overlap those of a stronger motif this often is dropped
SHARED_SITES = 0.5


def background_letters(background: MarkovBackground) -> np.ndarray:
    """Mean letter probabilities of A, C, G, T over a background's positions.

    Parameters
    ----------
    background : MarkovBackground
        The sequence distribution whose letters are averaged.

    Returns
    -------
    numpy.ndarray of float64, shape (4,)
    """
    return kmer_probability_table(background, 1).mean(axis=0)


def codes_for(poim: Poim, sequences: ArrayLike | Sequence[np.ndarray]) -> np.ndarray:
    """The sequences for a POIM's motifs as one code array, checked against it.

    Records of any lengths are `padded` for a position-free POIM; otherwise
    every record must have the POIM's length.

    Parameters
    ----------
    poim : Poim
        POIMs of the model the sequences are searched for.
    sequences : array-like or sequence of code arrays or strings
        As `poimkit.extract_motifs` takes them.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, L)
    """
    from .._validation import check_length
    from ..alphabet import check_codes

    if poim.position_free:
        from ..kernels.gkm import as_sequences
        from .scan import padded

        return padded(as_sequences(sequences, "sequences"))
    X = check_codes(np.asarray(sequences), "sequences")
    return check_length(X, poim.length, "the POIM is for length", "sequences")


def importance(poim: Poim, consensus: str) -> float:
    """Largest POIM value of a k-mer of the consensus (k = min(K, m)) anywhere.

    Parameters
    ----------
    poim : Poim
        POIMs of a model, orders 1 to K.
    consensus : str
        A motif's consensus, m letters over ``ACGT``.

    Returns
    -------
    float
    """
    from ..alphabet import kmer_index

    l = min(poim.max_order, len(consensus))
    q = poim.q(l)
    return float(
        max(
            q[:, kmer_index(consensus[o : o + l])].max()
            for o in range(len(consensus) - l + 1)
        )
    )


def discover(
    poim: Poim, X_discovery: np.ndarray, progress: bool = False
) -> tuple[list, int]:
    """Site motifs of the POIM's seeds in the discovery sequences.

    The seeds (`site_seeds`) that explain the most score mass in
    ``X_discovery`` (at most `MAX_SITE_SEEDS`) are turned into site motifs
    (`poimkit.motifs.sites.site_motif`), strongest first; a seed whose sites
    mostly coincide with those of a motif found before is dropped, or
    replaces it if it is longer and keeps `KEEP_SITES` of its sites, and a
    motif found on the other strand becomes the first one's twin. The PWMs'
    background is the POIM background's mean letters (`background_letters`);
    for a strand-symmetric model (``model_reverse_complement``), which rewards
    a site and its reverse complement alike, both strands are always scanned.

    Parameters
    ----------
    poim : Poim
        POIMs of the model: seeds where they are positive.
    X_discovery : numpy.ndarray of uint8, shape (n, L)
        The sequences the sites and PWMs come from.
    progress : bool
        A progress bar over the seeds.

    Returns
    -------
    found : list of [SiteMotif, Sites]
        Each motif with its sites in ``X_discovery``.
    n_examined : int
        Seeds examined (the size of the family of tests).
    """
    from tqdm.auto import tqdm

    from .sites import seed_mass, site_motif

    background = background_letters(poim.background)
    symmetric = poim.metadata.get("model_reverse_complement") == "True"
    found = []  # [SiteMotif, its sites (both strands) in the discovery half]
    seeds = site_seeds(poim)
    mass = np.array([seed_mass(X_discovery, poim, seed) for seed in seeds])
    by_mass = np.argsort(-mass, kind="stable")[:MAX_SITE_SEEDS]
    by_mass = by_mass[mass[by_mass] > 0]
    for i in tqdm(by_mass, desc="motif seeds", unit="seed", disable=not progress):
        if any(_within(seeds[i], m) for m, _ in found):
            continue  # a piece of a motif found already: its sites are the same
        candidate = site_motif(X_discovery, poim, seeds[i], background, symmetric)
        if candidate is None:
            continue
        sites = candidate.sites(X_discovery)
        same = [
            k
            for k, (m, s) in enumerate(found)
            if shared_sites(sites, candidate.length, s, m.length)
        ]
        if same:  # the same sites: keep the longer motif if it keeps them
            old, old_sites = found[same[0]]
            if (
                old.twin is None
                and candidate.length > old.length
                and sites.rows.size >= KEEP_SITES * old_sites.rows.size
            ):
                found[same[0]] = [candidate, sites]
            continue
        twin_of = next(
            (
                (entry, shift)
                for entry in found
                if entry[0].twin is None
                and (shift := entry[0].reverse_shift(candidate)) is not None
            ),
            None,
        )
        if twin_of is not None:  # the same motif on the other strand
            entry, shift = twin_of
            entry[0].twin, entry[0].twin_shift = candidate, shift
            entry[1] = entry[0].sites(X_discovery)
            continue
        found.append([candidate, sites])
    return found, int(by_mass.size)


def _within(seed: str, motif) -> bool:
    """True if the seed is in the consensus of the motif or its twin (either strand)."""
    rc = seed.translate(str.maketrans("ACGT", "TGCA"))[::-1]
    return any(
        seed in m.consensus or rc in m.consensus
        for m in (motif, motif.twin)
        if m is not None
    )


def shared_sites(a: Sites, width_a: int, b: Sites, width_b: int) -> bool:
    """True if most sites of ``a`` overlap a site of ``b`` in the same sequence.

    Parameters
    ----------
    a, b : Sites
        Sites of two motifs (`poimkit.motifs.scan.Sites`).
    width_a, width_b : int
        The motifs' lengths.

    Returns
    -------
    bool
        Whether at least `SHARED_SITES` of ``a``'s sites overlap one of ``b``.
    """
    if a.rows.size == 0:
        return True
    if b.rows.size == 0:
        return False
    idx = np.minimum(np.searchsorted(b.rows, a.rows), b.rows.size - 1)
    overlap = (
        (b.rows[idx] == a.rows)
        & (a.starts < b.starts[idx] + width_b)
        & (b.starts[idx] < a.starts + width_a)
    )
    return bool(np.mean(overlap) >= SHARED_SITES)
