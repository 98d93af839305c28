"""Peaks from BED and narrowPeak files, their windows and their sequences.

`read_peaks` reads BED3 (chrom, start, end), BED6 (name, score, strand) and
ENCODE/MACS2 narrowPeak (BED6 + signal, p, q and the summit's offset in
column 10), plain or gzip. Coordinates are BED's: 0-based, end excluded.
`Peaks.windows` centres windows of one width on each summit (narrowPeak) or
centre; `extract` reads their letters from a `poimkit.genome.reference.Genome`,
reverse-complemented on the minus strand, with record ids
``chrom:start-end(strand)`` as ``bedtools getfasta -s`` names them.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import InputError
from .reference import OTHER, Genome, letter_codes, letter_masked

#: letters a strand column may hold ("." : no strand, read as "+")
STRANDS = ("+", "-", ".")
_COMPLEMENT = np.array([3, 2, 1, 0, OTHER], dtype=np.uint8)


@dataclass(frozen=True)
class Peaks:
    """Intervals of a BED or narrowPeak file (BED coordinates).

    Attributes
    ----------
    path : str
        The file they came from.
    kind : {"bed3", "bed", "bed6", "narrowPeak"}
        The format read ("bed": 4 or 5 columns, no strand).
    chrom : list of str
    start, end : numpy.ndarray of int64
        0-based, end excluded.
    strand : numpy.ndarray of str
        "+", "-" or "." per interval.
    summit : numpy.ndarray of int64
        0-based genome position of each summit; -1 where none is given.
    line : numpy.ndarray of int64
        1-based line of each interval in the file.
    """

    path: str
    kind: str
    chrom: list[str]
    start: np.ndarray
    end: np.ndarray
    strand: np.ndarray
    summit: np.ndarray
    line: np.ndarray
    width: int | None = field(default=None)

    def __len__(self) -> int:
        return len(self.chrom)

    @property
    def ids(self) -> list[str]:
        """Record ids ``chrom:start-end(strand)`` (0-based start, as bedtools)."""
        strand = np.where(self.strand == "-", "-", "+")
        return [
            f"{c}:{s}-{e}({t})"
            for c, s, e, t in zip(
                self.chrom, self.start.tolist(), self.end.tolist(), strand, strict=True
            )
        ]

    @property
    def centres(self) -> np.ndarray:
        """The summit where given, else the interval's middle (rounded down)."""
        middle = (self.start + self.end) // 2
        return np.where(self.summit >= 0, self.summit, middle)

    def windows(self, width: int | None) -> Peaks:
        """Windows of ``width`` letters centred on each summit or centre.

        Parameters
        ----------
        width : int or None
            Window width; None keeps the intervals as they are.

        Returns
        -------
        Peaks
            The windows ``[c - width // 2, c - width // 2 + width)`` around each
            centre c (they may run past a chromosome's ends: `extract` drops
            them), with the strands, summits and lines of their peaks.
        """
        if width is None:
            return self
        if width < 1:
            raise InputError(f"the window width must be at least 1, got {width}")
        start = self.centres - width // 2
        return replace(self, start=start, end=start + width, width=int(width))

    def subset(self, keep: np.ndarray) -> Peaks:
        """The intervals where ``keep`` is True (or at the indices ``keep``).

        Parameters
        ----------
        keep : numpy.ndarray of bool or int
        """
        index = np.flatnonzero(keep) if np.asarray(keep).dtype == bool else keep
        return replace(
            self,
            chrom=[self.chrom[i] for i in index],
            start=self.start[index],
            end=self.end[index],
            strand=self.strand[index],
            summit=self.summit[index],
            line=self.line[index],
        )


def _kind(fields: list[str]) -> str:
    if (
        len(fields) == 10
        and _is_int(fields[9])
        and all(_is_float(x) for x in fields[6:9])
    ):
        return "narrowPeak"
    if len(fields) >= 6:
        return "bed6"
    return "bed3" if len(fields) == 3 else "bed"


