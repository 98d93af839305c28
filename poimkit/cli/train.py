"""``poimkit train``: cross-validate (printing the AUC), then save the model.

With ``--targets``, the regression command (`poimkit.cli.regression`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import InputError
from .arguments import (
    MODEL_FIELDS,
    check_classification,
    fields,
    peak_source,
    read_labeled_args,
    read_options,
)
from .console import bars, say


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

    With ``--targets``, `poimkit.cli.regression.run_regression_command`. The WD
    linear solver without CV or selection streams --pos/--neg from disk;
    everything else reads the records (or the peaks' windows) and trains by
    `train_model` over `make_plan`, as ``poimkit run`` does.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``train`` command line.

    Returns
    -------
    int
        The exit code (0).
    """
    import numpy as np

    from ..io.outdir import check_writable
    from ..run.data import LabeledData, as_codes
    from ..run.options import RunOptions, check_cv
    from ..run.plan import make_plan
    from ..run.train import linear_template, train_model
    from .stopping import EXIT_OK

    if args.targets is not None:
        from .regression import run_regression_command

        return run_regression_command(args)
    check_classification(args)
    peaks = peak_source(args)
    check_cv(args.cv)
    _check_dask(args)
    check_writable(args.output)
    options = RunOptions(
        **fields(args, MODEL_FIELDS),
        cv=args.cv,
        cv_by=args.cv_by,
        seed=args.seed,
        threads=args.threads,
    )
    options.check_model()
    model = linear_template(options, _linear_params(args), args.dask)
    fit_params = {} if args.dask is None else {"client": args.dask}
    if peaks is not None:
        peaks.check(options)
    if model is not None and args.pos is not None and not (args.cv or options.selects):
        say(args, "streaming the FASTA files into the linear solver")
        model.fit((args.pos, args.neg), **fit_params, **read_options(args))
        _saved(args, model)
        return EXIT_OK
    if peaks is None:
        ids, X, y = read_labeled_args(args, any_length=options.kernel != "wd")
        data = LabeledData(list(ids), as_codes(X, options.kernel), np.asarray(y), [], 0)
    else:
        from ..run.genome import read_peak_input

        made = read_peak_input(peaks, options, bars(args))
        data = made.data
        if data.copies is not None and options.kernel != "gkm":
            say(args, _copies_line(data.copies.offsets))
    plan = make_plan(data, options, model)
    lengths = sorted({len(x) for x in data.X})
    shown = lengths[0] if len(lengths) == 1 else f"{lengths[0]}-{lengths[-1]}"
    say(
        args,
        f"read {data.y.size} sequences of length {shown} "
        f"({int(data.y.sum())} positive)",
    )
    trained = train_model(
        data,
        plan,
        progress=bars(args),
        fit_params=fit_params,
        on_cv=lambda cv: _print_cv(args, cv),
    )
    if trained.selection is not None:
        from ..run.summary import chosen_text

        say(
            args,
            f"chosen by inner CV: {chosen_text(trained.chosen, trained.selection)}",
        )
    _saved(args, trained.model)
    if peaks is not None and made.write_negatives(Path(args.output), beside=True):
        say(args, f"negatives written beside it: {made.negatives_path}")
    return EXIT_OK


def _copies_line(offsets: tuple[int, ...]) -> str:
    """What a WD model on peaks trains on (`poimkit.run.data.MovedCopies`)."""
    moved = ", ".join(f"{o:+d}" for o in offsets[1:])
    return (
        f"a WD model trains on {len(offsets)} copies of every window: as cut and "
        f"moved by {moved} letters (--jitter)"
    )


def _print_cv(args: argparse.Namespace, cv: dict) -> None:
    """The cross-validation's figures (one line), and how it split the records."""
    from ..run.crossval import split_text

    print(
        f"cv_auc\t{cv['cv_auc']:.4f}\t+/-\t{cv['cv_auc_std']:.4f}\t"
        f"({args.cv} folds)\taccuracy\t{cv['cv_accuracy']:.4f}\tbalanced\t"
        f"{cv['cv_balanced_accuracy']:.4f}\tbest_threshold\t"
        f"{cv['cv_best_accuracy']:.4f}"
    )
    say(args, f"cross-validation in {split_text(cv)}")
    if "families_compared" in cv:
        from ..run.families import families_text

        say(args, families_text(cv["families_compared"]))


def _saved(args: argparse.Namespace, model: Any) -> None:
    """Write the model to ``--output`` and say so."""
    model.save(args.output)
    if hasattr(model, "n_support_"):
        what = f"model with {int(model.n_support_.sum())} support vectors"
    else:
        what = f"{model.describe()}, trained for {len(model.log_.valid_loss)} epochs,"
    say(args, f"{what} written to {args.output}")
