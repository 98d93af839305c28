"""Training data of `WDLinearSVC` as row chunks: arrays, or a FASTA pair on disk.

A FASTA pair is read once, chunk by chunk (`poimkit.io.fasta.iter_fasta_chunks`),
and its codes are written to a temporary memory-mapped ``.npy`` file; the
solver's passes then read that file chunk by chunk, so the sequences never
need to fit in memory (the operating system pages them in and out).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ...io.fasta import iter_fasta_chunks


@dataclass
class ChunkedData:
    """Sequences (array or memmap), labels in {0, 1}, and the chunk bounds.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        The sequences (a memory map for a FASTA pair).
    y : numpy.ndarray of shape (n,)
        Their labels.
    chunk_size : int
        Rows per chunk.
    _tmpdir : tempfile.TemporaryDirectory, optional
        The folder of a memory map, removed by `close`.
    """

    X: np.ndarray
    y: np.ndarray
    chunk_size: int
    _tmpdir: tempfile.TemporaryDirectory | None = field(default=None, repr=False)

    @property
    def chunks(self) -> list[np.ndarray]:
        """Row blocks of ``X`` (views; no copy)."""
        n = self.X.shape[0]
        return [self.X[s : s + self.chunk_size] for s in range(0, n, self.chunk_size)]

    def close(self) -> None:
        """Delete the temporary file, if any."""
        if self._tmpdir is not None:
            self.X = np.empty((0, self.X.shape[1]), dtype=np.uint8)
            self._tmpdir.cleanup()
            self._tmpdir = None


def is_fasta_pair(X: object) -> bool:
    """True for a (positive, negative) pair of paths.

    Parameters
    ----------
    X : object
        What `WDLinearSVC.fit` was given (two DNA strings are not paths).

    Returns
    -------
    bool
    """
    return (
        isinstance(X, tuple | list)
        and len(X) == 2
        and all(isinstance(p, str | os.PathLike) for p in X)
        and not all(isinstance(p, str) and set(p.upper()) <= set("ACGTU") for p in X)
    )


def from_fasta_pair(
    pos: str | os.PathLike,
    neg: str | os.PathLike,
    chunk_size: int,
    **read_kwargs: object,
) -> ChunkedData:
    """Stream two FASTA files into a temporary memmap (positives first).

    Parameters
    ----------
    pos, neg : str or os.PathLike
        FASTA files of the positive and the negative sequences.
    chunk_size : int
        Sequences read (and later passed over) at a time.
    **read_kwargs
        ``on_invalid`` and ``crop_length`` of `poimkit.read_fasta`.

    Returns
    -------
    ChunkedData
        Labels 1 for ``pos``, 0 for ``neg``; `ChunkedData.close` removes the
        file.

    Raises
    ------
    InputError
        If the files hold sequences of different lengths.
    """
    tmpdir = tempfile.TemporaryDirectory(prefix="poimkit-linear-")
    raw_path = os.path.join(tmpdir.name, "codes.u8")
    n_pos = n_neg = 0
    length = None
    try:
        with open(raw_path, "wb") as raw:
            for label, path in ((1, pos), (0, neg)):
                for _, X in iter_fasta_chunks(path, chunk_size, **read_kwargs):
                    if length is None:
                        length = X.shape[1]
                    elif X.shape[1] != length:
                        raise InputError(
                            f"sequences have length {X.shape[1]} but the positives "
                            f"have length {length}; both files need one length",
                            path=os.fspath(path),
                        )
                    raw.write(X.tobytes())
                    if label:
                        n_pos += X.shape[0]
                    else:
                        n_neg += X.shape[0]
    except BaseException:
        tmpdir.cleanup()
        raise
    n = n_pos + n_neg
    X = np.memmap(raw_path, dtype=np.uint8, mode="r", shape=(n, length))
    y = np.concatenate(
        [np.ones(n_pos, dtype=np.int64), np.zeros(n_neg, dtype=np.int64)]
    )
    return ChunkedData(X=X, y=y, chunk_size=chunk_size, _tmpdir=tmpdir)
