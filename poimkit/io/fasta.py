"""Reading FASTA files: whole (`read_fasta`) or in chunks (`iter_fasta_chunks`).

A FASTA file, plain or gzip (detected by its magic bytes), becomes record ids
and a ``uint8`` code array. Every problem raises `InputError` naming the file
and, where there is one, the record id and the 1-based position, so that a
user can find and fix it. Both readers share the record parser
(`iter_records`, which drops a record repeating an earlier one, id and
sequence, with a warning) and the cleaning of a record (`clean_record`); the
chunked reader holds only the current chunk (and the ids seen) in memory.

Conventions
    * Centre-crop to length ``m`` keeps ``seq[start : start + m]`` with
      ``start = (len(seq) - m) // 2``; when ``len(seq) - m`` is odd the extra
      letter is removed at the end.
    * Positions in messages are 1-based and refer to the record as written
      in the file, also after cropping.
"""

from __future__ import annotations

import gzip
import io
import itertools
import os
import warnings
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

import numpy as np
from Bio.SeqIO.FastaIO import SimpleFastaParser

from .._validation import is_positive_int
from ..alphabet import encode
from ..errors import InputError
from .files import PathLike

__all__ = [
    "DroppedRecordsWarning",
    "count_records",
    "iter_fasta_chunks",
    "iter_sequences",
    "read_fasta",
]

DEFAULT_CHUNK_SIZE = 65536

_GZIP_MAGIC = b"\x1f\x8b"
_OTHER_COMPRESSION = {  # magic bytes; bzip2 adds a level digit and "1AY&SY"
    b"BZh": "bzip2",
    b"\xfd7zXZ\x00": "xz",
    b"PK\x03\x04": "zip",
    b"\x28\xb5\x2f\xfd": "zstd",
}
_ON_INVALID = ("error", "drop")
_SHOW_IDS = 5  # how many ids a message lists before "..."


class DroppedRecordsWarning(UserWarning):
    """Records were dropped by ``on_invalid="drop"``; the message names how many.

    Parameters
    ----------
    message : str
        The warning's text.
    count : int
        How many records were dropped.

    Attributes
    ----------
    count : int
        How many records were dropped.
    """

    def __init__(self, message: str, count: int = 0) -> None:
        super().__init__(message)
        self.count = count


def show_ids(ids: Sequence[str]) -> str:
    """The first few record ids, quoted, for a message (``..."`` if there are more).

    Parameters
    ----------
    ids : sequence of str
        Record ids.

    Returns
    -------
    str
    """
    shown = ", ".join(repr(i) for i in ids[:_SHOW_IDS])
    return shown + (", ..." if len(ids) > _SHOW_IDS else "")


def _file_error(exc: OSError, name: str) -> InputError:
    """The `InputError` for a file that cannot be opened."""
    if isinstance(exc, FileNotFoundError):
        return InputError("file not found", path=name)
    if isinstance(exc, IsADirectoryError):
        return InputError("is a directory, not a file", path=name)
    return InputError(f"cannot read the file ({exc.strerror})", path=name)


def _is_gzip(head: bytes, name: str) -> bool:
    """True for gzip data; other compressions (by magic bytes) are refused."""
    if head.startswith(_GZIP_MAGIC):
        return True
    for magic, kind in _OTHER_COMPRESSION.items():
        if head.startswith(magic) and (kind != "bzip2" or head[4:10] == b"1AY&SY"):
            raise InputError(
                f"the file is {kind}-compressed; only plain text and gzip are "
                "read (decompress it, or recompress it with gzip)",
                path=name,
            )
    return False


