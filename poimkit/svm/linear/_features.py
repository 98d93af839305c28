"""Numba kernels of the linear WD trainer: on-the-fly WD/WDS features.

Pure functions on arrays; no validation (the wrappers are in
`poimkit.svm.linear.passes`). The feature map arrives as one named tuple
``fmap`` (`poimkit.svm.linear.layout.FeatureMap`: degree, shift, n_dense,
n_exact, offsets, strides, salt, mask, coef, band, tstart, tmask, cbase,
tkeys, tidx; read by name, ``fmap.coef``). A feature is
addressed by ``(k, r, y)``: order ``k`` (1-based), feature position ``r`` and
k-mer index ``y``. An occurrence of ``y`` starting at ``p`` feeds the features
``r = p - j``, ``j = 0..S``, with factor ``coef[k-1] * band[k-1, p, j]``
(plain WD: ``S = 0``, one feature).

Column of ``(k, r, y)``: ``offsets[k-1] + r * strides[k-1] + slot`` where
``slot = y`` for dense orders and ``slot = hash & mask`` (sign from the top
hash bit) for hashed ones; for sparse orders ``cbase[k-1, r] + idx`` with
``idx`` looked up in the region's open-addressing table
(`poimkit.svm.linear._table`); a key absent from it (seen first at prediction)
gets factor 0 and column -1 (the bias, to which a zero adds nothing). Every
(order, position) owns a small contiguous region, so the loops run position by
position over a block of rows: the region being read or written stays in
cache. Rows are copied position-major (``xt[q, t]``) per block, and the k-mer
keys roll along the positions, one running key per row; no feature matrix is
ever stored. Sparse orders of the training chunks are read from their item
cache instead (`poimkit.svm.linear.cache`, `cached_order`).
"""

import numpy as np
from numba import njit, prange

from ..._alphabet import extend, push
from ..._config import NJIT, NJIT_PARALLEL
from ._table import mix64, probe_find

# Rows per block. Fixed (never derived from the thread count), so that every
# sum is added in the same order whatever the threads: the Dask and the local
# backend then give bitwise equal results. A block's rows (128 KiB of float64)
# stay in the CPU cache while a cached order walks a region's items; at most
# 2**16 (the item cache keeps the row within the block as uint16).
BLOCK = 16384

_TOP = np.uint64(63)


@njit(**NJIT)
def sparse_column(k, r, key, fmap):
    """Column of the sparse feature ``(k, r, key)``, or -1 if it is absent."""
    tstart, tmask, cbase, tkeys, tidx = (
        fmap.tstart,
        fmap.tmask,
        fmap.cbase,
        fmap.tkeys,
        fmap.tidx,
    )
    i = probe_find(
        tkeys,
        tidx,
        tstart[k - 1, r],
        np.uint64(tmask[k - 1, r]),
        np.uint64(key) + np.uint64(1),
    )
    return i if i < 0 else cbase[k - 1, r] + i


#: how the features of an order are indexed (`order_address`)
DENSE, SPARSE, HASHED = 0, 1, 2


@njit(inline="always", **NJIT)
def order_address(k, r, fmap):
    """``(kind, base)`` of order k at position r: `DENSE`, `SPARSE` or `HASHED`.

    ``base`` is the first column of ``(k, r)`` (dense and hashed orders).
    """
    base = fmap.offsets[k - 1] + r * fmap.strides[k - 1]
    if k <= fmap.n_dense:
        return DENSE, base
    return (SPARSE if k <= fmap.n_exact else HASHED), base


@njit(**NJIT)
def feature(k, r, key, fmap):
    """Column and sign of feature ``(k, r, key)`` (-1 and 0.0 if absent)."""
    kind, base = order_address(k, r, fmap)
    if kind == DENSE:
        return base + key, 1.0
    if kind == SPARSE:
        col = sparse_column(k, r, key, fmap)
        return col, 0.0 if col < 0 else 1.0
    h = mix64(np.uint64(key) ^ fmap.salt[k - 1, r])
    sign = 1.0 if (h >> _TOP) == np.uint64(0) else -1.0
    return base + np.int64(h & fmap.mask), sign


@njit(**NJIT)
def ordered_sum(v):
    """``v[0] + v[1] + ...`` in index order (the same bits for any layout)."""
    total = 0.0
    for i in range(v.shape[0]):
        total += v[i]
    return total


@njit(**NJIT)
def transpose_rows(X, rows, xt):
    """``xt[q, t] = X[rows[t], q]``: the rows, position-major."""
    for t in range(rows.shape[0]):
        i = rows[t]
        for q in range(X.shape[1]):
            xt[q, t] = X[i, q]


