"""Option groups shared by the subcommands' parsers, and their help format.

`command` makes a subcommand whose help ends with its examples; the
``add_*`` functions add one group of options each (labeled input, peaks,
cleaning, model, linear solver, POIMs, motifs, run); `MODEL_HELP` describes
the model argument of score, poim and variants.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

#: the model argument of score, poim and variants
MODEL_HELP = (
    "a model file: the .npz of poimkit train or run (model.npz; run's "
    "motif_model.npz or stack.npz too), an LS-GKM model file of gkmtrain "
    "-t 0, 1 or 2 (or gkmsvm-lite's save_lsgkm), or a torch model saved by "
    "torch.jit.save or torch.export.save (reads one-hot (N, 4, L), rows A, C, "
    "G, T; see --input-length, --head, --reduce)"
)


def add_torch_options(parser: argparse.ArgumentParser) -> None:
    """``--input-length``, ``--head`` and ``--reduce``: how to read a torch model.

    Parameters
    ----------
    parser : argparse.ArgumentParser
    """
    group = parser.add_argument_group("torch models (torch.jit.save, torch.export)")
    group.add_argument(
        "--input-length",
        type=int,
        metavar="L",
        help="the length of the records the model reads",
    )
    group.add_argument(
        "--head",
        metavar="INDEX|NAME",
        help="the output of a model that returns several (a tuple index or a "
        "dict key), e.g. the count head of a profile model",
    )
    group.add_argument(
        "--reduce",
        choices=("sum", "mean", "max"),
        help="how an output of several values per record (a profile, tasks) "
        "becomes one score",
    )


def add_input_options(parser: argparse.ArgumentParser, targets: bool = False) -> None:
    """Add the labeled-input group (--pos/--neg, --fasta/--labels) and cleaning.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    targets : bool
        Also --targets and --log1p (a regression).
    """
    group = parser.add_argument_group(
        "labeled input (either --pos/--neg or --fasta/--labels)"
    )
    for flag, text in (
        ("--pos", "positive sequences (plain or .gz)"),
        ("--neg", "negative sequences (plain or .gz)"),
        ("--fasta", "all sequences, labels in --labels"),
    ):
        group.add_argument(flag, metavar="FASTA", help=text)
    group.add_argument(
        "--labels",
        metavar="TSV",
        help="two columns: record id, label. Two labels; the positive one is the "
        "larger number, or one of 1, +1, +, pos, positive, true, t, yes, y (any "
        "case) against 0, -1, -, neg, negative, false, f, no, n",
    )
    if targets:
        add_targets_option(group)
    group.add_argument(
        "--positive-label",
        metavar="LABEL",
        help="with --labels: the label of the positive class (any other words)",
    )
    add_cleaning_options(parser)


def add_targets_option(group: argparse._ArgumentGroup) -> None:
    """Add --targets and --log1p to ``group``.

    Parameters
    ----------
    group : argparse._ArgumentGroup
        The labeled-input group.
    """
    group.add_argument(
        "--targets",
        metavar="TSV|COLUMN",
        help="instead of --labels, a regression: two columns, record id and a "
        "continuous value (header allowed); with --bed, a column of the peak file "
        "(signal: narrowPeak's signalValue; score, pValue, qValue, column:N) or a "
        "TSV keyed by the peaks' chrom:start-end. A support vector regression "
        "(WDKernelSVR, or GkmSVR for records of different lengths or --kernel "
        "gkm) whose family, kernel parameters, C and epsilon are chosen by "
        "nested CV as for classes (--no-grid fixes them); CV Pearson, Spearman "
        "and R2 (mean and std over folds). run also finds the motifs and counted "
        "words that shift the target, fits their motif model and keeps the SVM, "
        "the motif model or their stack, and writes poim.npz, summary.json and "
        "report.html",
    )
    group.add_argument(
        "--log1p",
        action="store_true",
        help="with --targets: regress on log(1 + target) (counts, fold enrichments)",
    )


def _width(text: str) -> int | None:
    if text == "as-is":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of letters or 'as-is', got {text!r}"
        ) from None


def add_peak_options(parser: argparse.ArgumentParser) -> None:
    """Add the peaks group: --bed, --genome, --width, --negatives, --jitter.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    group = parser.add_argument_group(
        "or peaks in a genome: --bed and --genome (the negatives are made)"
    )
    group.add_argument(
        "--bed",
        metavar="PEAKS",
        help="peaks: BED3, BED6 (strand) or narrowPeak (summit in column 10)",
    )
    group.add_argument(
        "--genome",
        metavar="GENOME.fa",
        help="the genome FASTA, plain or bgzip (indexed once; soft-masked "
        "letters read as ordinary ones)",
    )
    group.add_argument(
        "--width",
        type=_width,
        default=200,
        metavar="W",
        help="window of W letters around each summit (narrowPeak) or centre; "
        "as-is: the peaks as they are (position-free model)",
    )
    group.add_argument(
        "--negatives",
        metavar="genomic|shuffle|FILE",
        help="genomic (default): background windows matched to the peaks' GC and "
        "repeat content, away from peaks; shuffle: dinucleotide shuffles of the "
        "peaks; or a FASTA of sequences or BED of regions (with --targets: none unless "
        "given, then at target 0)",
    )
    group.add_argument(
        "--jitter",
        type=int,
        metavar="J",
        help="a WD model trains on every window and on copies moved along the "
        "genome by -J, -J/2, J/2 and J letters (default 10; 0: off; for genomic or "
        "BED negatives, up to 2,000 windows, 3 copies up to 5,000)",
    )


