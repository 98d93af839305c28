"""The pieces of `poimkit.genome.negatives`: checked inputs and letter counts.

`check_genome`, `check_settings`, `allowed_chromosomes`, `check_windows` and
`user_intervals` check what the caller gives; `Letters` reads each chromosome
once (and keeps it while the genome is small), `count_letters` counts the
letters of many windows with it, and `groups` gathers equal values (windows
of one length).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._validation import check_int, check_real
from ..errors import InputError
from ._negatives import count_windows

#: keep chromosomes in memory up to this many letters
CACHE_LETTERS = 1 << 29


def check_genome(genome: object) -> None:
    """Refuse a genome without ``lengths``, ``codes`` and ``soft_masked``."""
    for attr in ("lengths", "codes", "soft_masked"):
        if not hasattr(genome, attr):
            raise InputError(
                f"genome must have lengths, codes and soft_masked (a Genome from "
                f"poimkit.genome.open_genome); it has no {attr!r}"
            )


@dataclass(frozen=True)
class Settings:
    """The checked settings of one call of `genomic_negatives`."""

    per_positive: int
    max_tries: int
    gc_tolerance: float
    repeat_tolerance: float
    max_n_fraction: float
    min_matched: float


def check_settings(
    per_positive: int,
    max_tries: int,
    gc_tolerance: float,
    repeat_tolerance: float,
    max_n_fraction: float,
    min_matched: float,
    seed: int | None,
) -> Settings:
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
    return Settings(
        per_positive, max_tries, gc_tol, rep_tol, max_n_fraction, min_matched
    )


def allowed_chromosomes(chroms: Sequence[str] | None, names: list[str]) -> np.ndarray:
    """Whether negatives may come from each chromosome (all, or ``chroms``)."""
    if chroms is None:
        return np.ones(len(names), dtype=bool)
    wanted = set(chroms)
    missing = wanted - set(names)
    if missing:
        raise InputError(f"chroms: {sorted(missing)[0]!r} is not in the genome")
    return np.array([c in wanted for c in names])


def check_windows(
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


def user_intervals(
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


class Letters:
    """Chromosome codes and soft-mask, read once (kept while the genome is small)."""

    def __init__(self, genome: object, names: list[str]) -> None:
        self.genome = genome
        self.names = names
        self.keep = sum(genome.lengths[c] for c in names) <= CACHE_LETTERS
        self.cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __call__(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        got = self.cache.get(k)
        if got is None:
            from .reference import Genome, text_codes, text_masked

            name = self.names[k]
            if isinstance(self.genome, Genome):  # one read for both
                text = self.genome.fetch(name)
                codes, masked = text_codes(text), text_masked(text)
                del text
            else:
                codes = self.genome.codes(name)
                masked = self.genome.soft_masked(name)
            codes = np.ascontiguousarray(codes, dtype=np.uint8)
            masked = np.ascontiguousarray(masked, dtype=bool)
            got = (codes, masked)
            if self.keep:
                self.cache[k] = got
        return got


def count_letters(
    letters: Letters, ci: np.ndarray, start: np.ndarray, length: np.ndarray
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
        codes, masked = letters(int(ci[part[0]]))
        g = np.empty(part.size, dtype=np.int64)
        a = np.empty(part.size, dtype=np.int64)
        w = np.empty(part.size, dtype=np.int64)
        count_windows(codes, masked, start[part], length[part], g, a, w)
        gc[part], acgt[part], low[part] = g, a, w
    return gc, acgt, low


def groups(values: np.ndarray) -> dict[int, np.ndarray]:
    """Indices of ``values`` grouped by value (value -> sorted indices)."""
    order = np.argsort(values, kind="stable")
    cuts = np.flatnonzero(np.diff(values[order])) + 1
    return {int(values[part[0]]): part for part in np.split(order, cuts) if part.size}
