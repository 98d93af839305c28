"""Numba kernel of the difference pass of `poimkit.poim.burn_in`.

Arrays in, preallocated arrays out. The pass adds, for the features of two
homogeneous chains with the same transitions (D-gram marginals ``pi`` and
``rel * pi``), the second chain's engine terms minus the first's: only
windows j > i and the left chain messages differ (`poimkit.poim._exact`,
difference passes). Features are visited row by row (one order k and start
i, `poimkit.poim._rows`), window by window within a row. Rows of k-mers
shorter than D use the per-feature helpers of `poimkit.poim._exact`.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL
from ._exact import _add_feature, _boundary_terms, _sub, feature_probs, feature_total
from ._rows import left_messages, row_after


@njit(**NJIT)
def _row_difference(
    k, i, lo, hi, kmer, value, scale, l, order, length, chain, windows, run, left
):
    """Difference terms of the row's features ``lo:hi`` (order k >= D >= 1, start i).

    Their weights are ``scale * value[lo:hi]``. Adds their left messages'
    differences to ``left`` (by the last D-gram); returns the row's ``sum w
    (Pr_2(y at i) - Pr_1(y at i))``.
    """
    _, _, _, rel = chain
    row_after(
        k,
        i,
        lo,
        hi,
        kmer,
        value,
        scale,
        l,
        order,
        chain,
        windows,
        0,
        windows[0].shape[0],
        run,
    )
    # E[s(X)] and the left messages: Pr(y at i) gains the factor rel[i, y[:D]]
    total = 0.0
    end = i + k
    for f in range(hi - lo):
        y = kmer[lo + f]
        diff = run[f] * (rel[i, _sub(y, k, 0, order)] - 1.0)
        total += diff
        if end <= length - order:
            left[_sub(y, k, k - order, order)] += diff
    return total


@njit(**NJIT_PARALLEL)
def difference_rows(
    weights: tuple,
    rows: np.ndarray,
    scales: np.ndarray,
    group_bounds: np.ndarray,
    l: int,
    order: int,
    length: int,
    chain: tuple,
    windows: tuple,
    private: tuple,
) -> None:
    """The difference pass over rows of features, one group of rows per task.

    Parameters
    ----------
    weights : tuple of numba.typed.List
        ``(indptrs, kmers, values)``, CSR per order (as in
        `_exact.accumulate_features`).
    rows : numpy.ndarray of int64, shape (n_rows, 3)
        ``(k, i, p)``: the features of order k stored at start p, moved to
        start i (a shifted copy of a WDS model's unshifted weights).
    scales : numpy.ndarray of float64, shape (n_rows,)
        Each row's weight factor (the shift weight of ``i - p``).
    group_bounds : numpy.ndarray of int64, shape (n_groups + 1,)
        Group g does the rows ``group_bounds[g]:group_bounds[g + 1]``.
    l : int
        Window length.
    order : int
        Order D >= 1 of the chains.
    length : int
        Sequence length L.
    chain : tuple of numpy.ndarray
        ``(pi, trans, small, rel)`` of the first chain, with ``rel`` (and
        ``small``) of the difference pass (`_exact.accumulate_features`).
    windows : tuple of numpy.ndarray
        ``(zprob, offsets)``: the first chain's ``Pr(z at j)`` for the windows
        reached (rows ``0..n``) and the region offsets.
    private : tuple of numpy.ndarray
        ``(tables, out, new_left, totals)`` of each group (leading axis):
        region tables and whole-window values of windows ``0..n``, left
        messages ``(L + 1, 4**D)`` and ``sum w Pr(y at i)``, added to.
    """
    indptrs, kmers, values = weights
    pi, trans, small, rel = chain
    zprob, offsets = windows
    tables, out, new_left, totals = private
    max_k = len(indptrs)
    n_windows = zprob.shape[0]
    longest = 0
    for k in range(1, max_k + 1):
        indptr = indptrs[k - 1]
        for i in range(indptr.shape[0] - 1):
            longest = max(longest, indptr[i + 1] - indptr[i])
    no_right = np.zeros((1, 1))
    for g in prange(group_bounds.shape[0] - 1):
        run = np.zeros(longest)
        left = np.zeros(1 << (2 * order))
        pp = np.zeros(max_k + order + 2)
        sp = np.zeros(max_k + order + 2)
        scratch = np.zeros(max_k + 2 * order + 2, dtype=np.int64)
        work = (pp, sp, scratch)
        group_windows = (zprob, offsets, tables[g], out[g])
        for r in range(group_bounds[g], group_bounds[g + 1]):
            k = rows[r, 0]
            i = rows[r, 1]
            lo = indptrs[k - 1][rows[r, 2]]
            hi = indptrs[k - 1][rows[r, 2] + 1]
            kmer = kmers[k - 1]
            value = values[k - 1]
            if k >= order:
                totals[g] += _row_difference(
                    k,
                    i,
                    lo,
                    hi,
                    kmer,
                    value,
                    scales[r],
                    l,
                    order,
                    length,
                    chain,
                    group_windows,
                    run,
                    left,
                )
                if i + k <= length - order:
                    left_messages(i + k, order, trans, left, new_left[g])
                continue
            for e in range(lo, hi):  # shorter than D: feature by feature
                index = kmer[e]
                w = scales[r] * value[e]
                feature_probs(index, k, i, order, pi, trans, small, pp, sp)
                totals[g] += w * feature_total(k, i, index, order, rel, pp)
                j_hi = min(i + k, n_windows)
                _add_feature(
                    k, i, index, w, i + 1, j_hi, l, order, chain, group_windows, work, 0
                )
                _boundary_terms(
                    k, i, index, w, order, length, chain, work, new_left[g], no_right
                )
