"""MoRF curves: remove the most relevant features first and watch the model.

`morf_curve` evaluates a relevance ordering (from `poimkit.importance.mfi`
or any other measure) the way Vidovic et al. do: replace the most relevant
features first (MoRF, Samek et al.) and follow the model's performance,
against replacement in random order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_matrix, as_rng, check_choice, check_int, is_numeric
from ..errors import InputError
from .score_functions import score_function

__all__ = ["MorfCurve", "morf_curve"]

_BASELINES = ("uniform", "marginal", "mean")


@dataclass(frozen=True)
class MorfCurve:
    """Performance while removing features, most relevant first vs random.

    Parameters
    ----------
    n_removed : numpy.ndarray of int, shape (n_points,)
        Number of features replaced at each point, starting with 0.
    curve : numpy.ndarray, shape (n_points,)
        Performance (mean score, or accuracy if labels were given) when the
        ``n_removed`` most relevant features are replaced.
    random_curves : numpy.ndarray, shape (n_random, n_points)
        The same for random removal orders, one row per repetition.
    n_features : int
        Number of features of the data.
    """

    n_removed: np.ndarray
    curve: np.ndarray
    random_curves: np.ndarray
    n_features: int

    @property
    def random_curve(self) -> np.ndarray:
        """Mean performance over the random orders, shape (n_points,)."""
        return self.random_curves.mean(axis=0)

    @property
    def aopc(self) -> float:
        """Area over the MoRF curve: ``mean_k (curve[0] - curve[k])``."""
        return _aopc(self.curve)

    @property
    def random_aopc(self) -> float:
        """Area over the random-order curve (mean over repetitions)."""
        return _aopc(self.random_curve)

    @property
    def auc(self) -> float:
        """Area under the MoRF curve against the fraction of features removed."""
        return _trapezoid(self.curve, self.n_removed / self.n_features)

    @property
    def random_auc(self) -> float:
        """Area under the random-order curve, same axis as `auc`."""
        return _trapezoid(self.random_curve, self.n_removed / self.n_features)


def _aopc(curve: np.ndarray) -> float:
    return float(np.mean(curve[0] - curve))


def _trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    return float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))


def _replacements(
    X: np.ndarray, baseline: str | float | ArrayLike, rng: np.random.Generator
) -> np.ndarray:
    """Values that replace removed features, shape (n, d)."""
    n, d = X.shape
    if isinstance(baseline, str):
        baseline = check_choice(baseline, "baseline", _BASELINES)
        if baseline == "uniform":
            low, high = X.min(axis=0), X.max(axis=0)
            return low + (high - low) * rng.random((n, d))
        if baseline == "marginal":
            return X[rng.integers(0, n, size=(n, d)), np.arange(d)[None, :]]
        return np.broadcast_to(X.mean(axis=0), (n, d))
    if not is_numeric(baseline):
        raise InputError(
            f"baseline must be one of {_BASELINES}, a number or an array of shape "
            f"({d},), got {baseline!r}"
        )
    values = np.asarray(baseline, dtype=np.float64)
    if values.shape not in ((), (d,)) or not np.all(np.isfinite(values)):
        raise InputError(
            f"baseline has shape {values.shape} but must be a finite number or "
            f"have shape ({d},) to match X"
        )
    return np.broadcast_to(values, (n, d))


def _ranks(order: np.ndarray) -> np.ndarray:
    """``rank[i, f]`` = position of feature f in row i of ``order``."""
    ranks = np.empty_like(order)
    rows = np.arange(order.shape[0])[:, None]
    ranks[rows, order] = np.arange(order.shape[1])[None, :]
    return ranks


def morf_curve(
    model: Any,
    X: ArrayLike,
    relevance: ArrayLike,
    n_steps: int = 20,
    baseline: str | float | ArrayLike = "uniform",
    random_state: np.random.Generator | int | None = None,
    *,
    y: ArrayLike | None = None,
    n_random: int = 10,
    max_features: int | None = None,
) -> MorfCurve:
    r"""MoRF evaluation: replace the most relevant features first, vs random.

    Parameters
    ----------
    model : object or callable
        As in `mfi`. With ``y`` it must have ``predict``.
    X : array-like, shape (n, d)
        Inputs to perturb (e.g. a test set).
    relevance : array-like, shape (d,) or (n, d)
        Relevance of each feature: one ordering for all inputs (model-based)
        or one per input (instance-based; for a classifier, multiply by the
        sign of the input's score so that large values support its class).
        Ties are broken at random.
    n_steps : int, default 20
        Number of removal steps; the points are ``round(linspace(0,
        max_features, n_steps + 1))`` features removed (duplicates dropped).
    baseline : {"uniform", "marginal", "mean"}, float or array, default "uniform"
        What a removed feature becomes: a uniform random value in the
        feature's range over X (as the authors' pixel flipping), a random
        value of the feature from another row of X, the feature's mean, or
        given values. Random values are drawn once and shared by the MoRF
        and the random orders.
    random_state : int, numpy.random.Generator or None
        Seed for the replacement values, tie breaking and random orders.
    y : array-like, shape (n,), optional
        Labels. If given the curve is the accuracy of ``model.predict``,
        otherwise the mean score (see `mfi`).
    n_random : int, default 10
        Random removal orders (per input) for the reference curve, >= 1.
    max_features : int, optional
        Remove at most this many features (default all d).

    Returns
    -------
    MorfCurve
        The curves with their areas: ``aopc``/``random_aopc`` (area over the
        perturbation curve, larger means faster degradation) and
        ``auc``/``random_auc`` (area under it).

    Raises
    ------
    InputError
        For invalid arguments.

    See Also
    --------
    mfi : the relevance to evaluate.

    Notes
    -----
    With ``x^(0) = x`` and ``x^(k)`` the input with its k most relevant
    features replaced, the performance curve is ``c_k = mean_x p(x^(k))``
    (score, or correctness of the prediction), and following Samek et al.
    the area over the perturbation curve over the ``K + 1`` points is

    .. math:: \mathrm{AOPC} = \frac{1}{K+1} \sum_{k=0}^{K} (c_0 - c_k).

    A relevance ordering is informative if its AOPC exceeds that of random
    orders: removing relevant features first degrades the model faster.
    Vidovic et al. (figure 3 (c, d)) compare accuracies this way.

    References
    ----------
    W. Samek, A. Binder, G. Montavon, S. Bach and K.-R. Müller. Evaluating the
    visualization of what a deep neural network has learned. IEEE TNNLS
    28(11), 2660-2673, 2017. arXiv:1509.06321.

    M. M.-C. Vidovic, N. Görnitz, K.-R. Müller and M. Kloft. Feature importance
    measure for non-linear learning algorithms. NIPS 2016 Workshop on
    Interpretable Machine Learning in Complex Systems. arXiv:1611.07567.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 4))
    >>> w = np.array([3.0, 2.0, 1.0, 0.0])
    >>> res = morf_curve(lambda X: X @ w, X[X @ w > 0], relevance=w, n_steps=4,
    ...                  baseline=0.0, random_state=0)
    >>> res.n_removed.tolist()
    [0, 1, 2, 3, 4]
    >>> bool(res.aopc > res.random_aopc)
    True
    """
    X = as_matrix(X, "X")
    n, d = X.shape
    n_steps = check_int(n_steps, "n_steps", 1)
    n_random = check_int(n_random, "n_random", 1)
    max_features = (
        d if max_features is None else check_int(max_features, "max_features", 1, d)
    )
    rng = as_rng(random_state)
    if not is_numeric(relevance):
        raise InputError(
            f"relevance must be numeric with shape ({d},) or ({n}, {d}), got "
            f"{type(relevance).__name__}"
        )
    rel = np.asarray(relevance, dtype=np.float64)
    if rel.shape not in ((d,), (n, d)):
        raise InputError(
            f"relevance has shape {rel.shape} but must have shape ({d},) or "
            f"({n}, {d}) to match X"
        )
    if np.any(np.isnan(rel)):
        raise InputError("relevance contains NaN")
    if y is None:
        score = score_function(model, unit="input")

        def perf(A: np.ndarray) -> float:
            return float(score(A).mean())

    else:
        labels = np.asarray(y)
        if labels.shape != (n,):
            raise InputError(
                f"y has shape {labels.shape} but must have shape ({n},) to match X"
            )
        if not hasattr(model, "predict"):
            raise InputError(
                "model must have predict when y is given (accuracy curve), got "
                f"{type(model).__name__}; omit y to follow the mean score"
            )

        def perf(A: np.ndarray) -> float:
            pred = np.asarray(model.predict(A))
            if pred.shape != (n,):
                raise InputError(
                    f"predict returned shape {pred.shape} for {n} inputs but must "
                    f"return shape ({n},)"
                )
            return float(np.mean(pred == labels))

    replacement = _replacements(X, baseline, rng)
    rel = np.broadcast_to(rel, (n, d))
    # random tie breaking: shuffle the columns, then a stable descending sort
    shuffle = np.argsort(rng.random((n, d)), axis=1)
    shuffled = np.take_along_axis(rel, shuffle, axis=1)
    order = np.take_along_axis(
        shuffle, np.argsort(-shuffled, axis=1, kind="stable"), axis=1
    )
    n_removed = np.unique(
        np.round(np.linspace(0, max_features, n_steps + 1)).astype(np.int64)
    )

    def curve_for(ranks: np.ndarray) -> np.ndarray:
        return np.array([perf(np.where(ranks < m, replacement, X)) for m in n_removed])

    curve = curve_for(_ranks(order))
    random_curves = np.array(
        [
            curve_for(_ranks(np.argsort(rng.random((n, d)), axis=1)))
            for _ in range(n_random)
        ]
    )
    return MorfCurve(n_removed, curve, random_curves, d)
