"""The settings of `poimkit run` and `train` (`RunOptions`) and the solver checks.

Light to import: the CLI reads the defaults for its help from here.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

from .._threads import check_threads
from .._validation import check_int, check_max_order
from ..errors import InputError
from .registry import (
    CNN_DEFAULTS,
    GKM_DEFAULTS,
    WD_DEFAULTS,
    family,
    family_names,
    family_of,
    position_free_family,
    searched_families,
)

#: degree, shift and C of a WD model whose parameters are not selected
FIXED_DEFAULTS = WD_DEFAULTS
#: model families compared by ``kernel="auto"``, in the order of preference when
#: their inner AUCs tie (`poimkit.run.registry`): the positional WD / WDS kernel
#: first, as its POIMs say where a k-mer counts as well as which (a
#: position-free signal shows in them as a flat profile), while the gapped
#: k-mer model's are flat by construction; so the position-free model is
#: chosen only when it is better by more than the tie tolerance
FAMILIES = searched_families()
#: values of ``kernel``: a family, or ``"auto"`` to choose it from the data;
#: ``"cnn"``, the deep family (`poimkit.torch.CNNClassifier`, the ``torch``
#: extra), is trained only when asked for
KERNELS = ("auto", *family_names())
#: ``kernel="auto"`` also cross-validates the CNN (torch installed) from this many
#: records on: on NFE2 (1,032 records) the CNN tied gkm at 35 times the time, on
#: CTCF (8,810) it won by 0.054 AUC (benchmarks/RESULTS.md); the bundled demo's
#: 5,000 records stay below
CNN_MIN_RECORDS = 8_000
#: with more records than this a run cross-validates a stratified sample of this
#: many, and finds and tests its motifs in it; the final model trains on all
#: (`RunOptions.cv_sample`). On a sample of 2·10^4 records of 200 letters a
#: default run's cross-validation, motifs and known motifs take about 100 s on 2
#: cores (benchmarks/RESULTS.md, genome scale): beyond it only reading, the
#: final fit and the outputs grow with the records
CV_SAMPLE = 20_000
#: the smallest sample ``cv_sample`` takes
MIN_CV_SAMPLE = 100


@dataclass
class RunOptions:
    """Settings of one pipeline run (the options of ``poimkit run``).

    Attributes
    ----------
    degree, shift, C : int, int, float or None
        WD degree, WDS maximal shift (0 for WD) and SVM regularisation. A
        value fixes the parameter; None (the default) lets the inner
        cross-validation choose it from `poimkit.svm.selection.default_grid`, or,
        with ``grid=False``, takes `FIXED_DEFAULTS` (20, 0, 1.0).
    solver : {"auto", "kernel", "linear"}
        WD kernel: train `WDKernelSVC` (kernel matrix, up to
        `KERNEL_MAX_SEQUENCES`) or `WDLinearSVC` (feature space, for more);
        ``"auto"`` picks the one that fits the data (`resolve_solver`). gkm:
        `GkmSVC`'s solver (``"auto"``: the kernel matrix up to
        `poimkit.svm.gkm.KERNEL_MAX_RECORDS` records, else L-BFGS through
        the l-mer table, linear in the records). The POIMs need exact weights:
        the linear solver indexes the k-mers present in the data exactly, as
        long as that table fits its memory budget (25 % of the RAM), so its
        degree, never searched, is the default (20) when it fits and else the
        largest that fits (`poimkit.svm.linear.table.largest_fitting_degree`).
    kernel : {"auto", "wd", "gkm", "cnn"}
        ``"wd"``: the positional WD / WDS kernel (equal lengths, or ``crop``).
        ``"cnn"``: a dilated residual CNN (`poimkit.torch.CNNClassifier`,
        `CNN_DEFAULTS`; needs torch) on records of any lengths, early-stopped
        on held-out chromosomes (or records) of each training part, with no
        inner grid.
        ``"gkm"``: the position-free gapped k-mer kernel (`GkmSVC`) on records
        of any lengths; its POIMs are for the median length, and its motif
        sites are sought in every record at its full length.
        ``"auto"`` (the default) chooses the family from the data
        (`resolve_kernel`): gkm for records of different lengths, else the
        inner cross-validation chooses between the two (`FAMILIES`), or wd
        when it has nothing to choose (``grid=False``, the linear solver, or
        a WD-only option such as ``degree`` given). Until then the options
        answer as for wd (`fixed`, `defaults`). With torch installed the CNN
        is cross-validated beside the SVM (``cnn_min_records``).
    mismatches, reverse_complement : int or None, bool or None
        `WDKernelSVC` options (default 0 and False); ``reverse_complement``
        is also a `GkmSVC` option, chosen by the inner CV unless given.
    gkm_l, gkm_k : int
        l-mer length and informative positions of the gkm kernel.
    cnn_filters, cnn_layers, cnn_epochs : int
        Channels, dilated residual layers and most epochs of the CNN
        (``kernel="cnn"``).
    cnn_max_time : float or None
        Seconds after which a CNN's training stops (at the end of an epoch).
    cnn_min_records : int or None
        ``kernel="auto"`` with a cross-validation also trains the CNN in the
        same folds, where torch is installed and there are at least this many
        records (`CNN_MIN_RECORDS`) and no more than ``cv_sample``, and keeps
        it if it is better by more than one standard error
        (`poimkit.run.families`); None: never.
    cv : int
        Folds of the stratified cross-validation (at least 2).
    cv_sample : int or None
        With more records than this (`CV_SAMPLE`), the cross-validation
        (with the family and parameters it chooses and the choice of the
        motif model), the motifs' search, sites and evidence, and the known
        motifs' enrichment use a stratified random sample of this many
        records (seed ``seed``); the final model trains on every record.
        A CNN is then not cross-validated beside the SVM (its final fit on
        every record would take hours on a CPU), and ``kernel="auto"`` takes
        the gapped k-mer model wherever the WD kernel solver cannot take every
        record (`resolve_scale`). 0 or None: every record, at any size.
    cv_by : {"chrom", "random"} or None
        ``"chrom"``: folds hold out whole chromosomes (read from record ids
        ``chrom:start-end``; `poimkit.svm.folds.genomic_folds`), inner
        folds too; ``"random"``: random stratified folds. None (the default):
        ``"chrom"`` for peaks in a genome, ``"random"`` for sequences.
    grid : bool or None
        Choose the parameters left at None by an inner cross-validation
        (`poimkit.svm.selection`) inside every outer fold, and on all sequences
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
    known : str or None
        Known motifs to test for enrichment in the positives
        (`poimkit.motifs.enrichment`; a source as for ``compare``); the found
        motifs are compared with them when ``compare`` is None.
    """

    degree: int | None = None
    shift: int | None = None
    C: float | None = None
    solver: str = "auto"
    kernel: str = "auto"
    mismatches: int | None = None
    reverse_complement: bool | None = None
    gkm_l: int = GKM_DEFAULTS["l"]
    gkm_k: int = GKM_DEFAULTS["k"]
    cnn_filters: int = CNN_DEFAULTS["filters"]
    cnn_layers: int = CNN_DEFAULTS["layers"]
    cnn_epochs: int = CNN_DEFAULTS["epochs"]
    cnn_max_time: float | None = CNN_DEFAULTS["max_time"]
    cnn_min_records: int | None = CNN_MIN_RECORDS
    cv: int = 5
    cv_sample: int | None = CV_SAMPLE
    cv_by: str | None = None
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
    known: str | None = None

    def check(self) -> None:
        """Raise `InputError` for settings that cannot run."""
        self.check_model()
        check_cv(self.cv)
        if self.cv_sample is not None:
            check_int(self.cv_sample, "cv_sample", 0)
            if 0 < self.cv_sample < MIN_CV_SAMPLE:
                raise InputError(
                    f"cv_sample must be 0 (every record) or at least {MIN_CV_SAMPLE},"
                    f" got {self.cv_sample}"
                )
        if self.cv_by not in (None, "chrom", "random"):
            raise InputError(f"cv_by must be 'chrom' or 'random', got {self.cv_by!r}")
        check_max_order(self.max_order)
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
        from ..svm import SOLVERS

        if self.solver != "auto" and self.solver not in SOLVERS:
            raise InputError(
                f"solver must be 'auto' or one of {sorted(SOLVERS)}, got "
                f"{self.solver!r}"
            )
        kernels = ("auto", *family_names())
        if self.kernel not in kernels:
            raise InputError(f"kernel must be one of {kernels}, got {self.kernel!r}")
        if self.mismatches is not None:
            check_int(self.mismatches, "mismatches", 0)
        check_int(self.seed, "seed", 0, 2**32 - 1)
        if self.cnn_min_records is not None:
            check_int(self.cnn_min_records, "cnn_min_records", 2)
        family_of(self).check(self)

    @property
    def selects(self) -> bool:
        """Whether parameters left at None are chosen by an inner CV.

        As the family says (`poimkit.run.registry.Family.selects`): by
        default yes, but for the WD kernel's linear solver (whose fits share
        no kernel matrix and whose degree is never searched) and the CNN; a
        gkm model's C matters (tenfold changes move the AUC by 0.02-0.03 on
        ChIP-like data) and its linear solver refits it cheaply.
        """
        return family_of(self).selects(self)

    def defaults(self) -> dict:
        """Values of the parameters neither given nor selected (auto: wd's)."""
        return family_of(self).defaults

    def fixed(self) -> dict:
        """The parameters the user set (None for those to select; auto: wd's)."""
        return family_of(self).fixed(self)


def search_grid(options: RunOptions, length: int, n: int):
    """The candidates of the inner CV, or None if there is nothing to choose.

    Parameters
    ----------
    options : RunOptions
    length : int
        Sequence length (caps the shifts).
    n : int
        Number of sequences (the gkm model refitted by its linear solver
        searches fewer C values).

    Returns
    -------
    poimkit.svm.selection.Grid or None
        The family's search (`poimkit.run.registry.Family.grid`; the WD
        kernel's is `poimkit.svm.grids.default_grid`) less what the options fix;
        None without ``selects``, when every parameter is fixed, or for
        ``kernel="auto"`` (see `search_families`).
    """
    if not options.selects or options.kernel == "auto":
        return None
    grid = family(options.kernel).grid(options, length, n)
    return grid if grid.size > 1 else None


def check_cv(cv: int) -> None:
    """Raise `InputError` unless ``cv`` is 0 (no cross-validation) or at least 2.

    Parameters
    ----------
    cv : int
        Number of cross-validation folds.
    """
    check_int(cv, "cv", 0)
    if cv == 1:
        raise InputError("cv must be 0 (no cross-validation) or at least 2, got 1")


def resolve_solver(options: RunOptions, n: int, length: int) -> RunOptions:
    """The options with ``solver="auto"`` decided for ``n`` sequences of ``length``.

    As the family decides (`poimkit.run.registry.Family.resolve_solver`):
    for the gkm kernel auto is `poimkit.GkmSVC`'s own choice for ``n``
    records; for the WD kernel and ``kernel="auto"`` it is
    `poimkit.run.registry.WDFamily.resolve_solver`: the kernel solver unless
    the data are too many for it (over `KERNEL_MAX_SEQUENCES`, or its matrices
    over `poimkit.run.kernel_memory.kernel_memory_limit`), with a one-line
    `SolverNotice`.

    Parameters
    ----------
    options : RunOptions
        The settings; returned unchanged but for ``solver`` and ``degree``.
    n, length : int
        Number of sequences and their (typical) length.
    """
    return narrow_kernel(family_of(options).resolve_solver(options, n, length))


class FamilyNotice(UserWarning):
    """The position-free model was chosen for the data.

    For records of any lengths (`resolve_kernel`) or too many for the WD
    kernel solver (`resolve_scale`).
    """


def resolve_kernel(options: RunOptions, lengths_differ: bool) -> RunOptions:
    """The options with ``kernel="auto"`` decided as far as the data allow.

    Records of different lengths (not cropped) leave only the position-free
    model: ``kernel="gkm"``, with a one-line `FamilyNotice`. Otherwise
    `narrow_kernel` decides. Other kernels are returned unchanged.

    Parameters
    ----------
    options : RunOptions
    lengths_differ : bool
        Whether the records read have different lengths.

    Returns
    -------
    RunOptions

    Raises
    ------
    InputError
        For records of different lengths with an option of the WD kernel.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     resolve_kernel(RunOptions(), lengths_differ=True).kernel
    'gkm'
    >>> resolve_kernel(RunOptions(), lengths_differ=False).kernel
    'auto'
    >>> resolve_kernel(RunOptions(shift=4), lengths_differ=False).kernel
    'wd'
    """
    if options.kernel != "auto":
        return options
    if not lengths_differ:
        return narrow_kernel(options)
    given = [f"--{name}" for name in _positional_options(options)]
    if given:
        raise InputError(
            "the records have different lengths, which only the position-free "
            f"model (--kernel gkm) takes, but {', '.join(given)} set the positional "
            "WD kernel: centre-crop the records with --crop, or leave those out"
        )
    warnings.warn(
        FamilyNotice(
            "the records have different lengths: using the position-free gapped "
            "k-mer model (GkmSVC; --crop LENGTH for the positional WD kernel)"
        ),
        stacklevel=2,
    )
    return replace(options, kernel=position_free_family())


def resolve_strands(options: RunOptions, unoriented: bool) -> RunOptions:
    """The options with both strands read by default where records have no strand.

    A window around an unstranded peak has no orientation: which strand the
    genome lists is chance, so by default the models read both strands alike
    (``reverse_complement=True``, as LS-GKM does), unless the option was
    given or the WD model takes its linear solver (which reads one strand).
    On the synthetic peaks of ``benchmarks/bench_variant_calls.py`` the WD
    model's CV AUC rose from 0.838 to 0.871 and its variant calls from 72 %
    to 78 %.

    Parameters
    ----------
    options : RunOptions
        With ``solver`` resolved (`resolve_solver`).
    unoriented : bool
        Whether the records are windows of peaks without strands.

    Returns
    -------
    RunOptions

    Examples
    --------
    >>> resolve_strands(RunOptions(kernel="wd"), True).reverse_complement
    True
    >>> resolve_strands(RunOptions(kernel="wd"), False).reverse_complement is None
    True
    >>> linear = RunOptions(kernel="wd", solver="linear")
    >>> resolve_strands(linear, True).reverse_complement
    """
    if not unoriented or options.reverse_complement is not None:
        return options
    if not family_of(options).takes_strands(options):  # a CNN reads both always
        return options
    return replace(options, reverse_complement=True)


def resolve_scale(options: RunOptions, n: int) -> RunOptions:
    """``kernel="auto"`` on more records than the WD kernel solver takes: gkm.

    Where the WD kernel solver cannot take every record
    (`poimkit.run.registry.kernel_too_large`), the WD family would take its
    linear solver: no selection, one strand, and an exact k-mer table that
    grows with the records (8 GiB at 6·10^4 records, degree 20). The gapped
    k-mer model's linear solver grows linearly with a fixed l-mer table, and
    on held-out ChIP-seq it led the WD model (benchmarks/RESULTS.md). So
    ``kernel="auto"`` with ``solver="auto"`` and ``cv_sample`` set takes it,
    with a one-line `FamilyNotice`, unless an option of the WD kernel is
    given. Other settings are returned unchanged.

    Parameters
    ----------
    options : RunOptions
    n : int
        Number of records.

    Returns
    -------
    RunOptions

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     warnings.simplefilter("always")
    ...     resolve_scale(RunOptions(), 50_000).kernel
    'gkm'
    >>> resolve_scale(RunOptions(), 5_000).kernel
    'auto'
    >>> resolve_scale(RunOptions(degree=10), 50_000).kernel
    'auto'
    """
    from .registry import kernel_too_large

    if options.kernel != "auto" or options.solver != "auto" or not options.cv_sample:
        return options
    reason = kernel_too_large(n)
    gkm = replace(options, kernel=position_free_family())
    if reason is None or _positional_options(options) or not _takes(gkm):
        return options
    warnings.warn(
        FamilyNotice(
            f"{n} records are too many for the WD kernel solver ({reason}): using "
            "the gapped k-mer model (GkmSVC, linear in the records; --kernel wd "
            "for the WD kernel's linear solver)"
        ),
        stacklevel=2,
    )
    return gkm


def narrow_kernel(options: RunOptions) -> RunOptions:
    """``kernel="auto"`` on records of equal length: "wd" unless the CV chooses.

    The inner cross-validation chooses between the `FAMILIES` only if it runs
    (`RunOptions.selects`), no option of the WD kernel (degree, shift,
    mismatches) is given and the gkm model takes the options (e.g. its
    solver); otherwise the family is wd, today's positional model.

    Parameters
    ----------
    options : RunOptions

    Returns
    -------
    RunOptions
        ``kernel`` "auto" (to be chosen by the inner CV) or "wd"; other
        kernels unchanged.
    """
    if options.kernel != "auto":
        return options
    first, *others = searched_families()
    given = _positional_options(options)
    takes = all(_takes(replace(options, kernel=other)) for other in others)
    if given or not options.selects or not takes:
        return replace(options, kernel=first)
    return options


def _positional_options(options: RunOptions) -> list[str]:
    """The options of the preferred (positional) family that ``options`` set."""
    first = family(searched_families()[0])
    return [name for name in first.own_options if getattr(options, name) is not None]


def _takes(options: RunOptions) -> bool:
    """Whether `RunOptions.check_model` accepts the options."""
    try:
        options.check_model()
    except InputError:
        return False
    return True


def search_families(options: RunOptions, length: int, n: int) -> list | None:
    """The families and candidates of the inner CV, or None if nothing is chosen.

    Parameters
    ----------
    options : RunOptions
        ``kernel`` "auto" compares the `FAMILIES` (each with its whole grid,
        even of one candidate); a fixed family is searched alone.
    length : int
        Sequence length (caps the shifts).
    n : int
        Number of sequences (`search_grid`).

    Returns
    -------
    list of (str, RunOptions, Grid) or None
        Name, options (``kernel`` set to the family) and candidates of each
        family, in the order of preference for a tie.
    """
    if options.kernel != "auto":
        grid = search_grid(options, length, n)
        return None if grid is None else [(options.kernel, options, grid)]
    out = []
    for name in searched_families():
        own = replace(options, kernel=name)
        if family(name).takes_length(own, length):  # gkm: records as long as l
            out.append((name, own, family(name).grid(own, length, n)))
    return out
