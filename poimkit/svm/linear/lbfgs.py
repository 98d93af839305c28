"""Limited-memory BFGS for the primal linear WD-SVM, with exact line search.

Objective, for weights ``w`` with the bias ``b`` as last column (feature value
1, not regularised, as in `sklearn.svm.SVC` and so in `poimkit.WDKernelSVC`)::

    F(w) = 0.5 ||w_{:-1}||^2 + C sum_i l(y_i <phi(x_i), w>)

(or, for regression, ``C sum_i max(0, |y_i - <phi(x_i), w>| - epsilon)**2``:
every loss is handled as a function of the score, `losses.score_terms`). It
is convex with a Lipschitz gradient for every loss, strongly convex (modulus
1) in the non-bias weights, so the k-mer weights ``w*`` are unique.

Sequence space. The gradient is ``grad F(w) = (w_{:-1} + Phi^T u, sum_i u_i)`` with
``u = C dl/df`` (``Phi``: the n training sequences' features, ``f`` their scores).
From ``w = 0`` every vector L-BFGS forms -- iterate, gradient, direction, correction
pairs -- is a linear combination of gradients, so its penalised part lies in the row
space of ``Phi``: ``v = (Phi^T c, beta)`` with ``c`` in R^n and the bias ``beta``. The
solver holds ``v`` as the array ``[[c, beta], [K c, beta]]`` of shape (2, n + 1), with
``K = Phi Phi^T``; then

* ``<a, b> = c_a . K c_b + beta_a beta_b`` (over the penalised part: without the
  ``beta`` term), and linear combinations act on the array;
* the scores of ``v`` on the training sequences are ``K c + beta``, no pass;
* the gradient at a new iterate needs ``K u`` only: ``c_g = c_w + u``,
  ``K c_g = K c_w + K u``, ``beta_g = sum_i u_i``. ``K u`` is a gradient pass over
  ``u`` (which skips the rows with ``u_i = 0``) and a margins pass of its result
  (`LocalBackend.gram`).

These are the same iterates as L-BFGS on ``w`` itself, but every vector has n
entries instead of one per feature column (10^7 and more at 10^5 sequences): the
history of ``memory`` pairs takes MB where it would take GB, and the solver's own
arithmetic is small next to the passes. Two passes per iteration remain, both
sums over sequence chunks, which is what makes the Dask backend give the same
numbers; one more gradient pass at the end gives ``w_{:-1} = Phi^T c_w``.
A backend without ``gradient`` (`poimkit.svm.gkm_solver.LmerGram`, whose
model is the coefficients ``c_w`` themselves) needs only ``gram``.

Memory. ``MEMORY`` = 60 correction pairs, not the usual 10. The Hessian is ``I + C
Phi^T D Phi`` (D: the records inside the margin), and the number of its directions
with a large eigenvalue grows with ``C n``: with 10 pairs the steps grew with them.
On the gkm records of a 10^6-peak run at C = 0.1 (`benchmarks/gkm_fit_iterations.py`),
6·10^4, 2·10^5 and 6·10^5 records took 29, 48 and 115 steps with 10 pairs and 19, 34
and 34 with 60; on one draw of 6·10^5 records, 114, 47 and 42 steps with 10, 30 and
60 pairs (235, 88 and 77 s: the longer two-loop recursion costs little beside a
pass). The history is ``2 memory`` vectors of ``2 (n + 1)`` numbers (1.9 GB for 60
pairs at 10^6 records): above ``HISTORY_BYTES`` (2 GiB) fewer pairs are kept, never
fewer than 10 (`history_pairs`; 38 at 1.75·10^6 records).

Stopping rule (liblinear's primal rule): stop at the first iterate with
``||grad F(w_t)||_2 <= tol * ||grad F(0)||_2``, or after ``max_iter``
iterations. Strong convexity in the k-mer weights bounds their distance to
the optimum by the gradient norm (up to the coupling with the bias).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from threadpoolctl import threadpool_limits

from .losses import score_terms

if TYPE_CHECKING:
    from .passes import DaskBackend, LocalBackend

#: most correction pairs kept by `minimize` (see the module docstring)
MEMORY = 60
#: most bytes of the correction pairs (`history_pairs`)
HISTORY_BYTES = 2 << 30


def history_pairs(n: int) -> int:
    """Correction pairs for ``n`` records: ``MEMORY``, fewer above ``HISTORY_BYTES``.

    Parameters
    ----------
    n : int
        Training records (a pair is two vectors of shape (2, n + 1) in float64).

    Returns
    -------
    int
        ``MEMORY``, or as many pairs as fit in ``HISTORY_BYTES``, but at least 10.
    """
    pair_bytes = 2 * 2 * (n + 1) * 8
    return min(MEMORY, max(10, HISTORY_BYTES // pair_bytes))


@dataclass
class LbfgsResult:
    """Outcome of `minimize`.

    ``w``: the weights in feature space, bias last (None for a backend
    without ``gradient``); ``coef``: the same model in sequence space, ``c``
    then the bias (``w_{:-1} = Phi^T c``); ``margins``: the scores ``f`` of the
    training sequences.
    """

    w: np.ndarray | None
    coef: np.ndarray
    margins: np.ndarray
    n_iter: int
    converged: bool
    grad_norm: float
    grad_norm0: float
    objective: float


def _line_search(wd, dd, f, fd, y, C, loss, epsilon=0.0) -> float:
    """Step ``t > 0`` minimising ``F(w + t d)`` (safeguarded 1-D Newton).

    ``wd`` and ``dd`` are ``<w, d>`` and ``<d, d>`` over the penalised weights
    (the bias is not penalised), ``f`` the training scores of ``w`` and ``fd``
    those of ``d``; ``y``, ``loss`` and ``epsilon`` as in `score_terms`.
    """

    def slope(t):
        _, d1, d2 = score_terms(loss, f + t * fd, y, epsilon)
        return wd + t * dd + C * float(d1 @ fd), dd + C * float(d2 @ (fd * fd))

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
    memory: int | None = None,
    callback: Callable[[int, float], None] | None = None,
    epsilon: float = 0.0,
) -> LbfgsResult:
    """Minimise F with L-BFGS; passes over the data go through ``backend``.

    Parameters
    ----------
    backend : LocalBackend, DaskBackend or LmerGram
        Provides ``gram(u)`` and, for the weights ``w``, ``gradient(c)`` (see
        `poimkit.svm.linear.passes`).
    y : numpy.ndarray of float64, shape (n,)
        Labels in {-1, +1} (real targets for the regression loss), in the
        backend's row order.
    C, loss, tol, max_iter, memory
        Regularisation, loss name (`poimkit.svm.linear.losses.score_terms`),
        stopping tolerance, iteration cap and the number of stored correction
        pairs (None: `history_pairs` of the records).
    callback : callable, optional
        Called as ``callback(n_iter, grad_norm)`` after every iteration.
    epsilon : float
        Half-width of the tube of the regression loss.

    Returns
    -------
    LbfgsResult
    """
    # one BLAS thread: dot products then add in the same order in every process,
    # so that a Dask client and a local fit follow bitwise the same iterates
    with threadpool_limits(1, user_api="blas"):
        return _minimize(backend, y, C, loss, tol, max_iter, memory, callback, epsilon)


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """``<a, b>`` of two vectors in sequence space: ``c_a . K c_b + beta_a beta_b``."""
    return float(a[0] @ b[1])


def _dot_penalised(a: np.ndarray, b: np.ndarray) -> float:
    """``<a, b>`` over the penalised (non-bias) weights: ``c_a . K c_b``."""
    return float(a[0, :-1] @ b[1, :-1])


def _scores(v: np.ndarray) -> np.ndarray:
    """``Phi v_{:-1} + v_{-1}`` on the training sequences: ``K c + beta``."""
    return v[1, :-1] + v[1, -1]


def _minimize(
    backend, y, C, loss, tol, max_iter, memory, callback, epsilon
) -> LbfgsResult:
    n = y.shape[0]
    if memory is None:
        memory = history_pairs(n)
    w = np.zeros((2, n + 1))  # in sequence space, see the module docstring

    def grad_at(w):
        f = _scores(w)
        value, d1, _ = score_terms(loss, f, y, epsilon)
        u = C * d1
        g = w.copy()  # the penalty's gradient is w_{:-1}; the bias is not penalised
        g[0, :-1] += u
        g[1, :-1] += backend.gram(u)
        g[:, -1] = math.fsum(u)
        return g, f, 0.5 * _dot_penalised(w, w) + C * value

    def norm(v):
        return math.sqrt(max(_dot(v, v), 0.0))  # >= 0 but for rounding

    g, f, obj = grad_at(w)
    g0 = norm(g)
    s_hist: list[np.ndarray] = []
    y_hist: list[np.ndarray] = []
    rho: list[float] = []
    n_iter, gnorm = 0, g0
    while gnorm > tol * g0 and n_iter < max_iter:
        # two-loop recursion: d = -H g
        q = g.copy()
        alphas = []
        for s, yv, r in zip(
            reversed(s_hist), reversed(y_hist), reversed(rho), strict=True
        ):
            a = r * _dot(s, q)
            alphas.append(a)
            q -= a * yv
        if s_hist:
            q *= _dot(s_hist[-1], y_hist[-1]) / _dot(y_hist[-1], y_hist[-1])
        else:
            q /= max(gnorm, 1.0)
        for s, yv, r, a in zip(s_hist, y_hist, rho, reversed(alphas), strict=True):
            q += (a - r * _dot(yv, q)) * s
        d = -q
        wd, dd = _dot_penalised(w, d), _dot_penalised(d, d)
        t = _line_search(wd, dd, f, _scores(d), y, C, loss, epsilon)
        if t == 0.0:
            break
        s_vec = t * d
        w = w + s_vec
        g_new, f, obj = grad_at(w)
        y_vec = g_new - g
        sy = _dot(s_vec, y_vec)
        if sy > 1e-12 * _dot(s_vec, s_vec):  # skip pairs without curvature
            s_hist.append(s_vec)
            y_hist.append(y_vec)
            rho.append(1.0 / sy)
            if len(s_hist) > memory:
                s_hist.pop(0)
                y_hist.pop(0)
                rho.pop(0)
        g = g_new
        gnorm = norm(g)
        n_iter += 1
        if callback is not None:
            callback(n_iter, gnorm)
    weights = None
    if hasattr(backend, "gradient"):  # the weights in feature space: Phi^T c_w
        weights = backend.gradient(w[0, :-1])
        weights[-1] = w[0, -1]
    return LbfgsResult(
        w=weights,
        coef=w[0].copy(),
        margins=f,
        n_iter=n_iter,
        converged=gnorm <= tol * g0,
        grad_norm=gnorm,
        grad_norm0=g0,
        objective=obj,
    )
