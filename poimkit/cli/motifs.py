"""``poimkit motifs``: motifs behind POIMs, or found before: compared, drawn."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from .._validation import check_int
from ..errors import InputError
from ..io.outdir import check_writable
from .arguments import peak_source, read_labeled_args
from .console import bars, say
from .stopping import EXIT_OK


def run_motifs(args: argparse.Namespace) -> int:
    """``poimkit motifs``; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..io import commit_together
    from ..motifs.compare import known_motifs
    from ..motifs.formats import FORMATS

    if args.matches and not args.compare:
        raise InputError("--matches needs --compare SOURCE")
    check_int(args.max_motifs, "--max-motifs", 1)
    if args.compare_top < 1:
        raise InputError(f"--compare-top must be at least 1, got {args.compare_top}")
    labeled = any(v is not None for v in (args.pos, args.neg, args.fasta, args.labels))
    if args.sites and not labeled:
        raise InputError(
            "--sites needs the labeled sequences (--pos/--neg or --fasta/--labels)"
        )
    is_motif_file = Path(args.input).suffix.lower() in FORMATS.values()
    if is_motif_file and (labeled or args.sites):
        raise InputError(
            f"{args.input} holds motifs found before: sequences and --sites go with "
            "a POIM.npz input"
        )
    if not is_motif_file and not args.output:
        raise InputError("-o/--output FILE is required with a POIM.npz input")
    if args.output and Path(args.output).suffix.lower() not in FORMATS.values():
        raise InputError(
            f"cannot tell the motif format of {args.output}: use the suffix "
            f"{', '.join(sorted(set(FORMATS.values())))}"
        )
    check_writable(args.output, args.sites, args.matches)
    if args.logos:  # a folder: it, or the folder it goes into, must be writable
        logos = Path(args.logos)
        if not logos.is_dir():
            check_writable(logos)
        elif not os.access(logos, os.W_OK):
            raise InputError(f"cannot write logos into {logos}: it is not writable")
    if args.compare:
        say(args, f"reading the known motifs of {args.compare}")
    known = known_motifs(args.compare) if args.compare else None
    found, ids, y = _found_motifs(args) if not is_motif_file else _read_found(args)
    with commit_together():  # all output files appear, or none
        if args.output:
            _write_found(args, found, ids, y)
        if args.logos:
            _write_logos(args.logos, found)
        if known is not None and args.matches:
            _report_matches(args, found, known)
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
    if known is not None and not args.matches:
        _report_matches(args, found, known)
    return EXIT_OK


def _read_found(args: argparse.Namespace):
    from ..motifs.formats import read_motifs

    found = read_motifs(args.input)
    say(args, f"{len(found)} motifs read from {args.input} (no extraction)")
    return found, None, None


def _found_motifs(args: argparse.Namespace):
    """(motifs, ids, labels): from sites in the sequences if given, else the fit."""
    from ..motifs import extract_motifs
    from ..poim import Poim

    poim = Poim.load(args.input)
    if all(v is None for v in (args.pos, args.neg, args.fasta, args.labels)):
        say(
            args,
            "no sequences given: PWMs fitted to the POIMs alone, without sites or "
            "evidence (give --pos/--neg or --fasta/--labels for both)",
        )
        found = extract_motifs(
            poim,
            max_motifs=args.max_motifs,
            n_restarts=args.restarts,
            random_state=args.seed,
            progress=bars(args),
        )
        return found, None, None
    peak_source(args)
    ids, X, y = read_labeled_args(args, any_length=poim.position_free)
    found = extract_motifs(
        poim,
        max_motifs=args.max_motifs,
        sequences=X,
        labels=y,
        random_state=args.seed,
        progress=bars(args),
        **(
            {}
            if args.min_enrichment is None
            else {"min_enrichment": args.min_enrichment}
        ),
    )
    say(args, f"{len(found)} motifs passed the test (false discovery rate 5 %)")
    return found, ids, y


def _write_found(args: argparse.Namespace, found, ids, y) -> None:
    from ..motifs.formats import write_motifs, write_sites

    write_motifs(args.output, found)
    if args.sites:
        write_sites(args.sites, found, ids, y)
    say(args, f"{len(found)} motifs written to {args.output}")


def _report_matches(args: argparse.Namespace, found, known) -> None:
    from tqdm.auto import tqdm

    from ..io import write_table
    from ..motifs.compare import match_motifs

    header = ["motif", "match", "score", "offset", "strand", "overlap", "p_value"]
    rows = [
        (
            m.query,
            m.target,
            round(m.score, 4),
            m.offset,
            m.strand,
            m.overlap,
            f"{m.p_value:.3g}",
        )
        for motif in tqdm(found, desc="comparing", unit="motif", disable=not bars(args))
        for m in match_motifs(motif, known, top=args.compare_top)
    ]
    if args.matches:
        write_table(args.matches, header, rows)
        say(args, f"matches with {args.compare} written to {args.matches}")
        return
    print("\t".join(header))
    for row in rows:
        print("\t".join(str(v) for v in row))


def _write_logos(folder: str, found) -> None:
    from ..io import atomic_path, output_folder
    from ..plot import logo_figure

    out = output_folder(folder)
    for motif in found:
        with atomic_path(out / f"{motif.name}.png") as tmp:
            logo_figure(motif).savefig(tmp, dpi=150, format="png")
