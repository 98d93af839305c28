"""A run's motif model: how much of the model its motifs explain, honestly nested.

In every outer fold the fold's model gives a POIM, motifs are found in the
fold's training sequences only and a `poimkit.motifs.model.MotifClassifier`
is fitted there; it scores the held-out fold. Those out-of-fold scores give
the motif model's cross-validated AUC and its fidelity to the SVM
(`poimkit.motifs.model.fidelity`); the final motif model is fitted to all
sequences with the run's final motifs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .data import LabeledData, compute_run_poim

if TYPE_CHECKING:
    from ..motifs import Motif
    from ..motifs.model import MotifClassifier
    from .options import RunOptions


def fit_motif_model(
    motifs: list[Motif], data: LabeledData, background: np.ndarray, seed: int
) -> MotifClassifier | None:
    """The motif classifier of these motifs on these sequences (None: no motif).

    Parameters
    ----------
    motifs : list of Motif
        The motifs (both classes).
    data : LabeledData
        The sequences and labels it is fitted to.
    background : numpy.ndarray of float, shape (4,)
        Background letters of the PWMs' log-odds.
    seed : int
        Seed of its inner cross-validation.

    Returns
    -------
    MotifClassifier or None
    """
    from ..motifs.model import MotifClassifier

    if not motifs:
        return None
    return MotifClassifier(motifs, background=background, random_state=seed).fit(
        data.X, data.y
    )


def fold_motif_model(
    model: object, data: LabeledData, train: np.ndarray, options: RunOptions
) -> MotifClassifier | None:
    """One outer fold's motif model: motifs and fit from ``train`` only.

    Parameters
    ----------
    model : fitted model
        The fold's model (trained on ``train``).
    data : LabeledData
        All of the run's sequences.
    train : numpy.ndarray of int
        The fold's training rows.
    options : RunOptions
        The POIM and motif settings.

    Returns
    -------
    MotifClassifier or None
        None if the fold's model yields no motif.
    """
    from ..motifs import extract_motifs
    from ..motifs.discovery import background_letters

    part = replace(
        data, ids=[data.ids[i] for i in train], X=data.X[train], y=data.y[train]
    )
    poim, background = compute_run_poim(model, part, options)
    motifs = extract_motifs(
        poim,
        max_motifs=options.max_motifs,
        sequences=part.X,
        labels=part.y,
        random_state=options.seed,
    )
    return fit_motif_model(motifs, part, background_letters(background), options.seed)


def motif_model_summary(
    final: MotifClassifier | None, cv: dict, y: np.ndarray
) -> dict | None:
    """``summary.json``'s ``motif_model``: its CV AUC, fidelity, coefficients.

    Parameters
    ----------
    final : MotifClassifier or None
        The final motif model (None: the run reported no motif).
    cv : dict
        `cross_validate`'s result, with ``motif_out_of_fold_scores``.
    y : numpy.ndarray
        The labels.

    Returns
    -------
    dict or None
        ``cv_auc`` and ``fidelity`` (None without CV), ``coefficients``
        (per motif: per bit of its best site score, and the odds ratio of one
        bit).
    """
    from sklearn.metrics import roc_auc_score

    from ..motifs.model import fidelity

    if final is None:
        return None
    scores = cv.get("motif_out_of_fold_scores")
    cv_auc = fid = None
    if scores is not None:
        cv_auc = float(roc_auc_score(y, scores))
        fid = fidelity(cv["out_of_fold_scores"], scores, y)
    return {
        "cv_auc": cv_auc,
        "fidelity": fid,
        "coefficients": [
            {
                "motif": m.name,
                "coefficient": round(float(c), 6),
                "odds_ratio": round(float(np.exp(c)), 6),
            }
            for m, c in zip(final.motifs, final.coef_, strict=True)
        ],
    }
