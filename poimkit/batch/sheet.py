"""The sheet of a batch: one experiment per row, checked whole before any work.

A sheet is a tab-separated table with a header. ``name`` names the
experiment (its folder, ``runs/NAME/``); the other columns give the inputs
of one road, as ``poimkit run`` takes them:

- ``bed`` and ``genome`` (or one genome for the whole batch): peaks;
- ``pos`` and ``neg``: two FASTA files;
- ``fasta`` and ``targets``: a regression (``bed`` and ``targets`` too);
- ``model``: a model file (poimkit's, LS-GKM's, a saved torch model)
  explained without training, alone or with the labeled records its motifs
  are tested in (``pos`` and ``neg``, or ``bed`` and ``genome``);

and ``options`` holds the ``run`` flags of that row (split as a shell does).
Paths are relative to the sheet's folder unless absolute.
"""

from __future__ import annotations

import csv
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError

#: the columns a sheet may have
COLUMNS = (
    "name",
    "bed",
    "genome",
    "pos",
    "neg",
    "fasta",
    "targets",
    "model",
    "options",
)
#: the columns holding input files
FILE_COLUMNS = ("bed", "genome", "pos", "neg", "fasta", "targets", "model")
#: each road and the columns it needs (checked in this order)
ROADS = {
    "model peaks": ("model", "bed", "genome"),
    "model fasta": ("model", "pos", "neg"),
    "model": ("model",),
    "peak targets": ("bed", "genome", "targets"),
    "peaks": ("bed", "genome"),
    "fasta targets": ("fasta", "targets"),
    "fasta": ("pos", "neg"),
}
#: a usable folder name: letters, digits, ``.``, ``_`` and ``-``, not hidden
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,99}")


@dataclass(frozen=True)
class Experiment:
    """One row of a sheet, its files resolved.

    Parameters
    ----------
    name : str
        The experiment's name and folder.
    road : str
        One of `ROADS`.
    files : dict
        Column -> path of the row's inputs (the genome included).
    options : tuple of str
        The row's ``run`` flags.
    row : int
        Its line in the sheet (the header is line 1).
    """

    name: str
    road: str
    files: dict[str, str] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    row: int = 0

    @property
    def regression(self) -> bool:
        """Whether the row has targets (a regression)."""
        return "targets" in self.files

    @property
    def explains(self) -> bool:
        """Whether the row explains a model file (nothing trained)."""
        return "model" in self.files


def read_sheet(
    path: str | os.PathLike, genome: str | os.PathLike | None = None
) -> list[Experiment]:
    """The experiments of a sheet, every row checked before any is run.

    Parameters
    ----------
    path : str or path-like
        The sheet (TSV with a header; `COLUMNS`).
    genome : str or path-like, optional
        The genome of every ``bed`` row without its own ``genome``.

    Returns
    -------
    list of Experiment
        In the sheet's order.

    Raises
    ------
    InputError
        One line naming the sheet, the row and the column: an unknown
        column, a row without a road, a missing or unreadable file, a name
        used twice or not usable as a folder name, options that do not split.
    """
    path = Path(path)
    try:
        with open(path, newline="") as handle:
            rows = list(csv.reader(handle, delimiter="\t"))
    except OSError as exc:
        raise InputError(f"{path}: cannot read the sheet ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: the sheet is not text (a TSV)") from None
    rows = [r for r in rows if r and any(c.strip() for c in r)]
    if not rows:
        raise InputError(
            f"{path}: the sheet is empty (a header and a row per experiment)"
        )
    header = [c.strip() for c in rows[0]]
    _check_header(path, header)
    found, seen = [], {}
    for line, cells in enumerate(rows[1:], start=2):
        experiment = _experiment(path, header, cells, line, genome)
        if experiment.name in seen:
            raise InputError(
                f"{path}: row {line}, column name: {experiment.name!r} is also the "
                f"name of row {seen[experiment.name]}; names must be unique"
            )
        seen[experiment.name] = line
        found.append(experiment)
    if not found:
        raise InputError(f"{path}: the sheet has a header but no experiment")
    return found


def _check_header(path: Path, header: list[str]) -> None:
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        raise InputError(
            f"{path}: row 1: unknown column {unknown[0]!r}; a sheet's columns are "
            f"{', '.join(COLUMNS)}"
        )
    if "name" not in header:
        raise InputError(f"{path}: row 1: no name column")
    twice = sorted({c for c in header if header.count(c) > 1})
    if twice:
        raise InputError(f"{path}: row 1: column {twice[0]!r} is given twice")


def _experiment(path, header, cells, line, genome) -> Experiment:
    """Row ``line`` of the sheet as an `Experiment`, checked."""
    if len(cells) > len(header):
        raise InputError(
            f"{path}: row {line} has {len(cells)} cells for {len(header)} columns"
        )
    values = {c: v.strip() for c, v in zip(header, cells, strict=False) if v.strip()}
    name = values.get("name", "")
    if not _NAME.fullmatch(name):
        raise InputError(
            f"{path}: row {line}, column name: {name!r} is not usable as a folder "
            "name (letters, digits, '.', '_' and '-', not starting with '.')"
        )
    if "bed" in values and "genome" not in values and genome is not None:
        values["genome"] = os.fspath(genome)
    road = next(
        (r for r, needs in ROADS.items() if all(c in values for c in needs)), None
    )
    if road is None:
        raise InputError(
            f"{path}: row {line} ({name}): no road: give bed and genome (or "
            "--genome), pos and neg, fasta and targets, or model"
        )
    files = {c: _file(path, line, c, values[c]) for c in ROADS[road]}
    if road == "fasta targets" and not os.path.isfile(files["targets"]):
        raise InputError(
            f"{path}: row {line}, column targets: no file {values['targets']}"
        )
    extra = [c for c in FILE_COLUMNS if c in values and c not in files]
    if extra:
        raise InputError(
            f"{path}: row {line} ({name}), column {extra[0]}: not used by its road "
            f"({', '.join(ROADS[road])}); leave it empty"
        )
    try:
        options = tuple(shlex.split(values.get("options", "")))
    except ValueError as exc:
        raise InputError(
            f"{path}: row {line} ({name}), column options: {exc}"
        ) from None
    return Experiment(name, road, files, options, line)


def _file(sheet: Path, line: int, column: str, value: str) -> str:
    """The path of a row's file, relative to the sheet, checked readable.

    A peak row's ``targets`` may name a column of its peak file instead
    (``signal``, ``score``, ``pValue``, ``qValue``, ``column:N``).
    """
    from ..run.peak_targets import PEAK_COLUMNS

    resolved = Path(value) if os.path.isabs(value) else sheet.parent / value
    if column == "targets" and not resolved.exists():
        if value in PEAK_COLUMNS or value.startswith("column:"):
            return value
    if not resolved.is_file():
        raise InputError(f"{sheet}: row {line}, column {column}: no file {value}")
    if not os.access(resolved, os.R_OK):
        raise InputError(f"{sheet}: row {line}, column {column}: cannot read {value}")
    return os.path.abspath(resolved)
