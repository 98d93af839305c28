"""numba kernels of the WD kernel with shifts (WDS).

The shifted terms of a pair are WD counts of ``x[s:]`` against ``x'[:L-s]``
(direction +) and of ``x[:L-s]`` against ``x'[s:]`` (direction -), for
``s = 1..S``, weighted by ``delta_s = 1 / (2 (s + 1))``:

    k(x, x') = 2 / (d (d + 1)) * (C_0 + sum_s delta_s (C_s^+ + C_s^-)),

with ``C`` the integer count of `poimkit.kernels.wd`. Eight shifts are
handled at once, one per vector lane, with the counting loop of the WD kernel
run on both directions together; ``C_s^+ + C_s^-`` stays an exact integer per
lane until it is weighted. The lanes of a block share their loop, which runs
until the longest matching run of all 16 comparisons has ended.
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
from .wd import TILE, n_tasks, tile_of, wd_pair_count


@njit(inline="always", **NJIT)
def shifted_pair_sum(
    planes1,
    lanes1,
    a,
    planes2,
    lanes2,
    b,
    lane_valid,
    weights,
    degree,
    mask_plus,
    mask_minus,
):
    """Return ``sum_s delta_s (C_s^+ + C_s^-)`` for row ``a`` of X1, row ``b`` of X2.

    Parameters
    ----------
    planes1, planes2 : numpy.ndarray of uint64, shape (n, 2, W)
        Bitplanes of X1 and X2.
    lanes1, lanes2 : numpy.ndarray of uint64, shape (n, n_blocks, 2, W, 8)
        Shifted bitplanes (see `poimkit.kernels._packing.pack_shifted_lanes`).
    a, b : int
        Rows of X1 and X2.
    lane_valid : numpy.ndarray of uint64, shape (n_blocks, W, 8)
        Valid-position masks of length ``L - s`` per lane.
    weights : numpy.ndarray of float64, shape (n_blocks * 8,)
        ``delta_s`` per lane, 0 for padding lanes.
    degree : int
    mask_plus, mask_minus : numpy.ndarray of uint64, shape (W * 8,)
        Scratch.

    Returns
    -------
    float
    """
    n_blocks = lane_valid.shape[0]
    n_w = lane_valid.shape[1]
    row = n_blocks * 2 * n_w * LANES
    zero = v_splat(0)
    acc = 0.0
    for blk in range(n_blocks):
        # build the match masks M_1 and count them; store M_2 (first step fused)
        cum = zero
        alive = zero
        prev_plus = zero
        prev_minus = zero
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
            cum = v_add(cum, v_add(v_popcount(plus), v_popcount(minus)))
            next_plus = v_step(plus, prev_plus)
            next_minus = v_step(minus, prev_minus)
            prev_plus = plus
            prev_minus = minus
            v_store(mask_plus, w * LANES, next_plus)
            v_store(mask_minus, w * LANES, next_minus)
            alive = v_or(alive, v_or(next_plus, next_minus))
        total = cum
        k = 1
        while v_any(alive) and k < degree:
            k += 1
            carry_plus = zero
            carry_minus = zero
            alive = zero
            for w in range(n_w):
                x_plus = v_load(mask_plus, w * LANES)
                x_minus = v_load(mask_minus, w * LANES)
                cum = v_add(cum, v_add(v_popcount(x_plus), v_popcount(x_minus)))
                next_plus = v_step(x_plus, carry_plus)
                next_minus = v_step(x_minus, carry_minus)
                carry_plus = x_plus
                carry_minus = x_minus
                v_store(mask_plus, w * LANES, next_plus)
                v_store(mask_minus, w * LANES, next_minus)
                alive = v_or(alive, v_or(next_plus, next_minus))
            total = v_add(total, cum)
        acc += v_weighted_sum(total, cum, degree - k, weights, blk * LANES)
    return acc


@njit(inline="always", **NJIT)
def wds_pair_sum(
    planes1,
    lanes1,
    a,
    planes2,
    lanes2,
    b,
    valid,
    lane_valid,
    weights,
    degree,
    mask,
    mask_plus,
    mask_minus,
):
    """Return ``C_0 + sum_s delta_s (C_s^+ + C_s^-)`` for one pair."""
    acc = float(wd_pair_count(planes1, a, planes2, b, valid, degree, mask))
    if lane_valid.shape[0] > 0:
        acc += shifted_pair_sum(
            planes1,
            lanes1,
            a,
            planes2,
            lanes2,
            b,
            lane_valid,
            weights,
            degree,
            mask_plus,
            mask_minus,
        )
    return acc


@njit(**NJIT_PARALLEL)
def wds_gram(
    planes1,
    lanes1,
    planes2,
    lanes2,
    valid,
    lane_valid,
    weights,
    degree,
    symmetric,
    num,
    den,
    out,
):
    """Fill ``out[a, b] = (C_0 + sum_s delta_s (C_s^+ + C_s^-)) * num / den``.

    Arguments as in `shifted_pair_sum` and `poimkit.kernels.wd.wd_gram`.
    """
    n1 = planes1.shape[0]
    n2 = planes2.shape[0]
    n_w = planes1.shape[2]
    for task in prange(n_tasks(n1, n2, symmetric)):
        ti, tj = tile_of(task, n1, n2, symmetric)
        mask = np.empty(n_w, dtype=np.uint64)
        mask_plus = np.empty(n_w * LANES, dtype=np.uint64)
        mask_minus = np.empty(n_w * LANES, dtype=np.uint64)
        for a in range(ti * TILE, min(n1, (ti + 1) * TILE)):
            b_start = a if symmetric and ti == tj else tj * TILE
            for b in range(b_start, min(n2, (tj + 1) * TILE)):
                acc = wds_pair_sum(
                    planes1,
                    lanes1,
                    a,
                    planes2,
                    lanes2,
                    b,
                    valid,
                    lane_valid,
                    weights,
                    degree,
                    mask,
                    mask_plus,
                    mask_minus,
                )
                value = acc * num / den
                out[a, b] = value
                if symmetric:
                    out[b, a] = value


@njit(**NJIT_PARALLEL)
def wds_diagonal(planes, lanes, valid, lane_valid, weights, degree, num, den, out):
    """Fill ``out[r]`` with the WDS value of row ``r`` against itself."""
    n_w = planes.shape[2]
    for r in prange(planes.shape[0]):
        mask = np.empty(n_w, dtype=np.uint64)
        mask_plus = np.empty(n_w * LANES, dtype=np.uint64)
        mask_minus = np.empty(n_w * LANES, dtype=np.uint64)
        acc = wds_pair_sum(
            planes,
            lanes,
            r,
            planes,
            lanes,
            r,
            valid,
            lane_valid,
            weights,
            degree,
            mask,
            mask_plus,
            mask_minus,
        )
        out[r] = acc * num / den
