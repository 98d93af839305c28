"""Numba kernels of the shift-convolved POIM engine (`poimkit.poim.shifted`).

Arrays in, preallocated arrays out; the per-feature and per-row helpers are
those of `poimkit.poim._exact` and `poimkit.poim._rows`.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL
from ._exact import add_feature, boundary_terms, feature_probs, feature_work, sub_kmer
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
    indptrs, kmers, values = weights
    pi, trans, small, _ = chain
    zprob, offsets = windows
    acc_tables, acc_out, acc_left, acc_right = acc
    tables, out, new_left, new_right = dst
    n_shift = h.shape[0] - 1
    max_k = len(indptrs)
    one = np.ones(1)
    factors = (pi, inv_pi, np.zeros_like(pi), np.zeros_like(pi))
    n_acc = acc_tables.shape[1]
    n_windows = length - l + 1
    padded_length = length + 2 * pad
    longest = longest_row(indptrs)
    for task in prange(sides.shape[0]):
        side = sides[task]
        run = np.zeros(longest)
        sfx = np.zeros((max_k + 1, longest))
        sums = np.zeros(1 << (2 * order))
        work = feature_work(max_k, order)
        pp, sp, _ = work
        row0 = pad if side == 0 else pad + n_windows - n_acc
        j_end = pad + n_windows + n_shift  # windows that a copy moves inside
        j_start = max(pad - n_shift, row0)
        layer = (zprob, offsets, acc_tables[side], acc_out[side])
        after = (offsets, acc_tables[side], acc_out[side])
        grow_left = acc_left[side]
        grow_right = acc_right[side]
        for r in range(n_shift):
            layer_total = 0.0
            for k in range(1, max_k + 1):
                if r > length - k:
                    continue
                p = r if side == 0 else length - k - r
                i = pad + p
                lo = indptrs[k - 1][p]
                hi = indptrs[k - 1][p + 1]
                kmer = kmers[k - 1]
                value = values[k - 1]
                if k < order:  # feature by feature
                    if side == 0:
                        j_lo, j_hi = i + 1, min(i + k, j_end)
                    else:
                        j_lo, j_hi = max(i + 1 - l, j_start), i + k - l
                    for e in range(lo, hi):
                        index = kmer[e]
                        w = value[e]
                        feature_probs(index, k, i, order, pi, trans, small, pp, sp)
                        layer_total += w * pp[k]
                        add_feature(
                            k,
                            i,
                            index,
                            w,
                            j_lo,
                            j_hi,
                            l,
                            order,
                            chain,
                            layer,
                            work,
                            row0,
                        )
                        boundary_terms(
                            k,
                            i,
                            index,
                            w,
                            order,
                            padded_length,
                            chain,
                            work,
                            grow_left,
                            grow_right,
                        )
                elif side == 0:
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
                        layer_total += prob
                        sums[sub_kmer(y, k, k - order, order)] += prob
                    messages(i + k, order, trans, sums, grow_left, True)
                else:
                    row_before(
                        k,
                        i,
                        lo,
                        hi,
                        kmer,
                        value,
                        l,
                        order,
                        chain,
                        layer,
                        row0,
                        j_start,
                        run,
                    )
                    for f in range(hi - lo):
                        head = sub_kmer(kmer[lo + f], k, 0, order)
                        layer_total += run[f] * pi[i, head]
                        sums[head] += run[f]
                    messages(i, order, trans, sums, grow_right, False)
            s = r + 1
            totals[side] += h[s:].sum() * layer_total
            _subtract_layers(side, h[s], s, acc_tables[side], tables)
            _subtract_layers(side, h[s], s, acc_out[side], out)
            for e in range(length + 1):  # the messages, moved by s
                for g in range(sums.shape[0]):
                    if side == 0:
                        new_left[e, g] -= h[s] * grow_left[pad + s + e, g]
                    else:
                        new_right[e, g] -= h[s] * grow_right[pad - s + e, g]
