"""``poimkit train`` or ``poimkit run`` with ``--targets``: a regression.

The options of a classification that do not apply are refused first, one
line each; the rest become a `TargetSource` and `RunOptions` for
`poimkit.run.regression_run`. The CV figures are printed on stdout.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from ..errors import InputError
from .arguments import run_options, train_options
from .console import bars, progress

if TYPE_CHECKING:
    from ..run.results import CVResult, RunSummary


def _refuse_classification_options(args: argparse.Namespace) -> None:
    """Options of ``train`` that do not apply to regression yet: one line each."""
    if args.pos is not None or args.neg is not None or args.labels is not None:
        raise InputError("--targets goes with --fasta (not --pos/--neg or --labels)")
    bed, genome = getattr(args, "bed", None), getattr(args, "genome", None)
    if args.fasta is not None and bed is not None:
        raise InputError("--targets takes --fasta or --bed (peaks), not both")
    if args.fasta is None and bed is None:
        raise InputError(
            "--targets needs --fasta, or --bed and --genome (the records the "
            "targets belong to)"
        )
    if bed is not None and not genome:
        raise InputError("--bed needs --genome")
    if getattr(args, "dask", None) is not None:
        raise InputError("--dask: regression reads its records in memory (no Dask)")
    if getattr(args, "loss", None) not in (None, "squared_hinge"):
        raise InputError(
            "--loss applies to classifiers: the linear regressors minimise the "
            "squared epsilon-insensitive loss"
        )
    if args.positive_label is not None:
        raise InputError("--positive-label applies to --labels, not --targets")
    if getattr(args, "compare", None) is not None:
        raise InputError("--compare: no motifs for regression runs yet")
    if getattr(args, "known", None) is not None:
        raise InputError(
            "--known tests classes (positives against negatives), not --targets"
        )


def _source(args: argparse.Namespace):
    """The `TargetSource` of the command line."""
    from ..run import PeakSource, TargetSource

    peaks = None
    if getattr(args, "bed", None) is not None:
        peaks = PeakSource(args.bed, args.genome, args.width, args.negatives)
    return TargetSource(args.targets, args.fasta, peaks, args.log1p)


def _options(args: argparse.Namespace):
    """The `RunOptions` of ``train`` (model and CV) or ``run`` (all)."""
    return train_options(args) if args.command == "train" else run_options(args)


def _print_cv(args: argparse.Namespace, cv: CVResult) -> None:
    """The CV figures, one line each (mean +/- std over folds)."""
    f = cv.figures
    for name in ("cv_pearson", "cv_spearman", "cv_r2"):
        if name in f:
            print(
                f"{name}\t{f[name]:.4f}\t+/-\t{f[name + '_std']:.4f}\t({args.cv} folds)"
            )


def _print_run(args: argparse.Namespace, summary: RunSummary) -> None:
    """The run on stdout as a classification run prints it: figures, motifs, report."""
    if summary.cv.done:
        _print_cv(args, summary.cv)
    else:
        print("# no cross-validation (--cv 0): the model's accuracy is unknown")
    print("motif\tconsensus\tposition\tspread\teffect\tq_value")
    for m in summary.motifs:
        where = (
            "any\tany"
            if m["position"] is None
            else f"{m['position']:.1f}\t{m['spread']:.1f}"
        )
        effect = m.get("effect", m["importance"])
        print(f"{m['name']}\t{m['iupac']}\t{where}\t{effect:.4g}\t{m['q_value']:.3g}")
    if not summary.motifs:
        print(f"# {summary.motifs_note}")
    print(f"report\t{os.path.join(args.output, 'report.html')}")


def run_regression_command(args: argparse.Namespace) -> int:
    """``poimkit train`` or ``poimkit run`` with ``--targets``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``train`` or ``run`` command line.

    Returns
    -------
    int
        The exit code (0).
    """
    from ..run import run_regression, train_regression
    from ..run.options import check_cv
    from .stopping import EXIT_OK

    _refuse_classification_options(args)
    check_cv(args.cv)
    source, options = _source(args), _options(args)
    if args.command == "run":
        summary = run_regression(
            args.output, source, options, args.epsilon, args.force, progress(args)
        )
        _print_run(args, summary)
        return EXIT_OK
    from ..io.outdir import check_writable

    check_writable(args.output)
    _, cv = train_regression(args.output, source, options, args.epsilon, bars(args))
    _print_cv(args, cv)
    return EXIT_OK
