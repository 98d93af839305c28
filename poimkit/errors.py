"""The package's error class for bad input."""

from __future__ import annotations


class InputError(ValueError):
    """Bad user input, located as precisely as possible.

    The message names the file, the record and the 1-based position when they
    are known, so that a user can find and fix the offending input. The CLI
    turns this error into a one-line message and exit code 2.

    Parameters
    ----------
    message : str
        What is wrong and, where possible, how to fix it.
    path : str, optional
        The file the bad input came from.
    record : str, optional
        The record id (FASTA header word) or row.
    position : int, optional
        1-based position inside the record.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        record: str | None = None,
        position: int | None = None,
    ) -> None:
        self.path = path
        self.record = record
        self.position = position
        self.reason = message
        where = []
        if path is not None:
            where.append(str(path))
        if record is not None:
            where.append(f"record {record!r}")
        if position is not None:
            where.append(f"position {position}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)
