"""Where a variant sits in the window a model scores, and its effect there.

A position-free model (gkm, LS-GKM) scores the window with the variant at
its centre (`poimkit.variants.windows`): every l-mer covering the variant is
in it. A positional model (WD, WDS) weighs a k-mer by where it sits, so the
variant's column matters:

``"regions"``
    With peaks (``variants --bed``), a variant inside a peak's training
    window (``width`` letters around the summit, as ``run --bed`` cuts them)
    is scored in that window, at its own column, reverse-complemented on a
    minus-strand peak as in training. A model trained on copies of its
    windows moved along the genome (``training_offsets_``,
    `poimkit.run.data.MovedCopies`) scores it at the same placements: the
    ref and alt scores are the means over the moved windows that hold the
    variant, and the effect their difference (the top k-mer changes and the
    plots are of the window itself). The variant null places its SNVs the
    same way, in the background windows.
``"strongest"``
    Otherwise (and for variants outside every peak) every placement that
    covers the variant is scored and the one of largest absolute effect is
    reported: what the model could make of the variant anywhere in a window.

`scored_chunk` scores a chunk of variants of one chromosome by a `Placement`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .windows import Windows, genome_windows

if TYPE_CHECKING:
    from ..genome.peaks import Peaks

CENTRE, REGIONS, STRONGEST = "centre", "regions", "strongest"


@dataclass
class Placement:
    """How variants are placed in windows (see the module notes).

    Attributes
    ----------
    kind : {"centre", "regions", "strongest"}
        ``"regions"``: in ``regions`` where a variant falls in one, else the
        strongest placement.
    regions : dict of str to tuple, optional
        Per chromosome, sorted window ``(start, end, minus)`` arrays of the
        model's length.
    offsets : tuple of int
        ``"regions"``: the letters each window is also moved by (the model's
        training placements; 0 first).
    """

    kind: str = CENTRE
    regions: dict = field(default_factory=dict)
    offsets: tuple[int, ...] = (0,)

    @classmethod
    def of(cls, engine: Any, windows: Peaks | None = None) -> Placement:
        """The placement for ``engine``: centre, in ``windows``, or strongest.

        Parameters
        ----------
        engine : object
            `poimkit.variants.effects.effect_engine` of the model.
        windows : Peaks, optional
            Windows of the model's length (`poimkit.genome.peaks.Peaks`):
            peaks' training windows, or background windows.

        Returns
        -------
        Placement
        """
        if engine.position_free:
            return cls(CENTRE)
        if windows is None:
            return cls(STRONGEST)
        return cls.within(windows, engine.offsets)

    @classmethod
    def within(cls, windows: Peaks, offsets: tuple[int, ...] = (0,)) -> Placement:
        """Placement in ``windows`` (whatever the model), e.g. to test membership.

        Parameters
        ----------
        windows : Peaks
            Windows of the model's length.
        offsets : tuple of int
            The model's training placements (see the module notes).

        Returns
        -------
        Placement
        """
        regions = {}
        chrom = np.asarray(windows.chrom, dtype=object)
        for name in np.unique(chrom.astype(str)):
            at = np.flatnonzero(chrom == name)
            at = at[np.argsort(windows.start[at], kind="stable")]
            minus = np.asarray(windows.strand)[at] == "-"
            regions[name] = (windows.start[at], windows.end[at], minus)
        return cls(REGIONS, regions, tuple(offsets))

    def columns(self, chrom: str, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each variant's column in the window holding it (-1: none), and its strand.

        Parameters
        ----------
        chrom : str
            The chromosome.
        pos : numpy.ndarray of int64
            0-based variant positions.

        Returns
        -------
        column : numpy.ndarray of int64
        minus : numpy.ndarray of bool
        """
        column = np.full(pos.size, -1, dtype=np.int64)
        minus = np.zeros(pos.size, dtype=bool)
        if chrom not in self.regions:
            return column, minus
        start, end, strand = self.regions[chrom]
        k = np.searchsorted(start, pos, side="right") - 1  # last window starting <=
        inside = (k >= 0) & (pos < end[np.maximum(k, 0)])
        column[inside] = pos[inside] - start[k[inside]]
        minus[inside] = strand[k[inside]]
        return column, minus