@njit(**NJIT)
def row_block(X, b):
    """``(lo, hi, xt)``: the rows of block b and their position-major copy."""
    lo = b * BLOCK
    hi = min(X.shape[0], lo + BLOCK)
    xt = np.empty((X.shape[1], hi - lo), dtype=np.uint8)
    transpose_rows(X, np.arange(lo, hi), xt)
    return lo, hi, xt


@njit(**NJIT)
def start_keys(xt, k, cur):
    """``cur[t]`` = index of the (k-1)-mer ``x_t[0:k-1]``."""
    for t in range(cur.shape[0]):
        key = np.int64(0)
        for q in range(k - 1):
            key = extend(key, np.int64(xt[q, t]))
        cur[t] = key


@njit(**NJIT)
def roll_keys(xt, q, kmask, cur):
    """Append letter ``q`` to every running key (keeping the last k letters)."""
    for t in range(cur.shape[0]):
        cur[t] = push(cur[t], np.int64(xt[q, t]), kmask)


@njit(**NJIT)
def feature_columns(cur, k, r, a, fmap, col, fac):
    """Column and signed factor of feature ``(k, r, key)`` for every running key.

    ``a`` is the occurrence's factor ``coef_k * band``. A loop of its own, so
    that the hashing vectorises.
    """
    kind, base = order_address(k, r, fmap)
    if kind == DENSE:
        for t in range(cur.shape[0]):
            col[t] = base + cur[t]
            fac[t] = a
        return
    if kind == SPARSE:
        for t in range(cur.shape[0]):
            col[t] = sparse_column(k, r, cur[t], fmap)
            fac[t] = 0.0 if col[t] < 0 else a
        return
    s, mask = fmap.salt[k - 1, r], fmap.mask
    for t in range(cur.shape[0]):
        h = mix64(np.uint64(cur[t]) ^ s)
        col[t] = base + np.int64(h & mask)
        fac[t] = a if (h >> _TOP) == np.uint64(0) else -a


@njit(**NJIT)
def block_order(xt, vec, k, fmap, out, scatter):
    """Order k of the feature map on the rows of a position-major block, by key.

    ``scatter=False`` gathers, ``out[t] += <phi_k(x_t), vec>`` (one entry per
    row); ``scatter=True`` scatters, ``out += sum_t vec[t] phi_k(x_t)`` (one
    entry per feature column). Dense, hashed and uncached sparse orders.
    """
    shift, coef, band = fmap.shift, fmap.coef, fmap.band
    length, m = xt.shape
    cur = np.empty(m, dtype=np.int64)
    col = np.empty(m, dtype=np.int64)
    fac = np.empty(m, dtype=np.float64)
    kmask = (np.int64(1) << np.int64(2 * k)) - 1
    start_keys(xt, k, cur)
    for p in range(length - k + 1):
        roll_keys(xt, p + k - 1, kmask, cur)
        for j in range(min(shift, p) + 1):
            feature_columns(
                cur, k, p - j, coef[k - 1] * band[k - 1, p, j], fmap, col, fac
            )
            if scatter:
                for t in range(m):
                    out[col[t]] += vec[t] * fac[t]
            else:
                for t in range(m):
                    out[t] += fac[t] * vec[col[t]]


@njit(**NJIT)
def cached_order(vec, k, fmap, out, items, b_lo, b_hi, b0, scatter):
    """Order k on blocks ``b_lo .. b_hi - 1`` of a chunk, from its item cache.

    ``items = (cstart, ptr, irow, icol)``; the present features of the
    occurrences at p feeding ``(k, p - j, y)`` in block b are the items
    ``ptr[e, b] .. ptr[e, b + 1] - 1`` of ``e = cstart[k-1] + p * (S + 1) + j``:
    the row within the block and the column within the region, sorted by
    column. So the weights (or the gradient) are walked in order, and the
    rows, a block's worth, are what is read or written at random. A region
    is walked for every block in turn before the next region: its weights (or
    gradient) are still in the CPU cache for the second and later blocks.
    Row ``irow`` of block b is entry ``(b - b0) * BLOCK + irow`` of ``vec``
    (scattering: the coefficients) or of ``out`` (gathering: the margins).
    ``scatter`` and ``out`` as in `block_order`. Every row has at most one
    item per ``e``, and the rows of a column come in order (block, then row),
    so the sums are bitwise those of `block_order` on the same rows.
    """
    shift, coef, band, cbase = fmap.shift, fmap.coef, fmap.band, fmap.cbase
    cstart, ptr, irow, icol = items
    for p in range(band.shape[1] - k + 1):
        for j in range(min(shift, p) + 1):
            a = coef[k - 1] * band[k - 1, p, j]
            e = cstart[k - 1] + p * (shift + 1) + j
            base = cbase[k - 1, p - j]
            for b in range(b_lo, b_hi):
                off = (b - b0) * BLOCK
                if scatter:
                    for q in range(ptr[e, b], ptr[e, b + 1]):
                        out[base + icol[q]] += vec[off + irow[q]] * a
                else:
                    for q in range(ptr[e, b], ptr[e, b + 1]):
                        out[off + irow[q]] += a * vec[base + icol[q]]


