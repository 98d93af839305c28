"""``poimkit train``: cross-validate (printing the AUC), then save the model.

With ``--targets``, the regression command (`poimkit.cli.regression`).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..errors import InputError
from .arguments import (
    LABELED_INPUTS,
    check_classification,
    fields,
    peak_source,
    train_options,
)
from .console import bars, say

if TYPE_CHECKING:
    from ..run.results import CVResult


def _linear_params(args: argparse.Namespace) -> dict:
    """The linear-solver options the user gave (none: the defaults apply)."""
    given = {"loss": args.loss, "chunk_size": args.chunk_size}
    params = {name: value for name, value in given.items() if value is not None}
    if args.solver == "linear":
        params["verbose"] = bars(args)  # progress bar of the iterations
    return params


def _check_dask(args: argparse.Namespace) -> None:
    """--dask only with the linear solver, and only with Dask installed."""
    if args.dask is not None and args.solver != "linear":
        raise InputError("--dask applies to --solver linear")
    if args.dask is not None:
        from importlib.util import find_spec

        if find_spec("dask") is None or find_spec("distributed") is None:
            raise InputError(
                '--dask needs Dask: pip install "dask[distributed]" (the dask extra)'
            )


def run_train(args: argparse.Namespace) -> int:
    """``poimkit train``: cross-validate (printing the AUC), then save the model.

    With ``--targets``, `poimkit.cli.regression.run_regression_command`;
    otherwise `poimkit.run.train.train_classifier`.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``train`` command line.

    Returns
    -------
    int
        The exit code (0).
    """
    from ..run import train_classifier
    from .stopping import EXIT_OK

    if args.targets is not None:
        from .regression import run_regression_command

        return run_regression_command(args)
    check_classification(args)
    _check_dask(args)
    options = train_options(args)
    train_classifier(
        args.output,
        **fields(args, LABELED_INPUTS),
        peaks=peak_source(args),
        options=options,
        linear=_linear_params(args),
        client=args.dask,
        progress=bars(args),
        on_cv=lambda cv: _print_cv(args, cv),
    )
    return EXIT_OK


def _print_cv(args: argparse.Namespace, cv: CVResult) -> None:
    """The cross-validation's figures (one line), and how it split the records."""
    from ..run.crossval import split_text

    f = cv.figures
    print(
        f"cv_auc\t{f['cv_auc']:.4f}\t+/-\t{f['cv_auc_std']:.4f}\t"
        f"({args.cv} folds)\taccuracy\t{f['cv_accuracy']:.4f}\tbalanced\t"
        f"{f['cv_balanced_accuracy']:.4f}\tbest_threshold\t"
        f"{f['cv_best_accuracy']:.4f}"
    )
    say(args, f"cross-validation in {split_text(cv)}")
    if cv.families_compared is not None:
        from ..run.families import families_text

        say(args, families_text(cv.families_compared))
