"""The ``poimkit`` command's argument parser: subcommands, options and help."""

from __future__ import annotations

import argparse

from ._version import __version__

#: the model argument of score, poim and variants
MODEL_HELP = (
    "a model file: the .npz of poimkit train or run (model.npz; run's "
    "motif_model.npz or stack.npz too), or an LS-GKM model file of gkmtrain "
    "-t 0, 1 or 2 (or gkmsvm-lite's save_lsgkm)"
)


def _add_input_options(parser: argparse.ArgumentParser, targets: bool = False) -> None:
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
        _add_targets_option(group)
    group.add_argument(
        "--positive-label",
        metavar="LABEL",
        help="with --labels: the label of the positive class (any other words)",
    )
    _add_cleaning_options(parser)


def _add_targets_option(group) -> None:
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


def _add_peak_options(parser: argparse.ArgumentParser) -> None:
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


def _add_cleaning_options(parser: argparse.ArgumentParser) -> None:
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


def _add_common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, metavar="N", help="threads for numba")
    parser.add_argument("--quiet", action="store_true", help="print only results")


def build_parser() -> argparse.ArgumentParser:
    """The ``poimkit`` command line's parser, every subcommand and option."""
    parser = argparse.ArgumentParser(
        prog="poimkit",
        description="Explainable DNA sequence classifiers: positional WD/WDS and "
        "gapped k-mer (gkm) SVMs trained on FASTA files or on peaks in a genome, "
        "explained by exact POIMs and motifs, and scoring sequences and variant "
        "effects.",
    )
    parser.add_argument("--version", action="version", version=f"poimkit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    train = _command(
        sub,
        "train",
        "train a WD/WDS or gapped k-mer SVM (FASTA or peaks in a genome) and "
        "report cross-validated AUC",
        "poimkit train --pos data/gattaca/positives.fa "
        "--neg data/gattaca/negatives.fa --cv 5 -o model.npz",
        "many sequences: poimkit train --pos big_pos.fa.gz --neg big_neg.fa.gz "
        "--solver linear --cv 0 -o model.npz (streams the files; --dask ADDRESS "
        "runs on a cluster)",
    )
    _add_input_options(train, targets=True)
    _add_peak_options(train)
    _add_model_options(train)
    _add_linear_options(train)
    train.add_argument("--cv", type=int, default=5, help="CV folds for AUC (0: skip)")
    _add_cv_by(train)
    train.add_argument("--seed", type=int, default=0, help="seed of the CV split")
    train.add_argument(
        "-o", "--output", required=True, metavar="MODEL.npz", help="model file to write"
    )
    _add_common_options(train)

    score = _command(
        sub,
        "score",
        "score sequences with a trained model (or every window along them)",
        "poimkit score model.npz seqs.fa -o scores.tsv",
        "long records: poimkit score model.npz chr1.fa --windows 10 -o windows.tsv",
    )
    score.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    score.add_argument(
        "fasta", metavar="FASTA", help="sequences to score (plain or .gz)"
    )
    score.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="SCORES.tsv",
        help="table to write: id, score, predicted label (longer records are "
        "scored on their central window of the model's length, with a notice)",
    )
    score.add_argument(
        "--windows",
        type=int,
        metavar="STEP",
        help="score every window of the model's length (its training length) "
        "at starts 0, STEP, 2 STEP, ... instead: a BED-like table #id start "
        "end score (0-based starts); records shorter than a window, and windows "
        "holding N, are skipped and counted",
    )
    _add_cleaning_options(score)
    _add_common_options(score)

    poim = _command(
        sub,
        "poim",
        "compute exact POIMs of a trained model",
        "poimkit poim model.npz --max-order 7 -o poim.npz --top 20",
        "poimkit poim model.npz --background fit:train.fa --markov-order 2 -o poim.npz",
    )
    poim.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    _add_poim_options(
        poim,
        metavar="uniform|fit:FASTA",
        help="uniform letters, or a Markov chain fitted to a FASTA file",
    )
    poim.add_argument(
        "--positional", action="store_true", help="position-specific fitted chain"
    )
    poim.add_argument(
        "--pseudocount", type=float, default=1.0, help="pseudocount of a fitted chain"
    )
    poim.add_argument(
        "-o", "--output", required=True, metavar="POIM.npz", help="POIM file to write"
    )
    poim.add_argument(
        "--top", type=int, default=20, help="print the N strongest entries"
    )
    poim.add_argument("--top-tsv", metavar="TSV", help="also write the top N as TSV")
    poim.add_argument(
        "--samples",
        type=int,
        default=1000,
        help="Monte Carlo samples per window, for models without exact POIMs "
        "(LS-GKM -t 3/4/5)",
    )
    poim.add_argument(
        "--seed", type=int, default=0, help="seed of the sampled POIMs (--samples)"
    )
    _add_cleaning_options(poim)
    _add_common_options(poim)

    motifs = _command(
        sub,
        "motifs",
        "motifs (PWM, position, spread, evidence) behind POIMs",
        "poimkit motifs poim.npz --pos P.fa --neg N.fa "
        "-o motifs.meme --sites sites.tsv",
        "poimkit motifs OUT/motifs.meme --compare jaspar:vertebrates  "
        "(compares motifs found before, no extraction)",
    )
    motifs.add_argument(
        "input",
        metavar="POIM.npz|MOTIFS",
        help="POIMs to extract motifs from, or a motif file (.meme, .jaspar, "
        ".transfac) of motifs found before, to compare, convert or draw",
    )
    motifs.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="motif file; format from the suffix: .meme, .jaspar or .transfac "
        "(required with POIM.npz)",
    )
    _add_input_options(motifs)
    motifs.add_argument(
        "--sites",
        metavar="TSV",
        help="write every site (sequence, label, motif, start, strand, score); "
        "needs the labeled sequences",
    )
    _add_motif_options(motifs)
    restarts = "optimiser starts of the POIM-only fit (without sequences)"
    motifs.add_argument("--restarts", type=int, default=3, help=restarts)
    motifs.add_argument("--logos", metavar="DIR", help="write a PNG logo per motif")
    motifs.add_argument(
        "--seed", type=int, default=0, help="seed of the discovery split / restarts"
    )
    motifs.add_argument(
        "--matches",
        metavar="TSV",
        help="write the matches of --compare to this TSV instead of printing them",
    )
    motifs.add_argument(
        "--compare-top", type=int, default=3, help="matches listed per motif"
    )
    _add_common_options(motifs)

    run = _command(
        sub,
        "run",
        "FASTA in: CV AUC, model, POIMs, motifs, figures and a report out",
        "poimkit run --pos data/splice/EI.fa --neg data/splice/N.fa "
        "--drop-invalid -o splice_ei/",
        "poimkit run --fasta seqs.fa --labels labels.tsv --shift 4 "
        "--background fit --markov-order 2 -o out/",
        "poimkit run --bed peaks.narrowPeak --genome hg38.fa -o out/  (windows "
        "of 200 letters around the summits; GC- and repeat-matched genomic "
        "negatives in out/negatives.bed)",
        "poimkit run --bed peaks.narrowPeak --genome hg38.fa --known jaspar -o out/  "
        "(and which known factors: out/known_motifs.tsv)",
        "poimkit run --bed peaks.narrowPeak --genome hg38.fa --targets signal "
        "--log1p -o strength/  (peak strength from sequence)",
    )
    _add_input_options(run, targets=True)
    _add_peak_options(run)
    _add_run_options(run)
    run.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output folder (written whole at the end, or not at all)",
    )
    run.add_argument(
        "--force",
        action="store_true",
        help="replace an existing OUT that poimkit made (never other files)",
    )
    _add_common_options(run)

    _add_variants(sub)
    from .explain.command import add_explain
    from .genome.scan_command import add_scan

    add_scan(sub, _command)
    add_explain(sub, _command)

    demo = _command(
        sub,
        "demo",
        "run the whole pipeline on the bundled GATTACA example",
        "poimkit demo -o gattaca_demo/  (then open gattaca_demo/report.html)",
    )
    demo.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output folder (written whole at the end, or not at all)",
    )
    demo.add_argument(
        "--force",
        action="store_true",
        help="replace an existing OUT that poimkit made (never other files)",
    )
    demo.add_argument("--seed", type=int, default=0, help="seed of CV and motif fit")
    _add_common_options(demo)
    return parser


