"""The matching engine of `poimkit.genome.negatives`: numba kernels and intervals.

`count_windows` counts each candidate window's letters, `match_group` pairs the
positives with the nearest unused candidates of their (GC, repeat) bin, and
`merge`/`overlaps` keep the chosen windows apart from peaks and each other.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .._config import NJIT

#: unused candidates a positive compares per bin
LOOK = 16


#: bits of a letter's flags (`poimkit.genome.negatives` reads a chromosome as
#: one flag byte per letter): A, C, G or T; G or C; lowercase (soft-masked)
ACGT_BIT, GC_BIT, LOW_BIT = 1, 2, 4


@njit(**NJIT)
def count_windows(packed, starts, lengths, gc, acgt, low):  # pragma: no cover
    """G+C, A+C+G+T and lowercase letters of each window ``[s, s + L)``.

    ``packed``: two letters a byte (`pack_flags`), each its `ACGT_BIT`,
    `GC_BIT` and `LOW_BIT`.
    """
    for i in range(starts.shape[0]):
        s = starts[i]
        n_gc = 0
        n_acgt = 0
        n_low = 0
        for p in range(s, s + lengths[i]):
            f = (np.int64(packed[p >> 1]) >> ((p & 1) << 2)) & 15
            n_acgt += f & 1
            n_gc += (f >> 1) & 1
            n_low += (f >> 2) & 1
        gc[i] = n_gc
        acgt[i] = n_acgt
        low[i] = n_low


def flag_table() -> np.ndarray:
    """Each byte's flags (`count_windows`), as `text_codes` and `text_masked` read.

    Returns
    -------
    numpy.ndarray of uint8, shape (256,)
        The flags of a letter of a chromosome's text, by its ASCII byte.
    """
    from .reference import text_codes, text_masked

    text = "".join(map(chr, range(128)))  # other bytes: "?" for both readers
    return letter_flags(text_codes(text), text_masked(text), 256, ord("?"))


def letter_flags(
    codes: np.ndarray, masked: np.ndarray, size: int | None = None, other: int = 0
) -> np.ndarray:
    """One byte per letter (`count_windows`'s flags) from codes and soft-mask.

    Parameters
    ----------
    codes : numpy.ndarray of uint8
        Letter codes (A=0, C=1, G=2, T=3, anything else 4).
    masked : numpy.ndarray of bool
        Soft-masked (lowercase) letters.
    size : int, optional
        Length of the result (default that of ``codes``); letters past
        ``codes`` take the flags of letter ``other``.
    other : int
        See ``size``.

    Returns
    -------
    numpy.ndarray of uint8
    """
    codes = np.asarray(codes)
    flags = np.zeros(codes.size if size is None else size, dtype=np.uint8)
    head = flags[: codes.size]
    head |= (codes < 4).astype(np.uint8) * ACGT_BIT
    head |= ((codes == 1) | (codes == 2)).astype(np.uint8) * GC_BIT
    head |= np.asarray(masked, dtype=bool).astype(np.uint8) * LOW_BIT
    flags[codes.size :] = flags[other]
    return flags


def pack_flags(flags: np.ndarray) -> np.ndarray:
    """Letter flags two a byte: letter ``p`` in byte ``p // 2``.

    The even letter in the low half, the odd one in the high half (0 past an
    odd end).

    Parameters
    ----------
    flags : numpy.ndarray of uint8
        One byte per letter, each below 16.

    Returns
    -------
    numpy.ndarray of uint8, shape ((n + 1) // 2,)
    """
    packed = np.zeros((flags.size + 1) // 2, dtype=np.uint8)
    packed[:] = flags[0::2]
    packed[: flags.size // 2] |= flags[1::2] << 4
    return packed


@njit(**NJIT)
def _take(gid, used, rank, by_rank, g_start, g_end, max_len):  # pragma: no cover
    """Mark candidate ``gid`` and every candidate overlapping it as used.

    ``g_start``/``g_end`` hold the candidates sorted by start (``rank[gid]``
    is the place of ``gid``, ``by_rank`` the inverse); no window is longer
    than ``max_len``, so the overlapping ones lie in a short run around it.
    """
    r = rank[gid]
    s = g_start[r]
    e = g_end[r]
    used[gid] = True
    q = r - 1
    while q >= 0 and g_start[q] > s - max_len:
        if g_end[q] > s:
            used[by_rank[q]] = True
        q -= 1
    q = r + 1
    while q < g_start.shape[0] and g_start[q] < e:
        used[by_rank[q]] = True
        q += 1


@njit(**NJIT)
def _match(
    slot_gc,
    slot_rep,
    cand_gc,
    cand_rep,
    cand_id,
    bin_first,
    n_rep_bins,
    gc_tol,
    rep_tol,
    look,
    used,
    rank,
    by_rank,
    g_start,
    g_end,
    max_len,
    chosen,
):  # pragma: no cover
    """Give each slot (in order) the nearest unused candidate within tolerance.

    The group's candidates are sorted by (GC, repeat) bin (``bin_first[b]``
    to ``bin_first[b + 1]``), ``cand_id`` being their index in the batch. A
    slot looks at the first ``look`` unused candidates of its bin and the
    eight around it and takes the nearest (the larger of the two differences
    in tolerance units) within both tolerances; the taken candidate and all
    candidates of the batch overlapping it become used. ``chosen`` gets the
    batch index, or -1.
    """
    n_bins = bin_first.shape[0] - 1
    n_gc_bins = n_bins // n_rep_bins
    head = bin_first[:-1].copy()  # first possibly unused candidate per bin
    for j in range(slot_gc.shape[0]):
        g = slot_gc[j]
        r = slot_rep[j]
        bg = min(int(g / gc_tol), n_gc_bins - 1)
        br = min(int(r / rep_tol), n_rep_bins - 1)
        best = -1
        best_d = 2.0
        for dg in range(-1, 2):
            xg = bg + dg
            if xg < 0 or xg >= n_gc_bins:
                continue
            for dr in range(-1, 2):
                xr = br + dr
                if xr < 0 or xr >= n_rep_bins:
                    continue
                b = xg * n_rep_bins + xr
                while head[b] < bin_first[b + 1] and used[cand_id[head[b]]]:
                    head[b] += 1
                seen = 0
                k = head[b]
                while k < bin_first[b + 1] and seen < look:
                    if not used[cand_id[k]]:
                        seen += 1
                        eg = abs(cand_gc[k] - g)
                        er = abs(cand_rep[k] - r)
                        if eg <= gc_tol and er <= rep_tol:
                            d = max(eg / gc_tol, er / rep_tol)
                            if d < best_d:
                                best_d = d
                                best = k
                    k += 1
        if best >= 0:
            chosen[j] = cand_id[best]
            _take(cand_id[best], used, rank, by_rank, g_start, g_end, max_len)
        else:
            chosen[j] = -1


def merge(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Union of half-open intervals as sorted, disjoint (starts, ends)."""
    if starts.size == 0:
        return starts.astype(np.int64), ends.astype(np.int64)
    order = np.argsort(starts, kind="stable")
    s, e = starts[order], ends[order]
    reach = np.maximum.accumulate(e)
    new = np.ones(s.size, dtype=bool)
    new[1:] = s[1:] > reach[:-1]
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, s.size - 1)
    return s[first], reach[last]


