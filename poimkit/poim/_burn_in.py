"""Numba kernel of the difference pass of `poimkit.poim.burn_in`.

Arrays in, preallocated arrays out. The pass adds, for the features of two
homogeneous chains with the same transitions (D-gram marginals ``pi`` and
``rel * pi``), the second chain's engine terms minus the first's: only
windows j > i and the left chain messages differ (`poimkit.poim._exact`,
difference passes). Features are visited row by row (one order k and start
i), window by window within a row, so that the writes of a row's features
go to one window's tables at a time, and the prefix probabilities grow by
one transition per window. Rows of k-mers shorter than D use the per-feature
helpers of `poimkit.poim._exact`.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL
from ._exact import (
    _add_feature,
    _boundary_terms,
    _letter,
    _region_add,
    _sub,
    _window_factor,
    feature_probs,
    feature_total,
)


@njit(**NJIT)
def _row_after(
    k, i, lo, hi, kmer, value, scale, l, order, length, chain, windows, run, left
):
    """Difference terms of the row's features ``lo:hi`` (order k >= D >= 1, start i).

    Their weights are ``scale * value[lo:hi]``.
    ``run[f]`` holds ``w Pr(y[:m + D] at i)`` under the first chain while the
    window ``j = i + m`` moves right; returns the row's ``sum w (Pr_2(y at
    i) - Pr_1(y at i))``.
    """
    pi, trans, _, rel = chain
    zprob, offsets, tables, out = windows
    n_windows = zprob.shape[0]
    n = hi - lo
    state_mask = (1 << (2 * order)) - 1
    for f in range(n):
        run[f] = scale * value[lo + f] * pi[i, _sub(kmer[lo + f], k, 0, order)]
    for m in range(1, k - order + 1):  # window i + m starts with y[m:m + D]
        j = i + m
        o = k - m
        write = o < l and j < n_windows  # the feature ends inside the window
        t = m + order - 1  # the letter that the prefix gains
        for f in range(n):
            y = kmer[lo + f]
            run[f] *= trans[i + t - order, _sub(y, k, m - 1, order), _letter(y, k, t)]
            head = _sub(y, k, m, order)
            if write and pi[j, head] > 0.0:
                factor = _window_factor(rel, i, _sub(y, k, 0, order), j, head)
                value = run[f] / pi[j, head] * factor
                _region_add(j, 0, o, _sub(y, k, m, o), value, l, offsets, tables, out)
    # run[f] = w Pr(y at i): the windows inside the feature, then the windows
    # whose first D letters run past its end
    for m in range(1, min(k - l, n_windows - 1 - i) + 1):
        j = i + m
        for f in range(n):
            y = kmer[lo + f]
            z = _sub(y, k, m, l)
            pz = zprob[j, z]
            if pz > 0.0:
                factor = _window_factor(
                    rel, i, _sub(y, k, 0, order), j, z >> (2 * (l - order))
                )
                out[j, z] += run[f] / pz * factor
    for m in range(max(1, k - order + 1), min(k, n_windows - i)):
        j = i + m
        o = k - m
        n_free = order - o
        for f in range(n):
            y = kmer[lo + f]
            first = _sub(y, k, 0, order)
            for v in range(1 << (2 * n_free)):
                prob = run[f]
                state = _sub(y, k, k - order, order)
                for u in range(n_free):
                    a = (v >> (2 * (n_free - 1 - u))) & 3
                    prob *= trans[i + k + u - order, state, a]
                    state = ((state << 2) | a) & state_mask
                head = (_sub(y, k, m, o) << (2 * n_free)) | v
                if pi[j, head] > 0.0:
                    factor = _window_factor(rel, i, first, j, head)
                    value = prob / pi[j, head] * factor
                    _region_add(j, 0, order, head, value, l, offsets, tables, out)
    # E[s(X)] and the left messages: Pr(y at i) gains the factor rel[i, y[:D]]
    total = 0.0
    end = i + k
    for f in range(n):
        y = kmer[lo + f]
        diff = run[f] * (rel[i, _sub(y, k, 0, order)] - 1.0)
        total += diff
        if end <= length - order:
            left[_sub(y, k, k - order, order)] += diff
    return total


@njit(**NJIT)
def _left_messages(end, order, trans, left, new_left):
    """``new_left[end, s] += sum_g left[g] Pr(X[end:end+D] = s | D-gram g before)``."""
    n_states = left.shape[0]
    state_mask = n_states - 1
    for g in range(n_states):
        if left[g] == 0.0:
            continue
        for s in range(n_states):
            prob = left[g]
            state = g
            for t in range(order):
                a = (s >> (2 * (order - 1 - t))) & 3
                prob *= trans[end + t - order, state, a]
                state = ((state << 2) | a) & state_mask
            new_left[end, s] += prob
        left[g] = 0.0


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
                totals[g] += _row_after(
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
                    _left_messages(i + k, order, trans, left, new_left[g])
                continue
            for e in range(lo, hi):  # shorter than D: feature by feature
                index = kmer[e]
                w = scales[r] * value[e]
                feature_probs(index, k, i, order, pi, trans, small, pp, sp)
                totals[g] += w * feature_total(k, i, index, order, rel, pp)
                j_hi = min(i + k, n_windows)
                _add_feature(
                    k, i, index, w, i + 1, j_hi, l, order, chain, group_windows, work
                )
                _boundary_terms(
                    k, i, index, w, order, length, chain, work, new_left[g], no_right
                )
