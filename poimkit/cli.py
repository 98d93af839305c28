"""Command-line interface: a thin layer over the library.

Exit codes: 0 success, 2 bad input (file, record and position named), 1 internal error.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path

from ._cli_parser import build_parser
from ._exit import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    Terminated,
    on_sigterm,
    stop_worker,
)
from ._messages import tell
from ._validation import check_int
from .errors import InputError
from .outdir import check_writable
from .run.command import (
    check_classification,
    peak_source,
    read_labeled_args,
    read_options,
    run_options,
    train_command,
)
from .run.console import bars, progress, say


def _run_score(args: argparse.Namespace) -> int:
    from .run.score import score_command

    check_writable(args.output)
    read = read_options(args)
    lines = score_command(
        args.model,
        args.fasta,
        args.output,
        args.windows,
        args.threads,
        progress=bars(args),
        **read,
    )
    for line in lines:
        say(args, line)
    return EXIT_OK


def _background_from_args(
    args: argparse.Namespace, length: int, position_free: bool = False
):
    from .background import MarkovBackground
    from .io import read_fasta

    if args.background == "uniform":
        if args.markov_order or args.positional:
            raise InputError(
                "--markov-order and --positional apply to --background fit:FASTA"
            )
        return MarkovBackground.uniform(length)
    if not args.background.startswith("fit:"):
        raise InputError(
            f"--background must be 'uniform' or 'fit:FASTA', got {args.background!r}"
        )
    path = args.background[len("fit:") :]
    _ids, X = read_fasta(path, any_length=position_free, **read_options(args))
    if position_free:
        if args.positional:
            raise InputError(
                "--positional does not apply to a position-free (gkm) model"
            )
        return MarkovBackground.fit_pooled(
            X, args.markov_order, length, pseudocount=args.pseudocount
        )
    if X.shape[1] != length:
        raise InputError(
            f"background sequences have length {X.shape[1]} but the model scores "
            f"length {length} (use --crop {length})",
            path=path,
        )
    return MarkovBackground.fit(
        X,
        order=args.markov_order,
        positional=args.positional,
        pseudocount=args.pseudocount,
    )


def _run_poim(args: argparse.Namespace) -> int:
    from .io import commit_together
    from .poim.compute import command_poim
    from .svm import load_model

    check_writable(args.output, args.top_tsv)
    check_int(args.top, "--top", 0)
    if not args.memory_limit > 0:
        raise InputError(f"--memory-limit must be positive, got {args.memory_limit}")
    model = load_model(args.model)
    background = _background_from_args(
        args, model.length_, getattr(model, "position_free", False)
    )
    say(args, f"computing POIMs up to order {args.max_order} under {background!r}")
    poim = command_poim(model, args, background, progress=bars(args))
    with commit_together():  # both files appear, or neither
        poim.save(args.output)
        if args.top_tsv:
            poim.write_top(args.top_tsv, n=args.top)
    if args.top:
        print("kmer\tposition\tvalue")
        for kmer, position, value in poim.top(args.top):
            print(f"{kmer}\t{'any' if position is None else position}\t{value:.6g}")
    say(args, f"POIMs written to {args.output}")
    return EXIT_OK


def _run_motifs(args: argparse.Namespace) -> int:
    from .io import commit_together
    from .motifs.compare import known_motifs
    from .motifs.formats import FORMATS

    if args.matches and not args.compare:
        raise InputError("--matches needs --compare SOURCE")
    check_int(args.max_motifs, "--max-motifs", 1)
    if args.compare_top < 1:
        raise InputError(f"--compare-top must be at least 1, got {args.compare_top}")
    labeled = any(v is not None for v in (args.pos, args.neg, args.fasta, args.labels))
    if args.sites and not labeled:
        raise InputError(
            "--sites needs the labeled sequences (--pos/--neg or --fasta/--labels)"
        )
    is_motif_file = Path(args.input).suffix.lower() in FORMATS.values()
    if is_motif_file and (labeled or args.sites):
        raise InputError(
            f"{args.input} holds motifs found before: sequences and --sites go with "
            "a POIM.npz input"
        )
    if not is_motif_file and not args.output:
        raise InputError("-o/--output FILE is required with a POIM.npz input")
    if args.output and Path(args.output).suffix.lower() not in FORMATS.values():
        raise InputError(
            f"cannot tell the motif format of {args.output}: use the suffix "
            f"{', '.join(sorted(set(FORMATS.values())))}"
        )
    check_writable(args.output, args.sites, args.matches)
    if args.logos:  # a folder: it, or the folder it goes into, must be writable
        logos = Path(args.logos)
        if not logos.is_dir():
            check_writable(logos)
        elif not os.access(logos, os.W_OK):
            raise InputError(f"cannot write logos into {logos}: it is not writable")
    if args.compare:
        say(args, f"reading the known motifs of {args.compare}")
    known = known_motifs(args.compare) if args.compare else None
    found, ids, y = _found_motifs(args) if not is_motif_file else _read_found(args)
    with commit_together():  # all output files appear, or none
        if args.output:
            _write_found(args, found, ids, y)
        if args.logos:
            _write_logos(args.logos, found)
        if known is not None and args.matches:
            _report_matches(args, found, known)
    print(
        "name\tconsensus\tiupac\tposition\tspread\timportance\tn_sites\t"
        "frac_positive\tfrac_negative\tq_value"
    )
    for m in found:
        where = (
            "any\tany"
            if m.position != m.position  # NaN: a position-free model's motif
            else f"{m.position:.2f}\t{m.spread:.2f}"
        )
        print(
            f"{m.name}\t{m.consensus}\t{m.iupac}\t{where}\t"
            f"{m.importance:.4g}\t{m.n_sites}\t"
            f"{m.frac_positive:.3f}\t{m.frac_negative:.3f}\t{m.q_value:.3g}"
        )
    if known is not None and not args.matches:
        _report_matches(args, found, known)
    return EXIT_OK


def _read_found(args: argparse.Namespace):
    from .motifs.formats import read_motifs

    found = read_motifs(args.input)
    say(args, f"{len(found)} motifs read from {args.input} (no extraction)")
    return found, None, None


def _found_motifs(args: argparse.Namespace):
    """(motifs, ids, labels): from sites in the sequences if given, else the fit."""
    from .motifs import extract_motifs
    from .poim import Poim

    poim = Poim.load(args.input)
    if all(v is None for v in (args.pos, args.neg, args.fasta, args.labels)):
        say(
            args,
            "no sequences given: PWMs fitted to the POIMs alone, without sites or "
            "evidence (give --pos/--neg or --fasta/--labels for both)",
        )
        found = extract_motifs(
            poim,
            max_motifs=args.max_motifs,
            n_restarts=args.restarts,
            random_state=args.seed,
            progress=bars(args),
        )
        return found, None, None
    peak_source(args)
    ids, X, y = read_labeled_args(args, any_length=poim.position_free)
    found = extract_motifs(
        poim,
        max_motifs=args.max_motifs,
        sequences=X,
        labels=y,
        random_state=args.seed,
        progress=bars(args),
    )
    say(args, f"{len(found)} motifs passed the test (false discovery rate 5 %)")
    return found, ids, y


def _write_found(args: argparse.Namespace, found, ids, y) -> None:
    from .motifs.formats import write_motifs, write_sites

    write_motifs(args.output, found)
    if args.sites:
        write_sites(args.sites, found, ids, y)
    say(args, f"{len(found)} motifs written to {args.output}")


def _report_matches(args: argparse.Namespace, found, known) -> None:
    from tqdm.auto import tqdm

    from .io import write_table
    from .motifs.compare import match_motifs

    header = ["motif", "match", "score", "offset", "strand", "overlap", "p_value"]
    rows = [
        (
            m.query,
            m.target,
            round(m.score, 4),
            m.offset,
            m.strand,
            m.overlap,
            f"{m.p_value:.3g}",
        )
        for motif in tqdm(found, desc="comparing", unit="motif", disable=not bars(args))
        for m in match_motifs(motif, known, top=args.compare_top)
    ]
    if args.matches:
        write_table(args.matches, header, rows)
        say(args, f"matches with {args.compare} written to {args.matches}")
        return
    print("\t".join(header))
    for row in rows:
        print("\t".join(str(v) for v in row))


def _write_logos(folder: str, found) -> None:
    from .io import atomic_path, output_folder
    from .plot import logo_figure

    out = output_folder(folder)
    for motif in found:
        with atomic_path(out / f"{motif.name}.png") as tmp:
            logo_figure(motif).savefig(tmp, dpi=150, format="png")


def _print_run(summary: dict, out: str) -> None:
    from .run.crossval import split_text

    if summary["cv_auc"] is None:
        print("# no cross-validation (--cv 0): the model's accuracy is unknown")
    else:
        print(
            f"cv_auc\t{summary['cv_auc']:.4f}\t+/-\t{summary['cv_auc_std']:.4f}\t"
            f"accuracy\t{summary['cv_accuracy']:.4f}\tbalanced\t"
            f"{summary['cv_balanced_accuracy']:.4f}\tbest_threshold\t"
            f"{summary['cv_best_accuracy']:.4f}"
        )
    if summary.get("models"):
        figures = "\t".join(
            f"{name}\t{m['cv_auc']:.4f}" for name, m in summary["models"].items()
        )
        print(f"chosen\t{summary['chosen_model']}\t# cv_auc of each: {figures}")
    from .run.summary import chosen_text, param_text

    chosen = summary["parameters"]["chosen"]
    print("model\t" + "\t".join(param_text(k, v) for k, v in chosen.items()))
    if summary["selection"] is not None:
        print(f"# chosen by inner CV: {chosen_text(chosen, summary['selection'])}")
    if summary["cv_auc"] is not None:
        print(f"# cross-validation in {split_text(summary)}")
    print("motif\tclass\tconsensus\tposition\tspread\timportance\tpos\tneg\tq_value")
    for m in summary["motifs"]:
        where = (
            "any\tany"
            if m["position"] is None
            else (f"{m['position']:.1f}\t{m['spread']:.1f}")
        )
        print(
            f"{m['name']}\t{m.get('class', '')}\t{m['iupac']}\t{where}\t"
            f"{m['importance']:.4g}\t{m['frac_positive']:.3f}\t"
            f"{m['frac_negative']:.3f}\t{m['q_value']:.3g}"
        )
    if not summary["motifs"]:
        print(f"# {summary['motifs_note']}")
    if summary["n_dropped"]:
        print(f"# {summary['n_dropped']} records dropped (see the warnings above)")
    print(f"report\t{os.path.join(out, 'report.html')}")


def _run_run(args: argparse.Namespace) -> int:
    from .run import run_pipeline

    if args.targets is not None:  # regression: poimkit.run.regression
        return train_command(args)
    check_classification(args)
    peaks = peak_source(args)
    summary = run_pipeline(
        args.output,
        pos=args.pos,
        neg=args.neg,
        fasta=args.fasta,
        labels=args.labels,
        options=run_options(args),
        force=args.force,
        progress=progress(args),
        peaks=peaks,
    )
    _print_run(summary, args.output)
    return EXIT_OK


def _run_demo(args: argparse.Namespace) -> int:
    import tempfile

    from .datasets import write_gattaca_data
    from .run import RunOptions, run_pipeline

    with tempfile.TemporaryDirectory(prefix="poimkit-demo-") as folder:
        pos, neg = write_gattaca_data(folder)
        summary = run_pipeline(
            args.output,
            pos=str(pos),
            neg=str(neg),
            options=RunOptions(seed=args.seed, threads=args.threads),
            force=args.force,
            progress=progress(args),
            dataset="GATTACA example (poimkit.datasets.GATTACA_BUNDLE)",
        )
    _print_run(summary, args.output)
    return EXIT_OK


def _run_variants(args: argparse.Namespace) -> int:
    from .variants.command import run_variants

    return run_variants(args)


def _run_explain(args: argparse.Namespace) -> int:
    from .explain.command import run_explain

    return run_explain(args)


def _run_scan(args: argparse.Namespace) -> int:
    from .genome.scan_command import run_scan

    return run_scan(args)


_COMMANDS = {
    "train": train_command,
    "score": _run_score,
    "poim": _run_poim,
    "motifs": _run_motifs,
    "run": _run_run,
    "demo": _run_demo,
    "variants": _run_variants,
    "scan": _run_scan,
    "explain": _run_explain,
}


def _one_line_warnings(default):
    """A ``showwarning`` printing poimkit's own warnings as one line on stderr."""

    def show(message, category, filename, lineno, file=None, line=None):
        if category.__module__.split(".")[0] == "poimkit":
            tell(f"warning: {message}")
        else:
            default(message, category, filename, lineno, file, line)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    """Run the poimkit command line; returns the exit code.

    The command runs in a worker thread while this one waits, so Ctrl-C and
    SIGTERM act within a second even inside a compiled kernel (which only
    returns to Python when done). The worker is asked to stop; if it cannot
    within `STOP_GRACE` seconds and poimkit runs as the program (``argv`` is
    None), the staged outputs are deleted and the process exits at once.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: the program's, ``sys.argv[1:]``).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    outcome: list[int] = []
    done = threading.Event()

    def work() -> None:
        try:
            outcome.append(_dispatch(args))
        finally:
            done.set()

    # an Event, not Thread.join(timeout): a join interrupted by a signal can
    # mark the thread finished while it runs (CPython before 3.13)
    worker = threading.Thread(target=work, name="poimkit", daemon=True)
    try:
        worker.start()
        while not done.wait(0.1):  # wakes for signals
            pass
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM (`Terminated`)
        stop_worker(worker, done, type(exc), hard=argv is None)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return outcome[0] if outcome else EXIT_INTERRUPTED


def _dispatch(args: argparse.Namespace) -> int:
    """Run one subcommand; every error becomes a line on stderr and an exit code."""
    try:
        with warnings.catch_warnings():  # restores showwarning afterwards
            warnings.showwarning = _one_line_warnings(warnings.showwarning)
            return _COMMANDS[args.command](args)
    except InputError as exc:
        tell(f"error: {exc}")
        return EXIT_INPUT
    except Terminated:
        tell("terminated")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        tell("interrupted")
        return EXIT_INTERRUPTED
    except ImportError as exc:  # an optional dependency (e.g. Dask) is missing
        if (exc.name or "poimkit").split(".")[0] == "poimkit":
            tell(f"internal error: ImportError: {exc}")
            return EXIT_INTERNAL
        tell(
            f"error: {exc.name} is not installed; install the optional dependency "
            "it belongs to (see the README)"
        )
        return EXIT_INPUT
    except OSError as exc:  # read-only folder, disk full, ...: the environment
        where = f"{exc.filename}: " if exc.filename else ""
        tell(f"error: {where}{exc.strerror or exc}")
        return EXIT_INPUT
    except Exception as exc:  # noqa: BLE001 - last line of defence for scripts
        tell(f"internal error: {type(exc).__name__}: {exc}")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
