"""The ``train`` and ``run`` commands' arguments turned into library calls.

`poimkit.cli` parses and prints; here the parsed arguments become what the
library takes: reading options (`read_options`), labeled records
(`read_labeled_args`), peaks (`peak_source`), `RunOptions` (`run_options`),
and ``poimkit train`` as a whole (`train_command`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .console import bars, say

if TYPE_CHECKING:
    from .genome import PeakSource
    from .options import RunOptions


def read_options(args: argparse.Namespace) -> dict:
    """What to do with invalid and short records, and the crop length.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line (``drop_invalid``, ``crop``, ``drop_short``).

    Returns
    -------
    dict
        ``on_invalid``, ``crop_length`` and ``drop_short``, as the readers of
        `poimkit.io` take them.
    """
    return {
        "on_invalid": "drop" if args.drop_invalid else "error",
        "crop_length": args.crop,
        "drop_short": args.drop_short,
    }


def read_labeled_args(args: argparse.Namespace, any_length: bool) -> tuple:
    """(ids, X, y) of --pos/--neg or --fasta/--labels, as the options say.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line with labeled input.
    any_length : bool
        Accept records of different lengths.

    Returns
    -------
    tuple
        `poimkit.io.read_labeled`'s ``(ids, X, y)``.
    """
    from ..io import read_labeled

    return read_labeled(
        pos=args.pos,
        neg=args.neg,
        fasta=args.fasta,
        labels=args.labels,
        positive_label=args.positive_label,
        any_length=any_length,
        **read_options(args),
    )


def peak_source(args: argparse.Namespace) -> PeakSource | None:
    """The `PeakSource` of --bed/--genome, or None for FASTA input (checked).

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line with labeled input.

    Returns
    -------
    PeakSource or None

    Raises
    ------
    InputError
        Unless exactly one of the pairs --pos/--neg, --fasta/--labels and
        --bed/--genome is given, whole.
    """
    bed = getattr(args, "bed", None)  # train and run only
    genome = getattr(args, "genome", None)
    pairs = [(args.pos, args.neg), (args.fasta, args.labels), (bed, genome)]
    if any((a is None) != (b is None) for a, b in pairs) or (
        sum(a is not None for a, _ in pairs) != 1
    ):
        peaks = ", or --bed and --genome" if hasattr(args, "bed") else ""
        raise InputError(f"give either --pos and --neg, or --fasta and --labels{peaks}")
    if bed is None:
        return None
    from .genome import PeakSource

    return PeakSource(args.bed, args.genome, args.width, args.negatives or "genomic")


#: `RunOptions` fields set by the model group of options (train and run)
_MODEL_FIELDS = (
    "degree",
    "shift",
    "C",
    "solver",
    "kernel",
    "mismatches",
    "reverse_complement",
    "gkm_l",
    "gkm_k",
    "grid",
)
#: `RunOptions` fields set by the other options of run, under the same names
_RUN_FIELDS = (
    "cv",
    "cv_by",
    "max_order",
    "background",
    "markov_order",
    "max_motifs",
    "seed",
    "threads",
    "drop_invalid",
    "crop",
    "drop_short",
    "positive_label",
    "compare",
    "known",
)


def _fields(args: argparse.Namespace, names: tuple[str, ...]) -> dict:
    """The options ``names`` of the command line, by name."""
    return {name: getattr(args, name) for name in names}


def check_classification(args: argparse.Namespace) -> None:
    """Refuse options of a regression in a classification (train or run).

    Parameters
    ----------
    args : argparse.Namespace
        A parsed ``train`` or ``run`` command line without ``--targets``.
    """
    if getattr(args, "log1p", False):
        raise InputError("--log1p goes with --targets (a regression)")


def run_options(args: argparse.Namespace) -> RunOptions:
    """The `RunOptions` of a parsed ``run`` command line (not yet checked).

    Parameters
    ----------
    args : argparse.Namespace
        A parsed ``run`` command line (its model and run options and
        ``memory_limit``).

    Returns
    -------
    RunOptions
    """
    from .options import RunOptions

    return RunOptions(
        **_fields(args, _MODEL_FIELDS),
        **_fields(args, _RUN_FIELDS),
        memory_limit_gb=args.memory_limit,
    )


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
                '--dask needs Dask: pip install "poimkit[dask]" (dask[distributed])'
            )


def train_command(args: argparse.Namespace) -> int:
    """``poimkit train``: cross-validate (printing the AUC), then save the model.

    With ``--targets``, `poimkit.run.regression.regression_command`. The WD
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

    from .._exit import EXIT_OK
    from ..outdir import check_writable
    from .data import LabeledData, as_codes
    from .options import RunOptions, check_cv
    from .plan import make_plan
    from .train import linear_template, train_model

    if args.targets is not None:
        from .regression import regression_command

        return regression_command(args)
    check_classification(args)
    peaks = peak_source(args)
    check_cv(args.cv)
    _check_dask(args)
    check_writable(args.output)
    options = RunOptions(
        **_fields(args, _MODEL_FIELDS),
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
        from .genome import read_peak_input

        made = read_peak_input(peaks, options, bars(args))
        data = made.data
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
        from .summary import chosen_text

        say(
            args,
            f"chosen by inner CV: {chosen_text(trained.chosen, trained.selection)}",
        )
    _saved(args, trained.model)
    if peaks is not None and made.write_negatives(Path(args.output), beside=True):
        say(args, f"negatives written beside it: {made.negatives_path}")
    return EXIT_OK


def _print_cv(args: argparse.Namespace, cv: dict) -> None:
    """The cross-validation's figures (one line), and how it split the records."""
    from .crossval import split_text

    print(
        f"cv_auc\t{cv['cv_auc']:.4f}\t+/-\t{cv['cv_auc_std']:.4f}\t"
        f"({args.cv} folds)\taccuracy\t{cv['cv_accuracy']:.4f}\tbalanced\t"
        f"{cv['cv_balanced_accuracy']:.4f}\tbest_threshold\t"
        f"{cv['cv_best_accuracy']:.4f}"
    )
    say(args, f"cross-validation in {split_text(cv)}")


def _saved(args: argparse.Namespace, model: Any) -> None:
    """Write the model to ``--output`` and say so."""
    model.save(args.output)
    say(
        args,
        f"model with {int(model.n_support_.sum())} support vectors "
        f"written to {args.output}",
    )