def read_text(path: PathLike) -> str:
    """Whole file as text: gzip by magic bytes, UTF-8, universal newlines.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    str
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise _file_error(exc, name) from None
    if _is_gzip(raw, name):
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(
                f"corrupt or truncated gzip data ({exc})", path=name
            ) from None
    if b"\x00" in raw:
        line = raw[: raw.index(b"\x00")].count(b"\n") + 1
        raise InputError(
            f"binary data (a NUL byte on line {line}), not a text file", path=name
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(
            f"not a text file: byte 0x{raw[exc.start]:02x} on line {line} is not "
            "valid UTF-8/ASCII",
            path=name,
        ) from None
    text = text.removeprefix("\ufeff")
    # universal newlines: \r\n and \r become \n
    return text.replace("\r\n", "\n").replace("\r", "\n")


def open_text(path: PathLike) -> io.TextIOBase:
    """Text handle on a plain or gzip file (by magic bytes), for streaming.

    UTF-8 with universal newlines, as `read_text`; decoding errors surface
    while reading (`iter_records` callers turn them into `InputError`).

    Parameters
    ----------
    path : str or path-like
        The file to read.

    Returns
    -------
    io.TextIOBase
        An open text handle; the caller closes it.

    Raises
    ------
    InputError
        If the file cannot be opened, or is compressed other than with gzip.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            head = handle.read(10)
    except OSError as exc:
        raise _file_error(exc, name) from None
    if _is_gzip(head, name):
        return gzip.open(name, "rt", encoding="utf-8", newline=None)
    return open(name, encoding="utf-8", newline=None)


def iter_records(lines: Iterable[str], name: str) -> Iterator[tuple[str, str]]:
    """``(id, sequence)`` of every FASTA record; ids unique, both non-empty.

    A record that repeats an earlier one, id and sequence (as published peak
    files do), is left out; one `DroppedRecordsWarning` at the end names how
    many. Only the ids seen so far (with a hash of their sequence) are kept
    in memory.

    Parameters
    ----------
    lines : iterable of str
        Text lines, such as a file handle or ``io.StringIO``; blank lines
        before the first record are skipped, any other text there is an
        error.
    name : str
        The file name used in error messages.

    Yields
    ------
    tuple of (str, str)
        Record id (first word of the header) and sequence as written.

    Raises
    ------
    InputError
        For an empty file, text before the first header, a record without id
        or sequence, binary data or an id given to two different sequences.
    """
    lines = iter(lines)
    first = ""
    for line in lines:
        first = line.removeprefix("\ufeff").lstrip()
        if first:
            break
    if not first:
        raise InputError(
            "empty file; expected FASTA records, each a '>' header line followed "
            "by sequence lines",
            path=name,
        )
    if not first.startswith(">"):
        shown = first.split("\n", 1)[0]
        shown = shown if len(shown) <= 40 else shown[:40] + "..."
        raise InputError(
            f"not a FASTA file: the first line {shown!r} does not start with '>' "
            "(every record needs a '>id' header line)",
            path=name,
        )
    seen: dict[str, tuple[int, int]] = {}  # id: (record number, hash(sequence))
    repeats: list[str] = []
    number = 0
    records = SimpleFastaParser(itertools.chain([first], lines))
    for number, (title, seq) in enumerate(records, 1):
        words = title.split(None, 1)
        rid = words[0] if words else ""
        if not rid:
            raise InputError(f"record number {number} has no id after '>'", path=name)
        if "\x00" in title or "\x00" in seq:
            raise InputError(
                "binary data (a NUL byte), not a text file", path=name, record=rid
            )
        if rid in seen:
            if seen[rid][1] == hash(seq):  # the same record again
                repeats.append(rid)
                continue
            raise InputError(
                f"duplicated record id with a different sequence (records number "
                f"{seen[rid][0]} and {number}); ids must be unique",
                path=name,
                record=rid,
            )
        seen[rid] = number, hash(seq)
        if not seq:
            raise InputError(
                "empty sequence (a header line with no sequence lines)",
                path=name,
                record=rid,
            )
        yield rid, seq
    report_dropped(
        name, repeats, number, 2, "repeating an earlier record (same id and sequence)"
    )


def iter_sequences(path: PathLike) -> Iterator[tuple[str, str]]:
    """`iter_records` of a plain or gzip FASTA file: sequences as written, streamed.

    Parameters
    ----------
    path : str or path-like
        The file.

    Yields
    ------
    tuple of (str, str)

    Raises
    ------
    InputError
        As `iter_records`, or for a file that is not UTF-8 text or gzip.
    """
    name = os.fspath(path)
    with open_text(name) as handle:
        try:
            yield from iter_records(handle, name)
        except (UnicodeDecodeError, EOFError, OSError, zlib.error) as exc:
            raise InputError(
                f"not readable as UTF-8 text or gzip ({exc})", path=name
            ) from None


