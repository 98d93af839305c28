"""The model families a run trains: one registry, asked instead of comparing names.

A family is a `Family`: its name (the value of ``kernel``, ``--kernel``), its
words, its estimators (imported when used), its own options with their
defaults, whether its k-mers count anywhere (position-free: records of any
lengths, kept whole as rows), what the inner cross-validation searches and how
the solver is chosen. `poimkit.run` asks `family` for all of that and compares
no names. The built-in families are `WDFamily` (the positional WD / WDS
kernel), `GkmFamily` (the gapped k-mer kernel) and `CNNFamily` (the torch
extra); `register` adds one (docs/contributing.md, "Adding a model family").

Light to import: the CLI reads the families' defaults for its help from here.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from importlib import import_module
from typing import Any, ClassVar

from .._validation import check_int
from ..errors import InputError
from ..param_docs import parameters_from
from .kernel_memory import kernel_bytes, kernel_memory_limit

__all__ = [
    "CNNFamily",
    "Family",
    "GkmFamily",
    "KERNEL_MAX_SEQUENCES",
    "SolverNotice",
    "WDFamily",
    "family",
    "family_names",
    "family_of",
    "family_of_model",
    "contender_family",
    "family_of_parameters",
    "find_family",
    "kernel_too_large",
    "position_free_family",
    "register",
    "searched_families",
]


#: the parameters of the families' hooks, documented once (`fill_doc`)
_HOOK_DOCS = {
    "options": "options : RunOptions\n    The run's options (``kernel`` this family).",
    "n": "n : int\n    Number of records.",
    "length": "length : int or None\n    The records' (typical) length.",
    "params": "params : dict\n    The estimator's parameters, defaults filled.",
    "chosen": "chosen : dict\n    A fitted model's parameters (``chosen``).",
    "task": 'task : {"classification", "regression"}\n    Which estimator.',
    "threads": "threads : int or None\n    Threads of the kernels.",
    "solver": 'solver : str\n    The resolved solver ("kernel", "linear" or "auto").',
    "given": "given : dict\n    Parameters the user set (the estimator's names).",
    "select": "select : bool\n    Whether parameters not given are searched.",
}

#: ``@_hook("options", ...)``: a hook's Parameters section from `_HOOK_DOCS`
_hook = parameters_from(_HOOK_DOCS)


class Family:
    """One model family: its estimators, options, defaults and searches.

    Subclass it, set the class attributes and override what differs from a
    kernel SVM with fixed parameters, then `register` an instance. Every hook
    takes the run's `poimkit.run.options.RunOptions` (``kernel`` set to this
    family) and returns without changing it.

    Attributes
    ----------
    name : str
        The value of ``kernel`` that names it.
    title : str
        The family in words (the report).
    short : str
        The name of its models (the report's model column).
    classifier, regressor : str or None
        Its estimators as ``"module:Class"`` (imported when first used).
    own_options : dict of str to str
        The `RunOptions` fields of this family only, and the estimator
        parameter each sets (``gkm_l`` sets ``l``).
    shared_options : tuple of str
        The `RunOptions` fields it shares with other families, each setting
        the estimator parameter of its name (``C``).
    unset : dict
        What its models use for a shared option left unset and not selected
        (the report).
    defaults : dict
        The estimator parameters neither given nor selected.
    position_free : bool
        Its k-mers count anywhere: it takes records of any lengths and its
        POIMs are flat; ``kernel="auto"`` keeps it alone for records of
        different lengths.
    kernel_svm : bool
        A kernel SVM: it takes ``C``, ``solver``, ``grid`` and
        ``reverse_complement``.
    searched : bool
        ``kernel="auto"`` compares it by the inner cross-validation, in the
        order of registration (first wins a tie).
    models : tuple of str
        The class names of its fitted models (`family_of_model`).
    layout : {"matrix", "rows", "either"}
        How its records are held: one ``(n, L)`` matrix (a positional
        kernel), always rows of any lengths, or rows only where the lengths
        differ.
    trains_on_copies : bool
        It trains on moved copies of peak windows (`poimkit.run.genome`).
    streams : bool
        Its linear solver streams records and takes a Dask client.
    too_large : str
        What to do when its kernel matrices would not fit (the error's end).
    contender : bool
        ``kernel="auto"`` also cross-validates it beside the kernel SVM on
        enough records, and keeps the better (`poimkit.run.families`).
    reads : str
        How a position-free model reads a record, in words (the report; HTML).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    short: ClassVar[str]
    classifier: ClassVar[str]
    regressor: ClassVar[str | None] = None
    own_options: ClassVar[dict[str, str]] = {}
    shared_options: ClassVar[tuple[str, ...]] = ("C",)
    unset: ClassVar[dict[str, Any]] = {}
    defaults: ClassVar[dict[str, Any]] = {"C": 1.0}
    position_free: ClassVar[bool] = False
    kernel_svm: ClassVar[bool] = True
    searched: ClassVar[bool] = True
    models: ClassVar[tuple[str, ...]] = ()
    layout: ClassVar[str] = "either"
    trains_on_copies: ClassVar[bool] = False
    streams: ClassVar[bool] = False
    too_large: ClassVar[str] = "use fewer sequences"
    contender: ClassVar[bool] = False
    reads: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @_hook("task")
    def estimator_class(self, task: str = "classification") -> type:
        """The classifier (or, for ``task="regression"``, the regressor) class.

        %(parameters)s
        """
        path = self.classifier if task == "classification" else self.regressor
        if path is None:
            raise InputError(f"the {self.name} family has no regressor")
        module, name = path.split(":")
        return getattr(import_module(module), name)

    @_hook("options")
    def check(self, options: Any) -> None:
        """Raise `InputError` for options this family cannot train with.

        %(parameters)s
        """

    @_hook("options")
    def takes_strands(self, options: Any) -> bool:
        """Whether ``reverse_complement`` is an option of its models here.

        %(parameters)s
        """
        return self.kernel_svm

    @_hook("options")
    def selects(self, options: Any) -> bool:
        """Whether parameters left at None are chosen by an inner CV.

        %(parameters)s
        """
        if not self.kernel_svm:
            return False
        return True if options.grid is None else bool(options.grid)

    @_hook("options")
    def fixed(self, options: Any) -> dict:
        """The estimator parameters the user set (None: to select, or default).

        %(parameters)s
        """
        fixed = dict.fromkeys(self.defaults)  # its parameters no option sets
        fixed.update({param: getattr(options, name) for name, param in self._own()})
        if not self.selects(options):
            fixed = {k: self.defaults[k] if v is None else v for k, v in fixed.items()}
        return fixed

    def _own(self) -> list[tuple[str, str]]:
        """(option, parameter) of its own options, then of the shared ones."""
        return [*self.own_options.items(), *((n, n) for n in self.shared_options)]

    @_hook("options", "length", "n")
    def grid(self, options: Any, length: int, n: int):
        """The candidates of the inner CV for ``n`` records of ``length``.

        %(parameters)s
        """
        from ..svm.grids import DEFAULT_C, Grid

        fixed = {k: v for k, v in self.fixed(options).items() if v is not None}
        kernel = {k: (fixed.get(k, v),) for k, v in self.defaults.items() if k != "C"}
        return Grid(kernel, (fixed["C"],) if "C" in fixed else DEFAULT_C)

    @_hook("options", "length")
    def takes_length(self, options: Any, length: int) -> bool:
        """Whether the inner CV may try it on records of ``length``.

        %(parameters)s
        """
        return True

    @_hook("options", "n", "length")
    def resolve_solver(self, options: Any, n: int, length: int) -> Any:
        """The options with ``solver="auto"`` decided for ``n`` records.

        %(parameters)s
        """
        return options

    @_hook("options", "params")
    def estimator(self, options: Any, params: dict) -> Any:
        """The unfitted classifier of a run with ``params`` (defaults filled).

        %(parameters)s
        """
        return self.estimator_class()(n_threads=options.threads, **params)

    @_hook("chosen")
    def model_name(self, chosen: dict) -> str:
        """The name of a fitted model with parameters ``chosen`` (the report).

        %(parameters)s
        """
        return self.short

    @property
    def trained_name(self) -> str:
        """What the report calls its models: "SVM" for a kernel SVM."""
        return "SVM" if self.kernel_svm else self.short

    @_hook("threads", "solver")
    def regressor_template(self, threads: int | None, solver: str) -> Any:
        """The unfitted regressor of a regression run.

        %(parameters)s
        """
        return self.estimator_class("regression")(n_threads=threads)

    @_hook("given", "length", "select", "solver")
    def regression_kernel(
        self, given: dict, length: int | None, select: bool, solver: str
    ) -> dict:
        """The kernel parameters a regression searches (C and epsilon aside).

        %(parameters)s
        """
        own = {k: given[k] for k in self.defaults if k != "C" and k in given}
        if not select:
            own = {**{k: v for k, v in self.defaults.items() if k != "C"}, **own}
        return {k: (v,) for k, v in own.items()}

    @_hook("solver")
    def searches_regression(self, solver: str) -> bool:
        """Whether a regression searches its parameters with ``solver``.

        %(parameters)s
        """
        return True

    @_hook("n", "solver")
    def refits_linear(self, n: int, solver: str) -> bool:
        """Whether every candidate on ``n`` records is refitted by a linear solver.

        %(parameters)s
        """
        return False

    @_hook("chosen")
    def describe(self, chosen: dict) -> str:
        """The fitted model with parameters ``chosen`` in words (the report).

        %(parameters)s
        """
        values = ", ".join(f"{k} = {v}" for k, v in chosen.items())
        return f"A {self.short} model ({values}),"


#: above this many sequences ``solver="auto"`` is the linear solver: the kernel
#: solver's time grows with n**2 to n**3 and its memory with n**2 (measured in
#: benchmarks/RESULTS.md)
KERNEL_MAX_SEQUENCES = 20_000


class SolverNotice(UserWarning):
    """The WD family chose the linear solver because the data are large."""


#: the WD family's parameters neither given nor selected
WD_DEFAULTS = {"degree": 20, "shift": 0, "C": 1.0}
#: the same for the gapped k-mer family
GKM_DEFAULTS = {"l": 11, "k": 7, "reverse_complement": True, "C": 1.0}
#: the CNN's settings: never searched
CNN_DEFAULTS = {"filters": 64, "layers": 6, "epochs": 30, "max_time": None}


class WDFamily(Family):
    """The positional WD / WDS kernel (`WDKernelSVC`; `WDLinearSVC` for many)."""

    name = "wd"
    title = "the positional WD / WDS kernel"
    short = "WD"
    classifier = "poimkit.svm.wd:WDKernelSVC"
    regressor = "poimkit.svm.wd:WDKernelSVR"
    own_options = {"degree": "degree", "shift": "shift", "mismatches": "mismatches"}
    shared_options = ("reverse_complement", "C")
    defaults = WD_DEFAULTS
    unset = {"mismatches": 0, "reverse_complement": False}
    layout = "matrix"
    trains_on_copies = True
    streams = True
    too_large = (
        "use --solver linear (the WD kernel in feature space) or fewer sequences"
    )
    models = ("WDKernelSVC", "WDLinearSVC", "WDKernelSVR", "WDLinearSVR")

    def check(self, options: Any) -> None:
        """The linear solver has no mismatches and reads one strand."""
        if options.solver != "linear":
            return
        given = [
            name
            for name in ("mismatches", "reverse_complement")
            if getattr(options, name)
        ]
        if given:
            raise InputError(
                f"{', '.join(given)}: option(s) of the WD kernel solver "
                "(WDKernelSVC; solver='kernel', CLI: --solver kernel); the "
                "linear solver (WDLinearSVC) has no mismatches and one strand"
            )

    def takes_strands(self, options: Any) -> bool:
        """Not with the linear solver (one strand)."""
        return options.solver != "linear"

    def selects(self, options: Any) -> bool:
        """Not with the linear solver by default: its fits share no kernel matrix."""
        if options.grid is not None:
            return bool(options.grid)
        return options.solver != "linear"

    def fixed(self, options: Any) -> dict:
        """Degree, shift and C; mismatches and strands where the solver has them."""
        fixed = {"degree": options.degree, "shift": options.shift, "C": options.C}
        for name in ("mismatches", "reverse_complement"):
            # the linear solver has neither (`check` refuses them but 0/off)
            if getattr(options, name) is not None and options.solver != "linear":
                fixed[name] = getattr(options, name)
        if options.solver == "linear" and options.degree is None:
            # exact weights: never searched (`resolve_solver` sets it for the data)
            fixed["degree"] = WD_DEFAULTS["degree"]
        if not self.selects(options):
            fixed = {k: WD_DEFAULTS[k] if v is None else v for k, v in fixed.items()}
        return fixed

    def grid(self, options: Any, length: int, n: int):
        """`poimkit.svm.grids.default_grid` less what the options fix."""
        from ..svm.grids import default_grid

        return default_grid(length, self.fixed(options))

    def resolve_solver(self, options: Any, n: int, length: int) -> Any:
        """The kernel solver unless the data are too many for it (`_wd_solver`)."""
        return _wd_solver(options, n, length)

    def estimator(self, options: Any, params: dict) -> Any:
        """`WDKernelSVC`, or `WDLinearSVC` for the linear solver."""
        from ..svm import make_model

        # POIMs need exact weights: the linear solver's defaults index the
        # present k-mers exactly (`resolve_solver` kept the degree in budget)
        extra = {"verbose": False} if options.solver == "linear" else {}
        # solver "auto" here: kernel="auto" on data the WD kernel solver takes
        solver = "kernel" if options.solver == "auto" else options.solver
        return make_model(solver, n_threads=options.threads, **params, **extra)

    def regressor_template(self, threads: int | None, solver: str) -> Any:
        """`WDKernelSVR`, or `WDLinearSVR` for the linear solver."""
        from ..svm import WDKernelSVR, WDLinearSVR

        return (WDLinearSVR if solver == "linear" else WDKernelSVR)(n_threads=threads)

    def regression_kernel(
        self, given: dict, length: int | None, select: bool, solver: str
    ) -> dict:
        """`poimkit.svm.grids.default_grid`'s; degree and shift fixed if linear."""
        from ..svm.grids import default_grid

        if solver == "linear":
            own = {k: given.get(k, WD_DEFAULTS[k]) for k in ("degree", "shift")}
            return {k: (v,) for k, v in own.items()}
        names = ("degree", "shift", "mismatches", "reverse_complement")
        own = {key: given[key] for key in names if key in given}
        if not select:
            own = {**{k: WD_DEFAULTS[k] for k in ("degree", "shift")}, **own}
        return default_grid(length, own).kernel

    def searches_regression(self, solver: str) -> bool:
        """Not with the linear solver (its fits share no kernel matrix)."""
        return solver != "linear"

    def model_name(self, chosen: dict) -> str:
        """WDS for a shift above 0."""
        return "WDS" if chosen.get("shift") else "WD"

    def describe(self, chosen: dict) -> str:
        """``A WDS (shift 4)-kernel SVM of degree 20, C = 1,``."""
        kind = f"WDS (shift {chosen['shift']})" if chosen["shift"] else "WD"
        extras = []
        if chosen.get("mismatches"):
            extras.append(f"{chosen['mismatches']} mismatch(es)")
        if chosen.get("reverse_complement"):
            extras.append("both strands")
        extra = f" ({', '.join(extras)})" if extras else ""
        degree = chosen["degree"]
        return f"A {kind}-kernel SVM{extra} of degree {degree}, C = {chosen['C']},"


def kernel_too_large(n: int) -> str | None:
    """Why ``n`` sequences are too many for the WD kernel solver, or None.

    Over `KERNEL_MAX_SEQUENCES`, or kernel matrices over
    `poimkit.run.kernel_memory.kernel_memory_limit`.

    Parameters
    ----------
    n : int
        Number of sequences.

    Returns
    -------
    str or None
        The reason in words (e.g. "more than 20000").
    """
    if n > KERNEL_MAX_SEQUENCES:
        return f"more than {KERNEL_MAX_SEQUENCES}"
    if kernel_bytes(n) > kernel_memory_limit():
        return (
            f"its matrices would need {kernel_bytes(n) / 1024**3:.0f} GiB, over "
            f"{kernel_memory_limit() / 1024**3:.0f} GiB"
        )
    return None


def _wd_solver(options: Any, n: int, length: int) -> Any:
    """The WD kernel's solver (and degree) for ``n`` sequences of ``length``.

    For ``kernel="auto"`` it stays "auto" where the WD model takes the kernel
    solver (each family then decides, `poimkit.run.plan.make_plan`). For the
    WD kernel auto is the kernel solver unless the data are too many
    for it (over `KERNEL_MAX_SEQUENCES`, or its matrices over `kernel_memory_limit`) and
    the linear solver can fit the model (the WD kernel without mismatches or
    strands); then the linear one, with a one-line notice. A linear model's
    degree, if not given, is the default degree (20) if the exact table of
    the k-mers present in ``n`` sequences fits the linear solver's memory
    budget (`poimkit.svm.linear.table.estimate_train_bytes`), and otherwise
    the largest that fits, with a notice, so that its POIMs can be computed;
    a given degree that does not fit is an error.
    """
    from ..svm.linear.table import (
        MEMORY_FRACTION,
        estimate_train_bytes,
        largest_fitting_degree,
        memory_budget,
    )

    solver = options.solver
    linear_fits = not options.mismatches and not options.reverse_complement
    too_large = kernel_too_large(n)
    if solver == "auto":
        solver = "linear" if too_large and linear_fits else "kernel"
    degree = options.degree
    if solver == "linear":
        # POIMs need exact weights: the table of the present k-mers must fit
        wanted = WD_DEFAULTS["degree"] if degree is None else degree
        shift = options.shift or 0
        budget = memory_budget()
        need = estimate_train_bytes(n, length, wanted, shift)
        fits = largest_fitting_degree(n, length, wanted, shift, budget)
        why = (
            f"the exact k-mer table of degree {wanted} on {n} sequences of length "
            f"{length} needs up to {need / 2**30:.1f} GiB, over the linear "
            f"solver's budget of {budget / 2**30:.1f} GiB ({MEMORY_FRACTION:.0%} "
            "of the RAM)"
        )
        if need > budget and degree is not None:
            raise InputError(
                f"{why}: its POIMs need exact weights; use --degree {fits} or less, "
                "or fewer sequences"
            )
        if need > budget:
            degree = fits
            warnings.warn(
                SolverNotice(f"{why}: using degree {degree} (exact POIMs)"),
                stacklevel=2,
            )
        degree = wanted if degree is None else degree
    if solver == "linear" and options.solver == "auto":
        warnings.warn(
            SolverNotice(
                f"{n} sequences are too many for the kernel solver ({too_large}): "
                f"using the linear solver, degree {degree} (choose with --solver, "
                "--degree)"
            ),
            stacklevel=2,
        )
    if options.kernel == "auto" and options.solver == "auto" and solver == "kernel":
        # both families stay open: the WD model takes the kernel solver, the
        # gkm model decides for itself (resolved again once a family is chosen)
        solver = "auto"
    return replace(options, solver=solver, degree=degree)


class GkmFamily(Family):
    """The position-free gapped k-mer kernel (`GkmSVC`, LS-GKM's model)."""

    name = "gkm"
    title = "the position-free gapped k-mer kernel"
    short = "gkm"
    classifier = "poimkit.svm.gkm:GkmSVC"
    regressor = "poimkit.svm.gkm:GkmSVR"
    own_options = {"gkm_l": "l", "gkm_k": "k"}
    shared_options = ("reverse_complement", "C")
    defaults = GKM_DEFAULTS
    position_free = True
    models = ("GkmSVC", "GkmSVR")
    layout = "rows"
    reads = "gapped k-mers, <span class='mono'>GkmSVC</span>"
    too_large = (
        "use --solver linear (the gkm kernel through the l-mer table, no matrix) "
        "or --solver auto"
    )

    def check(self, options: Any) -> None:
        """Its l and k in range, no WD option, an l-mer table the solver holds."""
        check_int(options.gkm_l, "gkm_l", 1, 20)
        check_int(options.gkm_k, "gkm_k", 1, options.gkm_l)
        given = [
            name for name in WDFamily.own_options if getattr(options, name) is not None
        ]
        if given:
            raise InputError(
                f"{', '.join(given)}: option(s) of the WD kernel, not of "
                f"kernel={self.name!r}"
            )
        from ..svm.gkm import MAX_LMER_TABLE

        if options.solver == "linear" and options.gkm_l > MAX_LMER_TABLE:
            raise InputError(
                f"kernel={self.name!r} with solver='linear' needs gkm_l <= "
                f"{MAX_LMER_TABLE} (an l-mer table of 4**l numbers), got "
                f"{options.gkm_l}"
            )

    def grid(self, options: Any, length: int, n: int):
        """`poimkit.svm.grids.gkm_grid`: fewer C where the linear solver refits."""
        from ..svm.gkm import GkmSVC
        from ..svm.selection import MAX_SEQUENCES, gkm_grid

        model = GkmSVC(l=options.gkm_l, k=options.gkm_k, solver=options.solver)
        n = min(n, MAX_SEQUENCES)
        return gkm_grid(self.fixed(options), linear=not model._gram_pays(n, n * length))

    def takes_length(self, options: Any, length: int) -> bool:
        """Records at least as long as its l-mers."""
        return length >= options.gkm_l

    def resolve_solver(self, options: Any, n: int, length: int) -> Any:
        """`GkmSVC`'s own choice for ``n`` records: one loss for all fits."""
        if options.solver != "auto":
            return options
        from ..svm.gkm import GkmSVC

        solver = GkmSVC(l=options.gkm_l, k=options.gkm_k)._solver_for(n)
        return replace(options, solver=solver)

    def estimator(self, options: Any, params: dict) -> Any:
        """`GkmSVC` with the run's solver."""
        cls = self.estimator_class()
        return cls(n_threads=options.threads, solver=options.solver, **params)

    def regressor_template(self, threads: int | None, solver: str) -> Any:
        """`GkmSVR` with the run's solver (auto: its own choice)."""
        return self.estimator_class("regression")(
            n_threads=threads, solver=_gkm_solver(solver)
        )

    def regression_kernel(
        self, given: dict, length: int | None, select: bool, solver: str
    ) -> dict:
        """`poimkit.svm.grids.gkm_grid`'s strands; l and k fixed."""
        from ..svm.grids import gkm_grid

        names = ("l", "k", "reverse_complement")
        own = {k: given[k] for k in names if k in given}
        if not select:
            own = {**GKM_DEFAULTS, **own}
        return gkm_grid(own).kernel

    def refits_linear(self, n: int, solver: str) -> bool:
        """Whether `GkmSVR` takes its linear solver for ``n`` records."""
        model = self.estimator_class("regression")(solver=_gkm_solver(solver))
        return model._solver_for(n) == "linear"

    def describe(self, chosen: dict) -> str:
        """``A position-free gapped k-mer SVM (l = 11, k = 7, ...), C = 1,``."""
        strands = "both strands" if chosen["reverse_complement"] else "one strand"
        return (
            f"A position-free gapped k-mer SVM (l = {chosen['l']}, k = "
            f"{chosen['k']}, {strands}), C = {chosen['C']},"
        )


def _gkm_solver(solver: str) -> str:
    """A run's solver as `GkmSVC` takes it ("auto": its own choice)."""
    return solver if solver in ("kernel", "linear") else "auto"


class CNNFamily(Family):
    """A dilated residual CNN (`poimkit.torch.CNNClassifier`; the torch extra)."""

    name = "cnn"
    title = "a dilated residual CNN"
    short = "CNN"
    classifier = "poimkit.torch:CNNClassifier"
    own_options = {
        "cnn_filters": "filters",
        "cnn_layers": "layers",
        "cnn_epochs": "epochs",
        "cnn_max_time": "max_time",
    }
    shared_options = ()
    defaults = CNN_DEFAULTS
    position_free = True
    kernel_svm = False
    searched = False
    contender = True
    models = ("CNNClassifier",)
    reads = (
        "a CNN that reads every window alike and pools over the record, on both "
        "strands; its POIMs are sampled: each k-mer inserted into background "
        "records the CNN scores, with standard errors"
    )

    def check(self, options: Any) -> None:
        """The CNN takes none of the kernels' options, and torch must be there."""
        kernel_options = {name: getattr(options, name) for name in KERNEL_ONLY}
        kernel_options["grid"] = options.grid or None  # grid=False: nothing to search
        given = [name for name, v in kernel_options.items() if v is not None]
        if options.solver != "auto":
            given.append("solver")
        if given:
            raise InputError(
                f"{', '.join(given)}: option(s) of the kernel models, not of "
                f"kernel={self.name!r} (both strands are always read)"
            )
        check_int(options.cnn_filters, "cnn_filters", 1)
        check_int(options.cnn_layers, "cnn_layers", 0, 12)
        check_int(options.cnn_epochs, "cnn_epochs", 1)
        if options.cnn_max_time is not None and not options.cnn_max_time > 0:
            raise InputError(
                f"cnn_max_time must be positive, got {options.cnn_max_time}"
            )
        from .._extras import require_torch

        require_torch()

    def fixed(self, options: Any) -> dict:
        """Its settings as given (never searched)."""
        return {param: getattr(options, name) for name, param in self._own()}

    def describe(self, chosen: dict) -> str:
        """``A dilated residual CNN (64 filters, 6 layers, both strands),``."""
        return (
            f"A dilated residual CNN ({chosen['filters']} filters, "
            f"{chosen['layers']} layers, both strands),"
        )

    def estimator(self, options: Any, params: dict) -> Any:
        """`CNNClassifier` seeded by the run."""
        cls = self.estimator_class()
        return cls(n_threads=options.threads, random_state=options.seed, **params)


#: the kernel models' options, which a family that is not a kernel SVM lacks
KERNEL_ONLY = ("degree", "shift", "C", "mismatches", "reverse_complement", "grid")

#: the registered families by name, in the order of preference in a tie
_FAMILIES: dict[str, Family] = {}


def register(new: Family) -> Family:
    """Add a family (or replace the one of its name); returns it.

    Parameters
    ----------
    new : Family
        An instance of a `Family` subclass.

    Returns
    -------
    Family
    """
    if not isinstance(new, Family):
        raise InputError(f"a model family must be a Family, got {type(new).__name__}")
    if new.name == "auto":
        raise InputError("'auto' names the choice among families, not a family")
    _FAMILIES[new.name] = new
    return new


def unregister(name: str) -> None:
    """Remove a family added by `register` (tests, plugins).

    Parameters
    ----------
    name : str
        A family's name.
    """
    _FAMILIES.pop(name, None)


def family_names() -> tuple[str, ...]:
    """The names of the registered families, in order."""
    return tuple(_FAMILIES)


def searched_families() -> tuple[str, ...]:
    """The families ``kernel="auto"`` compares, in the order of preference."""
    return tuple(name for name, f in _FAMILIES.items() if f.searched)


def family(name: str) -> Family:
    """The registered family ``name``.

    Parameters
    ----------
    name : str
        A family's name (``kernel``).

    Returns
    -------
    Family

    Raises
    ------
    InputError
        Naming the registered families.

    Examples
    --------
    >>> family("gkm").position_free, family("wd").model_name({"shift": 4})
    (True, 'WDS')
    """
    try:
        return _FAMILIES[name]
    except KeyError:
        raise InputError(
            f"kernel must be 'auto' or one of {family_names()}, got {name!r}"
        ) from None


def find_family(name: str | None) -> Family | None:
    """The registered family ``name``, or None (an unresolved "auto", none given).

    Parameters
    ----------
    name : str or None
        A family's name, as a summary records it.

    Returns
    -------
    Family or None
    """
    return _FAMILIES.get(name)


def position_free_family() -> str:
    """The first searched family that takes records of any lengths."""
    return next(f for f in searched_families() if _FAMILIES[f].position_free)


def contender_family() -> str | None:
    """The family ``kernel="auto"`` cross-validates beside the SVM (or None)."""
    return next((name for name, f in _FAMILIES.items() if f.contender), None)


def family_of(options: Any) -> Family:
    """The family that answers for ``options``: ``kernel="auto"`` answers as the first.

    Until the data or the inner CV decide, ``kernel="auto"`` takes the
    options of the first searched family (the positional WD kernel).

    Parameters
    ----------
    options : RunOptions
        The run's options (``kernel`` this family).
    """
    name = options.kernel
    return family(searched_families()[0] if name == "auto" else name)


def family_of_parameters(chosen: dict) -> Family:
    """The family whose models have the parameters ``chosen`` (a summary's).

    Raises
    ------
    InputError
        When no registered family's defaults are all among them.

    Parameters
    ----------
    chosen : dict
        A fitted model's parameters (a summary's ``chosen``).
    """
    for found in _FAMILIES.values():
        if found.defaults and set(found.defaults) <= set(chosen):
            return found
    raise InputError(f"no model family has the parameters {sorted(chosen)}")


def family_of_model(model: object) -> Family:
    """The family whose classifier or regressor ``model`` is (by class name).

    Raises
    ------
    InputError
        For a model of no registered family.

    Parameters
    ----------
    model : object
        A fitted model.
    """
    name = type(model).__name__
    for found in _FAMILIES.values():
        paths = (found.classifier, found.regressor or "")
        if name in found.models or any(p.endswith(f":{name}") for p in paths):
            return found
    raise InputError(f"{name} is not a model of a registered family")


for _builtin in (WDFamily(), GkmFamily(), CNNFamily()):
    register(_builtin)
