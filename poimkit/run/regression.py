"""Support vector regressors cross-validated: `cv_regression`, `nested_regression`.

`cv_regression` is the cross-validation of one fixed `WDKernelSVR` or
`GkmSVR` (the mean over folds of the CV Pearson, Spearman and R² and their
standard deviation); `nested_regression` chooses the parameters not given,
and with ``kernel="auto"`` the family, by an inner cross-validation in every
outer fold and on all records for the final model (the candidates:
`poimkit.run.regression_search`), as for classifiers. `regression_scores` is
the three figures of one fold. The whole jobs (``train``/``run`` with
targets) are `poimkit.run.regression_run`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .data import LabeledData
from .options import RunOptions
from .regression_figures import regression_figures, regression_scores
from .regression_outputs import regression_motifs
from .results import CVResult

if TYPE_CHECKING:
    from ..svm.folds import FoldPlan

__all__ = [
    "clone_checked",
    "cv_regression",
    "make_regressor",
    "nested_regression",
    "regression_motifs",
    "regression_scores",
]


def make_regressor(
    kernel: str, params: dict[str, Any], threads: int | None = None
) -> Any:
    """An unfitted `WDKernelSVR` (``kernel="wd"``) or `GkmSVR` (``"gkm"``), checked.

    Parameters
    ----------
    kernel : {"wd", "gkm"}
    params : dict
        ``C``, ``epsilon`` and the kernel's own parameters (``degree``,
        ``shift``, ``mismatches``, ``reverse_complement`` for wd; ``l``,
        ``k``, ``reverse_complement`` for gkm); None means the default.
    threads : int, optional
        Threads for the kernel.

    Returns
    -------
    WDKernelSVR or GkmSVR
    """
    from .registry import family

    given = {k: v for k, v in params.items() if v is not None}
    model = family(kernel).estimator_class("regression")(n_threads=threads, **given)
    model._check_params()
    return model


def cv_regression(
    model: Any,
    X: Any,
    y: np.ndarray,
    folds: int,
    seed: int = 0,
    progress: bool = False,
    motif_options: RunOptions | None = None,
    split: FoldPlan | None = None,
) -> CVResult:
    """K-fold CV of ``model``: each figure's mean over folds and its std.

    Parameters
    ----------
    model : regressor
        Cloned for every fold.
    X : numpy.ndarray or 1-D object array of code arrays
    y : numpy.ndarray of float
    folds : int
        At least 2 and at most ``len(y)``.
    seed : int
        Seed of the shuffled split.
    progress : bool
        A progress bar over the folds on standard error.
    motif_options : RunOptions, optional
        Also compare the SVM with the folds' motif models and stacks
        (`_cv_folds`).
    split : FoldPlan, optional
        The folds (`poimkit.run.crossval.outer_folds`, e.g. of whole
        chromosomes); default ``folds`` random ones.

    Returns
    -------
    CVResult
        Its ``figures``: ``cv_pearson``, ``cv_spearman``, ``cv_r2`` (the mean
        over folds), each with its ``..._std``, ``..._interval`` (95%
        Student-t interval of the mean, `poimkit.run.crossval.fold_interval`)
        and ``..._folds``; ``predictions`` (the held-out prediction of every
        record), ``scores`` (the SVM's) and the split.
    """
    from .crossval import outer_folds, split_summary

    split = split or outer_folds(y, folds, seed)
    result = _cv_folds([model] * folds, X, y, split.folds, progress, motif_options)
    return CVResult.from_mapping("pearson", {**result, **split_summary(split)})


def nested_regression(
    families: list,
    X: Any,
    y: np.ndarray,
    folds: int,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
    motif_options: RunOptions | None = None,
    split: FoldPlan | None = None,
) -> tuple[CVResult, Any]:
    """Nested CV: the parameters (and family) chosen by an inner CV per fold.

    The outer folds are `cv_regression`'s; in each, and once on all records
    for the final model, `poimkit.svm.families.select_families` chooses the
    family and its parameters by the Pearson correlation of an inner CV,
    every kernel matrix computed once for all of them.

    Parameters
    ----------
    families : list of (str, regressor, Grid)
        From `poimkit.run.regression_search.regression_families`.
    X, y, folds, seed
        As in `cv_regression`; ``folds`` 0: the choice on all records only.
    threads : int, optional
        Threads fitting candidates at once.
    progress : bool
        Progress bars (inner fits, outer folds) on standard error.
    motif_options, split : RunOptions, FoldPlan, optional
        As in `cv_regression`; the inner folds hold out whole groups too
        where ``split`` has them.

    Returns
    -------
    cv : CVResult
        `cv_regression`'s (no figures with ``folds`` 0) and ``selection``
        (as classification's: the grid, the choice on all records with its
        inner Pearson correlation, each family's best, every fold's choice).
    model : regressor
        The final model's template, unfitted, with the chosen parameters.
    """
    from sklearn.base import clone

    from ..svm.families import select_families
    from .crossval import outer_folds, selection_summary, split_summary

    if folds:
        split = split or outer_folds(y, folds, seed)
    outer = split.folds if folds else []
    train_sets = [train for train, _ in outer] + [np.arange(y.size)]
    found = select_families(
        families,
        X,
        y,
        train_sets,
        random_state=seed,
        n_jobs=threads,
        progress=progress,
        groups=split.groups if folds else None,
    )
    templates = {name: template for name, template, _ in families}
    models = [
        clone(templates[s.family]).set_params(**s.selection.params) for s in found
    ]
    cv = {}
    if folds:
        cv = _cv_folds(models[:-1], X, y, outer, progress, motif_options)
        cv.update(split_summary(split))
    cv["selection"] = selection_summary(found[-1], found[:-1])
    return CVResult.from_mapping("pearson", cv), models[-1]


def _cv_folds(
    models: list,
    X: Any,
    y: np.ndarray,
    split: list,
    progress: bool,
    motif_options: RunOptions | None = None,
):
    """Fit a clone of ``models[f]`` on fold f's training part; the figures.

    With ``motif_options``, every fold's motifs and motif model come from its
    training part (`poimkit.run.motif_model.fold_motif_model`) and the SVM,
    the motif model and the stack are compared
    (`poimkit.run.motif_model.compare_models`); the figures are then the
    chosen model's, ``out_of_fold_scores`` the SVM's.
    """
    from sklearn.base import clone
    from tqdm.auto import tqdm

    predictions = np.empty(len(y))
    explained = []
    for model, (train, test) in tqdm(
        list(zip(models, split, strict=True)),
        desc="cross-validation",
        unit="fold",
        disable=not progress,
        leave=False,
    ):
        fitted = clone(model).fit(X[train], y[train])
        predictions[test] = fitted.predict(X[test])
        if motif_options is not None:
            from .motif_model import fold_motif_model

            data = LabeledData([], X, y, [], 0)
            explained.append(fold_motif_model(fitted, data, train, motif_options))
    result = regression_figures(y, split, predictions)
    result["out_of_fold_scores"] = predictions
    if motif_options is not None:
        from .motif_model import compare_models

        compared = compare_models(
            X,
            y,
            split,
            explained,
            predictions,
            dict(result),
            regression_figures,
            "pearson",
        )
        result.update(compared.pop("chosen_figures"))
        result.update(compared)
    return result


def clone_checked(template: Any, params: dict[str, Any]) -> Any:
    """A clone of ``template`` with ``params``, its parameters checked.

    Parameters
    ----------
    template : regressor
        Unfitted.
    params : dict
        Parameters to set.

    Returns
    -------
    regressor
        Unfitted.
    """
    from sklearn.base import clone

    model = clone(template).set_params(**params)
    model._check_params()
    return model