@dataclass
class ScoredChunk:
    """Effects of a chunk of variants at their placements.

    Attributes
    ----------
    rows : numpy.ndarray of int64
        The variants scored (rows of their table).
    ref_score, alt_score, effect : numpy.ndarray of float64
        Their scores and effects.
    top : list of str
        Their top k-mer changes (`VariantEffects.top_strings`).
    R, A : numpy.ndarray of uint8
        The windows scored, as the model saw them.
    anchor : numpy.ndarray of int64
        The variant's column in them.
    strongest : numpy.ndarray of bool
        Placed at its strongest placement (its null is that of such SNVs).
    """

    rows: np.ndarray
    ref_score: np.ndarray
    alt_score: np.ndarray
    effect: np.ndarray
    top: list
    R: np.ndarray
    A: np.ndarray
    anchor: np.ndarray
    strongest: np.ndarray


def scored_chunk(
    engine: Any,
    placement: Placement,
    codes: np.ndarray,
    chrom: str,
    pos: np.ndarray,
    refs: list[str],
    alts: list[str],
    rows: np.ndarray,
    top: int,
    scores: bool = True,
) -> tuple[ScoredChunk, dict[str, int]]:
    """Score variants of one chromosome by ``placement``.

    Parameters
    ----------
    engine : object
        `poimkit.variants.effects.effect_engine` of the model.
    placement : Placement
        Where the variants go in their windows.
    codes : numpy.ndarray of uint8
        The chromosome.
    chrom : str
        Its name.
    pos : numpy.ndarray of int64
        0-based position of every variant's first REF letter.
    refs, alts : list of str
        The alleles.
    rows : numpy.ndarray of int64
        The variants' rows, carried into the result.
    top : int
        k-mer changes kept per variant.
    scores : bool, default True
        Also the windows' scores. False (the null, which reads the effects
        alone): a positional model's ``ref_score`` and ``alt_score`` are NaN
        and its windows are not scored, only the k-mers that change (the
        window's score is most of the work); a variant's effect over moved
        placements is then the mean of its effects at them, which equals the
        difference of the mean scores up to rounding. Other models score the
        windows all the same.

    Returns
    -------
    chunk : ScoredChunk
        The variants that have a window, in the given order.
    skipped : dict of str to int
        The others by reason (`genome_windows`).
    """
    rows = np.asarray(rows, dtype=np.int64)
    pos = np.asarray(pos, dtype=np.int64)
    L = engine.length
    scores = scores or engine.decomposition != "positional"
    if placement.kind == CENTRE:
        win, skipped = genome_windows(codes, pos, refs, alts, rows, L)
        return _score(engine, win, top, scores), skipped
    column, minus = placement.columns(chrom, pos)
    placed = np.flatnonzero(column >= 0)
    parts, skipped = [], {}
    for strand in (False, True):
        at = placed[minus[placed] == strand]
        if at.size:
            variants = (codes, pos, refs, alts, rows, at, column[at])
            chunk, lost = _in_regions(engine, variants, strand, placement, top, scores)
            parts.append(chunk)
            _count(skipped, lost)
    rest = np.flatnonzero(column < 0)
    if rest.size:
        variants = (codes, pos, refs, alts, rows, rest, top)
        chunk, lost = _strongest(engine, *variants, scores)
        parts.append(chunk)
        _count(skipped, lost)
    return _ordered(parts), skipped


