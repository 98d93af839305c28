"""``poimkit poim``: exact POIMs of a model file (sampled where none exist).

The library job is `poimkit.poim.job.write_model_poim`.
"""

from __future__ import annotations

import argparse

from .._validation import check_int
from ..additive import position_free
from ..errors import InputError
from .arguments import fields, load_model_args, read_options
from .console import bars, say
from .stopping import EXIT_OK


def run_poim(args: argparse.Namespace) -> int:
    """``poimkit poim``; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..poim.job import background_from_spec, write_model_poim

    check_int(args.top, "--top", 0)
    if not args.memory_limit > 0:
        raise InputError(f"--memory-limit must be positive, got {args.memory_limit}")
    model = load_model_args(args)
    background = background_from_spec(
        args.background,
        model.length_,
        position_free(model),
        read_options=read_options(args),
        **fields(args, ("markov_order", "positional", "pseudocount")),
    )
    say(args, f"computing POIMs up to order {args.max_order} under {background!r}")
    poim = write_model_poim(
        model,
        args.output,
        args.max_order,
        background,
        memory_limit_gb=args.memory_limit,
        progress=bars(args),
        **fields(args, ("top_tsv", "top", "samples", "seed", "threads", "windows")),
        estimator=args.estimator,
    )
    if args.top:
        print("kmer\tposition\tvalue")
        for kmer, position, value in poim.top(args.top):
            print(f"{kmer}\t{'any' if position is None else position}\t{value:.6g}")
    say(args, f"POIMs written to {args.output}")
    return EXIT_OK
