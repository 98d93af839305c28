"""Cross-validation (nested when parameters are selected) and the final fit."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._messages import tell
from ..errors import InputError
from ..svm.metrics import auc_interval, fold_interval  # noqa: F401 (re-exported)
from .copy_fits import CopyFits, fit_order
from .data import LabeledData
from .gc_baseline import gc_baseline
from .options import RunOptions
from .plan import RunPlan
from .registry import SolverNotice
from .results import CVResult

if TYPE_CHECKING:
    from ..svm.folds import FoldPlan


def selection_summary(final: Any, folds: Sequence[Any] = ()) -> dict:
    """What summary.json says about the selection (see `run_pipeline`).

    The chosen family's grid, table and choice, the ``family`` and, per
    family, its best inner AUC (``families``; Pearson correlation for
    regressors), ``family_margin`` the chosen family's best minus the best
    other's (None for one family).

    Parameters
    ----------
    final : poimkit.svm.families.FamilySelection
        The choice on all sequences.
    folds : sequence of FamilySelection
        The choice in every outer fold.

    Returns
    -------
    dict
    """
    chosen = final.selection
    compared = final.to_dict()
    return {
        "family": final.family,
        "family_margin": compared["margin"],
        "family_tolerance": compared["tolerance"],
        "families": {
            name: {**row, "grid": final.families[name].grid.to_dict()}
            for name, row in compared["families"].items()
        },
        "grid": chosen.grid.to_dict(),
        "inner": chosen.inner,
        "chosen": chosen.to_dict()["params"],
        "calibration": None if chosen.calibration is None else list(chosen.calibration),
        **{k: v for k, v in chosen.to_dict(table=True).items() if k != "params"},
        "folds": [
            {"family": s.family, "family_margin": s.margin, **s.selection.to_dict()}
            for s in folds
        ],
    }


def trained_solver(model: Any, options: RunOptions) -> str:
    """The solver that trained ``model``: "kernel" or "linear".

    `GkmSVC` says (``solver_``); a WD model's is the resolved option
    (``"auto"`` remains only where the WD model takes the kernel solver).

    Parameters
    ----------
    model : fitted estimator
        The final model.
    options : RunOptions
        The options it was trained with (solver resolved).
    """
    solver = model.solver_ or options.solver
    return "kernel" if solver == "auto" else solver


def plan_folds(
    data: LabeledData, options: RunOptions, classes: bool = True, inner: bool = False
) -> FoldPlan:
    """The outer folds of a run's cross-validation, by ``options.cv_by``.

    Parameters
    ----------
    data : LabeledData
        The records; their ids give chromosomes (``chrom:start-end``).
    options : RunOptions
        ``cv``, ``seed`` and ``cv_by`` (None: by chromosome for peak input,
        the ``"peaks"`` role among ``data.inputs``; else random).
    classes : bool
        Labels (stratified folds) rather than targets.
    inner : bool
        An inner CV (`poimkit.svm.selection.INNER_FOLDS`) runs in every outer
        training part: a genomic split must leave it enough chromosomes.

    Returns
    -------
    FoldPlan

    Raises
    ------
    InputError
        For ``cv_by="chrom"`` and a record id that is not ``chrom:start-end``.
    """
    by_chrom = _split_by(data, options) == "chrom"
    ids = data.ids if by_chrom else None
    return outer_folds(data.y, options.cv, options.seed, ids, inner, classes)


def outer_folds(
    y: np.ndarray,
    folds: int,
    seed: int,
    ids: Sequence[str] | None = None,
    inner: bool = False,
    classes: bool = False,
) -> FoldPlan:
    """Outer folds: random, or of whole chromosomes (for `plan_folds` and regression).

    Parameters
    ----------
    y : numpy.ndarray
        The labels, or the targets.
    folds : int
        At least 2 and at most ``len(y)``.
    seed : int
        Seed of the split.
    ids : sequence of str, optional
        Record ids ``chrom:start-end``: folds of whole chromosomes
        (`poimkit.svm.folds.genomic_folds`); None: a shuffled k-fold split.
    inner : bool
        An inner CV runs in every training part (it needs chromosomes too).
    classes : bool
        Labels: stratified folds.

    Returns
    -------
    FoldPlan
    """
    from ..genome.loci import record_loci
    from ..svm.folds import FoldPlan, genomic_folds, random_folds
    from ..svm.selection import INNER_FOLDS

    y = np.asarray(y)
    if folds > len(y):
        raise InputError(f"--cv {folds} needs at least {folds} records, got {len(y)}")
    if ids is None:
        return FoldPlan("random", random_folds(y, folds, seed, classes))
    inner_folds = INNER_FOLDS if inner else 0
    return genomic_folds(record_loci(ids), y, folds, seed, classes, inner_folds)


def _split_by(data: LabeledData, options: RunOptions) -> str:
    """``options.cv_by``, or its default for ``data``: chrom for peak input."""
    if options.cv_by is not None:
        return options.cv_by
    peaks = any(entry.get("role") == "peaks" for entry in data.inputs)
    return "chrom" if peaks else "random"


def record_chromosomes(data: LabeledData, options: RunOptions) -> np.ndarray | None:
    """Every record's chromosome when folds go by chromosome, else None.

    Parameters
    ----------
    data : LabeledData
    options : RunOptions
        ``cv_by`` (`plan_folds`).

    Returns
    -------
    numpy.ndarray or None
    """
    from ..genome.loci import record_loci

    if _split_by(data, options) == "random":
        return None
    return record_loci(data.ids).groups()


def split_summary(split: FoldPlan) -> dict:
    """``cv_split``, its note and the ``folds`` list of a summary.

    Parameters
    ----------
    split : FoldPlan
        The cross-validation's folds.

    Returns
    -------
    dict
        ``cv_split`` ("chromosome", "block" or "random"), ``cv_split_note``
        (why not by chromosome, if asked) and ``folds`` (each fold's
        ``n_test`` and, for a genomic split, its test ``chromosomes`` or
        ``blocks``).
    """
    return {
        "cv_split": split.split,
        "cv_split_note": split.note,
        "folds": split.describe(),
    }


def split_text(cv: CVResult) -> str:
    """How the folds split the records, in words (``"5 folds of whole chromosomes"``).

    Parameters
    ----------
    cv : CVResult
        A cross-validation (its ``split``, ``split_note`` and ``folds``).

    Returns
    -------
    str
        Empty without a cross-validation.
    """
    n = len(cv.folds or cv.figure("folds") or [])
    if not n:
        return ""
    kind = {
        "chromosome": "of whole chromosomes",
        "block": "of whole 10 Mb blocks",
        "random": "drawn at random",
    }.get(cv.split or "random")
    return f"{n} folds {kind}" + (f" ({cv.split_note})" if cv.split_note else "")


def _select(
    data: LabeledData, plan: RunPlan, train_sets, fit_params, progress, groups=None
):
    """`select_families` over the plan's families; None if nothing is chosen."""
    from ..svm.families import select_families

    if plan.families is None:
        return None
    return select_families(
        [(name, plan.templates[name], grid) for name, _, grid in plan.families],
        data.X,
        data.y,
        train_sets,
        random_state=plan.options.seed,
        n_jobs=plan.options.threads,
        fit_params=fit_params,
        progress=progress,
        groups=groups,
    )


