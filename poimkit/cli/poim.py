"""``poimkit poim``: exact POIMs of a model file (sampled where none exist)."""

from __future__ import annotations

import argparse

from .._validation import check_int
from ..additive import position_free
from ..errors import InputError
from ..io.outdir import check_writable
from .arguments import load_model_args, read_options
from .console import bars, say
from .stopping import EXIT_OK


def _background_from_args(
    args: argparse.Namespace, length: int, position_free: bool = False
):
    """The POIM background of --background, --markov-order and --positional."""
    from ..background import MarkovBackground
    from ..io import read_fasta

    if args.background == "uniform":
        if args.markov_order or args.positional:
            raise InputError(
                "--markov-order and --positional apply to --background fit:FASTA"
            )
        return MarkovBackground.uniform(length)
    if not args.background.startswith("fit:"):
        raise InputError(
            f"--background must be 'uniform' or 'fit:FASTA', got {args.background!r}"
        )
    path = args.background[len("fit:") :]
    _ids, X = read_fasta(path, any_length=position_free, **read_options(args))
    if position_free:
        if args.positional:
            raise InputError(
                "--positional does not apply to a position-free (gkm) model"
            )
        return MarkovBackground.fit_pooled(
            X, args.markov_order, length, pseudocount=args.pseudocount
        )
    if X.shape[1] != length:
        raise InputError(
            f"background sequences have length {X.shape[1]} but the model scores "
            f"length {length} (use --crop {length})",
            path=path,
        )
    return MarkovBackground.fit(
        X,
        order=args.markov_order,
        positional=args.positional,
        pseudocount=args.pseudocount,
    )


def run_poim(args: argparse.Namespace) -> int:
    """``poimkit poim``; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..io import commit_together
    from ..poim.compute import model_poim

    check_writable(args.output, args.top_tsv)
    check_int(args.top, "--top", 0)
    if not args.memory_limit > 0:
        raise InputError(f"--memory-limit must be positive, got {args.memory_limit}")
    model = load_model_args(args)
    background = _background_from_args(args, model.length_, position_free(model))
    say(args, f"computing POIMs up to order {args.max_order} under {background!r}")
    poim = model_poim(
        model,
        args.max_order,
        background,
        samples=args.samples,
        seed=args.seed,
        memory_limit_gb=args.memory_limit,
        threads=args.threads,
        progress=bars(args),
        windows=args.windows,
        estimator=args.estimator,
    )
    with commit_together():  # both files appear, or neither
        poim.save(args.output)
        if args.top_tsv:
            poim.write_top(args.top_tsv, n=args.top)
    if args.top:
        print("kmer\tposition\tvalue")
        for kmer, position, value in poim.top(args.top):
            print(f"{kmer}\t{'any' if position is None else position}\t{value:.6g}")
    say(args, f"POIMs written to {args.output}")
    return EXIT_OK
