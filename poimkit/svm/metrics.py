"""The inner cross-validation's figures of merit and when two of them tie.

A classifier is scored by the ROC AUC of its held-out decision values, a
regressor by the Pearson correlation of its held-out predictions
(`metric_of`, `held_out_figure`); a candidate ties the best if it is within
one standard error of it (`auc_standard_error`, `pearson_standard_error`) or
within `ERROR_TOLERANCE` of its error (`tie_tolerance`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = [
    "ERROR_TOLERANCE",
    "auc_interval",
    "auc_standard_error",
    "held_out_figure",
    "fold_interval",
    "metric_of",
    "pearson",
    "pearson_standard_error",
    "tie_tolerance",
]

#: candidates whose inner AUC is within one standard error of the best one's
#: (Hanley & McNeil), or within this share of its error 1 - AUC if that is
#: more, tie with it; the first in grid order wins: the smaller degree, shift
#: and C, a cheaper model with cheaper POIMs (the one-standard-error rule)
ERROR_TOLERANCE = 0.1


def metric_of(estimator: object) -> str:
    """The inner CV's figure for ``estimator``: ``"pearson"`` or ``"auc"``.

    Parameters
    ----------
    estimator : scikit-learn estimator

    Returns
    -------
    str
        ``"pearson"`` for a regressor, ``"auc"`` otherwise.
    """
    from sklearn.base import is_regressor

    return "pearson" if is_regressor(estimator) else "auc"


def pearson(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson correlation of two samples; NaN when either is constant.

    Parameters
    ----------
    a, b : numpy.ndarray of float, shape (n,)
        The samples.

    Returns
    -------
    float

    Examples
    --------
    >>> pearson(np.array([1.0, 2, 3]), np.array([2.0, 4, 7]))  # doctest: +ELLIPSIS
    0.993...
    """
    a, b = a - a.mean(), b - b.mean()
    norm = np.sqrt((a @ a) * (b @ b))
    return float(a @ b / norm) if norm > 0 else float("nan")


def held_out_figure(metric: str, y: np.ndarray, scores: np.ndarray) -> float:
    """The inner figure of held-out scores: ROC AUC or Pearson correlation.

    Parameters
    ----------
    metric : {"auc", "pearson"}
        As `metric_of` gives it.
    y : numpy.ndarray of shape (n,)
        Labels or targets.
    scores : numpy.ndarray of shape (n,)
        Decision values or predictions.

    Returns
    -------
    float
        NaN for a correlation with constant predictions.
    """
    if metric == "auc":
        from sklearn.metrics import roc_auc_score

        return float(roc_auc_score(y, scores))
    return pearson(y, scores)


def auc_standard_error(auc: float, n_pos: int, n_neg: int) -> float:
    """Standard error of an ROC AUC (Hanley & McNeil 1982, equation 2).

    Parameters
    ----------
    auc : float
        The area under the ROC curve.
    n_pos, n_neg : int
        Positive and negative sequences it was measured on.

    Returns
    -------
    float

    Examples
    --------
    >>> round(auc_standard_error(0.9, 100, 100), 4)
    0.0226
    """
    q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
    variance = (
        auc * (1 - auc) + (n_pos - 1) * (q1 - auc**2) + (n_neg - 1) * (q2 - auc**2)
    ) / (n_pos * n_neg)
    return float(np.sqrt(max(variance, 0.0)))


def pearson_standard_error(r: float, n: int) -> float:
    """Standard error of a Pearson correlation, by Fisher's z transform.

    The distance from ``r`` down to the back-transform of ``atanh(r)`` less
    one standard error of z, ``1 / sqrt(n - 3)``.

    Parameters
    ----------
    r : float
        The correlation.
    n : int
        Pairs it was measured on (at least 4).

    Returns
    -------
    float

    Examples
    --------
    >>> round(pearson_standard_error(0.8, 300), 4)
    0.0219
    """
    r = float(np.clip(r, -1 + 1e-12, 1 - 1e-12))
    return float(r - np.tanh(np.arctanh(r) - 1.0 / np.sqrt(max(n - 3, 1))))


def tie_tolerance(
    best: float, n_held_out: tuple[int, int], metric: str = "auc"
) -> float:
    """How far below the best inner figure a candidate still ties it (`_choose`).

    Parameters
    ----------
    best : float
        The best inner AUC (or Pearson correlation).
    n_held_out : tuple of int
        Positive and negative sequences held out by the inner CV (for a
        Pearson correlation: all of them, and 0).
    metric : {"auc", "pearson"}
        The figure: one standard error is `auc_standard_error` or
        `pearson_standard_error`.
    """
    if metric == "pearson":
        return max(
            ERROR_TOLERANCE * (1.0 - best), pearson_standard_error(best, n_held_out[0])
        )
    return max(ERROR_TOLERANCE * (1.0 - best), auc_standard_error(best, *n_held_out))


def auc_interval(aucs: Sequence[float], level: float = 0.95) -> list[float]:
    """Student-t interval of the mean fold AUC, ``[low, high]``, within [0, 1].

    An AUC lies in [0, 1], so the interval is clipped there (with few folds
    of different AUCs the t interval would reach past either end).

    Parameters
    ----------
    aucs : sequence of float
        The folds' AUCs (at least two).
    level : float
        Coverage of the interval.

    Examples
    --------
    >>> auc_interval([0.9, 0.92, 0.94])
    [0.870317, 0.969683]
    >>> auc_interval([0.6, 1.0])
    [0.0, 1.0]
    """
    return fold_interval(aucs, (0.0, 1.0), level)


def fold_interval(
    values: Sequence[float],
    bounds: tuple[float, float] = (-np.inf, np.inf),
    level: float = 0.95,
) -> list[float]:
    """Student-t interval of the mean of a figure over folds, clipped to its range.

    Parameters
    ----------
    values : sequence of float
        The figure in every fold (at least two).
    bounds : tuple of float
        The figure's range (``(0, 1)`` for an AUC, ``(-1, 1)`` for a
        correlation, ``(-inf, 1)`` for R²).
    level : float
        Coverage of the interval.

    Returns
    -------
    list of float
        ``[low, high]``, rounded to 6 digits.

    Examples
    --------
    >>> fold_interval([0.5, 0.6, 0.7], (-1.0, 1.0))
    [0.351586, 0.848414]
    """
    from scipy.stats import t

    values = np.asarray(values, dtype=np.float64)
    half = (
        t.ppf(0.5 + level / 2, values.size - 1)
        * values.std(ddof=1)
        / np.sqrt(values.size)
    )
    mean = values.mean()
    low, high = np.clip([mean - half, mean + half], *bounds)
    return [round(float(low), 6), round(float(high), 6)]