def cross_validate(
    data: LabeledData,
    plan: RunPlan,
    progress: bool | str = False,
    *,
    fit_params: dict | None = None,
    motif_model: bool = False,
    fits: CopyFits | None = None,
    split: FoldPlan | None = None,
) -> CVResult:
    """Stratified k-fold CV: AUC and accuracy per fold, out-of-fold scores.

    The folds are `plan_folds`': random, or of whole chromosomes (peak
    input, ``cv_by="chrom"``), the inner folds of the selection too.

    With ``options.selects`` the parameters left open are chosen inside every
    outer fold by an inner CV (nested CV, `poimkit.svm.selection.select_nested`),
    and once more on all sequences for the final model; each kernel setting's
    matrix is computed once for all of them. With ``kernel="auto"`` the inner
    CV chooses the model family too (`poimkit.svm.families.select_families`),
    in every outer fold and for the final model.

    Parameters
    ----------
    data : LabeledData
        The labeled sequences (`read_input`).
    plan : RunPlan
        `make_plan` of ``data``: the options as resolved, the families and
        grids to search and the unfitted models.
    progress : bool or "lines"
        Progress bars on standard error (over the inner fits and the outer
        folds); ``"lines"``: a plain line per stage instead, for logs.
    fit_params : dict, optional
        Passed to every ``fit`` (e.g. ``client`` of `WDLinearSVC`).
    motif_model : bool
        Also find every fold's motifs in its training sequences and score the
        held-out fold with their motif model
        (`poimkit.run.motif_model.fold_motif_model`) and with the stack of the
        SVM and the motifs; choose among the three
        (`poimkit.run.motif_model.compare_models`). The figures ``cv_auc``
        to ``cv_accuracy_folds`` are then the chosen model's.
    fits : CopyFits, optional
        Fits the folds' models (`poimkit.run.copy_fits`); pass the same to
        `train_final` to share a WD kernel of moved copies with it.
    split : FoldPlan, optional
        The outer folds (default `plan_folds`), e.g. another model's to
        compare with.

    Returns
    -------
    CVResult
        Its ``figures`` (``cv_auc``, ``cv_auc_std``, ``cv_auc_interval``,
        ``cv_auc_folds``, ``cv_accuracy``, ``cv_accuracy_folds``...:
        `fold_figures`), ``baseline`` (GC content alone in the same folds,
        `poimkit.run.gc_baseline`), ``scores`` (the SVM's out-of-fold
        scores), the split and its ``folds``, the comparison of
        `poimkit.run.motif_model.compare_models` (without it the SVM alone)
        and ``selection`` (None if nothing was selected; else the grid, the
        inner scheme, the parameters chosen on all sequences with their inner
        AUC, the best candidate, ``corner``, a ``table`` of every candidate's
        inner AUC, the ``family`` chosen and every family's best inner AUC
        (``families``, ``family_margin``; see `selection_summary`) and
        ``folds``, the choice of every outer fold).
    """
    options = plan.options
    fit_params = fit_params or {}
    split = split or plan_folds(data, options, inner=plan.selects)
    folds = split.folds
    train_sets = [train for train, _ in folds] + [np.arange(data.y.size)]
    lines = progress == "lines"
    if lines and plan.selects:
        tell(f"choosing the parameters by inner CV in {options.cv} folds and on all")
    found = _select(data, plan, train_sets, fit_params, progress is True, split.groups)
    chosen, selection = [(options.kernel, {})] * options.cv, None
    calibrations = [None] * options.cv  # each fold model's, from its inner CV
    if found is not None:
        chosen = [(s.family, s.selection.params) for s in found[:-1]]
        calibrations = [  # a model trained on copies scales its scores anew
            None if data.trains_copies(s.family) else s.selection.calibration
            for s in found[:-1]
        ]
        selection = selection_summary(found[-1], found[:-1])
    last = (found[-1].family, found[-1].selection.params) if found else chosen[0]
    scores, explained = _fold_scores(
        data,
        plan,
        folds,
        chosen,
        (fits or CopyFits(data), last),
        fit_params,
        progress,
        motif_model,
    )
    positive = data.y == np.unique(data.y)[1]
    probabilities = fold_probabilities(positive, folds, scores, calibrations)
    svm = fold_figures(positive, folds, scores, probabilities)
    result = {**svm, "out_of_fold_scores": scores, "selection": selection}
    result.update(gc_baseline(data.X, positive, folds))
    result.update(split_summary(split))
    for entry, auc in zip(result["folds"], svm["cv_auc_folds"], strict=True):
        entry["auc"] = auc
    if motif_model:
        from .motif_model import compare_models

        compared = compare_models(
            data.X, data.y, folds, explained, scores, svm, calibrated_figures
        )
        result.update(compared.pop("chosen_figures"))
        result.update(compared)
    return CVResult.from_mapping("auc", result)