def clean_record(
    rid: str, full: str, name: str, on_invalid: str, crop_length: int | None
) -> np.ndarray | None:
    """Codes of one record, centre-cropped; None if dropped (``on_invalid="drop"``).

    Parameters
    ----------
    rid : str
        Record id, for error messages.
    full : str
        The sequence as written in the file.
    name : str
        The file name, for error messages.
    on_invalid : {"error", "drop"}
        What to do with a letter other than A, C, G, T/U (see `read_fasta`).
    crop_length : int or None
        Centre-crop to this length (see `read_fasta`); None keeps it whole.

    Returns
    -------
    numpy.ndarray of uint8 or None
        The letter codes, or None for a record dropped by ``on_invalid``.

    Raises
    ------
    InputError
        For a record shorter than ``crop_length``, or a letter other than
        A, C, G, T/U with ``on_invalid="error"`` (1-based position in the file).
    """
    seq, offset = full, 0
    if crop_length is not None:
        if len(full) < crop_length:
            raise InputError(
                f"sequence has length {len(full)}, shorter than "
                f"crop_length={crop_length} (--crop {crop_length}; for scoring, the "
                "model's length); leave such records out with drop_short=True "
                "(CLI: --drop-short) or crop shorter",
                path=name,
                record=rid,
            )
        offset = (len(full) - crop_length) // 2
        seq = full[offset : offset + crop_length]
    try:
        return encode(seq, [rid])[0]
    except InputError as exc:
        if on_invalid == "drop":
            return None
        position = None if exc.position is None else exc.position + offset
        raise InputError(
            exc.reason
            + ' (or pass on_invalid="drop" / --drop-invalid to skip such records)',
            path=name,
            record=rid,
            position=position,
        ) from None


def report_dropped(
    name: str,
    dropped: Sequence[str],
    n_records: int,
    stacklevel: int,
    reason: str = "with letters other than A, C, G, T/U",
) -> None:
    """Warn about dropped records; an error if none is left.

    Parameters
    ----------
    name : str
        The file name, for the message.
    dropped : sequence of str
        Ids of the dropped records (nothing happens if empty).
    n_records : int
        How many records the file held.
    stacklevel : int
        That of a warning issued by the caller itself.
    reason : str
        Why they were dropped, for the message.

    Raises
    ------
    InputError
        If every record was dropped.
    """
    if dropped:
        warnings.warn(
            DroppedRecordsWarning(
                f"{name}: dropped {len(dropped)} of {n_records} records "
                f"{reason}: {show_ids(dropped)}",
                count=len(dropped),
            ),
            stacklevel=stacklevel + 1,
        )
    if dropped and len(dropped) == n_records:
        raise InputError(
            f"all {len(dropped)} records were dropped ({reason}); no record is left",
            path=name,
        )


def _check_options(on_invalid: str, crop_length: int | None) -> None:
    if on_invalid not in _ON_INVALID:
        raise InputError(f"on_invalid must be 'error' or 'drop', got {on_invalid!r}")
    if crop_length is not None and not is_positive_int(crop_length):
        raise InputError(
            f"crop_length must be None or a positive integer, got {crop_length!r}"
        )


