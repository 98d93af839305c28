"""The labeled input of a run (`read_input`) and the checks that need it."""

from __future__ import annotations

import hashlib
import os
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from .options import RunOptions

if TYPE_CHECKING:
    pass


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
    copies : MovedCopies or None
        Windows of peaks in a genome: every record moved along the genome by
        a few letters, the copies the WD model trains on (`training`); None
        for records without coordinates.
    """

    ids: list[str]
    X: np.ndarray
    y: np.ndarray
    inputs: list[dict]
    dropped: int
    copies: MovedCopies | None = None

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

    def trains_copies(self, family: str) -> bool:
        """Whether a model of ``family`` trains on `copies` (a WD model).

        Parameters
        ----------
        family : str
            The family's name (`poimkit.run.registry`).
        """
        from .registry import family as registered

        return self.copies is not None and registered(family).trains_on_copies

    def training(self, rows: np.ndarray, family: str) -> tuple[np.ndarray, np.ndarray]:
        """The sequences and labels a model of ``family`` trains on, for ``rows``.

        A WD model on records with `copies` trains on every copy of each of
        its records (all in the training part of a fold: a record and its
        copies never fall on both sides); other models on the records.

        Parameters
        ----------
        rows : numpy.ndarray of int
            Records of the training part.
        family : str
            The family's name (`poimkit.run.registry`).

        Returns
        -------
        X, y : numpy.ndarray
        """
        if not self.trains_copies(family):
            return self.X[rows], self.y[rows]
        windows = self.copies.windows[:, rows]
        labels = np.tile(self.y[rows], windows.shape[0])
        return windows.reshape(-1, windows.shape[-1]), labels

    def subset(self, rows: np.ndarray) -> LabeledData:
        """The records ``rows`` (sorted), with their moved copies.

        Parameters
        ----------
        rows : numpy.ndarray of int
            Records to keep, in the order given.

        Returns
        -------
        LabeledData
            Of the same inputs; ``dropped`` as read.
        """
        copies = self.copies
        if copies is not None:
            copies = MovedCopies(copies.offsets, copies.windows[:, rows])
        ids = [self.ids[i] for i in rows]
        return LabeledData(
            ids, self.X[rows], self.y[rows], self.inputs, self.dropped, copies
        )


@dataclass(frozen=True)
class MovedCopies:
    """Every record's window moved along the genome by each offset.

    Peak windows are centred on a summit that is itself uncertain by some
    letters, and a factor's site lies anywhere near it; a positional model
    trained on the windows moved by a few letters (as summit-jitter
    augmentation does for sequence models of ChIP-seq) learns its k-mers at
    every column they may take, not only where the training windows put them.

    Attributes
    ----------
    offsets : tuple of int
        Letters each copy is moved by; the first is 0 (the record itself).
    windows : numpy.ndarray of uint8, shape (len(offsets), n, L)
        The copies (`poimkit.genome.peaks.moved_windows`).
    """

    offsets: tuple[int, ...]
    windows: np.ndarray

    def describe(self) -> dict:
        """For ``summary.json``: the offsets and how many copies each record has."""
        return {"offsets": list(self.offsets), "copies": len(self.offsets)}


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
    from .registry import family

    layout = "either" if kernel == "auto" else family(kernel).layout
    if layout == "matrix":
        return X
    if layout == "rows" or len({len(x) for x in X}) > 1:
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
            any_length=options.kernel != "wd",
            positive_label=options.positive_label,
            **reading_options(options),
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


def reading_options(options: RunOptions) -> dict:
    """What to do with invalid and short records, and the crop length.

    Parameters
    ----------
    options : RunOptions
        ``drop_invalid``, ``crop`` and ``drop_short``.

    Returns
    -------
    dict
        ``on_invalid``, ``crop_length`` and ``drop_short``, as the readers of
        `poimkit.io` take them.
    """
    return {
        "on_invalid": "drop" if options.drop_invalid else "error",
        "crop_length": options.crop,
        "drop_short": options.drop_short,
    }


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


def run_sample(data: LabeledData, options: RunOptions) -> LabeledData:
    """The records a run cross-validates and finds its motifs in.

    ``data`` itself, or with more records than ``options.cv_sample`` a
    stratified random sample of that many (seed ``options.seed``; the
    records in reading order).

    Parameters
    ----------
    data : LabeledData
        Every record read.
    options : RunOptions
        ``cv_sample`` and ``seed``.

    Returns
    -------
    LabeledData
    """
    from ..svm.selection import stratified_sample

    if not options.cv_sample:
        return data
    rows = stratified_sample(data.y, options.cv_sample, options.seed)
    return data if rows is None else data.subset(rows)


def sample_description(sample: LabeledData | None, data: LabeledData) -> dict | None:
    """For ``summary.json``: the sample's size and of how many, or None.

    Parameters
    ----------
    sample : LabeledData or None
        `run_sample`'s records (None: every record).
    data : LabeledData
        Every record.
    """
    if sample is None or sample is data:
        return None
    return {
        "records": int(sample.y.size),
        "of": int(data.y.size),
        "positive": int((sample.y == 1).sum()),
    }


def sample_text(sample: dict, used: str) -> str:
    """`sample_description` in words, for the command line.

    Parameters
    ----------
    sample : dict
        ``records``, ``of`` and ``positive``.
    used : str
        What the sample was used for.

    Examples
    --------
    >>> sample_text({"records": 20000, "of": 200000, "positive": 10000}, "the CV")
    'the CV on a stratified sample of 20000 of the 200000 records (--cv-sample); \
the final model trained on all'
    """
    return (
        f"{used} on a stratified sample of {sample['records']} of the "
        f"{sample['of']} records (--cv-sample); the final model trained on all"
    )


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
