"""Writing outputs atomically: tables, FASTA files and poimkit's ``.npz`` files.

`write_fasta`, `write_table` and `write_npz` write through `atomic_path`:
the target either keeps its old content or receives the complete new one,
never a partial file. A ``.gz`` suffix selects gzip output for text.
`commit_together` makes several such files appear together or not at all,
and `output_folder` creates folders that such a block removes again when it
fails. `read_npz` and `npz_format` read the ``.npz`` files (models, POIMs)
back without ever unpickling.
"""

from __future__ import annotations

import contextlib
import contextvars
import gzip
import io
import os
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from .._validation import is_positive_int
from ..alphabet import check_codes, decode
from ..errors import InputError
from .outdir import unfinished

__all__ = [
    "atomic_path",
    "commit_together",
    "npz_format",
    "output_folder",
    "read_npz",
    "write_fasta",
    "write_npz",
    "write_table",
]

PathLike = str | os.PathLike


@contextlib.contextmanager
def atomic_path(path: PathLike) -> Iterator[str]:
    """Yield a temporary path next to ``path``; rename it into place on success.

    The temporary file is created empty in the same directory (so the final
    `os.replace` is atomic), is hidden (its name starts with ``.``) and ends
    with the same suffix as ``path``, so writers that add a missing suffix,
    such as `numpy.savez` with ``.npz``, write to it unchanged. If the block
    raises, the temporary file is deleted and ``path`` is left untouched.

    Parameters
    ----------
    path : str or path-like
        The final file. Its directory must exist.

    Yields
    ------
    str
        The temporary path to write to.

    Raises
    ------
    InputError
        If the directory of ``path`` does not exist or ``path`` is a
        directory.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     final = os.path.join(folder, "arrays.npz")
    ...     with atomic_path(final) as tmp:
    ...         np.savez(tmp, a=np.arange(3))
    ...     print(sorted(os.listdir(folder)), np.load(final)["a"].tolist())
    ['arrays.npz'] [0, 1, 2]
    """
    name = os.fspath(path)
    final = os.path.abspath(name)
    directory, base = os.path.split(final)
    if not os.path.isdir(directory):
        raise InputError(f"the directory {directory} does not exist", path=name)
    if os.path.isdir(final):
        raise InputError("is a directory; give a file name", path=name)
    suffix = Path(base).suffix
    while True:
        tmp = os.path.join(directory, f".{base}.{secrets.token_hex(6)}.tmp{suffix}")
        try:  # mode 0o666 minus the umask, like open(); O_EXCL: never reuse
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            break
        except FileExistsError:  # pragma: no cover - 48 random bits collided
            continue
    batch = _COMMIT.get()
    with unfinished(tmp):
        try:
            yield tmp
            with open(tmp, "rb+") as handle:
                os.fsync(handle.fileno())
            if batch is None:
                os.replace(tmp, final)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError):  # disk full, quota, I/O error: name the file
                raise InputError.refused_write(exc, name) from None
            raise
    if batch is not None:  # `commit_together` renames it with the others
        pending, marks, _ = batch
        marks.enter_context(unfinished(tmp))
        pending.append((tmp, final))


#: (temporary and final paths, their `unfinished` marks) of the current
#: `commit_together` block; None outside one
_COMMIT: contextvars.ContextVar[tuple | None] = contextvars.ContextVar(
    "poimkit_commit", default=None
)


@contextlib.contextmanager
def commit_together() -> Iterator[None]:
    """All files written through `atomic_path` in the block appear together, or none.

    Each file is written to its temporary name as usual; the renames into
    place wait until the block ends without an error. If anything raises (a
    full disk while writing the third of three outputs, Ctrl-C), every
    temporary file is deleted and no output appears.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> try:
    ...     with commit_together():
    ...         write_table(os.path.join(folder, "a.tsv"), ["x"], [[1]])
    ...         raise OSError("disk full")
    ... except OSError:
    ...     pass
    >>> os.listdir(folder)
    []
    """
    pending: list[tuple[str, str]] = []
    made: list[Path] = []
    with contextlib.ExitStack() as marks:
        token = _COMMIT.set((pending, marks, made))
        try:
            yield
            for tmp, final in pending:
                os.replace(tmp, final)
        except BaseException:
            for tmp, _ in pending:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            for folder in reversed(made):  # empty now, unless someone else wrote
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise
        finally:
            _COMMIT.reset(token)


