"""Choose kernel parameters and C by an inner cross-validation on shared Gram matrices.

A kernel SVM's cost is the kernel matrix and the solver. The raw WD / WDS (and
gapped k-mer) kernel of a pair of sequences does not depend on the other
sequences; only the normalisation constant does, and it is one number per
training set. So for every *kernel setting* (e.g. degree and shift) the raw
kernel matrix of all sequences is computed **once**, and every C value, every
inner fold and every outer fold of a nested cross-validation fits on slices of
it with `sklearn.svm.SVC` (``kernel="precomputed"``).

The Gram protocol
-----------------
An estimator takes part through three private methods (`WDKernelSVC` has
them; `fit` and `decision_function` are built on them, so a model fitted here
is the model `fit` gives):

``_raw_kernel(X)``
    The un-normalised kernel matrix ``(n, n)`` of validated sequences ``X``
    for the estimator's current kernel parameters. ``K[a, b]`` must depend on
    ``X[a]`` and ``X[b]`` only, so that ``K[np.ix_(rows, rows)]`` is the
    matrix of ``X[rows]``.
``_fit_gram(X, y, K_raw)``
    What ``fit(X, y)`` does once it has ``K_raw = _raw_kernel(X)``: the
    normalisation constant of this training set (a scalar, e.g. the mean of
    ``diag(K_raw)``), the SVM, the fitted attributes; returns ``self`` and
    sets ``_gram_support``, the rows of ``X`` that are support vectors in the
    order of ``dual_coef_``. It may overwrite ``K_raw``.
``_decision_gram(X, K_raw)`` (optional)
    Decision values of ``X`` given its un-normalised kernel against the
    support vectors, ``(n, n_SV)``; it may overwrite ``K_raw``. Without it the
    held-out sequences are scored by ``decision_function`` (``predict``).

An estimator without ``_raw_kernel`` / ``_fit_gram`` (e.g. `WDLinearSVC`) is
refitted from the sequences for every candidate: the same selection, without
the sharing. So is one whose ``_gram_pays(n, letters)`` says that for the
``n`` sequences of the selection (``letters`` in all) its kernel matrix costs
more than refitting (`GkmSVC` with its linear solver on many windows).

Regressors
----------
A regressor (`poimkit.WDKernelSVR`, `poimkit.GkmSVR`) is selected the same
way, scored by the Pearson correlation of its held-out predictions instead
of the ROC AUC (`Selection.metric`), on plain (not stratified) k-fold splits.
The correlation, not R²: a kernel regressor's held-out predictions shrink
towards the mean, by an amount that depends on the kernel's peakedness more
than on what the model has learnt, and R² rewards less shrinkage (on planted
data it chose a WD model of correlation 0.72 over a gapped k-mer one of 0.83). Its
grid may hold ``epsilon``, a solver parameter: candidates that differ only in
it share one kernel matrix (`SOLVER_PARAMETERS`).

Families
--------
`poimkit.svm.families.select_families` runs `select_nested` for several model
*families* (e.g. the positional WD / WDS kernel and the position-free gapped
k-mer kernel, each an estimator with its own `Grid`) on the same inner splits;
the family whose best inner AUC ties the best of all (`tie_tolerance`) and
comes first in the given order wins.

The kernel fits run in a thread pool (libsvm releases the GIL); the protocol
methods called there must not start numba-parallel work (the kernel matrices
are computed before, in the calling thread).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..contract import SequenceModel
from ..errors import InputError
from .grids import (
    DEFAULT_C,
    DEFAULT_DEGREES,
    DEFAULT_SHIFTS,
    Grid,
    default_grid,
    gkm_grid,
    plain,
)
from .metrics import (
    auc_standard_error,
    held_out_figure,
    metric_of,
    tie_tolerance,
)

if TYPE_CHECKING:
    from sklearn.base import ClassifierMixin

__all__ = [
    "DEFAULT_C",
    "DEFAULT_DEGREES",
    "DEFAULT_SHIFTS",
    "MAX_SEQUENCES",
    "Grid",
    "Selection",
    "auc_standard_error",
    "default_grid",
    "gkm_grid",
    "select_nested",
    "select_parameters",
]

#: inner folds of the selection
INNER_FOLDS = 3
#: above this many training sequences the inner CV is one split (a third held out)
HOLDOUT_ABOVE = 3000
#: above this many sequences the selection runs on a stratified sample of this size
MAX_SEQUENCES = 5000
#: parameters whose lowest value is a natural bound, not a corner of the grid
NATURAL_LOWER = {"shift": 0, "mismatches": 0}
#: grid parameters that do not change the kernel matrix: consecutive settings
#: that differ only in them share it
SOLVER_PARAMETERS = ("epsilon",)


# --------------------------------------------------------------------------- #
# grid and result
# --------------------------------------------------------------------------- #
@dataclass
class Selection:
    """The outcome of one inner cross-validation.

    Attributes
    ----------
    params : dict
        The chosen kernel parameters and C.
    score : float
        Mean inner figure of the chosen candidate: the ROC AUC of a
        classifier, the Pearson correlation of a regressor (`metric`).
    corner : list of str
        Parameters chosen at an end of their grid beyond which the optimum
        might lie (not at a natural bound such as shift 0): widen the grid.
    grid : Grid
    scores : numpy.ndarray of shape (n_settings, n_C)
        Mean inner AUC of every candidate (NaN for a setting the estimator
        refused, e.g. mismatches with a shift).
    inner : str
        The inner scheme: ``"3-fold"`` or ``"holdout"`` (one split, a third
        held out), ``"by-chromosome ..."`` when its folds hold out whole
        chromosomes.
    best, best_score : dict, float
        The candidate with the highest inner AUC, and that AUC; ``params``
        differs from it when a simpler candidate ties (`ERROR_TOLERANCE`).
    n_sequences : int
        Training sequences the inner CV used (fewer than given above
        `MAX_SEQUENCES`).
    n_held_out : tuple of int
        Positive and negative sequences held out over all inner folds (for
        `auc_standard_error`); for a regressor, all of them and 0.
    metric : {"auc", "pearson"}
        The inner figure: ``"auc"`` for a classifier, ``"pearson"`` for a
        regressor.
    calibration : (float, float) or None
        A classifier's Platt scaling (`poimkit.svm.calibration.platt`) of
        the chosen candidate's inner held-out scores: the calibration of the
        model these parameters give on the training set.
    """

    params: dict
    score: float
    corner: list
    grid: Grid
    scores: np.ndarray
    inner: str
    best: dict = field(default_factory=dict)
    best_score: float = float("nan")
    n_sequences: int = 0
    n_held_out: tuple = (0, 0)
    metric: str = "auc"
    calibration: tuple | None = None

    def to_dict(self, table: bool = False) -> dict:
        """JSON-ready summary of the selection.

        Parameters
        ----------
        table : bool, default=False
            Add every candidate's inner figure.

        Returns
        -------
        dict
        """
        figure = f"inner_{self.metric}"
        out = {
            "params": {k: plain(v) for k, v in self.params.items()},
            figure: round(float(self.score), 6),
            "best": {k: plain(v) for k, v in self.best.items()},
            f"best_{figure}": round(float(self.best_score), 6),
            "corner": list(self.corner),
            "n_sequences": self.n_sequences,
        }
        if table:
            out["table"] = [
                {
                    **{k: plain(v) for k, v in setting.items()},
                    figure: [None if np.isnan(a) else round(float(a), 6) for a in row],
                }
                for setting, row in zip(self.grid.settings(), self.scores, strict=True)
            ]
        return out


# --------------------------------------------------------------------------- #
# selection
# --------------------------------------------------------------------------- #
def _uses_gram(estimator, X) -> bool:
    """Whether candidates are fitted on one kernel matrix of the sequences ``X``.

    Needs a poimkit model that declares ``shares_gram`` (`poimkit.contract`)
    and whose ``_gram_pays(n, letters)`` says so (False: its matrix costs
    more than refitting every candidate).
    """
    if not (isinstance(estimator, SequenceModel) and estimator.shares_gram):
        return False
    return bool(estimator._gram_pays(len(X), sum(len(x) for x in X)))


def _scores(fitted, X) -> np.ndarray:
    """A classifier's decision values, a regressor's predictions."""
    from sklearn.base import is_regressor

    return fitted.predict(X) if is_regressor(fitted) else fitted.decision_function(X)


def _inner_splits(
    y: np.ndarray,
    folds: int,
    random_state: int,
    metric: str = "auc",
    groups: np.ndarray | None = None,
) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """(Stratified) k-fold, or one (stratified) split above `HOLDOUT_ABOVE`.

    With ``groups``, folds of whole groups (`poimkit.svm.folds.group_splits`)
    while there are enough of them, else the random split.
    """
    _check_inner_sizes(y, folds, metric)
    if groups is not None:
        from .folds import group_splits

        split = group_splits(y, groups, folds, random_state, metric == "auc")
        if split is not None:
            if y.size > HOLDOUT_ABOVE:
                return split[:1], "by-chromosome holdout"
            return split, f"by-chromosome {folds}-fold"
    return _random_inner_splits(y, folds, random_state, metric)


def _check_inner_sizes(y: np.ndarray, folds: int, metric: str) -> None:
    """Raise `InputError` if a training set is too small for the inner folds."""
    if metric == "pearson":
        if y.size < 2 * folds:
            raise InputError(
                f"model selection needs at least {2 * folds} sequences in every "
                f"training set, got {y.size}: fix the parameters or give more"
            )
        return
    counts = np.unique(y, return_counts=True)[1]
    if counts.size < 2 or counts.min() < folds:
        raise InputError(
            f"model selection needs at least {folds} sequences of each class in "
            f"every training set, got {counts.tolist()}: fix the parameters "
            "(--no-grid, or --shift and -C) or give more sequences"
        )


def _random_inner_splits(
    y: np.ndarray, folds: int, random_state: int, metric: str
) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The random (stratified) k-fold or holdout of `_inner_splits` (sizes checked)."""
    from sklearn.model_selection import (
        KFold,
        ShuffleSplit,
        StratifiedKFold,
        StratifiedShuffleSplit,
    )

    if metric == "pearson":
        if y.size > HOLDOUT_ABOVE:
            split = ShuffleSplit(1, test_size=1 / folds, random_state=random_state)
            return list(split.split(np.zeros(y.size))), "holdout"
        split = KFold(n_splits=folds, shuffle=True, random_state=random_state)
        return list(split.split(np.zeros(y.size))), f"{folds}-fold"
    if y.size > HOLDOUT_ABOVE:
        splitter = StratifiedShuffleSplit(
            n_splits=1, test_size=1 / folds, random_state=random_state
        )
        return list(splitter.split(np.zeros(y.size), y)), "holdout"
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=random_state)
    return list(splitter.split(np.zeros(y.size), y)), f"{folds}-fold"


