"""The labeled input of a run (`read_input`) and the checks that need it."""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from .options import RunOptions

if TYPE_CHECKING:
    from ..background import MarkovBackground
    from ..poim import Poim


@dataclass
class LabeledData:
    """Labeled sequences as a run reads them (`read_input`).

    Attributes
    ----------
    ids : list of str
        Record ids, in reading order.
    X : numpy.ndarray
        ``(n, L)`` letter codes for records of one length; for
        ``kernel="gkm"`` or records of different lengths a 1-D object array
        of code rows (`as_codes`).
    y : numpy.ndarray
        Labels, 1 positive and 0 negative (targets, for a regression).
    inputs : list of dict
        The files read: ``role``, absolute ``path`` and ``sha256`` each
        (empty for data given in memory).
    dropped : int
        Records left out while reading (invalid letters, too short).
    """

    ids: list[str]
    X: np.ndarray
    y: np.ndarray
    inputs: list[dict]
    dropped: int

    @property
    def length(self) -> int:
        """The sequence length; for records of any lengths the median one."""
        if self.X.ndim == 2:
            return int(self.X.shape[1])
        from ..kernels.gkm import typical_length

        return typical_length(self.X)

    @property
    def lengths_differ(self) -> bool:
        """Whether the records have different lengths."""
        return self.X.ndim == 1 and len({len(x) for x in self.X}) > 1


def as_rows(seqs: list[np.ndarray]) -> np.ndarray:
    """Sequences of any lengths as a 1-D object array (indexable by arrays).

    Parameters
    ----------
    seqs : list of numpy.ndarray
        Code arrays, one per record.
    """
    rows = np.empty(len(seqs), dtype=object)
    rows[:] = seqs
    return rows


def as_codes(X: np.ndarray | list[np.ndarray], kernel: str) -> np.ndarray:
    """Records as read for ``kernel`` (``read_labeled(any_length=kernel != "wd")``).

    Parameters
    ----------
    X : numpy.ndarray or list of numpy.ndarray
        An ``(n, L)`` array (kernel "wd"), or code arrays, one per record.
    kernel : {"auto", "wd", "gkm"}

    Returns
    -------
    numpy.ndarray
        ``(n, L)`` for records of one length, except with "gkm": then, as
        for records of different lengths, a 1-D object array of rows.
    """
    if kernel == "wd":
        return X
    if kernel == "gkm" or len({len(x) for x in X}) > 1:
        return as_rows(X)
    return np.stack(X)


