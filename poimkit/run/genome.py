"""Labeled data from peaks in a genome (``--bed PEAKS --genome GENOME.fa``).

The positives are windows around the peaks' summits (or the peaks as they
are); the negatives are made as `PeakSource.negatives` says: genomic
background windows matched to the positives' GC and repeat content
(``genomic``, the default), dinucleotide shuffles of the positives
(``shuffle``), or the user's own (a FASTA file of sequences, or a BED file of
regions read from the genome like the peaks).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._messages import tell
from ..errors import InputError
from ..io.outdir import LAYOUT
from .data import LabeledData, as_codes, file_sha256
from .options import RunOptions
from .registry import family_of

#: the window width around each summit unless ``--width`` says otherwise
DEFAULT_WIDTH = 200
#: how the negatives can be made, besides a file
NEGATIVE_MAKERS = ("genomic", "shuffle")
#: letters the WD model's training copies of a window are moved by, at most
DEFAULT_JITTER = 10
#: the most training rows (windows times copies) for five copies of each window,
#: and for three; above, none. The copies' kernel matrices grow with the square of
#: the rows: a run with five copies of 2,000 windows took 1.9x as long as with the
#: windows alone, of 4,000 windows 2.5x; three copies of 4,000 windows 1.5x, of
#: 6,666 2.2x (benchmarks/RESULTS.md, "moved copies"), and above 5,000 windows
#: the copies bought no held-out AUC
FIVE_COPIES_MAX_ROWS = 10_000
THREE_COPIES_MAX_ROWS = 15_000


@dataclass(frozen=True)
class PeakSource:
    """Where the sequences of a run on peaks come from.

    Parameters
    ----------
    bed : str
        BED3, BED6 or narrowPeak file of the peaks (the positives).
    genome : str
        The genome FASTA file (plain or bgzip).
    width : int or None
        Window width around each summit (narrowPeak) or centre; None: each
        peak as it is (records of different lengths: a position-free model).
    negatives : str
        ``"genomic"``, ``"shuffle"`` or the path of a FASTA or BED file.
    jitter : int or None
        A WD model trains on every window and on copies of it moved along
        the genome by ``-jitter``, ``-jitter // 2``, ``jitter // 2`` and
        ``jitter`` letters (`copy_offsets`; `poimkit.run.data.MovedCopies`);
        0: on the windows alone. Needs negatives with coordinates (genomic
        or a BED file). None: `DEFAULT_JITTER`, and where no copies can be
        made nothing is said; a value given is said to be unused there.
    """

    bed: str
    genome: str
    width: int | None = DEFAULT_WIDTH
    negatives: str = "genomic"
    jitter: int | None = None

    @property
    def negatives_file(self) -> str | None:
        """The user's file of negatives, if any."""
        return None if self.negatives in NEGATIVE_MAKERS else self.negatives

    @property
    def files(self) -> tuple[str, ...]:
        """The input files (an output folder must not hold them)."""
        return tuple(p for p in (self.bed, self.genome, self.negatives_file) if p)

    def check(self, options: RunOptions) -> None:
        """Raise `InputError` for settings that cannot work, before any reading.

        Parameters
        ----------
        options : RunOptions
            The run's options (the kernel family).
        """
        if self.width is None and options.kernel == "wd":
            raise InputError(
                "--width as-is keeps peaks of different lengths, which only the "
                "position-free model reads: give a --width for --kernel wd"
            )
        if self.width is not None and self.width < 1:
            raise InputError(f"--width must be at least 1, got {self.width}")
        if self.jitter is not None and self.jitter < 0:
            raise InputError(f"--jitter must be 0 or more letters, got {self.jitter}")
        path = self.negatives_file
        if path is not None and not os.path.isfile(path):
            raise InputError(
                "--negatives takes genomic, shuffle or a FASTA/BED file; this file "
                "does not exist",
                path=path,
            )