def add_cleaning_options(parser: argparse.ArgumentParser) -> None:
    """Add --drop-invalid, --crop and --drop-short.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    parser.add_argument(
        "--drop-invalid",
        action="store_true",
        help="drop records with N/IUPAC or unknown letters instead of stopping",
    )
    parser.add_argument(
        "--crop",
        type=int,
        metavar="LEN",
        help="centre-crop every record to LEN letters",
    )
    parser.add_argument(
        "--drop-short",
        action="store_true",
        help="with --crop: leave out records shorter than LEN instead of stopping",
    )


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """Add --threads and --quiet, which every subcommand has.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    parser.add_argument("--threads", type=int, metavar="N", help="threads for numba")
    parser.add_argument("--quiet", action="store_true", help="print only results")


def command(
    sub: argparse._SubParsersAction, name: str, text: str, *examples: str
) -> argparse.ArgumentParser:
    """A subcommand whose help ends with its examples, one per line.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    name, text : str
        The subcommand and its one-line help.
    *examples : str
        Example command lines.

    Returns
    -------
    argparse.ArgumentParser
    """
    label = "example" if len(examples) == 1 else "examples"
    return sub.add_parser(
        name,
        help=text,
        formatter_class=HelpFormatter,
        epilog=f"{label}: " + "\n  ".join(examples),
    )


class HelpFormatter(
    argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter
):
    """Defaults in the help, except None (the help text says what happens).

    Epilogs keep their line breaks: one example per line, never split; help
    texts wrap at spaces only.
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None:
            return action.help
        return super()._get_help_string(action)

    def _split_lines(self, text: str, width: int) -> list[str]:
        """Wrap at spaces only: an option name (``--no-grid``) is never split."""
        import textwrap

        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.wrap(text, width, break_on_hyphens=False)


def listed(values: Iterable[float]) -> str:
    """A set of numbers as the help shows it: ``{0.1, 1}``.

    Parameters
    ----------
    values : iterable of float
        The numbers.
    """
    return "{" + ", ".join(f"{v:g}" for v in values) + "}"


def add_model_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """Add the model group (kernel family, parameters, solver); return it.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    from ..run.options import FIXED_DEFAULTS
    from ..run.registry import family_names
    from ..svm.selection import (
        DEFAULT_C,
        DEFAULT_DEGREES,
        DEFAULT_SHIFTS,
        HOLDOUT_ABOVE,
        INNER_FOLDS,
        MAX_SEQUENCES,
    )

    fixed = FIXED_DEFAULTS
    model = parser.add_argument_group(
        "model (a value given fixes it; the others are chosen by an inner "
        "cross-validation, see --grid)"
    )
    model.add_argument(
        "--degree",
        type=int,
        help="WD degree (longest k-mer); default: chosen from "
        f"{listed(DEFAULT_DEGREES)}, {fixed['degree']} with --no-grid",
    )
    model.add_argument(
        "--shift",
        type=int,
        help="WDS maximal shift (0: WD); default: chosen from "
        f"{listed(DEFAULT_SHIFTS)} up to half the sequence length, "
        f"{fixed['shift']} with --no-grid",
    )
    model.add_argument(
        "-C",
        type=float,
        help=f"SVM regularisation; default: chosen from {listed(DEFAULT_C)}, "
        f"{fixed['C']:g} with --no-grid (with --targets: from 0.1, 1 and 10 times "
        "the targets' SD, 1 times it with --no-grid)",
    )
    model.add_argument(
        "--epsilon",
        type=float,
        help="with --targets: half-width of the SVR's error-free tube, in target "
        "units; default: chosen from 0.1 and 0.5 times the targets' SD, 0.1 times "
        "it with --no-grid (C too is searched, and fixed, in units of that SD)",
    )
    model.add_argument(
        "--grid",
        action=argparse.BooleanOptionalAction,
        help="choose the parameters not given above by an inner cross-validation "
        f"({INNER_FOLDS}-fold; one split holding out a third above {HOLDOUT_ABOVE} "
        "training sequences) in every outer fold and on all sequences for the "
        f"final model (above {MAX_SEQUENCES} sequences on a stratified sample of "
        "that many): the CV AUC is nested, the kernel matrix "
        "of each setting computed once. Default: on with --solver kernel, off "
        "with --solver linear. --no-grid: fixed parameters (defaults "
        f"degree {fixed['degree']}, shift {fixed['shift']}, C {fixed['C']:g})",
    )
    model.add_argument(
        "--kernel",
        choices=("auto", *family_names()),
        default="auto",
        help="the model family. wd: positional weighted-degree kernel (WD/WDS; "
        "equal lengths or --crop); gkm: position-free gapped k-mers (GkmSVC, as "
        "LS-GKM) on records of any lengths, motifs anywhere; auto (default): gkm "
        "for records of different lengths (with a notice), else the inner "
        "cross-validation chooses between wd and gkm (wd on a tie; wd with "
        "--no-grid, --solver linear or a wd-only option), and with torch "
        "installed the CNN beside it (--cnn-min-records); cnn: a dilated "
        "residual CNN (needs torch: pip install torch, the torch extra) on records of "
        "any lengths, both strands, early-stopped on held-out chromosomes",
    )
    _add_family_options(model)
    return model