def output_folder(path: PathLike) -> Path:
    """Create the folder ``path`` (with missing parents) for outputs; return it.

    Inside `commit_together`, the folders created here are removed again if
    the block fails (an existing folder is never removed).

    Parameters
    ----------
    path : str or path-like
        The folder; it may exist already.

    Returns
    -------
    pathlib.Path
        ``path`` as a `~pathlib.Path`.
    """
    path = Path(path)
    missing = [p for p in (path, *path.parents) if not p.exists()]
    path.mkdir(parents=True, exist_ok=True)
    batch = _COMMIT.get()
    if batch is not None:
        batch[2].extend(reversed(missing))  # parents first
    return path


@contextlib.contextmanager
def text_writer(tmp: str, gz: bool) -> Iterator[io.TextIOBase]:
    """Open a text handle on ``tmp``, gzip-compressed if ``gz``.

    gzip output carries no file name or time stamp (equal input, equal bytes)
    and uses level 6 like the gzip tool: level 9 is several times slower on
    DNA for files 2% smaller.

    Parameters
    ----------
    tmp : str
        The (staged) file to write.
    gz : bool
        Compress with gzip.

    Yields
    ------
    io.TextIOBase
    """
    if not gz:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
        return
    with (
        open(tmp, "wb") as raw,
        gzip.GzipFile(
            filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6
        ) as packed,
        io.TextIOWrapper(packed, encoding="utf-8", newline="\n") as handle,
    ):
        yield handle


def is_gz(path: PathLike) -> bool:
    """Whether a file name ends in ``.gz`` (any case).

    Parameters
    ----------
    path : str or os.PathLike
        The file name.

    Returns
    -------
    bool
    """
    return Path(os.fspath(path)).suffix.lower() == ".gz"


def _is_word(text: str) -> bool:
    """Non-empty, no whitespace in the sense of `str.split`."""
    return text.split() == [text]


def write_fasta(
    path: PathLike,
    ids: Sequence[str],
    X_or_strings: np.ndarray | Iterable[str],
    line_width: int | None = 60,
) -> None:
    """Write sequences as FASTA, atomically; a ``.gz`` suffix writes gzip.

    Parameters
    ----------
    path : str or path-like
        Output file; ``.gz`` (any case) selects gzip output, written without
        file name or time stamp so equal input gives equal bytes.
    ids : sequence of str
        Record ids: non-empty, unique, without whitespace (they become the
        whole header line, so that `read_fasta` returns them unchanged).
    X_or_strings : array of int, shape (n, L), or iterable of str
        Letter codes 0..3, or sequence strings written as given (non-empty,
        without whitespace or ``>``; lengths may differ).
    line_width : int or None
        Letters per sequence line; ``None`` writes each sequence on one line.

    Raises
    ------
    ValueError
        For ids or sequences that would not read back unchanged, or a count
        mismatch between them.
    InputError
        If the output directory does not exist.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "out.fa")
    ...     write_fasta(path, ["x"], np.array([[2, 0, 3, 3, 0, 1, 0]]), line_width=4)
    ...     print(open(path).read(), end="")
    >x
    GATT
    ACA
    """
    if isinstance(X_or_strings, np.ndarray) and X_or_strings.dtype.kind in "iub":
        seqs = decode(check_codes(X_or_strings, "X_or_strings"))
    else:
        seqs = [str(s) for s in X_or_strings]
        for k, seq in enumerate(seqs):
            if not _is_word(seq) or ">" in seq:
                raise ValueError(
                    f"sequence number {k} ({seq[:20]!r}) is empty or holds "
                    "whitespace or '>'"
                )
    ids = [str(i) for i in ids]
    if len(ids) != len(seqs):
        raise ValueError(f"got {len(ids)} ids but {len(seqs)} sequences")
    seen: set[str] = set()
    for rid in ids:
        if not _is_word(rid):
            raise ValueError(f"id {rid!r} is empty or holds whitespace")
        if rid in seen:
            raise ValueError(f"id {rid!r} occurs twice; ids must be unique")
        seen.add(rid)
    if line_width is not None and not is_positive_int(line_width):
        raise ValueError(
            f"line_width must be a positive int or None, got {line_width!r}"
        )
    with atomic_path(path) as tmp, text_writer(tmp, is_gz(path)) as handle:
        for rid, seq in zip(ids, seqs, strict=True):
            handle.write(f">{rid}\n")
            step = len(seq) if line_width is None else line_width
            for start in range(0, len(seq), step):
                handle.write(seq[start : start + step] + "\n")


