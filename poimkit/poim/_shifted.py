"""Numba kernels of the shift-convolved POIM engine (`poimkit.poim.shifted`).

Arrays in, preallocated arrays out; the per-feature and per-row helpers are
those of `poimkit.poim._exact` and `poimkit.poim._rows`.
"""

import numpy as np
from numba import njit, prange

from .._alphabet import sub_kmer
from .._config import NJIT, NJIT_PARALLEL
from ._exact import add_feature, boundary_terms, feature_probs, feature_work
from ._rows import longest_row, messages, row_after, row_before


@njit(**NJIT_PARALLEL)
def convolve_rows(src: np.ndarray, h: np.ndarray, lo: int, dst: np.ndarray) -> None:
    """``dst[j] += sum_{s=-S..S} h[|s|] src[lo + j - s]`` for every row j of dst.

    Parameters
    ----------
    src : numpy.ndarray of float64, shape (n_src, m)
        Rows indexed in the padded coordinates; ``lo - S .. lo + n_dst - 1 + S``
        must be valid rows.
    h : numpy.ndarray of float64, shape (S + 1,)
        Shift weights, ``h[0]`` for the unshifted copy.
    lo : int
        Row of src that lines up with row 0 of dst.
    dst : numpy.ndarray of float64, shape (n_dst, m)
        Added to.
    """
    n_shift = h.shape[0] - 1
    m = dst.shape[1]
    for j in prange(dst.shape[0]):
        for s in range(-n_shift, n_shift + 1):
            c = h[abs(s)]
            row = lo + j - s
            for z in range(m):
                dst[j, z] += c * src[row, z]


@njit(**NJIT)
def _subtract_layers(side, c, s, acc, dst):
    """``dst -= c A_s`` moved by s towards the end ``side`` (rows that stay inside).

    ``acc`` holds the windows of `end_layers` (row t: window ``pad + t`` at the
    left end, ``pad + n_windows - n_acc + t`` at the right end).
    """
    n_acc = acc.shape[0]
    n_dst = dst.shape[0]
    for d in range(min(n_dst, n_acc - s)):
        src = acc[d + s] if side == 0 else acc[n_acc - 1 - s - d]
        row = dst[d] if side == 0 else dst[n_dst - 1 - d]
        for z in range(row.shape[0]):
            row[z] -= c * src[z]


@njit(**NJIT_PARALLEL)
def end_layers(
    weights: tuple,
    h: np.ndarray,
    pad: int,
    length: int,
    l: int,
    order: int,
    chain: tuple,
    inv_pi: np.ndarray,
    windows: tuple,
    sides: np.ndarray,
    acc: tuple,
    dst: tuple,
    totals: np.ndarray,
) -> None:
    """Subtract the shifted copies of U that cross an end of the sequence.

    The copies of the features of U at distance r from an end, moved by
    ``s > r`` towards it (see `poimkit.poim.shifted`). Layer r (the features
    at distance r, every order) is visited row by row, only for the windows
    that its copies reach inside the sequence: at the left end those that
    start inside a feature (`_rows.row_after`), at the right end those that
    end inside one (`_rows.row_before`). After layer r the windows and
    messages of the layers ``0..r`` (``A_s``, s = r + 1) are subtracted,
    moved by s and times ``h[s]``. One task per end.

    Parameters
    ----------
    weights : tuple of numba.typed.List
        ``(indptrs, kmers, values)``: U, CSR per order (as in
        `_exact.accumulate_features`), on the unpadded sequence.
    h : numpy.ndarray of float64, shape (S + 1,)
        Shift weights.
    pad : int
        ``S + D``: the chain's coordinates are those of the padded sequence.
    length : int
        Unpadded sequence length L.
    l : int
        Window length.
    order : int
        Order D of the chain.
    chain : tuple of numpy.ndarray
        ``(pi, trans, small, rel)`` of the padded shift invariant chain
        (``rel`` empty).
    inv_pi : numpy.ndarray of float64
        ``1 / pi`` (0 where ``pi`` is).
    windows : tuple of numpy.ndarray
        ``(zprob, offsets)``: ``Pr(z at j)`` on the padded sequence, region
        offsets.
    sides : numpy.ndarray of int64
        The ends done (0: left, 1: right), in parallel: their rows of ``dst``
        must be apart.
    acc : tuple of numpy.ndarray
        ``(tables, out, new_left, new_right)`` of each end (leading axis 2):
        ``n_acc`` windows (see `_subtract_layers`) and messages on the padded
        sequence, zero on entry.
    dst : tuple of numpy.ndarray
        ``(tables, out, new_left, new_right)`` of the sequence's windows,
        subtracted from.
    totals : numpy.ndarray of float64, shape (2,)
        Per end, ``sum_r (sum_{s > r} h_s) sum w Pr(y at i)`` of layer r,
        added to.
    """
    for task in prange(sides.shape[0]):
        _one_end(
            sides[task],
            weights,
            h,
            pad,
            length,
            l,
            order,
            chain,
            inv_pi,
            windows,
            acc,
            dst,
            totals,
        )


