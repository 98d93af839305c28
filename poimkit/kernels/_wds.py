"""numba kernels of the WD kernel with shifts (WDS), and of paired rows.

The shifted terms of a pair are WD counts of ``x[s:]`` against ``x'[:L-s]``
(direction +) and of ``x[:L-s]`` against ``x'[s:]`` (direction -), for
``s = 1..S``, weighted by ``delta_s = 1 / (2 (s + 1))``:

    k(x, x') = 2 / (d (d + 1)) * (C_0 + sum_s delta_s (C_s^+ + C_s^-)),

with ``C`` the integer count of `poimkit.kernels._wd`. Eight shifts are
handled at once, one per vector lane, with the counting loop of the WD kernel
run on both directions together; ``C_s^+ + C_s^-`` stays an exact integer per
lane until it is weighted. The lanes of a block share their loop, which runs
until the longest matching run of all 16 comparisons has ended.

Arrays travel in three tuples:

``side = (planes, lanes)``
    Bitplanes ``(n, 2, W)`` of a set of sequences (see
    `poimkit.kernels._packing.pack_planes`) and their shifted bitplanes
    ``(n, n_blocks, 2, W, 8)`` (`poimkit.kernels._packing.pack_shifted_lanes`).
``tables = (valid, lane_valid, weights)``
    Valid-position masks ``(W,)``, the same per lane for length ``L - s``
    ``(n_blocks, W, 8)``, and ``delta_s`` per lane ``(n_blocks * 8,)`` (0 for
    padding lanes).
``scratch = (mask, mask_plus, mask_minus)``
    Per-thread work arrays of `wds_scratch`.

With no lane blocks (``shift=0``) the value of a pair is the plain WD count.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL
from ._packing import (
    LANES,
    v_add,
    v_any,
    v_load,
    v_match,
    v_or,
    v_popcount,
    v_splat,
    v_step,
    v_store,
    v_weighted_sum,
)
from ._wd import n_tasks, put, tile_span, wd_pair_count


@njit(inline="always", **NJIT)
def wds_scratch(n_w: int) -> tuple:
    """Return the work arrays of one thread for `wds_pair_sum`.

    Parameters
    ----------
    n_w : int
        Words per bitplane, ``W``.

    Returns
    -------
    tuple of numpy.ndarray of uint64
        ``(mask, mask_plus, mask_minus)`` of shapes ``(W,)``, ``(W * 8,)``
        and ``(W * 8,)``.
    """
    return (
        np.empty(n_w, dtype=np.uint64),
        np.empty(n_w * LANES, dtype=np.uint64),
        np.empty(n_w * LANES, dtype=np.uint64),
    )


@njit(inline="always", **NJIT)
def _count_and_step(plus, minus, before, at, scratch, cum, alive):
    """One word of both directions: count ``M_k``, store ``M_{k+1}``.

    ``plus``, ``minus``: word w of ``M_k`` in the two directions; ``before``:
    word w - 1 of each (the carry). Adds their set bits to ``cum``, stores
    ``M_{k+1}`` at ``at`` of the lane masks of ``scratch`` and returns ``(cum,
    alive)`` with ``alive`` or-ed with ``M_{k+1}``.
    """
    _, mask_plus, mask_minus = scratch
    cum = v_add(cum, v_add(v_popcount(plus), v_popcount(minus)))
    next_plus = v_step(plus, before[0])
    next_minus = v_step(minus, before[1])
    v_store(mask_plus, at, next_plus)
    v_store(mask_minus, at, next_minus)
    return cum, v_or(alive, v_or(next_plus, next_minus))


@njit(inline="always", **NJIT)
def _shifted_pair_sum(side1, a, side2, b, tables, degree, scratch):
    """Return ``sum_s delta_s (C_s^+ + C_s^-)`` for row ``a`` of X1, row ``b`` of X2.

    Arguments as in `wds_pair_sum`; only the lane masks of ``scratch`` are used.
    """
    planes1, lanes1 = side1
    planes2, lanes2 = side2
    _, lane_valid, weights = tables
    _, mask_plus, mask_minus = scratch
    n_blocks = lane_valid.shape[0]
    n_w = lane_valid.shape[1]
    row = n_blocks * 2 * n_w * LANES
    zero = v_splat(0)
    acc = 0.0
    for blk in range(n_blocks):
        # build the match masks M_1 and count them; store M_2 (first step fused)
        cum = zero
        alive = zero
        before = (zero, zero)
        for w in range(n_w):
            valid = v_load(lane_valid, (blk * n_w + w) * LANES)
            lo = (blk * 2 * n_w + w) * LANES
            hi = lo + n_w * LANES
            # direction +: x1[s:] against x2 ; direction -: x1 against x2[s:]
            plus = v_match(
                v_load(lanes1, a * row + lo),
                v_load(lanes1, a * row + hi),
                v_splat(planes2[b, 0, w]),
                v_splat(planes2[b, 1, w]),
                valid,
            )
            minus = v_match(
                v_splat(planes1[a, 0, w]),
                v_splat(planes1[a, 1, w]),
                v_load(lanes2, b * row + lo),
                v_load(lanes2, b * row + hi),
                valid,
            )
            cum, alive = _count_and_step(
                plus, minus, before, w * LANES, scratch, cum, alive
            )
            before = (plus, minus)
        total = cum
        k = 1
        while v_any(alive) and k < degree:
            k += 1
            before = (zero, zero)
            alive = zero
            for w in range(n_w):
                x_plus = v_load(mask_plus, w * LANES)
                x_minus = v_load(mask_minus, w * LANES)
                cum, alive = _count_and_step(
                    x_plus, x_minus, before, w * LANES, scratch, cum, alive
                )
                before = (x_plus, x_minus)
            total = v_add(total, cum)
        acc += v_weighted_sum(total, cum, degree - k, weights, blk * LANES)
    return acc


@njit(inline="always", **NJIT)
def wds_pair_sum(
    side1: tuple,
    a: int,
    side2: tuple,
    b: int,
    tables: tuple,
    degree: int,
    scratch: tuple,
) -> float:
    """Return ``C_0 + sum_s delta_s (C_s^+ + C_s^-)`` for one pair.

    Parameters
    ----------
    side1, side2 : tuple of numpy.ndarray
        ``(planes, lanes)`` of X1 and X2 (see the module docstring).
    a, b : int
        Rows of X1 and X2.
    tables : tuple of numpy.ndarray
        ``(valid, lane_valid, weights)``.
    degree : int
        Largest k-mer length ``d``.
    scratch : tuple of numpy.ndarray
        Work arrays of `wds_scratch`.

    Returns
    -------
    float
    """
    planes1 = side1[0]
    planes2 = side2[0]
    valid = tables[0]
    mask = scratch[0]
    acc = float(wd_pair_count(planes1, a, planes2, b, valid, degree, mask))
    if tables[1].shape[0] > 0:
        acc += _shifted_pair_sum(side1, a, side2, b, tables, degree, scratch)
    return acc


@njit(**NJIT_PARALLEL)
def wds_gram(
    side1: tuple,
    side2: tuple,
    tables: tuple,
    degree: int,
    symmetric: bool,
    factor: tuple,
    out: np.ndarray,
) -> None:
    """Fill ``out[a, b] = (C_0 + sum_s delta_s (C_s^+ + C_s^-)) * num / den``.

    The tiles of `poimkit.kernels._wd.wd_gram`, with the scratch arrays of
    `wds_scratch`.

    Parameters
    ----------
    side1, side2, tables
        As in `wds_pair_sum`.
    degree, symmetric, factor, out
        As in `poimkit.kernels._wd.wd_gram`.
    """
    num, den = factor
    n1 = side1[0].shape[0]
    n2 = side2[0].shape[0]
    n_w = side1[0].shape[2]
    for task in prange(n_tasks(n1, n2, symmetric)):
        a0, a1, b0, b1, diagonal = tile_span(task, n1, n2, symmetric)
        scratch = wds_scratch(n_w)
        for a in range(a0, a1):
            for b in range(a if diagonal else b0, b1):
                acc = wds_pair_sum(side1, a, side2, b, tables, degree, scratch)
                put(out, a, b, acc * num / den, symmetric)


@njit(**NJIT_PARALLEL)
def wds_rows(
    side1: tuple,
    side2: tuple,
    tables: tuple,
    degree: int,
    factor: tuple,
    out: np.ndarray,
) -> None:
    """Fill ``out[r]`` with the WD / WDS value of ``X1[r]`` against ``X2[r]``.

    That is ``(C_0 + sum_s delta_s (C_s^+ + C_s^-)) * num / den``: the
    diagonal of the kernel for ``side2 = side1``, and its strand-symmetric
    term ``k(rc(x), x)`` for X1 the reverse complements of X2.

    Parameters
    ----------
    side1, side2, tables, degree
        As in `wds_pair_sum`.
    factor : tuple of float
        ``(num, den)``, the output scale.
    out : numpy.ndarray of float64, shape (n,)
    """
    num, den = factor
    n_w = side1[0].shape[2]
    for r in prange(side1[0].shape[0]):
        scratch = wds_scratch(n_w)
        acc = wds_pair_sum(side1, r, side2, r, tables, degree, scratch)
        out[r] = acc * num / den
