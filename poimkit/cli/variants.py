"""``poimkit variants``: exact effects of variants, tested against a null, written.

Every check that needs no reading comes first; the work is
`poimkit.variants.scoring.score_variants`, the table (and figures)
`write_effects`.
"""

from __future__ import annotations

import argparse

from ..errors import InputError
from .arguments import fields, load_model_args
from .console import bars, say


def _check_arguments(args: argparse.Namespace) -> None:
    """Every check that needs no reading, before any work."""
    from ..io.files import check_replace, same_file
    from ..variants.effects import check_top
    from ..variants.scoring import is_effects_file

    check_top(args.top)
    if args.plots is not None and args.plots < 0:
        raise InputError(f"--plots must be 0 or more, got {args.plots}")
    if args.vcf and not args.genome:
        raise InputError("--vcf needs --genome (the reference the VCF refers to)")
    if args.all_snvs and not (args.genome and args.bed):
        raise InputError("--all-snvs needs --bed (the peaks) and --genome")
    if args.genome and not (args.vcf or args.all_snvs):
        raise InputError("--genome goes with --vcf (--pairs needs no genome)")
    if args.null < 0:
        raise InputError(f"--null must be 0 or more, got {args.null}")
    if args.calls is not None and not 0 < args.calls <= 1:
        raise InputError(f"--calls must be a q-value in (0, 1], got {args.calls}")
    if args.calls is not None and not args.null:
        raise InputError("--calls needs the null (--null above 0)")
    for flag, value in (("--bed", args.bed), ("--null-windows", args.null_windows)):
        if value is not None and not (args.vcf or args.all_snvs):
            raise InputError(f"{flag} goes with --vcf (genome positions)")
    if args.vcf and same_file(args.vcf, args.output):
        raise InputError(
            "-o names the input VCF: give the effects another name (-o "
            "effects.vcf.gz, or a .tsv table); the input is never overwritten",
            path=args.vcf,
        )
    check_replace(args.output, args.force, is_effects_file, "poimkit variants")


def _check_all_snvs(args: argparse.Namespace) -> None:
    """The output of ``--all-snvs`` (a bgzipped, indexed table; no plots)."""
    from ..io.outdir import check_writable
    from ..variants.all_snvs import check_all_snvs_output

    if args.plots:
        raise InputError("--plots goes with --vcf or --pairs, not --all-snvs")
    check_all_snvs_output(args.output)
    check_writable(args.output, None)


def _check_output(args: argparse.Namespace) -> str | None:
    """Check the output file (and VCF output); the plots' folder, if any."""
    from ..io.outdir import check_writable
    from ..variants.scoring import plots_folder
    from ..variants.vcf_out import check_vcf_output, is_vcf_output

    if is_vcf_output(args.output):
        if not args.vcf:
            raise InputError("a VCF output (-o X.vcf.gz) needs --vcf input")
        check_vcf_output(args.output)
    elif args.output.endswith((".vcf", ".bcf")):
        raise InputError(
            f"-o {args.output}: effects are written as a table (.tsv) or as a "
            "bgzipped, indexed VCF (-o X.vcf.gz); a plain .vcf is not written"
        )
    folder = plots_folder(args.output, args.plots_dir) if args.plots else None
    check_writable(args.output, folder)
    return folder


def run_variants(args: argparse.Namespace) -> int:
    """``poimkit variants``; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from ..variants.null import beside_model
    from ..variants.scoring import score_variants, write_effects

    _check_arguments(args)
    if args.all_snvs:
        _check_all_snvs(args)
    folder = None if args.all_snvs else _check_output(args)
    model = load_model_args(args)
    if args.threads is not None:
        model.n_threads = args.threads
    null_windows = args.null_windows
    if (args.vcf or args.all_snvs) and args.null and not null_windows:
        null_windows = beside_model(args.model)
    if args.all_snvs:
        return _all_snvs(args, model, null_windows)
    given = ("vcf", "pairs", "genome", "bed", "top", "null", "seed")
    found = score_variants(
        model,
        null_windows=null_windows,
        plots=args.plots or 0,
        skip_mismatched_ref=args.skip_mismatched_ref,
        progress=bars(args),
        **fields(args, given),
    )
    write_effects(args.output, found, folder)
    say(args, "poimkit: " + found.summary_text(args.output))
    if args.calls is not None and found.nulls:
        print(found.calls_text(args.calls))
    return 0


def _all_snvs(args: argparse.Namespace, model, null_windows: str | None) -> int:
    """``--all-snvs``: every SNV of the peaks, scored, tested and written."""
    from ..variants.all_snvs import score_all_snvs, write_all_snvs

    found = score_all_snvs(
        model,
        args.genome,
        args.bed,
        null=args.null,
        null_windows=null_windows,
        seed=args.seed,
        progress=bars(args),
    )
    write_all_snvs(args.output, found, progress=bars(args))
    say(args, "poimkit: " + found.summary_text(args.output))
    if args.calls is not None and found.null is not None:
        print(found.calls_text(args.calls))
    return 0
