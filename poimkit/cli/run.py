"""``poimkit run`` and ``poimkit demo``: a run folder, and its figures printed.

Classification runs go to `poimkit.run.run_pipeline`; with ``--targets``, to
the regression command (`poimkit.cli.regression`).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from .arguments import (
    LABELED_INPUTS,
    check_classification,
    fields,
    peak_source,
    run_options,
)
from .console import progress
from .stopping import EXIT_OK

if TYPE_CHECKING:
    from ..run.results import RunSummary


def _print_run(summary: RunSummary, out: str) -> None:
    """The run's figures, model and motifs on stdout, then the report's path."""
    from ..run.crossval import split_text
    from ..run.data import sample_text

    cv, f = summary.cv, summary.cv.figures
    if not cv.done:
        print("# no cross-validation (--cv 0): the model's accuracy is unknown")
    else:
        print(
            f"cv_auc\t{f['cv_auc']:.4f}\t+/-\t{f['cv_auc_std']:.4f}\t"
            f"accuracy\t{f['cv_accuracy']:.4f}\tbalanced\t"
            f"{f['cv_balanced_accuracy']:.4f}\tbest_threshold\t"
            f"{f['cv_best_accuracy']:.4f}"
        )
    if cv.models:
        each = "\t".join(f"{name}\t{m['cv_auc']:.4f}" for name, m in cv.models.items())
        print(f"chosen\t{cv.chosen_model}\t# cv_auc of each: {each}")
    from ..run.summary import chosen_text, param_text

    chosen = summary.parameters["chosen"]
    print("model\t" + "\t".join(param_text(k, v) for k, v in chosen.items()))
    if cv.selection is not None:
        print(f"# chosen by inner CV: {chosen_text(chosen, cv.selection)}")
    if cv.done:
        print(f"# cross-validation in {split_text(cv)}")
    if summary.sample:
        used = "cross-validation, motifs" if cv.done else "motifs"
        print(f"# {sample_text(summary.sample, used)}")
    if cv.baseline.get("gc_cv_auc") is not None:
        gc = cv.baseline["gc_cv_auc"]
        print(f"# GC content alone: cv_auc {gc:.4f} in the same folds")
    if cv.families_compared:
        from ..run.families import families_text

        print(f"# {families_text(cv.families_compared)}")
    print("motif\tclass\tconsensus\tposition\tspread\timportance\tpos\tneg\tq_value")
    for m in summary.motifs:
        where = (
            "any\tany"
            if m["position"] is None
            else (f"{m['position']:.1f}\t{m['spread']:.1f}")
        )
        print(
            f"{m['name']}\t{m.get('class', '')}\t{m['iupac']}\t{where}\t"
            f"{m['importance']:.4g}\t{m['frac_positive']:.3f}\t"
            f"{m['frac_negative']:.3f}\t{m['q_value']:.3g}"
        )
    if not summary.motifs:
        print(f"# {summary.motifs_note}")
    if summary.n_dropped:
        print(f"# {summary.n_dropped} records dropped (see the warnings above)")
    print(f"report\t{os.path.join(out, 'report.html')}")


def run_run(args: argparse.Namespace) -> int:
    """``poimkit run``; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..run import run_pipeline

    if args.targets is not None:  # a regression
        from .regression import run_regression_command

        return run_regression_command(args)
    check_classification(args)
    peaks = peak_source(args)
    summary = run_pipeline(
        args.output,
        **fields(args, LABELED_INPUTS),
        options=run_options(args),
        force=args.force,
        progress=progress(args),
        peaks=peaks,
    )
    _print_run(summary, args.output)
    return EXIT_OK


def run_demo(args: argparse.Namespace) -> int:
    """``poimkit demo``: the pipeline on the bundled GATTACA example.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    import tempfile

    from ..datasets import write_gattaca_data
    from ..run import RunOptions, run_pipeline

    with tempfile.TemporaryDirectory(prefix="poimkit-demo-") as folder:
        pos, neg = write_gattaca_data(folder)
        summary = run_pipeline(
            args.output,
            pos=str(pos),
            neg=str(neg),
            options=RunOptions(seed=args.seed, threads=args.threads),
            force=args.force,
            progress=progress(args),
            dataset="GATTACA example (poimkit.datasets.GATTACA_BUNDLE)",
        )
    _print_run(summary, args.output)
    return EXIT_OK
