"""The ``poimkit`` command's argument parser: one ``add_<command>`` per subcommand.

`build_parser` adds them in the order ``--help`` lists them; the option
groups they share are in `poimkit.cli.options`.
"""

from __future__ import annotations

import argparse

from .._version import __version__
from .options import (
    MODEL_HELP,
    add_cleaning_options,
    add_common_options,
    add_cv_split,
    add_input_options,
    add_linear_options,
    add_model_options,
    add_motif_options,
    add_peak_options,
    add_poim_options,
    add_run_options,
    add_torch_options,
    command,
)


def build_parser() -> argparse.ArgumentParser:
    """The ``poimkit`` command line's parser, every subcommand and option.

    Returns
    -------
    argparse.ArgumentParser
    """
    parser = argparse.ArgumentParser(
        prog="poimkit",
        description="Explainable DNA sequence classifiers: positional WD/WDS and "
        "gapped k-mer (gkm) SVMs trained on FASTA files or on peaks in a genome, "
        "explained by exact POIMs and motifs, and scoring sequences and variant "
        "effects.",
    )
    parser.add_argument("--version", action="version", version=f"poimkit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (
        add_train,
        add_score,
        add_poim,
        add_motifs,
        add_run,
        add_batch,
        add_variants,
        add_scan,
        add_explain,
        add_interactions,
        add_demo,
    ):
        add(sub)
    return parser


def add_train(sub: argparse._SubParsersAction) -> None:
    """Add the ``train`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    train = command(
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
    add_input_options(train, targets=True)
    add_peak_options(train)
    add_model_options(train)
    add_linear_options(train)
    train.add_argument("--cv", type=int, default=5, help="CV folds for AUC (0: skip)")
    add_cv_split(train)
    train.add_argument("--seed", type=int, default=0, help="seed of the CV split")
    train.add_argument(
        "-o", "--output", required=True, metavar="MODEL.npz", help="model file to write"
    )
    add_common_options(train)


def add_score(sub: argparse._SubParsersAction) -> None:
    """Add the ``score`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    score = command(
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
    add_cleaning_options(score)
    add_common_options(score)


def add_poim(sub: argparse._SubParsersAction) -> None:
    """Add the ``poim`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    poim = command(
        sub,
        "poim",
        "compute exact POIMs of a trained model",
        "poimkit poim model.npz --max-order 7 -o poim.npz --top 20",
        "poimkit poim model.npz --background fit:train.fa --markov-order 2 -o poim.npz",
    )
    poim.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    add_poim_options(
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
        "(LS-GKM -t 3/4/5, CNNs); with --estimator observed, draws in all",
    )
    poim.add_argument(
        "--estimator",
        choices=("inserted", "observed"),
        default="inserted",
        help="sampled POIMs: every k-mer inserted into each draw (default), or "
        "draws scored once and each k-mer's mean read off them (MFI's "
        "estimator: --samples model calls whatever the k-mer length; try "
        "--samples 10000 for a costly network)",
    )
    poim.add_argument(
        "--seed", type=int, default=0, help="seed of the sampled POIMs (--samples)"
    )
    poim.add_argument(
        "--windows",
        choices=("all", "centre", "pooled"),
        help="sampled POIMs: every window, or one estimate standing for every "
        "position for models that score a k-mer alike anywhere: the central "
        "window (inserted) or all starts pooled (observed); default centre or "
        "pooled for position-free models (a CNN), else all",
    )
    add_torch_options(poim)
    add_cleaning_options(poim)
    add_common_options(poim)