def _candidate(estimator, setting: dict):
    """(the estimator with ``setting``, None), or (None, why it refuses it)."""
    from sklearn.base import clone

    from ._base import KernelModelBase

    model = clone(estimator).set_params(**setting)
    if isinstance(model, KernelModelBase):  # others check their parameters in fit
        try:
            model._check_params()
        except InputError as exc:
            return None, exc
    return model, None


def _check_grid(estimator, grid: Grid) -> None:
    known = estimator.get_params()
    unknown = [name for name in [*grid.kernel, "C"] if name not in known]
    if unknown:
        raise InputError(
            f"{type(estimator).__name__} has no parameter {', '.join(unknown)}; "
            f"its parameters are {', '.join(sorted(known))}"
        )


def _take(X, rows: np.ndarray):
    """Rows of an array, or items of a list (sequences of different lengths)."""
    return X[rows] if isinstance(X, np.ndarray) else [X[i] for i in rows]


def _gram_aucs(model, Cs, X, y, K, train, test) -> tuple[list[float], list]:
    """Inner figure on ``test`` of a fit on ``K[train, train]`` per C (one thread).

    Also the held-out scores, one array per C.
    """
    from sklearn.base import clone

    metric = metric_of(model)
    K_train = K[np.ix_(train, train)]
    K_test = K[np.ix_(test, train)]
    aucs, held = [], []
    for C in Cs:
        fitted = clone(model).set_params(C=C)
        fitted._fit_gram(_take(X, train), y[train], K_train.copy())
        rows = K_test[:, fitted._gram_support]
        scores = fitted._decision_gram(_take(X, test), rows)
        aucs.append(held_out_figure(metric, y[test], scores))
        held.append(scores)
    return aucs, held


