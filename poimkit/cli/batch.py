"""``poimkit batch``: a sheet of experiments, run on Dask, compared in an atlas.

Every row's ``run`` flags (``--options`` for all, then the row's own
column) are parsed here, by the ``run`` command's own parser, before any
experiment runs; `poimkit.batch.run_batch` does the rest. A line per
experiment (done, skipped or failed, with its time) goes to standard error.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from ..errors import InputError
from .console import say

#: a row's input columns as ``run`` flags
_FLAGS = {
    "bed": "--bed",
    "genome": "--genome",
    "pos": "--pos",
    "neg": "--neg",
    "fasta": "--fasta",
    "targets": "--targets",
}
#: ``run`` flags the sheet's columns and the batch give, refused in options
_NOT_OPTIONS = {*_FLAGS.values(), "--labels", "-o", "--output", "--force"}


def _run_parser() -> argparse.ArgumentParser:
    """The ``run`` command's parser, raising `InputError` instead of exiting."""
    from .parser import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    run = sub.choices["run"]

    def refuse(message: str) -> None:
        raise InputError(message)

    run.error = refuse
    return run


def _row_settings(batch_flags: list[str]):
    """``settings(experiment)``: a row's `RowSettings` from its ``run`` flags."""
    from ..batch import RowSettings
    from .arguments import check_classification, run_options

    parser = _run_parser()

    def settings(experiment):
        where = f"row {experiment.row} ({experiment.name}), column options"
        given = [o.split("=")[0] for o in (*batch_flags, *experiment.options)]
        taken = sorted(set(given) & _NOT_OPTIONS)
        if taken:
            raise InputError(
                f"{where}: {taken[0]} is not an option of a row: the sheet's columns "
                "give the inputs and the batch its folders"
            )
        files = {c: p for c, p in experiment.files.items() if c != "model"}
        argv = [x for c, p in files.items() for x in (_FLAGS[c], p)]
        argv += [*batch_flags, *experiment.options, "-o", "unused"]
        try:
            args = parser.parse_args(argv)
            if not (experiment.regression or experiment.explains):
                check_classification(args)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        return RowSettings(
            run_options(args),
            width=args.width,
            negatives=args.negatives,
            jitter=args.jitter,
            log1p=args.log1p,
            epsilon=args.epsilon,
        )

    return settings


def _say_outcome(args: argparse.Namespace, bar):
    """Print one line per experiment and move the bar."""

    def told(outcome) -> None:
        seconds = f"{outcome.seconds:.1f} s" if outcome.status != "skipped" else ""
        line = f"{outcome.name}: {outcome.status}" + (
            f" ({seconds})" if seconds else ""
        )
        if outcome.error:
            line += f": {outcome.error}"
        if not args.quiet:
            for note in outcome.notes:
                bar.write(f"{outcome.name}: warning: {note}", file=sys.stderr)
            bar.write(line, file=sys.stderr)
        bar.update(1)

    return told


def run_batch_command(args: argparse.Namespace) -> int:
    """``poimkit batch``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``batch`` command line.

    Returns
    -------
    int
        0 when every experiment ran or was complete; 3 when some failed.
    """
    from tqdm.auto import tqdm

    from ..batch import plan_batch, run_batch
    from .stopping import EXIT_OK, EXIT_SOME_FAILED

    try:
        batch_flags = shlex.split(args.options)
    except ValueError as exc:
        raise InputError(f"--options: {exc}") from None
    tasks = plan_batch(
        args.sheet,
        args.output,
        genome=args.genome,
        settings=_row_settings(batch_flags),
    )
    client = None
    if args.scheduler is not None:
        from dask.distributed import Client

        client = Client(args.scheduler)
    with tqdm(total=len(tasks), unit="experiment", disable=args.quiet) as bar:
        result = run_batch(
            tasks,
            args.output,
            client=client,
            workers=args.workers,
            on_outcome=_say_outcome(args, bar),
        )
    failed = len(result.failed)
    print(f"experiments\t{len(result.outcomes)}\tfailed\t{failed}")
    print(f"atlas\t{result.out / 'atlas.html'}")
    if failed:
        say(args, f"{failed} experiment(s) failed: see {result.out / 'failed.tsv'}")
        return EXIT_SOME_FAILED
    return EXIT_OK
