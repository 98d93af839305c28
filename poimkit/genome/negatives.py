"""Genomic background windows matched to the positives' GC and repeat content.

`genomic_negatives` draws, for each positive window, ``per_positive`` windows
of the same length elsewhere in the genome whose GC fraction and soft-masked
(repeat) fraction are within the given tolerances of the positive's, as
gkmSVM-R's ``genNullSeqs`` does (Ghandi et al. 2014), and that overlap no
peak, no positive window and no other chosen negative. `write_negatives_bed`
writes them as BED6. `NEGATIVE_KINDS` says what each kind of negative set can
and cannot show, for summaries and reports.

How it works (fast enough for 10,000 peaks on a 50 Mb genome in seconds):

1. Candidate windows are drawn in large vectorised batches, a chromosome with
   probability proportional to its number of possible starts and a start
   uniformly inside it, so no window runs past a chromosome end.
2. Candidates overlapping an excluded interval (peaks, positive windows,
   negatives already chosen) are dropped with one ``searchsorted`` on the
   merged, sorted intervals.
3. Each chromosome is read once, as one flag byte per letter packed two a
   byte (kept across batches up to `SEARCH_LETTERS` letters, a human genome
   in 1.6 GB; a larger genome is read again for each batch), and a numba
   kernel counts each candidate's G+C, A+C+G+T and lowercase letters.
   Candidates with more than ``max_n_fraction`` other letters (``N``) are
   dropped.
4. Candidates are binned by (GC, repeat) with bins as wide as the
   tolerances; each positive, the positives with the fewest candidates near
   them first, takes the nearest unused candidate in its bin and the eight
   around it that lies within both tolerances; the candidates overlapping
   the one taken are used up with it.
5. Positives still short get a new, twice larger batch, until all are
   matched or ``max_tries`` candidates per requested negative were drawn.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from .._validation import as_rng, check_int, check_real
from ..errors import InputError
from ._negatives import (
    Space,
    count_windows,
    flag_table,
    letter_flags,
    match_group,
    merge,
    overlaps,
    pack_flags,
)

__all__ = [
    "NEGATIVE_KINDS",
    "GenomicNegatives",
    "genomic_negatives",
    "share_letters",
    "write_negatives_bed",
]

#: What each kind of negative set can and cannot tell, for summary.json and
#: the report.
NEGATIVE_KINDS = {
    "genomic": (
        "Genomic background: windows drawn elsewhere in the same genome, of the "
        "same length as each peak, with GC and soft-masked repeat fractions "
        "matched to it and overlapping no peak. They keep the genome's own "
        "biases (GC, repeats, common k-mers), so what the model learns beyond "
        "them is sequence-specific to the peaks: the motifs it reports are "
        "not explained by GC or repeat content. They cannot rule out other "
        "unmatched differences between peaks and background (promoter and "
        "CpG-island context, conservation, mappability), and some windows may "
        "hold unannotated sites of the same factor."
    ),
    "shuffle": (
        "Dinucleotide shuffles of the positives: each keeps its positive's "
        "letters and dinucleotide counts exactly, so composition (GC, CpG, "
        "any single letter or pair) can never be a motif; the model can only "
        "learn longer order. They are not genome sequence: they cannot show "
        "what separates peaks from the rest of the genome, and the model may "
        "learn to recognise features of real genomic DNA (repeats, longer "
        "k-mer statistics) rather than the factor's binding sites."
    ),
    "file": (
        "Negatives given by the user: what they can tell depends on how they "
        "were made; the model learns whatever separates them from the "
        "positives, composition and repeats included unless they were matched."
    ),
}

_FIRST_BATCH = 8  # candidates per missing negative in the first batch
_MAX_BATCH = 4_000_000  # candidates per batch at most (memory bound)


# ---------------------------------------------- checked inputs, letter counts
#: keep chromosomes in memory up to this many letters
CACHE_LETTERS = 1 << 29
#: a search keeps the chromosomes it reads (half a byte a letter) up to this many
#: letters (a human or mouse genome): each batch of candidates then reads none
SEARCH_LETTERS = 1 << 32


def _check_genome(genome: object) -> None:
    """Refuse a genome without ``lengths``, ``codes`` and ``soft_masked``."""
    for attr in ("lengths", "codes", "soft_masked"):
        if not hasattr(genome, attr):
            raise InputError(
                f"genome must have lengths, codes and soft_masked (a Genome from "
                f"poimkit.genome.open_genome); it has no {attr!r}"
            )


@dataclass(frozen=True)
class _Settings:
    """The checked settings of one call of `genomic_negatives`."""

    per_positive: int
    max_tries: int
    gc_tolerance: float
    repeat_tolerance: float
    max_n_fraction: float
    min_matched: float


def _check_settings(
    per_positive: int,
    max_tries: int,
    gc_tolerance: float,
    repeat_tolerance: float,
    max_n_fraction: float,
    min_matched: float,
    seed: int | None,
) -> _Settings:
    """The settings of `genomic_negatives`, checked."""
    per_positive = check_int(per_positive, "per_positive", 1)
    max_tries = check_int(max_tries, "max_tries", 1)
    gc_tol = check_real(gc_tolerance, "gc_tolerance", 0.0, 1.0)
    rep_tol = check_real(repeat_tolerance, "repeat_tolerance", 0.0, 1.0)
    if not (isinstance(max_n_fraction, int | float) and 0 <= max_n_fraction < 1):
        raise InputError(f"max_n_fraction must be in [0, 1), got {max_n_fraction!r}")
    if not (isinstance(min_matched, int | float) and 0 <= min_matched <= 1):
        raise InputError(f"min_matched must be in [0, 1], got {min_matched!r}")
    if seed is not None and not isinstance(seed, int | np.integer):
        raise InputError(f"seed must be an int or None, got {seed!r}")
    return _Settings(
        per_positive, max_tries, gc_tol, rep_tol, max_n_fraction, min_matched
    )


def _allowed_chromosomes(chroms: Sequence[str] | None, names: list[str]) -> np.ndarray:
    """Whether negatives may come from each chromosome (all, or ``chroms``)."""
    if chroms is None:
        return np.ones(len(names), dtype=bool)
    wanted = set(chroms)
    missing = wanted - set(names)
    if missing:
        raise InputError(f"chroms: {sorted(missing)[0]!r} is not in the genome")
    return np.array([c in wanted for c in names])


def _check_windows(
    chrom: Sequence[str],
    start: object,
    end: object,
    lengths: dict[str, int],
    name: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate windows; return chromosome index, start, end (int64)."""
    chrom = list(chrom)
    start = np.asarray(start)
    end = np.asarray(end)
    if start.ndim != 1 or end.ndim != 1 or not len(chrom) == start.size == end.size:
        raise InputError(
            f"{name}: chrom, start and end must be 1-D and equally long, got "
            f"{len(chrom)}, {start.shape} and {end.shape}"
        )
    for arr, what in ((start, "start"), (end, "end")):
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise InputError(f"{name}: {what} must be integers, got {arr.dtype}")
    start = start.astype(np.int64)
    end = end.astype(np.int64)
    index = {c: i for i, c in enumerate(lengths)}
    size = np.array(list(lengths.values()), dtype=np.int64)
    ci = np.empty(len(chrom), dtype=np.int64)
    for i, c in enumerate(chrom):
        k = index.get(c)
        if k is None:
            raise InputError(
                f"{name} {i + 1} ({c}:{start[i]}-{end[i]}): chromosome {c!r} is "
                "not in the genome"
            )
        ci[i] = k
    bad = np.flatnonzero((start < 0) | (end <= start) | (end > size[ci]))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"{name} {i + 1} ({chrom[i]}:{start[i]}-{end[i]}) is empty or outside "
            f"the chromosome (length {size[ci[i]]})"
        )
    return ci, start, end