def _add_cnn_options(model: argparse._ArgumentGroup) -> None:
    """--cnn-filters, --cnn-layers, --cnn-epochs, --cnn-max-time, when auto tries it."""
    from ..run.options import CNN_DEFAULTS, CNN_MIN_RECORDS

    for name, text in (
        ("filters", "cnn: channels of every convolution"),
        ("layers", "cnn: dilated residual layers (receptive field 21 + 2^(n+2) - 4)"),
        ("epochs", "cnn: most passes over the training records"),
    ):
        model.add_argument(
            f"--cnn-{name}", type=int, default=CNN_DEFAULTS[name], help=text
        )
    model.add_argument(
        "--cnn-max-time",
        type=float,
        metavar="SECONDS",
        help="cnn: stop a training after the epoch that passes this many seconds "
        "(each fold's and the final model's)",
    )
    model.add_argument(
        "--cnn-min-records",
        type=int,
        metavar="N",
        default=CNN_MIN_RECORDS,
        help="--kernel auto: also cross-validate the CNN in the same folds on at "
        "least N records (torch installed), and keep it if its CV AUC is better "
        "by more than one standard error (default %(default)s)",
    )
    model.add_argument(
        "--no-cnn",
        dest="cnn_min_records",
        action="store_const",
        const=None,
        help="--kernel auto: never train the CNN",
    )


def _add_family_options(model: argparse._ArgumentGroup) -> None:
    """--mismatches, --reverse-complement, --gkm-l/-k and --solver of the group."""
    from ..run.options import GKM_DEFAULTS

    model.add_argument(
        "--mismatches",
        type=int,
        metavar="M",
        help="wd, kernel solver: count k-mer pairs up to M letters apart (default 0)",
    )
    model.add_argument(
        "--reverse-complement",
        action=argparse.BooleanOptionalAction,
        help="score both strands alike (wd: kernel solver only); default: on for "
        "windows of unstranded peaks (--bed without strands), else off for wd and "
        "chosen by the inner CV for gkm",
    )
    for name, text in (
        ("l", "gkm: length of the compared words"),
        ("k", "gkm: informative positions per word"),
    ):
        model.add_argument(
            f"--gkm-{name}",
            type=int,
            default=GKM_DEFAULTS[name],
            metavar=name.upper(),
            help=text,
        )
    _add_cnn_options(model)
    model.add_argument(
        "--solver",
        choices=("auto", "kernel", "linear"),
        default="auto",
        help="kernel: SVM on the kernel matrix (up to 20,000 sequences); linear: "
        "the WD feature map trained in feature space (WDLinearSVC; millions of "
        "sequences); auto (default): kernel unless the sequences are too many "
        "for it (then linear, with a notice). The linear model indexes the k-mers "
        "present in the data exactly (exact POIMs) while that table fits 25%% of "
        "the RAM: in 'run' its degree is the default (20) when it fits, else the "
        "largest that fits (with a notice; on 24 GB of RAM degree 20 fits about "
        "200,000 sequences of length 141, degree 8 millions); 'train --solver "
        "linear' hashes the long k-mers that do not fit instead (with a warning). "
        "With --kernel gkm: kernel (the n x n matrix) or linear (L-BFGS through "
        "the l-mer table, time linear in the records: 10^4-10^5 peaks); auto "
        "picks linear above 1,000 records",
    )


