"""A classifier's figures: ROC curves and the reliability (calibration) plot."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InputError

if TYPE_CHECKING:
    from matplotlib.axes import Axes


from .axes import new_axes

#: sequences per bin of a reliability diagram at least, by default (a share
#: of 30 sequences has a standard error of at most about 0.09)
MIN_PER_BIN = 30


# --------------------------------------------------------------------------- #
# ROC curve
# --------------------------------------------------------------------------- #
def plot_roc(
    y_true: ArrayLike,
    scores: ArrayLike,
    ax: Axes | None = None,
    label: str | None = None,
    color: str = "#255c99",
    auc: float | None = None,
) -> Axes:
    """ROC curve of scores against binary labels, with the AUC in the legend.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels; the larger of two values is the positive class.
    scores : array-like of shape (n,)
        Higher means more positive (e.g. out-of-fold decision values).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    label : str, optional
        Legend label of the curve; the AUC is appended.
    color : str
        The curve's colour (draw several curves on one ``ax``).
    auc : float, optional
        The AUC the legend gives, e.g. the mean of cross-validation folds'
        own AUCs for a curve of their pooled scores; default the curve's area.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> ax.get_legend().get_texts()[0].get_text()
    'AUC 0.750'
    >>> plt.close(ax.figure)
    """
    from sklearn.metrics import roc_auc_score, roc_curve

    positive = _positive_class(y_true, "ROC")
    fpr, tpr, _ = roc_curve(positive, scores)
    auc = roc_auc_score(positive, scores) if auc is None else auc
    ax = ax if ax is not None else new_axes((4.2, 4.0))
    text = f"AUC {auc:.3f}" if label is None else f"{label} (AUC {auc:.3f})"
    ax.plot(fpr, tpr, color=color, lw=1.8, label=text)
    return _unit_square(ax, "false positive rate", "true positive rate")


def _positive_class(y_true: ArrayLike, what: str) -> np.ndarray:
    """True for the larger of exactly two labels (else InputError)."""
    y_true = np.asarray(y_true)
    classes = np.unique(y_true)
    if classes.size != 2:
        raise InputError(f"{what} needs two classes, got {classes.size}")
    return y_true == classes[1]


def _unit_square(ax: Axes, xlabel: str, ylabel: str) -> Axes:
    """The diagonal, limits, labels and legend of a plot on [0, 1]²."""
    ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.01)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal")
    ax.legend(loc="lower right", frameon=False)
    return ax


def plot_reliability(
    y_true: ArrayLike,
    probabilities: ArrayLike,
    ax: Axes | None = None,
    bins: int | None = None,
) -> Axes:
    """Reliability diagram: observed share of positives against the probability.

    Sequences are binned by their probability (equal counts per bin); each
    bin's mean probability is plotted against the share of its sequences in
    the positive class. A calibrated model lies on the diagonal. The Brier
    score (mean squared error of the probabilities) is in the legend. By
    default every bin holds at least `MIN_PER_BIN` sequences (at most 10
    bins, at least 2): on a small set, fewer and wider bins, so that the
    curve does not zig-zag with the noise of a few sequences per bin.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels; the larger of two values is the positive class.
    probabilities : array-like of shape (n,)
        Probabilities of the positive class (e.g. out of fold).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    bins : int, optional
        Number of bins (default: adaptive, see above).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_reliability([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.9], bins=2)
    >>> ax.get_legend().get_texts()[0].get_text()
    'Brier 0.068'
    >>> plt.close(ax.figure)
    """
    from sklearn.calibration import calibration_curve

    positive = _positive_class(y_true, "a reliability diagram")
    p = np.asarray(probabilities, dtype=np.float64)
    if bins is None:
        bins = int(np.clip(p.size // MIN_PER_BIN, 2, 10))
    observed, predicted = calibration_curve(
        positive, p, n_bins=bins, strategy="quantile"
    )
    brier = float(np.mean((p - positive) ** 2))
    ax = ax if ax is not None else new_axes((4.2, 4.0))
    label = f"Brier {brier:.3f}"
    ax.plot(predicted, observed, "o-", color="#255c99", lw=1.8, label=label)
    return _unit_square(ax, "predicted probability (out of fold)", "share of positives")
