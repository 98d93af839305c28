"""Item cache of the sparse orders: each training k-mer looked up once.

A pass of the linear trainer visits every (order, position, row) feature; for
a sparse order its column comes from the open-addressing table
(`poimkit.svm.linear._table`), a probe that costs several times the hashed or
dense column's arithmetic and, for the many private k-mers, ends in a miss.
The training sequences do not change between passes, so their columns are
looked up once and kept, as long as that fits the memory left in the budget
(orders from the lowest up; the rest keep looking up).

The cache holds the items of `poimkit.svm.linear.items` (their format, and
why walking them pays). For WD the local trainer gets the items of the
lowest orders from the key collection
(`poimkit.svm.linear.table.collect_present_keys`), which knows the slot of
every occurrence: a second lookup of every occurrence is then not needed.
`build_cache` looks up the rest, and all of them for WDS and on Dask workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _features
from .items import ITEM_BYTES, POINTER_BYTES, concat_items, items_of_columns

if TYPE_CHECKING:
    from .layout import FeatureLayout


def _region_sizes(layout: FeatureLayout, k: int) -> np.ndarray:
    """Columns of the region each occurrence row of sparse order k feeds."""
    count = layout.present.counts[k - layout.n_dense - 1]
    n_pos, shift = layout.length - k + 1, layout.shift
    p = np.repeat(np.arange(n_pos), shift + 1)
    r = p - np.tile(np.arange(shift + 1), n_pos)
    return np.where(r >= 0, count[np.maximum(r, 0)], 0).astype(np.int64)


def _order_items(X: np.ndarray, layout: FeatureLayout, k: int) -> tuple:
    """``(ptr, irow, icol)`` of sparse order k on the rows of X (looked up)."""
    n_occ = (layout.length - k + 1) * (layout.shift + 1)
    cols = np.full((n_occ, X.shape[0]), -1, dtype=np.int32)
    _features.occurrence_columns(X, layout.fmap, k, cols)
    return items_of_columns(cols, _region_sizes(layout, k))


def build_cache(
    X: np.ndarray, layout: FeatureLayout, budget: int, orders: list | None = None
) -> tuple:
    """The item cache of one chunk, orders from the lowest up while it fits.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (m, L)
        The chunk's sequences.
    layout : FeatureLayout
        The training feature map.
    budget : int
        Bytes this chunk's cache may take.
    orders : list of tuple, optional
        The chunk's items of the lowest sparse orders, ready made
        (`poimkit.svm.linear.table.collect_present_keys`); the higher orders
        are looked up.

    Returns
    -------
    cstart : numpy.ndarray of int64, shape (degree,)
        First occurrence row of each cached order, -1 for the others (dense,
        hashed, or past the budget).
    ptr : numpy.ndarray of int64, shape (n_occurrence_rows, n_blocks + 1)
        Items of occurrence row e in block b: ``ptr[e, b] .. ptr[e, b + 1]``.
    irow : numpy.ndarray of uint16
        Each item's row within its block.
    icol : numpy.ndarray of int32
        Each item's column within its region.
    """
    X = np.ascontiguousarray(X)
    orders = orders or []
    cstart = np.full(layout.degree, -1, dtype=np.int64)
    parts, rows, used = [], 0, 0
    for k in range(layout.n_dense + 1, layout.n_exact + 1):
        o = k - layout.n_dense - 1
        ptr, irow, icol = orders[o] if o < len(orders) else _order_items(X, layout, k)
        used += ptr.size * POINTER_BYTES + irow.size * ITEM_BYTES
        if used > budget:
            break
        cstart[k - 1] = rows
        rows += ptr.shape[0]
        parts.append((ptr, irow, icol))
    if not parts:
        return no_cache(layout)
    return (cstart, *concat_items(parts))


def no_cache(layout: FeatureLayout) -> tuple:
    """The cache arguments that look every sparse feature up.

    Parameters
    ----------
    layout : FeatureLayout
        The feature map; only its degree (the number of orders) matters.

    Returns
    -------
    tuple
        As `build_cache`: ``cstart`` -1 for every order, no items.
    """
    return (
        np.full(layout.degree, -1, dtype=np.int64),
        np.zeros((0, 1), dtype=np.int64),
        np.zeros(0, dtype=np.uint16),
        np.zeros(0, dtype=np.int32),
    )