def write_table(
    path: PathLike,
    header: Sequence[str] | None,
    rows: Iterable[Sequence[object]],
) -> None:
    r"""Write a tab-separated table, atomically; a ``.gz`` suffix writes gzip.

    Parameters
    ----------
    path : str or path-like
        Output file.
    header : sequence of str or None
        Column names, written as the first line; ``None`` writes no header.
    rows : iterable of sequences
        One sequence of values per line, formatted with `str` (floats get
        their shortest round-trip form). Every row needs as many fields as
        the header (or as the first row).

    Raises
    ------
    ValueError
        If a field holds a tab or a line break, or a row has the wrong number
        of fields; the target is then left untouched.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "scores.tsv")
    ...     write_table(path, ["id", "score"], [("a", 0.5), ("b", -1.25)])
    ...     lines = open(path).read().splitlines()
    >>> lines
    ['id\tscore', 'a\t0.5', 'b\t-1.25']
    """
    width = None if header is None else len(header)

    def line(fields: Sequence[object], where: str) -> str:
        cells = [str(value) for value in fields]
        for column, cell in enumerate(cells, 1):
            if any(c in cell for c in "\t\n\r"):
                raise ValueError(
                    f"{where}, column {column}: {cell[:30]!r} holds a tab or line break"
                )
        return "\t".join(cells) + "\n"

    with atomic_path(path) as tmp, text_writer(tmp, is_gz(path)) as handle:
        if header is not None:
            handle.write(line(header, "header"))
        for number, row in enumerate(rows, 1):
            fields = list(row)
            if width is None:
                width = len(fields)
            if len(fields) != width:
                raise ValueError(
                    f"row {number} has {len(fields)} fields but the table has "
                    f"{width} columns"
                )
            handle.write(line(fields, f"row {number}"))


#: zlib level of `write_npz`: the letters of a model's 2·10^5 support vectors
#: (40 MB) take 0.4 s at level 1 against 4.0 s at numpy's (6), 14 % larger
NPZ_LEVEL = 1


def write_npz(path: PathLike, kind: str, version: int, arrays: dict) -> None:
    """Write a poimkit result file: ``.npz`` (no pickle), atomically.

    The members are those of `numpy.savez_compressed`, deflated at
    `NPZ_LEVEL`.

    Parameters
    ----------
    path : str or path-like
        Output file (``.npz``).
    kind : str
        The file's kind, stored as ``format``.
    version : int
        The kind's format version, stored as ``format_version``, so that
        `read_npz` can refuse files of another kind or version.
    arrays : dict of str to array-like
        The arrays to store; object arrays are refused (they need pickle).

    Raises
    ------
    TypeError
        For an object array.
    """
    from .._version import __version__

    pickled = [k for k, a in arrays.items() if np.asarray(a).dtype.kind == "O"]
    if pickled:  # np.savez would pickle them, and read_npz refuses pickles
        raise TypeError(f"object arrays cannot be written without pickle: {pickled}")
    header = {
        "format": np.str_(kind),
        "format_version": np.int64(version),
        "poimkit_version": np.str_(__version__),
    }
    import zipfile

    with (
        atomic_path(path) as tmp,
        zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=NPZ_LEVEL) as zf,
    ):
        for name, array in {**header, **arrays}.items():  # as numpy.savez_compressed
            array = np.asanyarray(array)
            with zf.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)


def _load_npz(path: str, what: str, keys=None) -> dict[str, np.ndarray]:
    """Arrays of an ``.npz`` file (all, or those of ``keys`` it has), no pickle.

    The one reader of poimkit's ``.npz`` files: a missing file, a file that is
    no ``.npz`` and a damaged one (bytes changed, cut short) each raise
    `InputError` naming the file, never a zlib or zip error.
    """
    import zipfile
    import zlib

    try:
        with np.load(path, allow_pickle=False) as data:
            names = data.files if keys is None else [k for k in keys if k in data]
            return {key: data[key] for key in names}
    except FileNotFoundError:
        raise InputError(f"{what} file not found", path=path) from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        pickled = "pickle" in str(exc)  # object arrays: never unpickled
        if _starts_as_zip(path) and not pickled:  # an .npz damaged since written
            raise InputError(
                f"corrupt {what} file ({exc}); write it again", path=path
            ) from None
        # numpy's own message for a non-npz file suggests loading it with
        # pickle, which poimkit never does: say what the file is not instead
        reason = "" if pickled else f": {exc}"
        raise InputError(f"not a {what} file (.npz){reason}", path=path) from None


