"""What a run trains, decided once from the options and the data (`RunPlan`).

`make_plan` resolves the options for the data (`resolve_kernel`,
`resolve_solver`), lists what the inner cross-validation compares
(`search_families`), checks the folds and the kernel solver's memory, and
builds the unfitted model of every family; cross-validation, selection and
the final fit (`poimkit.run.crossval`) take the plan as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .data import LabeledData, check_folds
from .options import (
    RunOptions,
    check_kernel_size,
    resolve_kernel,
    resolve_solver,
    resolve_strands,
    search_families,
)


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
    """

    options: RunOptions
    n: int
    length: int
    families: list | None
    templates: dict

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
    options = resolve_kernel(options, data.lengths_differ)
    options = resolve_solver(options, n, length)
    options = resolve_strands(options, _unoriented(data))
    families = search_families(options, length, n)
    if check:
        check_folds(data, options, families)
        check_kernel_size(n, options)
    names = [options.kernel] if families is None else [f for f, _, _ in families]
    templates = {name: _template(options, name, model, length) for name in names}
    return RunPlan(options, n, length, families, templates)


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
    extra = {}
    defaults = options.defaults()
    params = {k: defaults[k] if v is None else v for k, v in options.fixed().items()}
    if options.kernel == "cnn":
        from ..torch import CNNClassifier

        return CNNClassifier(
            n_threads=options.threads, random_state=options.seed, **params
        )
    if options.kernel == "gkm":
        from ..svm.gkm import GkmSVC

        return GkmSVC(n_threads=options.threads, solver=options.solver, **params)
    if options.solver == "linear":
        # POIMs need exact weights: the defaults index the present k-mers
        # exactly (`resolve_solver` kept the degree within the memory budget)
        extra["verbose"] = False
    from ..svm import make_model

    # solver "auto" here: kernel="auto" on data the WD kernel solver takes
    solver = "kernel" if options.solver == "auto" else options.solver
    return make_model(solver, n_threads=options.threads, **params, **extra)
