"""Numba kernels of the observed-sample POIM (`poimkit.poim.observed`).

Arrays in, preallocated arrays out. Every kernel adds, per k-mer z (and row),
the sums a ratio estimator and its standard error need, where ``c`` is how
often z occurs in a sample (in its row) and ``s`` the sample's score: the
number of samples holding z, then ``sum c``, ``sum c s``, ``sum c s^2``,
``sum c^2``, ``sum c^2 s``, ``sum c^2 s^2``.
"""

import numpy as np
from numba import njit

from .._config import NJIT

#: columns of the sums
N_SUMS = 7


@njit(**NJIT)
def add_sample(sums: np.ndarray, row: int, z: int, c: float, s: float) -> None:
    """Add one sample in which k-mer ``z`` occurs ``c`` times (row ``row``)."""
    c2 = c * c
    sums[row, z, 0] += 1.0
    sums[row, z, 1] += c
    sums[row, z, 2] += c * s
    sums[row, z, 3] += c * s * s
    sums[row, z, 4] += c2
    sums[row, z, 5] += c2 * s
    sums[row, z, 6] += c2 * s * s


@njit(**NJIT)
def add_positional(keys: np.ndarray, scores: np.ndarray, sums: np.ndarray) -> None:
    """Every start separately: the k-mer at start j of sample i, once, in row j.

    Parameters
    ----------
    keys : numpy.ndarray of int64, shape (n, P)
        k-mer index at every start of every sample.
    scores : numpy.ndarray of float64, shape (n,)
        The samples' scores.
    sums : numpy.ndarray of float64, shape (P, 4**l, N_SUMS)
        Added to.
    """
    for i in range(keys.shape[0]):
        s = scores[i]
        for j in range(keys.shape[1]):
            add_sample(sums, j, keys[i, j], 1.0, s)


@njit(**NJIT)
def add_pooled(
    keys: np.ndarray, scores: np.ndarray, counts: np.ndarray, sums: np.ndarray
) -> None:
    """Every start pooled: each k-mer once per sample, with its count there.

    Parameters
    ----------
    keys : numpy.ndarray of int64, shape (n, P)
        k-mer index at every start of every sample.
    scores : numpy.ndarray of float64, shape (n,)
        The samples' scores.
    counts : numpy.ndarray of int64, shape (4**l,)
        Scratch, all zero; left all zero.
    sums : numpy.ndarray of float64, shape (1, 4**l, N_SUMS)
        Added to.
    """
    for i in range(keys.shape[0]):
        s = scores[i]
        for j in range(keys.shape[1]):
            counts[keys[i, j]] += 1
        for j in range(keys.shape[1]):
            z = keys[i, j]
            if counts[z]:
                add_sample(sums, 0, z, float(counts[z]), s)
                counts[z] = 0
