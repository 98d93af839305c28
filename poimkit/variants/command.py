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
    "z",
    "p_value",
    "q_value",
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
        self.strongest = np.zeros(self.n, dtype=bool)
        self.z = np.full(self.n, np.nan)
        self.p = np.full(self.n, np.nan)
        self.q = np.full(self.n, np.nan)

    def test(self, nulls: dict, in_peaks: np.ndarray | None = None) -> None:
        """z, p and q of every scored variant against its placement's null.

        ``nulls`` maps ``strongest`` (False, True) to a `VariantNull`. With
        ``in_peaks`` (the variants inside a --bed peak's window), the
        q-values are Benjamini-Hochberg within the variants in peaks and
        within the others (stratified: each family, and so the file, keeps
        its false discovery rate); else over the file.
        """
        from .null import q_values

        for strongest, null in nulls.items():
            mine = self.strongest == strongest
            self.z[mine] = null.z_scores(self.effect[mine])
            self.p[mine] = null.p_values(self.effect[mine])
        if in_peaks is None:
            self.q = q_values(self.p)
            return
        for stratum in (in_peaks, ~in_peaks):
            self.q[stratum] = q_values(self.p[stratum])

    def skip(self, counts: dict[str, int]) -> None:
        for reason, count in counts.items():
            if count:
                self.skipped[reason] = self.skipped.get(reason, 0) + count

    def add(self, chunk) -> None:
        """The results of a `poimkit.variants.placement.ScoredChunk`."""
        rows = chunk.rows
        self.ref_score[rows] = chunk.ref_score
        self.alt_score[rows] = chunk.alt_score
        self.effect[rows] = chunk.effect
        self.top[rows] = chunk.top
        self.strongest[rows] = chunk.strongest
        if self.n_plots:
            order = np.argsort(-np.abs(chunk.effect), kind="stable")
            for j in order[: self.n_plots]:
                self.best.append(
                    (
                        abs(chunk.effect[j]),
                        int(rows[j]),
                        chunk.R[j],
                        chunk.A[j],
                        chunk.anchor[j],
                    )
                )
            self.best.sort(key=lambda b: (-b[0], b[1]))
            del self.best[self.n_plots :]


def _shows_bars(args) -> bool:
    """Progress bars: on a terminal, unless --quiet."""
    return not args.quiet and sys.stderr.isatty()


def _bar(args, total: int):
    from tqdm.auto import tqdm

    return tqdm(
        total=total,
        desc="variants",
        unit="var",
        unit_scale=True,
        disable=not _shows_bars(args),
    )


def _placement(engine, peaks):
    """Where the variants go in their windows (`Placement.of`)."""
    from .placement import Placement

    if peaks is None or engine.position_free:
        return Placement.of(engine)
    return Placement.of(engine, peaks.windows(engine.length))


def _in_peaks(peaks, table, length: int) -> np.ndarray:
    """Which variants lie in a --bed peak's window of the model's length."""
    from .placement import Placement

    placement = Placement.within(peaks.windows(length))
    inside = np.zeros(len(table), dtype=bool)
    for chrom, rows in table.by_chromosome().items():
        inside[rows] = placement.columns(chrom, table.pos[rows] - 1)[0] >= 0
    return inside


def _score_vcf(args, engine, scores: _Scores, table, genome, placement) -> None:
    from ..genome.vcf import check_ref
    from .placement import scored_chunk

    with _bar(args, len(table)) as bar:
        for chrom, rows in table.by_chromosome().items():
            codes = genome.codes(chrom)
            ok = check_ref(table, rows, codes, args.skip_mismatched_ref)
            scores.skip({MISMATCHED_REF: int((~ok).sum())})
            bar.update(int((~ok).sum()))
            rows = rows[ok]
            step = CHUNK if placement.kind != "strongest" else CHUNK // 8
            for s in range(0, rows.size, step):
                part = rows[s : s + step]
                chunk, skipped = scored_chunk(
                    engine,
                    placement,
                    codes,
                    chrom,
                    table.pos[part] - 1,
                    [table.ref[r] for r in part],
                    [table.alt[r] for r in part],
                    part,
                    args.top,
                )
                scores.skip(skipped)
                if chunk.rows.size:
                    scores.add(chunk)
                bar.update(part.size)


