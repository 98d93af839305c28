"""``poimkit variants``: exact effects of the variants of a VCF or of sequence pairs.

The work of the command (``poimkit.cli`` only dispatches here): read the
variants, check every chromosome against the genome before any scoring, then
per chromosome read its letters once, check REF, cut the windows
(`poimkit.variants.windows`), and score chunks of variants with the model's
explicit weights. The table (and the ``--plots`` figures) appear together at
the end, or not at all.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

import numpy as np

from .._messages import tell
from ..errors import InputError
from .effects import CHUNK

COLUMNS = (
    "chrom",
    "pos",
    "id",
    "ref",
    "alt",
    "effect",
    "ref_score",
    "alt_score",
    "top_kmers",
)
MISMATCHED_REF = "REF not matching the genome"
PAIR_N = "N in a sequence"


@dataclass
class _Scores:
    """Per-variant results in input order (NaN: not scored), plus strongest windows."""

    n: int
    n_plots: int
    ref_score: np.ndarray = field(init=False)
    alt_score: np.ndarray = field(init=False)
    effect: np.ndarray = field(init=False)
    top: np.ndarray = field(init=False)
    skipped: dict[str, int] = field(default_factory=dict)
    best: list = field(default_factory=list)  # (|effect|, row, R, A, anchor)

    def __post_init__(self) -> None:
        self.ref_score = np.full(self.n, np.nan)
        self.alt_score = np.full(self.n, np.nan)
        self.effect = np.full(self.n, np.nan)
        self.top = np.full(self.n, None, dtype=object)

    def skip(self, counts: dict[str, int]) -> None:
        for reason, count in counts.items():
            if count:
                self.skipped[reason] = self.skipped.get(reason, 0) + count

    def add(self, rows, fx, R, A, anchor) -> None:
        self.ref_score[rows] = fx.ref_score
        self.alt_score[rows] = fx.alt_score
        self.effect[rows] = fx.effect
        self.top[rows] = fx.top_strings()
        if self.n_plots:
            strongest = np.argsort(-np.abs(fx.effect), kind="stable")[: self.n_plots]
            for j in strongest:
                self.best.append(
                    (abs(fx.effect[j]), int(rows[j]), R[j], A[j], anchor[j])
                )
            self.best.sort(key=lambda b: (-b[0], b[1]))
            del self.best[self.n_plots :]


def _bar(args, total: int):
    from tqdm.auto import tqdm

    return tqdm(
        total=total,
        desc="variants",
        unit="var",
        unit_scale=True,
        disable=args.quiet or not sys.stderr.isatty(),
    )


def _score_vcf(args, engine, scores: _Scores, table) -> None:
    from ..genome.reference import open_genome
    from ..genome.vcf import check_chromosomes, check_ref
    from .windows import genome_windows

    genome = open_genome(args.genome, quiet=args.quiet)
    check_chromosomes(table, genome)  # every line, before any scoring
    with _bar(args, len(table)) as bar:
        for chrom, rows in table.by_chromosome().items():
            codes = genome.codes(chrom)
            ok = check_ref(table, rows, codes, args.skip_mismatched_ref)
            scores.skip({MISMATCHED_REF: int((~ok).sum())})
            bar.update(int((~ok).sum()))
            rows = rows[ok]
            for s in range(0, rows.size, CHUNK):
                chunk = rows[s : s + CHUNK]
                win, skipped = genome_windows(
                    codes,
                    table.pos[chunk] - 1,
                    [table.ref[r] for r in chunk],
                    [table.alt[r] for r in chunk],
                    chunk,
                    engine.length,
                )
                scores.skip(skipped)
                if win.rows.size:
                    fx = engine.run(
                        win.R,
                        win.A,
                        win.anchor,
                        args.top,
                        False,
                        spans=(win.lo, win.rhi, win.ahi),
                    )
                    scores.add(win.rows, fx, win.R, win.A, win.anchor)
                bar.update(chunk.size)


def _score_pairs(args, engine, scores: _Scores, table) -> None:
    from ..genome.reference import text_codes
    from ..genome.vcf import N_CODE
    from .effects import pair_effects

    refs, alts, rows = [], [], []
    for i in range(len(table)):
        ref, alt = text_codes(table.ref[i]), text_codes(table.alt[i])
        for what, x in (("ref", ref), ("alt", alt)):
            if engine.position_free and x.size < engine.l:
                raise InputError(
                    f"line {int(table.line[i])}: the {what} sequence has "
                    f"{x.size} letters, fewer than the model's l = {engine.l}",
                    path=table.path,
                )
            if not engine.position_free and x.size != engine.length:
                raise InputError(
                    f"line {int(table.line[i])}: the {what} sequence has "
                    f"{x.size} letters but the model scores windows of "
                    f"{engine.length}",
                    path=table.path,
                )
        if (ref == N_CODE).any() or (alt == N_CODE).any():
            scores.skip({PAIR_N: 1})
            continue
        refs.append(ref)
        alts.append(alt)
        rows.append(i)
    rows = np.asarray(rows, dtype=np.int64)
    with _bar(args, len(table)) as bar:
        bar.update(len(table) - rows.size)
        for s in range(0, rows.size, CHUNK):
            part = slice(s, s + CHUNK)
            fx = pair_effects(engine, refs[part], alts[part], None, args.top, False)
            chunk = rows[part]
            scores.ref_score[chunk] = fx.ref_score
            scores.alt_score[chunk] = fx.alt_score
            scores.effect[chunk] = fx.effect
            scores.top[chunk] = fx.top_strings()
            bar.update(chunk.size)
    if args.plots:
        order = np.argsort(-np.abs(scores.effect[rows]), kind="stable")[: args.plots]
        for j in order:
            r = int(rows[j])
            R, A = refs[j], alts[j]
            diff = np.flatnonzero(R[: min(R.size, A.size)] != A[: min(R.size, A.size)])
            at = int(diff[0]) if diff.size else min(R.size, A.size)
            scores.best.append((abs(scores.effect[r]), r, R, A, at))


def _lines(table, scores: _Scores, pairs: bool):
    """Output lines of the scored variants, input order."""
    done = np.flatnonzero(~np.isnan(scores.effect))
    effect = scores.effect[done].tolist()
    ref_score = scores.ref_score[done].tolist()
    alt_score = scores.alt_score[done].tolist()
    top = scores.top[done].tolist()
    rows = done.tolist()
    if pairs:
        for r, e, rs, a_s, t in zip(
            rows, effect, ref_score, alt_score, top, strict=True
        ):
            yield (
                f".\t.\t{table.id[r]}\t{table.ref[r]}\t{table.alt[r]}\t{e!r}\t"
                f"{rs!r}\t{a_s!r}\t{t}\n"
            )
        return
    chrom, pos, ids, refs, alts = (
        table.chrom,
        table.pos.tolist(),
        table.id,
        table.ref,
        table.alt,
    )
    for r, e, rs, a_s, t in zip(rows, effect, ref_score, alt_score, top, strict=True):
        yield (
            f"{chrom[r]}\t{pos[r]}\t{ids[r]}\t{refs[r]}\t{alts[r]}\t{e!r}\t"
            f"{rs!r}\t{a_s!r}\t{t}\n"
        )


def _write(path: str, lines) -> None:
    from ..io import atomic_path
    from ..io.files import is_gz, text_writer

    with atomic_path(path) as tmp, text_writer(tmp, is_gz(path)) as handle:
        handle.write("\t".join(COLUMNS) + "\n")
        batch = []
        for line in lines:
            batch.append(line)
            if len(batch) >= 65536:
                handle.write("".join(batch))
                batch.clear()
        handle.write("".join(batch))


def plots_folder(output: str, folder: str | None) -> str:
    """``--plots-dir``, or ``OUTPUT`` without its suffixes plus ``_plots``.

    Parameters
    ----------
    output : str
        The table's path (``-o``).
    folder : str or None
        ``--plots-dir``.
    """
    if folder:
        return folder
    import os

    base = output
    for suffix in (".gz", ".tsv", ".txt"):
        base = base.removesuffix(suffix)
    return base + "_plots" if base != output else os.path.splitext(output)[0] + "_plots"


def _summary(n_scored: int, output: str, skipped: dict[str, int]) -> str:
    text = f"scored {n_scored:,} variants into {output}"
    if skipped:
        text += "; skipped " + ", ".join(
            f"{count:,} ({reason})" for reason, count in skipped.items()
        )
    else:
        text += "; none skipped"
    return text


def run_variants(args: argparse.Namespace) -> int:
    """The ``poimkit variants`` command; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from .._threads import check_threads, numba_threads
    from ..genome.vcf import read_pairs, read_vcf
    from ..io import commit_together
    from ..outdir import check_writable
    from ..svm import load_model
    from .effects import check_top, effect_engine

    check_top(args.top)
    if args.plots is not None and args.plots < 0:
        raise InputError(f"--plots must be 0 or more, got {args.plots}")
    if args.vcf and not args.genome:
        raise InputError("--vcf needs --genome (the reference the VCF refers to)")
    if args.genome and not args.vcf:
        raise InputError("--genome goes with --vcf (--pairs needs no genome)")
    check_threads(args.threads)
    folder = plots_folder(args.output, args.plots_dir) if args.plots else None
    check_writable(args.output, folder)
    model = load_model(args.model)
    if args.threads is not None:
        model.n_threads = args.threads
    with numba_threads(args.threads):
        engine = effect_engine(model)
        if folder and getattr(engine, "score_only", False):
            raise InputError(
                f"{model.describe()}: no --plots (the score is not a sum of "
                "l-mer weights; effects are exact, by scoring both sequences)"
            )
        table = read_vcf(args.vcf) if args.vcf else read_pairs(args.pairs)
        scores = _Scores(len(table), args.plots or 0)
        scores.skip(getattr(table, "skipped", {}))
        if args.vcf:
            _score_vcf(args, engine, scores, table)
        else:
            _score_pairs(args, engine, scores, table)
    n_scored = int((~np.isnan(scores.effect)).sum())
    with commit_together():
        _write(args.output, _lines(table, scores, pairs=not args.vcf))
        if folder:
            from .plots import write_plots

            write_plots(folder, engine, table, scores.best, scores.effect)
    if not args.quiet:
        tell(_summary(n_scored, args.output, scores.skipped))
    return 0


__all__ = ["COLUMNS", "plots_folder", "run_variants"]
