"""Parsed command-line arguments turned into what the library takes.

Reading options (`read_options`), labeled records (`read_labeled_args`),
peaks (`peak_source`) and `RunOptions` (`run_options`), shared by the
commands that read labeled input.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    from ..run import PeakSource, RunOptions


def model_load_options(args: argparse.Namespace) -> dict:
    """What `poimkit.load_model` takes besides the path: the torch options.

    Parameters
    ----------
    args : argparse.Namespace
        ``input_length``, ``head`` and ``reduce``
        (`poimkit.cli.options.add_torch_options`).

    Returns
    -------
    dict
        ``input_length``, ``output`` and ``reduce``.
    """
    head = args.head
    if head is not None and head.lstrip("-").isdigit():
        head = int(head)
    if args.input_length is not None and args.input_length < 1:
        raise InputError(f"--input-length must be positive, got {args.input_length}")
    return {"input_length": args.input_length, "output": head, "reduce": args.reduce}


def load_model_args(args: argparse.Namespace):
    """The model of ``args.model``, with the torch options where it is a torch file.

    Parameters
    ----------
    args : argparse.Namespace
        ``model``, and the options of `model_load_options`.

    Returns
    -------
    object
        As `poimkit.load_model`.
    """
    from ..model_files import load_model

    return load_model(args.model, **model_load_options(args))


def read_options(args: argparse.Namespace) -> dict:
    """What to do with invalid and short records, and the crop length.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line (``drop_invalid``, ``crop``, ``drop_short``).

    Returns
    -------
    dict
        `poimkit.run.data.reading_options` of those options.
    """
    from ..run import RunOptions
    from ..run.data import reading_options

    given = {name: getattr(args, name) for name in ("drop_invalid", "crop")}
    return reading_options(RunOptions(**given, drop_short=args.drop_short))


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

    given = fields(args, (*LABELED_INPUTS, "positive_label"))
    return read_labeled(any_length=any_length, **given, **read_options(args))


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
    from ..run import PeakSource

    jitter = {} if getattr(args, "jitter", None) is None else {"jitter": args.jitter}
    return PeakSource(
        args.bed, args.genome, args.width, args.negatives or "genomic", **jitter
    )


#: `RunOptions` fields set by the model group of options (train and run)
MODEL_FIELDS = (
    "degree",
    "shift",
    "C",
    "solver",
    "kernel",
    "mismatches",
    "reverse_complement",
    "gkm_l",
    "gkm_k",
    "cnn_filters",
    "cnn_layers",
    "cnn_epochs",
    "cnn_max_time",
    "cnn_min_records",
    "grid",
)
#: `RunOptions` fields set by the other options of run, under the same names
RUN_FIELDS = (
    "cv",
    "cv_by",
    "cv_sample",
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
#: `RunOptions` fields set by the other options of train (a subset of run's)
TRAIN_FIELDS = (
    *("cv", "cv_by", "cv_sample", "seed", "threads"),
    *("drop_invalid", "crop", "drop_short", "positive_label"),
)
#: the labeled records of train and run: two FASTA files, or one with labels
LABELED_INPUTS = ("pos", "neg", "fasta", "labels")


def fields(args: argparse.Namespace, names: tuple[str, ...]) -> dict:
    """The options ``names`` of the command line, by name.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line.
    names : tuple of str
        Option names (their ``dest``).

    Returns
    -------
    dict
    """
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


def train_options(args: argparse.Namespace) -> RunOptions:
    """The `RunOptions` of ``poimkit train``: the model and the cross-validation.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``train`` command line.

    Returns
    -------
    RunOptions
    """
    from ..run import RunOptions

    return RunOptions(**fields(args, MODEL_FIELDS + TRAIN_FIELDS))


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
    from ..run import RunOptions

    return RunOptions(
        **fields(args, MODEL_FIELDS),
        **fields(args, RUN_FIELDS),
        memory_limit_gb=args.memory_limit,
    )