def _vcf_nulls(args, engine, genome, placement, scores: _Scores, background) -> dict:
    """The nulls of a VCF's variants, by placement (`variant_null`).

    ``{False: ..., True: ...}``: the null of the variants placed at the
    centre or in their peak's window, and that of the variants at their
    strongest placement (`STRONGEST_SHARE` as many SNVs: each costs a
    window's length of placements). ``background``: `background_windows`.
    """
    from .null import STRONGEST_SHARE, variant_null
    from .placement import STRONGEST

    windows, source = background
    scored = ~np.isnan(scores.effect)
    nulls = {}
    if (scored & ~scores.strongest).any():
        nulls[False] = variant_null(
            engine,
            placement.kind,
            genome,
            windows,
            source,
            args.null,
            args.seed,
            _shows_bars(args),
        )
    if (scored & scores.strongest).any():
        n = max(1, args.null // STRONGEST_SHARE)
        nulls[True] = variant_null(
            engine, STRONGEST, genome, windows, source, n, args.seed, _shows_bars(args)
        )
    return nulls


def _score_pairs(args, engine, scores: _Scores, table) -> list[np.ndarray]:
    """Score the pairs; return their reference sequences (for the null)."""
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
    return refs


def _tested(scores: _Scores, done: np.ndarray) -> list[str]:
    """z, p and q (tab-joined) of the scored variants; NA without a null."""
    if np.isnan(scores.p[done]).all():
        return ["NA\tNA\tNA"] * done.size
    return [
        f"{z:.4g}\t{p:.4g}\t{q:.4g}"
        for z, p, q in zip(
            scores.z[done].tolist(),
            scores.p[done].tolist(),
            scores.q[done].tolist(),
            strict=True,
        )
    ]


def _lines(table, scores: _Scores, pairs: bool):
    """Output lines of the scored variants, input order."""
    done = np.flatnonzero(~np.isnan(scores.effect))
    effect = scores.effect[done].tolist()
    ref_score = scores.ref_score[done].tolist()
    alt_score = scores.alt_score[done].tolist()
    top = scores.top[done].tolist()
    tested = _tested(scores, done)
    rows = done.tolist()
    columns = zip(rows, effect, tested, ref_score, alt_score, top, strict=True)
    if pairs:
        for r, e, zpq, rs, a_s, t in columns:
            yield (
                f".\t.\t{table.id[r]}\t{table.ref[r]}\t{table.alt[r]}\t{e!r}\t"
                f"{zpq}\t{rs!r}\t{a_s!r}\t{t}\n"
            )
        return
    chrom, pos, ids, refs, alts = (
        table.chrom,
        table.pos.tolist(),
        table.id,
        table.ref,
        table.alt,
    )
    for r, e, zpq, rs, a_s, t in columns:
        yield (
            f"{chrom[r]}\t{pos[r]}\t{ids[r]}\t{refs[r]}\t{alts[r]}\t{e!r}\t"
            f"{zpq}\t{rs!r}\t{a_s!r}\t{t}\n"
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


def _calls(scores: _Scores, q: float, nulls: dict, in_peaks=None) -> str:
    """``--calls Q``: how many variants have q-value <= Q, in words."""
    called = int(np.sum(scores.q <= q))
    tested = int(np.sum(~np.isnan(scores.q)))
    families = [tested]  # the sizes of the q-values' families
    tested_text = f"{tested:,} variants"
    if in_peaks is not None:  # stratified: in peaks, and outside
        inside = int(np.sum(scores.q[in_peaks] <= q))
        n_inside = int(np.sum(~np.isnan(scores.q[in_peaks])))
        families = [n_inside, tested - n_inside]
        tested_text += (
            f" ({inside:,} of the {n_inside:,} in peaks, q-values within them)"
        )
    sizes = ", and ".join(
        f"{null.effects.size:,} random SNVs"
        + " scored at their strongest placement" * strongest
        for strongest, null in sorted(nulls.items())
    )
    source = next(iter(nulls.values())).source
    text = (
        f"called {called:,} of {tested_text} at q <= {q:g} (null: {sizes}, in {source})"
    )
    smallest = max(1.0 / (1 + null.effects.size) for null in nulls.values())
    m = max(families)
    if smallest * m > q:  # one variant at the floor cannot reach q alone
        text += (
            f"; the smallest p-value the null gives is {smallest:.2g}, so a call "
            f"among {m:,} variants needs {smallest * m / q:.0f} or more that "
            "strong: a larger --null sharpens the p-values"
        )
    return text


def _check_arguments(args: argparse.Namespace) -> None:
    """Every check that needs no reading, before any work."""
    from .._threads import check_threads
    from .effects import check_top

    check_top(args.top)
    if args.plots is not None and args.plots < 0:
        raise InputError(f"--plots must be 0 or more, got {args.plots}")
    if args.vcf and not args.genome:
        raise InputError("--vcf needs --genome (the reference the VCF refers to)")
    if args.genome and not args.vcf:
        raise InputError("--genome goes with --vcf (--pairs needs no genome)")
    if args.null < 0:
        raise InputError(f"--null must be 0 or more, got {args.null}")
    if args.calls is not None and not 0 < args.calls <= 1:
        raise InputError(f"--calls must be a q-value in (0, 1], got {args.calls}")
    if args.calls is not None and not args.null:
        raise InputError("--calls needs the null (--null above 0)")
    for flag, value in (("--bed", args.bed), ("--null-windows", args.null_windows)):
        if value is not None and not args.vcf:
            raise InputError(f"{flag} goes with --vcf (genome positions)")
    check_threads(args.threads)
    from ..io.files import check_replace

    check_replace(args.output, args.force, _ours, "poimkit variants")


def _ours(path: str) -> bool:
    """Whether ``path`` begins as a table or VCF of poimkit variants."""
    from ..io.files import file_head

    head = file_head(path)
    return head.startswith("\t".join(COLUMNS[:6])) or "ID=POIM_EFFECT" in head


def run_variants(args: argparse.Namespace) -> int:
    """The ``poimkit variants`` command; returns the exit code (errors raise).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    """
    from .._threads import numba_threads
    from ..genome.vcf import read_pairs, read_vcf
    from ..io import commit_together
    from ..outdir import check_writable
    from ..svm import load_model
    from .effects import effect_engine
    from .null import pair_null
    from .vcf_out import check_vcf_output, is_vcf_output, write_vcf

    _check_arguments(args)
    vcf_out = is_vcf_output(args.output)
    if vcf_out and not args.vcf:
        raise InputError("a VCF output (-o X.vcf.gz) needs --vcf input")
    if vcf_out:
        check_vcf_output(args.output)
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
        nulls, in_peaks = {}, None
        if args.vcf:
            from ..genome.reference import open_genome
            from ..genome.vcf import check_chromosomes

            genome = open_genome(args.genome, quiet=args.quiet)
            check_chromosomes(table, genome)  # every line, before any scoring
            peaks = None
            if args.bed is not None:  # read before any scoring
                from ..genome.peaks import read_peaks

                peaks = read_peaks(args.bed)
            placement = _placement(engine, peaks)
            if args.null:  # its windows read (or drawn) before any scoring
                from .null import background_windows, beside_model

                given = args.null_windows or beside_model(args.model)
                background = background_windows(genome, engine.length, given, args.seed)
            _score_vcf(args, engine, scores, table, genome, placement)
            if args.null:
                nulls = _vcf_nulls(args, engine, genome, placement, scores, background)
            if peaks is not None:
                in_peaks = _in_peaks(peaks, table, engine.length)
        else:
            refs = _score_pairs(args, engine, scores, table)
            if args.null and refs:
                nulls = {False: pair_null(engine, refs, args.null, args.seed)}
        if nulls:
            scores.test(nulls, in_peaks)
    n_scored = int((~np.isnan(scores.effect)).sum())
    with commit_together():
        if vcf_out:
            write_vcf(args.output, table, scores, list(genome.lengths))
        else:
            _write(args.output, _lines(table, scores, pairs=not args.vcf))
        if folder:
            from .plots import write_plots

            write_plots(folder, engine, table, scores.best, scores.effect)
    if not args.quiet:
        tell(_summary(n_scored, args.output, scores.skipped))
    if args.calls is not None and nulls:
        print(_calls(scores, args.calls, nulls, in_peaks))
    return 0


__all__ = ["COLUMNS", "plots_folder", "run_variants"]
