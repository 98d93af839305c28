"""Exact effects of the variants of a VCF or of sequence pairs, tested and written.

`score_variants` is the work of ``poimkit variants``: read the variants,
check every chromosome against the genome before any scoring, then per
chromosome read its letters once, check REF, cut the windows
(`poimkit.variants.windows`), score chunks of variants with the model's
explicit weights (`VariantScores`) and test them against the null
(`poimkit.variants.null`). `write_effects` writes the table; `calls_text`
and `summary_text` say what was found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
class VariantScores:
    """Per-variant results in input order (NaN: not scored), plus strongest windows.

    Parameters
    ----------
    n : int
        Variants.
    n_plots : int
        Variants of largest absolute effect whose windows are kept (`best`).
    """

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

        With ``in_peaks``, the q-values are Benjamini-Hochberg within the
        variants in peaks and within the others (stratified: each family,
        and so the file, keeps its false discovery rate); else over the file.

        Parameters
        ----------
        nulls : dict
            ``strongest`` (False, True) to a `VariantNull`.
        in_peaks : numpy.ndarray of bool, optional
            The variants inside a --bed peak's window.
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
        """Count skipped variants by reason.

        Parameters
        ----------
        counts : dict of str to int
            Variants skipped, by reason.
        """
        for reason, count in counts.items():
            if count:
                self.skipped[reason] = self.skipped.get(reason, 0) + count

    def add(self, chunk: Any) -> None:
        """Take the results of a chunk of variants.

        Parameters
        ----------
        chunk : poimkit.variants.placement.ScoredChunk
            Scored variants.
        """
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


def _bar(progress: bool, total: int):
    from tqdm.auto import tqdm

    return tqdm(
        total=total, desc="variants", unit="var", unit_scale=True, disable=not progress
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


def _score_vcf(
    engine, scores: VariantScores, table, genome, placement, top, skip_ref, progress
) -> None:
    from ..genome.vcf import check_ref
    from .placement import scored_chunk

    with _bar(progress, len(table)) as bar:
        for chrom, rows in table.by_chromosome().items():
            codes = genome.codes(chrom)
            ok = check_ref(table, rows, codes, skip_ref)
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
                    top,
                )
                scores.skip(skipped)
                if chunk.rows.size:
                    scores.add(chunk)
                bar.update(part.size)


def _vcf_nulls(
    engine, genome, placement, scores: VariantScores, background, n, seed, progress
) -> dict:
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
            n,
            seed,
            progress,
        )
    if (scored & scores.strongest).any():
        fewer = max(1, n // STRONGEST_SHARE)
        nulls[True] = variant_null(
            engine, STRONGEST, genome, windows, source, fewer, seed, progress
        )
    return nulls


def _score_pairs(
    engine, scores: VariantScores, table, top, plots, progress
) -> list[np.ndarray]:
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
    with _bar(progress, len(table)) as bar:
        bar.update(len(table) - rows.size)
        for s in range(0, rows.size, CHUNK):
            part = slice(s, s + CHUNK)
            fx = pair_effects(engine, refs[part], alts[part], None, top, False)
            chunk = rows[part]
            scores.ref_score[chunk] = fx.ref_score
            scores.alt_score[chunk] = fx.alt_score
            scores.effect[chunk] = fx.effect
            scores.top[chunk] = fx.top_strings()
            bar.update(chunk.size)
    if plots:
        order = np.argsort(-np.abs(scores.effect[rows]), kind="stable")[:plots]
        for j in order:
            r = int(rows[j])
            R, A = refs[j], alts[j]
            diff = np.flatnonzero(R[: min(R.size, A.size)] != A[: min(R.size, A.size)])
            at = int(diff[0]) if diff.size else min(R.size, A.size)
            scores.best.append((abs(scores.effect[r]), r, R, A, at))
    return refs


def _tested(scores: VariantScores, done: np.ndarray) -> list[str]:
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


def _lines(table, scores: VariantScores, pairs: bool):
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


def _calls(scores: VariantScores, q: float, nulls: dict, in_peaks=None) -> str:
    """``--calls Q``: how many variants have q-value <= Q, in words."""
    from .null import floor_note

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
    smallest = min(null.effects.size for null in nulls.values())
    return text + floor_note(smallest, max(families), q)


def is_effects_file(path: str) -> bool:
    """Whether ``path`` begins as a table or VCF of poimkit variants.

    Parameters
    ----------
    path : str
        An existing file.

    Returns
    -------
    bool
    """
    from ..io.files import file_head
    from .all_snvs import MARK

    head = file_head(path)
    own = head.startswith(("\t".join(COLUMNS[:6]), MARK))
    return own or "ID=POIM_EFFECT" in head


@dataclass
class ScoredVariants:
    """The variants scored by `score_variants`, and their test.

    Attributes
    ----------
    table : VariantTable or PairTable
        The variants (`poimkit.genome.vcf.read_vcf`, `read_pairs`).
    scores : VariantScores
        Their effects, z, p and q (NaN: not scored or not tested).
    nulls : dict
        `VariantNull` by placement (``{}``: no null).
    in_peaks : numpy.ndarray of bool or None
        The variants inside a peak's window (with peaks).
    engine : object
        The model's `poimkit.variants.effects.effect_engine`.
    contigs : list of str or None
        The genome's sequence names (VCF input).
    """

    table: Any
    scores: VariantScores
    nulls: dict
    in_peaks: np.ndarray | None
    engine: Any
    contigs: list | None

    @property
    def n_scored(self) -> int:
        """Variants with an effect."""
        return int((~np.isnan(self.scores.effect)).sum())

    def summary_text(self, output: str) -> str:
        """How many were scored into ``output``, and why others were skipped.

        Parameters
        ----------
        output : str
            The table written.

        Returns
        -------
        str
        """
        return _summary(self.n_scored, output, self.scores.skipped)

    def calls_text(self, q: float) -> str:
        """How many variants have q-value <= ``q``, in words.

        Parameters
        ----------
        q : float
            The q-value threshold.

        Returns
        -------
        str
        """
        return _calls(self.scores, q, self.nulls, self.in_peaks)


def score_variants(
    model: Any,
    vcf: str | None = None,
    pairs: str | None = None,
    genome: str | None = None,
    bed: str | None = None,
    top: int = 3,
    null: int = 100_000,
    null_windows: str | None = None,
    seed: int = 0,
    plots: int = 0,
    skip_mismatched_ref: bool = False,
    progress: bool = False,
) -> ScoredVariants:
    """Exact effects of the variants of a VCF (with its genome) or of sequence pairs.

    Parameters
    ----------
    model : object
        A loaded model (`poimkit.load_model`).
    vcf, pairs : str, optional
        The variants: a VCF (with ``genome``) or a table of sequence pairs.
    genome : str, optional
        The VCF's reference FASTA.
    bed : str, optional
        The peaks the model was trained on: a positional model scores a
        variant inside one in that peak's window (`poimkit.variants.placement`),
        and the q-values are within the variants in peaks and the others.
    top : int, default=3
        k-mer changes listed per variant.
    null : int, default=100_000
        Random SNVs of the null (0: no null; `poimkit.variants.null`).
    null_windows : str, optional
        Background regions of the null (default: random genome windows).
    seed : int, default=0
        Seed of the null.
    plots : int, default=0
        Keep the windows of this many variants of largest absolute effect.
    skip_mismatched_ref : bool, default=False
        Skip (and count) variants whose REF differs from the genome.
    progress : bool, default=False
        Progress bars on standard error.

    Returns
    -------
    ScoredVariants
    """
    from .effects import effect_engine

    engine = effect_engine(model)
    if plots and engine.decomposition == "score_only":
        raise InputError(
            f"{model.describe()}: no --plots (the score is not a sum of "
            "l-mer weights; effects are exact, by scoring both sequences)"
        )
    if vcf is not None:
        inputs = _VcfInputs(genome, bed, null_windows, skip_mismatched_ref)
        return _score_vcf_file(engine, vcf, inputs, top, null, seed, plots, progress)
    from ..genome.vcf import read_pairs
    from .null import pair_null

    table = read_pairs(pairs)
    scores = VariantScores(len(table), plots)
    scores.skip(getattr(table, "skipped", {}))
    refs = _score_pairs(engine, scores, table, top, plots, progress)
    nulls = {False: pair_null(engine, refs, null, seed)} if null and refs else {}
    if nulls:
        scores.test(nulls)
    return ScoredVariants(table, scores, nulls, None, engine, None)


@dataclass(frozen=True)
class _VcfInputs:
    """What only a VCF's variants read: the genome, peaks and null windows."""

    genome: str
    bed: str | None
    null_windows: str | None
    skip_ref: bool


