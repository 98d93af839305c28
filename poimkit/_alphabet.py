"""Numba twin of `poimkit.alphabet`: k-mer keys in kernels, their letters, look-ups.

A k-mer of letters 0-3 is the integer ``key = sum_t x[t] 4**(k-1-t)``, its
first letter the most significant (`poimkit.alphabet.kmer_index`). `extend`
appends a letter to a key, `push` too but keeps its last letters (``mask``),
`window_key` reads a window's key and `with_letter` changes one of its
letters, `kmer_letter` and `sub_kmer` read letters back, and `lookup` finds a
key's weight in a sorted slice of keys. The kernels of `poimkit.kernels`,
`poimkit.poim`, `poimkit.variants`, `poimkit.explain` and the linear solver
share these; `push` is inlined where it is called.
"""

import numpy as np
from numba import njit

from ._config import NJIT


@njit(inline="always", **NJIT)
def extend(key, code):
    """The key of the k-mer ``key`` followed by the letter ``code``."""
    return (key << 2) | code


@njit(inline="always", **NJIT)
def push(key, code, mask):
    """The key of the k-mer ``key`` followed by the letter ``code``, cut by ``mask``."""
    return ((key << 2) | code) & mask


@njit(inline="always", **NJIT)
def window_key(row, start, k):
    """The key of the k-mer ``row[start:start + k]`` (first letter most significant)."""
    key = np.int64(0)
    for q in range(start, start + k):
        key = extend(key, np.int64(row[q]))
    return key


@njit(inline="always", **NJIT)
def with_letter(key, k, t, old, new):
    """The key of the k-mer ``key`` with letter ``new`` at ``t`` in place of ``old``."""
    shift = np.int64(2 * (k - 1 - t))
    return key - (np.int64(old) << shift) + (np.int64(new) << shift)


@njit(**NJIT)
def kmer_letter(index, k, t):
    """Letter t (0-based, from the left) of the k-mer with this index."""
    return (index >> (2 * (k - 1 - t))) & 3


@njit(**NJIT)
def sub_kmer(index, k, start, length):
    """Index of the sub-k-mer ``y[start:start+length]``."""
    return (index >> (2 * (k - start - length))) & ((1 << (2 * length)) - 1)


@njit(**NJIT)
def lookup(kmers, values, lo, hi, key):
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