@dataclass
class PeakData:
    """The labeled records of a run on peaks, and how they were made.

    Attributes
    ----------
    data : LabeledData
        Positives then negatives.
    description : dict
        For ``summary.json``: the peaks (file, format, count, width, dropped
        windows by reason) and the negatives (``kind``, what they can and cannot
        tell, and how they were matched).
    negative_records : tuple
        What `write_negatives` writes: ``("bed", GenomicNegatives, ids of
        the positives)`` or ``("fasta", ids, seqs)``; None for the user's own
        file.
    """

    data: LabeledData
    description: dict
    negative_records: tuple | None = field(default=None)

    negatives_path: Path | None = field(default=None, init=False)

    def write_negatives(self, where: Path, beside: bool = False) -> Path | None:
        """Write the negatives made: ``negatives.bed`` or ``negatives.fa``.

        Parameters
        ----------
        where : pathlib.Path
            The run's (staged) folder; with ``beside``, a model file, next to
            which ``MODEL.negatives.bed`` (or ``.fa``) is written.
        beside : bool
            Name the file after ``where`` instead of writing into it.

        Returns
        -------
        pathlib.Path or None
            The file written (also in `negatives_path`), or None when the
            user gave the negatives.
        """
        self.negatives_path = write_negative_records(
            self.negative_records, where, beside
        )
        return self.negatives_path


def write_negative_records(
    records: tuple | None, where: Path, beside: bool = False
) -> Path | None:
    """Write negatives made: ``negatives.bed`` (genomic) or ``negatives.fa``.

    Parameters
    ----------
    records : tuple or None
        `make_negatives`' ``to_write`` (None: nothing to write).
    where : pathlib.Path
        The run's (staged) folder, or with ``beside`` a model file.
    beside : bool
        Name the file after ``where`` (``MODEL.negatives.bed``).

    Returns
    -------
    pathlib.Path or None
    """
    from ..genome.negatives import write_negatives_bed
    from ..io import write_fasta

    if records is None:
        return None
    kind, *rest = records
    name = LAYOUT.negatives_bed if kind == "bed" else LAYOUT.negatives_fa
    path = where.parent / f"{where.stem}.{name}" if beside else where / name
    if kind == "bed":
        write_negatives_bed(path, *rest)
    else:
        ids, seqs = rest
        letters = np.array(list("ACGT"))
        write_fasta(path, ids, ["".join(letters[x]) for x in seqs])
    return path


def _dropped_count(caught: list) -> int:
    return sum(getattr(w.message, "count", 0) for w in caught)


def read_peak_input(
    source: PeakSource, options: RunOptions, progress: bool = False
) -> PeakData:
    """Read the peaks' windows from the genome and make or read the negatives.

    Parameters
    ----------
    source : PeakSource
        The peaks, genome, width and negatives.
    options : RunOptions
        ``seed`` (of the negatives) and ``kernel``.
    progress : bool
        Show progress bars (making genomic negatives).

    Returns
    -------
    PeakData

    Raises
    ------
    InputError
        Before any training, naming the file and line: a chromosome missing
        from the genome, no window left, a bad negatives file.
    """
    from ..genome.negatives import NEGATIVE_KINDS
    from ..genome.peaks import check_chromosomes, extract, read_peaks
    from ..genome.reference import open_genome

    source.check(options)
    peaks = read_peaks(source.bed)
    with (
        open_genome(source.genome, quiet=not progress) as genome,
        warnings.catch_warnings(record=True) as caught,
    ):
        check_chromosomes(peaks, genome)
        warnings.simplefilter("always")
        positives = extract(genome, peaks.windows(source.width), "peak windows")
        negatives, made, records = make_negatives(
            source, genome, peaks, positives, options, progress
        )
        copies, unused = _moved_copies(source, genome, positives, negatives, options)
        unused = unused if source.jitter else None  # said only when asked for
        if unused:
            tell(f"--jitter {source.jitter} is not used: {unused}")
        provenance = genome.provenance()
    for w in caught:  # counted, and passed on (one line each on the CLI)
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    ids = positives.ids + negatives["ids"]
    seqs = positives.seqs + negatives["seqs"]
    if len(set(ids)) != len(ids):  # e.g. a negative region equal to a peak window
        ids = [f"{i}#{n}" for n, i in enumerate(ids, 1)]
    y = np.r_[np.ones(len(positives.seqs)), np.zeros(len(negatives["seqs"]))]
    inputs = [
        {
            "role": "peaks",
            "path": os.path.abspath(source.bed),
            "sha256": file_sha256(source.bed),
            "stranded": bool((peaks.strand != ".").any()),
        },
        provenance,
    ]
    if source.negatives_file:
        path = source.negatives_file
        inputs.append(
            {"role": "neg", "path": os.path.abspath(path), "sha256": file_sha256(path)}
        )
    data = LabeledData(
        ids,
        as_codes(np.stack(seqs) if options.kernel == "wd" else seqs, options.kernel),
        y.astype(int),
        inputs,
        _dropped_count(caught),
        copies,
    )
    kind = "file" if source.negatives_file else source.negatives
    description = {
        "peaks": {
            "file": os.path.basename(source.bed),
            "format": peaks.kind,
            "n_peaks": len(peaks),
            "width": source.width,
            "centred_on": "summit" if (peaks.summit >= 0).any() else "centre",
            "n_windows": len(positives.seqs),
            "dropped": positives.dropped,
            "training_copies": None if copies is None else copies.describe(),
            **({"jitter_unused": unused} if unused else {}),
        },
        "negatives": {"kind": kind, "what_it_tells": NEGATIVE_KINDS[kind], **made},
    }
    return PeakData(data, description, records)