def _add_variants(sub) -> None:
    variants = _command(
        sub,
        "variants",
        "exact score changes of variants (VCF + genome, or sequence pairs)",
        "poimkit variants model.npz --vcf calls.vcf.gz --genome hg38.fa "
        "-o effects.tsv --plots 10",
        "poimkit variants OUT/model.npz --vcf dbsnp.vcf.gz --genome hg38.fa --bed "
        "peaks.narrowPeak --calls 0.05 -o calls.vcf.gz  (tested against the run's "
        "negatives; an indexed VCF)",
        "poimkit variants model.npz --pairs pairs.tsv -o effects.tsv  (id, ref, "
        "alt sequences; no genome)",
    )
    variants.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    source = variants.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--vcf",
        metavar="VCF",
        help="variants (plain or .gz; CHROM POS ID REF ALT; multi-allelic lines "
        "are split, symbolic/*/. ALTs skipped and counted); needs --genome",
    )
    source.add_argument(
        "--pairs",
        metavar="TSV",
        help="id, ref and alt sequences, tab-separated (the model's length for "
        "wd models, any length for gkm); pairs with N are skipped and counted",
    )
    variants.add_argument(
        "--genome",
        metavar="FASTA",
        help="the reference of the VCF (plain or bgzip). Each variant is scored "
        "on a window of the model's training length L: gkm models with POS at "
        "L//2 (0-based); positional (WD) models in the training window of the "
        "--bed peak holding it, else at the placement of largest |effect| among "
        "all that cover it. An indel's alt window keeps the ref window's start "
        "and length: left flank, ALT, then the genome after REF, cut to L. "
        "Windows past a chromosome end or holding N are skipped and counted",
    )
    variants.add_argument(
        "--bed",
        metavar="PEAKS",
        help="the peaks the model was trained on (run/train --bed): a positional "
        "model scores a variant inside one in that peak's training window (L "
        "letters around the summit), as in training",
    )
    variants.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="EFFECTS.tsv",
        help="table to write (.gz: gzip), input order: chrom pos id ref alt effect "
        "z p_value q_value ref_score alt_score top_kmers (REF>ALT@START:CHANGE, "
        "START relative to POS). X.vcf.gz: the input VCF back, bgzipped and "
        "tabix-indexed, with INFO POIM_EFFECT, POIM_Z, POIM_P, POIM_Q and "
        "POIM_TOP (needs pysam: pip install 'poimkit[vcf]')",
    )
    variants.add_argument(
        "--null",
        type=int,
        default=100_000,
        metavar="N",
        help="random SNVs of the null, scored as the variants are: in the "
        "--null-windows, else the run's negatives beside MODEL "
        "(negatives.bed, MODEL.negatives.bed), else random genome windows "
        "free of N; with --pairs, in the ref sequences (a tenth as many for "
        "variants at their strongest placement: each costs L placements). "
        "p-values are two-sided and empirical, (1 + #{|null| >= |effect|}) / "
        "(1 + N); q-values Benjamini-Hochberg over the file (with --bed, "
        "within the variants in peaks and within the others). 0: no null",
    )
    variants.add_argument(
        "--null-windows",
        metavar="BED",
        help="background regions for the null (windows of L around each centre)",
    )
    variants.add_argument(
        "--calls",
        type=float,
        metavar="Q",
        help="say how many variants have q-value <= Q",
    )
    variants.add_argument("--seed", type=int, default=0, help="seed of the null")
    variants.add_argument(
        "--force",
        action="store_true",
        help="replace an existing output file",
    )
    variants.add_argument(
        "--top", type=int, default=3, help="k-mer changes listed per variant"
    )
    variants.add_argument(
        "--plots",
        type=int,
        metavar="N",
        help="write ref vs alt contribution logos (PNG) of the N variants with "
        "the largest |effect|",
    )
    variants.add_argument(
        "--plots-dir",
        metavar="DIR",
        help="folder of the --plots figures (default: EFFECTS_plots next to -o)",
    )
    variants.add_argument(
        "--skip-mismatched-ref",
        action="store_true",
        help="skip (and count) variants whose REF differs from the genome "
        "instead of stopping",
    )
    _add_common_options(variants)


