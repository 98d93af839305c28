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

__all__ = ["SyntheticGenome", "consensus_pwm", "write_synthetic_genome"]

#: the motif `write_synthetic_genome` plants by default (NFE2 / AP-1-like MARE half)
DEFAULT_MOTIF = "TGACTCAGCA"
#: spacing of the slots a peak or an off-peak motif site may take (one each)
SLOT = 2000
#: half-width of the region around a summit drawn again richer in GC
BOOST_HALF_WIDTH = 150
#: a column of `consensus_pwm` at least this likely is "high-information"
HIGH_INFORMATION = 0.85
_N = 4


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
    n_chromosomes = check_int(n_chromosomes, "n_chromosomes", 1)
    length = check_int(chromosome_length, "chromosome_length", 2 * SLOT)
    n_peaks = check_int(n_peaks, "n_peaks", 1)
    n_decoys = n_peaks // 10 if n_decoys is None else check_int(n_decoys, "n_decoys", 0)
    n_causal = check_int(n_causal, "n_causal", 0)
    n_neutral = check_int(n_neutral, "n_neutral", 0)
    n_indels = check_int(n_indels, "n_indels", 0)
    n_multiallelic = check_int(n_multiallelic, "n_multiallelic", 0)
    n_gap = check_int(n_gap, "n_gap", 0)
    line_width = check_int(line_width, "line_width", 1)
    seed = check_int(seed, "seed", 0)
    for name, value, low, high in (
        ("motif_fraction", motif_fraction, 0.0, 1.0),
        ("neutral_in_peaks", neutral_in_peaks, 0.0, 1.0),
        ("peak_gc_boost", peak_gc_boost, 0.0, 0.5),
        ("repeat_fraction", repeat_fraction, 0.0, 0.6),
        ("repeat_divergence", repeat_divergence, 0.0, 0.75),
        ("gc_bias", gc_bias, 0.0, 50.0),
    ):
        if not low <= float(value) <= high:
            raise InputError(f"{name} must be in {low}..{high}, got {value!r}")
    lo_gc, hi_gc = (float(v) for v in gc_range)
    if not 0.05 <= lo_gc <= hi_gc <= 0.95:
        raise InputError(
            f"gc_range must be two GC shares in 0.05..0.95, got {gc_range}"
        )
    lo_iso, hi_iso = (int(v) for v in isochore_length)
    if not SLOT <= lo_iso <= hi_iso:
        raise InputError(
            f"isochore_length must be two lengths of at least {SLOT}, got "
            f"{isochore_length}"
        )
    pwm = consensus_pwm(motif, conservation)
    m = pwm.shape[0]
    if m > SLOT // 4:
        raise InputError(f"the motif must be at most {SLOT // 4} letters, got {m}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    names = tuple(f"chr{i + 1}" for i in range(n_chromosomes))
    gap = min(n_gap, length // 20)

    # --- sequence: isochores, repeats, N runs --------------------------------
    codes: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    iso: list[tuple[int, int, int, float]] = []
    n_runs: list[tuple[int, int, int]] = []
    families = parts.repeat_families(rng)
    for c in range(n_chromosomes):
        bounds = parts.isochores(rng, length, lo_iso, hi_iso)
        gcs = rng.uniform(lo_gc, hi_gc, size=bounds.size - 1)
        iso += [
            (c, int(a), int(b), float(g))
            for a, b, g in zip(bounds[:-1], bounds[1:], gcs, strict=True)
        ]
        x = parts.draw_letters(rng, np.repeat(gcs, np.diff(bounds)))
        mask = parts.place_repeats(rng, x, families, repeat_fraction, repeat_divergence)
        if gap:
            inside = int(rng.integers(length // 3, 2 * length // 3 - gap))
            for a in (0, inside):
                x[a : a + gap] = _N
                mask[a : a + gap] = False
                n_runs.append((c, a, a + gap))
        codes.append(x)
        masks.append(mask)
    iso_arr = np.array(iso, dtype=object).reshape(-1, 4)
    iso_chrom_idx = iso_arr[:, 0].astype(np.int64)
    iso_start = iso_arr[:, 1].astype(np.int64)
    iso_end = iso_arr[:, 2].astype(np.int64)
    iso_gc = iso_arr[:, 3].astype(np.float64)

    # --- slots for peaks and off-peak sites ----------------------------------
    n_slots = length // SLOT
    slot_chrom = np.repeat(np.arange(n_chromosomes), n_slots)
    slot_start = np.tile(np.arange(n_slots) * SLOT, n_chromosomes)
    free = np.array(
        [
            not np.any(codes[c][s : s + SLOT] == _N)
            for c, s in zip(slot_chrom, slot_start, strict=True)
        ]
    )
    slot_gc = parts.gc_at(
        iso_chrom_idx, iso_start, iso_end, iso_gc, slot_chrom, slot_start + SLOT // 2
    )
    room = int(0.6 * free.sum())
    if n_peaks + n_decoys > room:
        raise InputError(
            f"{n_peaks} peaks and {n_decoys} off-peak sites need more room: "
            f"{n_chromosomes} chromosomes of {length} letters have {int(free.sum())} "
            f"free {SLOT}-letter slots, of which at most {room} may be taken; "
            "ask for fewer peaks or longer chromosomes"
        )
    weight = np.where(free, np.exp(gc_bias * (slot_gc - slot_gc[free].mean())), 0.0)
    peak_slots = rng.choice(
        slot_chrom.size, n_peaks, replace=False, p=weight / weight.sum()
    )
    peak_slots.sort()
    rest = np.flatnonzero(free)
    rest = rest[~np.isin(rest, peak_slots)]
    decoy_slots = np.sort(rng.choice(rest, n_decoys, replace=False))

    # --- peaks: summits, intervals, GC boost ---------------------------------
    centre = slot_start[peak_slots] + SLOT // 2
    summit = centre + rng.integers(-200, 201, size=n_peaks)
    left = rng.integers(80, 401, size=n_peaks)
    right = rng.integers(80, 401, size=n_peaks)
    p_chrom_idx = slot_chrom[peak_slots]
    p_start = (summit - left).astype(np.int64)
    p_end = (summit + right).astype(np.int64)
    for c, s, g in zip(p_chrom_idx, summit, slot_gc[peak_slots], strict=True):
        a, b = s - BOOST_HALF_WIDTH, s + BOOST_HALF_WIDTH
        keep = masks[c][a:b]
        fresh = parts.draw_letters(rng, np.full(b - a, min(0.8, g + peak_gc_boost)))
        codes[c][a:b] = np.where(keep, codes[c][a:b], fresh)
    has_motif = rng.random(n_peaks) < motif_fraction

    # --- sites: at motif-bearing summits, then off-peak ----------------------
    at_peak = np.flatnonzero(has_motif)
    s_chrom_idx = np.r_[p_chrom_idx[at_peak], slot_chrom[decoy_slots]].astype(np.int64)
    s_centre = np.r_[summit[at_peak], slot_start[decoy_slots] + SLOT // 2]
    s_start = (s_centre - m // 2 + rng.integers(-10, 11, size=s_centre.size)).astype(
        np.int64
    )
    s_minus = rng.random(s_centre.size) < 0.5
    s_peak = np.r_[at_peak, np.full(decoy_slots.size, -1)].astype(np.int64)
    letters = parts.sample_pwm(rng, pwm, s_centre.size)  # on the motif's strand
    for c, s, minus, row in zip(s_chrom_idx, s_start, s_minus, letters, strict=True):
        codes[c][s : s + m] = 3 - row[::-1] if minus else row
        masks[c][s : s + m] = False

    # --- variants ------------------------------------------------------------
    offsets = np.r_[0, np.cumsum([length] * n_chromosomes)].astype(np.int64)
    genome = np.concatenate(codes)
    forbidden = genome == _N
    for c, s in zip(s_chrom_idx, s_start, strict=True):
        forbidden[offsets[c] + s - 2 : offsets[c] + s + m + 2] = True
    # causal: one per chosen site at a summit, a high-information consensus letter
    strong = np.flatnonzero(pwm.max(axis=1) >= HIGH_INFORMATION)
    consensus = pwm.argmax(axis=1)
    candidates = np.flatnonzero(s_peak >= 0)
    chosen = np.sort(
        rng.choice(candidates, min(n_causal, candidates.size), replace=False)
    )
    c_pos, c_ref, c_alt, c_site = [], [], [], []
    for i in chosen:
        cols = strong[letters[i, strong] == consensus[strong]]
        if not cols.size:
            continue
        col = int(rng.choice(cols))
        alt = int((consensus[col] + rng.integers(1, 4)) % 4)
        at = s_start[i] + (m - 1 - col if s_minus[i] else col)
        ref_g, alt_g = (
            (3 - consensus[col], 3 - alt) if s_minus[i] else (consensus[col], alt)
        )
        c_pos.append(offsets[s_chrom_idx[i]] + at)
        c_ref.append(ref_g)
        c_alt.append(alt_g)
        c_site.append(i)
    c_pos_arr = np.array(c_pos, dtype=np.int64)
    # neutral positions: distinct, away from sites and N, some inside peaks
    n_in_peaks = int(round(neutral_in_peaks * n_neutral))
    n_any = n_neutral + n_indels + n_multiallelic - n_in_peaks
    taken = forbidden.copy()
    taken[c_pos_arr] = True
    peak_pos = parts.draw_free(
        rng,
        n_in_peaks,
        taken,
        lambda k: parts.in_intervals(
            rng, offsets[p_chrom_idx] + p_start, p_end - p_start, k
        ),
    )
    taken[peak_pos] = True
    any_pos = parts.draw_free(
        rng, n_any, taken, lambda k: rng.integers(0, genome.size, size=k)
    )
    kinds = np.zeros(n_any, dtype=np.int8)  # 0 SNV, 1 indel, 2 multi-allelic
    special = rng.choice(n_any, n_indels + n_multiallelic, replace=False)
    kinds[special[:n_indels]] = 1
    kinds[special[n_indels:]] = 2
    n_pos = np.r_[peak_pos, any_pos]
    n_kind = np.r_[np.zeros(peak_pos.size, dtype=np.int8), kinds]

    rows = parts.variant_rows(
        rng,
        genome,
        forbidden,
        c_pos_arr,
        np.array(c_ref),
        np.array(c_alt),
        n_pos,
        n_kind,
    )
    order = np.argsort(np.array([r[0] for r in rows], dtype=np.int64), kind="stable")
    width = len(str(len(rows)))
    chrom_of = (
        np.searchsorted(
            offsets, np.array([r[0] for r in rows], dtype=np.int64), side="right"
        )
        - 1
    )
    lines = []
    causal_ids: list[str] = []
    causal_site: list[int] = []
    neutral_ids: list[str] = []
    indel_ids: list[str] = []
    multi_ids: list[str] = []
    for number, k in enumerate(order, start=1):
        pos, ref, alt, kind, site = rows[k]
        vid = f"v{number:0{width}d}"
        c = int(chrom_of[k])
        lines.append(
            f"{names[c]}\t{pos - offsets[c] + 1}\t{vid}\t{ref}\t{alt}\t.\tPASS\t.\n"
        )
        if kind == "causal":
            causal_ids.append(vid)
            causal_site.append(c_site[site])
        else:
            neutral_ids.append(vid)
            if kind == "indel":
                indel_ids.append(vid)
            elif kind == "multi":
                multi_ids.append(vid)

    # --- files ---------------------------------------------------------------
    suffix = ".gz" if bgzip else ""
    fasta = folder / f"genome.fa{suffix}"
    vcf = folder / f"variants.vcf{suffix}"
    parts.write_fasta(fasta, names, codes, masks, line_width, bgzip)
    header = [
        "##fileformat=VCFv4.2\n",
        "##source=poimkit.datasets.write_synthetic_genome\n",
        f"##reference=file://{fasta.name}\n",
        *(f"##contig=<ID={n},length={length}>\n" for n in names),
        "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n",
    ]
    parts.write_text(vcf, "".join(header) + "".join(lines), bgzip)
    peak_names = [f"peak{i + 1}" for i in range(n_peaks)]
    score = np.where(
        has_motif, rng.integers(500, 1001, n_peaks), rng.integers(100, 600, n_peaks)
    )
    strand = np.where(rng.random(n_peaks) < 0.5, "+", "-")
    p_chrom = np.array(names)[p_chrom_idx]
    narrow, bed6, bed3 = [], [], []
    for i in range(n_peaks):
        head = f"{p_chrom[i]}\t{p_start[i]}\t{p_end[i]}"
        signal = score[i] / 50
        narrow.append(
            f"{head}\t{peak_names[i]}\t{score[i]}\t.\t{signal:.2f}\t{signal * 2:.2f}"
            f"\t{signal * 1.5:.2f}\t{summit[i] - p_start[i]}\n"
        )
        bed6.append(f"{head}\t{peak_names[i]}\t{score[i]}\t{strand[i]}\n")
        bed3.append(f"{head}\n")
    for name, body in (
        ("peaks.narrowPeak", narrow),
        ("peaks.bed6", bed6),
        ("peaks.bed3", bed3),
    ):
        parts.write_text(folder / name, "".join(body), False)

    counts = np.bincount(genome, minlength=5)[:4].astype(np.float64)
    unmasked = sum(int(x.size - np.count_nonzero(x == _N)) for x in codes)
    return SyntheticGenome(
        folder=folder,
        genome=fasta,
        peaks=folder / "peaks.narrowPeak",
        peaks_bed6=folder / "peaks.bed6",
        peaks_bed3=folder / "peaks.bed3",
        vcf=vcf,
        motif=motif.upper(),
        pwm=pwm,
        background=counts / counts.sum(),
        chromosomes=names,
        lengths=(length,) * n_chromosomes,
        isochore_chrom=np.array(names)[iso_chrom_idx],
        isochore_start=iso_start,
        isochore_end=iso_end,
        isochore_gc=iso_gc,
        mask_fraction=sum(int(k.sum()) for k in masks) / unmasked,
        n_runs=np.array(n_runs, dtype=np.int64).reshape(-1, 3),
        peak_chrom=p_chrom,
        peak_start=p_start,
        peak_end=p_end,
        peak_summit=summit.astype(np.int64),
        peak_strand=strand,
        peak_has_motif=has_motif,
        site_chrom=np.array(names)[s_chrom_idx],
        site_start=s_start,
        site_strand=np.where(s_minus, "-", "+"),
        site_peak=s_peak,
        causal_ids=tuple(causal_ids),
        neutral_ids=tuple(neutral_ids),
        causal_site=np.array(causal_site, dtype=np.int64),
        indel_ids=tuple(indel_ids),
        multiallelic_ids=tuple(multi_ids),
    )
