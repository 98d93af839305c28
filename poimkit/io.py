"""Sequence and label files in, tables out; all validation of user files lives here.

Reading
    `read_fasta` reads one FASTA file (plain or gzip, detected by its magic
    bytes) into record ids and a ``uint8`` code array; `read_labeled` reads a
    labelled data set from a positive and a negative FASTA file, or from one
    FASTA file and a table of id and label. Every problem raises `InputError`
    naming the file and, where there is one, the record id and the 1-based
    position, so that a user can find and fix it.

Writing
    `write_fasta` and `write_table` write atomically through `atomic_path`: the
    target either keeps its old content or receives the complete new one,
    never a partial file. A ``.gz`` suffix selects gzip output.

Conventions
    * Labels are ints, ``1`` for the positive and ``0`` for the negative class.
    * Centre-crop to length ``m`` keeps ``seq[start : start + m]`` with
      ``start = (len(seq) - m) // 2``; when ``len(seq) - m`` is odd the extra
      letter is removed at the end.
    * Positions in messages are 1-based and refer to the record as written
      in the file, also after cropping.
"""

from __future__ import annotations

import contextlib
import contextvars
import gzip
import io
import itertools
import math
import os
import secrets
import warnings
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Literal

import numpy as np
from Bio.SeqIO.FastaIO import SimpleFastaParser

from .alphabet import check_codes, decode, encode
from .errors import InputError
from .outdir import unfinished

__all__ = [
    "DroppedRecordsWarning",
    "atomic_path",
    "commit_together",
    "output_folder",
    "read_fasta",
    "read_labeled",
    "write_fasta",
    "write_table",
]

PathLike = str | os.PathLike

_GZIP_MAGIC = b"\x1f\x8b"
_OTHER_COMPRESSION = {  # magic bytes; bzip2 adds a level digit and "1AY&SY"
    b"BZh": "bzip2",
    b"\xfd7zXZ\x00": "xz",
    b"PK\x03\x04": "zip",
    b"\x28\xb5\x2f\xfd": "zstd",
}
_ON_INVALID = ("error", "drop")
_SHOW_IDS = 5  # how many ids a message lists before "..."

# Label words, compared case-insensitively (see `read_labeled`).
POSITIVE_WORDS = frozenset({"1", "+1", "+", "pos", "positive", "true", "t", "yes", "y"})
NEGATIVE_WORDS = frozenset({"0", "-1", "-", "neg", "negative", "false", "f", "no", "n"})


class DroppedRecordsWarning(UserWarning):
    """Records were dropped by ``on_invalid="drop"``; the message names how many.

    Attributes
    ----------
    count : int
        How many records were dropped.
    """

    def __init__(self, message: str, count: int = 0) -> None:
        super().__init__(message)
        self.count = count


# --------------------------------------------------------------------------- #
# reading
# --------------------------------------------------------------------------- #


def _show(ids: Sequence[str]) -> str:
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


def _read_text(path: PathLike) -> str:
    """Whole file as text: gzip by magic bytes, UTF-8, universal newlines."""
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

    UTF-8 with universal newlines, as `_read_text`; decoding errors surface
    while reading (`iter_records` callers turn them into `InputError`).
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

    ``lines`` is any iterable of text lines (a file handle or
    ``io.StringIO``); blank lines before the first record are skipped, any
    other text there is an error. Only the ids seen so far are kept in memory.
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
    seen: dict[str, int] = {}
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
            raise InputError(
                f"duplicated record id (records number {seen[rid]} and "
                f"{number}); ids must be unique",
                path=name,
                record=rid,
            )
        seen[rid] = number
        if not seq:
            raise InputError(
                "empty sequence (a header line with no sequence lines)",
                path=name,
                record=rid,
            )
        yield rid, seq


