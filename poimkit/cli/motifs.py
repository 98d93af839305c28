"""``poimkit motifs``: motifs behind POIMs, or found before: compared, drawn.

The library job is `poimkit.run.motif_job`.
"""

from __future__ import annotations

import argparse

from .._validation import check_int
from ..errors import InputError
from .arguments import LABELED_INPUTS, fields, peak_source, read_labeled_args
from .console import bars, say
from .stopping import EXIT_OK


def run_motifs(args: argparse.Namespace) -> int:
    """``poimkit motifs``; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..motifs.compare import known_motifs
    from ..run.motif_job import (
        MATCH_HEADER,
        check_motif_outputs,
        found_motifs,
        motif_matches,
        write_motif_files,
    )

    check_int(args.max_motifs, "--max-motifs", 1)
    if args.compare_top < 1:
        raise InputError(f"--compare-top must be at least 1, got {args.compare_top}")
    labeled = any(v is not None for v in fields(args, LABELED_INPUTS).values())
    is_motif_file = check_motif_outputs(
        args.input,
        args.output,
        sites=args.sites,
        matches=args.matches,
        logos=args.logos,
        labeled=labeled,
        compare=bool(args.compare),
    )
    if args.compare:
        say(args, f"reading the known motifs of {args.compare}")
    known = known_motifs(args.compare) if args.compare else None
    if not (labeled or is_motif_file):
        say(
            args,
            "no sequences given: PWMs fitted to the POIMs alone, without sites or "
            "evidence (give --pos/--neg or --fasta/--labels for both)",
        )
    found, ids, y = found_motifs(
        args.input,
        _sequences_of(args) if labeled else None,
        max_motifs=args.max_motifs,
        n_restarts=args.restarts,
        seed=args.seed,
        min_enrichment=args.min_enrichment,
        progress=bars(args),
    )
    if is_motif_file:
        say(args, f"{len(found)} motifs read from {args.input} (no extraction)")
    elif labeled:
        say(args, f"{len(found)} motifs passed the test (false discovery rate 5 %)")
    rows = (
        motif_matches(found, known, args.compare_top, bars(args))
        if known is not None
        else None
    )
    write_motif_files(
        found,
        args.output,
        sites=args.sites,
        ids=ids,
        y=y,
        logos=args.logos,
        matches=args.matches,
        match_rows=rows,
    )
    if args.output:
        say(args, f"{len(found)} motifs written to {args.output}")
    if args.matches:
        say(args, f"matches with {args.compare} written to {args.matches}")
    _print_motifs(found)
    if rows is not None and not args.matches:
        print("\t".join(MATCH_HEADER))
        for row in rows:
            print("\t".join(str(v) for v in row))
    return EXIT_OK


def _sequences_of(args: argparse.Namespace):
    """``read(any_length)``: the labeled sequences of the command line."""

    def read(any_length: bool):
        peak_source(args)
        return read_labeled_args(args, any_length=any_length)

    return read


def _print_motifs(found: list) -> None:
    """The motif table on standard output."""
    print(
        "name\tconsensus\tiupac\tposition\tspread\timportance\tn_sites\t"
        "frac_positive\tfrac_negative\tq_value"
    )
    for m in found:
        where = (
            "any\tany"
            if m.position != m.position  # NaN: a position-free model's motif
            else f"{m.position:.2f}\t{m.spread:.2f}"
        )
        print(
            f"{m.name}\t{m.consensus}\t{m.iupac}\t{where}\t"
            f"{m.importance:.4g}\t{m.n_sites}\t"
            f"{m.frac_positive:.3f}\t{m.frac_negative:.3f}\t{m.q_value:.3g}"
        )
