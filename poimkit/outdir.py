"""Output folders that appear whole or not at all."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import InputError


@contextmanager
def staged_directory(out: str | os.PathLike, force: bool = False) -> Iterator[Path]:
    """Yield an empty hidden folder next to ``out``; move it to ``out`` on success.

    The folder is created in the parent of ``out`` (same file system, so the
    final rename is atomic). If the block raises, including on
    `KeyboardInterrupt`, the staged folder is deleted and ``out`` is left as it
    was. With ``force``, an existing ``out`` is replaced only after the block
    succeeded.

    Parameters
    ----------
    out : str or path-like
        The final folder.
    force : bool
        Replace ``out`` if it exists; otherwise an existing ``out`` is an error.

    Yields
    ------
    pathlib.Path
        The staged folder to write into.

    Raises
    ------
    InputError
        If ``out`` exists (without ``force``), is a file, or its parent folder
        does not exist.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> with staged_directory(root / "result") as tmp:
    ...     _ = (tmp / "a.txt").write_text("done")
    >>> (root / "result" / "a.txt").read_text()
    'done'
    """
    out = check_output_folder(out, force)
    parent = out.parent if str(out.parent) else Path(".")
    staged = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=parent))
    try:
        yield staged
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    if out.exists():  # --force: swap the old folder out only now
        retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=parent))
        os.replace(out, retired / out.name)
        os.replace(staged, out)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.replace(staged, out)
    # mkdtemp makes 0700 folders; results are ordinary files for their owner's group
    os.chmod(out, 0o755)


def check_output_folder(out: str | os.PathLike, force: bool = False) -> Path:
    """Raise `InputError` if ``out`` cannot become a new output folder; return it.

    See `staged_directory` for the rules; call this before long work so that a
    wrong ``-o`` fails at once.
    """
    out = Path(out)
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"output folder {out}: parent folder {parent} does not exist")
    if out.exists() and not out.is_dir():
        raise InputError(f"output folder {out} is an existing file")
    if out.exists() and not force:
        raise InputError(
            f"output folder {out} exists; choose another -o or pass --force to "
            "replace it"
        )
    return out