def copy_offsets(jitter: int, n: int) -> tuple[int, ...]:
    """The offsets of a WD model's training copies of ``n`` windows.

    Five copies (0, ``±jitter // 2``, ``±jitter``) up to
    `FIVE_COPIES_MAX_ROWS` rows, three (0, ``±jitter``) up to
    `THREE_COPIES_MAX_ROWS` (and the kernel solver's `KERNEL_MAX_SEQUENCES`);
    none above, or for ``jitter`` 0.

    Parameters
    ----------
    jitter : int
        The largest offset, in letters.
    n : int
        The number of windows (positives and negatives).

    Returns
    -------
    tuple of int
        The offsets, 0 first; empty for no copies.

    Examples
    --------
    >>> copy_offsets(10, 1000)
    (0, -10, -5, 5, 10)
    >>> copy_offsets(10, 4000)
    (0, -10, 10)
    >>> copy_offsets(10, 6000)
    ()
    >>> copy_offsets(0, 1000)
    ()
    """
    from .registry import KERNEL_MAX_SEQUENCES

    half = jitter // 2
    choices = (
        ((0, -jitter, -half, half, jitter), FIVE_COPIES_MAX_ROWS),
        ((0, -jitter, jitter), THREE_COPIES_MAX_ROWS),
    )
    for offsets, max_rows in choices:
        offsets = tuple(dict.fromkeys(offsets))
        rows = n * len(offsets)
        if jitter and len(offsets) > 1 and rows <= min(max_rows, KERNEL_MAX_SEQUENCES):
            return offsets
    return ()


def _moved_copies(source, genome, positives, negatives, options):
    """The WD model's training copies of every window, and why there are none.

    The copies are `MovedCopies` at `copy_offsets`, or None: for a model that
    cannot be WD, windows of any width, negatives without coordinates
    (shuffles, a FASTA file), or too many windows. The reason is None where
    they are made or ``jitter`` is 0.
    """
    from ..genome.peaks import moved_windows
    from .data import MovedCopies

    regions = negatives.get("regions")
    jitter = DEFAULT_JITTER if source.jitter is None else source.jitter
    model = family_of(options)
    if not model.trains_on_copies:
        return None, f"a {model.short} model trains on the windows alone"
    if source.width is None:
        return None, "--width as-is keeps the peaks as they are (no windows to move)"
    if regions is None:
        return None, "the negatives have no genome coordinates (shuffles or a FASTA)"
    n_windows = len(positives.seqs) + len(regions.chrom)
    offsets = copy_offsets(jitter, n_windows)
    if not offsets:
        too_many = f"too many windows for moved copies ({n_windows:,})"
        return None, None if jitter == 0 else too_many
    windows = [
        moved_windows(genome, positives.peaks, offsets, positives.seqs),
        moved_windows(genome, regions, offsets, negatives["seqs"]),
    ]
    return MovedCopies(offsets, np.concatenate(windows, axis=1)), None


