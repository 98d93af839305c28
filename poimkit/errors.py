"""The package's error class for bad input."""

from __future__ import annotations

import os


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

    @classmethod
    def refused_write(cls, exc: OSError, path: str | os.PathLike) -> InputError:
        """The error of an output the system refused to write.

        Parameters
        ----------
        exc : OSError
            The refusal (disk full, read-only file system, quota, I/O error).
        path : str or path-like
            The output being written, named in the message (the file the
            system names, if any, may be a temporary one).

        Returns
        -------
        InputError

        Examples
        --------
        >>> import errno
        >>> full = OSError(errno.ENOSPC, "No space left on device")
        >>> str(InputError.refused_write(full, "m.npz"))
        'm.npz: cannot write: No space left on device'
        """
        return cls(f"cannot write: {exc.strerror or exc}", path=os.fspath(path))