def read_fasta_with_dropped(
    path: PathLike,
    on_invalid: str,
    crop_length: int | None,
    stacklevel: int,
    any_length: bool = False,
    drop_short: bool = False,
) -> tuple[list[str], np.ndarray | list[np.ndarray], list[str]]:
    """`read_fasta` that also returns the ids of dropped records.

    Parameters
    ----------
    path : str or os.PathLike
        The FASTA file (plain or gzip).
    on_invalid, crop_length, any_length, drop_short
        As in `read_fasta`.
    stacklevel : int
        Stack level of the warnings about dropped records.

    Returns
    -------
    ids : list of str
    X : numpy.ndarray of uint8, shape (n, L), or list of numpy.ndarray
    dropped : list of str
        Ids of the records left out.
    """
    _check_options(on_invalid, crop_length)
    name = os.fspath(path)
    records = list(iter_records(io.StringIO(read_text(name)), name))
    if crop_length is not None:
        short = [rid for rid, full in records if len(full) < crop_length]
        if short and drop_short:
            warnings.warn(
                DroppedRecordsWarning(
                    f"{name}: dropped {len(short)} of {len(records)} records shorter "
                    f"than crop_length={crop_length}: {show_ids(short)}",
                    count=len(short),
                ),
                stacklevel=stacklevel,
            )
            if len(short) == len(records):
                raise InputError(
                    f"all {len(records)} records are shorter than "
                    f"crop_length={crop_length}; no record is left",
                    path=name,
                )
            records = [r for r in records if len(r[1]) >= crop_length]
        elif short:
            first = next(r for r in records if len(r[1]) < crop_length)
            shortest = min(len(full) for _, full in records)
            raise InputError(
                f"sequence has length {len(first[1])}, shorter than "
                f"crop_length={crop_length}; {len(short)} of {len(records)} records "
                f"are shorter (the shortest has {shortest} letters): crop to at "
                f"most {shortest}, or drop them (drop_short=True, CLI: --drop-short)",
                path=name,
                record=first[0],
            )
    ids: list[str] = []
    rows: list[np.ndarray] = []
    dropped: list[str] = []
    for rid, full in records:
        codes = clean_record(rid, full, name, on_invalid, crop_length)
        if codes is None:
            dropped.append(rid)
        else:
            ids.append(rid)
            rows.append(codes)
    report_dropped(name, dropped, len(ids) + len(dropped), stacklevel)
    if any_length:
        return ids, rows, dropped
    lengths = Counter(len(row) for row in rows)
    if len(lengths) > 1:
        common = lengths.most_common(1)[0][0]
        odd = next(i for i, row in zip(ids, rows, strict=True) if len(row) != common)
        odd_length = len(rows[ids.index(odd)])
        found = ", ".join(
            f"{length} ({count} record{'s' * (count > 1)})"
            for length, count in lengths.most_common(4)
        )
        raise InputError(
            f"sequence has length {odd_length} but {lengths[common]} of {len(rows)} "
            f"records have length {common} (lengths found: {found}"
            f"{', ...' if len(lengths) > 4 else ''}); "
            "positional kernels need equal lengths: centre-crop every record with "
            f"crop_length (CLI: --crop; the shortest has {min(lengths)} letters), or "
            "use a position-free model (GkmSVC, CLI: --kernel gkm)",
            path=name,
            record=odd,
        )
    return ids, np.stack(rows), dropped


def read_fasta(
    path: PathLike,
    *,
    on_invalid: Literal["error", "drop"] = "error",
    crop_length: int | None = None,
    any_length: bool = False,
    drop_short: bool = False,
) -> tuple[list[str], np.ndarray | list[np.ndarray]]:
    """Read a FASTA file of equal-length DNA sequences into letter codes.

    Parameters
    ----------
    path : str or path-like
        A FASTA file, plain text or gzip-compressed (recognised by its magic
        bytes, whatever the suffix). Blank lines before the first record are
        ignored; any other text there is an error. The record id is the
        first word of the header line.
    on_invalid : {"error", "drop"}
        What to do with a record holding a letter other than ``A, C, G, T``
        (either case; ``U`` reads as ``T``), such as ``N`` or an IUPAC code.
        ``"error"`` raises; ``"drop"`` leaves the record out and emits a
        `DroppedRecordsWarning` naming how many were dropped and the first
        few ids.
    crop_length : int, optional
        Centre-crop every record to this length: keep
        ``seq[start : start + crop_length]`` with
        ``start = (len(seq) - crop_length) // 2`` (an odd surplus loses its
        extra letter at the end). Letters are checked only inside the kept
        window. A record shorter than ``crop_length`` is an error (naming the
        shortest length), unless ``drop_short``.
    any_length : bool
        Keep records of any lengths (for position-free models, `GkmSVC`):
        ``X`` is then a list of 1-D code arrays.
    drop_short : bool
        Leave out records shorter than ``crop_length``, with a
        `DroppedRecordsWarning` naming how many.

    Returns
    -------
    ids : list of str
        Record ids in file order.
    X : numpy.ndarray of uint8, shape (n_records, length), or list
        Codes ``A=0, C=1, G=2, T=3`` (a list of arrays with ``any_length``).

    Raises
    ------
    InputError
        Naming the file, and where applicable the record id and the 1-based
        position in the record as written in the file: file not found or
        unreadable, empty, binary, not FASTA (no ``>`` header), a record with
        no id or an empty sequence, a duplicated id, an unknown letter (with
        ``on_invalid="error"``), unequal lengths (hint: ``crop_length``), a
        record shorter than ``crop_length``, or no record left after dropping.

    Examples
    --------
    >>> import os, tempfile
    >>> from poimkit.io import write_fasta
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "two.fa")
    ...     write_fasta(path, ["a", "b"], ["ACGTAC", "ttgauu"])
    ...     ids, X = read_fasta(path)
    ...     _, X4 = read_fasta(path, crop_length=3)
    >>> ids, X.tolist()
    (['a', 'b'], [[0, 1, 2, 3, 0, 1], [3, 3, 2, 0, 3, 3]])
    >>> X4.tolist()  # start = (6 - 3) // 2 = 1
    [[1, 2, 3], [3, 2, 0]]
    """
    ids, X, _ = read_fasta_with_dropped(
        path, on_invalid, crop_length, 3, any_length=any_length, drop_short=drop_short
    )
    return ids, X