def make_negatives(
    source: PeakSource,
    genome: object,
    peaks: object,
    positives: object,
    options: RunOptions,
    progress: bool,
) -> tuple[dict, dict, tuple | None]:
    """The negatives' ids and codes, how they were made, and what to write.

    Parameters
    ----------
    source : PeakSource
        ``negatives``: "genomic", "shuffle" or a file; ``width``.
    genome : Genome
        The open genome.
    peaks : Peaks
        Every peak (genomic negatives avoid them).
    positives : Extracted
        The peak windows kept.
    options : RunOptions
        ``seed``.
    progress : bool
        Show the search's progress bar.

    Returns
    -------
    records : dict
        ``ids`` and ``seqs`` of the negatives; ``regions``, the windows'
        `Peaks`, for negatives read from the genome.
    made : dict
        How they were made (for ``summary.json``).
    to_write : tuple or None
        What `PeakData.write_negatives` writes (None for the user's file).
    """
    if source.negatives == "shuffle":
        from ..genome.shuffle import shuffled_negatives

        seqs = shuffled_negatives(positives.seqs, seed=options.seed)
        ids = [f"shuffle{n}:{i}" for n, i in enumerate(positives.ids, 1)]
        made = {"n": len(seqs), "seed": options.seed, "file": LAYOUT.negatives_fa}
        return {"ids": ids, "seqs": seqs}, made, ("fasta", ids, seqs)
    if source.negatives == "genomic":
        from ..genome.negatives import genomic_negatives

        kept = positives.peaks
        found = genomic_negatives(
            genome,
            kept.chrom,
            kept.start,
            kept.end,
            exclude=(peaks.chrom, peaks.start, peaks.end),
            seed=options.seed,
            progress=progress,
        )
        return _genomic_records(genome, found, kept, options)
    return _negatives_file(source, genome)


def _genomic_records(genome, found, kept, options):
    """The windows `genomic_negatives` found, read like the peaks' windows."""
    from ..genome.peaks import Peaks, extract

    n = len(found)
    regions = Peaks(
        path="genomic negatives",
        kind="bed6",
        chrom=list(found.chrom),
        start=np.asarray(found.start, dtype=np.int64),
        end=np.asarray(found.end, dtype=np.int64),
        strand=np.full(n, "+"),
        summit=np.full(n, -1, dtype=np.int64),
        line=np.arange(1, n + 1),
    )
    windows = extract(genome, regions, "genomic negatives")
    made = {**found.describe(), "file": LAYOUT.negatives_bed}
    return (
        {"ids": windows.ids, "seqs": windows.seqs, "regions": windows.peaks},
        made,
        ("bed", found, kept.ids),
    )


def _negatives_file(source, genome):
    """The user's negatives: FASTA sequences, or BED regions read from the genome."""
    from ..genome.peaks import extract, read_peaks
    from ..io import read_fasta
    from ..io.fasta import open_text

    path = source.negatives_file
    with open_text(path) as handle:
        first = next((line for line in handle if line.strip()), "")
    if first.lstrip().startswith(">"):
        ids, seqs = read_fasta(path, any_length=True)
        seqs = list(seqs)
        if source.width is not None and any(len(s) != source.width for s in seqs):
            raise InputError(
                f"the negatives must have the peak windows' width {source.width} "
                "(or give them as BED regions, cut like the peaks)",
                path=path,
            )
        return {"ids": list(ids), "seqs": seqs}, {"n": len(seqs), "file": path}, None
    regions = read_peaks(path).windows(source.width)
    windows = extract(genome, regions, "negative windows")
    made = {"n": len(windows.seqs), "file": path, "dropped": windows.dropped}
    records = {"ids": windows.ids, "seqs": windows.seqs, "regions": windows.peaks}
    return records, made, None
