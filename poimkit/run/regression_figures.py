"""A regressor's cross-validated figures: Pearson, Spearman and R² per fold."""

from __future__ import annotations

from typing import Any

import numpy as np

#: the range of each CV figure, where its interval is clipped
BOUNDS = {"pearson": (-1.0, 1.0), "spearman": (-1.0, 1.0), "r2": (-np.inf, 1.0)}


def regression_scores(y_true: np.ndarray, y_pred: np.ndarray) -> dict[str, float]:
    """Pearson and Spearman correlation and R² of predictions.

    Parameters
    ----------
    y_true, y_pred : numpy.ndarray of shape (n,)

    Returns
    -------
    dict
        ``pearson``, ``spearman`` and ``r2``. Constant predictions (a motif
        model without motifs predicts the training mean) carry no
        information: their correlations are 0. A correlation is NaN only
        when the targets are constant.

    Examples
    --------
    >>> import numpy as np
    >>> s = regression_scores(np.array([1.0, 2, 3, 4]), np.array([1.0, 2, 3, 5]))
    >>> round(s["pearson"], 3), s["spearman"], round(s["r2"], 3)
    (0.983, 1.0, 0.8)
    >>> regression_scores(np.array([1.0, 2, 3]), np.full(3, 2.0))["pearson"]
    0.0
    """
    from scipy.stats import rankdata
    from sklearn.metrics import r2_score

    from ..svm.metrics import pearson

    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    constant = y_pred.size and np.all(y_pred == y_pred[0]) and np.ptp(y_true) > 0
    return {
        "pearson": 0.0 if constant else pearson(y_true, y_pred),
        "spearman": 0.0 if constant else pearson(rankdata(y_true), rankdata(y_pred)),
        "r2": float(r2_score(y_true, y_pred)),
    }


def regression_figures(y: np.ndarray, split: list, predictions: np.ndarray) -> dict:
    """A regressor's CV figures from its held-out predictions.

    Parameters
    ----------
    y : numpy.ndarray of float
        The targets.
    split : list of (train, test)
        The outer folds.
    predictions : numpy.ndarray of float
        Every record's prediction by the fold that held it out.

    Returns
    -------
    dict
        ``cv_pearson``, ``cv_spearman``, ``cv_r2`` (means over folds), each
        with ``_std``, ``_interval`` and ``_folds``; ``cv_predictions``.
    """
    from .crossval import fold_interval

    per_fold: dict[str, list[float]] = {"pearson": [], "spearman": [], "r2": []}
    for _, test in split:
        for name, value in regression_scores(y[test], predictions[test]).items():
            per_fold[name].append(value)
    result: dict[str, Any] = {}
    for name, values in per_fold.items():
        result[f"cv_{name}"] = float(np.mean(values))
        result[f"cv_{name}_std"] = float(np.std(values))
        result[f"cv_{name}_interval"] = fold_interval(values, BOUNDS[name])
        result[f"cv_{name}_folds"] = [round(float(v), 6) for v in values]
    result["cv_predictions"] = predictions
    return result