def _score_vcf_file(
    engine, vcf, inputs: _VcfInputs, top, null, seed, plots, progress
) -> ScoredVariants:
    """`score_variants` of a VCF: checked whole before any scoring."""
    from ..genome.reference import open_genome
    from ..genome.vcf import check_chromosomes, read_vcf

    table = read_vcf(vcf)
    scores = VariantScores(len(table), plots)
    scores.skip(getattr(table, "skipped", {}))
    genome = open_genome(inputs.genome)
    check_chromosomes(table, genome)  # every line, before any scoring
    peaks = None
    if inputs.bed is not None:  # read before any scoring
        from ..genome.peaks import read_peaks

        peaks = read_peaks(inputs.bed)
    placement = _placement(engine, peaks)
    if null:  # its windows read (or drawn) before any scoring
        from .null import background_windows

        windows = inputs.null_windows
        background = background_windows(genome, engine.length, windows, seed)
    _score_vcf(engine, scores, table, genome, placement, top, inputs.skip_ref, progress)
    nulls, in_peaks = {}, None
    if null:
        nulls = _vcf_nulls(
            engine, genome, placement, scores, background, null, seed, progress
        )
    if peaks is not None:
        in_peaks = _in_peaks(peaks, table, engine.length)
    if nulls:
        scores.test(nulls, in_peaks)
    return ScoredVariants(table, scores, nulls, in_peaks, engine, list(genome.lengths))


def write_effects(
    path: str, found: ScoredVariants, plots_dir: str | None = None
) -> None:
    """The effects table (or VCF) and the plots, together or not at all.

    Parameters
    ----------
    path : str
        A table (``.gz``: gzip) or, ending ``.vcf.gz``, the input VCF back
        with INFO fields (`poimkit.variants.vcf_out`).
    found : ScoredVariants
        What `score_variants` found.
    plots_dir : str, optional
        The folder of the variants' figures (`poimkit.variants.plots`).
    """
    from ..io import commit_together
    from .vcf_out import is_vcf_output, write_vcf

    with commit_together():
        if is_vcf_output(path):
            write_vcf(
                path,
                found.table,
                found.scores,
                found.contigs,
                stratified=found.in_peaks is not None,
            )
        else:
            pairs = found.contigs is None
            _write(path, _lines(found.table, found.scores, pairs=pairs))
        if plots_dir:
            from .plots import write_plots

            write_plots(
                plots_dir,
                found.engine,
                found.table,
                found.scores.best,
                found.scores.effect,
            )


__all__ = [
    "COLUMNS",
    "ScoredVariants",
    "VariantScores",
    "is_effects_file",
    "plots_folder",
    "score_variants",
    "write_effects",
]