def iter_fasta_chunks(
    path: PathLike,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    *,
    on_invalid: Literal["error", "drop"] = "error",
    crop_length: int | None = None,
    any_length: bool = False,
    drop_short: bool = False,
    stats: dict[str, int] | None = None,
) -> Iterator[tuple[list[str], np.ndarray | list[np.ndarray]]]:
    r"""Read a FASTA file in chunks of integer codes.

    Parameters
    ----------
    path : str or path-like
        Plain or gzip FASTA (gzip recognised by its magic bytes).
    chunk_size : int, default=65536
        Largest number of records per chunk.
    on_invalid, crop_length
        As in `read_fasta`; dropped records are counted and reported in one
        `DroppedRecordsWarning` at the end.
    any_length : bool
        Records of any lengths: every chunk is a list of 1-D code arrays.
    drop_short : bool
        Leave out records shorter than ``crop_length`` (counted in the warning).
    stats : dict, optional
        Counts, updated as records are read: ``stats["cropped"]`` is the
        number of records yielded centre-cropped (longer than ``crop_length``).

    Yields
    ------
    ids : list of str
    X : numpy.ndarray of uint8, shape (n_chunk, length)
        Every chunk has the length of the file's first record (or ``crop_length``).

    Raises
    ------
    InputError
        With file, record and 1-based position, as `read_fasta`;
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
    if not is_positive_int(chunk_size):
        raise InputError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    name = os.fspath(path)
    length = None
    dropped: list[str] = []
    short: list[str] = []
    n_kept = 0
    ids: list[str] = []
    rows: list[np.ndarray] = []
    for rid, full in iter_sequences(name):
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
                f"sequence has length {codes.shape[0]} but the records before it "
                f"have length {length}; positional kernels need equal lengths: "
                "centre-crop every record with crop_length (CLI: --crop)",
                path=name,
                record=rid,
            )
        if stats is not None and crop_length and len(full) > crop_length:
            stats["cropped"] = stats.get("cropped", 0) + 1
        ids.append(rid)
        rows.append(codes)
        if len(rows) == chunk_size:
            n_kept += len(rows)
            yield ids, rows if any_length else np.stack(rows)
            ids, rows = [], []
    if rows:
        n_kept += len(rows)
        yield ids, rows if any_length else np.stack(rows)
    total = n_kept + len(dropped) + len(short)
    report_dropped(name, dropped, total, stacklevel=2)
    report_dropped(
        name, short, total, stacklevel=2, reason=f"shorter than {crop_length}"
    )


def count_records(path: PathLike, **kwargs: Any) -> tuple[int, int]:
    """Number of (kept) records and their length, reading chunk by chunk.

    Parameters
    ----------
    path : str or path-like
        Plain or gzip FASTA.
    **kwargs
        Options of `iter_fasta_chunks` (not ``any_length``).

    Returns
    -------
    n : int
        Number of records kept.
    length : int
        Their length (0 for none).
    """
    n, length = 0, 0
    for _, X in iter_fasta_chunks(path, **kwargs):
        n, length = n + X.shape[0], X.shape[1]
    return n, length