def clean_record(
    rid: str, full: str, name: str, on_invalid: str, crop_length: int | None
) -> np.ndarray | None:
    """Codes of one record, centre-cropped; None if dropped (``on_invalid="drop"``).

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

    ``stacklevel`` is that of a warning issued by the caller itself.
    """
    if dropped:
        warnings.warn(
            DroppedRecordsWarning(
                f"{name}: dropped {len(dropped)} of {n_records} records "
                f"{reason}: {_show(dropped)}",
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
    if crop_length is not None and (
        isinstance(crop_length, bool)
        or not isinstance(crop_length, int | np.integer)
        or crop_length < 1
    ):
        raise InputError(
            f"crop_length must be None or a positive integer, got {crop_length!r}"
        )


def _read_fasta(
    path: PathLike,
    on_invalid: str,
    crop_length: int | None,
    stacklevel: int,
    any_length: bool = False,
    drop_short: bool = False,
) -> tuple[list[str], np.ndarray | list[np.ndarray], list[str]]:
    """`read_fasta` that also returns the ids of dropped records."""
    _check_options(on_invalid, crop_length)
    name = os.fspath(path)
    records = list(iter_records(io.StringIO(_read_text(name)), name))
    if crop_length is not None:
        short = [rid for rid, full in records if len(full) < crop_length]
        if short and drop_short:
            warnings.warn(
                DroppedRecordsWarning(
                    f"{name}: dropped {len(short)} of {len(records)} records shorter "
                    f"than crop_length={crop_length}: {_show(short)}",
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
    ids, X, _ = _read_fasta(
        path, on_invalid, crop_length, 3, any_length=any_length, drop_short=drop_short
    )
    return ids, X


def _label_key(value: str, numeric: bool) -> float | str:
    return float(value) if numeric else value.casefold()


def _is_number(value: str) -> bool:
    try:
        return math.isfinite(float(value))
    except ValueError:
        return False


def _read_label_table(
    path: PathLike, fasta_ids: set[str]
) -> list[tuple[int, str, str]]:
    """Rows ``(line number, id, label)`` of a two-column table; header skipped."""
    name = os.fspath(path)
    rows: list[tuple[int, str, str]] = []
    for number, line in enumerate(_read_text(name).split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 2:
            shown = line if len(line) <= 60 else line[:60] + "..."
            raise InputError(
                f"line {number}: expected 2 columns (id, label) separated by a tab, "
                f"found {len(fields)}: {shown!r}",
                path=name,
            )
        rows.append((number, fields[0], fields[1]))
    if rows:
        _, first_id, first_label = rows[0]
        other_labels = {label for _, _, label in rows[1:]}
        if first_id not in fasta_ids and first_label not in other_labels:
            rows = rows[1:]  # a header line such as "id<TAB>label"
    if not rows:
        raise InputError(
            "no labels: the table holds no 'id<TAB>label' lines", path=name
        )
    return rows


def _classes(
    labels: list[str], positive_label: str | None, name: str
) -> dict[str, int]:
    """Map each label string to 1 (positive) or 0 (negative)."""
    numeric = all(_is_number(label) for label in labels)
    keys = Counter(_label_key(label, numeric) for label in labels)
    spelled = {}
    for label in labels:
        spelled.setdefault(_label_key(label, numeric), label)
    if len(keys) != 2:
        found = ", ".join(
            f"{spelled[key]!r} ({count} rows)" for key, count in keys.most_common(6)
        )
        if len(keys) == 1:
            raise InputError(
                f"only one class, {found}, is present; both positive and "
                "negative examples are needed",
                path=name,
            )
        raise InputError(
            f"expected exactly two distinct labels, found {len(keys)}: {found}"
            f"{', ...' if len(keys) > 6 else ''}",
            path=name,
        )
    first, second = keys
    if positive_label is not None:
        wanted = str(positive_label)
        wanted_key = (
            float(wanted) if numeric and _is_number(wanted) else wanted.casefold()
        )
        if wanted_key not in keys:
            raise InputError(
                f"positive_label {wanted!r} is not one of the labels "
                f"{spelled[first]!r}, {spelled[second]!r}",
                path=name,
            )
        positive = wanted_key
    elif numeric:
        positive = max(first, second)
    else:
        pos = [key for key in keys if key in POSITIVE_WORDS]
        neg = [key for key in keys if key in NEGATIVE_WORDS]
        if len(pos) != 1 or len(neg) != 1:
            raise InputError(
                f"cannot tell which of the labels {spelled[first]!r} and "
                f"{spelled[second]!r} is positive; use numbers (the larger is "
                "positive), words such as pos/neg, positive/negative, true/false, "
                "yes/no, or name the positive one (positive_label, CLI: "
                "--positive-label)",
                path=name,
            )
        positive = pos[0]
    return {label: int(_label_key(label, numeric) == positive) for label in set(labels)}


def read_labeled(
    pos: PathLike | None = None,
    neg: PathLike | None = None,
    *,
    fasta: PathLike | None = None,
    labels: PathLike | None = None,
    on_invalid: Literal["error", "drop"] = "error",
    crop_length: int | None = None,
    positive_label: str | None = None,
    any_length: bool = False,
    drop_short: bool = False,
) -> tuple[list[str], np.ndarray | list[np.ndarray], np.ndarray]:
    """Read a labelled sequence data set.

    Give either ``pos`` and ``neg`` (two FASTA files), or ``fasta`` and
    ``labels`` (one FASTA file and a table of id and label).

    Parameters
    ----------
    pos, neg : str or path-like, optional
        FASTA files of the positive and the negative class, read with
        `read_fasta`. Their sequences must have the same length (after
        ``crop_length``) and their ids must not overlap.
    fasta : str or path-like, optional
        One FASTA file holding both classes.
    labels : str or path-like, optional
        Plain or gzip text with two columns, record id and label, separated
        by a tab (or spaces). Blank lines and lines starting with ``#`` are
        skipped. The first line is a header, and skipped, when its id is not
        a record of ``fasta`` and its label occurs on no other line. Every
        record of ``fasta`` needs exactly one line, and every line a record
        (records dropped by ``on_invalid="drop"`` may keep their line).
    on_invalid, crop_length, any_length, drop_short
        As in `read_fasta`, applied to every FASTA file (with ``any_length``
        the classes may differ in length and ``X`` is a list of arrays).
    positive_label : str, optional
        The label of the positive class in ``labels``. By default: if both
        labels are numbers the larger one is positive (``1/0``, ``+1/-1``,
        ``2/1``; ``1`` and ``1.0`` are the same label); otherwise the labels
        are compared case-insensitively with the words in `POSITIVE_WORDS`
        (``1, +1, +, pos, positive, true, t, yes, y``) and `NEGATIVE_WORDS`
        (``0, -1, -, neg, negative, false, f, no, n``), one from each.

    Returns
    -------
    ids : list of str
        Record ids: the positives then the negatives, or ``fasta`` order.
    X : numpy.ndarray of uint8, shape (n_records, length)
        Letter codes.
    y : numpy.ndarray of int64, shape (n_records,)
        ``1`` for positive, ``0`` for negative.

    Raises
    ------
    InputError
        Besides the errors of `read_fasta`: inconsistent arguments; lengths
        that differ between ``pos`` and ``neg`` or an id found in both;
        a malformed table line (file and line number), a duplicated id in
        the table, ids in the table but not in ``fasta`` or the reverse, more
        than two labels, only one class, or labels whose positive class
        cannot be told.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fa = os.path.join(folder, "all.fa")
    ...     tsv = os.path.join(folder, "labels.tsv")
    ...     write_fasta(fa, ["s1", "s2", "s3"], ["ACGT", "AAAA", "GATT"])
    ...     write_table(tsv, ["id", "label"], [("s1", "neg"), ("s2", "pos"),
    ...                                        ("s3", "pos")])
    ...     ids, X, y = read_labeled(fasta=fa, labels=tsv)
    >>> ids, y.tolist()
    (['s1', 's2', 's3'], [0, 1, 1])
    """
    pair = pos is not None or neg is not None
    single = fasta is not None or labels is not None
    if (
        pair == single
        or (pair and (pos is None or neg is None))
        or (single and (fasta is None or labels is None))
    ):
        raise InputError(
            "give either pos and neg (a FASTA file per class), or fasta and labels "
            "(one FASTA file and a table of id and label)"
        )
    if pair:
        if positive_label is not None:
            raise InputError("positive_label applies only to a labels table")
        pos_name, neg_name = os.fspath(pos), os.fspath(neg)
        options = (on_invalid, crop_length, 3, any_length, drop_short)
        ids_p, X_p, _ = _read_fasta(pos_name, *options)
        ids_n, X_n, _ = _read_fasta(neg_name, *options)
        if not any_length and X_p.shape[1] != X_n.shape[1]:
            raise InputError(
                f"sequences have length {X_n.shape[1]} but those in {pos_name} have "
                f"length {X_p.shape[1]}; both classes need the same length "
                "(centre-crop both with crop_length / --crop)",
                path=neg_name,
            )
        both = set(ids_p).intersection(ids_n)
        if both:
            shared = [i for i in ids_n if i in both]
            raise InputError(
                f"{len(shared)} record ids occur in both {pos_name} and {neg_name}: "
                f"{_show(shared)}; ids must be unique",
                path=neg_name,
            )
        y = np.concatenate(
            [np.ones(len(ids_p), np.int64), np.zeros(len(ids_n), np.int64)]
        )
        X = X_p + X_n if any_length else np.concatenate([X_p, X_n])
        return ids_p + ids_n, X, y

    fasta_name, labels_name = os.fspath(fasta), os.fspath(labels)
    ids, X, dropped = _read_fasta(
        fasta_name, on_invalid, crop_length, 3, any_length, drop_short
    )
    kept, gone = set(ids), set(dropped)
    rows = _read_label_table(labels_name, kept | gone)
    label_of: dict[str, str] = {}
    line_of: dict[str, int] = {}
    for number, rid, label in rows:
        if rid in line_of:
            raise InputError(
                f"id listed twice in the table (lines {line_of[rid]} and {number})",
                path=labels_name,
                record=rid,
            )
        line_of[rid] = number
        label_of[rid] = label
    unknown = [rid for rid in label_of if rid not in kept and rid not in gone]
    if unknown:
        raise InputError(
            f"{len(unknown)} ids in the table are not records of {fasta_name}: "
            f"{_show(unknown)} (first on line {line_of[unknown[0]]})",
            path=labels_name,
        )
    unlabeled = [rid for rid in ids if rid not in label_of]
    if unlabeled:
        raise InputError(
            f"{len(unlabeled)} records of {fasta_name} have no label: "
            f"{_show(unlabeled)}",
            path=labels_name,
        )
    used = [label_of[rid] for rid in ids]
    classes = _classes(used, positive_label, labels_name)
    y = np.array([classes[label] for label in used], dtype=np.int64)
    return ids, X, y


# --------------------------------------------------------------------------- #
# writing
# --------------------------------------------------------------------------- #


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
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
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
    """
    path = Path(path)
    missing = [p for p in (path, *path.parents) if not p.exists()]
    path.mkdir(parents=True, exist_ok=True)
    batch = _COMMIT.get()
    if batch is not None:
        batch[2].extend(reversed(missing))  # parents first
    return path


@contextlib.contextmanager
def _text_writer(tmp: str, gz: bool) -> Iterator[io.TextIOBase]:
    """Open a text handle on ``tmp``, gzip-compressed if ``gz``.

    gzip output carries no file name or time stamp (equal input, equal bytes)
    and uses level 6 like the gzip tool: level 9 is several times slower on
    DNA for files 2% smaller.
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


def _is_gz(path: PathLike) -> bool:
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
    if line_width is not None and (
        isinstance(line_width, bool)
        or not isinstance(line_width, int | np.integer)
        or line_width < 1
    ):
        raise ValueError(
            f"line_width must be a positive int or None, got {line_width!r}"
        )
    with atomic_path(path) as tmp, _text_writer(tmp, _is_gz(path)) as handle:
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

    with atomic_path(path) as tmp, _text_writer(tmp, _is_gz(path)) as handle:
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


def write_npz(path: PathLike, kind: str, version: int, arrays: dict) -> None:
    """Write a poimkit result file: ``.npz`` (no pickle), atomically.

    ``kind`` and ``version`` are stored as ``format`` and ``format_version`` so
    that `read_npz` can refuse files of another kind or version.
    """
    from ._version import __version__

    pickled = [k for k, a in arrays.items() if np.asarray(a).dtype.kind == "O"]
    if pickled:  # np.savez would pickle them, and read_npz refuses pickles
        raise TypeError(f"object arrays cannot be written without pickle: {pickled}")
    header = {
        "format": np.str_(kind),
        "format_version": np.int64(version),
        "poimkit_version": np.str_(__version__),
    }
    with atomic_path(path) as tmp:
        np.savez_compressed(tmp, **header, **arrays)


def _load_npz(path: str, what: str, keys=None) -> dict[str, np.ndarray]:
    """Arrays of an ``.npz`` file (all, or those of ``keys`` it has), no pickle."""
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as data:
            names = data.files if keys is None else [k for k in keys if k in data]
            return {key: data[key] for key in names}
    except FileNotFoundError:
        raise InputError(f"{what} file not found", path=path) from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        # numpy's own message for a non-npz file suggests loading it with
        # pickle, which poimkit never does: say what the file is not instead
        reason = "" if "pickle" in str(exc) else f": {exc}"
        raise InputError(f"not a {what} file (.npz){reason}", path=path) from None


def npz_format(path: PathLike, what: str = "poimkit") -> str:
    """The ``format`` a file written by `write_npz` declares ('' if none).

    ``what`` names the expected kind in the error for an unreadable file.
    """
    return str(_load_npz(str(path), what, ["format"]).get("format", ""))


def read_npz(path: PathLike, kind: str, version: int) -> dict[str, np.ndarray]:
    """Read every array of a file written by `write_npz`, never unpickling.

    Raises
    ------
    InputError
        Naming the file, if it is missing, not a readable ``.npz``, holds object
        arrays, is of another kind, or of a format version other than ``version``.
    """
    path = str(path)
    arrays = _load_npz(path, kind)
    if str(arrays.get("format", "")) != kind:
        raise InputError(f"not a {kind} file", path=path)
    found = int(arrays.get("format_version", -1))
    if found != version:
        raise InputError(
            f"{kind} format version {found} is not supported (this poimkit reads "
            f"version {version}); recreate the file or upgrade poimkit",
            path=path,
        )
    return arrays