@njit(**NJIT)
def _run_orders(X, v, fmap, acc, b_lo, b_hi, k_lo, k_hi):
    """``acc += <phi_k(x), v>`` for orders ``k_lo .. k_hi`` (by key), block by block.

    ``acc`` holds the rows of blocks ``b_lo .. b_hi - 1``; nothing to do if
    ``k_lo > k_hi``.
    """
    if k_lo > k_hi:
        return
    for b in range(b_lo, b_hi):
        lo, hi, xt = row_block(X, b)
        rows = acc[lo - b_lo * BLOCK : hi - b_lo * BLOCK]
        for k in range(k_lo, k_hi + 1):
            block_order(xt, v, k, fmap, rows, False)


def _margins(X, v, fmap, out, n_runs, cstart, ptr, irow, icol):
    """``out[i] = <phi(X[i]), v[:-1]> + v[-1]``; runs of blocks in parallel.

    ``cstart, ptr, irow, icol``: the chunk's item cache (`cache.build_cache`;
    ``cstart`` all -1 for none). The blocks are cut into ``n_runs`` runs (one
    per thread), each a parallel task: its dense orders block by block, then
    each cached order region by region over all of the run's blocks
    (`cached_order`), then the other orders block by block. A row adds its
    orders in order whatever the runs (the cached ones are the lowest sparse
    orders), so the margins depend neither on the threads nor on the cache.
    """
    items = (cstart, ptr, irow, icol)
    n_dense = fmap.n_dense
    n_blocks = (X.shape[0] + BLOCK - 1) // BLOCK
    n_runs = max(1, min(n_blocks, n_runs))
    for g in prange(n_runs):
        b_lo, b_hi = g * n_blocks // n_runs, (g + 1) * n_blocks // n_runs
        lo, hi = b_lo * BLOCK, min(X.shape[0], b_hi * BLOCK)
        acc = np.full(hi - lo, v[v.shape[0] - 1])  # the bias column
        k_c = n_dense  # the cached orders: n_dense + 1 .. k_c
        while k_c < fmap.degree and cstart[k_c] >= 0:
            k_c += 1
        _run_orders(X, v, fmap, acc, b_lo, b_hi, 1, n_dense)
        for k in range(n_dense + 1, k_c + 1):
            cached_order(v, k, fmap, acc, items, b_lo, b_hi, b_lo, False)
        _run_orders(X, v, fmap, acc, b_lo, b_hi, k_c + 1, fmap.degree)
        out[lo:hi] = acc


def _scatter(X, g, order_list, fmap, out, cstart, ptr, irow, icol):
    """``out[:-1] += sum_i g[i] phi(X[i])``; one order per parallel task.

    Orders looked up by key skip the rows with ``g[i] == 0`` (outside the
    margin, for the squared hinge); cached orders walk their items (adding 0
    for those rows). Each order owns its columns (no races) and adds rows in
    one fixed order whatever the threads. A sparse order adds them position
    by position, each over all the chunk's rows (cached: region by region,
    `cached_order`; looked up: the chunk's active rows at once), so the
    result does not depend on the cache; dense and hashed orders go block by
    block of rows.
    """
    items = (cstart, ptr, irow, icol)
    n_dense, n_exact = fmap.n_dense, fmap.n_exact
    n_blocks = (X.shape[0] + BLOCK - 1) // BLOCK
    active = np.flatnonzero(g != 0.0)
    xt = np.empty((X.shape[1], active.shape[0]), dtype=np.uint8)
    transpose_rows(X, active, xt)
    g_act = g[active]
    # the active rows of block b: active[bounds[b]:bounds[b + 1]]
    bounds = np.searchsorted(active, np.arange(n_blocks + 1) * BLOCK)
    for t in prange(order_list.shape[0]):
        k = order_list[t]
        if cstart[k - 1] >= 0:
            cached_order(g, k, fmap, out, items, 0, n_blocks, 0, True)
        elif n_dense < k <= n_exact:
            block_order(xt, g_act, k, fmap, out, True)
        else:
            for b in range(n_blocks):
                lo, hi = bounds[b], bounds[b + 1]
                if hi > lo:
                    block_order(xt[:, lo:hi], g_act[lo:hi], k, fmap, out, True)


