"""What GC content alone reaches: the baseline beside a classification run's AUC.

Peak sets often differ from their negatives in GC content (Nanog's peaks by an
AUC of 0.65), so a model's AUC means little without it. The baseline scores
each record by its GC fraction, the direction (more or less GC for the
positives) chosen on each fold's training records, and is cross-validated in
the run's own folds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["gc_baseline", "gc_fractions"]


def gc_fractions(X: np.ndarray) -> np.ndarray:
    """The share of C and G (codes 1 and 2) of every record.

    Parameters
    ----------
    X : numpy.ndarray
        Codes (n, L), or a 1-D object array of code arrays of any lengths.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)

    Examples
    --------
    >>> gc_fractions(np.array([[0, 1, 2, 3], [1, 1, 2, 2]], dtype=np.uint8)).tolist()
    [0.5, 1.0]
    """
    if X.ndim == 2:
        return ((X == 1) | (X == 2)).mean(axis=1)
    return np.array([((x == 1) | (x == 2)).mean() if x.size else 0.0 for x in X])


def gc_baseline(
    X: np.ndarray,
    positive: np.ndarray,
    folds: Sequence[tuple[np.ndarray, np.ndarray]],
) -> dict:
    """The cross-validated ROC AUC of GC content alone, in the given folds.

    Parameters
    ----------
    X : numpy.ndarray
        The records' codes (`gc_fractions`).
    positive : numpy.ndarray of bool
        The positive class.
    folds : sequence of (train, test)
        The run's outer folds.

    Returns
    -------
    dict
        ``gc_cv_auc`` (the mean over folds, as ``cv_auc``) and
        ``gc_cv_auc_folds``; each fold scores its test records by GC fraction,
        signed so that its training records' AUC is at least 0.5.

    Examples
    --------
    >>> X = np.array([[1, 2], [2, 2], [0, 3], [0, 1]] * 3, dtype=np.uint8)
    >>> y = np.array([True, True, False, False] * 3)
    >>> folds = [(np.arange(4, 12), np.arange(4)), (np.arange(4), np.arange(4, 12))]
    >>> gc_baseline(X, y, folds)["gc_cv_auc"]
    1.0
    """
    from sklearn.metrics import roc_auc_score

    gc = gc_fractions(X)
    aucs = []
    for train, test in folds:
        sign = 1.0 if roc_auc_score(positive[train], gc[train]) >= 0.5 else -1.0
        aucs.append(float(roc_auc_score(positive[test], sign * gc[test])))
    return {
        "gc_cv_auc": float(np.mean(aucs)),
        "gc_cv_auc_folds": [round(a, 6) for a in aucs],
    }