def _refit_aucs(model, Cs, X, y, train, test, fit_params) -> tuple[list, list]:
    """The same without the Gram protocol: fit from the sequences per C."""
    from sklearn.base import clone

    metric = metric_of(model)
    aucs, held = [], []
    for C in Cs:
        fitted = clone(model).set_params(C=C)
        fitted.fit(_take(X, train), y[train], **fit_params)
        scores = _scores(fitted, _take(X, test))
        aucs.append(held_out_figure(metric, y[test], scores))
        held.append(scores)
    return aucs, held


def _choose(
    scores: np.ndarray,
    grid: Grid,
    inner: str,
    n_held_out: tuple[int, int],
    metric: str = "auc",
) -> Selection:
    """The first candidate in grid order whose inner AUC ties the best.

    Ties: within one standard error of the best AUC (`auc_standard_error`
    for the held-out sequences of all inner folds, ``n_held_out`` positives
    and negatives), or within `ERROR_TOLERANCE` times its error if that is
    more.
    """
    filled = np.nan_to_num(scores, nan=-np.inf)
    best = float(filled.max())
    tolerance = tie_tolerance(best, n_held_out, metric)
    settings = grid.settings()
    k, c = np.unravel_index(np.flatnonzero(filled >= best - tolerance)[0], scores.shape)
    params = {**settings[k], "C": grid.C[c]}
    k_best, c_best = np.unravel_index(np.argmax(filled), scores.shape)
    corner = [  # not a solver parameter (epsilon): its value barely matters
        name
        for name in params
        if name not in SOLVER_PARAMETERS
        and _is_corner(name, params, filled, grid, settings, tolerance)
    ]
    return Selection(
        params,
        float(scores[k, c]),
        corner,
        grid,
        scores,
        inner,
        best={**settings[k_best], "C": grid.C[c_best]},
        best_score=best,
        n_held_out=tuple(int(n) for n in n_held_out),
        metric=metric,
    )


