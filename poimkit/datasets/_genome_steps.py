"""The steps of `poimkit.datasets.genome.write_synthetic_genome`, in order.

`draw_chromosomes` draws the letters (GC isochores, soft-masked repeats, runs
of ``N``), `choose_slots` the slots of the peaks and of the off-peak sites,
`place_peaks` the peaks (the letters around each summit drawn again richer in
GC), `plant_sites` the motif sites, `draw_variants` the VCF's lines, and
`write_sequence_files` and `write_peak_files` the files. Each step draws from
the one generator in this order, so one seed gives the same files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import InputError
from . import _genome_parts as parts

#: spacing of the slots a peak or an off-peak motif site may take (one each)
SLOT = 2000
#: half-width of the region around a summit drawn again richer in GC
BOOST_HALF_WIDTH = 150
#: a column of `consensus_pwm` at least this likely is "high-information"
HIGH_INFORMATION = 0.85
#: the letter code of ``N``
N_CODE = 4


@dataclass(frozen=True)
class Recipe:
    """The checked arguments of `write_synthetic_genome` (see its Parameters)."""

    n_chromosomes: int
    length: int
    n_peaks: int
    motif: str
    pwm: np.ndarray
    motif_fraction: float
    n_decoys: int
    n_causal: int
    n_neutral: int
    neutral_in_peaks: float
    n_indels: int
    n_multiallelic: int
    gc_range: tuple[float, float]
    isochore_length: tuple[int, int]
    gc_bias: float
    peak_gc_boost: float
    repeat_fraction: float
    repeat_divergence: float
    gap: int
    seed: int
    bgzip: bool
    line_width: int

    @property
    def names(self) -> tuple[str, ...]:
        """Chromosome names, ``chr1`` .. ``chrN``."""
        return tuple(f"chr{i + 1}" for i in range(self.n_chromosomes))


@dataclass(frozen=True)
class Chromosomes:
    """Codes and soft-masks (later steps write into them), isochores, ``N`` runs."""

    codes: list[np.ndarray]
    masks: list[np.ndarray]
    iso_chrom: np.ndarray
    iso_start: np.ndarray
    iso_end: np.ndarray
    iso_gc: np.ndarray
    n_runs: np.ndarray


@dataclass(frozen=True)
class Slots:
    """Chromosome index, start and isochore GC of every slot; those taken."""

    chrom: np.ndarray
    start: np.ndarray
    gc: np.ndarray
    peak: np.ndarray
    decoy: np.ndarray


@dataclass(frozen=True)
class Peaks:
    """Chromosome index, interval and summit of each peak; whether it has a site."""

    chrom: np.ndarray
    start: np.ndarray
    end: np.ndarray
    summit: np.ndarray
    has_motif: np.ndarray


@dataclass(frozen=True)
class Sites:
    """Planted sites: chromosome index, start, strand, peak (-1: none), letters."""

    chrom: np.ndarray
    start: np.ndarray
    minus: np.ndarray
    peak: np.ndarray
    letters: np.ndarray


@dataclass(frozen=True)
class Variants:
    """The VCF's data lines and the ids of each kind (causal with their site)."""

    lines: list[str]
    causal_ids: list[str]
    causal_site: list[int]
    neutral_ids: list[str]
    indel_ids: list[str]
    multi_ids: list[str]


def draw_chromosomes(rng: np.random.Generator, recipe: Recipe) -> Chromosomes:
    """Step 1: GC isochores, soft-masked repeat copies and ``N`` runs."""
    codes: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    iso: list[tuple[int, int, int, float]] = []
    n_runs: list[tuple[int, int, int]] = []
    families = parts.repeat_families(rng)
    for c in range(recipe.n_chromosomes):
        bounds, gcs, x = _isochore_letters(rng, recipe)
        iso += [
            (c, int(a), int(b), float(g))
            for a, b, g in zip(bounds[:-1], bounds[1:], gcs, strict=True)
        ]
        mask = parts.place_repeats(
            rng, x, families, recipe.repeat_fraction, recipe.repeat_divergence
        )
        n_runs += [(c, a, b) for a, b in _write_gaps(rng, recipe, x, mask)]
        codes.append(x)
        masks.append(mask)
    iso_arr = np.array(iso, dtype=object).reshape(-1, 4)
    return Chromosomes(
        codes,
        masks,
        iso_arr[:, 0].astype(np.int64),
        iso_arr[:, 1].astype(np.int64),
        iso_arr[:, 2].astype(np.int64),
        iso_arr[:, 3].astype(np.float64),
        np.array(n_runs, dtype=np.int64).reshape(-1, 3),
    )


