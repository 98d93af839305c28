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

from .._alphabet import sub_kmer
from .._config import NJIT, NJIT_PARALLEL
from ._exact import (
    add_feature,
    boundary_terms,
    feature_probs,
    feature_total,
    feature_work,
)
from ._rows import longest_row, messages, row_after


@njit(**NJIT_PARALLEL)
def difference_rows(
    weights: tuple,
    rows: np.ndarray,
    h: np.ndarray,
    group_bounds: np.ndarray,
    l: int,
    order: int,
    length: int,
    chain: tuple,
    marginals: tuple,
    windows: tuple,
    private: tuple,
) -> None:
    """The difference pass over rows of features, one group of rows per task.

    Parameters
    ----------
    weights : tuple of numba.typed.List
        ``(indptrs, kmers, values)``, CSR per order (as in
        `_exact.accumulate_features`).
    rows : numpy.ndarray of int64, shape (n_rows, 4)
        ``(k, p, i_lo, i_hi)``: the features of order k stored at start p,
        moved to each start ``i_lo <= i < i_hi`` (the shifted copies of a WDS
        model's unshifted weights) with the weight factor ``h[|i - p|]``.
    h : numpy.ndarray of float64
        Shift weights, ``h[0]`` for the unshifted copy.
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
    marginals : tuple of numpy.ndarray
        ``(mu, inv_mu, inv_pi)``: the second chain's D-gram marginals,
        ``1 / mu`` and ``1 / pi`` (both 0 where ``mu`` is).
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
    mu, inv_mu, inv_pi = marginals
    zprob, offsets = windows
    tables, out, new_left, totals = private
    max_k = len(indptrs)
    n_windows = zprob.shape[0]
    factors = (mu, inv_mu, pi, inv_pi)  # c = rel_i / rel_j - 1 over pi_j
    longest = longest_row(indptrs)
    no_right = np.zeros((1, 1))
    for g in prange(group_bounds.shape[0] - 1):
        run = np.zeros(longest)
        sfx = np.zeros((max_k + 1, longest))
        scales = np.zeros(2 * h.shape[0])
        left = np.zeros(1 << (2 * order))
        work = feature_work(max_k, order)
        pp, sp, _ = work
        group_windows = (zprob, offsets, tables[g], out[g])
        after = (offsets, tables[g], out[g])
        for r in range(group_bounds[g], group_bounds[g + 1]):
            k, p, i_lo, i_hi = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
            lo = indptrs[k - 1][p]
            hi = indptrs[k - 1][p + 1]
            kmer = kmers[k - 1]
            value = values[k - 1]
            for i in range(i_lo, i_hi):
                scales[i - i_lo] = h[abs(i - p)]
            if k >= order:
                row_after(
                    k,
                    i_lo,
                    lo,
                    hi,
                    kmer,
                    value,
                    scales[: i_hi - i_lo],
                    l,
                    order,
                    trans[0],
                    factors,
                    after,
                    0,
                    n_windows,
                    run,
                    sfx,
                )
                # E[s(X)] and the left messages: Pr(y at i) gains the factor
                # rel[i, y[:D]]
                left_messages(
                    (k, i_lo, i_hi, order, length),
                    kmer[lo:hi],
                    scales,
                    run,
                    (mu, pi, trans),
                    (left, new_left[g], totals[g : g + 1]),
                )
                continue
            short_features(  # shorter than D: feature by feature
                (k, i_lo, i_hi, lo, hi),
                (kmer, value, scales),
                (l, order, length, n_windows),
                chain,
                (group_windows, work, new_left[g], totals[g : g + 1], no_right),
            )


@njit(inline="always", **NJIT)
def left_messages(
    shape: tuple,
    kmer: np.ndarray,
    scales: np.ndarray,
    run: np.ndarray,
    chains: tuple,
    out: tuple,
) -> None:
    """One row's share of ``E[s(X)]`` and of the left messages, added to ``out``.

    The row's k-mers ``kmer`` (order k) at every start ``i_lo <= i < i_hi``
    (``shape = (k, i_lo, i_hi, order, length)``), each weighted by
    ``scales[i - i_lo] * run[f]``: ``Pr(y at i)`` gains the factor
    ``rel[i, y[:D]]``, so the total gains ``mu - pi`` of the k-mer's first
    D-gram and the left message of its last D-gram the same (``chains =
    (mu, pi, trans)``). ``out = (left, new_left, total)``: scratch of ``4**D``
    zeros (left zeroed), the messages and a one-element total, added to in
    the order of the features.
    """
    k, i_lo, i_hi, order, length = shape
    mu, pi, trans = chains
    left, new_left, total = out
    for i in range(i_lo, i_hi):
        for f in range(kmer.shape[0]):
            y = kmer[f]
            a = sub_kmer(y, k, 0, order)
            diff = scales[i - i_lo] * run[f] * (mu[i, a] - pi[i, a])
            total[0] += diff
            left[sub_kmer(y, k, k - order, order)] += diff
        if i + k <= length - order:
            messages(i + k, order, trans, left, new_left, True)
        left[:] = 0.0


@njit(inline="always", **NJIT)
def short_features(
    row: tuple, weights: tuple, sizes: tuple, chain: tuple, spaces: tuple
) -> None:
    """A row of k-mers shorter than D, feature by feature (`_exact`'s helpers).

    ``row = (k, i_lo, i_hi, lo, hi)``: order, starts and CSR slice;
    ``weights = (kmer, value, scales)``; ``sizes = (l, order, length,
    n_windows)``; ``spaces = (windows, work, new_left, total, no_right)``:
    the group's region tables and values, its scratch, its left messages, a
    one-element total and an empty right message, added to in feature order.
    """
    k, i_lo, i_hi, lo, hi = row
    kmer, value, scales = weights
    l, order, length, n_windows = sizes
    windows, work, new_left, total, no_right = spaces
    pi, trans, small, rel = chain
    pp, sp, _ = work
    for i in range(i_lo, i_hi):
        for e in range(lo, hi):
            index = kmer[e]
            w = scales[i - i_lo] * value[e]
            feature_probs(index, k, i, order, pi, trans, small, pp, sp)
            total[0] += w * feature_total(k, i, index, order, rel, pp)
            j_hi = min(i + k, n_windows)
            add_feature(k, i, index, w, i + 1, j_hi, l, order, chain, windows, work, 0)
            boundary_terms(
                k, i, index, w, order, length, chain, work, new_left, no_right
            )
