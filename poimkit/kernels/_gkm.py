"""Numba kernels of the gapped k-mer (gkm) model on ragged sequences.

Sequences of any lengths travel as one ragged array: ``codes`` (uint8, every
row one after another) and ``offsets`` (row ``r`` is
``codes[offsets[r]:offsets[r + 1]]``). A row is a strand: with reverse
complements, rows ``2 i`` and ``2 i + 1`` both belong to sequence ``i``
(``row_seq`` maps a row to its sequence).

A gapped pattern of mask ``m`` at window start ``s`` is the k-mer index of the
letters ``codes[s + masks[m, q]]``, q = 0..k-1 (first letter most
significant). The gkm feature map counts, per sequence, every (mask, pattern)
over every window of l letters of every strand.
"""

import numpy as np
from numba import njit, prange

from .._alphabet import extend, push
from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT)
def _pattern(codes, start, masks, m):
    """k-mer index of the gapped pattern of mask m in the window at ``start``."""
    p = np.int64(0)
    for q in range(masks.shape[1]):
        p = extend(p, np.int64(codes[start + masks[m, q]]))
    return p


@njit(**NJIT_PARALLEL)
def gkm_gram(
    codes: np.ndarray,
    offsets: np.ndarray,
    row_seq: np.ndarray,
    masks: np.ndarray,
    mask_weight: np.ndarray,
    l: int,
    acc: np.ndarray,
) -> None:
    """Add ``sum_m w_m <c_m(x_a), c_m(x_b)>`` to ``acc[t, a, b]`` for ``a <= b``.

    ``c_m(x)`` counts the patterns of mask m in x (all strands). Masks are
    split over ``acc.shape[0]`` parallel tasks, each with its own
    accumulator; the caller adds the accumulators and mirrors the upper
    triangle. Per mask, windows are bucketed by pattern (a stable counting
    sort, so a bucket lists sequences in ascending order), runs of one
    sequence are counted, and every pair of runs in a bucket adds the product
    of their counts: the work is ``sum over buckets of (sequences in it)**2``.

    Parameters
    ----------
    codes : numpy.ndarray of uint8
        Letters of all rows, one row after another.
    offsets : numpy.ndarray of int64, shape (n_rows + 1,)
        Row ``r`` is ``codes[offsets[r]:offsets[r + 1]]``.
    row_seq : numpy.ndarray of int64, shape (n_rows,)
        Sequence of each row.
    masks : numpy.ndarray of int64, shape (n_masks, k)
        Informative positions of each gapped pattern.
    mask_weight : numpy.ndarray of float64, shape (n_masks,)
        Weight ``w_m`` of each mask.
    l : int
        Window length.
    acc : numpy.ndarray of float64, shape (n_tasks, n, n)
        Per-task accumulators (upper triangles filled).
    """
    n_tasks = acc.shape[0]
    n_masks, k = masks.shape
    n_rows = offsets.size - 1
    n_windows = 0
    for r in range(n_rows):
        n_windows += max(0, offsets[r + 1] - offsets[r] - l + 1)
    n_patterns = np.int64(1) << np.int64(2 * k)
    for t in prange(n_tasks):
        pat = np.empty(n_windows, dtype=np.int64)
        seq = np.empty(n_windows, dtype=np.int64)
        order = np.empty(n_windows, dtype=np.int64)
        start = np.zeros(n_patterns + 1, dtype=np.int64)
        fill = np.empty(n_patterns, dtype=np.int64)
        run_seq = np.empty(n_windows, dtype=np.int64)
        run_count = np.empty(n_windows, dtype=np.float64)
        for m in range(t, n_masks, n_tasks):
            weight = mask_weight[m]
            w = 0
            for r in range(n_rows):
                for s in range(offsets[r], offsets[r + 1] - l + 1):
                    pat[w] = _pattern(codes, s, masks, m)
                    seq[w] = row_seq[r]
                    w += 1
            start[:] = 0
            for w in range(n_windows):
                start[pat[w] + 1] += 1
            for b in range(n_patterns):
                start[b + 1] += start[b]
            fill[:] = start[:n_patterns]
            for w in range(n_windows):
                order[fill[pat[w]]] = seq[w]
                fill[pat[w]] += 1
            for b in range(n_patterns):
                n_runs = 0
                i = start[b]
                while i < start[b + 1]:
                    a = order[i]
                    c = 0
                    while i < start[b + 1] and order[i] == a:
                        c += 1
                        i += 1
                    run_seq[n_runs] = a
                    run_count[n_runs] = c * weight
                    n_runs += 1
                for u in range(n_runs):
                    a = run_seq[u]
                    cu = run_count[u] / weight
                    for v in range(u, n_runs):
                        acc[t, a, run_seq[v]] += cu * run_count[v]


