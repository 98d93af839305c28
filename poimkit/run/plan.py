"""What a run trains, decided once from the options and the data (`RunPlan`).

`make_plan` resolves the options for the data (`resolve_kernel`,
`resolve_solver`), lists what the inner cross-validation compares
(`search_families`), checks the folds and the kernel solver's memory, and
builds the unfitted model of every family; cross-validation, selection and
the final fit (`poimkit.run.crossval`) take the plan as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .data import LabeledData, check_folds
from .kernel_memory import check_kernel_size
from .options import (
    RunOptions,
    resolve_kernel,
    resolve_scale,
    resolve_solver,
    resolve_strands,
    search_families,
)
from .registry import KERNEL_ONLY, contender_family, family, family_of

if TYPE_CHECKING:
    from .results import CVResult


@dataclass(frozen=True)
class RunPlan:
    """The resolved settings of one training on one data set.

    Attributes
    ----------
    options : RunOptions
        The options as resolved for the data: ``kernel`` "wd", "gkm",
        "cnn", or "auto" when the inner CV chooses the family; ``solver`` decided
        (`resolve_solver`).
    n, length : int
        Number of sequences and their (typical) length.
    families : list of (str, RunOptions, Grid) or None
        What the inner CV compares (`search_families`); None when nothing
        is selected.
    templates : dict
        The unfitted model of every family that can be trained, by name.
    contender : RunPlan or None
        The CNN's plan when ``kernel="auto"`` also cross-validates it in the
        same folds (`contender_plan`), else None.
    """

    options: RunOptions
    n: int
    length: int
    families: list | None
    templates: dict
    contender: RunPlan | None = None

    @property
    def selects(self) -> bool:
        """Whether an inner cross-validation chooses parameters or family."""
        return self.families is not None

    def candidates(self) -> list[tuple]:
        """``(family, unfitted model, grid or None)`` of every model it may train.

        Returns
        -------
        list of (str, estimator, Grid or None)
            The grid the inner CV searches; None where the model's own
            parameters are trained (`poimkit.run.data.largest_models`).
        """
        if self.families is None:
            return [(name, model, None) for name, model in self.templates.items()]
        return [(name, self.templates[name], grid) for name, _, grid in self.families]


@dataclass
class TrainedModel:
    """What `train_model` returns.

    Attributes
    ----------
    model : fitted estimator
        The final model, fitted on all sequences.
    chosen : dict
        Its parameters (`train_final`).
    selection : dict or None
        The selection (`cross_validate`), None if nothing was selected.
    cv : CVResult
        `cross_validate`'s result, `CVResult.none` without cross-validation.
    plan : RunPlan
        The plan it was trained by: the CNN's (``plan.contender``) if
        ``kernel="auto"`` compared it and kept it (`poimkit.run.families`).
    sample : LabeledData or None
        The records the cross-validation ran on (and a run finds its motifs
        in): all of them, or a stratified sample (`poimkit.run.data.run_sample`).
    """

    model: Any
    chosen: dict
    selection: dict | None
    cv: CVResult
    plan: RunPlan
    sample: LabeledData | None = None


def make_plan(
    data: LabeledData, options: RunOptions, model: Any = None, *, check: bool = True
) -> RunPlan:
    """Resolve ``options`` for ``data`` once; refuse folds or memory that fail.

    Parameters
    ----------
    data : LabeledData
        The labeled sequences.
    options : RunOptions
        The settings as given (``kernel`` and ``solver`` may be "auto").
    model : estimator, optional
        Unfitted template of a fixed family (default: the model of
        `poimkit run`); selected parameters override its own. Not used with
        ``kernel="auto"``: each family's template is the model of `poimkit run`.
    check : bool
        Raise `InputError` now if a class is too small for the folds
        (`check_folds`) or the kernel matrices would not fit in memory
        (`check_kernel_size`).

    Returns
    -------
    RunPlan
    """
    n, length = int(data.y.size), data.length
    given = options
    options = resolve_kernel(options, data.lengths_differ)
    options = resolve_scale(options, n)
    options = resolve_solver(options, n, length)
    options = resolve_strands(options, _unoriented(data))
    families = search_families(options, length, n)
    if check:
        check_folds(data, options, families)
        check_kernel_size(n, options.solver, family_of(options))
    names = [options.kernel] if families is None else [f for f, _, _ in families]
    templates = {name: _template(options, name, model, length) for name in names}
    contender = contender_plan(data, given) if given.kernel == "auto" else None
    return RunPlan(options, n, length, families, templates, contender)


def contender_plan(data: LabeledData, options: RunOptions) -> RunPlan | None:
    """The CNN's plan beside ``kernel="auto"``'s SVM, or None if it is not trained.

    The CNN is cross-validated too when there is a cross-validation to compare
    it in, torch is installed and there are at least ``options.cnn_min_records``
    records (`poimkit.run.options.CNN_MIN_RECORDS`) and no more than
    ``options.cv_sample``: above it the cross-validation takes a sample, and a
    CNN kept would train on every record (on a CPU, hours at 10^5 records). The
    kernels' own options (C, degree, solver, strands...) do not apply to it.

    Parameters
    ----------
    data : LabeledData
        The labeled sequences.
    options : RunOptions
        The settings as given (``kernel`` "auto").

    Returns
    -------
    RunPlan or None
    """
    from importlib.util import find_spec

    least = options.cnn_min_records
    contender = contender_family()
    n, most = data.y.size, options.cv_sample
    if not options.cv or least is None or n < least or contender is None:
        return None
    if most and n > most:
        return None
    if find_spec("torch") is None:
        return None
    unset = dict.fromkeys(KERNEL_ONLY)
    return make_plan(data, replace(options, kernel=contender, solver="auto", **unset))


def _unoriented(data: LabeledData) -> bool:
    """Whether the records are windows of peaks without strands."""
    return any(
        item.get("role") == "peaks" and item.get("stranded") is False
        for item in data.inputs
    )


def _template(options: RunOptions, family: str, model: Any, length: int):
    """The unfitted model of ``family``: ``model`` if given for a fixed family."""
    if options.kernel != "auto" and model is not None:
        return model
    return _estimator(replace(options, kernel=family), length)


def _estimator(options: RunOptions, length: int):
    """The unfitted model of `poimkit run`; selected parameters at their defaults."""
    defaults = options.defaults()
    params = {k: defaults[k] if v is None else v for k, v in options.fixed().items()}
    return family(options.kernel).estimator(options, params)
