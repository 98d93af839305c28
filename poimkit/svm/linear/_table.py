"""Numba kernels of the exact sparse k-mer table of `WDLinearSVC`, and the hash.

Pure functions on arrays; the wrappers are in `poimkit.svm.linear.keys`. Every
sparse (order k, feature position r) owns one open-addressing hash table with
linear probing: a region ``keys[start : start + mask + 1]`` of uint64 keys
``y + 1`` (0 marks an empty slot; ``y < 4**k`` with ``k <= 31``, so the key is
exact, never a hash) and, in the same slots, the k-mer's column within the
region (``idx``). The capacity is a power of two at least twice the number of
keys, so a probe always ends at an empty slot.
"""

import numpy as np
from numba import njit, prange

from ..._config import NJIT, NJIT_PARALLEL

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(**NJIT)
def mix64(z):
    """splitmix64 finaliser: a bijection of uint64 that scrambles every bit."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(**NJIT)
def probe_insert(keys, start, mask, key):
    """``(slot, new)``: the slot of ``key`` in the region, inserted if absent."""
    h = mix64(key) & mask
    while True:
        s = keys[start + np.int64(h)]
        if s == key:
            return start + np.int64(h), False
        if s == np.uint64(0):
            keys[start + np.int64(h)] = key
            return start + np.int64(h), True
        h = (h + np.uint64(1)) & mask


@njit(**NJIT)
def probe_find(keys, idx, start, mask, key):
    """Column of ``key`` within its region, or -1 if it is not in the table."""
    h = mix64(key) & mask
    while True:
        s = keys[start + np.int64(h)]
        if s == key:
            return np.int64(idx[start + np.int64(h)])
        if s == np.uint64(0):
            return np.int64(-1)
        h = (h + np.uint64(1)) & mask


@njit(**NJIT)
def order_keys(X, k, out):
    """``out[p, i] = kmer index of X[i, p:p+k] + 1`` (position-major)."""
    n, length = X.shape
    kmask = (np.uint64(1) << np.uint64(2 * k)) - np.uint64(1)
    for i in range(n):
        key = np.uint64(0)
        for q in range(length):
            key = ((key << np.uint64(2)) | np.uint64(X[i, q])) & kmask
            if q >= k - 1:
                out[q - k + 1, i] = key + np.uint64(1)


@njit(**NJIT_PARALLEL)
def collect(kp, shift, table, mask):
    """Insert the keys of every feature position into its own table row.

    ``kp`` holds the keys of one order (`order_keys`); an occurrence at ``p``
    feeds the features ``r = p - j``, ``j = 0..shift``, so row ``r`` of
    ``table`` receives the keys at ``p = r .. r + shift``.
    """
    n_pos, n = kp.shape
    for r in prange(n_pos):
        row = table[r]
        for p in range(r, min(r + shift + 1, n_pos)):
            for i in range(n):
                probe_insert(row, 0, mask, kp[p, i])


@njit(**NJIT)
def fill_regions(present, counts, starts, masks, keys, idx):
    """Insert each region's keys (in column order) into the final tables."""
    at = 0
    for r in range(counts.shape[0]):
        for c in range(counts[r]):
            slot, _ = probe_insert(keys, starts[r], np.uint64(masks[r]), present[at])
            idx[slot] = c
            at += 1
