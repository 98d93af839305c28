"""Score FASTA files larger than memory, chunk by chunk.

`score_fasta` scores a file chunk by chunk with any fitted model, reading it
with `poimkit.io.iter_fasta_chunks` (the checks of `poimkit.io.read_fasta`,
raising the same `~poimkit.errors.InputError` naming the file, record and
1-based position); `write_scores` writes those scores to a TSV file as they
come, atomically. `iter_fasta_chunks` and `count_records` are importable from
here too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, Protocol

import numpy as np

from ..errors import InputError
from ..io.fasta import DEFAULT_CHUNK_SIZE, count_records, iter_fasta_chunks
from ..io.files import write_table

__all__ = ["count_records", "iter_fasta_chunks", "score_fasta", "write_scores"]


class _Classifier(Protocol):
    """What `score_fasta` needs of a fitted model (besides ``length_``)."""

    classes_: np.ndarray

    def decision_function(self, X: Any) -> np.ndarray: ...


def score_fasta(
    model: _Classifier,
    path: str | os.PathLike,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    **kwargs: Any,
) -> Iterator[tuple[list[str], np.ndarray]]:
    """Score a FASTA file chunk by chunk with ``model.decision_function``.

    Parameters
    ----------
    model : estimator
        A fitted `WDKernelSVC`, `WDLinearSVC` or `GkmSVC`, or any estimator
        with ``decision_function`` and ``length_``.
    path : str or path-like
        Plain or gzip FASTA.
    chunk_size : int
        Largest number of records scored at once.
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
    model: _Classifier,
    path: str | os.PathLike,
    out: str | os.PathLike,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    **kwargs: Any,
) -> int:
    """Write ``id, score, predicted`` rows for every record of ``path``.

    Scores are computed and written chunk by chunk; ``out`` is written
    atomically (`poimkit.io.write_table`), so it never holds a partial table.

    Parameters
    ----------
    model : estimator
        A fitted model, as in `score_fasta`; ``predicted`` is
        ``model.classes_[score > 0]``.
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

    def rows():
        nonlocal count
        for ids, scores in score_fasta(model, path, chunk_size, **kwargs):
            labels = model.classes_[(scores > 0).astype(np.intp)]
            for rid, score, label in zip(ids, scores, labels, strict=True):
                yield rid, f"{score:.10g}", label
            count += len(ids)

    write_table(out, ["id", "score", "predicted"], rows())
    return count