def _user_intervals(
    exclude: object, names: list[str], size: np.ndarray, offset: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The ``exclude`` triple on one axis, clipped to the genome's chromosomes."""
    try:
        ec, es, ee = exclude
    except (TypeError, ValueError):
        raise InputError(
            "exclude must be a (chrom, start, end) triple of sequences"
        ) from None
    ec = list(ec)
    try:
        es = np.asarray(es, dtype=np.int64).ravel()
        ee = np.asarray(ee, dtype=np.int64).ravel()
    except (TypeError, ValueError):
        raise InputError("exclude: start and end must be integers") from None
    if not len(ec) == es.size == ee.size:
        raise InputError("exclude: chrom, start and end differ in length")
    index = {c: i for i, c in enumerate(names)}
    k = np.array([index.get(c, -1) for c in ec], dtype=np.int64)
    known = k >= 0
    k, es, ee = k[known], es[known], ee[known]
    es = np.clip(es, 0, size[k])
    ee = np.clip(ee, 0, size[k])
    return offset[k] + es, offset[k] + ee


#: one genome file's chromosome letters kept between searches (`share_letters`):
#: its identity (path, size, modification time) and the letters by chromosome
_SHARED: dict = {"on": False, "key": None, "letters": {}}


def share_letters(on: bool = True) -> None:
    """Keep one genome file's letters between searches in this process.

    A process that makes the negatives of many experiments on one genome (a
    worker of ``poimkit batch``) reads each chromosome once, not once per
    experiment. Only a genome file small enough to keep (`CACHE_LETTERS`) is
    kept, one file at a time; a file changed since (size, modification time)
    is read again.

    Parameters
    ----------
    on : bool, default=True
        Keep the letters (turning it on again keeps what is kept: each of a
        worker's experiments says so); False drops them and stops keeping.
    """
    if bool(on) != _SHARED["on"]:
        _SHARED.update(on=bool(on), key=None, letters={})


def _kept_letters(genome: object) -> dict:
    """The letters kept for ``genome``'s file, or a fresh dict (not sharing)."""
    from .reference import Genome

    if not _SHARED["on"] or not isinstance(genome, Genome):
        return {}
    stat = os.stat(genome.path)
    key = (os.path.realpath(genome.path), stat.st_size, stat.st_mtime_ns)
    if _SHARED["key"] != key:
        _SHARED.update(key=key, letters={})
    return _SHARED["letters"]


class _Letters:
    """Chromosome letter flags, read once (kept while the genome is small).

    One byte per letter (`letter_flags`), two a byte once read (`pack_flags`):
    a read of a chromosome is one table look-up of its text, and what is kept
    takes a quarter of the memory of its codes and soft-mask. A search keeps
    what it reads up to `SEARCH_LETTERS` letters; a batch's worker shares
    them between searches up to `CACHE_LETTERS`.
    """

    _table: np.ndarray | None = None

    def __init__(self, genome: object, names: list[str]) -> None:
        self.genome = genome
        self.names = names
        total = sum(genome.lengths[c] for c in names)
        self.keep = total <= SEARCH_LETTERS
        shared = total <= CACHE_LETTERS
        self.cache: dict[str, np.ndarray] = _kept_letters(genome) if shared else {}

    def __call__(self, k: int) -> np.ndarray:
        name = self.names[k]
        got = self.cache.get(name)
        if got is None:
            from .reference import Genome

            if isinstance(self.genome, Genome):  # one read, one look-up
                if _Letters._table is None:
                    _Letters._table = flag_table()
                got = _Letters._table[self.genome.letters(name)]
            else:
                got = letter_flags(
                    self.genome.codes(name), self.genome.soft_masked(name)
                )
            got = pack_flags(np.ascontiguousarray(got, dtype=np.uint8))
            if self.keep:
                self.cache[name] = got
        return got


def _count_letters(
    letters: _Letters, ci: np.ndarray, start: np.ndarray, length: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """GC, ACGT and lowercase counts of windows, reading each chromosome once."""
    n = ci.size
    gc = np.zeros(n, dtype=np.int64)
    acgt = np.zeros(n, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    order = np.argsort(ci, kind="stable")
    bounds = np.flatnonzero(np.diff(ci[order])) + 1
    for part in np.split(order, bounds):
        if part.size == 0:
            continue
        flags = letters(int(ci[part[0]]))
        g = np.empty(part.size, dtype=np.int64)
        a = np.empty(part.size, dtype=np.int64)
        w = np.empty(part.size, dtype=np.int64)
        count_windows(flags, start[part], length[part], g, a, w)
        gc[part], acgt[part], low[part] = g, a, w
    return gc, acgt, low


def _groups(values: np.ndarray) -> dict[int, np.ndarray]:
    """Indices of ``values`` grouped by value (value -> sorted indices)."""
    order = np.argsort(values, kind="stable")
    cuts = np.flatnonzero(np.diff(values[order])) + 1
    return {int(values[part[0]]): part for part in np.split(order, cuts) if part.size}


# ------------------------------------------------------------------ the search
@dataclass(frozen=True)
class GenomicNegatives:
    """Genomic background windows and how well they match the positives.

    Attributes
    ----------
    chrom : list of str
        Chromosome of each negative.
    start, end : numpy.ndarray of int64
        0-based half-open coordinates of each negative.
    positive : numpy.ndarray of int64
        Index of the positive window each negative matches.
    gc, repeat : numpy.ndarray of float64
        GC fraction (of the A, C, G, T letters) and soft-masked fraction (of
        all letters) of each negative.
    positive_chrom : list of str
    positive_start, positive_end : numpy.ndarray of int64
        The positive windows, as given.
    positive_gc, positive_repeat : numpy.ndarray of float64
        Their GC and repeat fractions (GC is NaN for a window without A, C,
        G or T).
    shortfall : numpy.ndarray of int64
        Negatives each positive is missing (0 when fully matched).
    per_positive : int
    seed : int or None
    gc_tolerance, repeat_tolerance, max_n_fraction : float
        The settings used.
    candidates : int
        Candidate windows drawn in all.
    """

    chrom: list[str]
    start: np.ndarray
    end: np.ndarray
    positive: np.ndarray
    gc: np.ndarray
    repeat: np.ndarray
    positive_chrom: list[str]
    positive_start: np.ndarray
    positive_end: np.ndarray
    positive_gc: np.ndarray
    positive_repeat: np.ndarray
    shortfall: np.ndarray
    per_positive: int
    seed: int | None
    gc_tolerance: float
    repeat_tolerance: float
    max_n_fraction: float
    candidates: int

    def __len__(self) -> int:
        return len(self.chrom)

    @property
    def requested(self) -> int:
        """Negatives asked for: positives times ``per_positive``."""
        return len(self.positive_chrom) * self.per_positive

    @property
    def n_unmatched(self) -> int:
        """Negatives that could not be matched (requested minus found)."""
        return int(self.shortfall.sum())

    def describe(self) -> dict:
        """How the negatives were made, as plain JSON-ready values.

        Returns
        -------
        dict
            ``kind``, ``method``, settings, counts, and the mean GC and repeat
            fractions of positives and negatives.
        """

        def mean(values: np.ndarray) -> float | None:
            values = values[np.isfinite(values)]
            return round(float(values.mean()), 4) if values.size else None

        return {
            "kind": "genomic",
            "method": (
                "random genome windows of each positive's length, GC within "
                f"±{self.gc_tolerance:g} and soft-masked fraction within "
                f"±{self.repeat_tolerance:g} of it, at most "
                f"{self.max_n_fraction:g} N, overlapping no peak, positive "
                "window or other negative"
            ),
            "what_it_tells": NEGATIVE_KINDS["genomic"],
            "per_positive": self.per_positive,
            "seed": self.seed,
            "gc_tolerance": self.gc_tolerance,
            "repeat_tolerance": self.repeat_tolerance,
            "max_n_fraction": self.max_n_fraction,
            "requested": self.requested,
            "matched": len(self),
            "unmatched": self.n_unmatched,
            "positives_short": int((self.shortfall > 0).sum()),
            "candidates_drawn": self.candidates,
            "positive_gc_mean": mean(self.positive_gc),
            "negative_gc_mean": mean(self.gc),
            "positive_repeat_mean": mean(self.positive_repeat),
            "negative_repeat_mean": mean(self.repeat),
        }


# ----------------------------------------------------------------- helpers


@dataclass(frozen=True)
class _Windows:
    """Windows: chromosome index, start, length; GC and repeat fractions if counted."""

    ci: np.ndarray
    start: np.ndarray
    length: np.ndarray
    gc: np.ndarray | None = None
    repeat: np.ndarray | None = None

    @property
    def end(self) -> np.ndarray:
        """End of each window (excluded)."""
        return self.start + self.length

    def __getitem__(self, keep: np.ndarray) -> _Windows:
        """The windows ``keep`` selects (a mask or indices)."""
        return _Windows(
            self.ci[keep],
            self.start[keep],
            self.length[keep],
            None if self.gc is None else self.gc[keep],
            None if self.repeat is None else self.repeat[keep],
        )


@dataclass
class _Search:
    """The genome on one axis, the positives, what is excluded and what was found.

    Chromosome ``k`` starts at ``offset[k]`` of the one axis; ``need`` holds
    the negatives each positive still lacks, ``ex_start``/``ex_end`` the merged
    excluded intervals, ``found`` a (positive index, negatives) pair per match.
    """

    names: list[str]
    size: np.ndarray
    offset: np.ndarray
    allowed: np.ndarray
    letters: _Letters
    positives: _Windows
    need: np.ndarray
    ex_start: np.ndarray
    ex_end: np.ndarray
    found: list[tuple[np.ndarray, _Windows]] = field(default_factory=list)
    drawn: int = 0


def _measure(
    letters: _Letters, ci: np.ndarray, start: np.ndarray, end: np.ndarray
) -> _Windows:
    """Windows with their GC (NaN without A, C, G or T) and repeat fractions."""
    length = end - start
    n_gc, n_acgt, n_low = _count_letters(letters, ci, start, length)
    with np.errstate(invalid="ignore", divide="ignore"):
        gc = np.where(n_acgt > 0, n_gc / np.maximum(n_acgt, 1), np.nan)
    return _Windows(ci, start, length, gc, n_low / length)


def _excluded(
    exclude: object,
    names: list[str],
    size: np.ndarray,
    offset: np.ndarray,
    positives: _Windows,
) -> tuple[np.ndarray, np.ndarray]:
    """Merged intervals on one axis no negative may overlap: positives, ``exclude``."""
    starts = [offset[positives.ci] + positives.start]
    ends = [offset[positives.ci] + positives.end]
    if exclude is not None:
        start, end = _user_intervals(exclude, names, size, offset)
        starts.append(start)
        ends.append(end)
    return merge(np.concatenate(starts), np.concatenate(ends))


def _start_search(
    genome: object,
    windows: tuple[Sequence[str], object, object],
    exclude: object,
    chroms: Sequence[str] | None,
    per_positive: int,
) -> _Search:
    """The search before any batch: positives checked and measured, exclusions."""
    lengths = dict(genome.lengths)
    names = list(lengths)
    size = np.array([lengths[c] for c in names], dtype=np.int64)
    offset = np.zeros(size.size, dtype=np.int64)
    np.cumsum(size[:-1], out=offset[1:])
    ci, start, end = _check_windows(*windows, lengths, "window")
    if ci.size == 0:
        raise InputError("no positive windows to match negatives to")
    letters = _Letters(genome, names)
    positives = _measure(letters, ci, start, end)
    ex_start, ex_end = _excluded(exclude, names, size, offset, positives)
    allowed = _allowed_chromosomes(chroms, names)
    need = np.where(np.isfinite(positives.gc), per_positive, 0).astype(np.int64)
    return _Search(
        names, size, offset, allowed, letters, positives, need, ex_start, ex_end
    )


def _batch_sizes(search: _Search, max_tries: int) -> Iterator[int]:
    """Step 5: candidates per missing negative of each batch, doubling each time.

    Stops when every positive is matched or ``max_tries`` were drawn per slot.
    """
    drawn_per_slot = 0
    factor = _FIRST_BATCH
    while search.need.sum() > 0 and drawn_per_slot < max_tries:
        factor = min(factor, max_tries - drawn_per_slot)
        drawn_per_slot += factor
        yield factor
        factor *= 2


def _draw_candidates(
    search: _Search, open_pos: np.ndarray, factor: int, rng: np.random.Generator
) -> _Windows | None:
    """Step 1: random windows of each length still short (None if none fit)."""
    need, plen = search.need, search.positives.length
    c_ci, c_start, c_len = [], [], []
    total_need = int(need[open_pos].sum())
    scale = min(1.0, _MAX_BATCH / max(1, total_need * factor))
    room_all = np.where(search.allowed, search.size, 0)
    for L, owners in _groups(plen[open_pos]).items():
        slots = int(need[open_pos[owners]].sum())
        m = max(64, int(slots * factor * scale))
        room = np.maximum(room_all - L + 1, 0)
        if room.sum() == 0:
            continue
        k = rng.choice(search.size.size, size=m, p=room / room.sum())
        s = (rng.random(m) * room[k]).astype(np.int64)
        c_ci.append(k)
        c_start.append(s)
        c_len.append(np.full(m, L, dtype=np.int64))
    if not c_ci:
        return None
    return _Windows(
        np.concatenate(c_ci), np.concatenate(c_start), np.concatenate(c_len)
    )


def _outside_exclusions(search: _Search, candidates: _Windows) -> _Windows:
    """Step 2: the candidates that overlap no excluded interval."""
    g0 = search.offset[candidates.ci] + candidates.start
    ok = ~overlaps(g0, g0 + candidates.length, search.ex_start, search.ex_end)
    return candidates[ok]


def _composition(
    search: _Search, candidates: _Windows, settings: _Settings
) -> _Windows:
    """Step 3: the candidates with few enough ``N``, with GC and repeat fractions."""
    cl = candidates.length
    n_gc, n_acgt, n_low = _count_letters(
        search.letters, candidates.ci, candidates.start, cl
    )
    ok = (cl - n_acgt <= settings.max_n_fraction * cl) & (n_acgt > 0)
    kept = candidates[ok]
    return replace(kept, gc=n_gc[ok] / n_acgt[ok], repeat=n_low[ok] / kept.length)


def _candidate_space(search: _Search, candidates: _Windows) -> Space:
    """The candidates by position, none used: a taken one uses up its overlaps."""
    g0 = search.offset[candidates.ci] + candidates.start
    by_rank = np.argsort(g0, kind="stable")
    rank = np.empty_like(by_rank)
    rank[by_rank] = np.arange(by_rank.size)
    cl = candidates.length
    return Space(
        np.zeros(candidates.ci.size, dtype=bool),
        rank,
        by_rank,
        g0[by_rank],
        (g0 + cl)[by_rank],
        int(cl.max()) if cl.size else 1,
    )


def _match(
    search: _Search,
    candidates: _Windows,
    open_pos: np.ndarray,
    settings: _Settings,
    rng: np.random.Generator,
) -> None:
    """Step 4: positives still short take their nearest candidates, by length."""
    space = _candidate_space(search, candidates)
    positives = search.positives
    owners_of = _groups(positives.length[open_pos])
    for L, take in _groups(candidates.length).items():
        owners = open_pos[owners_of[L]]
        slot_pos = np.repeat(owners, search.need[owners])
        if slot_pos.size == 0:
            continue
        chosen = match_group(
            positives.gc[slot_pos],
            positives.repeat[slot_pos],
            candidates.gc,
            candidates.repeat,
            take,
            space,
            settings.gc_tolerance,
            settings.repeat_tolerance,
            rng,
        )
        hit = chosen >= 0
        _keep(search, slot_pos[hit], candidates[chosen[hit]])


def _keep(search: _Search, positive: np.ndarray, negatives: _Windows) -> None:
    """Record negatives of their positives and exclude them from later batches."""
    search.found.append((positive, negatives))
    np.subtract.at(search.need, positive, 1)
    gs = search.offset[negatives.ci] + negatives.start
    search.ex_start, search.ex_end = merge(
        np.concatenate([search.ex_start, gs]),
        np.concatenate([search.ex_end, gs + negatives.length]),
    )


def _found(search: _Search) -> tuple[np.ndarray, _Windows]:
    """Positive index and negatives found, sorted by positive, then by position."""

    def joined(arrays: list[np.ndarray], dtype: type) -> np.ndarray:
        return np.concatenate(arrays) if arrays else np.empty(0, dtype)

    negatives = [w for _, w in search.found]
    pos_idx = joined([p for p, _ in search.found], np.int64)
    nci = joined([w.ci for w in negatives], np.int64)
    nstart = joined([w.start for w in negatives], np.int64)
    ngc = joined([w.gc for w in negatives], np.float64)
    nrep = joined([w.repeat for w in negatives], np.float64)
    order = np.lexsort((search.offset[nci] + nstart, pos_idx))
    pos_idx = pos_idx[order]
    length = search.positives.length[pos_idx]
    return pos_idx, _Windows(nci[order], nstart[order], length, ngc[order], nrep[order])


def _check_enough(n_found: int, search: _Search, settings: _Settings) -> None:
    """Refuse fewer than ``min_matched`` of the negatives asked for."""
    requested = search.positives.ci.size * settings.per_positive
    if n_found < settings.min_matched * requested:
        raise InputError(
            f"the genome gave only {n_found} of {requested} negatives with "
            f"GC within ±{settings.gc_tolerance:g} and repeat fraction within "
            f"±{settings.repeat_tolerance:g} of their positive (after "
            f"{search.drawn} candidate windows); widen the tolerances, ask for "
            "fewer negatives per positive, or give negatives as a file"
        )


def _result(
    search: _Search,
    positive: np.ndarray,
    negatives: _Windows,
    settings: _Settings,
    seed: int | None,
) -> GenomicNegatives:
    """The negatives, their positives and the settings as `GenomicNegatives`."""
    names, positives = search.names, search.positives
    n_pos = positives.ci.size
    shortfall = settings.per_positive - np.bincount(positive, minlength=n_pos)
    return GenomicNegatives(
        chrom=[names[k] for k in negatives.ci.tolist()],
        start=negatives.start,
        end=negatives.end,
        positive=positive.astype(np.int64),
        gc=negatives.gc.astype(np.float64),
        repeat=negatives.repeat.astype(np.float64),
        positive_chrom=[names[k] for k in positives.ci.tolist()],
        positive_start=positives.start,
        positive_end=positives.end,
        positive_gc=positives.gc.astype(np.float64),
        positive_repeat=positives.repeat.astype(np.float64),
        shortfall=shortfall.astype(np.int64),
        per_positive=settings.per_positive,
        seed=None if seed is None else int(seed),
        gc_tolerance=settings.gc_tolerance,
        repeat_tolerance=settings.repeat_tolerance,
        max_n_fraction=float(settings.max_n_fraction),
        candidates=int(search.drawn),
    )


# ----------------------------------------------------------------- public


def genomic_negatives(
    genome: object,
    windows_chrom: Sequence[str],
    windows_start: Sequence[int] | np.ndarray,
    windows_end: Sequence[int] | np.ndarray,
    *,
    exclude: tuple[Sequence[str], Sequence[int], Sequence[int]] | None = None,
    per_positive: int = 1,
    seed: int | None = 0,
    gc_tolerance: float = 0.02,
    repeat_tolerance: float = 0.02,
    max_n_fraction: float = 0.0,
    max_tries: int = 1000,
    min_matched: float = 0.5,
    chroms: Sequence[str] | None = None,
    progress: bool = False,
) -> GenomicNegatives:
    """Genome windows matched to the positives' GC and repeat content.

    Parameters
    ----------
    genome : Genome
        A `poimkit.genome.reference.Genome` (or anything with ``lengths``,
        ``codes(chrom)`` and ``soft_masked(chrom)``).
    windows_chrom, windows_start, windows_end : sequences
        The positive windows (0-based, end excluded); lengths may differ.
    exclude : (chrom, start, end), optional
        Intervals no negative may overlap, typically all peaks before any
        filtering; the positive windows are always excluded too. Intervals on
        chromosomes the genome lacks are ignored.
    per_positive : int, optional
        Negatives per positive (default 1).
    seed : int or None, optional
        Seed of the random source (default 0).
    gc_tolerance : float, optional
        Largest allowed difference between the GC fraction (of A, C, G, T
        letters) of a negative and of its positive (default 0.02).
    repeat_tolerance : float, optional
        The same for the soft-masked (lowercase) fraction (default 0.02).
    max_n_fraction : float, optional
        Largest fraction of other letters (``N``) in a negative (default 0:
        none, as the models read only A, C, G, T).
    max_tries : int, optional
        Give up after this many candidate windows per requested negative
        (default 1000).
    min_matched : float, optional
        Raise `InputError` when fewer than this fraction of the requested
        negatives could be matched (default 0.5); a smaller shortfall is
        reported in ``shortfall`` and `GenomicNegatives.describe`.
    chroms : sequence of str, optional
        Draw negatives only from these chromosomes (default: all).
    progress : bool, optional
        Show a tqdm progress bar (negatives found) on standard error.

    Returns
    -------
    GenomicNegatives
        The negatives sorted by positive, then by position; each has its
        positive's length, overlaps no excluded interval, no positive window
        and no other negative, and has GC and repeat fractions within the
        tolerances of its positive's.

    Raises
    ------
    InputError
        For a window on a chromosome the genome lacks or outside it, bad
        settings, or when fewer than ``min_matched`` of the negatives could
        be matched.

    Notes
    -----
    GC fraction = (G + C) / (A + C + G + T) of the window; repeat fraction =
    lowercase letters / window length. A positive whose window holds no A, C,
    G or T cannot be matched. Matching is greedy, hardest positives first,
    each taking the nearest unused candidate (distance: the larger of the two
    differences in tolerance units), so within each pair both differences are
    within the tolerances and the GC and repeat distributions of positives
    and negatives differ by at most the tolerances (Wasserstein distance).

    References
    ----------
    Ghandi M, Lee D, Mohammad-Noori M, Beer MA (2014). Enhanced regulatory
    sequence prediction using gapped k-mer features. PLoS Comput Biol
    10:e1003711 (gkmSVM-R ``genNullSeqs``).

    Examples
    --------
    >>> import numpy as np
    >>> class Toy:  # anything with lengths, codes and soft_masked
    ...     seq = np.random.default_rng(0).integers(0, 4, 100_000).astype(np.uint8)
    ...     lengths = {"chr1": seq.size}
    ...     def codes(self, chrom): return self.seq
    ...     def soft_masked(self, chrom): return np.zeros(self.seq.size, bool)
    >>> neg = genomic_negatives(Toy(), ["chr1", "chr1"], [1000, 5000], [1200, 5300])
    >>> (neg.end - neg.start).tolist(), neg.positive.tolist(), neg.n_unmatched
    ([200, 300], [0, 1], 0)
    >>> bool(np.all(np.abs(neg.gc - neg.positive_gc[neg.positive]) <= 0.02))
    True
    """
    _check_genome(genome)
    settings = _check_settings(
        per_positive,
        max_tries,
        gc_tolerance,
        repeat_tolerance,
        max_n_fraction,
        min_matched,
        seed,
    )
    rng = as_rng(seed, "seed")
    search = _start_search(
        genome,
        (windows_chrom, windows_start, windows_end),
        exclude,
        chroms,
        settings.per_positive,
    )
    from tqdm.auto import tqdm

    with tqdm(
        total=int(search.need.sum()),
        desc="genomic negatives",
        unit="seq",
        disable=not progress,
    ) as bar:
        for factor in _batch_sizes(search, settings.max_tries):  # step 5
            before = int(search.need.sum())
            open_pos = np.flatnonzero(search.need > 0)
            candidates = _draw_candidates(search, open_pos, factor, rng)  # step 1
            if candidates is None:
                break
            search.drawn += candidates.ci.size
            candidates = _outside_exclusions(search, candidates)  # step 2
            candidates = _composition(search, candidates, settings)  # step 3
            _match(search, candidates, open_pos, settings, rng)  # step 4
            bar.update(before - int(search.need.sum()))
    positive, negatives = _found(search)
    _check_enough(positive.size, search, settings)
    return _result(search, positive, negatives, settings, seed)


def write_negatives_bed(
    path: str | os.PathLike,
    negatives: GenomicNegatives,
    positive_names: Sequence[str] | None = None,
) -> None:
    """Write the negatives as BED6, atomically.

    Parameters
    ----------
    path : str or path-like
        The BED file; its folder must exist. Nothing is written on failure.
    negatives : GenomicNegatives
        From `genomic_negatives`.
    positive_names : sequence of str, optional
        A name per positive window; default ``chrom:start-end`` of the window.
        Column 4 of each line names the positive the negative matches.

    Notes
    -----
    Columns: chrom, start, end (0-based, end excluded), the matched
    positive's name, 0, ``.`` (no strand).

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> neg = GenomicNegatives(
    ...     ["chr2"], np.array([10]), np.array([20]), np.array([0]),
    ...     np.array([0.5]), np.array([0.0]), ["chr1"], np.array([0]),
    ...     np.array([10]), np.array([0.5]), np.array([0.0]), np.array([0]),
    ...     1, 0, 0.02, 0.02, 0.0, 1)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     out = os.path.join(folder, "negatives.bed")
    ...     write_negatives_bed(out, neg)
    ...     open(out).read().split()
    ['chr2', '10', '20', 'chr1:0-10', '0', '.']
    """
    from ..io import atomic_path

    n_pos = len(negatives.positive_chrom)
    if positive_names is None:
        positive_names = [
            f"{c}:{s}-{e}"
            for c, s, e in zip(
                negatives.positive_chrom,
                negatives.positive_start.tolist(),
                negatives.positive_end.tolist(),
                strict=True,
            )
        ]
    elif len(positive_names) != n_pos:
        raise InputError(
            f"positive_names has {len(positive_names)} names for {n_pos} positives"
        )
    lines = [
        f"{c}\t{s}\t{e}\t{positive_names[p]}\t0\t.\n"
        for c, s, e, p in zip(
            negatives.chrom,
            negatives.start.tolist(),
            negatives.end.tolist(),
            negatives.positive.tolist(),
            strict=True,
        )
    ]
    with atomic_path(path) as tmp, open(tmp, "w", encoding="ascii") as handle:
        handle.writelines(lines)