def add_linear_options(parser: argparse.ArgumentParser) -> None:
    """Add the linear solver's group: --loss, --chunk-size, --dask.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    linear = parser.add_argument_group("linear solver (--solver linear)")
    linear.add_argument(
        "--loss",
        choices=("squared_hinge", "logistic", "hinge"),
        help="loss of the linear solver (default squared_hinge)",
    )
    linear.add_argument(
        "--chunk-size",
        type=int,
        metavar="N",
        help="sequences per chunk of the linear solver (default 65536)",
    )
    linear.add_argument(
        "--dask",
        metavar="ADDRESS|local",
        help="run the linear solver's passes on a Dask cluster: a scheduler "
        "address, or 'local' for a 2-worker LocalCluster",
    )


def add_poim_options(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, **background: object
) -> None:
    """Add --max-order, --markov-order, --memory-limit, and --background as given.

    Parameters
    ----------
    parser : argparse.ArgumentParser or group
        Where to add them.
    **background
        ``add_argument``'s keywords of --background.
    """
    parser.add_argument("--max-order", type=int, default=7, help="longest k-mer K")
    parser.add_argument("--background", default="uniform", **background)
    parser.add_argument(
        "--markov-order", type=int, default=0, help="order D of a fitted chain (0-3)"
    )
    memory = "POIM memory cap: refuse to start above this estimated peak memory"
    parser.add_argument(
        "--memory-limit", type=float, default=4.0, metavar="GB", help=memory
    )


def add_motif_options(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
) -> None:
    """Add --max-motifs and --compare, alike in motifs and run.

    Parameters
    ----------
    parser : argparse.ArgumentParser or group
        Where to add them.
    """
    parser.add_argument(
        "--max-motifs",
        type=int,
        default=3,
        help="most motifs to report of each class: the positives' and the "
        "negatives' motifs (for targets, those that raise it and those that "
        "lower it) each up to N (run: 0 skips the motifs)",
    )
    parser.add_argument(
        "--compare",
        metavar="SOURCE",
        help="rank known motifs by similarity to each found one (Tomtom "
        "p-values): a MEME/JASPAR/TRANSFAC file, or "
        "jaspar[:GROUP[:RELEASE[:COLLECTION]]] (offline JASPAR, default CORE "
        "vertebrates; needs pip install pyjaspar, the jaspar extra)",
    )


def add_cv_split(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add --cv-by and --cv-sample: how the folds split and sample the records.

    Parameters
    ----------
    parser : argparse.ArgumentParser or group
        Where to add them.
    """
    from ..run.options import CV_SAMPLE

    parser.add_argument(
        "--cv-by",
        choices=("chrom", "random"),
        default=None,
        help="chrom: outer and inner folds hold out whole chromosomes (record "
        "ids chrom:start-end; blocks of 10 Mb with too few chromosomes); "
        "random: random stratified folds. Default: chrom for --bed, random "
        "otherwise",
    )
    parser.add_argument(
        "--cv-sample",
        type=int,
        metavar="N",
        default=CV_SAMPLE,
        help="classification on more than N records: cross-validate, choose the "
        "model and find and test the motifs on a stratified random sample of N "
        "(no CNN beside the SVM then); the final model trains on every record. "
        "0: every record (default %(default)s)",
    )


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Add ``run``'s model, CV, POIM and motif options and --seed.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``run`` parser.
    """
    model = add_model_options(parser)
    model.add_argument(
        "--cv", type=int, default=5, help="cross-validation folds (0: skip)"
    )
    add_cv_split(model)
    explain = parser.add_argument_group("POIMs and motifs")
    add_poim_options(
        explain,
        choices=("uniform", "fit"),
        help="uniform letters or a Markov chain fitted to the input",
    )
    add_motif_options(explain)
    explain.add_argument(
        "--known",
        metavar="SOURCE",
        help="test every known motif for sites in more positives than negatives "
        "(Fisher's exact test, BH q-values; known_motifs.tsv and the report): "
        "jaspar[:GROUP[:RELEASE[:COLLECTION]]] (offline JASPAR, default CORE "
        "vertebrates) or a MEME/JASPAR/TRANSFAC file; found motifs are also "
        "compared with them unless --compare names others",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of CV and motif fit")