def _is_corner(name, params, filled, grid, settings, tolerance) -> bool:
    """``params[name]`` sits at an open end of its grid and beats its neighbour.

    An open end is the lowest or highest of two or more numeric candidates,
    except a natural lower bound (`NATURAL_LOWER`: shift 0). "Beats" means an
    inner AUC higher than with the next value inwards (the other parameters as
    chosen) by more than the tie tolerance: the optimum may lie beyond.
    """
    candidates = grid.C if name == "C" else grid.kernel[name]
    value = params[name]
    if isinstance(value, bool | np.bool_):
        return False
    numeric = sorted(
        {v for v in candidates if not isinstance(v, bool | np.bool_) and np.isreal(v)}
    )
    if len(numeric) < 2 or value not in (numeric[0], numeric[-1]):
        return False
    if value == numeric[0] and NATURAL_LOWER.get(name) == value:
        return False
    inward = numeric[1] if value == numeric[0] else numeric[-2]

    def score(p: dict) -> float:
        setting = {key: p[key] for key in grid.kernel}
        if setting not in settings or p["C"] not in grid.C:
            return -np.inf
        return filled[settings.index(setting), grid.C.index(p["C"])]

    return score(params) - score({**params, name: inward}) > tolerance


def _workers(n_jobs: int | None) -> int:
    """``n_jobs``, or every core this process may use (`usable_cores`)."""
    from .._machine import usable_cores

    return usable_cores() if n_jobs is None else max(1, int(n_jobs))


