"""Score FASTA files larger than memory, chunk by chunk.

`score_fasta` scores a file chunk by chunk with any fitted model, reading it
with `poimkit.io.iter_fasta_chunks` (the checks of `poimkit.io.read_fasta`,
raising the same `~poimkit.errors.InputError` naming the file, record and
1-based position); `write_scores` writes those scores to a TSV file as they
come, atomically. `iter_fasta_chunks` and `count_records` are importable from
here too. `score_windows` and `write_windows` score every window of the
model's length along records of any lengths (a sliding window with a step),
from the model's explicit weights, leaving out (and counting) the windows that
hold N; `score_records` is the whole job of ``poimkit score``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..additive import decomposition, position_free
from ..contract import SequenceModel
from ..errors import InputError
from ..io.fasta import (
    DEFAULT_CHUNK_SIZE,
    count_records,
    iter_fasta_chunks,
    iter_sequences,
)
from ..io.files import write_table

__all__ = [
    "count_records",
    "iter_fasta_chunks",
    "score_records",
    "score_fasta",
    "score_windows",
    "write_scores",
    "write_windows",
]

#: letters of windows scored at once by a positional model (bounds the memory)
WINDOW_BLOCK = 1 << 22


def score_fasta(
    model: SequenceModel,
    path: str | os.PathLike,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    **kwargs: Any,
) -> Iterator[tuple[list[str], np.ndarray]]:
    """Score a FASTA file chunk by chunk with ``model.scores``.

    A classifier's decision values; a regressor's (`WDKernelSVR`, `GkmSVR`)
    predictions.

    Parameters
    ----------
    model : SequenceModel
        A fitted poimkit model (`poimkit.contract`): any `poimkit.load_model`
        opens.
    path : str or path-like
        Plain or gzip FASTA.
    chunk_size : int
        Largest number of records scored at once.
    **kwargs
        ``on_invalid``, ``crop_length``, ``drop_short`` and ``stats`` of
        `iter_fasta_chunks`. A positional model centre-crops longer records
        to its own length unless ``crop_length`` is given (counted in
        ``stats["cropped"]``); a position-free model (``position_free =
        True``) scores records of any lengths.

    Yields
    ------
    ids : list of str
    scores : numpy.ndarray of float64

    Raises
    ------
    InputError
        As `iter_fasta_chunks`, or if the records' length is not the model's.
    """
    if position_free(model):
        for ids, X in iter_fasta_chunks(path, chunk_size, any_length=True, **kwargs):
            yield ids, model.scores(X)
        return
    if kwargs.get("crop_length") is None:
        kwargs["crop_length"] = model.length_  # the model's own crop
    for ids, X in iter_fasta_chunks(path, chunk_size, **kwargs):
        if X.shape[1] != model.length_:
            raise InputError(
                f"sequences have length {X.shape[1]} but the model was trained on "
                f"length {model.length_} (centre-crop them: crop_length / --crop "
                f"{model.length_})",
                path=os.fspath(path),
            )
        yield ids, model.scores(X)


def write_scores(
    model: SequenceModel,
    path: str | os.PathLike,
    out: str | os.PathLike,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    **kwargs: Any,
) -> int:
    """Write ``id, score, probability, predicted`` rows for every record of ``path``.

    For a regressor (no ``classes_``): ``id, predicted`` rows, the predicted
    target.

    Scores are computed and written chunk by chunk; ``out`` is written
    atomically (`poimkit.io.write_table`), so it never holds a partial table.

    Parameters
    ----------
    model : estimator
        A fitted model, as in `score_fasta`. A classifier's ``probability``
        is that of ``classes_[1]`` by its ``calibration_`` and ``predicted``
        the class of probability at least 1/2 (without a calibration, ``NA``
        and ``classes_[score > 0]``).
    path : str or path-like
        Plain or gzip FASTA to score.
    out : str or path-like
        The TSV file to write.
    chunk_size : int
        Largest number of records scored at once.
    **kwargs
        Options of `score_fasta`.

    Returns
    -------
    int
        The number of records scored.
    """
    count = 0

    regressor = model.classes_ is None  # no labels: a regressor or a torch model

    def rows():
        nonlocal count
        for ids, scores in score_fasta(model, path, chunk_size, **kwargs):
            if regressor:
                for rid, score in zip(ids, scores, strict=True):
                    yield rid, f"{score:.10g}"
            else:
                for rid, score, p, label in zip(
                    ids, scores, *_labelled(model, scores), strict=True
                ):
                    yield rid, f"{score:.10g}", p, label
            count += len(ids)

    header = (
        ["id", "predicted"]
        if regressor
        else ["id", "score", "probability", "predicted"]
    )
    write_table(out, header, rows())
    return count


def _labelled(model: Any, scores: np.ndarray) -> tuple[list[str], np.ndarray]:
    """A classifier's probability cells and labels for its scores.

    With ``calibration_`` (a Platt scaling, `poimkit.svm.calibration`), the
    probability of ``classes_[1]`` and the class of probability at least 1/2;
    without (an LS-GKM file), ``NA`` and the score's sign.
    """
    from ..svm.calibration import labelled_positive, probability

    calibration = model.calibration_
    labels = model.classes_[labelled_positive(scores, calibration).astype(np.intp)]
    if calibration is None:
        return ["NA"] * scores.size, labels
    return [f"{v:.6g}" for v in probability(scores, calibration)], labels


def _window_scorer(model: Any, width: int):
    """``score(codes, starts)``: scores of the windows ``codes[s : s + width]``.

    From the explicit weights: a positional model's `KmerWeights` (per window,
    its ``width`` positions), a gkm model's l-mer table (both strands folded
    in) with prefix sums of the l-mer weights along the record, O(1) per
    window after one pass. Models without them score cut windows with their
    own ``decision_function``.
    """
    from ..errors import InputError

    kind = decomposition(model)
    if kind == "lmer_table" and not model.per_sequence_normalisation:
        # (LS-GKM's per-sequence normalisation is not a sum over windows)
        from ..svm.gkm import MAX_LMER_TABLE

        if model.l <= MAX_LMER_TABLE:
            return _lmer_windows(model, width)
    score = model.scores
    if kind == "positional":
        try:
            score = model.explicit_weights().decision_function
        except (InputError, AttributeError):  # e.g. hashed orders
            pass

    def by_blocks(codes: np.ndarray, starts: np.ndarray) -> np.ndarray:
        view = np.lib.stride_tricks.sliding_window_view(codes, width)
        out = np.empty(starts.size)
        block = max(1, WINDOW_BLOCK // width)
        for lo in range(0, starts.size, block):
            cut = np.ascontiguousarray(view[starts[lo : lo + block]])
            out[lo : lo + block] = score(cut)
        return out

    return by_blocks


def _lmer_windows(model: Any, width: int):
    """An l-mer table's window scores: prefix sums of its l-mer weights, O(1) each."""
    from ..kernels import _gkm

    f = model.lmer_weights(width)
    l, bias = int(model.l), float(model.intercept_)

    def by_lmers(codes: np.ndarray, starts: np.ndarray) -> np.ndarray:
        values = np.empty(codes.size - l + 1)
        _gkm.lmer_values(codes, l, f, values)
        prefix = np.concatenate(([0.0], np.cumsum(values)))
        return bias + prefix[starts + width - l + 1] - prefix[starts]

    return by_lmers


