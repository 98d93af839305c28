"""The item format of the sparse orders' column caches.

Only the features in the table are kept: per occurrence row ``e = p * (S + 1)
+ j`` of an order (the occurrence at p feeding feature ``(k, p - j, y)``) and
block of `_features.BLOCK` rows, the items ``(row within the block, column
within the region)``, sorted by column (`_features.cached_order`). So

* the long, mostly private k-mers cost nothing in a pass (at n = 2·10^5, L =
  141: 5 % of the order-11 occurrences and under 2 % of orders 12-20 are in
  the table);
* the weights or the gradient of a region are walked in order, and what is
  read or written at random is a block of rows (128 KiB), which stays in the
  CPU cache. Random reads of the weights themselves, regions of up to
  0.5 MiB for orders 8-9, made a pass cost several times the hashed model's.
  A pass walks a region for all the blocks of a chunk (or of a thread's run
  of blocks) in turn, so the region is read from memory once, not once per
  block.

An item takes 6 bytes (uint16 row, int32 column). One order's items on a
chunk are ``(ptr, irow, icol)``: the items of occurrence row e in block b are
``ptr[e, b] .. ptr[e, b + 1]``. `poimkit.svm.linear.cache` builds them per
chunk; the key collection (`poimkit.svm.linear.table.collect_present_keys`)
makes those of the lowest orders from the slots it already knows.
"""

from __future__ import annotations

import numpy as np

from . import _features

#: bytes per cached item: the uint16 row within its block and the int32 column
ITEM_BYTES = 6
#: bytes per (occurrence row, block) pointer
POINTER_BYTES = 8

if _features.BLOCK > 2**16:  # the rows within a block are uint16
    raise ImportError("the item cache needs blocks of at most 2**16 rows")


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
    n_blocks = -(-m // _features.BLOCK)
    counts = np.zeros((n_occ, n_blocks), dtype=np.int64)
    _features.count_items(cols, counts)
    starts = np.concatenate([[0], np.cumsum(counts)])
    ptr = np.empty((n_occ, n_blocks + 1), dtype=np.int64)
    ptr[:, :-1] = starts[:-1].reshape(n_occ, n_blocks)
    ptr[:, -1] = starts[n_blocks::n_blocks]
    irow = np.empty(starts[-1], dtype=np.uint16)
    icol = np.empty(starts[-1], dtype=np.int32)
    _features.fill_items(cols, sizes, ptr, irow, icol)
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
