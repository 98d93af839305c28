"""Reading labelled data sets: a FASTA file per class, or one with a label table.

`read_labeled` reads ``pos`` and ``neg`` (CLI: ``--pos``/``--neg``) or
``fasta`` and ``labels`` (CLI: ``--fasta``/``--labels``) into ids, letter
codes and 0/1 labels, with the checks of `poimkit.io.read_fasta` for every
FASTA file. Labels are ints, ``1`` for the positive and ``0`` for the
negative class.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from typing import Literal

import numpy as np

from ..errors import InputError
from .fasta import read_fasta_with_dropped, read_text, show_ids
from .files import PathLike

__all__ = ["NEGATIVE_WORDS", "POSITIVE_WORDS", "read_labeled", "read_targets"]

# Label words, compared case-insensitively (see `read_labeled`).
POSITIVE_WORDS = frozenset({"1", "+1", "+", "pos", "positive", "true", "t", "yes", "y"})
NEGATIVE_WORDS = frozenset({"0", "-1", "-", "neg", "negative", "false", "f", "no", "n"})


def _label_key(value: str, numeric: bool) -> float | str:
    return float(value) if numeric else value.casefold()


def _is_number(value: str) -> bool:
    try:
        return math.isfinite(float(value))
    except ValueError:
        return False


def _read_label_table(
    path: PathLike, fasta_ids: set[str], what: str = "label"
) -> list[tuple[int, str, str]]:
    """Rows ``(line number, id, label)`` of a two-column table; header skipped.

    With ``what="value"`` (a table of numbers) the first line is a header
    when its id is not a record and its value is not a number.
    """
    name = os.fspath(path)
    rows: list[tuple[int, str, str]] = []
    for number, line in enumerate(read_text(name).split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 2:
            shown = line if len(line) <= 60 else line[:60] + "..."
            raise InputError(
                f"line {number}: expected 2 columns (id, {what}) separated by a tab, "
                f"found {len(fields)}: {shown!r}",
                path=name,
            )
        rows.append((number, fields[0], fields[1]))
    if rows:
        _, first_id, first_label = rows[0]
        other_labels = {label for _, _, label in rows[1:]}
        header = (
            not _is_number(first_label)
            if what == "value"
            else first_label not in other_labels
        )
        if first_id not in fasta_ids and header:
            rows = rows[1:]  # a header line such as "id<TAB>label"
    if not rows:
        raise InputError(
            f"no {what}s: the table holds no 'id<TAB>{what}' lines", path=name
        )
    return rows


def _match_table(
    rows: list[tuple[int, str, str]],
    ids: list[str],
    dropped: list[str],
    fasta_name: str,
    table_name: str,
    what: str = "label",
) -> list[str]:
    """The table's value of every record of ``ids``, in that order (checked).

    Refuses an id listed twice, an id that is not a record (kept or
    ``dropped``) of ``fasta_name``, and a record with no line.
    """
    kept, gone = set(ids), set(dropped)
    value_of: dict[str, str] = {}
    line_of: dict[str, int] = {}
    for number, rid, value in rows:
        if rid in line_of:
            raise InputError(
                f"id listed twice in the table (lines {line_of[rid]} and {number})",
                path=table_name,
                record=rid,
            )
        line_of[rid] = number
        value_of[rid] = value
    unknown = [rid for rid in value_of if rid not in kept and rid not in gone]
    if unknown:
        raise InputError(
            f"{len(unknown)} ids in the table are not records of {fasta_name}: "
            f"{show_ids(unknown)} (first on line {line_of[unknown[0]]})",
            path=table_name,
        )
    missing = [rid for rid in ids if rid not in value_of]
    if missing:
        raise InputError(
            f"{len(missing)} records of {fasta_name} have no {what}: "
            f"{show_ids(missing)}",
            path=table_name,
        )
    return [value_of[rid] for rid in ids]


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
    >>> from poimkit.io import write_fasta, write_table
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
        ids_p, X_p, _ = read_fasta_with_dropped(pos_name, *options)
        ids_n, X_n, _ = read_fasta_with_dropped(neg_name, *options)
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
                f"{show_ids(shared)}; ids must be unique",
                path=neg_name,
            )
        y = np.concatenate(
            [np.ones(len(ids_p), np.int64), np.zeros(len(ids_n), np.int64)]
        )
        X = X_p + X_n if any_length else np.concatenate([X_p, X_n])
        return ids_p + ids_n, X, y

    fasta_name, labels_name = os.fspath(fasta), os.fspath(labels)
    ids, X, dropped = read_fasta_with_dropped(
        fasta_name, on_invalid, crop_length, 3, any_length, drop_short
    )
    kept, gone = set(ids), set(dropped)
    rows = _read_label_table(labels_name, kept | gone)
    used = _match_table(rows, ids, dropped, fasta_name, labels_name)
    classes = _classes(used, positive_label, labels_name)
    y = np.array([classes[label] for label in used], dtype=np.int64)
    return ids, X, y


def read_targets(
    fasta: PathLike,
    targets: PathLike,
    *,
    on_invalid: Literal["error", "drop"] = "error",
    crop_length: int | None = None,
    any_length: bool = False,
    drop_short: bool = False,
) -> tuple[list[str], np.ndarray | list[np.ndarray], np.ndarray]:
    r"""Read sequences with a continuous target each (for the regressors).

    Parameters
    ----------
    fasta : str or path-like
        The records, read with `read_fasta`.
    targets : str or path-like
        Plain or gzip text with two columns, record id and value (a finite
        number), separated by a tab or spaces. Blank lines and lines starting
        with ``#`` are skipped; the first line is a header, and skipped, when
        its id is not a record of ``fasta`` and its value is not a number.
        Every record of ``fasta`` needs exactly one line, and every line a
        record (records dropped by ``on_invalid="drop"`` may keep theirs).
    on_invalid, crop_length, any_length, drop_short
        As in `read_fasta`.

    Returns
    -------
    ids : list of str
        Record ids in ``fasta`` order.
    X : numpy.ndarray of uint8, shape (n_records, length), or list of arrays
        Letter codes (a list with ``any_length``).
    y : numpy.ndarray of float64, shape (n_records,)
        The targets.

    Raises
    ------
    InputError
        Besides the errors of `read_fasta`: a malformed line or a value that
        is not a finite number (file and line number), an id listed twice,
        ids in the table but not in ``fasta`` or the reverse, or targets that
        are all equal.

    Examples
    --------
    A table as written by hand, header and all:

    >>> import os, tempfile
    >>> from poimkit.io import write_fasta
    >>> table = "id\tactivity\ns2\t0.5\ns1\t-1e-1\n"
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fa, tsv = os.path.join(folder, "all.fa"), os.path.join(folder, "y.tsv")
    ...     write_fasta(fa, ["s1", "s2"], ["ACGT", "AAAA"])
    ...     _ = open(tsv, "w").write(table)
    ...     ids, X, y = read_targets(fa, tsv)
    >>> ids, y.tolist()
    (['s1', 's2'], [-0.1, 0.5])
    """
    fasta_name, table_name = os.fspath(fasta), os.fspath(targets)
    ids, X, dropped = read_fasta_with_dropped(
        fasta_name, on_invalid, crop_length, 3, any_length, drop_short
    )
    rows = _read_label_table(table_name, set(ids) | set(dropped), "value")
    for number, rid, value in rows:
        if not _is_number(value):
            raise InputError(
                f"line {number}: the value of {rid!r} is {value!r}, not a finite "
                "number",
                path=table_name,
            )
    values = _match_table(rows, ids, dropped, fasta_name, table_name, "target")
    y = np.array([float(value) for value in values], dtype=np.float64)
    if len(y) and np.all(y == y[0]):
        raise InputError(
            f"all {len(y)} targets are equal ({y[0]:g}); nothing to learn",
            path=table_name,
        )
    return ids, X, y
