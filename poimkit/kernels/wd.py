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
def weighted_kmer_count(mask, degree):
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
def wd_pair_count(planes1, a, planes2, b, valid, degree, mask):
    """Return the integer WD count ``C`` of row ``a`` of X1 and row ``b`` of X2.

    ``planes1``/``planes2`` are bitplanes of shape ``(n, 2, W)``, ``valid`` the
    valid-position masks ``(W,)`` and ``mask`` a scratch array ``(W,)``.
    """
    for w in range(mask.shape[0]):
        mismatch = (planes1[a, 0, w] ^ planes2[b, 0, w]) | (
            planes1[a, 1, w] ^ planes2[b, 1, w]
        )
        mask[w] = ~mismatch & valid[w]
    return weighted_kmer_count(mask, degree)


@njit(**NJIT)
def n_tiles(n):
    """Return the number of tiles along an axis of length ``n``."""
    return (n + TILE - 1) // TILE


@njit(**NJIT)
def n_tasks(n1, n2, symmetric):
    """Return the number of tiles listed by `tile_of`."""
    t1 = n_tiles(n1)
    return t1 * (t1 + 1) // 2 if symmetric else t1 * n_tiles(n2)


@njit(**NJIT)
def tile_of(task, n1, n2, symmetric):
    """Return the tile ``(i, j)`` of a task.

    For a symmetric output only tiles with ``i <= j`` are listed, row by row;
    otherwise all tiles are, row by row.
    """
    t = int64(task)
    t1 = n_tiles(n1)
    if not symmetric:
        t2 = n_tiles(n2)
        return t // t2, t % t2
    i = int64(0)
    while t >= t1 - i:
        t -= t1 - i
        i += 1
    return i, i + t


@njit(**NJIT_PARALLEL)
def wd_gram(planes1, planes2, valid, degree, symmetric, num, den, out):
    """Fill ``out[a, b] = C(a, b) * num / den`` for all pairs.

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
    num, den : float
        Output scale: ``2.0`` and ``d (d + 1)`` for the plain kernel.
    out : numpy.ndarray of float64, shape (n1, n2)
    """
    n1 = planes1.shape[0]
    n2 = planes2.shape[0]
    n_w = planes1.shape[2]
    for task in prange(n_tasks(n1, n2, symmetric)):
        ti, tj = tile_of(task, n1, n2, symmetric)
        mask = np.empty(n_w, dtype=np.uint64)
        for a in range(ti * TILE, min(n1, (ti + 1) * TILE)):
            b_start = a if symmetric and ti == tj else tj * TILE
            for b in range(b_start, min(n2, (tj + 1) * TILE)):
                count = wd_pair_count(planes1, a, planes2, b, valid, degree, mask)
                value = float(count) * num / den
                out[a, b] = value
                if symmetric:
                    out[b, a] = value