def _is_int(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_peaks(path: str | os.PathLike) -> Peaks:
    """Read a BED3, BED6 or narrowPeak file (plain or gzip).

    Parameters
    ----------
    path : str or path-like
        The file. ``track``, ``browser`` and ``#`` lines are skipped. Columns
        are tab-separated (any whitespace is accepted if no tab is present).

    Returns
    -------
    Peaks

    Raises
    ------
    InputError
        Naming the file and line: fewer than 3 columns, a start or end that is
        not a whole number, ``start >= end``, a strand that is not ``+``,
        ``-`` or ``.``, a narrowPeak summit outside its peak, lines with a
        different number of columns than the first; or no intervals.
    """
    from ..io.fasta import read_text

    name = os.fspath(path)
    chrom: list[str] = []
    rows: list[tuple[int, int, str, int, int]] = []
    kind = None
    columns = 0
    for number, text in enumerate(read_text(name).split("\n"), 1):
        if not text.strip() or text.startswith(("#", "track", "browser")):
            continue
        fields = text.split("\t") if "\t" in text else text.split()
        fields = [f.strip() for f in fields]

        def bad(message: str, number: int = number) -> InputError:
            return InputError(f"line {number}: {message}", path=name)

        if len(fields) < 3:
            raise bad(
                f"expected at least 3 columns (chrom, start, end), found {len(fields)}"
            )
        if kind is None:
            kind, columns = _kind(fields), len(fields)
        elif len(fields) != columns:
            raise bad(f"{len(fields)} columns, but the first interval has {columns}")
        if not (_is_int(fields[1]) and _is_int(fields[2])):
            raise bad(
                f"start and end must be whole numbers, got {fields[1]!r}, {fields[2]!r}"
            )
        start, end = int(fields[1]), int(fields[2])
        if start < 0 or start >= end:
            raise bad(f"start must be >= 0 and below end, got {start}-{end}")
        strand = fields[5] if kind in ("bed6", "narrowPeak") else "."
        if strand not in STRANDS:
            raise bad(f"strand (column 6) must be +, - or ., got {strand!r}")
        summit = -1
        if kind == "narrowPeak":
            if not _is_int(fields[9]):
                raise bad(
                    f"summit (column 10) must be a whole number, got {fields[9]!r}"
                )
            offset = int(fields[9])
            if not -1 <= offset < end - start:
                raise bad(
                    f"summit offset {offset} (column 10) is outside the peak "
                    f"(0..{end - start - 1}, or -1 for none)"
                )
            summit = -1 if offset < 0 else start + offset
        chrom.append(fields[0])
        rows.append((start, end, strand, summit, number))
    if not rows:
        raise InputError("no intervals: not a BED or narrowPeak file", path=name)
    start, end, strand, summit, line = zip(*rows, strict=True)
    return Peaks(
        path=name,
        kind=kind,
        chrom=chrom,
        start=np.array(start, dtype=np.int64),
        end=np.array(end, dtype=np.int64),
        strand=np.array(strand),
        summit=np.array(summit, dtype=np.int64),
        line=np.array(line, dtype=np.int64),
    )


def check_chromosomes(peaks: Peaks, genome: Genome) -> None:
    """Raise `InputError` naming the first line whose chromosome the genome lacks.

    Parameters
    ----------
    peaks : Peaks
        The intervals.
    genome : Genome
        The genome they must lie in.
    """
    missing = [i for i, c in enumerate(peaks.chrom) if c not in genome.lengths]
    if not missing:
        return
    first = peaks.chrom[missing[0]]
    names = list(genome.lengths)
    hint = ""
    other = first[3:] if first.startswith("chr") else "chr" + first
    if other in genome.lengths:
        hint = f" (the genome names it {other!r}: the files use different naming)"
    shown = ", ".join(repr(n) for n in names[:5]) + (", ..." if len(names) > 5 else "")
    raise InputError(
        f"line {peaks.line[missing[0]]}: chromosome {first!r} is not in the genome "
        f"{genome.path} ({len(missing)} intervals in all; the genome has {shown})"
        f"{hint}",
        path=peaks.path,
    )


class DroppedWindowsWarning(UserWarning):
    """Windows were left out (past a chromosome end, or holding N).

    Parameters
    ----------
    message : str
        The warning's text.
    count : int
        How many windows were left out.
    """

    def __init__(self, message: str, count: int = 0) -> None:
        super().__init__(message)
        self.count = count


@dataclass
class Extracted:
    """The sequences of a set of windows.

    Attributes
    ----------
    peaks : Peaks
        The windows kept.
    seqs : list of numpy.ndarray of uint8
        Their letter codes (A=0 ... T=3), reverse-complemented on "-".
    masked : numpy.ndarray of float64
        Fraction of soft-masked (lowercase) letters of each.
    dropped : dict of str to int
        Windows left out, by reason: ``past_end``, ``n_letters``.
    """

    peaks: Peaks
    seqs: list[np.ndarray]
    masked: np.ndarray
    dropped: dict[str, int]

    @property
    def ids(self) -> list[str]:
        """Record ids of the windows kept."""
        return self.peaks.ids


def extract(genome: Genome, peaks: Peaks, what: str = "windows") -> Extracted:
    """The letters of every window; those past an end or holding N are dropped.

    Parameters
    ----------
    genome : Genome
        Where to read them (chromosomes already checked: `check_chromosomes`).
    peaks : Peaks
        The windows.
    what : str
        What the windows are, for the warnings ("peak windows", ...).

    Returns
    -------
    Extracted

    Warns
    -----
    DroppedWindowsWarning
        One per reason, with the count: windows running past a chromosome's
        end (or start), and windows holding N or other non-ACGT letters
        (assembly gaps; the models read A, C, G and T only).
    """
    check_chromosomes(peaks, genome)
    length = np.array([genome.lengths[c] for c in peaks.chrom], dtype=np.int64)
    inside = (peaks.start >= 0) & (peaks.end <= length)
    keep = np.zeros(len(peaks), dtype=bool)
    seqs: list[np.ndarray] = []
    masked: list[float] = []
    for i in np.flatnonzero(inside):
        letters = genome.letters(peaks.chrom[i], int(peaks.start[i]), int(peaks.end[i]))
        codes = letter_codes(letters)
        if (codes == OTHER).any():
            continue
        if peaks.strand[i] == "-":
            codes = _COMPLEMENT[codes[::-1]]
        keep[i] = True
        seqs.append(np.ascontiguousarray(codes))
        masked.append(float(letter_masked(letters).mean()))
    dropped = {
        "past_end": int((~inside).sum()),
        "n_letters": int(inside.sum() - keep.sum()),
    }
    reasons = {
        "past_end": "run past a chromosome end",
        "n_letters": "hold N or other non-ACGT letters",
    }
    for reason, count in dropped.items():
        if count:
            warnings.warn(
                DroppedWindowsWarning(
                    f"{peaks.path}: {count} of {len(peaks)} {what} {reasons[reason]}; "
                    "left out",
                    count,
                ),
                stacklevel=2,
            )
    if not keep.any():
        raise InputError(
            f"none of the {len(peaks)} {what} lies inside its chromosome without N "
            "letters",
            path=peaks.path,
        )
    return Extracted(peaks.subset(keep), seqs, np.array(masked), dropped)


def moved_windows(
    genome: Genome, windows: Peaks, offsets: Sequence[int], seqs: Sequence[np.ndarray]
) -> np.ndarray:
    """Every window moved along its chromosome by each offset (training copies).

    Parameters
    ----------
    genome : Genome
        Where the windows were read.
    windows : Peaks
        The windows kept by `extract`.
    offsets : sequence of int
        Letters to move each window by (negative: towards the chromosome's
        start; the same on either strand).
    seqs : sequence of numpy.ndarray of uint8
        The windows' own codes, as `extract` read them: the copy of a moved
        window that leaves its chromosome or holds N.

    Returns
    -------
    numpy.ndarray of uint8, shape (len(offsets), n, L)
        The moved windows' codes, reverse-complemented on "-" as `extract`
        does.
    """
    n, width = len(seqs), len(seqs[0]) if len(seqs) else 0
    moved = np.empty((len(offsets), n, width), dtype=np.uint8)
    reach = max(abs(int(o)) for o in offsets)
    for i in range(n):
        chrom, start = windows.chrom[i], int(windows.start[i])
        first = max(0, start - reach)
        span = genome.codes(
            chrom, first, min(genome.lengths[chrom], start + width + reach)
        )
        for j, offset in enumerate(offsets):
            left = start + int(offset) - first
            codes = span[left : left + width] if left >= 0 else span[:0]
            if codes.size < width or (codes == OTHER).any():
                moved[j, i] = seqs[i]
            elif windows.strand[i] == "-":
                moved[j, i] = _COMPLEMENT[codes[::-1]]
            else:
                moved[j, i] = codes
    return moved
