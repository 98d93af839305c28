"""Peak strength as a regression target: ``--bed P --genome G --targets signal``.

The target of each peak window is a column of the peak file (``signal``:
narrowPeak's signalValue, column 7; ``score``, ``pValue``, ``qValue``; or
``column:N``, 1-based) or a value from a TSV keyed by the peak's
``chrom:start-end`` (its interval as the file gives it, BED coordinates) or by
the window's record id. ``log1p`` regresses on ``log(1 + value)``, the usual
scale of read counts and fold enrichments.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._messages import tell
from ..errors import InputError

if TYPE_CHECKING:
    from ..genome.peaks import Peaks

#: a BED file's first columns, which hold no target
COORDINATES = ("chromosome", "start coordinate", "end coordinate")
#: target names of peak-file columns (1-based), narrowPeak's names
PEAK_COLUMNS = {"score": 5, "signal": 7, "signalValue": 7, "pValue": 8, "qValue": 9}


@dataclass(frozen=True)
class PeakTargets:
    """Peak windows with a continuous target each.

    Attributes
    ----------
    ids : list of str
        Window record ids (``chrom:start-end(strand)``).
    seqs : list of numpy.ndarray of uint8
        Their letters.
    y : numpy.ndarray of float64
        Their targets (after ``log1p`` if asked).
    description : dict
        For ``summary.json``: the peaks, the target's source and the windows
        dropped (and the negatives, if asked for).
    negative_records : tuple or None
        The negatives made, to write (`poimkit.run.genome.
        write_negative_records`).
    """

    ids: list[str]
    seqs: list[np.ndarray]
    y: np.ndarray
    description: dict
    negative_records: tuple | None = None


def target_column(spec: str) -> int | None:
    """The 1-based peak-file column a target names, or None for a TSV file.

    Parameters
    ----------
    spec : str
        ``signal``, ``score``, ``pValue``, ``qValue``, ``column:N`` or a path.

    Examples
    --------
    >>> target_column("signal"), target_column("column:11"), target_column("t.tsv")
    (7, 11, None)
    """
    if spec in PEAK_COLUMNS:
        return PEAK_COLUMNS[spec]
    if spec.startswith("column:"):
        text = spec.split(":", 1)[1]
        if not text.isdigit() or int(text) < 1:
            raise InputError(f"--targets {spec!r}: column:N needs N >= 1")
        if int(text) <= len(COORDINATES):
            tell(
                f"--targets {spec}: column {text} of a BED file is the peak's "
                f"{COORDINATES[int(text) - 1]}, not a measurement"
            )
        return int(text)
    return None


def column_values(path: str, column: int, lines: np.ndarray) -> np.ndarray:
    """Column ``column`` (1-based) of the given 1-based lines of a peak file.

    Parameters
    ----------
    path : str
        The peak file.
    column : int
        The column.
    lines : numpy.ndarray of int64
        The lines of the peaks kept.

    Returns
    -------
    numpy.ndarray of float64

    Raises
    ------
    InputError
        Naming the file and line of a missing or non-numeric value.
    """
    from ..io.fasta import open_text

    wanted = {int(n) for n in lines}
    found: dict[int, float] = {}
    with open_text(path) as handle:
        for number, line in enumerate(handle, 1):
            if number not in wanted:
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < column:
                raise InputError(
                    f"{path}: line {number} has {len(fields)} columns, so it has "
                    f"no column {column} to read the target from"
                )
            text = fields[column - 1]
            try:
                value = float(text)
            except ValueError:
                value = float("nan")
            if not np.isfinite(value):
                raise InputError(
                    f"{path}: line {number}: column {column} is not a finite "
                    f"number: {text!r}"
                )
            found[number] = value
    return np.array([found[int(n)] for n in lines], dtype=np.float64)


def table_values(path: str, peaks: Peaks, ids: list[str]) -> np.ndarray:
    """Targets from a TSV keyed by each peak's ``chrom:start-end`` or window id.

    Parameters
    ----------
    path : str
        Two columns: key and value (a header line is allowed).
    peaks : Peaks
        The peaks of the windows kept (their file intervals).
    ids : list of str
        The windows' record ids.

    Returns
    -------
    numpy.ndarray of float64
    """
    from ..io.fasta import open_text

    table: dict[str, float] = {}
    with open_text(path) as handle:
        for number, line in enumerate(handle, 1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) < 2:
                raise InputError(f"{path}: line {number}: expected a key and a value")
            try:
                table[fields[0]] = float(fields[1])
            except ValueError:
                if table:  # only a first line may be a header
                    raise InputError(
                        f"{path}: line {number}: {fields[1]!r} is not a number"
                    ) from None
    values = []
    for chrom, start, end, record in zip(
        peaks.chrom, peaks.start.tolist(), peaks.end.tolist(), ids, strict=True
    ):
        key = f"{chrom}:{start}-{end}"
        if key not in table and record.split("(")[0] not in table:
            raise InputError(f"{path}: no target for the peak {key}")
        values.append(table.get(key, table.get(record.split("(")[0])))
    return np.array(values, dtype=np.float64)


def log1p_targets(y: np.ndarray, source: str) -> np.ndarray:
    """``log(1 + y)``, refusing a target at or below -1.

    Parameters
    ----------
    y : numpy.ndarray of float
        The targets.
    source : str
        Where they came from, for the message.
    """
    if (y <= -1).any():
        raise InputError(f"--log1p needs targets above -1; {source} has {y.min():g}")
    return np.log1p(y)


def read_peak_targets(
    bed: str | os.PathLike,
    genome_path: str | os.PathLike,
    width: int | None,
    spec: str,
    log1p: bool = False,
    quiet: bool = True,
    negatives: str | None = None,
    seed: int = 0,
) -> PeakTargets:
    """The peak windows of a genome with their targets.

    Parameters
    ----------
    bed : str or path-like
        The peaks (BED or narrowPeak).
    genome_path : str or path-like
        The genome FASTA.
    width : int or None
        Window width around each summit (None: the intervals as they are).
    spec : str
        The target (`target_column`, or a TSV file).
    log1p : bool
        Regress on ``log(1 + value)``; values must be above -1.
    quiet : bool
        No message while the genome is indexed, no progress bar.
    negatives : str, optional
        Also background records at target 0 (before ``log1p``), made as a
        classification run makes them ("genomic", "shuffle" or a file); by
        default none.
    seed : int
        Seed of the negatives.

    Returns
    -------
    PeakTargets
    """
    from ..genome.peaks import check_chromosomes, extract, read_peaks
    from ..genome.reference import open_genome

    bed = os.fspath(bed)
    column = target_column(spec)
    if column is None and not os.path.isfile(spec):
        raise InputError(
            f"--targets {spec!r} with --bed: a column (signal, score, pValue, "
            "qValue, column:N) or a TSV file keyed by chrom:start-end"
        )
    peaks = read_peaks(bed)
    background, made, to_write = {"ids": [], "seqs": []}, None, None
    with open_genome(genome_path, quiet=quiet) as genome:
        check_chromosomes(peaks, genome)
        kept = extract(genome, peaks.windows(width), "peak windows")
        lines = kept.peaks.line  # the targets are read (and checked) first
        if column is not None:
            y = column_values(bed, column, lines)
        else:
            by_line = {int(n): i for i, n in enumerate(peaks.line)}
            chosen = peaks.subset([by_line[int(n)] for n in lines])
            y = table_values(spec, chosen, kept.ids)
        if log1p:
            y = log1p_targets(y, spec)
        if negatives is not None:
            from .genome import PeakSource, make_negatives
            from .options import RunOptions

            source = PeakSource(bed, os.fspath(genome_path), width, negatives)
            background, made, to_write = make_negatives(
                source, genome, peaks, kept, RunOptions(seed=seed), not quiet
            )
    y = np.r_[y, np.zeros(len(background["seqs"]))]  # the background at 0 = log1p(0)
    description = {
        "peaks": {
            "file": os.path.basename(bed),
            "format": peaks.kind,
            "n_peaks": len(peaks),
            "width": width,
            "n_windows": len(kept.seqs),
            "dropped": kept.dropped,
        },
        "targets": {"source": spec, "log1p": bool(log1p)},
    }
    if made is not None:
        description["negatives"] = {**made, "target": 0.0}
    ids = list(kept.ids) + list(background["ids"])
    seqs = list(kept.seqs) + list(background["seqs"])
    return PeakTargets(ids, seqs, y, description, to_write)