def _in_regions(
    engine, variants: tuple, minus: bool, placement, top: int, scores: bool = True
):
    """Variants in their regions' windows, averaged over the training placements.

    ``variants`` is ``(codes, pos, refs, alts, rows, at, column)``: the
    variants ``at`` of one strand and their columns in their windows. Without
    ``scores`` (see `scored_chunk`) the effect is the mean of the placements'
    effects.
    """
    codes, pos, refs, alts, rows, at, column = variants
    L = engine.length

    def scored(columns, where, keep):
        win, lost = _windows(codes, pos, refs, alts, rows, L, where, columns)
        return _score(engine, _reverse(win) if minus else win, keep, scores), lost

    own, lost = scored(column, at, top)
    if len(placement.offsets) == 1 or not own.rows.size:
        return own, lost
    index = {row: i for i, row in enumerate(own.rows.tolist())}
    if not scores:  # the effects alone: their mean
        ref, alt = np.zeros(own.rows.size), own.effect.copy()
    else:
        ref, alt = own.ref_score.copy(), own.alt_score.copy()
    n = np.ones(own.rows.size)
    for offset in placement.offsets[1:]:
        moved = column - offset  # the window moved by offset along the genome
        holds = (moved >= 0) & (moved < L)
        chunk, _ = scored(moved[holds], at[holds], 0)  # lost windows: left out
        mine = [(index[r], j) for j, r in enumerate(chunk.rows.tolist()) if r in index]
        if mine:
            i, j = (np.array(x) for x in zip(*mine, strict=True))
            if scores:
                ref[i] += chunk.ref_score[j]
                alt[i] += chunk.alt_score[j]
            else:
                alt[i] += chunk.effect[j]
            n[i] += 1
    if not scores:
        own.effect = alt / n
        return own, lost
    own.ref_score, own.alt_score = ref / n, alt / n
    own.effect = own.alt_score - own.ref_score
    return own, lost


def _windows(codes, pos, refs, alts, rows, L, at, column):
    return genome_windows(
        codes,
        pos[at],
        [refs[i] for i in at],
        [alts[i] for i in at],
        rows[at],
        L,
        column,
    )


def _count(total: dict, more: dict) -> None:
    for reason, n in more.items():
        total[reason] = total.get(reason, 0) + n


def _reverse(win: Windows) -> Windows:
    """The windows reverse-complemented, as a minus-strand peak is in training."""
    L = win.R.shape[1]
    return Windows(
        win.rows,
        np.ascontiguousarray(3 - win.R[:, ::-1]),
        np.ascontiguousarray(3 - win.A[:, ::-1]),
        L - 1 - win.anchor,
        win.lo,
        win.rhi,
        win.ahi,
    )


def _score(engine, win: Windows, top: int, scores: bool = True) -> ScoredChunk:
    """Effects of windows at their placement (``scores``: see `scored_chunk`)."""
    if not win.rows.size:
        return _empty(win.R.shape[1] if win.R.ndim == 2 else 0)
    spans = (win.lo, win.rhi, win.ahi)
    if not engine.position_free:
        spans = None  # positional engines compare the windows themselves
    if scores:
        fx = engine.run(win.R, win.A, win.anchor, top, False, spans=spans)
    else:  # a positional engine: the changed k-mers alone
        fx = engine.run(win.R, win.A, win.anchor, top, False, scores=False)
    return ScoredChunk(
        win.rows,
        np.asarray(fx.ref_score, dtype=float),
        np.asarray(fx.alt_score, dtype=float),
        np.asarray(fx.effect, dtype=float),
        list(fx.top_strings()),
        win.R,
        win.A,
        win.anchor,
        np.zeros(win.rows.size, dtype=bool),
    )


def _empty(L: int) -> ScoredChunk:
    none = np.empty(0)
    codes = np.empty((0, L), dtype=np.uint8)
    index = np.empty(0, dtype=np.int64)
    flags = np.empty(0, dtype=bool)
    return ScoredChunk(index, none, none, none, [], codes, codes, index, flags)


