"""Limited-memory BFGS for the primal linear WD-SVM, with exact line search.

Objective, for weights ``w`` with the bias ``b`` as last column (feature value
1, not regularised, as in `sklearn.svm.SVC` and so in `poimkit.WDKernelSVC`)::

    F(w) = 0.5 ||w_{:-1}||^2 + C sum_i l(y_i <phi(x_i), w>)

It is convex with a Lipschitz gradient for both losses, strongly convex (modulus 1) in
the non-bias weights, so the k-mer weights ``w*`` are unique. Every iteration needs one
pass for the margins of the search direction (margins are linear in ``w``, so the line
search itself costs O(n) per trial and no pass) and one pass for the gradient; both are
sums over sequence chunks, which is what makes the Dask backend give the same numbers.

Stopping rule (liblinear's primal rule): stop at the first iterate with
``||grad F(w_t)||_2 <= tol * ||grad F(0)||_2``, or after ``max_iter``
iterations. Strong convexity in the k-mer weights bounds their distance to
the optimum by the gradient norm (up to the coupling with the bias).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba import njit
from threadpoolctl import threadpool_limits

from ..._config import NJIT
from .losses import loss_terms

if TYPE_CHECKING:
    from .backend import DaskBackend, LocalBackend


@dataclass
class LbfgsResult:
    """Outcome of `minimize`."""

    w: np.ndarray
    margins: np.ndarray
    n_iter: int
    converged: bool
    grad_norm: float
    grad_norm0: float
    objective: float


def _line_search(w, d, m, md, y, C, loss) -> float:
    """Step ``t > 0`` minimising ``F(w + t d)`` (safeguarded 1-D Newton)."""
    wd, dd = float(w[:-1] @ d[:-1]), float(d[:-1] @ d[:-1])  # bias not penalised
    yd = y * md

    def slope(t):
        _, d1, d2 = loss_terms(loss, m + t * yd)
        return wd + t * dd + C * float(d1 @ yd), dd + C * float(d2 @ (yd * yd))

    s0, _ = slope(0.0)
    if s0 >= 0.0:
        return 0.0  # not a descent direction (only from rounding at the optimum)
    lo, hi, t = 0.0, np.inf, 1.0
    for _ in range(60):
        s, curv = slope(t)
        if abs(s) <= 1e-10 * abs(s0):
            break
        if s < 0.0:
            lo = t
        else:
            hi = t
        step = t - s / curv if curv > 0.0 else np.inf
        if lo < step < hi:
            t = step
        else:
            t = 2.0 * t if np.isinf(hi) else 0.5 * (lo + hi)
    return t


def minimize(
    backend: LocalBackend | DaskBackend,
    y: np.ndarray,
    C: float,
    loss: str,
    tol: float,
    max_iter: int,
    memory: int = 10,
    callback: Callable[[int, float], None] | None = None,
) -> LbfgsResult:
    """Minimise F with L-BFGS; passes over the data go through ``backend``.

    Parameters
    ----------
    backend : LocalBackend or DaskBackend
        Provides ``margins(v)`` and ``gradient(c)`` (see `poimkit.svm.linear.backend`).
    y : numpy.ndarray of float64, shape (n,)
        Labels in {-1, +1}, in the backend's row order.
    C, loss, tol, max_iter, memory
        Regularisation, loss name, stopping tolerance, iteration cap and the
        number of stored correction pairs.
    callback : callable, optional
        Called as ``callback(n_iter, grad_norm)`` after every iteration.

    Returns
    -------
    LbfgsResult
    """
    # one BLAS thread: dot products then add in the same order in every process,
    # so that a Dask client and a local fit follow bitwise the same iterates
    with threadpool_limits(1, user_api="blas"):
        return _minimize(backend, y, C, loss, tol, max_iter, memory, callback)


@njit(**NJIT)
def axpy(a: float, x: np.ndarray, y: np.ndarray) -> None:
    """``y += a * x`` in place.

    Parameters
    ----------
    a : float
        The factor.
    x, y : numpy.ndarray of float64
        Same shape; ``y`` is updated.
    """
    for i in range(y.shape[0]):
        y[i] += a * x[i]


def _minimize(backend, y, C, loss, tol, max_iter, memory, callback) -> LbfgsResult:
    n_cols = backend.layout.n_columns + 1
    w = np.zeros(n_cols)
    f = np.zeros(y.shape[0])  # <phi(x_i), w>

    def grad_at(w, f):
        value, d1, _ = loss_terms(loss, y * f)
        g = backend.gradient(C * d1 * y)  # a fresh array, added to in place
        g[:-1] += w[:-1]  # the bias is not penalised
        return g, 0.5 * float(w[:-1] @ w[:-1]) + C * value

    g, obj = grad_at(w, f)
    g0 = float(np.linalg.norm(g))
    s_hist: list[np.ndarray] = []
    y_hist: list[np.ndarray] = []
    rho: list[float] = []
    spare: list[np.ndarray] = []  # a buffer of a dropped pair, reused for q
    n_iter, gnorm = 0, g0
    # vectors have a column per feature (10^7 and more): every update is in
    # place, as a fresh array of that size costs more in page faults than the
    # arithmetic
    while gnorm > tol * g0 and n_iter < max_iter:
        # two-loop recursion: d = -H g
        q = spare.pop() if spare else np.empty_like(g)
        np.copyto(q, g)
        alphas = []
        for s, yv, r in zip(
            reversed(s_hist), reversed(y_hist), reversed(rho), strict=True
        ):
            a = r * float(s @ q)
            alphas.append(a)
            axpy(-a, yv, q)
        if s_hist:
            q *= float(s_hist[-1] @ y_hist[-1]) / float(y_hist[-1] @ y_hist[-1])
        else:
            q /= max(gnorm, 1.0)
        for s, yv, r, a in zip(s_hist, y_hist, rho, reversed(alphas), strict=True):
            axpy(a - r * float(yv @ q), s, q)
        d = q
        d *= -1.0
        fd = backend.margins(d)
        t = _line_search(w, d, y * f, fd, y, C, loss)
        if t == 0.0:
            break
        s_vec = d
        s_vec *= t
        w += s_vec  # w_{t+1}; w_t is not needed any more
        f = f + t * fd
        g_new, obj = grad_at(w, f)
        y_vec = g
        y_vec -= g_new
        y_vec *= -1.0  # g_new - g
        sy = float(s_vec @ y_vec)
        if sy > 1e-12 * float(s_vec @ s_vec):  # skip pairs without curvature
            s_hist.append(s_vec)
            y_hist.append(y_vec)
            rho.append(1.0 / sy)
            if len(s_hist) > memory:
                spare = [s_hist.pop(0)]  # the next q; at most one kept
                y_hist.pop(0)
                rho.pop(0)
        else:
            spare = [s_vec]
        g = g_new
        gnorm = float(np.linalg.norm(g))
        n_iter += 1
        if callback is not None:
            callback(n_iter, gnorm)
    return LbfgsResult(
        w=w,
        margins=f,
        n_iter=n_iter,
        converged=gnorm <= tol * g0,
        grad_norm=gnorm,
        grad_norm0=g0,
        objective=obj,
    )
