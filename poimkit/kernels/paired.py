"""numba kernel: WD / WDS values of paired rows, ``k(X1[r], X2[r])``.

Used for the diagonal of the strand-symmetric kernel, ``k(x, x) + k(rc(x), x)``,
whose second term pairs each sequence with its own reverse complement.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._config import NJIT_PARALLEL
from ._packing import LANES
from .wds import wds_pair_sum


@njit(**NJIT_PARALLEL)
def wds_rows(
    planes1, lanes1, planes2, lanes2, valid, lane_valid, weights, degree, num, den, out
):
    """Fill ``out[r]`` with the WD / WDS value of ``X1[r]`` against ``X2[r]``.

    That is ``(C_0 + sum_s delta_s (C_s^+ + C_s^-)) * num / den``.

    Arguments as in `poimkit.kernels.wds.wds_gram`; with no lane blocks
    (``shift=0``) this is the plain WD count.
    """
    n_w = planes1.shape[2]
    for r in prange(planes1.shape[0]):
        mask = np.empty(n_w, dtype=np.uint64)
        mask_plus = np.empty(n_w * LANES, dtype=np.uint64)
        mask_minus = np.empty(n_w * LANES, dtype=np.uint64)
        acc = wds_pair_sum(
            planes1,
            lanes1,
            r,
            planes2,
            lanes2,
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
