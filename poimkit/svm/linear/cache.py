"""Column cache of the sparse orders: each training k-mer looked up once.

A pass of the linear trainer visits every (order, position, row) feature; for
a sparse order its column comes from the open-addressing table
(`poimkit.svm.linear._table`), a probe that costs several times the hashed or
dense column's arithmetic and, for the many private k-mers, ends in a miss.
The training sequences do not change between passes, so their columns are
looked up once (`_kernels.sparse_cache`) and kept, one int32 per occurrence
and shift, as long as that fits the memory left in the budget: orders are
cached from the lowest up, and the rest keep looking up. Every order pays:
the long k-mers are mostly private, and a lookup that misses costs as much as
one that hits (at n = 10^5, L = 141, degree 20: passes of 0.65 s and 0.35 s
cached against 2.2 s and 2.1 s looked up; caching only the orders with 10 %
or more shared occurrences gave 1.2 s and 0.9 s).
"""

from __future__ import annotations

import numpy as np

from . import _kernels
from .layout import FeatureLayout

#: bytes per cached entry (one int32 column within its region)
ENTRY_BYTES = 4


def cache_plan(layout: FeatureLayout, n_rows: int, budget: int) -> np.ndarray:
    """First cache row of each order, -1 for the orders not cached.

    Parameters
    ----------
    layout : FeatureLayout
        The training feature map.
    n_rows : int
        Training sequences.
    budget : int
        Bytes the caches of all chunks may take.

    Returns
    -------
    numpy.ndarray of int64, shape (degree,)
        ``estart[k-1]``: the first of the ``(L - k + 1) * (S + 1)`` cache rows
        of sparse order k, or -1 (dense, hashed or over the budget).
    """
    estart = np.full(layout.degree, -1, dtype=np.int64)
    rows = 0
    for k in range(layout.n_dense + 1, layout.n_exact + 1):
        add = (layout.length - k + 1) * (layout.shift + 1)
        if (rows + add) * n_rows * ENTRY_BYTES > budget:
            break
        estart[k - 1] = rows
        rows += add
    return estart


def build_cache(
    X: np.ndarray, layout: FeatureLayout, estart: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The column cache of one chunk (`_kernels.sparse_cache`).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (m, L)
        The chunk's sequences.
    layout : FeatureLayout
        The training feature map.
    estart : numpy.ndarray of int64, shape (degree,)
        From `cache_plan`.

    Returns
    -------
    estart : numpy.ndarray of int64, shape (degree,)
        As given.
    columns : numpy.ndarray of int32, shape (n_cache_rows, m)
        Empty (0 rows) if no order is cached.
    """
    sizes = (layout.length - np.arange(layout.degree)) * (layout.shift + 1)
    n_rows = int(sizes[estart >= 0].sum())
    cache = np.full((n_rows, X.shape[0]), -1, dtype=np.int32)
    if n_rows:
        _kernels.sparse_cache(np.ascontiguousarray(X), layout.fmap, estart, cache)
    return estart, cache


def no_cache(layout: FeatureLayout) -> tuple[np.ndarray, np.ndarray]:
    """The cache arguments that look every sparse feature up.

    Parameters
    ----------
    layout : FeatureLayout
        The feature map.

    Returns
    -------
    estart, columns : numpy.ndarray
        ``estart`` -1 for every order and an empty cache.
    """
    return np.full(layout.degree, -1, dtype=np.int64), np.zeros((0, 0), np.int32)
