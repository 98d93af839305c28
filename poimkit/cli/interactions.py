"""The ``poimkit interactions`` command: how two motifs act together in a model.

``poimkit interactions MODEL A B -o DIR`` writes ``interactions.tsv`` (one row
per orientation and distance: the interaction, its standard error, z and the
single effects), ``interactions.png`` and ``summary.json`` (the peak and the
model calls). The map is `poimkit.importance.motif_interactions`.
"""

from __future__ import annotations

import argparse

from ..errors import InputError
from .arguments import load_model_args


def _motif(text: str, motifs: dict | None, name: str) -> object:
    """A motif argument: a name in ``--motifs``, else a DNA string."""
    if motifs is not None and text in motifs:
        return motifs[text]
    if motifs is not None and set(text.upper()) - set("ACGT"):
        raise InputError(
            f"{name} {text!r} is not a motif of --motifs: {sorted(motifs)}"
        )
    return text


def _length(args: argparse.Namespace, model: object) -> int:
    """--length, or the model's own."""
    if args.length is not None:
        return args.length
    length = None if _any_length(model) else model.length_
    if length is None:
        raise InputError("give --length: the model scores records of any length")
    return int(length)


def _any_length(model: object) -> bool:
    from ..additive import position_free

    return position_free(model)


def run_interactions(args: argparse.Namespace) -> int:
    """The ``poimkit interactions`` command; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..importance.interactions import motif_interactions
    from ..io.files import write_table
    from ..io.json_text import json_text
    from ..io.outdir import LAYOUT, RUN_FORMAT, check_output_folder, staged_directory
    from ..plot.interactions import plot_interactions
    from .console import say

    if args.max_distance < 0:
        raise InputError(f"--max-distance must be 0 or more, got {args.max_distance}")
    inputs = tuple(p for p in (args.model, args.motifs) if p)
    check_output_folder(args.output, args.force, inputs)
    motifs = None
    if args.motifs is not None:
        from ..motifs.compare import known_motifs

        motifs = {m.name: m for m in known_motifs(args.motifs)}
    first = _motif(args.motif_a, motifs, "A")
    second = _motif(args.motif_b, motifs, "B")
    model = load_model_args(args)
    found = motif_interactions(
        model,
        first,
        second,
        _length(args, model),
        distances=range(args.max_distance + 1),
        orientations=args.orientations.split(","),
        n_samples=args.samples,
        random_state=args.seed,
    )
    with staged_directory(args.output, args.force, inputs) as staged:
        write_table(
            staged / LAYOUT.interactions_table, list(found.COLUMNS), found.rows()
        )
        ax = plot_interactions(found)
        ax.figure.savefig(staged / LAYOUT.interactions_figure, dpi=120)
        summary = {
            "format": RUN_FORMAT,
            "command": "interactions",
            "model": str(args.model),
            "motif_a": found.motif_a,
            "motif_b": found.motif_b,
            "peak": found.peak(),
            "baseline": found.baseline,
            "n_samples": found.n_samples,
            "n_evaluations": found.n_evaluations,
        }
        (staged / LAYOUT.summary).write_text(json_text(summary, indent=1))
    peak = found.peak()
    say(
        args,
        f"{found.motif_a} and {found.motif_b} interact most at {peak['distance']} "
        f"letters apart, orientation {peak['orientation']}: "
        f"{peak['interaction']:.4g} +/- {peak['stderr']:.2g} (z {peak['z']:.1f}); "
        f"{found.n_evaluations:,} records scored, written to {args.output}",
    )
    return 0
