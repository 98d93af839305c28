"""Numba kernels: hypothetical per-letter contributions of k-mer models.

Called by `poimkit.explain.attributions`, which checks their inputs. A
record's score is a sum of k-mer weights; each weight is shared equally by
the k letters of its k-mer. ``out[r, b, i]`` is what position i would get
with letter b there and every other letter as it is: the weights of the
k-mers covering i, read with b at i, over k. At the record's own letter it
is the position's contribution.
"""

from numba import njit, prange

from .._alphabet import lookup, window_key, with_letter
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
        for j in range(0, lengths[r] - k + 1):
            key = window_key(X[r], j, k)
            lo, hi = indptr[j], indptr[j + 1]
            for i in range(j, j + k):
                for b in range(4):
                    y = with_letter(key, k, i - j, X[r, i], b)
                    out[r, b, i] += lookup(kmers, values, lo, hi, y) / k


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
        for j in range(0, lengths[r] - l + 1):
            key = window_key(X[r], j, l)
            for i in range(j, j + l):
                for b in range(4):
                    w = table[with_letter(key, l, i - j, X[r, i], b)]
                    out[r, b, i] += scale[r] * w / l