def _strongest(engine, codes, pos, refs, alts, rows, at, top, scores=True):
    """Every placement covering each variant; the one of largest |effect| each.

    SNVs of explicit positional weights are placed by `_best_snv_columns`;
    other variants by scoring every placement's windows (without k-mer
    changes). The chosen placements are then scored with them (``scores``:
    see `scored_chunk`).
    """
    L = engine.length
    snv = np.array([len(refs[i]) == 1 == len(alts[i]) for i in at], dtype=bool)
    fast = at[snv] if engine.decomposition == "positional" else at[:0]
    slow = np.setdiff1d(at, fast)
    columns = np.full(pos.size, -1, dtype=np.int64)
    for s in range(0, fast.size, 4096):
        part = fast[s : s + 4096]
        columns[part] = _best_snv_columns(engine, codes, pos[part], alts, part)
    step = max(1, 8192 // L)  # variants per batch of L placements each
    for s in range(0, slow.size, step):
        part = slow[s : s + step]
        many = np.repeat(part, L)
        column = np.tile(np.arange(L, dtype=np.int64), part.size)
        win, _ = _windows(codes, pos, refs, alts, rows, L, many, column)
        if win.rows.size:
            effect = engine.run(win.R, win.A, win.anchor, 0, False).effect
            o = np.lexsort((-np.abs(effect), win.rows))
            first = o[np.r_[True, win.rows[o][1:] != win.rows[o][:-1]]]
            where = dict(zip(rows[part].tolist(), part.tolist(), strict=True))
            index = [where[r] for r in win.rows[first].tolist()]
            columns[index] = win.anchor[first]
    placed = at[columns[at] >= 0]
    chunk, _ = _windows(codes, pos, refs, alts, rows, L, placed, columns[placed])
    scored = _score(engine, chunk, top, scores)
    scored.strongest[:] = True
    skipped: dict[str, int] = {}
    missing = at[columns[at] < 0]
    if missing.size:  # no placement fits: the reason the centre gives
        centre = np.full(missing.size, L // 2, dtype=np.int64)
        _, skipped = _windows(codes, pos, refs, alts, rows, L, missing, centre)
    return scored, skipped


def _best_snv_columns(engine, codes, pos, alts, at) -> np.ndarray:
    """Column of largest |effect| of every SNV over all its placements (-1: none).

    Exact, from the positional weights (`poimkit.variants._effects.
    snv_placements`); a placement whose window holds N or leaves the
    chromosome does not count.
    """
    from ..genome.reference import text_codes
    from . import _effects

    L = engine.length
    offsets = np.arange(-L + 1, L, dtype=np.int64)
    ix = pos[:, None] + offsets[None, :]
    inside = (ix >= 0) & (ix < codes.size)
    flank = np.where(inside, codes[np.clip(ix, 0, codes.size - 1)], 4)
    flank = np.ascontiguousarray(flank.astype(np.uint8))
    alt = text_codes("".join(alts[i] for i in at)).astype(np.uint8)
    effect = np.zeros((at.size, L))
    for k in range(1, engine.weights.max_order + 1):
        _effects.snv_placements(flank, alt, k, *engine.weights.order(k), effect)
    bad = np.zeros((at.size, 2 * L), dtype=np.int64)
    np.cumsum(flank > 3, axis=1, out=bad[:, 1:])
    start = L - 1 - np.arange(L)  # window of placement c: flank[start : start + L]
    clean = (bad[:, start + L] - bad[:, start]) == 0
    strength = np.where(clean, np.abs(effect), -1.0)
    best = np.argmax(strength, axis=1)
    return np.where(clean.any(1), best, -1)


def _ordered(parts: list[ScoredChunk]) -> ScoredChunk:
    """Chunks joined, in row order."""
    parts = [p for p in parts if p.rows.size]
    if not parts:
        return _empty(0)
    rows = np.concatenate([p.rows for p in parts])
    order = np.argsort(rows, kind="stable")
    top = [t for p in parts for t in p.top]
    return ScoredChunk(
        rows[order],
        np.concatenate([p.ref_score for p in parts])[order],
        np.concatenate([p.alt_score for p in parts])[order],
        np.concatenate([p.effect for p in parts])[order],
        [top[i] for i in order],
        np.concatenate([p.R for p in parts])[order],
        np.concatenate([p.A for p in parts])[order],
        np.concatenate([p.anchor for p in parts])[order],
        np.concatenate([p.strongest for p in parts])[order],
    )
