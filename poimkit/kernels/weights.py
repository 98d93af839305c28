"""Numba kernel: score sequences with sparse positional k-mer weights."""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT)
def _lookup(kmers, values, lo, hi, key):
    """Value of ``key`` in the sorted slice ``kmers[lo:hi]``, or 0."""
    end = hi
    while lo < hi:
        mid = (lo + hi) >> 1
        if kmers[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < end and kmers[lo] == key:
        return values[lo]
    return 0.0


@njit(**NJIT_PARALLEL)
def score_order(X, k, indptr, kmers, values, out):
    """Add ``sum_i w_k[i, x[i:i+k]]`` to ``out`` for every row of X."""
    n, length = X.shape
    mask = (np.int64(1) << np.int64(2 * k)) - 1
    for r in prange(n):
        key = np.int64(0)
        total = 0.0
        for p in range(length):
            key = ((key << 2) | X[r, p]) & mask
            start = p - k + 1
            if start >= 0 and indptr[start + 1] > indptr[start]:
                total += _lookup(kmers, values, indptr[start], indptr[start + 1], key)
        out[r] += total


@njit(**NJIT_PARALLEL)
def expand_order(svt, coef, k, beta_k, counts, kmers, values):
    """Order-k weights of a kernel expansion, one position per parallel task.

    ``svt`` holds the support vectors position-major (``svt[q, j]`` is letter
    q of support vector j). For start ``p``, their k-mers are
    sorted (stably) and equal ones merged: ``values[p, :counts[p]]`` holds
    ``sum_j beta_k coef_j`` over the support vectors j with that k-mer, in
    support-vector order, for the ascending keys ``kmers[p, :counts[p]]``.
    Weights that add up to exactly 0 are kept (the caller drops them).
    """
    length, m = svt.shape
    for p in prange(length - k + 1):
        keys = np.zeros(m, dtype=np.int64)
        for q in range(p, p + k):
            for j in range(m):
                keys[j] = (keys[j] << np.int64(2)) | np.int64(svt[q, j])
        order = np.argsort(keys, kind="mergesort")
        c = 0
        for t in range(m):
            j = order[t]
            if c > 0 and kmers[p, c - 1] == keys[j]:
                values[p, c - 1] += beta_k * coef[j]
            else:
                kmers[p, c] = keys[j]
                values[p, c] = beta_k * coef[j]
                c += 1
        counts[p] = c


@njit(**NJIT_PARALLEL)
def ism_order(X, k, indptr, kmers, values, rows, starts, out):
    """Add the order-k part of exact in-silico mutagenesis to ``out``.

    For window r (sequence ``X[rows[r]]``, columns ``starts[r] .. starts[r] + w - 1``
    with ``w = out.shape[1]``), ``out[r, c, a]`` gains
    ``sum_i w_k[i, y_i'] - w_k[i, y_i]`` over the k-mers ``y_i = x[i:i+k]``
    that cover position ``p = starts[r] + c``, where ``y_i'`` is ``y_i`` with
    the letter at ``p`` replaced by ``a`` (0 for the letter already there).
    """
    n_win, width, _ = out.shape
    length = X.shape[1]
    for r in prange(n_win):
        s = starts[r]
        x = X[rows[r]]
        first = max(0, s - k + 1)
        last = min(length - k, s + width - 1)
        for i in range(first, last + 1):
            lo, hi = indptr[i], indptr[i + 1]
            if lo == hi:
                continue
            key = np.int64(0)
            for q in range(i, i + k):
                key = (key << np.int64(2)) | np.int64(x[q])
            base = _lookup(kmers, values, lo, hi, key)
            for p in range(max(i, s), min(i + k, s + width)):
                shift = np.int64(2 * (k - 1 - (p - i)))
                cur = (key >> shift) & np.int64(3)
                for a in range(4):
                    if a != cur:
                        other = key + ((np.int64(a) - cur) << shift)
                        out[r, p - s, a] += (
                            _lookup(kmers, values, lo, hi, other) - base
                        )
