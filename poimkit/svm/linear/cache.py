"""Item cache of the sparse orders: each training k-mer looked up once.

A pass of the linear trainer visits every (order, position, row) feature; for
a sparse order its column comes from the open-addressing table
(`poimkit.svm.linear._table`), a probe that costs several times the hashed or
dense column's arithmetic and, for the many private k-mers, ends in a miss.
The training sequences do not change between passes, so their columns are
looked up once and kept, as long as that fits the memory left in the budget
(orders from the lowest up; the rest keep looking up).

Only the features in the table are kept: per occurrence row ``e = p * (S + 1)
+ j`` of an order (the occurrence at p feeding feature ``(k, p - j, y)``) and
block of `_kernels.BLOCK` rows, the items ``(row within the block, column
within the region)``, sorted by column (`_kernels.cached_order`). So

* the long, mostly private k-mers cost nothing in a pass (at n = 2·10^5, L =
  141: 5 % of the order-11 occurrences and under 2 % of orders 12-20 are in
  the table);
* the weights or the gradient of a region are walked in order, and what is
  read or written at random is a block of rows (128 KiB), which stays in the
  CPU cache. Random reads of the weights themselves, regions of up to
  0.5 MiB for orders 8-9, made a pass at 2·10^5 cost 2.6x the hashed model's.

An item takes 6 bytes (uint16 row, int32 column).
"""

from __future__ import annotations

import numpy as np

from . import _kernels
from .layout import FeatureLayout

#: bytes per cached item: the uint16 row within its block and the int32 column
ITEM_BYTES = 6
#: bytes per (occurrence row, block) pointer
POINTER_BYTES = 8

if _kernels.BLOCK > 2**16:  # the rows within a block are uint16
    raise ImportError("the item cache needs blocks of at most 2**16 rows")


def _region_sizes(layout: FeatureLayout, k: int) -> np.ndarray:
    """Columns of the region each occurrence row of sparse order k feeds."""
    count = layout.present.counts[k - layout.n_dense - 1]
    n_pos, shift = layout.length - k + 1, layout.shift
    p = np.repeat(np.arange(n_pos), shift + 1)
    r = p - np.tile(np.arange(shift + 1), n_pos)
    return np.where(r >= 0, count[np.maximum(r, 0)], 0).astype(np.int64)


def _order_items(
    X: np.ndarray, layout: FeatureLayout, k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ptr, irow, icol)`` of sparse order k on the rows of X."""
    n_occ = (layout.length - k + 1) * (layout.shift + 1)
    cols = np.full((n_occ, X.shape[0]), -1, dtype=np.int32)
    _kernels.occurrence_columns(X, layout.fmap, k, cols)
    n_blocks = -(-X.shape[0] // _kernels.BLOCK)
    counts = np.zeros((n_occ, n_blocks), dtype=np.int64)
    _kernels.count_items(cols, counts)
    starts = np.concatenate([[0], np.cumsum(counts)])
    ptr = np.empty((n_occ, n_blocks + 1), dtype=np.int64)
    ptr[:, :-1] = starts[:-1].reshape(n_occ, n_blocks)
    ptr[:, -1] = starts[n_blocks::n_blocks]
    irow = np.empty(starts[-1], dtype=np.uint16)
    icol = np.empty(starts[-1], dtype=np.int32)
    _kernels.fill_items(cols, _region_sizes(layout, k), ptr, irow, icol)
    return ptr, irow, icol


def build_cache(X: np.ndarray, layout: FeatureLayout, budget: int) -> tuple:
    """The item cache of one chunk, orders from the lowest up while it fits.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (m, L)
        The chunk's sequences.
    layout : FeatureLayout
        The training feature map.
    budget : int
        Bytes this chunk's cache may take.

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
    cstart = np.full(layout.degree, -1, dtype=np.int64)
    parts, rows, used = [], 0, 0
    for k in range(layout.n_dense + 1, layout.n_exact + 1):
        ptr, irow, icol = _order_items(X, layout, k)
        used += ptr.size * POINTER_BYTES + irow.size * ITEM_BYTES
        if used > budget:
            break
        cstart[k - 1] = rows
        rows += ptr.shape[0]
        parts.append((ptr, irow, icol))
    if not parts:
        return no_cache(layout)
    offsets = np.cumsum([0] + [irow.size for _, irow, _ in parts[:-1]])
    ptr = np.concatenate([p + o for (p, _, _), o in zip(parts, offsets, strict=True)])
    irow = np.concatenate([irow for _, irow, _ in parts])
    icol = np.concatenate([icol for _, _, icol in parts])
    return cstart, ptr, irow, icol


def no_cache(layout: FeatureLayout) -> tuple:
    """The cache arguments that look every sparse feature up.

    Parameters
    ----------
    layout : FeatureLayout
        The feature map.

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
