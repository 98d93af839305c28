"""A synthetic genome with peaks, planted motif sites and variants (seeded).

`write_synthetic_genome` writes a small genome that has what the genome
workflow meets in real data, and what was planted in it:

* several chromosomes, each a run of GC isochores (blocks of tens of kb whose
  letters are drawn with their own GC content);
* soft-masked repeats: copies of a few repeat families (random fragments,
  either strand, with point mutations), written in lowercase;
* runs of ``N``: a gap at every chromosome start and one inside;
* peaks placed where the GC is high (isochores picked with weight
  ``exp(gc_bias * (gc - mean))``, the letters around the summit drawn again
  ``peak_gc_boost`` richer in GC), most of them with a motif site drawn from
  `consensus_pwm` at the summit, on either strand; some motif sites outside
  the peaks;
* a VCF: causal SNVs, each changing the consensus letter of a
  high-information column of a planted site at a summit, among neutral SNVs
  away from every planted site (some inside peaks, most anywhere), a few
  short indels and multi-allelic lines; REF always agrees with the genome.

The files: ``genome.fa`` (or ``genome.fa.gz``, bgzip), ``peaks.narrowPeak``
(column 10: the summit's offset from the start), ``peaks.bed6``,
``peaks.bed3`` and ``variants.vcf`` (``variants.vcf.gz``); `SyntheticGenome`
holds their paths and the truth.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._validation import check_int
from ..errors import InputError
from . import _genome_parts as parts
from . import _genome_steps as steps
from ._genome_steps import BOOST_HALF_WIDTH as BOOST_HALF_WIDTH
from ._genome_steps import HIGH_INFORMATION as HIGH_INFORMATION
from ._genome_steps import N_CODE, SLOT

__all__ = ["SyntheticGenome", "consensus_pwm", "write_synthetic_genome"]

#: the motif `write_synthetic_genome` plants by default (NFE2 / AP-1-like MARE half)
DEFAULT_MOTIF = "TGACTCAGCA"


@dataclass(frozen=True, eq=False)
class SyntheticGenome:
    """The files `write_synthetic_genome` wrote and what was planted in them.

    Coordinates are 0-based (half-open for intervals); chromosome-wise arrays
    of one kind share their order.

    Attributes
    ----------
    folder : pathlib.Path
        Where the files are.
    genome : pathlib.Path
        FASTA (``genome.fa``, or ``genome.fa.gz`` compressed with bgzip).
    peaks : pathlib.Path
        narrowPeak (10 columns; strand ``.``; column 10 the summit offset).
    peaks_bed6 : pathlib.Path
        The peaks as BED6 (name, score, strand ``+`` or ``-`` drawn at random).
    peaks_bed3 : pathlib.Path
        The peaks as BED3.
    vcf : pathlib.Path
        VCF 4.2 (``variants.vcf`` or ``variants.vcf.gz``, bgzip).
    motif : str
        Consensus of the planted motif.
    pwm : numpy.ndarray of float64, shape (m, 4)
        The distribution the site letters were drawn from (`consensus_pwm`).
    background : numpy.ndarray of float64, shape (4,)
        Letter frequencies (A, C, G, T) of the genome, ``N`` not counted.
    chromosomes : tuple of str
        Names, in file order.
    lengths : tuple of int
        Their lengths.
    isochore_chrom, isochore_start, isochore_end, isochore_gc : numpy.ndarray
        The GC blocks and their target GC (before repeats, peaks and sites).
    mask_fraction : float
        Share of the non-``N`` letters written in lowercase.
    n_runs : numpy.ndarray of int64, shape (r, 3)
        ``(chromosome index, start, end)`` of every run of ``N``.
    peak_chrom : numpy.ndarray of str
    peak_start, peak_end, peak_summit : numpy.ndarray of int64
        Peak intervals and the absolute summit position.
    peak_strand : numpy.ndarray of str
        The strand written in the BED6 file.
    peak_has_motif : numpy.ndarray of bool
        Whether a site was planted at the peak's summit.
    site_chrom : numpy.ndarray of str
    site_start : numpy.ndarray of int64
        First position of each planted site (the motif's first letter on
        ``+``, its last on ``-``).
    site_strand : numpy.ndarray of str
        ``+`` or ``-``.
    site_peak : numpy.ndarray of int64
        Index of the peak a site is at, or -1 for the sites outside peaks.
    causal_ids, neutral_ids : tuple of str
        VCF ids of the motif-destroying SNVs and of every other line
        (neutral SNVs, indels, multi-allelic lines).
    causal_site : numpy.ndarray of int64
        For each causal id, the index of the site it hits.
    indel_ids, multiallelic_ids : tuple of str
        The indel and multi-allelic lines (all among the neutral ids).
    """

    folder: Path
    genome: Path
    peaks: Path
    peaks_bed6: Path
    peaks_bed3: Path
    vcf: Path
    motif: str
    pwm: np.ndarray
    background: np.ndarray
    chromosomes: tuple[str, ...]
    lengths: tuple[int, ...]
    isochore_chrom: np.ndarray
    isochore_start: np.ndarray
    isochore_end: np.ndarray
    isochore_gc: np.ndarray
    mask_fraction: float
    n_runs: np.ndarray
    peak_chrom: np.ndarray
    peak_start: np.ndarray
    peak_end: np.ndarray
    peak_summit: np.ndarray
    peak_strand: np.ndarray
    peak_has_motif: np.ndarray
    site_chrom: np.ndarray
    site_start: np.ndarray
    site_strand: np.ndarray
    site_peak: np.ndarray
    causal_ids: tuple[str, ...]
    neutral_ids: tuple[str, ...]
    causal_site: np.ndarray
    indel_ids: tuple[str, ...]
    multiallelic_ids: tuple[str, ...]

    @property
    def n_peaks(self) -> int:
        """Number of peaks."""
        return int(self.peak_start.size)

    def log_odds(self) -> np.ndarray:
        """Natural log-odds of `pwm` against `background`, shape (m, 4).

        The PWM-scan oracle scores a sequence by its best window on either
        strand with these weights.
        """
        return np.log(self.pwm / self.background)


def consensus_pwm(
    motif: str, conservation: float | Sequence[float] | None = None
) -> np.ndarray:
    """A PWM from a consensus: each column's letter with a given probability.

    Parameters
    ----------
    motif : str
        Consensus over ``ACGT`` (any case).
    conservation : float, sequence of float or None
        Probability of the consensus letter, per column or one for all (each
        in 0.25..1); the three other letters share the rest equally. Default:
        0.6 in the first and last column, 0.94 in the others.

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
        Rows sum to 1 (columns A, C, G, T).

    Examples
    --------
    >>> consensus_pwm("GA", 0.7).round(2).tolist()
    [[0.1, 0.1, 0.7, 0.1], [0.7, 0.1, 0.1, 0.1]]
    """
    codes = parts.motif_codes(motif)
    m = codes.size
    if conservation is None:
        p = np.full(m, 0.94)
        p[[0, -1]] = 0.6
    else:
        p = np.broadcast_to(np.asarray(conservation, dtype=np.float64), (m,)).copy()
    if not np.all((p >= 0.25) & (p <= 1.0)):
        raise InputError(
            f"conservation must be in 0.25..1 for each of the {m} columns, "
            f"got {np.asarray(conservation).tolist()}"
        )
    pwm = np.repeat(((1 - p) / 3)[:, None], 4, axis=1)
    pwm[np.arange(m), codes] = p
    return pwm


def write_synthetic_genome(
    folder: str | os.PathLike,
    *,
    n_chromosomes: int = 3,
    chromosome_length: int = 200_000,
    n_peaks: int = 60,
    motif: str = DEFAULT_MOTIF,
    conservation: float | Sequence[float] | None = None,
    motif_fraction: float = 0.9,
    n_decoys: int | None = None,
    n_causal: int = 40,
    n_neutral: int = 1000,
    neutral_in_peaks: float = 0.1,
    n_indels: int = 10,
    n_multiallelic: int = 3,
    gc_range: tuple[float, float] = (0.35, 0.60),
    isochore_length: tuple[int, int] = (20_000, 80_000),
    gc_bias: float = 8.0,
    peak_gc_boost: float = 0.1,
    repeat_fraction: float = 0.2,
    repeat_divergence: float = 0.1,
    n_gap: int = 5000,
    seed: int = 0,
    bgzip: bool = False,
    line_width: int = 60,
) -> SyntheticGenome:
    """Write a seeded synthetic genome, peaks and a VCF into ``folder``.

    Parameters
    ----------
    folder : str or path-like
        Output directory (created if missing); the files are replaced.
    n_chromosomes : int
        Chromosomes ``chr1`` .. ``chrN``.
    chromosome_length : int
        Letters per chromosome.
    n_peaks : int
        Peaks, one per 2 kb slot (`SLOT`), taken with the GC-biased weights;
        with the off-peak sites they may take at most 60 % of the slots free
        of ``N``.
    motif : str
        Consensus of the planted motif (default an NFE2 / AP-1-like 10-mer).
    conservation : float, sequence of float or None
        Of the PWM the site letters are drawn from (`consensus_pwm`).
    motif_fraction : float
        Share of the peaks with a site at the summit (start within 10 of
        ``summit - m // 2``; strand ``+`` or ``-`` at random).
    n_decoys : int or None
        Sites outside the peaks (in slots of their own). Default
        ``n_peaks // 10``.
    n_causal : int
        Causal SNVs (at most one per site at a summit; fewer if there are
        fewer such sites): the consensus letter of a column with probability
        at least `HIGH_INFORMATION` replaced by another letter.
    n_neutral : int
        Neutral SNVs: at distinct positions, none within 2 letters of a
        planted site, none on an ``N``.
    neutral_in_peaks : float
        Share of the neutral SNVs drawn inside peaks (the rest anywhere).
    n_indels : int
        Neutral indels of 1-3 letters (deletions, or insertions where a
        deletion would touch an ``N`` or a site), VCF-style with an anchor
        letter.
    n_multiallelic : int
        Neutral SNV lines with two ALT letters.
    gc_range : (float, float)
        Isochore GC drawn uniformly in this range.
    isochore_length : (int, int)
        Isochore lengths drawn uniformly in this range (the last one of a
        chromosome is cut at its end).
    gc_bias : float
        Peak slots are taken with weight ``exp(gc_bias * (gc - mean gc))``
        of their isochore's GC.
    peak_gc_boost : float
        Unmasked letters within `BOOST_HALF_WIDTH` of a summit are drawn
        again with the isochore's GC plus this (at most 0.8).
    repeat_fraction : float
        Share of each chromosome covered by repeat copies (soft-masked).
    repeat_divergence : float
        Share of the letters of the copies replaced by a random letter.
    n_gap : int
        Length of the ``N`` run at each chromosome start and of the one
        inside (at most a twentieth of the chromosome).
    seed : int
        Everything is drawn from ``numpy.random.default_rng(seed)``.
    bgzip : bool
        Write ``genome.fa.gz`` and ``variants.vcf.gz`` in BGZF (readable by
        pyfaidx, samtools, tabix) instead of plain text.
    line_width : int
        FASTA letters per line.

    Returns
    -------
    SyntheticGenome
        Paths and truth.

    Raises
    ------
    InputError
        For a motif that is not DNA, out-of-range arguments, or more peaks
        and sites than the chromosomes have room for.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     g = write_synthetic_genome(folder, n_peaks=20, n_neutral=50)
    ...     sorted(p.name for p in Path(folder).iterdir())
    ['genome.fa', 'peaks.bed3', 'peaks.bed6', 'peaks.narrowPeak', 'variants.vcf']
    >>> g.chromosomes, g.n_peaks, len(g.causal_ids) == int(g.peak_has_motif.sum())
    (('chr1', 'chr2', 'chr3'), 20, True)
    """
    given = dict(locals())  # the arguments, before any other name
    recipe = _checked_recipe({k: v for k, v in given.items() if k != "folder"})
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(recipe.seed)
    chromosomes = steps.draw_chromosomes(rng, recipe)
    slots = steps.choose_slots(rng, recipe, chromosomes)
    peaks = steps.place_peaks(rng, recipe, chromosomes, slots)
    sites = steps.plant_sites(rng, recipe, chromosomes, slots, peaks)
    variants = steps.draw_variants(rng, recipe, chromosomes, peaks, sites)
    fasta, vcf = steps.write_sequence_files(folder, recipe, chromosomes, variants)
    strand = steps.write_peak_files(rng, folder, recipe, peaks)
    return SyntheticGenome(
        folder=folder,
        genome=fasta,
        peaks=folder / "peaks.narrowPeak",
        peaks_bed6=folder / "peaks.bed6",
        peaks_bed3=folder / "peaks.bed3",
        vcf=vcf,
        peak_strand=strand,
        **_planted(recipe, chromosomes, peaks, sites, variants),
    )


def _checked_recipe(given: dict) -> steps.Recipe:
    """The arguments of `write_synthetic_genome` but ``folder``, checked: a recipe."""
    g = dict(given)
    for name, least in (
        *(("n_chromosomes", 1), ("n_peaks", 1), ("line_width", 1), ("seed", 0)),
        *(("n_causal", 0), ("n_neutral", 0), ("n_indels", 0), ("n_multiallelic", 0)),
    ):
        g[name] = check_int(g[name], name, least)
    length = check_int(g.pop("chromosome_length"), "chromosome_length", 2 * SLOT)
    decoys = g["n_decoys"]
    g["n_decoys"] = (
        g["n_peaks"] // 10 if decoys is None else check_int(decoys, "n_decoys", 0)
    )
    for name, low, high in (
        ("motif_fraction", 0.0, 1.0),
        ("neutral_in_peaks", 0.0, 1.0),
        ("peak_gc_boost", 0.0, 0.5),
        ("repeat_fraction", 0.0, 0.6),
        ("repeat_divergence", 0.0, 0.75),
        ("gc_bias", 0.0, 50.0),
    ):
        if not low <= float(g[name]) <= high:
            raise InputError(f"{name} must be in {low}..{high}, got {g[name]!r}")
    g["gc_range"] = lo_gc, hi_gc = tuple(float(v) for v in g["gc_range"])
    if not 0.05 <= lo_gc <= hi_gc <= 0.95:
        raise InputError(
            f"gc_range must be two GC shares in 0.05..0.95, got {given['gc_range']}"
        )
    g["isochore_length"] = lo_iso, hi_iso = tuple(int(v) for v in g["isochore_length"])
    if not SLOT <= lo_iso <= hi_iso:
        raise InputError(
            f"isochore_length must be two lengths of at least {SLOT}, got "
            f"{given['isochore_length']}"
        )
    pwm = consensus_pwm(g["motif"], g.pop("conservation"))
    if pwm.shape[0] > SLOT // 4:
        raise InputError(
            f"the motif must be at most {SLOT // 4} letters, got {pwm.shape[0]}"
        )
    gap = min(check_int(g.pop("n_gap"), "n_gap", 0), length // 20)
    return steps.Recipe(length=length, pwm=pwm, gap=gap, **g)


def _planted(
    recipe: steps.Recipe,
    chromosomes: steps.Chromosomes,
    peaks: steps.Peaks,
    sites: steps.Sites,
    variants: steps.Variants,
) -> dict[str, object]:
    """What was drawn and planted: the `SyntheticGenome` fields but the files'."""
    names = np.array(recipe.names)
    codes, masks = chromosomes.codes, chromosomes.masks
    counts = np.bincount(np.concatenate(codes), minlength=5)[:4].astype(np.float64)
    unmasked = sum(int(x.size - np.count_nonzero(x == N_CODE)) for x in codes)
    return {
        "motif": recipe.motif.upper(),
        "pwm": recipe.pwm,
        "background": counts / counts.sum(),
        "chromosomes": recipe.names,
        "lengths": (recipe.length,) * recipe.n_chromosomes,
        "isochore_chrom": names[chromosomes.iso_chrom],
        "isochore_start": chromosomes.iso_start,
        "isochore_end": chromosomes.iso_end,
        "isochore_gc": chromosomes.iso_gc,
        "mask_fraction": sum(int(k.sum()) for k in masks) / unmasked,
        "n_runs": chromosomes.n_runs,
        "peak_chrom": names[peaks.chrom],
        "peak_start": peaks.start,
        "peak_end": peaks.end,
        "peak_summit": peaks.summit.astype(np.int64),
        "peak_has_motif": peaks.has_motif,
        "site_chrom": names[sites.chrom],
        "site_start": sites.start,
        "site_strand": np.where(sites.minus, "-", "+"),
        "site_peak": sites.peak,
        "causal_ids": tuple(variants.causal_ids),
        "neutral_ids": tuple(variants.neutral_ids),
        "causal_site": np.array(variants.causal_site, dtype=np.int64),
        "indel_ids": tuple(variants.indel_ids),
        "multiallelic_ids": tuple(variants.multi_ids),
    }