def overlaps(
    starts: np.ndarray, ends: np.ndarray, ex_start: np.ndarray, ex_end: np.ndarray
) -> np.ndarray:
    """Whether each ``[start, end)`` overlaps the merged intervals ``ex``."""
    i = np.searchsorted(ex_end, starts, side="right")
    hit = i < ex_start.size
    hit[hit] = ex_start[i[hit]] < ends[hit]
    return hit


class Space(NamedTuple):
    """The batch's candidates by position, and which are used up."""

    used: np.ndarray
    rank: np.ndarray
    by_rank: np.ndarray
    start: np.ndarray
    end: np.ndarray
    max_len: int


def match_group(s_gc, s_rep, c_gc, c_rep, take, space, gc_tol, rep_tol, rng):
    """Match slots to candidates ``take`` of the batch; batch index or -1 each."""
    n_gc_bins = int(math.floor(1.0 / gc_tol)) + 1
    n_rep_bins = int(math.floor(1.0 / rep_tol)) + 1
    g, r = c_gc[take], c_rep[take]
    cb = np.minimum((g / gc_tol).astype(np.int64), n_gc_bins - 1) * n_rep_bins
    cb += np.minimum((r / rep_tol).astype(np.int64), n_rep_bins - 1)
    n_bins = n_gc_bins * n_rep_bins
    order = np.argsort(cb, kind="stable")  # candidates are in random order
    counts = np.bincount(cb, minlength=n_bins)
    bin_first = np.zeros(n_bins + 1, dtype=np.int64)
    np.cumsum(counts, out=bin_first[1:])
    # scarcity of each slot: candidates in its bin and the eight around it
    grid = np.pad(counts.reshape(n_gc_bins, n_rep_bins), 1)
    near = sum(
        grid[1 + a : 1 + a + n_gc_bins, 1 + b : 1 + b + n_rep_bins]
        for a in (-1, 0, 1)
        for b in (-1, 0, 1)
    )
    sg = np.minimum((s_gc / gc_tol).astype(np.int64), n_gc_bins - 1)
    sr = np.minimum((s_rep / rep_tol).astype(np.int64), n_rep_bins - 1)
    slot_order = np.lexsort((rng.random(s_gc.size), near[sg, sr]))
    chosen = np.full(s_gc.size, -1, dtype=np.int64)
    _match(
        np.ascontiguousarray(s_gc[slot_order]),
        np.ascontiguousarray(s_rep[slot_order]),
        np.ascontiguousarray(g[order]),
        np.ascontiguousarray(r[order]),
        np.ascontiguousarray(take[order]),
        bin_first,
        n_rep_bins,
        gc_tol,
        rep_tol,
        LOOK,
        space.used,
        space.rank,
        space.by_rank,
        space.start,
        space.end,
        space.max_len,
        chosen,
    )
    out = np.empty(s_gc.size, dtype=np.int64)
    out[slot_order] = chosen
    return out