@njit(**NJIT_PARALLEL)
def gkm_weights(
    codes: np.ndarray,
    offsets: np.ndarray,
    row_coef: np.ndarray,
    masks: np.ndarray,
    l: int,
    out: np.ndarray,
) -> None:
    """``out[m, p] += row_coef[r]`` for every pattern p of mask m in every row r.

    One mask per parallel task: each writes its own row of ``out``.

    Parameters
    ----------
    codes, offsets
        The ragged rows (as in `gkm_gram`).
    row_coef : numpy.ndarray of float64, shape (n_rows,)
        Coefficient of each row.
    masks, l
        Gapped patterns and window length (as in `gkm_gram`).
    out : numpy.ndarray of float64, shape (n_masks, 4**k)
        Pattern weights, added to.
    """
    n_masks = masks.shape[0]
    n_rows = offsets.size - 1
    for m in prange(n_masks):
        for r in range(n_rows):
            c = row_coef[r]
            for s in range(offsets[r], offsets[r + 1] - l + 1):
                out[m, _pattern(codes, s, masks, m)] += c


@njit(**NJIT_PARALLEL)
def gkm_score_rows(
    codes: np.ndarray,
    offsets: np.ndarray,
    masks: np.ndarray,
    l: int,
    table: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[r] = sum over windows and masks of table[m, pattern]`` per row.

    Parameters
    ----------
    codes, offsets, masks, l
        As in `gkm_gram`.
    table : numpy.ndarray of float64, shape (n_masks, 4**k)
        Weight of every gapped pattern (`gkm_weights`).
    out : numpy.ndarray of float64, shape (n_rows,)
    """
    n_masks = masks.shape[0]
    n_rows = offsets.size - 1
    for r in prange(n_rows):
        total = 0.0
        for m in range(n_masks):  # one row of the table stays in cache
            for s in range(offsets[r], offsets[r + 1] - l + 1):
                total += table[m, _pattern(codes, s, masks, m)]
        out[r] = total


@njit(**NJIT_PARALLEL)
def lmer_score_rows(
    codes: np.ndarray, offsets: np.ndarray, l: int, f: np.ndarray, out: np.ndarray
) -> None:
    """``out[r] = sum over the windows of row r of f[l-mer index]``.

    Parameters
    ----------
    codes, offsets, l
        As in `gkm_gram`.
    f : numpy.ndarray of float64, shape (4**l,)
        Weight of every l-mer.
    out : numpy.ndarray of float64, shape (n_rows,)
    """
    mask = (np.int64(1) << np.int64(2 * l)) - 1
    for r in prange(offsets.size - 1):
        key = np.int64(0)
        total = 0.0
        for p in range(offsets[r], offsets[r + 1]):
            key = push(key, np.int64(codes[p]), mask)
            if p - offsets[r] >= l - 1:
                total += f[key]
        out[r] = total


@njit(**NJIT)
def lmer_values(codes: np.ndarray, l: int, f: np.ndarray, out: np.ndarray) -> None:
    """``out[j] = f[l-mer index of codes[j:j+l]]`` for every window start j.

    Parameters
    ----------
    codes : numpy.ndarray of uint8, shape (n,)
        One integer-coded sequence, ``n >= l``.
    l : int
        Window length.
    f : numpy.ndarray of float64, shape (4**l,)
        Weight of every l-mer.
    out : numpy.ndarray of float64, shape (n - l + 1,)
    """
    mask = (np.int64(1) << np.int64(2 * l)) - 1
    key = np.int64(0)
    for p in range(codes.size):
        key = push(key, np.int64(codes[p]), mask)
        if p >= l - 1:
            out[p - l + 1] = f[key]


@njit(**NJIT)
def lmer_counts(
    codes: np.ndarray,
    offsets: np.ndarray,
    row_coef: np.ndarray,
    l: int,
    both_strands: bool,
    out: np.ndarray,
) -> None:
    """``out[u] += row_coef[r]`` for every l-mer u at every window of row r.

    Parameters
    ----------
    codes, offsets, l
        As in `gkm_gram`.
    row_coef : numpy.ndarray of float64, shape (n_rows,)
        What each window of a row adds.
    both_strands : bool
        Add the reverse complement of every window too.
    out : numpy.ndarray of float64, shape (4**l,)
        Coefficient-weighted l-mer counts, added to.
    """
    mask = (np.int64(1) << np.int64(2 * l)) - 1
    top = np.int64(2 * (l - 1))
    for r in range(offsets.size - 1):
        c = row_coef[r]
        if c == 0.0:  # adds nothing (e.g. rows outside the margin)
            continue
        key = np.int64(0)
        rkey = np.int64(0)
        for p in range(offsets[r], offsets[r + 1]):
            key, rkey = _roll(key, rkey, codes[p], mask, top)
            if p - offsets[r] >= l - 1:
                out[key] += c
                if both_strands:
                    out[rkey] += c


@njit(**NJIT_PARALLEL)
def lmer_counts_parts(
    codes: np.ndarray,
    offsets: np.ndarray,
    row_coef: np.ndarray,
    l: int,
    both_strands: bool,
    tables: np.ndarray,
) -> None:
    """`lmer_counts` of consecutive parts of the rows, each into its own table.

    Part ``t`` of ``P = tables.shape[0]`` takes rows ``t n / P`` to
    ``(t + 1) n / P``: the parts run in parallel, and their sum in order
    does not depend on the number of threads.

    Parameters
    ----------
    codes, offsets, row_coef, l, both_strands
        As in `lmer_counts`.
    tables : numpy.ndarray of float64, shape (P, 4**l)
        Each part's counts, added to.
    """
    n_rows = offsets.size - 1
    parts = tables.shape[0]
    for t in prange(parts):
        first = t * n_rows // parts
        last = (t + 1) * n_rows // parts
        lmer_counts(
            codes,
            offsets[first : last + 1],
            row_coef[first:last],
            l,
            both_strands,
            tables[t],
        )


@njit(**NJIT)
def _roll(key, rkey, letter, mask, top):
    """The next window's l-mer index and that of its reverse complement.

    ``mask`` keeps the last l letters (``4**l - 1``); ``top`` is ``2 (l - 1)``,
    where the complement of the new letter enters the reverse index.
    """
    c = np.int64(letter)
    key = push(key, c, mask)
    rkey = (rkey >> np.int64(2)) | ((np.int64(3) - c) << top)
    return key, rkey


@njit(**NJIT)
def letter_distance(u, v):
    """Letters where the l-mer indices u and v differ (a SWAR popcount)."""
    x = np.uint64(u ^ v)
    x = (x | (x >> np.uint64(1))) & np.uint64(0x5555555555555555)
    x = (x & np.uint64(0x3333333333333333)) + (
        (x >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(**NJIT)
def window_keys(codes, lo, hi, l, forward, reverse):
    """l-mer indices of the windows of ``codes[lo:hi]`` and of their complements.

    ``reverse[a]`` is the index of the reverse complement of window ``a``.
    """
    mask = (np.int64(1) << np.int64(2 * l)) - 1
    top = np.int64(2 * (l - 1))
    key = np.int64(0)
    rkey = np.int64(0)
    for p in range(lo, hi):
        key, rkey = _roll(key, rkey, codes[p], mask, top)
        a = p - lo - l + 1
        if a >= 0:
            forward[a] = key
            reverse[a] = rkey


@njit(**NJIT_PARALLEL)
def gkm_self_kernel(
    codes: np.ndarray,
    offsets: np.ndarray,
    l: int,
    both_strands: bool,
    h: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[i] = K(x_i, x_i)``: the gkm kernel of every sequence with itself.

    ``K(x, x) = sum_{u, v} h[d(u, v)]`` over the pairs of windows of x (and
    of its reverse complement with ``both_strands``), ``d`` the number of
    letters where two l-mers differ (`letter_distance`). Both
    strands give ``2 (sum_{u, v in x} + sum_{u in x, v in rc(x)})``, since
    reverse-complementing both words keeps their distance. The work is
    quadratic in a sequence's length and linear in their number.

    Parameters
    ----------
    codes, offsets
        The ragged rows (as in `gkm_gram`), one row per sequence (forward
        strand only).
    l : int
        Window length.
    both_strands : bool
        Count the reverse complement too.
    h : numpy.ndarray of float64, shape (l + 1,)
        ``h[d] = C(l - d, k)``.
    out : numpy.ndarray of float64, shape (n,)
    """
    for i in prange(offsets.size - 1):
        lo = offsets[i]
        hi = offsets[i + 1]
        n_windows = hi - lo - l + 1
        forward = np.empty(max(n_windows, 0), dtype=np.int64)
        reverse = np.empty(max(n_windows, 0), dtype=np.int64)
        window_keys(codes, lo, hi, l, forward, reverse)
        same = n_windows * h[0]
        for a in range(n_windows):
            u = forward[a]
            for b in range(a + 1, n_windows):
                same += 2.0 * h[letter_distance(u, forward[b])]
        if not both_strands:
            out[i] = same
            continue
        across = 0.0
        for a in range(n_windows):
            u = forward[a]
            for b in range(n_windows):
                across += h[letter_distance(u, reverse[b])]
        out[i] = 2.0 * (same + across)


#: elements of `walsh_hadamard`'s in-cache blocks (256 KiB of float64)
WHT_BLOCK = 1 << 15
#: columns of the blocks that `walsh_hadamard` transforms together in its
#: second pass (a tile of ``n / WHT_BLOCK`` rows by this many stays in cache)
WHT_TILE = 64


@njit(**NJIT_PARALLEL)
def walsh_hadamard(a: np.ndarray) -> None:
    """In-place unnormalised Walsh-Hadamard transform of a (size a power of 2).

    Two passes over memory. Seen as a matrix of ``n / WHT_BLOCK`` rows of
    `WHT_BLOCK` elements, the transform is the one along the rows (the low
    bits of the index: every row in cache in turn) followed by the one along
    the columns (the high bits: tiles of `WHT_TILE` columns copied into a
    buffer, transformed and written back). Both are parallel.

    Parameters
    ----------
    a : numpy.ndarray of float64
        Transformed in place; its size is a power of 2.
    """
    n = a.size
    block = min(n, WHT_BLOCK)
    for b in prange(n // block):
        base = b * block
        h = 1
        while h < block:
            for lo in range(base, base + block, 2 * h):
                for i in range(lo, lo + h):
                    x = a[i]
                    y = a[i + h]
                    a[i] = x + y
                    a[i + h] = x - y
            h *= 2
    rows = n // block
    if rows == 1:
        return
    width = min(block, WHT_TILE)
    for t in prange(block // width):
        col = t * width
        tile = np.empty((rows, width))
        for r in range(rows):
            for c in range(width):
                tile[r, c] = a[r * block + col + c]
        h = 1
        while h < rows:
            for lo in range(0, rows, 2 * h):
                for i in range(lo, lo + h):
                    for c in range(width):
                        x = tile[i, c]
                        y = tile[i + h, c]
                        tile[i, c] = x + y
                        tile[i + h, c] = x - y
            h *= 2
        for r in range(rows):
            for c in range(width):
                a[r * block + col + c] = tile[r, c]