def _fold_scores(data, plan, folds, chosen, fitting, fit_params, progress, motif):
    """Out-of-fold scores of every fold's model, and its motif model if asked.

    ``fitting``: ``(CopyFits, the final model's (family, params))`` (`fit_order`).
    """
    from tqdm.auto import tqdm

    fits, last = fitting
    fits.expect(  # every fold's and then the final model's
        [
            (plan.templates[family], params, train)
            for (train, _), (family, params) in zip(folds, chosen, strict=True)
        ]
        + [(plan.templates[last[0]], last[1], np.arange(data.y.size))]
    )
    scores = np.empty(data.y.size)
    explained = [None] * len(folds)  # every fold's motif model (None: no motif)
    for fold in tqdm(
        fit_order(chosen, last),
        desc="cross-validation",
        unit="fold",
        disable=progress is not True,
        leave=False,
    ):
        if progress == "lines":
            tell(f"cross-validation: fitting fold {fold + 1} of {len(folds)}")
        (train, test), (family, params) = folds[fold], chosen[fold]
        fitted = fits.fit(plan.templates[family], family, params, train, fit_params)
        scores[test] = fitted.decision_function(data.X[test])
        if motif:
            from .motif_model import fold_motif_model

            explained[fold] = fold_motif_model(fitted, data, train, plan.options)
    return scores, explained


