"""`poimkit run`: labeled FASTA in; model, POIMs, motifs, figures and a report out.

Each step is a small function; `run_pipeline` times them, shows progress and
writes everything into a staged folder that is moved into place only at the end
(`poimkit.outdir.staged_directory`), so an interrupted run leaves no output.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

from ._threads import check_threads, numba_threads
from ._validation import check_int
from ._version import __version__
from .errors import InputError
from .linear.layout import exact_size_for
from .models import SOLVERS, make_model
from .outdir import OUTPUT_FILES, RUN_FORMAT  # noqa: F401 (OUTPUT_FILES: API)

#: degree, shift and C of a model whose parameters are not selected
FIXED_DEFAULTS = {"degree": 20, "shift": 0, "C": 1.0}
#: the same for the gapped k-mer model (``kernel="gkm"``)
GKM_DEFAULTS = {"l": 11, "k": 7, "reverse_complement": True, "C": 1.0}
#: share of the machine's memory the kernel solver's matrices may take
KERNEL_RAM_SHARE = 0.5
#: n x n matrices the kernel solver holds at once (raw kernel, fold slices, SVC's)
KERNEL_COPIES = 3
#: above this many sequences ``solver="auto"`` is the linear solver: the kernel
#: solver's time grows with n**2 to n**3 (16,000 GATTACA sequences of length 30
#: take 55 s and 2.6 GB; harder data many times that)
KERNEL_MAX_SEQUENCES = 20_000
#: a linear model's degree when not given (less if its exact tables would not
#: fit): 50,000 sequences of length 30 take 421 s and 7 GB at degree 10
LINEAR_DEGREE = 8
#: model families of ``kernel``: positional WD / WDS, position-free gapped k-mers
KERNELS = ("wd", "gkm")
SUMMARY_VERSION = 1
_TOP_KMERS = 50


@dataclass
class RunOptions:
    """Settings of one pipeline run (the options of ``poimkit run``).

    Attributes
    ----------
    degree, shift, C : int, int, float or None
        WD degree, WDS maximal shift (0 for WD) and SVM regularisation. A
        value fixes the parameter; None (the default) lets the inner
        cross-validation choose it from `poimkit.selection.default_grid`, or,
        with ``grid=False``, takes `FIXED_DEFAULTS` (20, 0, 1.0).
    solver : {"auto", "kernel", "linear"}
        Train `WDKernelSVC` (kernel matrix, up to `KERNEL_MAX_SEQUENCES`) or
        `WDLinearSVC` (feature space, for more); ``"auto"`` picks the one
        that fits the data (`resolve_solver`). The POIMs need exact weights,
        so the linear solver indexes every order exactly: its degree must be
        small (8 or less for L up to 250; by default the largest that fits)
        and is never searched.
    kernel : {"wd", "gkm"}
        ``"wd"``: the positional WD / WDS kernel (equal lengths, or ``crop``).
        ``"gkm"``: the position-free gapped k-mer kernel (`GkmSVC`) on records
        of any lengths; its POIMs are for the median length, and the motif
        evidence uses the records at least that long, centre-cropped.
    mismatches, reverse_complement : int or None, bool or None
        `WDKernelSVC` options (default 0 and False); ``reverse_complement``
        is also a `GkmSVC` option, chosen by the inner CV unless given.
    gkm_l, gkm_k : int
        l-mer length and informative positions of the gkm kernel.
    cv : int
        Folds of the stratified cross-validation (at least 2).
    grid : bool or None
        Choose the parameters left at None by an inner cross-validation
        (`poimkit.selection`) inside every outer fold, and on all sequences
        for the final model: the reported AUC is then nested (honest). None
        (the default) means on for the kernel solver and off for the linear
        one, whose fits cannot share kernel matrices.
    max_order : int
        Longest k-mer K of the POIMs.
    background : {"uniform", "fit"}
        POIM background: uniform letters or a Markov chain fitted to the input.
    markov_order : int
        Order D of the fitted chain (0-3).
    max_motifs : int
        Most motifs to extract.
    seed : int
        Seed of the CV split and the motif fit's restarts.
    threads : int or None
        Threads for numba (None: numba's default).
    drop_invalid : bool
        Drop records with N/IUPAC letters instead of stopping.
    crop : int or None
        Centre-crop every record to this length.
    drop_short : bool
        Leave out records shorter than ``crop`` instead of stopping.
    positive_label : str or None
        With a labels table: the label of the positive class
        (`poimkit.read_labeled`).
    memory_limit_gb : float
        Refuse POIMs whose estimated memory exceeds this.
    compare : str or None
        Known motifs to compare the found ones with (`poimkit.motifs.
        known_motifs`: a motif file or ``jaspar[:GROUP[:RELEASE]]``); read
        before any training, so a bad source fails first.
    """

    degree: int | None = None
    shift: int | None = None
    C: float | None = None
    solver: str = "auto"
    kernel: str = "wd"
    mismatches: int | None = None
    reverse_complement: bool | None = None
    gkm_l: int = GKM_DEFAULTS["l"]
    gkm_k: int = GKM_DEFAULTS["k"]
    cv: int = 5
    grid: bool | None = None
    max_order: int = 7
    background: str = "uniform"
    markov_order: int = 0
    max_motifs: int = 3
    seed: int = 0
    threads: int | None = None
    drop_invalid: bool = False
    crop: int | None = None
    drop_short: bool = False
    positive_label: str | None = None
    memory_limit_gb: float = 4.0
    compare: str | None = None

    def check(self) -> None:
        """Raise `InputError` for settings that cannot run."""
        self.check_model()
        check_cv(self.cv)
        check_int(self.max_order, "max_order", 1)
        check_int(self.markov_order, "markov_order", 0, 3)
        check_int(self.max_motifs, "max_motifs", 0)
        if self.background not in ("uniform", "fit"):
            raise InputError(
                f"background must be 'uniform' or 'fit', got {self.background!r}"
            )
        if self.background == "uniform" and self.markov_order:
            raise InputError("markov_order applies to background='fit'")
        if not self.memory_limit_gb > 0:
            raise InputError(
                f"memory_limit_gb must be positive, got {self.memory_limit_gb}"
            )

    def check_model(self) -> None:
        """Raise `InputError` for model settings that cannot run (`check` part)."""
        if self.degree is not None:
            check_int(self.degree, "degree", 1)
        if self.shift is not None:
            check_int(self.shift, "shift", 0)
        check_threads(self.threads)
        if self.C is not None and not self.C > 0:
            raise InputError(f"C must be positive, got {self.C}")
        if self.grid not in (None, True, False):
            raise InputError(f"grid must be True, False or None, got {self.grid!r}")
        if self.solver != "auto" and self.solver not in SOLVERS:
            raise InputError(
                f"solver must be 'auto' or one of {sorted(SOLVERS)}, got "
                f"{self.solver!r}"
            )
        if self.kernel not in KERNELS:
            raise InputError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")
        if self.mismatches is not None:
            check_int(self.mismatches, "mismatches", 0)
        if self.kernel == "gkm":
            check_int(self.gkm_l, "gkm_l", 1, 20)
            check_int(self.gkm_k, "gkm_k", 1, self.gkm_l)
            wd_only = {
                "degree": self.degree,
                "shift": self.shift,
                "mismatches": self.mismatches,
            }
            given = [name for name, v in wd_only.items() if v is not None]
            if given:
                raise InputError(
                    f"{', '.join(given)}: option(s) of the WD kernel, not of "
                    "kernel='gkm'"
                )
            if self.solver == "linear":
                raise InputError("kernel='gkm' needs solver='kernel'")

    @property
    def selects(self) -> bool:
        """Whether parameters left at None are chosen by an inner CV."""
        return self.solver != "linear" if self.grid is None else bool(self.grid)

    def defaults(self) -> dict:
        """Values of the parameters neither given nor selected."""
        return GKM_DEFAULTS if self.kernel == "gkm" else FIXED_DEFAULTS

    def fixed(self) -> dict:
        """The parameters the user set (None for those to select)."""
        if self.kernel == "gkm":
            fixed = {
                "l": self.gkm_l,
                "k": self.gkm_k,
                "reverse_complement": self.reverse_complement,
                "C": self.C,
            }
            if not self.selects:
                fixed = {
                    k: GKM_DEFAULTS[k] if v is None else v for k, v in fixed.items()
                }
            return fixed
        fixed = {"degree": self.degree, "shift": self.shift, "C": self.C}
        for name in ("mismatches", "reverse_complement"):
            if getattr(self, name) is not None:
                fixed[name] = getattr(self, name)
        if self.solver == "linear" and self.degree is None:
            # exact weights: never searched (`resolve_solver` sets it for the data)
            fixed["degree"] = FIXED_DEFAULTS["degree"]
        if not self.selects:
            fixed = {k: FIXED_DEFAULTS[k] if v is None else v for k, v in fixed.items()}
        return fixed


@dataclass
class _Data:
    ids: list[str]
    X: np.ndarray  # (n, L) codes; for kernel="gkm" a 1-D object array of rows
    y: np.ndarray
    inputs: list[dict]
    dropped: int

    @property
    def length(self) -> int:
        """The sequence length; for records of any lengths the median one."""
        if self.X.ndim == 2:
            return int(self.X.shape[1])
        from .gkm import typical_length

        return typical_length(self.X)


def as_rows(seqs: list[np.ndarray]) -> np.ndarray:
    """Sequences of any lengths as a 1-D object array (indexable by arrays)."""
    rows = np.empty(len(seqs), dtype=object)
    rows[:] = seqs
    return rows


@dataclass
class _Timer:
    """Wall time per step, with an optional tqdm bar over the steps."""

    bar: object = None
    seconds: dict = field(default_factory=dict)
    lines: bool = False  # a plain line per step (stderr not a terminal)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        if self.bar is not None:
            self.bar.set_description_str(name)
        if self.lines:
            print(f"poimkit: {name}", file=sys.stderr, flush=True)
        start = time.perf_counter()
        yield
        self.seconds[name] = round(time.perf_counter() - start, 3)
        if self.bar is not None:
            self.bar.update()


# --------------------------------------------------------------------------- #
# steps
# --------------------------------------------------------------------------- #
def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_input(pos=None, neg=None, fasta=None, labels=None, options=None) -> _Data:
    """Read and validate the labeled sequences; record checksums of the files."""
    from .io import DroppedRecordsWarning, read_labeled

    options = options or RunOptions()
    if (
        (pos is None) != (neg is None)
        or (fasta is None) != (labels is None)
        or ((pos is None) == (fasta is None))
    ):
        raise InputError("give either --pos and --neg, or --fasta and --labels")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DroppedRecordsWarning)
        ids, X, y = read_labeled(
            pos=pos,
            neg=neg,
            fasta=fasta,
            labels=labels,
            on_invalid="drop" if options.drop_invalid else "error",
            crop_length=options.crop,
            any_length=options.kernel == "gkm",
            drop_short=options.drop_short,
            positive_label=options.positive_label,
        )
    if options.kernel == "gkm":
        X = as_rows(X)
    dropped = sum(
        getattr(w.message, "count", 0)
        for w in caught
        if issubclass(w.category, DroppedRecordsWarning)
    )
    for w in caught:  # pass on anything that is not ours to count
        if not issubclass(w.category, DroppedRecordsWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    roles = {"pos": pos, "neg": neg, "fasta": fasta, "labels": labels}
    inputs = [
        {"role": role, "path": os.path.abspath(path), "sha256": _sha256(path)}
        for role, path in roles.items()
        if path is not None
    ]
    return _Data(list(ids), X, np.asarray(y), inputs, dropped)


def _estimator(options: RunOptions, length: int):
    """The unfitted model of `poimkit run`; selected parameters at their defaults."""
    extra = {}
    defaults = options.defaults()
    params = {k: defaults[k] if v is None else v for k, v in options.fixed().items()}
    if options.kernel == "gkm":
        from .gkm import GkmSVC

        return GkmSVC(n_threads=options.threads, **params)
    if options.solver == "linear":
        # POIMs need exact weights: every order gets an exact table, so the
        # degree stays fixed (and small enough for that)
        extra["exact_size"] = exact_size_for(length, params["degree"])
        extra["verbose"] = False
    return make_model(options.solver, n_threads=options.threads, **params, **extra)


def search_grid(options: RunOptions, length: int):
    """The candidates of the inner CV, or None if there is nothing to choose.

    Parameters
    ----------
    options : RunOptions
    length : int
        Sequence length (caps the shifts).

    Returns
    -------
    poimkit.selection.Grid or None
        `poimkit.selection.default_grid` less the parameters the options fix;
        None without ``selects`` or when every parameter is fixed.
    """
    from .selection import default_grid, gkm_grid

    if not options.selects:
        return None
    if options.kernel == "gkm":
        grid = gkm_grid(options.fixed())
    else:
        grid = default_grid(length, options.fixed())
    return grid if grid.size > 1 else None


def check_cv(cv: int) -> None:
    """Raise `InputError` unless ``cv`` is 0 (no cross-validation) or at least 2."""
    check_int(cv, "cv", 0)
    if cv == 1:
        raise InputError("cv must be 0 (no cross-validation) or at least 2, got 1")


def check_folds(data: _Data, options: RunOptions) -> None:
    """Raise `InputError` now if a class is too small for the cross-validations.

    The outer CV needs ``options.cv`` sequences per class, and the selection
    of parameters (`poimkit.selection`) its inner folds in every training set.
    """
    from .selection import INNER_FOLDS

    counts = np.bincount(data.y.astype(np.intp), minlength=2)
    got = f"got {counts[1]} positive and {counts[0]} negative"
    if options.cv and counts.min() < options.cv:
        raise InputError(
            f"{options.cv}-fold cross-validation needs at least {options.cv} "
            f"sequences per class, {got} (lower --cv)"
        )
    if search_grid(options, data.length) is not None:
        # every inner fold needs a sequence of each class; an outer training
        # set lacks up to ceil(n / cv) of a class's n sequences
        fewest = int(counts.min())
        if options.cv:
            fewest -= -(-fewest // options.cv)
        if fewest < INNER_FOLDS:
            raise InputError(
                f"choosing the model's parameters by an inner {INNER_FOLDS}-fold "
                f"cross-validation needs more sequences per class, {got}; fix them "
                "with --no-grid (or give more sequences)"
            )


def _selection_summary(grid, final, folds=()) -> dict:
    """What summary.json says about the selection (see `run_pipeline`)."""
    return {
        "grid": grid.to_dict(),
        "inner": final.inner,
        "chosen": final.to_dict()["params"],
        **{k: v for k, v in final.to_dict(table=True).items() if k != "params"},
        "folds": [s.to_dict() for s in folds],
    }


def cross_validate(
    data: _Data,
    options: RunOptions,
    progress: bool = False,
    *,
    model=None,
    fit_params: dict | None = None,
) -> dict:
    """Stratified k-fold CV: AUC and accuracy per fold, out-of-fold scores.

    With ``options.selects`` the parameters left open are chosen inside every
    outer fold by an inner CV (nested CV, `poimkit.selection.select_nested`),
    and once more on all sequences for the final model; each kernel setting's
    matrix is computed once for all of them.

    Parameters
    ----------
    data : _Data
        The labeled sequences (`read_input`).
    options : RunOptions
    progress : bool
        Progress bars on standard error.
    model : estimator, optional
        Unfitted template (default: the model of `poimkit run`); selected
        parameters override its own.
    fit_params : dict, optional
        Passed to every ``fit`` (e.g. ``client`` of `WDLinearSVC`).

    Returns
    -------
    dict
        ``cv_auc``, ``cv_auc_std``, ``cv_auc_interval``, ``cv_auc_folds``,
        ``cv_accuracy``, ``cv_accuracy_folds``, ``out_of_fold_scores`` and
        ``selection`` (None if nothing was selected; else the grid, the inner
        scheme, the parameters chosen on all sequences with their inner AUC,
        the best candidate, ``corner``, a ``table`` of every candidate's inner
        AUC and ``folds``, the choice of every outer fold).
    """
    from sklearn.base import clone
    from sklearn.metrics import accuracy_score, roc_auc_score
    from sklearn.model_selection import StratifiedKFold
    from tqdm.auto import tqdm

    from .selection import select_nested

    options = resolve_solver(options, data.y.size, data.length)
    check_folds(data, options)
    fit_params = fit_params or {}
    model = _estimator(options, data.length) if model is None else model
    folds = list(
        StratifiedKFold(
            n_splits=options.cv, shuffle=True, random_state=options.seed
        ).split(data.X, data.y)
    )
    grid = search_grid(options, data.length)
    chosen, selection = [{}] * options.cv, None
    if grid is not None:
        train_sets = [train for train, _ in folds] + [np.arange(data.y.size)]
        found = select_nested(
            model,
            data.X,
            data.y,
            grid,
            train_sets,
            random_state=options.seed,
            n_jobs=options.threads,
            fit_params=fit_params,
            progress=progress,
        )
        chosen = [s.params for s in found[:-1]]
        selection = _selection_summary(grid, found[-1], found[:-1])
    scores = np.empty(data.y.size)
    aucs, accuracies = [], []
    for (train, test), params in tqdm(
        list(zip(folds, chosen, strict=True)),
        desc="cross-validation",
        unit="fold",
        disable=not progress,
        leave=False,
    ):
        fitted = (
            clone(model)
            .set_params(**params)
            .fit(data.X[train], data.y[train], **fit_params)
        )
        scores[test] = fitted.decision_function(data.X[test])
        aucs.append(roc_auc_score(data.y[test], scores[test]))
        accuracies.append(accuracy_score(data.y[test], fitted.predict(data.X[test])))
    return {
        "cv_auc": float(np.mean(aucs)),
        "cv_auc_std": float(np.std(aucs)),
        "cv_auc_interval": auc_interval(aucs),
        "cv_auc_pooled": float(roc_auc_score(data.y, scores)),
        "cv_auc_folds": [round(float(a), 6) for a in aucs],
        "cv_accuracy": float(np.mean(accuracies)),
        "cv_accuracy_folds": [round(float(a), 6) for a in accuracies],
        "out_of_fold_scores": scores,
        "selection": selection,
    }


#: `cross_validate`'s result for ``cv=0`` (no cross-validation): all None
NO_CV = {
    "cv_auc": None,
    "cv_auc_std": None,
    "cv_auc_interval": None,
    "cv_auc_pooled": None,
    "cv_auc_folds": [],
    "cv_accuracy": None,
    "cv_accuracy_folds": [],
    "out_of_fold_scores": None,
    "selection": None,
}


def auc_interval(aucs, level: float = 0.95) -> list[float]:
    """Student-t interval of the mean fold AUC, ``[low, high]``.

    Examples
    --------
    >>> auc_interval([0.9, 0.92, 0.94])
    [0.870317, 0.969683]
    """
    from scipy.stats import t

    aucs = np.asarray(aucs, dtype=np.float64)
    half = t.ppf(0.5 + level / 2, aucs.size - 1) * aucs.std(ddof=1) / np.sqrt(aucs.size)
    mean = aucs.mean()
    return [round(float(mean - half), 6), round(float(mean + half), 6)]


def better_than_chance(cv: dict) -> bool:
    """True unless the interval of the cross-validated AUC includes 0.5."""
    return cv["cv_auc_interval"][0] > 0.5


def train_final(
    data: _Data,
    options: RunOptions,
    selection: dict | None = None,
    *,
    model=None,
    fit_params: dict | None = None,
):
    """Fit on all sequences; returns (model, chosen parameters, selection).

    Parameters
    ----------
    data, options
        As in `cross_validate`.
    selection : dict, optional
        ``cross_validate(...)["selection"]``: its parameters chosen on all
        sequences are used. Without it, and if ``options.selects``, they are
        chosen here by an inner CV on all sequences.
    model, fit_params
        As in `cross_validate`.

    Returns
    -------
    model : fitted estimator
    chosen : dict
        ``degree``, ``shift`` and ``C`` of the model.
    selection : dict or None
        The selection (as in `cross_validate`), None if nothing was selected.
    """
    from sklearn.base import clone

    from .selection import _plain, select_parameters

    options = resolve_solver(options, data.y.size, data.length)
    fit_params = fit_params or {}
    model = _estimator(options, data.length) if model is None else model
    grid = search_grid(options, data.length)
    if selection is None and grid is not None:
        found = select_parameters(
            model,
            data.X,
            data.y,
            grid,
            random_state=options.seed,
            n_jobs=options.threads,
            fit_params=fit_params,
        )
        selection = _selection_summary(grid, found)
    params = selection["chosen"] if selection is not None else {}
    fitted = clone(model).set_params(**params).fit(data.X, data.y, **fit_params)
    chosen = {name: _plain(getattr(fitted, name)) for name in options.fixed()}
    return fitted, chosen, selection


def kernel_memory_limit() -> float:
    """Bytes the kernel solver's matrices may take: `KERNEL_RAM_SHARE` of RAM."""
    try:
        ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        ram = 8 * 1024**3
    return KERNEL_RAM_SHARE * ram


def resolve_solver(options: RunOptions, n: int, length: int) -> RunOptions:
    """The options with ``solver="auto"`` decided for ``n`` sequences of ``length``.

    Auto is the kernel solver unless the data are too many for it (over
    `KERNEL_MAX_SEQUENCES`, or its matrices over `kernel_memory_limit`) and
    the linear solver can fit the model (the WD kernel without mismatches or
    strands); then the linear one, with a one-line notice. A linear model's
    degree, if not given, is `LINEAR_DEGREE` or the largest below whose k-mer
    tables are all exact (`largest_exact_degree`), so its POIMs can be
    computed.
    """
    from dataclasses import replace

    from .linear.layout import largest_exact_degree

    solver = options.solver
    linear_fits = options.kernel == "wd" and not options.mismatches
    linear_fits = linear_fits and not options.reverse_complement
    too_large = None
    if n > KERNEL_MAX_SEQUENCES:
        too_large = f"more than {KERNEL_MAX_SEQUENCES}"
    elif kernel_bytes(n) > kernel_memory_limit():
        too_large = (
            f"its matrices would need {kernel_bytes(n) / 1024**3:.0f} GiB, over "
            f"{kernel_memory_limit() / 1024**3:.0f} GiB"
        )
    if solver == "auto":
        solver = "linear" if too_large and linear_fits else "kernel"
    degree = options.degree
    if solver == "linear" and degree is None:
        degree = min(LINEAR_DEGREE, largest_exact_degree(length))
    if solver == "linear":
        exact_size_for(length, degree)  # the POIMs need exact tables
    if solver == "linear" and options.solver == "auto":
        warnings.warn(
            SolverNotice(
                f"{n} sequences are too many for the kernel solver ({too_large}): "
                f"using the linear solver, degree {degree} (choose with --solver, "
                "--degree)"
            ),
            stacklevel=2,
        )
    return replace(options, solver=solver, degree=degree)


class SolverNotice(UserWarning):
    """`resolve_solver` chose the linear solver because the data are large."""


def kernel_bytes(n: int) -> float:
    """Bytes of the kernel solver's matrices for ``n`` sequences."""
    return KERNEL_COPIES * 8.0 * n * n


def check_kernel_size(n: int, options: RunOptions) -> None:
    """Refuse at once a kernel-matrix fit that would not fit in memory.

    The kernel solver holds ``n x n`` doubles, and about `KERNEL_COPIES` of
    them while it selects parameters and slices folds; beyond
    `kernel_memory_limit` the run would swap for hours, so the error names
    the solver that fits.
    """
    if options.solver == "linear":
        return
    need = kernel_bytes(n)
    limit = kernel_memory_limit()
    if need > limit:
        raise InputError(
            f"{n} sequences are too many for the kernel solver: its kernel "
            f"matrices need about {need / 1024**3:.0f} GiB, over "
            f"{limit / 1024**3:.0f} GiB ({KERNEL_RAM_SHARE:.0%} of this machine's "
            "memory); "
            + (
                "give fewer sequences"
                if options.kernel == "gkm"
                else "use --solver linear (the WD kernel in feature space) or "
                "fewer sequences"
            )
        )


def check_poim_memory(data: _Data, options: RunOptions) -> None:
    """Raise `InputError` now if the POIM step would exceed the memory limit."""
    from .poim.engine import check_memory

    order = options.markov_order if options.background == "fit" else 0
    max_order = min(options.max_order, data.length)
    if options.kernel == "gkm":
        from .poim.position_free import estimate_bytes

        need = estimate_bytes(data.length, options.gkm_l, max_order, order)
    else:
        from .poim.engine import estimate_bytes

        need = estimate_bytes(data.length, max_order, order)
    check_memory(need, options.memory_limit_gb * 1024**3, max_order, data.length)


def make_background(data: _Data, options: RunOptions):
    """Uniform letters, or a Markov chain of order D fitted to all input sequences."""
    from .background import MarkovBackground

    if options.background == "uniform":
        return MarkovBackground.uniform(data.length)
    if data.X.ndim == 2:
        return MarkovBackground.fit(data.X, order=options.markov_order)
    # records of any lengths: one homogeneous chain over all of them, for the
    # POIM length (position-free POIMs use it in equilibrium)
    return MarkovBackground.fit_pooled(data.X, options.markov_order, data.length)


def motif_data(
    data: _Data, length: int | None = None
) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Sequences, ids and labels for the motif evidence: one length.

    Records of any lengths (``kernel="gkm"``) are centre-cropped to the POIM
    length (default ``data.length``); shorter ones are left out of the motif
    step.
    """
    if data.X.ndim == 2:
        return data.X, data.ids, data.y
    from .motifs.extract import centre_crop

    length = data.length if length is None else length
    X, y, keep = centre_crop(list(data.X), data.y, length)
    return X, [i for i, k in zip(data.ids, keep, strict=True) if k], y


def _versions() -> dict:
    out = {"poimkit": __version__, "python": platform.python_version()}
    for name in ("numpy", "numba", "scipy", "scikit-learn", "biopython", "matplotlib"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover
            out[name] = None
    return out


def _differential_peaks(poim, n: int = 5) -> list[dict]:
    d = poim.differential()
    flat = np.where(np.isnan(d), -np.inf, d).ravel()
    best = np.argsort(-flat, kind="stable")[:n]
    return [
        {
            "length": int(i // d.shape[1]) + 1,
            "position": int(i % d.shape[1]) + 1,
            "value": float(flat[i]),
        }
        for i in best
        if np.isfinite(flat[i])
    ]


def write_figures(folder: Path, poim, motifs, y, oof_scores) -> list[str]:
    """PNGs: ROC, POIMs per order, nucleotide logo, differential POIM, mass, logos."""
    from matplotlib.figure import Figure

    from .plot import (
        plot_differential,
        plot_logo,
        plot_nucleotide_importance,
        plot_poim_heatmap,
        plot_roc,
        plot_weight_mass,
    )

    folder.mkdir()
    written = []

    def save(fig: Figure, name: str) -> None:
        fig.savefig(folder / name, dpi=120)
        written.append(name)

    if oof_scores is not None:  # None without cross-validation
        fig = Figure(figsize=(4.4, 4.2), layout="constrained")
        plot_roc(y, oof_scores, ax=fig.add_subplot(), label="out-of-fold")
        save(fig, "roc.png")
    wide = min(16.0, max(5.0, 0.12 * poim.length + 3))
    for l in range(1, poim.max_order + 1):
        rows = 4**l if l <= 2 else 20
        fig = Figure(
            figsize=(wide, 0.2 * rows + 1.6),
            layout="constrained",
        )
        plot_poim_heatmap(poim, l, ax=fig.add_subplot(), top=rows)
        save(fig, f"poim_order_{l}.png")
    fig = Figure(figsize=(wide, 3.4), layout="constrained")
    plot_nucleotide_importance(poim, ax=fig.add_subplot())
    save(fig, "nucleotide_importance.png")
    fig = Figure(figsize=(wide, 3.2), layout="constrained")
    plot_differential(poim, ax=fig.add_subplot())
    save(fig, "differential_poim.png")
    fig = Figure(figsize=(wide, 3.2), layout="constrained")
    plot_weight_mass(poim, ax=fig.add_subplot())
    save(fig, "weight_mass.png")
    for motif in motifs:
        fig = Figure(figsize=(0.5 * motif.length + 1.5, 2.2), layout="constrained")
        plot_logo(
            motif,
            ax=fig.add_subplot(),
            title=f"{motif.name}: {motif.iupac} at {motif.position:.1f} "
            f"(spread {motif.spread:.1f})",
        )
        save(fig, f"logo_{motif.name}.png")
    return written


#: known motifs listed per found motif with ``compare``
_MATCHES = 3


def _matches(motif, known) -> list[dict]:
    from .motifs.compare import match_motifs

    return [
        {
            "target": m.target,
            "score": round(m.score, 4),
            "p_value": None if np.isnan(m.p_value) else m.p_value,
            "strand": m.strand,
            "offset": m.offset,
        }
        for m in match_motifs(motif, known, top=_MATCHES)
    ]


def _motif_rows(motifs, known=None) -> list[dict]:
    return [
        {
            "name": m.name,
            "consensus": m.consensus,
            "iupac": m.iupac,
            "length": int(m.length),
            "position": _number(m.position),
            "spread": _number(m.spread),
            "importance": float(m.importance),
            "n_sites": int(m.n_sites),
            "frac_positive": round(float(m.frac_positive), 6),
            "frac_negative": round(float(m.frac_negative), 6),
            "p_value": float(m.p_value),
            "q_value": float(m.q_value),
            "e_value": float(m.e_value),
            "strands": "+-" if m.sites.on_both_strands else "+",
            **({"matches": _matches(m, known)} if known is not None else {}),
        }
        for m in motifs
    ]


def _number(value: float) -> float | None:
    """Rounded for JSON; None for NaN (a position-free model's motif position)."""
    return None if np.isnan(value) else round(float(value), 3)


def motif_note(cv: dict, options: RunOptions, motifs) -> str:
    """Why the motif list is what it is, in words (for the summary and report)."""
    if not options.max_motifs:
        return "motif extraction was switched off (max_motifs 0)"
    if not options.cv:
        unknown = (
            "without cross-validation (cv 0) the model's accuracy is unknown; "
        )
        if not motifs:
            return unknown + "no motif passed the test on held-out sequences"
        return unknown + (
            f"{len(motifs)} motif(s) passed the test on held-out sequences at a "
            "false discovery rate of 5 %"
        )
    if not better_than_chance(cv):
        low, high = cv["cv_auc_interval"]
        return (
            f"no motifs reported: the model is not better than chance (the 95 % "
            f"interval of its cross-validated AUC, {low:.3f} to {high:.3f}, "
            "includes 0.5), so whatever it rewards may be noise"
        )
    if not motifs:
        return (
            "no motif passed the test: no candidate's sites were more common in "
            "held-out positives than in negatives at a false discovery rate of 5 %"
        )
    return f"{len(motifs)} motif(s) passed the test at a false discovery rate of 5 %"


# --------------------------------------------------------------------------- #
# the pipeline
# --------------------------------------------------------------------------- #
def run_pipeline(
    out: str | os.PathLike,
    *,
    pos: str | None = None,
    neg: str | None = None,
    fasta: str | None = None,
    labels: str | None = None,
    options: RunOptions | None = None,
    force: bool = False,
    progress: bool = True,
    dataset: str | None = None,
) -> dict:
    """Run the whole analysis and write its results to the folder ``out``.

    Parameters
    ----------
    out : str or path-like
        Output folder; it must not exist unless ``force``. It appears only when
        the run succeeds (see Notes).
    pos, neg : str, optional
        Positive and negative FASTA files (plain or gzip).
    fasta, labels : str, optional
        One FASTA file and a two-column TSV of record id and label, instead.
    options : RunOptions, optional
        Model, POIM and motif settings; default `RunOptions()`.
    force : bool
        Replace an existing ``out`` (only once the new run succeeded).
    progress : bool or "lines"
        Show progress bars on standard error; ``"lines"``: a plain line per
        step instead (for logs: no terminal control codes).
    dataset : str, optional
        A name for the input recorded in the summary (e.g. for the demo).

    Returns
    -------
    dict
        The content of ``summary.json``.

    Raises
    ------
    InputError
        For bad input or settings; nothing is written then.

    Notes
    -----
    ``out`` receives ``model.npz``, ``poim.npz``, ``top_kmers.tsv`` (the 50
    strongest POIM entries), ``motifs.meme``, ``sites.tsv``, ``figures/`` (PNG),
    ``summary.json`` and ``report.html`` (one self-contained page). Everything
    is written into a hidden sibling folder first and renamed to ``out`` at the
    end, so an interrupted run leaves ``out`` absent (or, with ``force``, as
    it was).

    The summary's ``parameters`` hold the options (None for the parameters
    left to the selection), ``grid`` (whether parameters were selected) and
    ``chosen`` (the final model's degree, shift and C); ``selection`` is None
    or what `cross_validate` returns under that name (grid, inner scheme,
    choices of the final model and of every outer fold, ``corner``).
    """
    from tqdm.auto import tqdm

    from .io import atomic_path
    from .motifs import extract_motifs
    from .motifs.extract import background_letters
    from .motifs.formats import write_meme, write_sites
    from .outdir import check_output_folder, staged_directory
    from .poim import compute_poim
    from .report import write_report

    options = options or RunOptions()
    options.check()
    started = time.perf_counter()
    # cheap checks and reading first: bad input fails before any bar or folder
    inputs = (pos, neg, fasta, labels)
    check_output_folder(out, force, inputs)
    timer = _Timer()
    known = None
    if options.compare:
        from .motifs.compare import known_motifs

        with timer.step("known motifs"):
            known = known_motifs(options.compare)
    with timer.step("read"):
        data = read_input(pos, neg, fasta, labels, options)
    if dataset is not None:  # e.g. the demo's temporary copies: name the source
        for item in data.inputs:
            item["path"] = f"{dataset}: {Path(item['path']).name} (temporary copy)"
    options = resolve_solver(options, data.y.size, data.length)
    check_folds(data, options)  # before hours of training, not after
    check_poim_memory(data, options)
    check_kernel_size(data.y.size, options)
    steps = ["cross-validation"] * bool(options.cv) + [
        "training",
        "POIM",
        "motifs",
        "outputs",
    ]
    with (
        staged_directory(out, force=force, inputs=inputs) as staged,
        numba_threads(options.threads),
        tqdm(total=len(steps), unit="step", disable=progress is not True) as bar,
    ):
        timer.bar = bar
        timer.lines = progress == "lines"
        if options.cv:
            with timer.step("cross-validation"):
                cv = cross_validate(data, options, progress is True)
        else:
            cv = NO_CV
        with timer.step("training"):
            model, chosen, _ = train_final(data, options, cv["selection"])
        with timer.step("POIM"):
            background = make_background(data, options)
            poim = compute_poim(
                model,
                min(options.max_order, data.length),
                background,
                memory_limit=options.memory_limit_gb * 1024**3,
                n_threads=options.threads,
                progress=progress is True,
            )
        with timer.step("motifs"):
            X_motifs, ids_motifs, y_motifs = motif_data(data)
            motifs = (
                extract_motifs(
                    poim,
                    max_motifs=options.max_motifs,
                    sequences=X_motifs,
                    labels=y_motifs,
                    random_state=options.seed,
                )
                if options.max_motifs and (not options.cv or better_than_chance(cv))
                else []
            )
        with timer.step("outputs"):
            model.save(staged / "model.npz")
            poim.save(staged / "poim.npz")
            poim.write_top(staged / "top_kmers.tsv", n=_TOP_KMERS)
            write_meme(staged / "motifs.meme", motifs, background_letters(background))
            write_sites(staged / "sites.tsv", motifs, ids_motifs, y_motifs)
            figures = write_figures(
                staged / "figures", poim, motifs, data.y, cv["out_of_fold_scores"]
            )
        lengths = [len(x) for x in data.X]
        summary = {
            "format": RUN_FORMAT,
            "format_version": SUMMARY_VERSION,
            "dataset": dataset,
            "inputs": data.inputs,
            "n_sequences": int(data.y.size),
            "n_positive": int((data.y == 1).sum()),
            "n_negative": int((data.y == 0).sum()),
            "n_dropped": int(data.dropped),
            "length": data.length,
            "lengths": [int(min(lengths)), int(max(lengths))],
            "position_free": poim.position_free,
            "n_motif_sequences": int(y_motifs.size),
            "parameters": {
                **asdict(options),
                "grid": options.selects,
                "chosen": chosen,
            },
            "background": repr(background),
            "versions": _versions(),
            **{k: v for k, v in cv.items() if k != "out_of_fold_scores"},
            "n_support_vectors": int(model.n_support_.sum()),
            "motifs": _motif_rows(motifs, known),
            "motifs_note": motif_note(cv, options, motifs),
            "top_kmers": [
                {"kmer": z, "position": j, "value": float(v)}
                for z, j, v in poim.top(10)
            ],
            "differential_peaks": _differential_peaks(poim),
            "figures": figures,
            "runtimes": timer.seconds,
        }
        summary["runtimes"]["total"] = round(time.perf_counter() - started, 3)
        with atomic_path(staged / "summary.json") as tmp:
            Path(tmp).write_text(json.dumps(summary, indent=2) + "\n")
        write_report(staged / "report.html", summary, staged / "figures")
    return summary