@njit(**NJIT)
def _one_end(
    side, weights, h, pad, length, l, order, chain, inv_pi, windows, acc, dst, totals
):
    """The layers r = 0..S-1 of one end of `end_layers` (0: left, 1: right)."""
    indptrs = weights[0]
    pi = chain[0]
    zprob, offsets = windows
    acc_tables, acc_out, acc_left, acc_right = acc
    tables, out, new_left, new_right = dst
    n_shift = h.shape[0] - 1
    max_k = len(indptrs)
    longest = longest_row(indptrs)
    n_acc = acc_tables.shape[1]
    n_windows = length - l + 1
    row0 = pad if side == 0 else pad + n_windows - n_acc
    j_end = pad + n_windows + n_shift  # windows that a copy moves inside
    j_start = max(pad - n_shift, row0)
    ends = (row0, j_start, j_end)
    # run, sfx, sums (per D-gram) and the per-feature scratch
    scratch = (
        np.zeros(longest),
        np.zeros((max_k + 1, longest)),
        np.zeros(1 << (2 * order)),
        feature_work(max_k, order),
    )
    # scales and factors of `_rows.row_after`: one chain
    rows = (np.ones(1), (pi, inv_pi, np.zeros_like(pi), np.zeros_like(pi)))
    layer = (zprob, offsets, acc_tables[side], acc_out[side])
    grow = (acc_left[side], acc_right[side])
    n_states = scratch[2].shape[0]
    for r in range(n_shift):
        layer_total = _layer(
            side,
            r,
            weights,
            pad,
            length,
            l,
            order,
            chain,
            rows,
            layer,
            grow,
            ends,
            scratch,
        )
        s = r + 1
        totals[side] += h[s:].sum() * layer_total
        _subtract_layers(side, h[s], s, acc_tables[side], tables)
        _subtract_layers(side, h[s], s, acc_out[side], out)
        if side == 0:
            _subtract_messages(h[s], pad + s, length, n_states, grow[0], new_left)
        else:
            _subtract_messages(h[s], pad - s, length, n_states, grow[1], new_right)


