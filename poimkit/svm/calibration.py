"""Platt scaling: a classifier's scores as probabilities, fitted on held-out scores.

A score s becomes ``p(s) = 1 / (1 + exp(-(a s + b)))`` (Platt 1999). ``a``
and ``b`` minimise the cross-entropy of p against Platt's smoothed targets
``(N+ + 1) / (N+ + 2)`` for positives and ``1 / (N- + 2)`` for negatives,
which keep a separable set from driving ``a`` to infinity. The scores must
be held out (out-of-fold): an SVM's training scores crowd at its margins.

A calibrated classifier's label is the class whose probability is at least
1/2, so its threshold is the score ``-b / a``, placed on held-out data. The
hinge loss of the SVM cannot place it: at a small C every training point
lies inside the margin, and the intercept minimising the training objective
predicts the larger class for all (the splice example: accuracy 0.684,
exactly the share of negatives, at AUC 0.998, with libsvm's intercept equal
to the exact minimiser of the objective to 1e-4).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InputError

#: fewest held-out scores of each class a calibration needs
MIN_PER_CLASS = 2


def platt_targets(positive: np.ndarray) -> np.ndarray:
    """Platt's smoothed targets for a boolean class vector.

    Parameters
    ----------
    positive : numpy.ndarray of bool

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> platt_targets(np.array([True, False, False])).round(3).tolist()
    [0.667, 0.25, 0.25]
    """
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    return np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))


def _loss(params: np.ndarray, s: np.ndarray, t: np.ndarray) -> tuple[float, np.ndarray]:
    """Cross-entropy of ``sigmoid(a s + b)`` against targets t, and its gradient."""
    z = params[0] * s + params[1]
    # log(1 + exp(-z)) and log(1 + exp(z)) without overflow
    loss = np.sum(t * np.logaddexp(0.0, -z) + (1.0 - t) * np.logaddexp(0.0, z))
    residual = 1.0 / (1.0 + np.exp(-z)) - t
    return float(loss), np.array([np.dot(residual, s), residual.sum()])


def platt(scores: ArrayLike, positive: ArrayLike) -> tuple[float, float]:
    """Fit Platt scaling ``(a, b)`` to held-out scores and their classes.

    Parameters
    ----------
    scores : array-like of float, shape (n,)
        Held-out (out-of-fold) decision values.
    positive : array-like of bool, shape (n,)
        True for the positive class.

    Returns
    -------
    a, b : float
        ``p(s) = 1 / (1 + exp(-(a s + b)))``.

    Raises
    ------
    InputError
        With fewer than `MIN_PER_CLASS` scores of a class, or non-finite scores.

    Examples
    --------
    >>> a, b = platt([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0], [0, 0, 1, 0, 1, 1])
    >>> a > 0, abs(b) < 1e-6
    (True, True)
    """
    from scipy.optimize import minimize

    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(positive, dtype=bool)
    if s.shape != y.shape or s.ndim != 1:
        raise InputError("scores and classes need one entry each")
    if not np.isfinite(s).all():
        raise InputError("scores to calibrate must be finite")
    if min(y.sum(), (~y).sum()) < MIN_PER_CLASS:
        raise InputError(
            f"a calibration needs at least {MIN_PER_CLASS} held-out scores per class"
        )
    scale = float(s.std()) or 1.0  # fit on standardised scores: well conditioned
    centre = float(s.mean())
    u = (s - centre) / scale
    fit = minimize(
        _loss, np.zeros(2), args=(u, platt_targets(y)), jac=True, method="BFGS",
        options={"gtol": 1e-10},
    )  # fmt: skip
    a_u, b_u = fit.x
    return float(a_u / scale), float(b_u - a_u * centre / scale)


def probability(scores: ArrayLike, calibration: tuple[float, float]) -> np.ndarray:
    """Platt probability of the positive class for every score.

    Parameters
    ----------
    scores : array-like of float
    calibration : (float, float)
        ``(a, b)`` of `platt`.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> probability([0.0, 1.0], (2.0, -2.0)).round(3).tolist()
    [0.119, 0.5]
    """
    a, b = calibration
    z = a * np.asarray(scores, dtype=np.float64) + b
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # the logistic, without overflow


def labelled_positive(
    scores: ArrayLike, calibration: tuple[float, float] | None
) -> np.ndarray:
    """Where a classifier labels the positive class, from its scores.

    Calibrated: the probability is at least 1/2; without a calibration (an
    LS-GKM file): the score is positive.

    Parameters
    ----------
    scores : array-like of float
    calibration : (float, float) or None
        ``(a, b)`` of `platt`.

    Returns
    -------
    numpy.ndarray of bool

    Examples
    --------
    >>> labelled_positive([-1.0, 0.0, 2.0], None).tolist()
    [False, False, True]
    >>> labelled_positive([-1.0, 0.0, 2.0], (1.0, 0.5)).tolist()
    [False, True, True]
    """
    if calibration is None:
        return np.asarray(scores, dtype=np.float64) > 0
    return probability(scores, calibration) >= 0.5


def threshold(calibration: tuple[float, float]) -> float:
    """The score at which the calibrated probability is 1/2: ``-b / a``.

    Parameters
    ----------
    calibration : (float, float)

    Returns
    -------
    float
        ``+inf`` or ``-inf`` when ``a`` is 0 (every score on one side).
    """
    a, b = calibration
    if a == 0:
        return float(np.inf if b < 0 else -np.inf)
    return float(-b / a)