def select_nested(
    estimator: ClassifierMixin,
    X: np.ndarray,
    y: np.ndarray,
    grid: Grid,
    train_sets: Sequence[np.ndarray],
    *,
    inner_folds: int = INNER_FOLDS,
    random_state: int = 0,
    n_jobs: int | None = None,
    fit_params: dict | None = None,
    progress: bool | str = False,
    max_sequences: int | None = MAX_SEQUENCES,
    groups: np.ndarray | None = None,
) -> list[Selection]:
    """Choose the parameters on each of several training sets, sharing kernels.

    For nested cross-validation pass the training part of every outer fold
    (and all rows, for the final model): each kernel setting's matrix is
    computed once over ``X`` and every training set, inner fold and C value
    fits on slices of it (see the module's Gram protocol).

    Parameters
    ----------
    estimator : classifier or regressor
        Unfitted template; its parameters outside ``grid`` are kept.
    X : numpy.ndarray of uint8, shape (n, L), or list
        Validated sequences (a list for an estimator that takes sequences of
        different lengths).
    y : numpy.ndarray of shape (n,)
        Binary labels, or a regressor's targets.
    grid : Grid
        Candidates.
    train_sets : sequence of numpy.ndarray of int
        Row indices of ``X``, one selection each.
    inner_folds : int, default=3
        Folds of the inner cross-validation; above `HOLDOUT_ABOVE` sequences
        one stratified split holding out ``1 / inner_folds`` instead.
    random_state : int, default=0
        Seed of the inner splits.
    n_jobs : int, optional
        Threads fitting SVMs at once (default: the usable cores). Estimators
        without the Gram protocol fit one at a time.
    fit_params : dict, optional
        Passed to ``fit`` of an estimator without the Gram protocol.
    progress : bool or str, default=False
        A progress bar over the inner fits (a str: the bar's label).
    max_sequences : int or None, default=MAX_SEQUENCES
        With more sequences than this, select on a stratified random sample
        of this many (seeded; every training set uses its rows in the
        sample): the search costs no more than at this size, while the models
        that are evaluated or kept train on everything. None: never sample.
    groups : numpy.ndarray, optional
        Every row's chromosome (or block): the inner folds then hold out
        whole groups where a training set has enough of them
        (`poimkit.svm.folds.group_splits`), as a genomic outer split does.

    Returns
    -------
    list of Selection
        One per training set, in order.

    Raises
    ------
    InputError
        For a parameter the estimator lacks, a training set with fewer than
        ``inner_folds`` sequences of a class, or a grid the estimator refuses
        entirely.
    """
    from tqdm.auto import tqdm

    _check_grid(estimator, grid)
    metric = metric_of(estimator)
    fit_params = fit_params or {}
    y = np.asarray(y)
    sample = stratified_sample(y, max_sequences, random_state, metric)
    if sample is not None:  # select on a sample: its rows of every training set
        position = np.full(y.size, -1)
        position[sample] = np.arange(sample.size)
        train_sets = [position[np.intersect1d(rows, sample)] for rows in train_sets]
        X, y = _take(X, sample), y[sample]
        groups = None if groups is None else np.asarray(groups)[sample]
    splits, inner, held_out = _inner_plan(
        train_sets, y, groups, inner_folds, random_state, metric
    )
    settings = grid.settings()
    scores = np.full((len(train_sets), len(settings), len(grid.C)), np.nan)
    held_out_scores: list[dict] = [{} for _ in train_sets]  # [t][setting][C]
    gram = _uses_gram(estimator, X)
    workers = _workers(n_jobs) if gram else 1
    refusals = []
    fits = len(settings) * sum(map(len, splits))
    label = progress if isinstance(progress, str) else "model selection"
    K, K_setting = None, None
    with (
        ThreadPoolExecutor(workers) as pool,
        tqdm(
            total=fits, desc=label, unit="fit", disable=not progress, leave=False
        ) as bar,
    ):
        for k, setting in enumerate(settings):
            model, refusal = _candidate(estimator, setting)
            if model is None:
                refusals.append(refusal)
                continue
            kernel_setting = {
                name: value
                for name, value in setting.items()
                if name not in SOLVER_PARAMETERS
            }
            if gram and kernel_setting != K_setting:
                K, K_setting = None, None  # free the last one first
                K, K_setting = model._raw_kernel(X), kernel_setting
            jobs = {}
            for t, folds in enumerate(splits):
                for f, (train, test) in enumerate(folds):
                    if gram:
                        args = (_gram_aucs, model, grid.C, X, y, K, train, test)
                    else:
                        args = (_refit_aucs, model, grid.C, X, y, train, test)
                        args += (fit_params,)
                    jobs[t, f] = pool.submit(*args)
            for t, folds in enumerate(splits):
                results = [jobs[t, f].result() for f in range(len(folds))]
                scores[t, k] = np.mean([aucs for aucs, _ in results], axis=0)
                if metric == "auc":  # every C's held-out scores, for calibration
                    held_out_scores[t][k] = [
                        np.concatenate([held[c] for _, held in results])
                        for c in range(len(grid.C))
                    ]
                bar.update(len(folds))  # grid cells: C values fit along
    del K
    if len(refusals) == len(settings):
        raise InputError(
            f"{type(estimator).__name__} refused every kernel setting of the grid "
            f"{grid.to_dict()}, e.g.: {refusals[0]}"
        )
    chosen = [
        _choose(scores[t], grid, inner[t], held_out[t], metric)
        for t in range(len(train_sets))
    ]
    for t, (selection, rows) in enumerate(zip(chosen, train_sets, strict=True)):
        selection.n_sequences = int(np.asarray(rows).size)
        if metric == "auc":
            tested = np.concatenate([b for _, b in splits[t]])
            positive = y[tested] == np.unique(y)[1]
            selection.calibration = _calibration(
                held_out_scores[t], selection.params, grid, positive
            )
    return chosen