def add_motifs(sub: argparse._SubParsersAction) -> None:
    """Add the ``motifs`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    motifs = command(
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
    add_input_options(motifs)
    motifs.add_argument(
        "--sites",
        metavar="TSV",
        help="write every site (sequence, label, motif, start, strand, score); "
        "needs the labeled sequences",
    )
    add_motif_options(motifs)
    restarts = "optimiser starts of the POIM-only fit (without sequences)"
    motifs.add_argument("--restarts", type=int, default=3, help=restarts)
    motifs.add_argument("--logos", metavar="DIR", help="write a PNG logo per motif")
    motifs.add_argument(
        "--min-enrichment",
        type=float,
        default=None,
        metavar="X",
        help="sites must be X times as common in the motif's class as in the "
        "other, held-out records (default 2); lower it for motifs that act "
        "only beside a partner, e.g. 1.25 with explain's attribution_poim.npz",
    )
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
    add_common_options(motifs)


def add_run(sub: argparse._SubParsersAction) -> None:
    """Add the ``run`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    run = command(
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
    add_input_options(run, targets=True)
    add_peak_options(run)
    add_run_options(run)
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
    add_common_options(run)


def add_batch(sub: argparse._SubParsersAction) -> None:
    """Add the ``batch`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    batch = command(
        sub,
        "batch",
        "many experiments at once (a sheet, one row each) on Dask: a run "
        "folder each and an atlas that compares them",
        "poimkit batch sheet.tsv --genome hg38.fa -o atlas/  (columns name, bed; "
        "atlas/runs/NAME/ as poimkit run writes it, atlas/atlas.html)",
        "poimkit batch sheet.tsv --options '--kernel gkm --cv 3' --workers 2 -o "
        "atlas/  (flags for every row; a row's options column adds its own)",
        "poimkit batch sheet.tsv --scheduler tcp://head:8786 -o atlas/  (a "
        "running Dask cluster)",
    )
    batch.add_argument(
        "sheet",
        metavar="SHEET",
        help="TSV with a header: name, then bed (and genome), pos and neg, or "
        "fasta and targets; options: that row's run flags",
    )
    batch.add_argument(
        "-o", "--output", required=True, metavar="ATLAS", help="the batch folder"
    )
    batch.add_argument(
        "--genome", metavar="FASTA", help="the genome of bed rows without their own"
    )
    batch.add_argument(
        "--options",
        default="",
        metavar="FLAGS",
        help="poimkit run flags for every row (quoted), before each row's own",
    )
    engine = batch.add_mutually_exclusive_group()
    engine.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="workers of the local Dask cluster (default: from the cores and "
        "memory); each runs its experiments on cores / N threads",
    )
    engine.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on this Dask scheduler instead of a local cluster",
    )
    batch.add_argument("--quiet", action="store_true", help="print only results")
    batch.set_defaults(threads=None)  # each experiment's threads: cores / workers


def add_variants(sub: argparse._SubParsersAction) -> None:
    """Add the ``variants`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    variants = command(
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
        "poimkit variants OUT/model.npz --all-snvs --bed peaks.narrowPeak --genome "
        "hg38.fa -o snvs.tsv.gz  (every SNV of every peak, tabix-indexed)",
    )
    _add_variant_files(variants)
    _add_null_options(variants)
    variants.add_argument("--seed", type=int, default=0, help="seed of the null")
    _add_variant_outputs(variants)
    variants.add_argument(
        "--skip-mismatched-ref",
        action="store_true",
        help="skip (and count) variants whose REF differs from the genome "
        "instead of stopping",
    )
    add_torch_options(variants)
    add_common_options(variants)


def _add_variant_files(variants: argparse.ArgumentParser) -> None:
    """The model, the variants (--vcf and --genome, or --pairs) and the output."""
    variants.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    source = variants.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--vcf",
        metavar="VCF",
        help="variants (plain or .gz; CHROM POS ID REF ALT; multi-allelic lines "
        "are split, symbolic, '*' and '.' ALTs skipped and counted); needs --genome",
    )
    source.add_argument(
        "--pairs",
        metavar="TSV",
        help="id, ref and alt sequences, tab-separated (the model's length for "
        "wd models, any length for gkm); pairs with N are skipped and counted",
    )
    source.add_argument(
        "--all-snvs",
        action="store_true",
        help="every possible SNV (the 3 other letters at every position) of the "
        "--bed peaks' windows of the model's length around each summit, in "
        "--genome, placed as a VCF's variant in a peak; written to -o X.tsv.gz, "
        "bgzipped and tabix-indexed, one line per SNV (chrom pos ref alt effect z "
        "p_value q_value; q-values over every SNV of the file)",
    )
    variants.add_argument(
        "--genome",
        metavar="FASTA",
        help="the reference of the VCF (plain or bgzip). Each variant is scored "
        "on a window of the model's training length L: gkm models with POS at "
        "L//2 (0-based); positional (WD) models in the training window of the "
        "--bed peak holding it, else at the placement of largest absolute effect among "
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
        "POIM_TOP (needs pysam: pip install pysam, the vcf extra)",
    )


def _add_variant_outputs(variants: argparse.ArgumentParser) -> None:
    """--force, --top and the plots of ``variants``."""
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
        "the largest absolute effect",
    )
    variants.add_argument(
        "--plots-dir",
        metavar="DIR",
        help="folder of the --plots figures (default: EFFECTS_plots next to -o)",
    )


def _add_null_options(variants: argparse.ArgumentParser) -> None:
    """--null, --null-windows and --calls of ``variants``."""
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
        "p-values are two-sided and empirical, (1 + #{abs(null) >= abs(effect)}) / "
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


def add_scan(sub: argparse._SubParsersAction) -> None:
    """Add the ``scan`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    from ..motifs.hits import HIT_P

    scan = command(
        sub,
        "scan",
        "motif hits in a genome or its regions, with p-values (as FIMO), as BED",
        "poimkit scan OUT/motifs.meme --genome hg38.fa --bed peaks.bed -o hits.bed",
        "poimkit scan jaspar:vertebrates --genome hg38.fa --bed peaks.bed -o hits.bed",
    )
    scan.add_argument(
        "motifs",
        metavar="MOTIFS",
        help="a motif file (MEME/JASPAR/TRANSFAC, e.g. a run's motifs.meme), "
        "jaspar[:GROUP[:RELEASE[:COLLECTION]]], or a run's motif_model.npz",
    )
    scan.add_argument("--genome", required=True, metavar="GENOME.fa", help="genome")
    scan.add_argument(
        "--bed", metavar="REGIONS", help="scan only these regions (default: all)"
    )
    scan.add_argument(
        "-p", "--p-value", type=float, default=HIT_P, help="largest p-value of a hit"
    )
    scan.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="hits.bed",
        help="BED6+2: chrom, start, end, motif, score (min(1000, -100 log10 p)), "
        "strand, p-value, log-odds bits",
    )
    scan.add_argument(
        "--force", action="store_true", help="replace hits.bed that poimkit wrote"
    )
    add_common_options(scan)


def add_explain(sub: argparse._SubParsersAction) -> None:
    """Add the ``explain`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    from ..explain.job import TOP_LOGOS

    explain = command(
        sub,
        "explain",
        "per-letter attributions of records or peaks (modisco-lite inputs, bigWig)",
        "poimkit explain OUT/model.npz --bed peaks.narrowPeak --genome hg38.fa "
        "-o explained/  (then: modisco motifs -s explained/ohe.npz -a "
        "explained/attr.npz)",
        "poimkit explain model.npz --fasta seqs.fa -o explained/",
    )
    explain.add_argument(
        "model",
        metavar="MODEL",
        help="a k-mer model (poimkit, LS-GKM): exact attributions; any other "
        "model (a CNN, a torch file, see poimkit poim): in-silico mutagenesis",
    )
    explain.add_argument("--fasta", metavar="FASTA", help="the records to explain")
    explain.add_argument("--bed", metavar="PEAKS", help="peaks (with --genome)")
    explain.add_argument("--genome", metavar="GENOME.fa", help="the genome of --bed")
    explain.add_argument(
        "--width",
        type=int,
        default=None,
        help="with --bed: window width around each summit (default: the model's "
        "length for a positional model, else 200)",
    )
    explain.add_argument(
        "--top", type=int, default=TOP_LOGOS, help="logos of the top-scoring records"
    )
    explain.add_argument(
        "--max-order",
        type=int,
        default=6,
        help="longest k-mers of attribution_poim.npz (each k-mer's attributions "
        "averaged over its occurrences; motifs that act only together show "
        "there: poimkit motifs attribution_poim.npz --pos P.fa --neg N.fa)",
    )
    explain.add_argument(
        "-o", "--output", required=True, metavar="DIR", help="the output folder"
    )
    explain.add_argument(
        "--force", action="store_true", help="replace DIR if poimkit made it"
    )
    add_common_options(explain)
    add_torch_options(explain)


