"""Which family a run keeps when ``kernel="auto"`` also trained the CNN.

Both the kernel SVM (with its motif model and stack) and the CNN (with
its own) are cross-validated in the same outer folds
(`poimkit.run.plan.contender_plan`). Each family's figure is that of the
model it chose among its three (`poimkit.run.motif_model.compare_models`);
the run keeps the SVM's family unless the CNN's figure is better by more than
one standard error (`poimkit.svm.metrics.tie_tolerance`), the rule that
chooses the SVM's parameters and the motif model: the CNN costs far more time
and its POIMs are sampled, not exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .results import CVResult

#: the families compared, the preferred first
ORDER = ("kernel", "cnn")
#: the figures the summary keeps of each family's cross-validation
KEPT = (
    "cv_auc",
    "cv_auc_std",
    "cv_auc_interval",
    "cv_accuracy",
    "chosen_model",
    "models",
)
#: each family's own choice, in words
CHOICE_WORDS = {
    "svm": "the model itself",
    "motifs": "its motif model",
    "stack": "its stack",
}


def keep_family(
    kernel: CVResult, cnn: CVResult, y: np.ndarray, family: str
) -> tuple[CVResult, bool]:
    """The cross-validation of the family kept, with both families' figures.

    Parameters
    ----------
    kernel : CVResult
        `poimkit.run.crossval.cross_validate` of the kernel SVM.
    cnn : CVResult
        The same of the CNN, in the same folds.
    y : numpy.ndarray
        The labels (their counts set the standard error).
    family : str
        The kernel SVM's family ("wd", "gkm" or "auto" if its inner CV chose;
        then its ``selection`` says).

    Returns
    -------
    cv : CVResult
        ``kernel`` or ``cnn``, whichever is kept, with ``families_compared``:
        every family's figures (`KEPT`, and ``family``), the ``chosen`` one
        ("kernel" or "cnn") and the ``tolerance``.
    cnn_kept : bool
        Whether the CNN's family is kept.
    """
    from dataclasses import replace

    from ..svm.metrics import tie_tolerance

    figures = {"kernel": kernel.figure(), "cnn": cnn.figure()}
    best = max(figures.values())
    n_pos = int(np.sum(y == 1))
    tolerance = tie_tolerance(best, (n_pos, y.size - n_pos), "auc")
    chosen = next(name for name in ORDER if figures[name] >= best - tolerance)
    selection = kernel.selection or {}
    names = {"kernel": selection.get("family", family), "cnn": "cnn"}
    compared = {
        name: {"family": names[name], **_kept_figures(cv)}
        for name, cv in (("kernel", kernel), ("cnn", cnn))
    }
    kept = kernel if chosen == "kernel" else cnn
    both = {**compared, "chosen": chosen, "tolerance": tolerance}
    return replace(kept, families_compared=both), chosen == "cnn"


def _kept_figures(cv: CVResult) -> dict:
    """A family's figures the summary keeps (`KEPT`)."""
    parts = {"chosen_model": cv.chosen_model, "models": cv.models}
    return {k: parts[k] if k in parts else cv.figures.get(k) for k in KEPT}


def families_text(compared: dict) -> str:
    """Both families' CV AUCs and the one kept, in one plain sentence.

    Parameters
    ----------
    compared : dict
        A cross-validation's ``families_compared`` (`keep_family`).

    Returns
    -------
    str

    Examples
    --------
    >>> compared = {"kernel": {"family": "gkm", "cv_auc": 0.926, "chosen_model": "svm"},
    ...             "cnn": {"family": "cnn", "cv_auc": 0.974, "chosen_model": "svm"},
    ...             "chosen": "cnn", "tolerance": 0.0021}
    >>> families_text(compared)  # doctest: +NORMALIZE_WHITESPACE
    "in the same folds the kernel SVM's family (gkm) reached a CV AUC of 0.926 (the
    model itself) and the CNN's 0.974 (the model itself): the CNN's family is kept,
    better by more than one standard error (0.002)"
    """
    kernel, cnn = compared["kernel"], compared["cnn"]
    kept = (
        "the CNN's family is kept, better by more than one standard error"
        if compared["chosen"] == "cnn"
        else "the kernel SVM's family is kept, as the CNN's is not better by more "
        "than one standard error"
    )

    def words(f: dict) -> str:
        return CHOICE_WORDS[f.get("chosen_model") or "svm"]

    return (
        f"in the same folds the kernel SVM's family ({kernel['family']}) reached a "
        f"CV AUC of {kernel['cv_auc']:.3f} ({words(kernel)}) and the CNN's "
        f"{cnn['cv_auc']:.3f} ({words(cnn)}): {kept} ({compared['tolerance']:.3f})"
    )