def _isochore_letters(
    rng: np.random.Generator, recipe: Recipe
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Isochore bounds and GC of one chromosome, and its letters drawn with them."""
    bounds = parts.isochores(rng, recipe.length, *recipe.isochore_length)
    gcs = rng.uniform(*recipe.gc_range, size=bounds.size - 1)
    return bounds, gcs, parts.draw_letters(rng, np.repeat(gcs, np.diff(bounds)))


def _write_gaps(
    rng: np.random.Generator, recipe: Recipe, x: np.ndarray, mask: np.ndarray
) -> list[tuple[int, int]]:
    """Write the ``N`` runs (at the start and one inside) into ``x``; their bounds."""
    gap, length = recipe.gap, recipe.length
    if not gap:
        return []
    inside = int(rng.integers(length // 3, 2 * length // 3 - gap))
    for a in (0, inside):
        x[a : a + gap] = N_CODE
        mask[a : a + gap] = False
    return [(0, gap), (inside, inside + gap)]


def choose_slots(
    rng: np.random.Generator, recipe: Recipe, chromosomes: Chromosomes
) -> Slots:
    """Step 2: slots free of ``N``; peaks GC-biased among them, decoys in the rest."""
    n_slots = recipe.length // SLOT
    n_chromosomes = recipe.n_chromosomes
    slot_chrom = np.repeat(np.arange(n_chromosomes), n_slots)
    slot_start = np.tile(np.arange(n_slots) * SLOT, n_chromosomes)
    codes = chromosomes.codes
    free = np.array(
        [
            not np.any(codes[c][s : s + SLOT] == N_CODE)
            for c, s in zip(slot_chrom, slot_start, strict=True)
        ]
    )
    slot_gc = parts.gc_at(
        chromosomes.iso_chrom,
        chromosomes.iso_start,
        chromosomes.iso_end,
        chromosomes.iso_gc,
        slot_chrom,
        slot_start + SLOT // 2,
    )
    _check_room(recipe, free)
    shift = slot_gc - slot_gc[free].mean()
    weight = np.where(free, np.exp(recipe.gc_bias * shift), 0.0)
    peak_slots = rng.choice(
        slot_chrom.size, recipe.n_peaks, replace=False, p=weight / weight.sum()
    )
    peak_slots.sort()
    rest = np.flatnonzero(free)
    rest = rest[~np.isin(rest, peak_slots)]
    decoy_slots = np.sort(rng.choice(rest, recipe.n_decoys, replace=False))
    return Slots(slot_chrom, slot_start, slot_gc, peak_slots, decoy_slots)


def _check_room(recipe: Recipe, free: np.ndarray) -> None:
    """Refuse more peaks and sites than 60 % of the free slots."""
    room = int(0.6 * free.sum())
    if recipe.n_peaks + recipe.n_decoys > room:
        raise InputError(
            f"{recipe.n_peaks} peaks and {recipe.n_decoys} off-peak sites need more "
            f"room: {recipe.n_chromosomes} chromosomes of {recipe.length} letters "
            f"have {int(free.sum())} free {SLOT}-letter slots, of which at most "
            f"{room} may be taken; ask for fewer peaks or longer chromosomes"
        )


def place_peaks(
    rng: np.random.Generator, recipe: Recipe, chromosomes: Chromosomes, slots: Slots
) -> Peaks:
    """Step 3: summits near the slot centres, intervals, GC boost, site or not."""
    n_peaks = recipe.n_peaks
    centre = slots.start[slots.peak] + SLOT // 2
    summit = centre + rng.integers(-200, 201, size=n_peaks)
    left = rng.integers(80, 401, size=n_peaks)
    right = rng.integers(80, 401, size=n_peaks)
    chrom = slots.chrom[slots.peak]
    for c, s, g in zip(chrom, summit, slots.gc[slots.peak], strict=True):
        _boost_gc(rng, chromosomes, c, s, min(0.8, g + recipe.peak_gc_boost))
    has_motif = rng.random(n_peaks) < recipe.motif_fraction
    return Peaks(
        chrom,
        (summit - left).astype(np.int64),
        (summit + right).astype(np.int64),
        summit,
        has_motif,
    )


def _boost_gc(
    rng: np.random.Generator, chromosomes: Chromosomes, c: int, s: int, gc: float
) -> None:
    """Draw the unmasked letters around summit ``s`` again with GC ``gc``."""
    a, b = s - BOOST_HALF_WIDTH, s + BOOST_HALF_WIDTH
    codes = chromosomes.codes[c]
    keep = chromosomes.masks[c][a:b]
    fresh = parts.draw_letters(rng, np.full(b - a, gc))
    codes[a:b] = np.where(keep, codes[a:b], fresh)


def plant_sites(
    rng: np.random.Generator,
    recipe: Recipe,
    chromosomes: Chromosomes,
    slots: Slots,
    peaks: Peaks,
) -> Sites:
    """Step 4: a site at each motif-bearing summit, then one per decoy slot."""
    pwm = recipe.pwm
    m = pwm.shape[0]
    at_peak = np.flatnonzero(peaks.has_motif)
    decoy = slots.decoy
    chrom = np.r_[peaks.chrom[at_peak], slots.chrom[decoy]].astype(np.int64)
    centre = np.r_[peaks.summit[at_peak], slots.start[decoy] + SLOT // 2]
    jitter = rng.integers(-10, 11, size=centre.size)
    start = (centre - m // 2 + jitter).astype(np.int64)
    minus = rng.random(centre.size) < 0.5
    peak = np.r_[at_peak, np.full(decoy.size, -1)].astype(np.int64)
    letters = parts.sample_pwm(rng, pwm, centre.size)  # on the motif's strand
    for c, s, is_minus, row in zip(chrom, start, minus, letters, strict=True):
        chromosomes.codes[c][s : s + m] = 3 - row[::-1] if is_minus else row
        chromosomes.masks[c][s : s + m] = False
    return Sites(chrom, start, minus, peak, letters)


def draw_variants(
    rng: np.random.Generator,
    recipe: Recipe,
    chromosomes: Chromosomes,
    peaks: Peaks,
    sites: Sites,
) -> Variants:
    """Step 5: causal SNVs in sites, neutral variants away from them; VCF lines."""
    m = recipe.pwm.shape[0]
    offsets = np.r_[0, np.cumsum([recipe.length] * recipe.n_chromosomes)]
    offsets = offsets.astype(np.int64)
    genome = np.concatenate(chromosomes.codes)
    forbidden = genome == N_CODE
    for c, s in zip(sites.chrom, sites.start, strict=True):
        forbidden[offsets[c] + s - 2 : offsets[c] + s + m + 2] = True
    c_pos, c_ref, c_alt, c_site = _causal_snvs(rng, recipe, sites, offsets)
    n_pos, n_kind = _neutral_positions(
        rng, recipe, peaks, offsets, forbidden, c_pos, genome.size
    )
    rows = parts.variant_rows(
        rng,
        genome,
        forbidden,
        c_pos,
        np.array(c_ref),
        np.array(c_alt),
        n_pos,
        n_kind,
    )
    return _vcf_records(rows, offsets, recipe.names, c_site)


def _causal_snvs(
    rng: np.random.Generator, recipe: Recipe, sites: Sites, offsets: np.ndarray
) -> tuple[np.ndarray, list, list, list[int]]:
    """Position, REF, ALT (genome strand) and site of each motif-destroying SNV."""
    pwm = recipe.pwm
    m = pwm.shape[0]
    strong = np.flatnonzero(pwm.max(axis=1) >= HIGH_INFORMATION)
    consensus = pwm.argmax(axis=1)
    candidates = np.flatnonzero(sites.peak >= 0)
    chosen = np.sort(
        rng.choice(candidates, min(recipe.n_causal, candidates.size), replace=False)
    )
    c_pos, c_ref, c_alt, c_site = [], [], [], []
    for i in chosen:
        cols = strong[sites.letters[i, strong] == consensus[strong]]
        if not cols.size:
            continue
        col = int(rng.choice(cols))
        alt = int((consensus[col] + rng.integers(1, 4)) % 4)
        minus = sites.minus[i]
        at = sites.start[i] + (m - 1 - col if minus else col)
        ref_g, alt_g = (3 - consensus[col], 3 - alt) if minus else (consensus[col], alt)
        c_pos.append(offsets[sites.chrom[i]] + at)
        c_ref.append(ref_g)
        c_alt.append(alt_g)
        c_site.append(i)
    return np.array(c_pos, dtype=np.int64), c_ref, c_alt, c_site


def _neutral_positions(
    rng: np.random.Generator,
    recipe: Recipe,
    peaks: Peaks,
    offsets: np.ndarray,
    forbidden: np.ndarray,
    c_pos: np.ndarray,
    size: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct positions away from sites and ``N``, some in peaks; their kinds."""
    n_in_peaks = int(round(recipe.neutral_in_peaks * recipe.n_neutral))
    n_indels, n_multi = recipe.n_indels, recipe.n_multiallelic
    n_any = recipe.n_neutral + n_indels + n_multi - n_in_peaks
    taken = forbidden.copy()
    taken[c_pos] = True
    peak_start = offsets[peaks.chrom] + peaks.start
    peak_size = peaks.end - peaks.start
    peak_pos = parts.draw_free(
        rng,
        n_in_peaks,
        taken,
        lambda k: parts.in_intervals(rng, peak_start, peak_size, k),
    )
    taken[peak_pos] = True
    any_pos = parts.draw_free(rng, n_any, taken, lambda k: rng.integers(0, size, k))
    kinds = np.zeros(n_any, dtype=np.int8)  # 0 SNV, 1 indel, 2 multi-allelic
    special = rng.choice(n_any, n_indels + n_multi, replace=False)
    kinds[special[:n_indels]] = 1
    kinds[special[n_indels:]] = 2
    n_kind = np.r_[np.zeros(peak_pos.size, dtype=np.int8), kinds]
    return np.r_[peak_pos, any_pos], n_kind


def _vcf_records(
    rows: list, offsets: np.ndarray, names: tuple[str, ...], c_site: list[int]
) -> Variants:
    """The rows as VCF lines sorted by position, with ids ``v1``.. by kind."""
    where = np.array([r[0] for r in rows], dtype=np.int64)
    order = np.argsort(where, kind="stable")
    width = len(str(len(rows)))
    chrom_of = np.searchsorted(offsets, where, side="right") - 1
    out = Variants([], [], [], [], [], [])
    for number, k in enumerate(order, start=1):
        pos, ref, alt, kind, site = rows[k]
        vid = f"v{number:0{width}d}"
        c = int(chrom_of[k])
        out.lines.append(
            f"{names[c]}\t{pos - offsets[c] + 1}\t{vid}\t{ref}\t{alt}\t.\tPASS\t.\n"
        )
        if kind == "causal":
            out.causal_ids.append(vid)
            out.causal_site.append(c_site[site])
        else:
            out.neutral_ids.append(vid)
            if kind == "indel":
                out.indel_ids.append(vid)
            elif kind == "multi":
                out.multi_ids.append(vid)
    return out


def write_sequence_files(
    folder: Path, recipe: Recipe, chromosomes: Chromosomes, variants: Variants
) -> tuple[Path, Path]:
    """Step 6: the FASTA and the VCF (bgzip or plain); their paths."""
    suffix = ".gz" if recipe.bgzip else ""
    fasta = folder / f"genome.fa{suffix}"
    vcf = folder / f"variants.vcf{suffix}"
    names = recipe.names
    parts.write_fasta(
        fasta,
        names,
        chromosomes.codes,
        chromosomes.masks,
        recipe.line_width,
        recipe.bgzip,
    )
    header = [
        "##fileformat=VCFv4.2\n",
        "##source=poimkit.datasets.write_synthetic_genome\n",
        f"##reference=file://{fasta.name}\n",
        *(f"##contig=<ID={n},length={recipe.length}>\n" for n in names),
        "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n",
    ]
    parts.write_text(vcf, "".join(header) + "".join(variants.lines), recipe.bgzip)
    return fasta, vcf


def write_peak_files(
    rng: np.random.Generator, folder: Path, recipe: Recipe, peaks: Peaks
) -> np.ndarray:
    """Step 7: narrowPeak, BED6 and BED3 with drawn scores; the BED6 strands."""
    n_peaks = recipe.n_peaks
    peak_names = [f"peak{i + 1}" for i in range(n_peaks)]
    score = np.where(
        peaks.has_motif,
        rng.integers(500, 1001, n_peaks),
        rng.integers(100, 600, n_peaks),
    )
    strand = np.where(rng.random(n_peaks) < 0.5, "+", "-")
    p_chrom = np.array(recipe.names)[peaks.chrom]
    narrow, bed6, bed3 = [], [], []
    for i in range(n_peaks):
        head = f"{p_chrom[i]}\t{peaks.start[i]}\t{peaks.end[i]}"
        signal = score[i] / 50
        narrow.append(
            f"{head}\t{peak_names[i]}\t{score[i]}\t.\t{signal:.2f}\t{signal * 2:.2f}"
            f"\t{signal * 1.5:.2f}\t{peaks.summit[i] - peaks.start[i]}\n"
        )
        bed6.append(f"{head}\t{peak_names[i]}\t{score[i]}\t{strand[i]}\n")
        bed3.append(f"{head}\n")
    for name, body in (
        ("peaks.narrowPeak", narrow),
        ("peaks.bed6", bed6),
        ("peaks.bed3", bed3),
    ):
        parts.write_text(folder / name, "".join(body), False)
    return strand