def fold_probabilities(
    positive: np.ndarray,
    folds: Sequence[tuple[np.ndarray, np.ndarray]],
    scores: np.ndarray,
    calibrations: Sequence[tuple[float, float] | None],
) -> np.ndarray:
    """Every out-of-fold score as its fold model's calibrated probability.

    A fold model's calibration comes from its own inner CV (the selection's);
    without one (nothing selected), Platt scaling of the other folds'
    out-of-fold scores (cross-fitting: never the fold's own labels).

    Parameters
    ----------
    positive : numpy.ndarray of bool
        The positive class.
    folds : sequence of (train, test)
        The outer folds.
    scores : numpy.ndarray of float
        Out-of-fold scores.
    calibrations : sequence of (float, float) or None
        Per fold, its model's Platt scaling, or None.

    Returns
    -------
    numpy.ndarray of float64
    """
    from ..svm.calibration import platt, probability

    out = np.empty(scores.size)
    for (_, test), calibration in zip(folds, calibrations, strict=True):
        if calibration is None:
            other = np.setdiff1d(np.arange(scores.size), test)
            calibration = platt(scores[other], positive[other])
        out[test] = probability(scores[test], calibration)
    return out


def calibrated_figures(
    y: np.ndarray,
    folds: Sequence[tuple[np.ndarray, np.ndarray]],
    scores: np.ndarray,
    calibrations: Sequence[tuple[float, float] | None] | None = None,
) -> dict:
    """`fold_figures` of out-of-fold scores turned into probabilities per fold.

    Parameters
    ----------
    y, folds, scores
        As in `fold_figures`.
    calibrations : sequence of (float, float) or None, optional
        Each fold model's Platt scaling (a motif model's or stack's
        ``calibration_``); None for a fold without one (`fold_probabilities`
        then cross-fits it).

    Returns
    -------
    dict
    """
    positive = np.asarray(y).astype(bool)
    calibrations = calibrations or [None] * len(folds)
    probabilities = fold_probabilities(positive, folds, scores, calibrations)
    return fold_figures(y, folds, scores, probabilities)


def best_accuracy(positive: np.ndarray, scores: np.ndarray) -> float:
    """The highest accuracy any threshold on the scores reaches.

    Parameters
    ----------
    positive : numpy.ndarray of bool
    scores : numpy.ndarray of float

    Returns
    -------
    float

    Examples
    --------
    >>> best_accuracy(np.array([False, True, False, True]), np.array([1, 2, 3, 4.0]))
    0.75
    """
    order = np.argsort(-scores, kind="stable")
    s, pos = scores[order], positive[order]
    # labelling the first i as positive: i correct positives so far, the rest
    # negatives right; only cuts between different scores count
    right = np.concatenate([[0], np.cumsum(np.where(pos, 1, -1))]) + (~pos).sum()
    cuts = np.concatenate([[True], s[1:] != s[:-1], [True]])
    return float(right[cuts].max() / scores.size)


