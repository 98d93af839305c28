"""The ``poimkit scan`` command: motif hits in a genome, as BED with p-values.

``poimkit scan MOTIFS --genome G [--bed REGIONS] -o hits.bed``: MOTIFS is a
motif file (MEME, JASPAR, TRANSFAC: a run's ``motifs.meme``), a JASPAR
collection (``jaspar[:GROUP[:RELEASE[:COLLECTION]]]``) or a run's
``motif_model.npz``. The scan itself is `poimkit.motifs.hits`.
"""

from __future__ import annotations

import argparse
import os

from ..errors import InputError

#: the first line of hits.bed, which also marks it as poimkit's own
TRACK_LINE = 'track name=poimkit_scan description="poimkit scan: motif hits"'


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

    from ..genome.peaks import check_chromosomes, read_peaks
    from ..genome.reference import open_genome
    from ..io.files import check_replace, file_head
    from ..motifs.hits import scan_by_chromosome, write_hits_bed
    from .console import bars, tell

    if not 0 < args.p_value < 1:
        raise InputError(f"--p-value must lie in (0, 1), got {args.p_value}")
    check_replace(
        args.output,
        args.force,
        lambda path: file_head(path).startswith(TRACK_LINE),
        "poimkit scan",
    )
    motifs = read_scan_motifs(args.motifs)
    if not motifs:
        raise InputError("holds no motif: nothing to scan", path=args.motifs)
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
            hits = scan_by_chromosome(
                motifs, genome, regions, p=args.p_value, progress=bar.update
            )
            n_hits = write_hits_bed(args.output, hits, TRACK_LINE)
    where = f"{len(regions)} regions" if regions else "the whole genome"
    tell(
        f"{n_hits:,} hits of {len(motifs)} motifs at p <= {args.p_value:g} in "
        f"{where} ({total:,} letters) into {os.fspath(args.output)}"
    )
    return 0
