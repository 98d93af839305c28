"""The ``poimkit explain`` command: per-letter attributions of records or peaks.

``poimkit explain MODEL (--fasta F | --bed P --genome G) -o DIR`` writes
``ohe.npz`` and ``attr.npz`` (for ``modisco motifs -s ohe.npz -a attr.npz``),
``scores.tsv``, ``logos/`` of the records of highest score, for peaks
``contributions.bw`` (`poimkit.explain.outputs`), and ``attribution_poim.npz``
(`poimkit.explain.kmer_poim`: k-mers' attributions in context, for ``poimkit
motifs attribution_poim.npz --pos P.fa --neg N.fa``). The attributions are
`poimkit.explain.records.explain_records`': exact for k-mer models, by
in-silico mutagenesis for models that only score (a CNN, a torch file).
"""

from __future__ import annotations

import argparse

from ..errors import InputError
from .arguments import load_model_args

#: logos drawn unless ``--top`` says otherwise
TOP_LOGOS = 10


def _records(args: argparse.Namespace, model: object):
    """``(ids, seqs, sizes)``: the records, and chromosome sizes for peaks."""
    if (args.fasta is None) == (args.bed is None):
        raise InputError("give --fasta, or --bed and --genome")
    if args.fasta is not None:
        from ..io import read_fasta

        ids, seqs = read_fasta(args.fasta, any_length=True)[:2]
        return list(ids), list(seqs), None
    if not args.genome:
        raise InputError("--bed needs --genome")
    from ..genome.peaks import check_chromosomes, extract, read_peaks
    from ..genome.reference import open_genome

    width = args.width
    if width is None:
        width = 200 if getattr(model, "position_free", False) else model.length_
    peaks = read_peaks(args.bed)
    with open_genome(args.genome, quiet=args.quiet) as genome:
        check_chromosomes(peaks, genome)
        kept = extract(genome, peaks.windows(width), "peak windows")
        sizes = dict(genome.lengths)
    return list(kept.ids), list(kept.seqs), sizes


def run_explain(args: argparse.Namespace) -> int:
    """The ``poimkit explain`` command; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..explain.kmer_poim import attribution_poim
    from ..explain.outputs import (
        NO_BIGWIG,
        has_bigwig,
        write_bigwig,
        write_logos,
        write_modisco_inputs,
    )
    from ..explain.records import explain_records
    from ..io.files import write_table
    from ..io.json_text import json_text
    from ..io.outdir import (
        ATTRIBUTION_POIM,
        RUN_FORMAT,
        check_output_folder,
        staged_directory,
    )
    from .console import say, tell

    if args.top < 0:
        raise InputError(f"--top must be 0 or more, got {args.top}")
    if args.max_order < 1:
        raise InputError(f"--max-order must be 1 or more, got {args.max_order}")
    inputs = tuple(p for p in (args.model, args.fasta, args.bed, args.genome) if p)
    check_output_folder(args.output, args.force, inputs)
    bigwig = args.bed is not None and has_bigwig()
    if args.bed is not None and not bigwig:
        tell(NO_BIGWIG)
    model = load_model_args(args)
    ids, seqs, sizes = _records(args, model)
    if not seqs:
        raise InputError("no records to explain")
    order = min(args.max_order, min(len(s) for s in seqs))
    found, scores, method = explain_records(model, seqs)
    poim = attribution_poim(found, order)
    with staged_directory(args.output, args.force, inputs) as staged:
        write_modisco_inputs(staged, found)
        poim.save(staged / ATTRIBUTION_POIM)
        write_table(
            staged / "scores.tsv",
            ["id", "score"],
            zip(ids, scores.tolist(), strict=True),
        )
        if bigwig:
            write_bigwig(staged / "contributions.bw", found, ids, sizes)
        logos = write_logos(staged / "logos", found, scores, ids, args.top)
        summary = {
            "format": RUN_FORMAT,
            "command": "explain",
            "model": str(args.model),
            "n_records": len(ids),
            "attributions": method,
            "length": int(found.ohe.shape[2]),
            "attribution_poim_max_order": order,
            "logos": logos,
            "bigwig": bigwig,
            **({"bigwig_skipped": NO_BIGWIG} if args.bed and not bigwig else {}),
        }
        (staged / "summary.json").write_text(json_text(summary, indent=1))
    say(
        args,
        f"explained {len(ids):,} records into {args.output} (ohe.npz, attr.npz, "
        f"{ATTRIBUTION_POIM}"
        + (", contributions.bw" if bigwig else "")
        + f", {len(logos)} logos)",
    )
    return 0