def fold_figures(
    y: np.ndarray,
    folds: Sequence[tuple[np.ndarray, np.ndarray]],
    scores: np.ndarray,
    probabilities: np.ndarray | None = None,
) -> dict:
    """One model's cross-validated figures from its out-of-fold scores.

    The labels are the classes of probability at least 1/2.

    Parameters
    ----------
    y : numpy.ndarray
        The labels (0/1 or bool).
    folds : sequence of (train, test)
        The outer folds.
    scores : numpy.ndarray of float
        Out-of-fold scores (each row from the fold that held it out).
    probabilities : numpy.ndarray of float, optional
        Their calibrated probabilities (`fold_probabilities`); default the
        logistic of the scores (a logistic model's log-odds).

    Returns
    -------
    dict
        ``cv_auc`` (mean over folds), ``cv_auc_std``, ``cv_auc_interval``,
        ``cv_auc_folds``, ``cv_auc_pooled`` (of the probabilities, which
        share one scale across folds), ``cv_accuracy``,
        ``cv_accuracy_folds``, ``cv_balanced_accuracy``,
        ``cv_best_accuracy`` (the best any threshold reaches on the pooled
        probabilities), ``cv_brier`` (mean squared error of the
        probabilities) and ``out_of_fold_probabilities``.
    """
    from sklearn.metrics import balanced_accuracy_score, roc_auc_score

    positive = np.asarray(y).astype(bool)
    if probabilities is None:
        from ..svm.calibration import probability

        probabilities = probability(scores, (1.0, 0.0))
    labels = probabilities >= 0.5
    aucs = [roc_auc_score(positive[test], scores[test]) for _, test in folds]
    accuracies = [np.mean(labels[test] == positive[test]) for _, test in folds]
    balanced = [
        balanced_accuracy_score(positive[test], labels[test]) for _, test in folds
    ]
    return {
        "cv_auc": float(np.mean(aucs)),
        "cv_auc_std": float(np.std(aucs)),
        "cv_auc_interval": auc_interval(aucs),
        "cv_auc_pooled": float(roc_auc_score(positive, probabilities)),
        "cv_auc_folds": [round(float(a), 6) for a in aucs],
        "cv_accuracy": float(np.mean(accuracies)),
        "cv_accuracy_folds": [round(float(a), 6) for a in accuracies],
        "cv_balanced_accuracy": float(np.mean(balanced)),
        "cv_best_accuracy": best_accuracy(positive, probabilities),
        "cv_brier": float(np.mean((probabilities - positive) ** 2)),
        "out_of_fold_probabilities": probabilities,
    }


def train_final(
    data: LabeledData,
    plan: RunPlan,
    selection: dict | None = None,
    *,
    fit_params: dict | None = None,
    fits: CopyFits | None = None,
):
    """Fit on all sequences; returns (model, chosen parameters, selection).

    Parameters
    ----------
    data, plan
        As in `cross_validate`.
    selection : dict, optional
        ``cross_validate(...)["selection"]``: its family and parameters chosen
        on all sequences are used. Without it, and if ``options.selects``,
        they are chosen here by an inner CV on all sequences.
    fit_params : dict, optional
        As in `cross_validate`.
    fits : CopyFits, optional
        As in `cross_validate` (its kernel is released after the fit).

    Returns
    -------
    model : fitted estimator
    chosen : dict
        ``degree``, ``shift`` and ``C`` of the model (``l``, ``k``,
        ``reverse_complement`` and ``C`` of a gkm model).
    selection : dict or None
        The selection (as in `cross_validate`), None if nothing was selected.
    """
    from sklearn.base import clone

    from ..svm.grids import plain

    options = plan.options
    fit_params = fit_params or {}
    if selection is None:
        everything = [np.arange(data.y.size)]
        groups = record_chromosomes(data, plan.options)
        found = _select(data, plan, everything, fit_params, False, groups)
        selection = None if found is None else selection_summary(found[0])
    params = selection["chosen"] if selection is not None else {}
    family = selection["family"] if selection is not None else options.kernel
    model = plan.templates[family]
    options = replace(options, kernel=family)
    fits = fits or CopyFits(data)
    all_rows = np.arange(data.y.size)
    fitted = fits.fit(model, family, params, all_rows, fit_params, last=True)
    fits.release()
    if fitted.hashed_by_budget_:
        # the table outgrew resolve_solver's estimate (e.g. repeats): POIMs
        # need exact weights, so train again at the largest exact degree
        exact = fitted.n_exact_orders_
        warnings.warn(
            SolverNotice(
                f"the exact k-mer table of degree {fitted.degree} did not fit the "
                f"linear solver's memory budget beyond order {exact}: training "
                f"the final model again with degree {exact} (exact POIMs)"
            ),
            stacklevel=2,
        )
        fitted = clone(fitted).set_params(degree=exact)
        fitted.fit(*data.training(np.arange(data.y.size), family), **fit_params)
    params = fitted.get_params()
    chosen = {name: plain(params[name]) for name in options.fixed()}
    return fitted, chosen, selection