def _inner_plan(train_sets, y, groups, inner_folds, random_state, metric) -> tuple:
    """Every training set's inner folds (record rows), scheme and held-out counts.

    Returns ``(splits, inner, held_out)``: per training set its inner folds
    as sorted ``(train, test)`` rows of ``y``, the scheme in words, and the
    held-out records' ``(positive, negative)`` counts (all, for targets).
    """
    splits, inner, held_out = [], [], []
    for rows in train_sets:
        rows = np.asarray(rows)
        part = None if groups is None else np.asarray(groups)[rows]
        folds, scheme = _inner_splits(y[rows], inner_folds, random_state, metric, part)
        splits.append([(np.sort(rows[a]), np.sort(rows[b])) for a, b in folds])
        inner.append(scheme)
        test = np.concatenate([rows[b] for _, b in folds])
        positive = test.size
        if metric == "auc":
            positive = int((y[test] == np.unique(y)[1]).sum())
        held_out.append((positive, test.size - positive))
    return splits, inner, held_out


def _calibration(held: dict, params: dict, grid: Grid, positive: np.ndarray):
    """Platt scaling of the chosen candidate's inner held-out scores, or None."""
    from .calibration import platt

    setting = {name: params[name] for name in grid.kernel}
    k = grid.settings().index(setting)
    scores = held[k][grid.C.index(params["C"])]
    if not np.isfinite(scores).all():
        return None
    return platt(scores, positive)


def stratified_sample(
    y: np.ndarray, max_sequences: int | None, random_state: int, metric: str = "auc"
) -> np.ndarray | None:
    """Sorted rows of a random sample of ``max_sequences``, or None if all fit.

    Parameters
    ----------
    y : numpy.ndarray
        Labels (the sample keeps their proportions) or targets.
    max_sequences : int or None
        The sample's size; None: never sample.
    random_state : int
        Seed of the draw.
    metric : {"auc", "pearson"}
        ``"pearson"``: targets, a plain random sample.

    Returns
    -------
    numpy.ndarray of int or None
    """
    from sklearn.model_selection import StratifiedShuffleSplit

    if max_sequences is None or y.size <= max_sequences:
        return None
    rng = np.random.default_rng(random_state)
    if metric == "pearson":
        return np.sort(rng.choice(y.size, max_sequences, replace=False))
    left_out = y.size - max_sequences
    if left_out < np.unique(y).size:  # too few left out to keep the shares
        return np.delete(np.arange(y.size), rng.choice(y.size, left_out, replace=False))
    split = StratifiedShuffleSplit(
        n_splits=1, train_size=max_sequences, random_state=random_state
    )
    rows, _ = next(split.split(np.zeros(y.size), y))
    return np.sort(rows)


def select_parameters(
    estimator: ClassifierMixin,
    X: np.ndarray,
    y: np.ndarray,
    grid: Grid,
    **kwargs: object,
) -> Selection:
    """Choose the parameters of ``estimator`` on all of ``X`` by inner CV.

    Parameters
    ----------
    estimator, X, y, grid
        As in `select_nested`.
    **kwargs
        ``inner_folds``, ``random_state``, ``n_jobs``, ``fit_params``,
        ``progress`` of `select_nested`.

    Returns
    -------
    Selection

    Examples
    --------
    >>> from poimkit import WDKernelSVC
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=40, n_neg=40, length=20, mean=8, sd=2,
    ...                     random_state=0)
    >>> chosen = select_parameters(WDKernelSVC(degree=6), X, y,
    ...                            Grid({"shift": (0, 2)}, (0.1, 1.0)))
    >>> sorted(chosen.params), chosen.inner
    (['C', 'shift'], '3-fold')
    """
    rows = np.arange(np.asarray(y).shape[0])
    return select_nested(estimator, X, y, grid, [rows], **kwargs)[0]
