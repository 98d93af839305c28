"""A run's motif model and stack: how much of the model the motifs explain.

In every outer fold the fold's model gives a POIM, motifs are found in the
fold's training sequences only and a `poimkit.motifs.model.MotifClassifier`
is fitted there; it scores the held-out fold. Those out-of-fold scores give
the motif model's cross-validated AUC and its fidelity to the SVM
(`poimkit.motifs.model.fidelity`); the final motif model is fitted to all
sequences with the run's final motifs.

The stack (`poimkit.motifs.stacked`) adds the SVM's score to the motif
features. Its first feature must be out of fold, so in fold k it is fitted on
the out-of-fold SVM scores of the other folds' sequences, and the final stack
on all of them (the super learner's recipe; those scores came from SVMs that
saw fold k's sequences, a leak of one coefficient's worth that the choice
below absorbs). Of the three (`CANDIDATES`), the run keeps the first in that
order whose cross-validated AUC is within one standard error of the best
(`poimkit.svm.metrics.tie_tolerance`, the rule that chooses the SVM's
parameters): the SVM unless a model with motifs is clearly better.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .data import LabeledData
from .poim_step import compute_run_poim

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..motifs import Motif
    from ..motifs.model import MotifClassifier, MotifRegressor
    from ..motifs.stacked import StackedModel
    from .options import RunOptions
    from .results import CVResult

#: the models a run chooses among, the preferred first
CANDIDATES = ("svm", "motifs", "stack")
#: an outer fold finds its motifs and fits its motif model on a (stratified)
#: random sample of this many of its training records when it has more: on
#: 16,000 records of 200 letters that search and fit took 24 s of a fold's
#: 27 s (2 cores; benchmarks/RESULTS.md, genome scale), while the motifs and
#: a model of a few coefficients are settled by a few thousand records
FOLD_MOTIF_RECORDS = 5_000


def fit_motif_model(
    motifs: list[Motif],
    data: LabeledData,
    background: np.ndarray,
    seed: int,
    regression: bool = False,
) -> MotifClassifier | MotifRegressor | None:
    """The motif model of these motifs on these sequences (None: no motif).

    Parameters
    ----------
    motifs : list of Motif
        The motifs (both classes, or both signs).
    data : LabeledData
        The sequences and labels (or targets) it is fitted to.
    background : numpy.ndarray of float, shape (4,)
        Background letters of the PWMs' log-odds.
    seed : int
        Seed of its inner cross-validation.
    regression : bool
        A `MotifRegressor` for targets instead of a `MotifClassifier`.

    Returns
    -------
    MotifClassifier, MotifRegressor or None
    """
    from ..motifs.model import MotifClassifier, MotifRegressor

    if not motifs:
        return None
    kind = MotifRegressor if regression else MotifClassifier
    return kind(motifs, background=background, random_state=seed).fit(data.X, data.y)


def fold_motif_model(
    model: object, data: LabeledData, train: np.ndarray, options: RunOptions
) -> MotifClassifier | MotifRegressor | None:
    """One outer fold's motif model: motifs and fit from ``train`` only.

    Of more than `FOLD_MOTIF_RECORDS` training records, a random sample of
    that many (stratified by class; seed ``options.seed``).

    Parameters
    ----------
    model : fitted model
        The fold's model (trained on ``train``): a classifier, or a regressor
        whose motifs and motif model follow the targets.
    data : LabeledData
        All of the run's sequences.
    train : numpy.ndarray of int
        The fold's training rows.
    options : RunOptions
        The POIM and motif settings.

    Returns
    -------
    MotifClassifier, MotifRegressor or None
        None if the fold's model yields no motif.
    """
    from sklearn.base import is_regressor

    from ..motifs import extract_motifs
    from ..motifs.discovery import background_letters
    from ..svm.selection import stratified_sample

    regression = is_regressor(model)
    metric = "pearson" if regression else "auc"
    kept = stratified_sample(data.y[train], FOLD_MOTIF_RECORDS, options.seed, metric)
    train = train if kept is None else np.asarray(train)[kept]
    ids = [data.ids[i] for i in train] if data.ids else []
    part = replace(data, ids=ids, X=data.X[train], y=data.y[train])
    poim, background = compute_run_poim(model, part, options)
    motifs = extract_motifs(
        poim,
        max_motifs=options.max_motifs,
        sequences=list(part.X) if poim.position_free else part.X,
        **{"targets" if regression else "labels": part.y},
        random_state=options.seed,
    )
    return fit_motif_model(
        motifs, part, background_letters(background), options.seed, regression
    )


def _stack_part(explained: MotifClassifier, X, y, scores) -> MotifClassifier:
    """``explained`` refitted with the SVM's scores first.

    Its motifs as placed, smoothing and feature shape stay as its own inner
    CV chose them; the coefficients, the penalty and (for positional motifs)
    the window's narrowing are chosen again.
    """
    from sklearn.base import clone

    fixed = {
        "motifs": explained.motifs_,
        "smoothing": explained.smoothing_,
        "threshold": "score" if explained.threshold_ is None else explained.threshold_,
    }
    return clone(explained).set_params(**fixed).fit(X, y, scores=scores)


def fit_stack(
    model: object,
    explained: MotifClassifier | None,
    data: LabeledData,
    out_of_fold: np.ndarray,
) -> StackedModel | None:
    """The final stack: ``model``'s score and the motifs (None: no motif).

    Parameters
    ----------
    model : fitted model
        The run's final model.
    explained : MotifClassifier or None
        The final motif model (`fit_motif_model`).
    data : LabeledData
        All sequences.
    out_of_fold : numpy.ndarray of float
        The SVM's out-of-fold scores of them, the stack's first feature.

    Returns
    -------
    StackedModel or None
    """
    from ..motifs.stacked import StackedModel

    if explained is None:
        return None
    return StackedModel(model, _stack_part(explained, data.X, data.y, out_of_fold))


def compare_models(
    X: np.ndarray,
    y: np.ndarray,
    folds: Sequence[tuple[np.ndarray, np.ndarray]],
    explained: Sequence[MotifClassifier | MotifRegressor | None],
    scores: np.ndarray,
    svm: dict,
    figures_of: Callable[..., dict],
    metric: str = "auc",
) -> dict:
    """Out-of-fold scores of the motif models and stacks; the model chosen.

    Parameters
    ----------
    X, y : numpy.ndarray
        All sequences and their labels (or targets).
    folds : sequence of (train, test)
        The outer folds.
    explained : sequence of MotifClassifier, MotifRegressor or None
        Every fold's motif model (`fold_motif_model`).
    scores : numpy.ndarray of float
        The SVM's out-of-fold scores (a regressor's predictions).
    svm : dict
        The SVM's figures, as ``figures_of`` gives them.
    figures_of : callable
        ``figures_of(y, folds, scores)``: a model's figures from its
        out-of-fold scores (the regression run's ``cv_pearson`` and others);
        for classes ``figures_of(y, folds, scores, calibrations)`` with each
        fold model's Platt scaling (`poimkit.run.crossval.calibrated_figures`).
    metric : {"auc", "pearson"}
        The figure the choice compares: ``cv_auc`` or ``cv_pearson``.

    Returns
    -------
    dict
        ``motif_out_of_fold_scores`` (in a fold without motifs the prior,
        `prior_score`, with the calibration that gives back its share),
        ``stack_out_of_fold_scores`` (there the SVM's), ``models`` (every
        candidate's figures), ``chosen_model`` and ``chosen_figures`` (the
        chosen one's).
    """
    motif, stack = np.zeros(y.size), scores.copy()
    calibrations = {"motifs": [], "stack": []}  # per fold (None: no motif)
    for (train, test), part in zip(folds, explained, strict=True):
        calibrations["motifs"].append(None if part is None else part.calibration_)
        if part is None:  # no motif: the motif model says the prior, the stack is f
            motif[test] = prior_score(y[train], metric)
            calibrations["motifs"][-1] = (1.0, 0.0)  # log-odds back to the share
            calibrations["stack"].append(None)
            continue
        stacked = _stack_part(part, X[train], y[train], scores[train])
        calibrations["stack"].append(stacked.calibration_)
        motif[test] = part.decision_function(X[test])
        stack[test] = stacked.decision_function(X[test], scores=scores[test])
    # a classifier's probabilities come from each fold model's own calibration
    extra = {name: [c] for name, c in calibrations.items()} if metric == "auc" else {}
    figures = {
        "svm": svm,
        "motifs": figures_of(y, folds, motif, *extra.get("motifs", [])),
        "stack": figures_of(y, folds, stack, *extra.get("stack", [])),
    }
    plain = {  # the summary's copy: figures only (no per-record arrays)
        name: {k: v for k, v in f.items() if not isinstance(v, np.ndarray)}
        for name, f in figures.items()
    }
    key = f"cv_{metric}"
    chosen = choose_model({k: f[key] for k, f in figures.items()}, y, metric)
    return {
        "motif_out_of_fold_scores": motif,
        "stack_out_of_fold_scores": stack,
        "models": plain,
        "chosen_model": chosen,
        "chosen_figures": figures[chosen],
    }


def prior_score(y: np.ndarray, metric: str) -> float:
    """What a motif model without motifs predicts: the prior.

    Parameters
    ----------
    y : numpy.ndarray
        The training labels (0/1) or targets.
    metric : {"auc", "pearson"}
        Classes: the log-odds of the positive share (clipped to 1e-6 from 0
        and 1); targets: their mean.

    Returns
    -------
    float

    Examples
    --------
    >>> round(prior_score(np.array([1, 0, 0, 0]), "auc"), 4)
    -1.0986
    >>> prior_score(np.array([2.0, 4.0]), "pearson")
    3.0
    """
    if metric != "auc":
        return float(np.mean(y))
    share = float(np.clip(np.mean(y), 1e-6, 1 - 1e-6))
    return float(np.log(share / (1 - share)))


def choose_model(
    cv_figures: dict[str, float], y: np.ndarray, metric: str = "auc"
) -> str:
    """The first of `CANDIDATES` within one standard error of the best figure.

    Parameters
    ----------
    cv_figures : dict of str to float
        Every candidate's cross-validated AUC (or Pearson correlation).
    y : numpy.ndarray
        The labels (their counts set the standard error) or targets.
    metric : {"auc", "pearson"}
        The figure.

    Returns
    -------
    str

    Examples
    --------
    >>> y = np.array([0, 1] * 500)
    >>> choose_model({"svm": 0.90, "motifs": 0.80, "stack": 0.905}, y)
    'svm'
    >>> choose_model({"svm": 0.90, "motifs": 0.958, "stack": 0.96}, y)
    'motifs'
    """
    from ..svm.metrics import tie_tolerance

    best = max(cv_figures.values())
    n_pos = int(np.sum(y == 1)) if metric == "auc" else y.size
    tolerance = tie_tolerance(best, (n_pos, y.size - n_pos), metric)
    return next(n for n in CANDIDATES if cv_figures[n] >= best - tolerance)


def final_models(
    model: object,
    motifs: list[Motif],
    data: LabeledData,
    background: np.ndarray,
    cv: CVResult,
    options: RunOptions,
) -> tuple[MotifClassifier | None, StackedModel | None, str]:
    """The final motif model, the final stack if chosen, and the model chosen.

    Parameters
    ----------
    model : fitted model
        The run's final model.
    motifs : list of Motif
        The run's final motifs.
    data : LabeledData
        All sequences.
    background : numpy.ndarray of float, shape (4,)
        Background letters of the PWMs' log-odds.
    cv : CVResult
        `cross_validate`'s result (``chosen_model``, ``scores``).
    options : RunOptions
        The run's seed.

    Returns
    -------
    explained : MotifClassifier or None
        None without motifs.
    stack : StackedModel or None
        Only if the cross-validation chose the stack.
    chosen : str
        One of `CANDIDATES`; "svm" if the final model has no motif to use
        (then ``cv``'s figures become the SVM's again).
    """
    from sklearn.base import is_regressor

    explained = fit_motif_model(
        motifs, data, background, options.seed, is_regressor(model)
    )
    compared = cv.chosen_model
    chosen = compared if explained is not None else "svm"
    if chosen != compared:
        cv.back_to_svm()
    stack = None
    if chosen == "stack":
        stack = fit_stack(model, explained, data, cv.scores)
    return explained, stack, chosen


def save_motif_models(
    folder: Path,
    explained: MotifClassifier | MotifRegressor | None,
    stack: StackedModel | None,
) -> None:
    """Write ``motif_model.npz`` and ``stack.npz`` (each only if there is one).

    Parameters
    ----------
    folder : pathlib.Path
        The run's (staged) folder, holding ``model.npz``.
    explained : MotifClassifier, MotifRegressor or None
    stack : StackedModel or None
    """
    from ..io.outdir import LAYOUT

    if explained is not None:
        explained.save(folder / LAYOUT.motif_model)
    if stack is not None:
        stack.save(folder / LAYOUT.stack)


def motif_model_summary(
    final: MotifClassifier | MotifRegressor | None, cv: CVResult, y: np.ndarray
) -> dict | None:
    """``summary.json``'s ``motif_model``: its CV figure, fidelity, coefficients.

    Parameters
    ----------
    final : MotifClassifier, MotifRegressor or None
        The final motif model (None: the run reported no motif).
    cv : CVResult
        `cross_validate`'s result (or the regression run's), with ``models``.
    y : numpy.ndarray
        The labels or targets.

    Returns
    -------
    dict or None
        ``cv_auc`` (``cv_pearson`` for targets) and ``fidelity`` (None
        without CV), the stack's ``stack_cv_auc`` (``stack_cv_pearson``),
        ``smoothing`` (of its PWMs), ``threshold`` (None: the features are
        the best site scores; else the share of each motif's best possible
        score where its site chance is 1/2) and ``coefficients`` (per motif:
        per unit of its feature, a bit or the site chance, and for classes the
        odds ratio of one unit).
    """
    from ..motifs.model import MotifClassifier, fidelity

    if final is None:
        return None
    key = "cv_auc" if isinstance(final, MotifClassifier) else "cv_pearson"
    models = cv.models
    figure = stack = fid = None
    if models is not None:
        figure, stack = models["motifs"][key], models["stack"][key]
        fid = fidelity(cv.scores, cv.motif_scores, y)
    rows = []
    for m, c in zip(final.motifs, final.coef_, strict=True):
        row = {"motif": m.name, "coefficient": round(float(c), 6)}
        if key == "cv_auc":
            row["odds_ratio"] = round(float(np.exp(c)), 6)
        rows.append(row)
    return {
        key: figure,
        "fidelity": fid,
        f"stack_{key}": stack,
        "smoothing": final.smoothing_,
        "threshold": final.threshold_,
        "coefficients": rows,
    }
