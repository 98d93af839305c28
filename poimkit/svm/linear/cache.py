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
  A pass walks a region for all the blocks of a chunk (or of a thread's run
  of blocks) in turn, so the region is read from memory once, not once per
  block.

An item takes 6 bytes (uint16 row, int32 column). For WD the local trainer
gets the items of the lowest orders from the key collection
(`poimkit.svm.linear.keys.collect_present_keys`), which knows the slot of
every occurrence: a second lookup of every occurrence is then not needed.
`build_cache` looks up the rest, and all of them for WDS and on Dask workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _kernels

if TYPE_CHECKING:
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


def items_of_columns(cols: np.ndarray, sizes: np.ndarray) -> tuple:
    """``(ptr, irow, icol)`` of the occurrence rows' columns on a chunk's rows.

    Parameters
    ----------
    cols : numpy.ndarray of int32, shape (n_occurrence_rows, m)
        Column within its region of each row's feature, -1 if absent.
    sizes : numpy.ndarray of int64, shape (n_occurrence_rows,)
        Columns of each occurrence row's region.

    Returns
    -------
    tuple
        As one order of `build_cache`, ``ptr`` counting from 0.
    """
    n_occ, m = cols.shape
    n_blocks = -(-m // _kernels.BLOCK)
    counts = np.zeros((n_occ, n_blocks), dtype=np.int64)
    _kernels.count_items(cols, counts)
    starts = np.concatenate([[0], np.cumsum(counts)])
    ptr = np.empty((n_occ, n_blocks + 1), dtype=np.int64)
    ptr[:, :-1] = starts[:-1].reshape(n_occ, n_blocks)
    ptr[:, -1] = starts[n_blocks::n_blocks]
    irow = np.empty(starts[-1], dtype=np.uint16)
    icol = np.empty(starts[-1], dtype=np.int32)
    _kernels.fill_items(cols, sizes, ptr, irow, icol)
    return ptr, irow, icol


def concat_items(parts: list) -> tuple:
    """The items of consecutive runs of occurrence rows, as one run.

    Parameters
    ----------
    parts : list of tuple
        ``(ptr, irow, icol)`` of each run, ``ptr`` counting from 0.

    Returns
    -------
    tuple
        ``(ptr, irow, icol)`` of all the rows, ``ptr`` counting from 0.
    """
    offsets = np.cumsum([0] + [irow.size for _, irow, _ in parts[:-1]])
    ptr = np.concatenate([p + o for (p, _, _), o in zip(parts, offsets, strict=True)])
    irow = np.concatenate([irow for _, irow, _ in parts])
    icol = np.concatenate([icol for _, _, icol in parts])
    return ptr, irow, icol


def _order_items(X: np.ndarray, layout: FeatureLayout, k: int) -> tuple:
    """``(ptr, irow, icol)`` of sparse order k on the rows of X (looked up)."""
    n_occ = (layout.length - k + 1) * (layout.shift + 1)
    cols = np.full((n_occ, X.shape[0]), -1, dtype=np.int32)
    _kernels.occurrence_columns(X, layout.fmap, k, cols)
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
        (`poimkit.svm.linear.keys.collect_present_keys`); the higher orders
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