def _skipped_starts(invalid: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """Which ``starts`` begin a window ``[s, s + width)`` holding a flagged letter.

    From the runs of flagged letters (an assembly has few, however long): a
    run ``[a, b)`` spoils the starts ``a - width < s < b``.
    """
    edges = np.flatnonzero(np.diff(invalid.view(np.int8), prepend=0, append=0))
    first, stop = edges[0::2], edges[1::2]
    if not first.size:
        return np.zeros(starts.size, dtype=bool)
    delta = np.zeros(starts.size + 1, dtype=np.int64)
    np.add.at(delta, np.searchsorted(starts, first - width + 1), 1)
    np.add.at(delta, np.searchsorted(starts, stop), -1)
    return np.cumsum(delta[:-1]) > 0


def score_windows(
    model: SequenceModel,
    path: str | os.PathLike,
    step: int,
    stats: dict[str, int] | None = None,
    progress: bool = False,
) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    r"""Score every window of the model's length along each record.

    A window holding a letter other than A, C, G, T/U (an assembly's N gaps,
    IUPAC codes) is left out and counted in ``stats["invalid"]``; the rest of
    its record is scored.

    Parameters
    ----------
    model : estimator
        A fitted `WDKernelSVC`, `WDLinearSVC` or `GkmSVC`: windows are
        ``length_`` letters long (a gkm model's training length, which sets
        its normalisation).
    path : str or path-like
        Plain or gzip FASTA; records of any lengths and letters.
    step : int
        Distance between window starts: ``0, step, 2 step, ...`` while the
        window fits in the record.
    stats : dict, optional
        Updated with ``records`` (with a window scored), ``windows``
        (scored), ``short`` (records shorter than a window, skipped) and
        ``invalid`` (windows holding N or another letter, skipped).
    progress : bool
        Show a progress bar over the records on standard error.

    Yields
    ------
    id : str
    starts : numpy.ndarray of int64
        0-based window starts; a window is ``[start, start + length_)``.
    scores : numpy.ndarray of float64
        Equal to ``model.decision_function`` of the cut windows.

    Raises
    ------
    InputError
        As `poimkit.io.iter_records`, naming the file and record.

    Examples
    --------
    >>> import os, tempfile
    >>> from poimkit import WDKernelSVC
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=10, n_neg=10, length=12, random_state=0)
    >>> model = WDKernelSVC(degree=3).fit(X, y)
    >>> path = os.path.join(tempfile.mkdtemp(), "a.fa")
    >>> _ = open(path, "w").write(">a\n" + "ACGT" * 5 + "\n>b\nACGT\n")
    >>> [(rid, starts.tolist()) for rid, starts, _ in score_windows(model, path, 4)]
    [('a', [0, 4, 8])]
    >>> _ = open(path, "w").write(">a\n" + "ACGT" * 4 + "N" + "ACGT" * 4 + "\n")
    >>> stats = {}
    >>> [(rid, starts.tolist()) for rid, starts, _ in score_windows(
    ...     model, path, 4, stats=stats)], stats["invalid"]
    ([('a', [0, 4, 20])], 3)
    """
    from tqdm.auto import tqdm

    from .._threads import numba_threads
    from .._validation import check_int
    from ..alphabet import letter_codes

    check_int(step, "step", 1)
    width = int(model.length_)
    score = _window_scorer(model, width)
    stats = {} if stats is None else stats
    for name in ("records", "windows", "short", "invalid"):
        stats.setdefault(name, 0)
    records = tqdm(
        iter_sequences(path), unit="record", disable=not progress, leave=False
    )
    with numba_threads(model.n_threads):
        for rid, seq in records:
            if len(seq) < width:
                stats["short"] += 1
                continue
            codes, invalid = letter_codes(seq)
            starts = np.arange(0, codes.size - width + 1, step, dtype=np.int64)
            if invalid.any():
                skipped = _skipped_starts(invalid, starts, width)
                stats["invalid"] += int(skipped.sum())
                starts = starts[~skipped]
            if not starts.size:
                continue
            stats["records"] += 1
            stats["windows"] += starts.size
            yield rid, starts, score(codes, starts)


def write_windows(
    model: SequenceModel,
    path: str | os.PathLike,
    out: str | os.PathLike,
    step: int,
    **kwargs: Any,
) -> dict[str, int]:
    """Write a BED-like table of window scores: ``#id start end score``.

    Starts are 0-based and ends exclusive, as in BED; ``out`` is written
    atomically (`poimkit.io.write_table`).

    Parameters
    ----------
    model, path, step
        As in `score_windows`.
    out : str or path-like
        The table to write (``.gz``: gzip).
    **kwargs
        ``progress`` of `score_windows`.

    Returns
    -------
    dict
        ``records``, ``windows``, ``short`` and ``invalid`` of `score_windows`.

    Raises
    ------
    InputError
        If no window was scored (``out`` is then left as it was).
    """
    stats: dict[str, int] = {}
    width = int(model.length_)

    def rows():
        for rid, starts, scores in score_windows(
            model, path, step, stats=stats, **kwargs
        ):
            for start, score in zip(starts.tolist(), scores.tolist(), strict=True):
                yield rid, start, start + width, f"{score:.10g}"
        if not stats["windows"]:  # before the table is committed
            raise InputError(
                "no window to score: none of the "
                f"{stats['records'] + stats['short']} records holds a window of "
                f"{width} letters (the model's) without N",
                path=os.fspath(path),
            )

    write_table(out, ["#id", "start", "end", "score"], rows())
    return stats


def score_records(
    model_path: str | os.PathLike,
    fasta: str | os.PathLike,
    out: str | os.PathLike,
    windows: int | None = None,
    threads: int | None = None,
    progress: bool = False,
    **read: Any,
) -> list[str]:
    """Score the records of a FASTA file into a table: the lines to tell the user.

    Parameters
    ----------
    model_path : str or path-like
        A model file (`poimkit.load_model`).
    fasta : str or path-like
        The records to score.
    out : str or path-like
        The table to write.
    windows : int, optional
        Score every window of the model's length at this step
        (`write_windows`) instead of one score per record (`write_scores`).
    threads : int, optional
        Threads for numba.
    progress : bool
        Progress bar over the records (windows only).
    **read
        ``on_invalid``, ``crop_length`` and ``drop_short`` of
        `iter_fasta_chunks`. With ``windows``, ``on_invalid`` does not apply
        (windows holding N are skipped and counted, `score_windows`) and
        ``crop_length`` and ``drop_short`` are refused.

    Returns
    -------
    list of str
        Notices and the summary line.
    """
    from ..model_files import load_model

    if windows is not None:
        from .._validation import check_int

        check_int(windows, "--windows", 1)
        if read.get("crop_length") is not None or read.get("drop_short"):
            raise InputError("--crop and --drop-short do not apply with --windows")
    model = load_model(model_path)
    if threads is not None:
        model.n_threads = threads
    width = int(model.length_)
    if windows is not None:
        stats = write_windows(model, fasta, out, windows, progress=progress)
        lines = []
        if stats["short"]:
            lines.append(
                f"{stats['short']} records shorter than the model's window of "
                f"{width} letters were skipped"
            )
        if stats["invalid"]:
            lines.append(
                f"skipped {stats['invalid']} windows holding N (or another letter "
                "than A, C, G, T)"
            )
        lines.append(
            f"scored {stats['windows']} windows of {width} letters (step "
            f"{windows}) in {stats['records']} records into {out}"
        )
        return lines
    stats = {}
    count = write_scores(model, fasta, out, stats=stats, **read)
    lines = []
    if stats.get("cropped") and read.get("crop_length") is None:
        lines.append(
            f"{stats['cropped']} of {count} records were longer than the model's "
            f"{width} letters and were scored on their central {width} (score "
            "every window with --windows STEP)"
        )
    return [*lines, f"scored {count} sequences into {out}"]
