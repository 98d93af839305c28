"""The variant null: effects of random SNVs in background windows; p, q and z.

For a model f and background windows W, the null is the distribution of
``f(w with one letter changed) - f(w)`` over random positions of W and random
alternative letters (`variant_null`). The SNVs are placed and scored exactly
as the variants are (`poimkit.variants.placement`): a position-free model
sees each at the centre of its window; a positional model sees it in its own
background window (at its column there, as a variant sits in its peak's
training window), or at its strongest placement when variants are placed so.

The background windows (`background_windows`) are, in order of preference,
the ones given, the run's own negatives (``negatives.bed`` beside
``model.npz`` in a run folder, or ``MODEL.negatives.bed`` beside a model
that ``train --bed`` wrote), or windows of the model's length drawn at random
from the genome, free of N.

A variant's two-sided empirical p-value is
``(1 + #{|null| >= |effect|}) / (1 + N)`` (`VariantNull.p_values`); its
q-value is Benjamini-Hochberg over the file (`q_values`); its z the effect
in standard deviations of the null.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from ..io.outdir import LAYOUT

if TYPE_CHECKING:
    from ..genome.peaks import Peaks
    from ..genome.reference import Genome

__all__ = [
    "DEFAULT_NULL",
    "NULL_WINDOWS",
    "STRONGEST_SHARE",
    "VariantNull",
    "background_windows",
    "floor_note",
    "pair_null",
    "q_values",
    "variant_null",
]

#: Random SNVs in the null by default.
DEFAULT_NULL = 100_000
#: Random genome windows drawn when no background windows are at hand.
NULL_WINDOWS = 2_000
#: The null of strongest placements has this many times fewer SNVs (each
#: costs a window's length of placements).
STRONGEST_SHARE = 10


@dataclass
class VariantNull:
    """The null distribution of effects, and what it was drawn from.

    Attributes
    ----------
    effects : numpy.ndarray of float64
        Effects of the random SNVs.
    source : str
        Where their windows came from, in words.
    """

    effects: np.ndarray
    source: str

    def p_values(self, effect: np.ndarray) -> np.ndarray:
        """Two-sided empirical p-values ``(1 + #{|null| >= |e|}) / (1 + N)``.

        Parameters
        ----------
        effect : numpy.ndarray
            Effects (NaN: not scored, p NaN).

        Returns
        -------
        numpy.ndarray
        """
        null = np.sort(np.abs(self.effects))
        effect = np.asarray(effect, dtype=float)
        p = np.full(effect.shape, np.nan)
        ok = ~np.isnan(effect)
        at_least = null.size - np.searchsorted(null, np.abs(effect[ok]), side="left")
        p[ok] = (1.0 + at_least) / (1.0 + null.size)
        return p

    def z_scores(self, effect: np.ndarray) -> np.ndarray:
        """Effects in standard deviations of the null, from its mean.

        Parameters
        ----------
        effect : numpy.ndarray

        Returns
        -------
        numpy.ndarray
        """
        sd = float(np.std(self.effects))
        centred = np.asarray(effect, dtype=float) - float(np.mean(self.effects))
        return centred / sd if sd > 0 else np.where(centred == 0, 0.0, np.inf)


def q_values(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg q-values of the finite p-values (NaN stays NaN).

    Parameters
    ----------
    p : numpy.ndarray

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> q_values(np.array([0.01, 0.04, np.nan, 0.03])).round(3).tolist()
    [0.03, 0.04, nan, 0.04]
    """
    p = np.asarray(p, dtype=float)
    q = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if not ok.size:
        return q
    order = ok[np.argsort(p[ok], kind="stable")]
    ranked = p[order] * ok.size / np.arange(1, ok.size + 1)
    q[order] = np.minimum(1.0, np.minimum.accumulate(ranked[::-1])[::-1])
    return q


def floor_note(n_null: int, n_tested: int, q: float) -> str:
    """Why no single variant can be called, if the null's p-value floor forbids it.

    The smallest p-value a null of ``n_null`` effects gives is ``1 / (1 +
    n_null)``; among ``n_tested`` variants, Benjamini-Hochberg reaches ``q`` at
    that floor only with ``floor * n_tested / q`` or more variants there.

    Parameters
    ----------
    n_null : int
        Effects in the null.
    n_tested : int
        Variants in the q-values' family.
    q : float
        The threshold.

    Returns
    -------
    str
        ``"; the smallest p-value ..."`` or "" when one variant can be called.

    Examples
    --------
    >>> floor_note(100_000, 6_000_000, 0.05)[:48]
    '; the smallest p-value the null gives is 1e-05, '
    >>> floor_note(100_000, 100, 0.05)
    ''
    """
    smallest = 1.0 / (1 + n_null)
    if smallest * n_tested <= q:
        return ""
    needed = math.ceil(smallest * n_tested / q - 1e-9)
    return (
        f"; the smallest p-value the null gives is {smallest:.2g}, so a call among "
        f"{n_tested:,} variants needs {needed:,} or more that strong: a larger "
        "--null sharpens the p-values"
    )


def beside_model(model_path: str | os.PathLike) -> Path | None:
    """The negatives BED a run or ``train --bed`` wrote with the model, if any.

    Parameters
    ----------
    model_path : str or path-like

    Returns
    -------
    pathlib.Path or None
    """
    model = Path(model_path)
    for candidate in (
        model.parent / f"{model.stem}.negatives.bed",
        model.parent / LAYOUT.negatives_bed,
    ):
        if candidate.is_file():
            return candidate
    return None


def background_windows(
    genome: Genome,
    length: int,
    path: str | os.PathLike | None = None,
    seed: int = 0,
    n: int = NULL_WINDOWS,
) -> tuple[Peaks, str]:
    """Background windows of ``length`` letters: from a BED file, or drawn.

    Parameters
    ----------
    genome : Genome
        The opened genome (`poimkit.genome.reference.open_genome`).
    length : int
        The model's window length.
    path : str or path-like, optional
        BED regions (their windows of ``length`` around each centre); None:
        ``n`` windows drawn at random, uniformly over the genome, free of N.
    seed : int
        Seed of the draw.
    n : int
        Windows to draw.

    Returns
    -------
    windows : Peaks
        In the genome's chromosomes, within their ends.
    source : str
        Where they came from, in words.

    Raises
    ------
    InputError
        For a BED file naming a chromosome the genome lacks, or no window.
    """
    from ..genome.peaks import check_chromosomes, read_peaks

    if path is not None:
        regions = read_peaks(os.fspath(path))
        check_chromosomes(regions, genome)
        windows = regions.windows(length)
        ends = np.array([genome.lengths[c] for c in windows.chrom], dtype=np.int64)
        inside = (windows.start >= 0) & (windows.end <= ends)
        if not inside.any():
            raise InputError(
                f"no background window of {length} letters fits the genome",
                path=os.fspath(path),
            )
        return windows.subset(inside), f"{inside.sum():,} windows of {path}"
    return _drawn(genome, length, seed, n), (
        f"{n:,} windows of {length} letters drawn at random from the genome"
    )


def _drawn(genome, length: int, seed: int, n: int):
    """``n`` random windows of the genome free of N (at most 20 n tries)."""
    from ..genome.peaks import Peaks

    rng = np.random.default_rng(seed)
    names = [c for c, size in genome.lengths.items() if size >= length]
    if not names:
        raise InputError(
            f"no chromosome holds a window of {length} letters", path=genome.path
        )
    sizes = np.array([genome.lengths[c] - length + 1 for c in names], dtype=float)
    chrom, start = [], []
    for _ in range(20):
        which = rng.choice(len(names), size=n, p=sizes / sizes.sum())
        for c in np.unique(which):
            codes = genome.codes(names[c])
            at = rng.integers(0, sizes[c], size=int((which == c).sum()))
            clean = ~(codes[at[:, None] + np.arange(length)] > 3).any(1)
            chrom += [names[c]] * int(clean.sum())
            start += at[clean].tolist()
        if len(start) >= n:
            break
    if not start:
        raise InputError("no window free of N in the genome", path=genome.path)
    start = np.array(start[:n], dtype=np.int64)
    k = start.size
    return Peaks(
        path="random genome windows",
        kind="bed6",
        chrom=chrom[:k],
        start=start,
        end=start + length,
        strand=np.full(k, "+"),
        summit=np.full(k, -1, dtype=np.int64),
        line=np.arange(1, k + 1),
        width=length,
    )


def variant_null(
    engine: Any,
    kind: str,
    genome: Genome,
    windows: Peaks,
    source: str,
    n: int = DEFAULT_NULL,
    seed: int = 0,
    progress: bool = False,
) -> VariantNull:
    """Effects of ``n`` random SNVs in ``windows``, placed as the variants are.

    Parameters
    ----------
    engine : object
        `poimkit.variants.effects.effect_engine` of the model.
    kind : {"centre", "regions", "strongest"}
        The variants' placement (`poimkit.variants.placement.Placement`);
        ``"regions"`` places each SNV in its own background window.
    genome : Genome
        The opened genome.
    windows : Peaks
        Background windows (`background_windows`).
    source : str
        Where they came from, in words.
    n : int
        Random SNVs (at least 1).
    seed : int
        Seed of the positions and letters.
    progress : bool
        A progress bar over the SNVs on standard error.

    Returns
    -------
    VariantNull
    """
    from tqdm.auto import tqdm

    from .placement import REGIONS, STRONGEST, Placement, scored_chunk

    rng = np.random.default_rng(seed)
    w = rng.integers(0, len(windows), size=n)
    offset = (rng.random(n) * (windows.end[w] - windows.start[w])).astype(np.int64)
    pos = windows.start[w] + offset
    shift = rng.integers(1, 4, size=n)
    chrom = np.asarray(windows.chrom, dtype=object)[w]
    placement = Placement.of(engine, windows) if kind == REGIONS else Placement(kind)
    letters = np.array(list("ACGT"))
    step = 4096 if kind == STRONGEST else 65536  # SNVs scored at once
    effects = []
    bar = tqdm(total=n, desc="null", unit="SNV", unit_scale=True, disable=not progress)
    with bar:
        for name in np.unique(chrom.astype(str)):
            at = np.flatnonzero(chrom == name)
            codes = genome.codes(name)
            ref = codes[pos[at]]
            letter = ref <= 3  # no SNV on an N
            good, ref = at[letter], ref[letter]
            alts = (ref + shift[good]) % 4
            bar.update(at.size - good.size)
            for s in range(0, good.size, step):
                part = slice(s, s + step)
                chunk, _ = scored_chunk(
                    engine,
                    placement,
                    codes,
                    name,
                    pos[good[part]],
                    letters[ref[part]].tolist(),
                    letters[alts[part]].tolist(),
                    good[part],
                    0,
                    scores=False,  # the effects alone
                )
                effects.append(chunk.effect)
                bar.update(good[part].size)
    effects = np.concatenate(effects) if effects else np.empty(0)
    if not effects.size:
        raise InputError("no random SNV of the null could be scored")
    return VariantNull(effects, source)


def pair_null(
    engine: Any, refs: list[np.ndarray], n: int, seed: int = 0
) -> VariantNull:
    """The null of sequence pairs: random SNVs in their reference sequences.

    Parameters
    ----------
    engine : object
        `poimkit.variants.effects.effect_engine` of the model.
    refs : list of numpy.ndarray of uint8
        The reference sequences (validated, no N).
    n : int
        Random SNVs.
    seed : int
        Seed of the positions and letters.

    Returns
    -------
    VariantNull
    """
    from .effects import pair_effects

    if not refs:
        raise InputError("no reference sequence to draw the null's SNVs from")
    rng = np.random.default_rng(seed)
    which = rng.integers(0, len(refs), size=n)
    effects = []
    for s in range(0, n, 16384):
        R, A, at = [], [], []
        for i in which[s : s + 16384]:
            x = refs[i]
            j = int(rng.integers(0, x.size))
            y = x.copy()
            y[j] = (y[j] + rng.integers(1, 4)) % 4
            R.append(x)
            A.append(y)
            at.append(j)
        fx = pair_effects(engine, R, A, np.array(at), 0, False)
        effects.append(np.asarray(fx.effect, dtype=float))
    source = f"random SNVs in the {len(refs):,} reference sequences given"
    return VariantNull(np.concatenate(effects), source)