@njit(**NJIT)
def _layer(
    side, r, weights, pad, length, l, order, chain, rows, layer, grow, ends, scratch
):
    """Layer r of one end: its features' windows and messages; its ``sum w Pr``."""
    indptrs, kmers, values = weights
    row0, j_start, j_end = ends
    run, sfx, sums, work = scratch
    padded_length = length + 2 * pad
    total = 0.0
    for k in range(1, len(indptrs) + 1):
        if r > length - k:
            continue
        p = r if side == 0 else length - k - r
        i = pad + p
        lo = indptrs[k - 1][p]
        hi = indptrs[k - 1][p + 1]
        row = (k, i, lo, hi, kmers[k - 1], values[k - 1])  # features lo:hi
        if k < order:  # feature by feature
            if side == 0:
                j_range = (i + 1, min(i + k, j_end))
            else:
                j_range = (max(i + 1 - l, j_start), i + k - l)
            total = _features_one_by_one(
                row,
                j_range,
                l,
                order,
                chain,
                layer,
                work,
                row0,
                padded_length,
                grow,
                total,
            )
        elif side == 0:
            after = (layer[1], layer[2], layer[3])
            total = _rows_after(
                row,
                l,
                order,
                chain,
                rows,
                after,
                row0,
                j_end,
                run,
                sfx,
                sums,
                grow[0],
                total,
            )
        else:
            total = _rows_before(
                row, l, order, chain, layer, row0, j_start, run, sums, grow[1], total
            )
    return total


@njit(**NJIT)
def _features_one_by_one(
    row, j_range, l, order, chain, layer, work, row0, padded_length, grow, total
):
    """Features of order k < D one by one; ``total`` plus their ``sum w Pr(y at i)``.

    ``row`` is ``(k, i, lo, hi, kmer, value)``: the features ``lo:hi`` of
    order k at i; ``j_range`` the windows ``(j_lo, j_hi)`` visited, ``grow``
    the messages ``(left, right)`` added to.
    """
    k, i, lo, hi, kmer, value = row
    pi, trans, small, _ = chain
    j_lo, j_hi = j_range
    pp, sp, _ = work
    for e in range(lo, hi):
        index = kmer[e]
        w = value[e]
        feature_probs(index, k, i, order, pi, trans, small, pp, sp)
        total += w * pp[k]
        add_feature(k, i, index, w, j_lo, j_hi, l, order, chain, layer, work, row0)
        boundary_terms(
            k, i, index, w, order, padded_length, chain, work, grow[0], grow[1]
        )
    return total


@njit(**NJIT)
def _rows_after(
    row, l, order, chain, rows, after, row0, j_end, run, sfx, sums, grow_left, total
):
    """Features of order k >= D at the left end (`_rows.row_after`), row at once.

    ``row`` as in `_features_one_by_one`. Returns ``total`` plus their ``sum
    w Pr(y at i)``; their left messages are added to ``grow_left``.
    """
    k, i, lo, hi, kmer, value = row
    pi, trans, _, _ = chain
    one, factors = rows
    row_after(
        k,
        i,
        lo,
        hi,
        kmer,
        value,
        one,
        l,
        order,
        trans[0],
        factors,
        after,
        row0,
        j_end,
        run,
        sfx,
    )
    for f in range(hi - lo):
        y = kmer[lo + f]
        prob = run[f] * pi[i, sub_kmer(y, k, 0, order)]
        total += prob
        sums[sub_kmer(y, k, k - order, order)] += prob
    messages(i + k, order, trans, sums, grow_left, True)
    return total


@njit(**NJIT)
def _rows_before(
    row, l, order, chain, layer, row0, j_start, run, sums, grow_right, total
):
    """Features of order k >= D at the right end (`_rows.row_before`), row at once.

    ``row`` as in `_features_one_by_one`. Returns ``total`` plus their ``sum
    w Pr(y at i)``; their right messages are added to ``grow_right``.
    """
    k, i, lo, hi, kmer, value = row
    pi, trans, _, _ = chain
    row_before(k, i, lo, hi, kmer, value, l, order, chain, layer, row0, j_start, run)
    for f in range(hi - lo):
        head = sub_kmer(kmer[lo + f], k, 0, order)
        total += run[f] * pi[i, head]
        sums[head] += run[f]
    messages(i, order, trans, sums, grow_right, False)
    return total


@njit(**NJIT)
def _subtract_messages(c, start, length, n_states, grow, new):
    """``new[e] -= c grow[start + e]`` for e = 0..L: the messages moved by s."""
    for e in range(length + 1):
        for g in range(n_states):
            new[e, g] -= c * grow[start + e, g]