margins_parallel = njit(**NJIT_PARALLEL)(_margins)
margins_serial = njit(**NJIT)(_margins)
scatter_parallel = njit(**NJIT_PARALLEL)(_scatter)
scatter_serial = njit(**NJIT)(_scatter)


@njit(**NJIT_PARALLEL)
def occurrence_columns(X, fmap, k, cols):
    """``cols[p * (S + 1) + j, i]``: column of ``X[i]``'s feature ``(k, p - j, y)``.

    The column within its (order, position) region, -1 if the feature is
    absent from the table; the occurrence of y at p feeds it. Blocks of rows
    run in parallel.
    """
    shift, cbase = fmap.shift, fmap.cbase
    length = X.shape[1]
    kmask = (np.int64(1) << np.int64(2 * k)) - 1
    for b in prange((X.shape[0] + BLOCK - 1) // BLOCK):
        lo, hi, xt = row_block(X, b)
        cur = np.empty(hi - lo, dtype=np.int64)
        start_keys(xt, k, cur)
        for p in range(length - k + 1):
            roll_keys(xt, p + k - 1, kmask, cur)
            for j in range(min(shift, p) + 1):
                e = p * (shift + 1) + j
                base = cbase[k - 1, p - j]
                for t in range(hi - lo):
                    c = sparse_column(k, p - j, cur[t], fmap)
                    cols[e, lo + t] = -1 if c < 0 else c - base


@njit(**NJIT_PARALLEL)
def count_items(cols, counts):
    """``counts[e, b]``: present entries (``cols >= 0``) of row e in block b."""
    n_rows = cols.shape[1]
    for e in prange(cols.shape[0]):
        for b in range(counts.shape[1]):
            c = 0
            for t in range(b * BLOCK, min(n_rows, (b + 1) * BLOCK)):
                c += cols[e, t] >= 0
            counts[e, b] = c


@njit(**NJIT_PARALLEL)
def fill_items(cols, sizes, ptr, irow, icol):
    """Items of row e in block b at ``ptr[e, b]``, sorted by column then row.

    ``sizes[e]``: columns of row e's region (a counting sort per block).
    """
    n_rows = cols.shape[1]
    for e in prange(cols.shape[0]):
        nxt = np.empty(sizes[e] + 1, dtype=np.int64)
        for b in range(ptr.shape[1] - 1):
            lo, hi = b * BLOCK, min(n_rows, (b + 1) * BLOCK)
            nxt[:] = 0
            for t in range(lo, hi):
                if cols[e, t] >= 0:
                    nxt[cols[e, t] + 1] += 1
            nxt[0] = ptr[e, b]
            for c in range(1, sizes[e] + 1):
                nxt[c] += nxt[c - 1]
            for t in range(lo, hi):
                c = cols[e, t]
                if c >= 0:
                    irow[nxt[c]] = t - lo
                    icol[nxt[c]] = c
                    nxt[c] += 1


@njit(**NJIT_PARALLEL)
def mark_buckets(X, order_list, fmap, first, shared):
    """Mark hashed buckets: first feature tag seen (0 = empty), shared or not.

    ``shared[col]`` becomes True when a second, different feature falls into
    bucket ``col``. ``order_list`` holds the hashed orders only.
    """
    shift = fmap.shift
    offsets, strides, salt, mask = fmap.offsets, fmap.strides, fmap.salt, fmap.mask
    n, length = X.shape
    xt = np.empty((length, n), dtype=np.uint8)
    transpose_rows(X, np.arange(n), xt)
    for t in prange(order_list.shape[0]):
        k = order_list[t]
        kmask = (np.int64(1) << np.int64(2 * k)) - 1
        cur = np.empty(n, dtype=np.int64)
        start_keys(xt, k, cur)
        for p in range(length - k + 1):
            roll_keys(xt, p + k - 1, kmask, cur)
            for j in range(min(shift, p) + 1):
                r = p - j
                for i in range(n):
                    h = mix64(np.uint64(cur[i]) ^ salt[k - 1, r])
                    col = offsets[k - 1] + r * strides[k - 1] + np.int64(h & mask)
                    tag = h | np.uint64(1)  # never 0; distinct within a bucket
                    if first[col] == np.uint64(0):
                        first[col] = tag
                    elif first[col] != tag:
                        shared[col] = True
