"""Read FASTA files chunk by chunk and score files larger than memory.

`iter_fasta_chunks` yields ``(ids, X)`` blocks of at most ``chunk_size``
records with the checks of `poimkit.io.read_fasta` (the same record parser
and cleaning), raising the same `~poimkit.errors.InputError` naming the
file, record and 1-based position. Only the current chunk (and the ids seen,
for the duplicate check) is held in memory. `score_fasta` scores a file chunk
by chunk with any fitted model; `write_scores` writes those scores to a TSV
file as they come, atomically.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from typing import Literal

import numpy as np

from .errors import InputError
from .io import (
    _check_options,
    clean_record,
    iter_records,
    open_text,
    report_dropped,
    write_table,
)

__all__ = ["count_records", "iter_fasta_chunks", "score_fasta", "write_scores"]

DEFAULT_CHUNK_SIZE = 65536


def iter_fasta_chunks(
    path: str | os.PathLike,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    *,
    on_invalid: Literal["error", "drop"] = "error",
    crop_length: int | None = None,
    any_length: bool = False,
    drop_short: bool = False,
) -> Iterator[tuple[list[str], np.ndarray | list[np.ndarray]]]:
    r"""Read a FASTA file in chunks of integer codes.

    Parameters
    ----------
    path : str or path-like
        Plain or gzip FASTA (gzip recognised by its magic bytes).
    chunk_size : int, default=65536
        Largest number of records per chunk.
    on_invalid, crop_length
        As in `poimkit.io.read_fasta`; dropped records are counted and
        reported in one `~poimkit.io.DroppedRecordsWarning` at the end.
    any_length : bool
        Records of any lengths: every chunk is a list of 1-D code arrays.
    drop_short : bool
        Leave out records shorter than ``crop_length`` (counted in the warning).

    Yields
    ------
    ids : list of str
    X : numpy.ndarray of uint8, shape (n_chunk, length)
        Every chunk has the length of the file's first record (or ``crop_length``).

    Raises
    ------
    InputError
        With file, record and 1-based position, as `poimkit.io.read_fasta`;
        an unequal length names the first record that differs from the first.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.fa")
    >>> _ = open(path, "w").write(">a\nACGT\n>b\nacgt\n>c\nTTTT\n")
    >>> [X.shape for _, X in iter_fasta_chunks(path, chunk_size=2)]
    [(2, 4), (1, 4)]
    """
    _check_options(on_invalid, crop_length)
    if (
        isinstance(chunk_size, bool)
        or not isinstance(chunk_size, int)
        or chunk_size < 1
    ):
        raise InputError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    name = os.fspath(path)
    length = None
    dropped: list[str] = []
    short: list[str] = []
    n_kept = 0
    ids: list[str] = []
    rows: list[np.ndarray] = []
    with open_text(name) as handle:
        try:
            for rid, full in iter_records(handle, name):
                if drop_short and crop_length and len(full) < crop_length:
                    short.append(rid)
                    continue
                codes = clean_record(rid, full, name, on_invalid, crop_length)
                if codes is None:
                    dropped.append(rid)
                    continue
                if length is None or any_length:
                    length = codes.shape[0]
                elif codes.shape[0] != length:
                    raise InputError(
                        f"sequence has length {codes.shape[0]} but the records "
                        f"before it have length {length}; positional kernels need "
                        "equal lengths: centre-crop every record with crop_length "
                        "(CLI: --crop)",
                        path=name,
                        record=rid,
                    )
                ids.append(rid)
                rows.append(codes)
                if len(rows) == chunk_size:
                    n_kept += len(rows)
                    yield ids, rows if any_length else np.stack(rows)
                    ids, rows = [], []
        except (UnicodeDecodeError, EOFError, OSError, zlib.error) as exc:
            raise InputError(
                f"not readable as UTF-8 text or gzip ({exc})", path=name
            ) from None
    if rows:
        n_kept += len(rows)
        yield ids, rows if any_length else np.stack(rows)
    total = n_kept + len(dropped) + len(short)
    report_dropped(name, dropped, total, stacklevel=2)
    report_dropped(
        name, short, total, stacklevel=2, reason=f"shorter than {crop_length}"
    )


def count_records(path: str | os.PathLike, **kwargs) -> tuple[int, int]:
    """Number of (kept) records and their length, reading chunk by chunk."""
    n, length = 0, 0
    for _, X in iter_fasta_chunks(path, **kwargs):
        n, length = n + X.shape[0], X.shape[1]
    return n, length


def score_fasta(
    model, path: str | os.PathLike, chunk_size: int = DEFAULT_CHUNK_SIZE, **kwargs
) -> Iterator[tuple[list[str], np.ndarray]]:
    """Score a FASTA file chunk by chunk with ``model.decision_function``.

    Parameters
    ----------
    model : fitted `WDKernelSVC`, `WDLinearSVC` or `GkmSVC` (or any estimator
        with ``decision_function`` and ``length_``)
    path : str or path-like
    chunk_size : int
    **kwargs
        ``on_invalid`` and ``crop_length`` of `iter_fasta_chunks`. A
        positional model centre-crops longer records to its own length
        unless ``crop_length`` is given; a position-free model
        (``position_free = True``) scores records of any lengths.

    Yields
    ------
    ids : list of str
    scores : numpy.ndarray of float64

    Raises
    ------
    InputError
        As `iter_fasta_chunks`, or if the records' length is not the model's.
    """
    if getattr(model, "position_free", False):
        for ids, X in iter_fasta_chunks(path, chunk_size, any_length=True, **kwargs):
            yield ids, np.asarray(model.decision_function(X), dtype=np.float64)
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
        yield ids, np.asarray(model.decision_function(X), dtype=np.float64)


def write_scores(
    model,
    path: str | os.PathLike,
    out: str | os.PathLike,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    **kwargs,
) -> int:
    """Write ``id, score, predicted`` rows for every record of ``path``.

    Scores are computed and written chunk by chunk; ``out`` is written
    atomically (`poimkit.io.write_table`), so it never holds a partial table.

    Returns
    -------
    int
        The number of records scored.
    """
    count = 0

    def rows():
        nonlocal count
        for ids, scores in score_fasta(model, path, chunk_size, **kwargs):
            labels = model.classes_[(scores > 0).astype(np.intp)]
            for rid, score, label in zip(ids, scores, labels, strict=True):
                yield rid, f"{score:.10g}", label
            count += len(ids)

    write_table(out, ["id", "score", "predicted"], rows())
    return count
