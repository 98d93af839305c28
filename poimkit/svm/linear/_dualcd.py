"""Numba kernels of the dual coordinate descent solver (L1-loss SVM, liblinear).

Per-row feature loops (one sequence at a time) on the column layout of
`poimkit.svm.linear._features` (``fmap`` is `FeatureLayout.fmap`); the solver
itself is sequential by nature.
"""

import numpy as np
from numba import njit

from ..._alphabet import push
from ..._config import NJIT
from ._features import feature


@njit(**NJIT)
def row_sweep(x, a, w, fmap):
    """``<phi(x), w>`` if ``a == 0``, else ``w += a * phi(x)`` (and 0 returned).

    One loop over the features of ``x`` for both (bias column excluded).
    """
    degree, shift, coef, band = fmap.degree, fmap.shift, fmap.coef, fmap.band
    length = x.shape[0]
    total = 0.0
    for k in range(1, degree + 1):
        kmask = (np.int64(1) << np.int64(2 * k)) - 1
        key = np.int64(0)
        for q in range(length):
            key = push(key, np.int64(x[q]), kmask)
            p = q - k + 1
            if p < 0:
                continue
            for j in range(min(shift, p) + 1):
                col, sign = feature(k, p - j, key, fmap)
                factor = sign * coef[k - 1] * band[k - 1, p, j]
                if a == 0.0:
                    total += factor * w[col]
                else:
                    w[col] += a * factor
    return total


@njit(**NJIT)
def row_dot(x, w, fmap):
    """``<phi(x), w>`` (bias column excluded)."""
    return row_sweep(x, 0.0, w, fmap)


@njit(**NJIT)
def row_axpy(x, a, w, fmap):
    """``w += a * phi(x)`` (bias column excluded)."""
    row_sweep(x, a, w, fmap)


@njit(**NJIT)
def row_sqnorm(x, scratch, fmap):
    """``||phi(x)||^2`` in the (hashed) feature space.

    ``scratch`` is all zeros on entry and on exit.
    """
    row_axpy(x, 1.0, scratch, fmap)
    value = row_dot(x, scratch, fmap)
    row_axpy(x, -1.0, scratch, fmap)
    return value


@njit(**NJIT)
def dual_cd(X, y, C, bias_scale, tol, max_epochs, seed, qd, alpha, w, fmap, pnorm, p0):
    """Dual coordinate descent for the L1-loss SVM (Hsieh et al. 2008, no shrinking).

    Minimises ``0.5 a^T Q a - sum a`` over ``0 <= a <= C`` with
    ``Q_ij = y_i y_j (<phi_i, phi_j> + B^2)``, keeping ``w = sum a_i y_i phi_i``
    (bias weight in ``w[-1]``, feature value ``B = bias_scale``; row i's
    private column ``p0 + i`` has value ``pnorm[i]``, zeros if there is none,
    see `poimkit.svm.linear.table`). Stops when the
    spread of the projected gradient over an epoch, ``max PG - min PG``, is at
    most ``tol`` (liblinear's rule). Returns the number of epochs run.
    """
    n = X.shape[0]
    bias = w.shape[0] - 1
    # numba supports the legacy global RNG, not numpy Generators
    np.random.seed(seed)  # noqa: NPY002
    order = np.arange(n)
    for epoch in range(max_epochs):
        np.random.shuffle(order)  # noqa: NPY002
        pg_max = -np.inf
        pg_min = np.inf
        for t in range(n):
            i = order[t]
            dot = row_dot(X[i], w, fmap) + pnorm[i] * w[p0 + i]
            g = y[i] * (dot + bias_scale * w[bias]) - 1.0
            pg = g
            if alpha[i] == 0.0:
                pg = min(g, 0.0)
            elif alpha[i] == C:
                pg = max(g, 0.0)
            pg_max = max(pg_max, pg)
            pg_min = min(pg_min, pg)
            if pg != 0.0:
                old = alpha[i]
                alpha[i] = min(max(old - g / qd[i], 0.0), C)
                step = (alpha[i] - old) * y[i]
                row_axpy(X[i], step, w, fmap)
                w[p0 + i] += step * pnorm[i]
                w[bias] += step * bias_scale
        if pg_max - pg_min <= tol:
            return epoch + 1
    return max_epochs
