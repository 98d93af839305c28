"""The ``poimkit explain`` command: per-letter attributions of records or peaks.

``poimkit explain MODEL (--fasta F | --bed P --genome G) -o DIR`` writes
``ohe.npz`` and ``attr.npz`` (for ``modisco motifs -s ohe.npz -a attr.npz``),
``scores.tsv``, ``logos/`` of the records of highest score, for peaks
``contributions.bw`` (`poimkit.explain.outputs`), and ``attribution_poim.npz``
(`poimkit.explain.kmer_poim`: k-mers' attributions in context, for ``poimkit
motifs attribution_poim.npz --pos P.fa --neg N.fa``). The attributions are
`poimkit.explain.records.explain_records`': exact for k-mer models, by
in-silico mutagenesis for models that only score (a CNN, a torch file). The
job is `poimkit.explain.job.explain_to_folder`.
"""

from __future__ import annotations

import argparse

from .arguments import fields, model_load_options


def run_explain(args: argparse.Namespace) -> int:
    """The ``poimkit explain`` command; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..explain.job import explain_to_folder
    from .stopping import EXIT_OK

    given = ("fasta", "bed", "genome", "width", "top", "max_order", "force", "quiet")
    explain_to_folder(
        args.output,
        args.model,
        load_options=model_load_options(args),
        **fields(args, given),
    )
    return EXIT_OK
