"""Numba twin of `poimkit.alphabet`: k-mer keys in kernels, their letters, look-ups.

A k-mer of letters 0-3 is the integer ``key = sum_t x[t] 4**(k-1-t)``, its
first letter the most significant (`poimkit.alphabet.kmer_index`). `extend`
appends a letter to a key, `push` too but keeps its last letters (``mask``),
`kmer_letter` and `sub_kmer` read letters back, and `lookup` finds a key's
weight in a sorted slice of keys. The kernels of `poimkit.kernels`,
`poimkit.poim`, `poimkit.variants`, `poimkit.explain` and the linear solver
share these; `push` is inlined where it is called.
"""

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