def add_interactions(sub: argparse._SubParsersAction) -> None:
    """Add the ``interactions`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    found = command(
        sub,
        "interactions",
        "how two motifs act together in a model: a spacing and orientation map",
        "poimkit interactions model.npz GATAA CACGTG --length 200 -o gata_ebox/",
        "poimkit interactions model.pt --input-length 1000 --head 1 --motifs "
        "OUT/motifs.meme motif_1 motif_2 -o pair/",
    )
    found.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    found.add_argument("motif_a", metavar="A", help="a DNA motif, or a --motifs name")
    found.add_argument(
        "motif_b", metavar="B", help="the other, placed after A (right of it)"
    )
    found.add_argument(
        "--motifs",
        metavar="FILE",
        help="a motif file (MEME, JASPAR, TRANSFAC) or jaspar collection whose "
        "motifs A and B name (their consensus is inserted)",
    )
    found.add_argument(
        "--length",
        type=int,
        help="length of the background sequences (default: the model's)",
    )
    found.add_argument(
        "--max-distance",
        type=int,
        default=20,
        help="letters between A and B, from 0 to this",
    )
    found.add_argument(
        "--orientations",
        default="++,+-,-+,--",
        help="A's and B's strands, comma-separated (+: as given, -: reverse "
        "complement)",
    )
    found.add_argument(
        "--samples", type=int, default=256, help="background sequences drawn"
    )
    found.add_argument("--seed", type=int, default=0, help="seed of the draws")
    found.add_argument(
        "-o", "--output", required=True, metavar="DIR", help="the output folder"
    )
    found.add_argument(
        "--force", action="store_true", help="replace DIR if poimkit made it"
    )
    add_common_options(found)
    add_torch_options(found)


def add_demo(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subcommands.
    """
    demo = command(
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
    add_common_options(demo)