def _command(sub, name: str, text: str, *examples: str) -> argparse.ArgumentParser:
    """A subcommand whose help ends with its examples, one per line."""
    label = "example" if len(examples) == 1 else "examples"
    return sub.add_parser(
        name,
        help=text,
        formatter_class=_HelpFormatter,
        epilog=f"{label}: " + "\n  ".join(examples),
    )


class _HelpFormatter(
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


def _listed(values) -> str:
    return "{" + ", ".join(f"{v:g}" for v in values) + "}"


def _add_model_options(parser: argparse.ArgumentParser):
    from .run.options import FIXED_DEFAULTS, GKM_DEFAULTS, KERNELS
    from .svm.selection import (
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
        f"{_listed(DEFAULT_DEGREES)}, {fixed['degree']} with --no-grid",
    )
    model.add_argument(
        "--shift",
        type=int,
        help="WDS maximal shift (0: WD); default: chosen from "
        f"{_listed(DEFAULT_SHIFTS)} up to half the sequence length, "
        f"{fixed['shift']} with --no-grid",
    )
    model.add_argument(
        "-C",
        type=float,
        help=f"SVM regularisation; default: chosen from {_listed(DEFAULT_C)}, "
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
        choices=KERNELS,
        default="auto",
        help="the model family. wd: positional weighted-degree kernel (WD/WDS; "
        "equal lengths or --crop); gkm: position-free gapped k-mers (GkmSVC, as "
        "LS-GKM) on records of any lengths, motifs anywhere; auto (default): gkm "
        "for records of different lengths (with a notice), else the inner "
        "cross-validation chooses between wd and gkm (wd on a tie; wd with "
        "--no-grid, --solver linear or a wd-only option)",
    )
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
    return model


def _add_linear_options(parser: argparse.ArgumentParser) -> None:
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


def _add_poim_options(parser, **background: object) -> None:
    """--max-order, --markov-order, --memory-limit, and --background as given."""
    parser.add_argument("--max-order", type=int, default=7, help="longest k-mer K")
    parser.add_argument("--background", default="uniform", **background)
    parser.add_argument(
        "--markov-order", type=int, default=0, help="order D of a fitted chain (0-3)"
    )
    memory = "POIM memory cap: refuse to start above this estimated peak memory"
    parser.add_argument(
        "--memory-limit", type=float, default=4.0, metavar="GB", help=memory
    )


def _add_motif_options(parser) -> None:
    """--max-motifs and --compare, alike in motifs and run."""
    parser.add_argument(
        "--max-motifs",
        type=int,
        default=3,
        help="most motifs to report (run: 0 skips the motifs)",
    )
    parser.add_argument(
        "--compare",
        metavar="SOURCE",
        help="rank known motifs by similarity to each found one (Tomtom "
        "p-values): a MEME/JASPAR/TRANSFAC file, or "
        "jaspar[:GROUP[:RELEASE[:COLLECTION]]] (offline JASPAR, default CORE "
        'vertebrates; needs pip install "poimkit[jaspar]")',
    )


def _add_cv_by(parser) -> None:
    parser.add_argument(
        "--cv-by",
        choices=("chrom", "random"),
        default=None,
        help="chrom: outer and inner folds hold out whole chromosomes (record "
        "ids chrom:start-end; blocks of 10 Mb with too few chromosomes); "
        "random: random stratified folds. Default: chrom for --bed, random "
        "otherwise",
    )


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    model = _add_model_options(parser)
    model.add_argument(
        "--cv", type=int, default=5, help="cross-validation folds (0: skip)"
    )
    _add_cv_by(model)
    explain = parser.add_argument_group("POIMs and motifs")
    _add_poim_options(
        explain,
        choices=("uniform", "fit"),
        help="uniform letters or a Markov chain fitted to the input",
    )
    _add_motif_options(explain)
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
