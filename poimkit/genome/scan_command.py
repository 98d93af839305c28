"""The ``poimkit scan`` command: motif hits in a genome, as BED with p-values.

``poimkit scan MOTIFS --genome G [--bed REGIONS] -o hits.bed``: MOTIFS is a
motif file (MEME, JASPAR, TRANSFAC: a run's ``motifs.meme``), a JASPAR
collection (``jaspar[:GROUP[:RELEASE[:COLLECTION]]]``) or a run's
``motif_model.npz``. The scan itself is `poimkit.genome.motif_hits`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from ..errors import InputError

#: the first line of hits.bed, which also marks it as poimkit's own
TRACK_LINE = 'track name=poimkit_scan description="poimkit scan: motif hits"'


def add_scan(sub: argparse._SubParsersAction, command: Callable) -> None:
    """Add the ``scan`` subcommand to the parser's subcommands.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    command : callable
        Makes a subcommand parser from name, help and examples.
    """
    from .motif_hits import HIT_P

    scan = command(
        sub,
        "scan",
        "motif hits in a genome or its regions, with p-values (as FIMO), as BED",
        "poimkit scan OUT/motifs.meme --genome hg38.fa --bed peaks.bed -o hits.bed",
        "poimkit scan jaspar:vertebrates --genome hg38.fa --bed peaks.bed -o hits.bed",
    )
    scan.add_argument(
        "motifs",
        metavar="MOTIFS",
        help="a motif file (MEME/JASPAR/TRANSFAC, e.g. a run's motifs.meme), "
        "jaspar[:GROUP[:RELEASE[:COLLECTION]]], or a run's motif_model.npz",
    )
    scan.add_argument("--genome", required=True, metavar="GENOME.fa", help="genome")
    scan.add_argument(
        "--bed", metavar="REGIONS", help="scan only these regions (default: all)"
    )
    scan.add_argument(
        "-p", "--p-value", type=float, default=HIT_P, help="largest p-value of a hit"
    )
    scan.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="hits.bed",
        help="BED6+2: chrom, start, end, motif, score (min(1000, -100 log10 p)), "
        "strand, p-value, log-odds bits",
    )
    scan.add_argument(
        "--force", action="store_true", help="replace hits.bed that poimkit wrote"
    )
    scan.add_argument("--quiet", action="store_true", help="no progress bar")


def read_scan_motifs(source: str) -> list:
    """The motifs of a motif file, a JASPAR collection or a motif model.

    Parameters
    ----------
    source : str
        The MOTIFS argument.

    Returns
    -------
    list of Motif
    """
    from ..motifs.compare import known_motifs

    if source.endswith(".npz"):
        from ..motifs.model import load_motif_model

        return list(load_motif_model(source).motifs_)
    return known_motifs(source)


def run_scan(args: argparse.Namespace) -> int:
    """The ``poimkit scan`` command; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from tqdm.auto import tqdm

    from ..io.files import check_replace, file_head
    from ..run.console import bars, tell
    from .motif_hits import scan_genome, write_hits_bed
    from .peaks import check_chromosomes, read_peaks
    from .reference import open_genome

    if not 0 < args.p_value < 1:
        raise InputError(f"--p-value must lie in (0, 1), got {args.p_value}")
    check_replace(
        args.output,
        args.force,
        lambda path: file_head(path).startswith(TRACK_LINE),
        "poimkit scan",
    )
    motifs = read_scan_motifs(args.motifs)
    peaks = read_peaks(args.bed) if args.bed else None
    with open_genome(args.genome, quiet=args.quiet) as genome:
        regions = None
        if peaks is not None:
            check_chromosomes(peaks, genome)
            regions = list(
                zip(peaks.chrom, peaks.start.tolist(), peaks.end.tolist(), strict=True)
            )
        total = (
            sum(e - s for _, s, e in regions)
            if regions
            else sum(genome.lengths.values())
        )
        with tqdm(
            total=total, unit="nt", unit_scale=True, disable=not bars(args)
        ) as bar:
            hits = scan_genome(
                motifs, genome, regions, p=args.p_value, progress=bar.update
            )
    write_hits_bed(args.output, hits, TRACK_LINE)
    where = f"{len(regions)} regions" if regions else "the whole genome"
    tell(
        f"{len(hits):,} hits of {len(motifs)} motifs at p <= {args.p_value:g} in "
        f"{where} ({total:,} letters) into {os.fspath(args.output)}"
    )
    return 0