def _starts_as_zip(path: str) -> bool:
    """Whether the file begins like a zip archive (as every ``.npz`` does)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def torch_model_kind(path: PathLike) -> str | None:
    """What kind of saved torch model ``path`` is, told without torch.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    str or None
        ``"torchscript"`` for ``torch.jit.save``'s zip (a ``code/`` folder),
        ``"export"`` for ``torch.export.save``'s (an ``archive_format``
        entry), None for anything else.
    """
    import zipfile

    if not _starts_as_zip(str(path)):
        return None
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return None
    if any("/code/" in name for name in names):
        return "torchscript"
    if any(name.endswith("/archive_format") for name in names):
        return "export"
    return None


def npz_format(path: PathLike, what: str = "poimkit") -> str:
    """The ``format`` a file written by `write_npz` declares ('' if none).

    Parameters
    ----------
    path : str or path-like
        The ``.npz`` file.
    what : str
        The expected kind, named in the error for an unreadable file.

    Returns
    -------
    str
        The declared kind.

    Raises
    ------
    InputError
        If the file is missing or not a readable ``.npz``.
    """
    return str(_load_npz(str(path), what, ["format"]).get("format", ""))


def read_npz(
    path: PathLike, kind: str, version: int | tuple[int, ...], what: str = ""
) -> dict[str, np.ndarray]:
    """Read every array of a file written by `write_npz`, never unpickling.

    Parameters
    ----------
    path : str or path-like
        The ``.npz`` file.
    kind : str
        The kind the file must declare (its ``format``).
    version : int or tuple of int
        The format version the file must declare (or one of them).
    what : str, optional
        What the file is, for messages ("poimkit model"); ``kind`` if empty.

    Returns
    -------
    dict of str to numpy.ndarray
        Every array, including ``format`` and ``format_version``.

    Raises
    ------
    InputError
        Naming the file, if it is missing, not a readable ``.npz``, holds object
        arrays, is of another kind, or of a format version other than ``version``.
    """
    path = str(path)
    arrays = _load_npz(path, what or kind)
    if str(arrays.get("format", "")) != kind:
        raise InputError(f"not a {kind} file", path=path)
    found = int(arrays.get("format_version", -1))
    versions = (version,) if isinstance(version, int) else tuple(version)
    if found not in versions:
        raise InputError(
            f"{kind} format version {found} is not supported (this poimkit reads "
            f"version {' or '.join(map(str, versions))}); recreate the file or "
            "upgrade poimkit",
            path=path,
        )
    return arrays


def file_head(path: PathLike, size: int = 4096) -> str:
    """The first ``size`` characters of a text file (plain or gzip); "" if unreadable.

    Parameters
    ----------
    path : str or path-like
        The file.
    size : int
        How many characters.
    """
    try:
        with open(path, "rb") as raw:
            gz = raw.read(2) == b"\x1f\x8b"
        opener = gzip.open if gz else open
        with opener(path, "rt", encoding="utf-8") as handle:
            return handle.read(size)
    except (OSError, UnicodeDecodeError, EOFError):
        return ""


def same_file(a: PathLike, b: PathLike) -> bool:
    """Whether two paths name one file (links and relative paths resolved).

    Parameters
    ----------
    a, b : str or path-like

    Returns
    -------
    bool

    Examples
    --------
    >>> same_file("x/../calls.vcf.gz", "calls.vcf.gz")
    True
    """
    if os.path.exists(a) and os.path.exists(b):
        return os.path.samefile(a, b)
    return Path(a).resolve() == Path(b).resolve()


def check_replace(
    path: PathLike, force: bool, ours: Callable[[str], bool], command: str
) -> None:
    """Refuse to replace a file without ``force``, or one ``command`` did not write.

    Parameters
    ----------
    path : str or path-like
        The output file.
    force : bool
        Whether the user allows replacing it (``--force``).
    ours : callable
        Whether a file (by path) is an output of ``command``.
    command : str
        The command, for the message (``"poimkit scan"``).

    Raises
    ------
    InputError
        If ``path`` exists and may not be replaced.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        return
    if not force:
        raise InputError(f"{path} exists: give --force to replace it")
    if not ours(path):
        raise InputError(
            f"{path} was not written by {command}; --force only replaces "
            "poimkit's own outputs"
        )
