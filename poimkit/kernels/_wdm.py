"""numba kernels of the WD kernel with mismatches (Shogun's ``max_mismatch``).

Definition
----------
A pair of k-mers at the same start ``i`` with Hamming distance ``j`` adds
``beta_k * mu_{k,j}`` to the kernel, with

    mu_{k,j} = 1 / (C(k, j) 3**j)   for j <= min(m, k - 1),   0 otherwise,

so ``mu_{k,0} = 1`` (the plain WD term) and a k-mer never matches a k-mer
it shares no letter with. ``C(k, j) 3**j`` is the number of k-mers at
distance ``j``: every support-vector k-mer spreads its weight evenly over each
Hamming sphere of radius ``j <= m``. These are the weights of Shogun's
``CWeightedDegreeStringKernel`` (``set_wd_weights_by_type``); they keep the
kernel positive semi-definite (the plain count ``I(Hamming <= m)`` is not).

Counting identity
-----------------
For start ``i`` let ``p_1 < p_2 < ...`` be the mismatch positions ``>= i``.
The k-mers starting at ``i`` with exactly ``j`` mismatches are those with
``p_j - i < k <= p_{j+1} - i`` (``p_0 = i - 1``), an interval of k; each
interval is added to a difference array ``diff[j, k]`` in O(1), so a pair
costs ``O(L (m + 1) + d (m + 1))`` whatever the degree. The exact-match part
``C_0 = sum_k (d - k + 1) #{j = 0}`` stays an integer, identical to the count
of `poimkit.kernels._wd`; the mismatch part is a float sum with the table
``table[k, j] = (d - k + 1) mu_{k,j}``. The kernel value is
``(C_0 + sum_{j >= 1} table[k, j] #{k, j}) * num / den``.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit, prange

from .._config import NJIT, NJIT_PARALLEL
from ._wd import n_tasks, put, tile_span


@njit(inline="always", **NJIT)
def wdm_pair_sum(
    x: np.ndarray,
    y: np.ndarray,
    degree: int,
    table: np.ndarray,
    pos: np.ndarray,
    diff: np.ndarray,
) -> float:
    """Return ``C_0 + sum_{k, j >= 1} table[k, j] #{k-mers with j mismatches}``.

    Parameters
    ----------
    x, y : numpy.ndarray of uint8, shape (L,)
        The two sequences.
    degree : int
        Largest k-mer length ``d``.
    table : numpy.ndarray of float64, shape (d + 1, m + 1)
        ``(d - k + 1) mu_{k,j}``; column 0 is unused (exact matches are
        counted in integers).
    pos : numpy.ndarray of int64, shape (L + m + 1,)
        Scratch for the mismatch positions.
    diff : numpy.ndarray of int64, shape (m + 1, d + 2)
        Scratch difference array; must be zero on entry, is zero on exit.

    Returns
    -------
    float
    """
    length = x.shape[0]
    n_mis = diff.shape[0] - 1
    # branch-free: unpredictable letter comparisons would stall the loops
    n = 0
    for p in range(length):
        pos[n] = p
        n += x[p] != y[p]
    for t in range(n, n + n_mis + 1):
        pos[t] = length  # sentinels: "no further mismatch"
    t = 0
    for i in range(length):
        t += pos[t] < i  # pos[t]: first mismatch at or after i
        kmax = min(degree, length - i)
        lo = 1
        for j in range(n_mis + 1):
            hi = min(pos[t + j] - i, kmax)
            # k in [max(lo, j + 1), hi]; an empty interval adds and removes at hi + 1
            first = min(max(lo, j + 1), hi + 1)
            diff[j, first] += 1
            diff[j, hi + 1] -= 1
            lo = pos[t + j] - i + 1
    kmax = min(degree, length)
    exact = int64(0)
    run = int64(0)
    for k in range(1, kmax + 1):
        run += diff[0, k]
        diff[0, k] = 0
        exact += (degree - k + 1) * run
    diff[0, kmax + 1] = 0
    approx = 0.0
    for j in range(1, n_mis + 1):
        run = int64(0)
        for k in range(1, kmax + 1):
            run += diff[j, k]
            diff[j, k] = 0
            approx += table[k, j] * float(run)
        diff[j, kmax + 1] = 0
    return float(exact) + approx


@njit(**NJIT_PARALLEL)
def wdm_gram(
    X1: np.ndarray,
    X2: np.ndarray,
    degree: int,
    table: np.ndarray,
    symmetric: bool,
    factor: tuple,
    out: np.ndarray,
) -> None:
    """Fill ``out[a, b] = wdm_pair_sum(X1[a], X2[b]) * num / den``.

    The tiles of `poimkit.kernels._wd.wd_gram`; each task has its own
    mismatch positions and difference array.

    Parameters
    ----------
    X1, X2 : numpy.ndarray of uint8, shape (n1, L), (n2, L)
    degree : int
    table : numpy.ndarray of float64, shape (d + 1, m + 1)
        See `wdm_pair_sum`.
    symmetric : bool
        ``k(X1[a], X2[b]) = k(X1[b], X2[a])`` (``X2`` is ``X1``, or the reverse
        complement pair of `poimkit.kernels.wd.wd_kernel`): compute tiles on and
        above the diagonal and write both ``out[a, b]`` and ``out[b, a]``.
    factor : tuple of float
        ``(num, den)``, the output scale.
    out : numpy.ndarray of float64, shape (n1, n2)
    """
    num, den = factor
    n1, length = X1.shape
    n2 = X2.shape[0]
    n_mis = table.shape[1] - 1
    for task in prange(n_tasks(n1, n2, symmetric)):
        a0, a1, b0, b1, diagonal = tile_span(task, n1, n2, symmetric)
        pos = np.empty(length + n_mis + 1, dtype=np.int64)
        diff = np.zeros((n_mis + 1, degree + 2), dtype=np.int64)
        for a in range(a0, a1):
            for b in range(a if diagonal else b0, b1):
                acc = wdm_pair_sum(X1[a], X2[b], degree, table, pos, diff)
                put(out, a, b, acc * num / den, symmetric)


@njit(**NJIT_PARALLEL)
def wdm_rows(
    X1: np.ndarray,
    X2: np.ndarray,
    degree: int,
    table: np.ndarray,
    factor: tuple,
    out: np.ndarray,
) -> None:
    """Fill ``out[r] = wdm_pair_sum(X1[r], X2[r]) * num / den`` (paired rows).

    Parameters
    ----------
    X1, X2 : numpy.ndarray of uint8, shape (n, L)
        The pairs are their rows.
    degree, table, factor
        As in `wdm_gram`.
    out : numpy.ndarray of float64, shape (n,)
    """
    num, den = factor
    n, length = X1.shape
    n_mis = table.shape[1] - 1
    for r in prange(n):
        pos = np.empty(length + n_mis + 1, dtype=np.int64)
        diff = np.zeros((n_mis + 1, degree + 2), dtype=np.int64)
        out[r] = wdm_pair_sum(X1[r], X2[r], degree, table, pos, diff) * num / den