def file_sha256(path: str) -> str:
    """The SHA-256 checksum of a file, in hex.

    Parameters
    ----------
    path : str
        The file.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_input(
    pos: str | None = None,
    neg: str | None = None,
    fasta: str | None = None,
    labels: str | None = None,
    options: RunOptions | None = None,
) -> LabeledData:
    """Read and validate the labeled sequences; record checksums of the files.

    Parameters
    ----------
    pos, neg : str, optional
        Positive and negative FASTA files.
    fasta, labels : str, optional
        One FASTA file and its two-column label table, instead.
    options : RunOptions, optional
        Reading options (cleaning, crop, labels, kernel); default `RunOptions()`.

    Returns
    -------
    LabeledData
        ``X`` is an ``(n, L)`` array for records of one length, except with
        ``kernel="gkm"`` (a 1-D object array of code rows, as for records of
        different lengths, which ``kernel="auto"`` takes too:
        `LabeledData.lengths_differ` then tells `resolve_kernel` to choose gkm before
        any training). ``kernel="wd"`` refuses different lengths while reading.
    """
    from ..io import DroppedRecordsWarning, read_labeled

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
            any_length=options.kernel != "wd",
            drop_short=options.drop_short,
            positive_label=options.positive_label,
        )
    X = as_codes(X, options.kernel)
    dropped = sum(
        getattr(w.message, "count", 0)
        for w in caught
        if issubclass(w.category, DroppedRecordsWarning)
    )
    for w in caught:  # counted, and passed on (one line each on the CLI)
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    roles = {"pos": pos, "neg": neg, "fasta": fasta, "labels": labels}
    inputs = [
        {"role": role, "path": os.path.abspath(path), "sha256": file_sha256(path)}
        for role, path in roles.items()
        if path is not None
    ]
    return LabeledData(list(ids), X, np.asarray(y), inputs, dropped)


def check_folds(
    data: LabeledData, options: RunOptions, families: list | None = None
) -> None:
    """Raise `InputError` now if a class is too small for the cross-validations.

    Parameters
    ----------
    data : LabeledData
        The labeled sequences.
    options : RunOptions
        ``cv`` and the parameters left to select.
    families : list or None
        ``search_families(options, ...)`` for the data: what the inner
        cross-validation compares (None: nothing).

    The outer CV needs ``options.cv`` sequences per class, and the selection
    of parameters (`poimkit.svm.selection`) its inner folds in every training set.
    """
    from ..svm.selection import INNER_FOLDS

    counts = np.bincount(data.y.astype(np.intp), minlength=2)
    got = f"got {counts[1]} positive and {counts[0]} negative"
    if options.cv and counts.min() < options.cv:
        raise InputError(
            f"{options.cv}-fold cross-validation needs at least {options.cv} "
            f"sequences per class, {got} (lower --cv)"
        )
    if families is not None:
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


def check_poim_memory(
    data: LabeledData, options: RunOptions, candidates: Iterable[tuple]
) -> int:
    """Raise `InputError` now if the POIM step would exceed the memory limit.

    The estimate is `poimkit.poim.engine.estimate_poim_bytes`, the one
    `poimkit.compute_poim` checks, for the largest shift and degree the run
    may train (a WDS model's shifts are convolved, or split at the burn-in of
    a fitted chain); the weights' entries per position are bounded by twice
    the number of sequences (both strands).

    Parameters
    ----------
    data : LabeledData
        The labeled sequences (their length and number).
    options : RunOptions
        ``max_order``, the background and ``memory_limit_gb``.
    candidates : iterable of (str, estimator, Grid or None)
        What the run may train, as `largest_models` takes it.

    Returns
    -------
    int
        The estimate in bytes.
    """
    from .._threads import numba_threads
    from .._validation import check_max_order
    from ..poim.engine import estimate_poim_bytes
    from ..poim.exact import check_memory
    from ..poim.position_free import estimate_bytes as position_free_bytes

    order = options.markov_order if options.background == "fit" else 0
    max_order = min(options.max_order, data.length)
    if options.max_order != RunOptions.max_order:  # the default fits short data
        check_max_order(options.max_order, data.length)
    gkm_l, wds = largest_models(candidates, data.length)
    need = 0  # kernel "auto": the family chosen later may be either
    if gkm_l is not None:
        need = position_free_bytes(data.length, gkm_l, max_order, order)
    if wds is not None:
        shift, degree = wds
        background = make_background(data, options)  # as in the POIM step
        with numba_threads(options.threads):  # as in the POIM step
            positional = estimate_poim_bytes(
                background,
                max_order,
                shift,
                degree=degree,
                per_position=min(4**degree, 2 * data.y.size),
            )
        need = max(need, positional)
    check_memory(need, options.memory_limit_gb * 1024**3, max_order, data.length)
    return need


def largest_models(
    candidates: Iterable[tuple], length: int
) -> tuple[int | None, tuple[int, int] | None]:
    """The largest models a run may train (`check_poim_memory`).

    Parameters
    ----------
    candidates : iterable of (str, estimator, Grid or None)
        Each family the run may train: its name ("gkm" or a WD family), its
        unfitted model and the grid the inner CV searches (None: the model's
        own parameters), as `RunPlan.candidates` and a regression's families
        list them.
    length : int
        The POIM length.

    Returns
    -------
    gkm_l : int or None
        The gkm model's largest ``l`` (None: no gkm model).
    wds : (int, int) or None
        The largest shift and degree of a WD model whose shifts the POIM
        convolves (``(0, 1)``: the POIM of expanded weights, for the linear
        solver or mismatches; None: no WD model).
    """
    gkm_l, wds = None, None
    for name, model, grid in candidates:
        values = {k: [v] for k, v in model.get_params().items()}
        values.update(grid.to_dict() if grid is not None else {})
        if name == "gkm":
            gkm_l = max(values["l"])
        elif not hasattr(model, "shift_base_weights") or any(values["mismatches"]):
            wds = (0, 1)  # the POIM of the expanded weights
        else:
            wds = (int(max(values["shift"])), min(int(max(values["degree"])), length))
    return gkm_l, wds


def compute_run_poim(
    model: object, data: LabeledData, options: RunOptions, progress: bool = False
) -> tuple[Poim, MarkovBackground]:
    """A run's POIM step: the model's POIMs under the run's background.

    Parameters
    ----------
    model : fitted model
        The run's final model.
    data : LabeledData
        The run's records (the POIM length, the background's letters).
    options : RunOptions
        ``max_order``, the background, ``memory_limit_gb`` and ``threads``.
    progress : bool, default=False
        A progress bar of `poimkit.compute_poim`.

    Returns
    -------
    poim : Poim
        Up to ``min(max_order, data.length)``.
    background : MarkovBackground
        `make_background`'s.
    """
    from ..poim import compute_poim

    background = make_background(data, options)
    poim = compute_poim(
        model,
        min(options.max_order, data.length),
        background,
        memory_limit=options.memory_limit_gb * 1024**3,
        n_threads=options.threads,
        progress=progress,
    )
    return poim, background


def make_background(data: LabeledData, options: RunOptions) -> MarkovBackground:
    """Uniform letters, or a Markov chain of order D fitted to all input sequences.

    Parameters
    ----------
    data : LabeledData
        The run's records: the chain is fitted to all of them, whatever their label.
    options : RunOptions
        ``background`` and ``markov_order``.
    """
    from ..background import MarkovBackground

    if options.background == "uniform":
        return MarkovBackground.uniform(data.length)
    if data.X.ndim == 2:
        return MarkovBackground.fit(data.X, order=options.markov_order)
    # records of any lengths: one homogeneous chain over all of them, for the
    # POIM length (position-free POIMs use it in equilibrium)
    return MarkovBackground.fit_pooled(data.X, options.markov_order, data.length)


def motif_data(data: LabeledData) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Sequences, ids and labels for the motif evidence: every record, as read.

    Records of any lengths (``kernel="gkm"``) stay whole: the motifs of a
    position-free model are sought at every start of every record
    (`poimkit.extract_motifs`), so site starts are positions in the records.

    Parameters
    ----------
    data : LabeledData
        The labeled sequences.
    """
    return data.X, data.ids, data.y
