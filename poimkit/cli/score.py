"""``poimkit score``: scores (and labels, probabilities) of records or windows."""

from __future__ import annotations

import argparse

from ..io.outdir import check_writable
from .arguments import read_options
from .console import bars, say
from .stopping import EXIT_OK


def run_score(args: argparse.Namespace) -> int:
    """``poimkit score``; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..run.score import score_records

    check_writable(args.output)
    read = read_options(args)
    lines = score_records(
        args.model,
        args.fasta,
        args.output,
        args.windows,
        args.threads,
        progress=bars(args),
        **read,
    )
    for line in lines:
        say(args, line)
    return EXIT_OK
