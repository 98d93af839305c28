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
