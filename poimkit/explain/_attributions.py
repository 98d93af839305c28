"""Numba kernels: hypothetical per-letter contributions of k-mer models.

Called by `poimkit.explain.attributions`, which checks their inputs. A
record's score is a sum of k-mer weights; each weight is shared equally by
the k letters of its k-mer. ``out[r, b, i]`` is what position i would get
with letter b there and every other letter as it is: the weights of the
k-mers covering i, read with b at i, over k. At the record's own letter it
is the position's contribution.
"""

import numpy as np
from numba import njit, prange

from .._alphabet import extend, lookup
from .._config import NJIT_PARALLEL


@njit(**NJIT_PARALLEL)
def positional_hypothetical(X, lengths, k, indptr, kmers, values, out):
    """Add order k's share of positional weights ``w_k[j, y]`` (CSR by start j).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Records (codes 0-3; past ``lengths[r]`` anything).
    lengths : numpy.ndarray of int64, shape (n,)
    k : int
    indptr, kmers, values : numpy.ndarray
        The order's weights: start j's k-mers (first letter most significant)
        are ``kmers[indptr[j]:indptr[j + 1]]``, sorted.
    out : numpy.ndarray of float64, shape (n, 4, L)
        Accumulated.
    """
    for r in prange(X.shape[0]):
        n = lengths[r]
        for j in range(0, n - k + 1):
            key = np.int64(0)
            for q in range(j, j + k):
                key = extend(key, np.int64(X[r, q]))
            lo, hi = indptr[j], indptr[j + 1]
            for i in range(j, j + k):
                shift = np.int64(2 * (j + k - 1 - i))
                base = key - (np.int64(X[r, i]) << shift)
                for b in range(4):
                    w = lookup(kmers, values, lo, hi, base + (np.int64(b) << shift))
                    out[r, b, i] += w / k


@njit(**NJIT_PARALLEL)
def lmer_hypothetical(X, lengths, l, table, scale, out):
    """Add ``scale[r] * table[y] / l`` for every l-mer y covering each position.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Records (codes 0-3; past ``lengths[r]`` anything).
    lengths : numpy.ndarray of int64, shape (n,)
    l : int
    table : numpy.ndarray of float64, shape (4**l,)
        The weight of every l-mer (first letter most significant).
    scale : numpy.ndarray of float64, shape (n,)
        Each record's factor of its l-mer sum.
    out : numpy.ndarray of float64, shape (n, 4, L)
        Accumulated.
    """
    for r in prange(X.shape[0]):
        n = lengths[r]
        for j in range(0, n - l + 1):
            key = np.int64(0)
            for q in range(j, j + l):
                key = extend(key, np.int64(X[r, q]))
            for i in range(j, j + l):
                shift = np.int64(2 * (j + l - 1 - i))
                base = key - (np.int64(X[r, i]) << shift)
                for b in range(4):
                    w = table[base + (np.int64(b) << shift)]
                    out[r, b, i] += scale[r] * w / l
