"""numba kernels of the weighted-degree (WD) string kernel.

Counting identity
-----------------
Let ``m`` be the match mask of a pair (bit ``p`` set when ``x[p] == x'[p]``)
and ``M_1 = m``, ``M_{k+1} = M_k & (M_k << 1)``: bit ``p`` of ``M_k`` is set
exactly when the k-mers ending at ``p`` match, so ``popcount(M_k)`` is the
number of matching positional k-mers and

    k(x, x') = sum_k beta_k popcount(M_k) = 2 / (d (d + 1)) * C,
    C = sum_{k=1..d} (d - k + 1) popcount(M_k).

``C`` is an integer, accumulated exactly as ``sum_k cum_k`` with
``cum_k = sum_{j <= k} popcount(M_j)``. The loop stops as soon as ``M_k`` is
empty (after the longest matching run, at most ``d`` steps); the remaining
``d - k`` terms all equal ``cum_k``. The result is ``C * num / den``: one
rounding for WD, so the normalised diagonal is exactly 1.

The Gram kernels walk the output in square tiles of `TILE` rows (only tiles
on or above the diagonal for a symmetric output), one tile per parallel task.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit, prange, uint64

from .._config import NJIT, NJIT_PARALLEL
from ._packing import popcount64

TILE = 64
"""Rows and columns of the output tile handled by one parallel task."""


@njit(inline="always", **NJIT)
def weighted_kmer_count(mask: np.ndarray, degree: int) -> int:
    """Return ``sum_{k=1..degree} (degree - k + 1) * #matching k-mers``.

    Parameters
    ----------
    mask : numpy.ndarray of uint64, shape (W,)
        Match mask, bit ``j`` of word ``w`` for position ``64 w + j``.
        Overwritten.
    degree : int
        Largest k-mer length ``d``.

    Returns
    -------
    int
        The integer ``C`` of the module docstring.
    """
    n_w = mask.shape[0]
    alive = uint64(0)
    for w in range(n_w):
        alive |= mask[w]
    total = int64(0)
    cum = int64(0)
    k = 0
    while alive != 0 and k < degree:
        k += 1
        carry = uint64(0)
        alive = uint64(0)
        for w in range(n_w):
            x = mask[w]
            cum += int64(popcount64(x))
            nxt = x & ((x << uint64(1)) | carry)
            carry = x >> uint64(63)
            mask[w] = nxt
            alive |= nxt
        total += cum
    return total + (degree - k) * cum


@njit(inline="always", **NJIT)
def wd_pair_count(
    planes1: np.ndarray,
    a: int,
    planes2: np.ndarray,
    b: int,
    valid: np.ndarray,
    degree: int,
    mask: np.ndarray,
) -> int:
    """Return the integer WD count ``C`` of row ``a`` of X1 and row ``b`` of X2.

    Parameters
    ----------
    planes1, planes2 : numpy.ndarray of uint64, shape (n, 2, W)
        Bitplanes of X1 and X2.
    a, b : int
        Rows of X1 and X2.
    valid : numpy.ndarray of uint64, shape (W,)
        Valid-position masks.
    degree : int
        Largest k-mer length ``d``.
    mask : numpy.ndarray of uint64, shape (W,)
        Scratch.

    Returns
    -------
    int
    """
    for w in range(mask.shape[0]):
        mismatch = (planes1[a, 0, w] ^ planes2[b, 0, w]) | (
            planes1[a, 1, w] ^ planes2[b, 1, w]
        )
        mask[w] = ~mismatch & valid[w]
    return weighted_kmer_count(mask, degree)


@njit(**NJIT)
def _n_tiles(n: int) -> int:
    """Return the number of tiles along an axis of length ``n``."""
    return (n + TILE - 1) // TILE


@njit(**NJIT)
def n_tasks(n1: int, n2: int, symmetric: bool) -> int:
    """Return the number of parallel tasks (tiles) of an ``(n1, n2)`` output.

    For a symmetric output only tiles on and above the diagonal are tasks.

    Parameters
    ----------
    n1, n2 : int
        Rows and columns of the output.
    symmetric : bool
        The output is symmetric (``n1 == n2``).

    Returns
    -------
    int
    """
    t1 = _n_tiles(n1)
    return t1 * (t1 + 1) // 2 if symmetric else t1 * _n_tiles(n2)


@njit(**NJIT)
def _tile_of(task, n1, n2, symmetric):
    """Return the tile ``(i, j)`` of a task (arguments as in `tile_span`).

    For a symmetric output only tiles with ``i <= j`` are listed, row by row;
    otherwise all tiles are, row by row.
    """
    t = int64(task)
    t1 = _n_tiles(n1)
    if not symmetric:
        t2 = _n_tiles(n2)
        return t // t2, t % t2
    i = int64(0)
    while t >= t1 - i:
        t -= t1 - i
        i += 1
    return i, i + t


@njit(inline="always", **NJIT)
def tile_span(task: int, n1: int, n2: int, symmetric: bool) -> tuple:
    """Return the rows ``a0:a1`` and columns ``b0:b1`` of a task's tile.

    Parameters
    ----------
    task : int
        Task number, ``0 <= task < n_tasks(n1, n2, symmetric)``.
    n1, n2, symmetric
        As in `n_tasks`.

    Returns
    -------
    a0, a1, b0, b1 : int
    diagonal : bool
        The tile is on the diagonal of a symmetric output: row ``a`` then
        starts at column ``a`` (the pairs below are its mirror).
    """
    ti, tj = _tile_of(task, n1, n2, symmetric)
    a1 = min(n1, (ti + 1) * TILE)
    b1 = min(n2, (tj + 1) * TILE)
    return ti * TILE, a1, tj * TILE, b1, symmetric and ti == tj


@njit(inline="always", **NJIT)
def put(out: np.ndarray, a: int, b: int, value: float, symmetric: bool) -> None:
    """Write ``out[a, b] = value``, and ``out[b, a]`` for a symmetric output.

    Parameters
    ----------
    out : numpy.ndarray of float64, shape (n1, n2)
    a, b : int
        Row and column.
    value : float
    symmetric : bool
    """
    out[a, b] = value
    if symmetric:
        out[b, a] = value


@njit(**NJIT_PARALLEL)
def wd_gram(
    planes1: np.ndarray,
    planes2: np.ndarray,
    valid: np.ndarray,
    degree: int,
    symmetric: bool,
    factor: tuple,
    out: np.ndarray,
) -> None:
    """Fill ``out[a, b] = C(a, b) * num / den`` for all pairs.

    The output is walked tile by tile (`tile_span`), one tile per parallel
    task with its own scratch mask.

    Parameters
    ----------
    planes1, planes2 : numpy.ndarray of uint64, shape (n1, 2, W), (n2, 2, W)
        Bitplanes (see `poimkit.kernels._packing.pack_planes`).
    valid : numpy.ndarray of uint64, shape (W,)
        Valid-position masks.
    degree : int
    symmetric : bool
        ``planes2`` is ``planes1``: compute tiles on and above the diagonal and
        write both ``out[a, b]`` and ``out[b, a]``.
    factor : tuple of float
        ``(num, den)``, the output scale: ``(2.0, d (d + 1))`` for the plain
        kernel.
    out : numpy.ndarray of float64, shape (n1, n2)
    """
    num, den = factor
    n1 = planes1.shape[0]
    n2 = planes2.shape[0]
    n_w = planes1.shape[2]
    for task in prange(n_tasks(n1, n2, symmetric)):
        a0, a1, b0, b1, diagonal = tile_span(task, n1, n2, symmetric)
        mask = np.empty(n_w, dtype=np.uint64)
        for a in range(a0, a1):
            for b in range(a if diagonal else b0, b1):
                count = wd_pair_count(planes1, a, planes2, b, valid, degree, mask)
                put(out, a, b, float(count) * num / den, symmetric)
