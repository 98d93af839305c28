"""Numba kernel: log upper tails of hypergeometric distributions, many at once.

Called by `poimkit.motifs.contrast.contrast_threshold`, which passes counts
that are possible (scipy's ``hypergeom.logsf`` gives the same figures, some
hundred times slower for the few hundred thresholds of a refinement round).
"""

import math

import numpy as np
from numba import njit

from .._config import NJIT


@njit(**NJIT)
def _log_pmf(x, total, marked, n):
    """The log of P(X = x), hypergeometric (total, marked, n)."""
    return (
        math.lgamma(marked + 1.0)
        - math.lgamma(x + 1.0)
        - math.lgamma(marked - x + 1.0)
        + math.lgamma(total - marked + 1.0)
        - math.lgamma(n - x + 1.0)
        - math.lgamma(total - marked - n + x + 1.0)
        - math.lgamma(total + 1.0)
        + math.lgamma(n + 1.0)
        + math.lgamma(total - n + 1.0)
    )


@njit(**NJIT)
def _summed_tail(x, total, marked, n, step):
    """Sum of P(X = j) / P(X = x) from j = x on, upwards (step 1) or down (-1).

    Started on the far side of the mode, the terms only shrink: the sum stops
    once a term no longer changes it.
    """
    low, high = max(0, n - (total - marked)), min(marked, n)
    term, tail, j = 1.0, 1.0, x
    while low <= j + step <= high:
        if step > 0:
            term *= (
                (marked - j) * (n - j) / ((j + 1.0) * (total - marked - n + j + 1.0))
            )
        else:
            term *= j * (total - marked - n + j) / ((marked - j + 1.0) * (n - j + 1.0))
        tail += term
        j += step
        if term < 1e-17 * tail:
            break
    return tail


@njit(**NJIT)
def log_upper_tail(k, total, marked, drawn):
    """Log of P(X >= k[i]) for X hypergeometric (total, marked, drawn[i]).

    Each ``k[i]`` must be possible: at most ``min(marked, drawn[i])`` and at
    least ``drawn[i] - (total - marked)``. Above the mode the upper tail is
    summed from P(X = k); at or below it, 1 minus the lower tail from
    P(X = k - 1), so no sum grows past 1 by much.
    """
    out = np.empty(k.shape[0])
    for i in range(k.shape[0]):
        x, n = k[i], drawn[i]
        low = max(0, n - (total - marked))
        mode = math.floor((n + 1.0) * (marked + 1.0) / (total + 2.0))
        if x > mode:
            tail = _summed_tail(x, total, marked, n, 1)
            out[i] = _log_pmf(x, total, marked, n) + math.log(tail)
        elif x - 1 < low:
            out[i] = 0.0
        else:
            below = _summed_tail(x - 1, total, marked, n, -1)
            lower = math.exp(_log_pmf(x - 1, total, marked, n)) * below
            out[i] = math.log1p(-min(lower, 1.0))
    return out
