"""The synthetic genome writer: its files agree with the truth it reports."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from poimkit.datasets import SyntheticGenome, consensus_pwm, write_synthetic_genome
from poimkit.datasets.genome import HIGH_INFORMATION
from poimkit.errors import InputError

COMPLEMENT = str.maketrans("ACGTacgtN", "TGCAtgcaN")


def read_fasta_text(path) -> dict[str, str]:
    opener = gzip.open if str(path).endswith(".gz") else open
    out: dict[str, list[str]] = {}
    with opener(path, "rt") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.startswith(">"):
                name = line[1:]
                out[name] = []
            else:
                out[name].append(line)
    return {k: "".join(v) for k, v in out.items()}


def read_vcf(path) -> tuple[list[str], list[list[str]]]:
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as handle:
        lines = handle.read().splitlines()
    header = [x for x in lines if x.startswith("#")]
    return header, [x.split("\t") for x in lines if not x.startswith("#")]


def site_letters(seqs: dict[str, str], g: SyntheticGenome, i: int) -> str:
    """The letters of site i read on the motif's strand (upper case)."""
    m = len(g.motif)
    s = int(g.site_start[i])
    text = seqs[str(g.site_chrom[i])][s : s + m].upper()
    return text.translate(COMPLEMENT)[::-1] if g.site_strand[i] == "-" else text


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[SyntheticGenome, dict[str, str]]:
    folder = tmp_path_factory.mktemp("genome")
    g = write_synthetic_genome(
        folder,
        n_chromosomes=3,
        chromosome_length=300_000,
        n_peaks=150,
        n_causal=60,
        n_neutral=2000,
        seed=3,
    )
    return g, read_fasta_text(g.genome)


def test_chromosomes_and_lengths(small):
    g, seqs = small
    assert list(seqs) == list(g.chromosomes) == ["chr1", "chr2", "chr3"]
    assert [len(s) for s in seqs.values()] == list(g.lengths)
    assert set("".join(seqs.values())) <= set("ACGTacgtN")


def test_fasta_lines_are_60_letters(small):
    g, _ = small
    with open(g.genome) as handle:
        widths = {len(x.rstrip("\n")) for x in handle if not x.startswith(">")}
    assert max(widths) == 60


def test_sites_spell_the_motif(small):
    g, seqs = small
    m = len(g.motif)
    sites = [site_letters(seqs, g, i) for i in range(g.site_start.size)]
    # every site is close to the consensus (the PWM allows ~1.4 changes)
    mismatches = [sum(a != b for a, b in zip(s, g.motif, strict=True)) for s in sites]
    assert max(mismatches) <= 5 and np.mean(mismatches) < 2.0
    # and the letters follow the PWM column by column
    codes = np.array([["ACGT".index(c) for c in s] for s in sites])
    freq = (codes[:, :, None] == np.arange(4)).mean(axis=0)
    assert np.abs(freq - g.pwm).max() < 0.15
    # the sites are upper case (unmasked) and on both strands
    for i in range(g.site_start.size):
        s = int(g.site_start[i])
        assert seqs[str(g.site_chrom[i])][s : s + m].isupper()
    assert set(g.site_strand) == {"+", "-"}


def test_sites_at_summits_and_outside_peaks(small):
    g, _ = small
    m = len(g.motif)
    at = g.site_peak >= 0
    assert at.sum() == g.peak_has_motif.sum() and 0 < at.sum() < g.n_peaks
    peaks = g.site_peak[at]
    centre = g.site_start[at] + m // 2
    assert np.all(g.site_chrom[at] == g.peak_chrom[peaks])
    assert np.all(np.abs(centre - g.peak_summit[peaks]) <= 10)
    # the off-peak sites overlap no peak
    for i in np.flatnonzero(~at):
        same = g.peak_chrom == g.site_chrom[i]
        s = g.site_start[i]
        assert not np.any(same & (g.peak_start < s + m) & (g.peak_end > s))
    assert (~at).sum() == g.n_peaks // 10


def test_narrowpeak_bed6_bed3(small):
    g, seqs = small
    rows = [x.rstrip("\n").split("\t") for x in open(g.peaks)]
    assert len(rows) == g.n_peaks
    for i, row in enumerate(rows):
        assert len(row) == 10
        chrom, start, end = row[0], int(row[1]), int(row[2])
        assert chrom == g.peak_chrom[i] and 0 <= start < end <= len(seqs[chrom])
        assert (start, end) == (g.peak_start[i], g.peak_end[i])
        assert row[5] == "."
        assert 0 <= int(row[4]) <= 1000
        [float(v) for v in row[6:9]]
        assert 0 <= int(row[9]) < end - start
        assert start + int(row[9]) == g.peak_summit[i]
        assert "N" not in seqs[chrom][start:end]
    bed6 = [x.rstrip("\n").split("\t") for x in open(g.peaks_bed6)]
    bed3 = [x.rstrip("\n").split("\t") for x in open(g.peaks_bed3)]
    assert [r[:3] for r in bed6] == [r[:3] for r in bed3] == [r[:3] for r in rows]
    assert all(len(r) == 6 and r[5] in "+-" for r in bed6)
    assert [r[5] for r in bed6] == list(g.peak_strand)
    assert all(len(r) == 3 for r in bed3)
    # sorted and not overlapping
    key = [(g.chromosomes.index(r[0]), int(r[1]), int(r[2])) for r in rows]
    assert key == sorted(key)
    assert all(
        a[2] <= b[1] for a, b in zip(key[:-1], key[1:], strict=True) if a[0] == b[0]
    )


def test_vcf_header_and_ref_agrees_with_genome(small):
    g, seqs = small
    header, rows = read_vcf(g.vcf)
    assert header[0] == "##fileformat=VCFv4.2"
    assert header[-1] == "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO"
    for name, length in zip(g.chromosomes, g.lengths, strict=True):
        assert f"##contig=<ID={name},length={length}>" in header
    ids = [r[2] for r in rows]
    assert len(set(ids)) == len(ids) and all(ids)
    assert set(ids) == set(g.causal_ids) | set(g.neutral_ids)
    assert not set(g.causal_ids) & set(g.neutral_ids)
    key = [(g.chromosomes.index(r[0]), int(r[1])) for r in rows]
    assert key == sorted(key) and len(set(key)) == len(key)
    for r in rows:
        assert len(r) == 8
        chrom, pos, ref, alts = r[0], int(r[1]), r[3], r[4].split(",")
        assert (
            ref.isupper() and ref == seqs[chrom][pos - 1 : pos - 1 + len(ref)].upper()
        )
        assert "N" not in ref
        for alt in alts:
            assert alt != ref and set(alt) <= set("ACGT")
            if len(alt) != len(ref):  # indel: the anchor letter first
                assert alt[0] == ref[0] and min(len(alt), len(ref)) == 1
    by_id = {r[2]: r for r in rows}
    assert len(g.indel_ids) == 10 and len(g.multiallelic_ids) == 3
    assert all(len(by_id[i][4].split(",")) == 2 for i in g.multiallelic_ids)
    assert all(len(by_id[i][3]) != len(by_id[i][4]) for i in g.indel_ids)
    n_snv = sum(len(r[3]) == len(r[4]) == 1 for r in rows)
    assert n_snv == len(g.causal_ids) + 2000


def test_causal_variants_destroy_a_site(small):
    g, seqs = small
    _, rows = read_vcf(g.vcf)
    by_id = {r[2]: r for r in rows}
    lod = np.log2(g.pwm / 0.25)
    m = len(g.motif)
    assert len(g.causal_ids) == 60
    for vid, site in zip(g.causal_ids, g.causal_site, strict=True):
        chrom, pos, ref, alt = (
            by_id[vid][0],
            int(by_id[vid][1]) - 1,
            by_id[vid][3],
            by_id[vid][4],
        )
        assert g.site_peak[site] >= 0 and chrom == g.site_chrom[site]
        start = int(g.site_start[site])
        assert start <= pos < start + m
        before = site_letters(seqs, g, site)
        mutated = dict(seqs)
        mutated[chrom] = seqs[chrom][:pos] + alt + seqs[chrom][pos + 1 :]
        after = site_letters(mutated, g, site)
        col = next(j for j in range(m) if before[j] != after[j])
        assert before[col] == g.motif[col] and g.pwm[col].max() >= HIGH_INFORMATION
        score = [
            sum(lod[j, "ACGT".index(c)] for j, c in enumerate(s))
            for s in (before, after)
        ]
        assert score[0] - score[1] > 4  # bits
        assert ref == seqs[chrom][pos].upper()


def test_neutral_variants_avoid_sites_and_some_are_in_peaks(small):
    g, _ = small
    _, rows = read_vcf(g.vcf)
    neutral = set(g.neutral_ids)
    m = len(g.motif)
    in_peak = 0
    for r in rows:
        if r[2] not in neutral:
            continue
        chrom, pos = r[0], int(r[1]) - 1
        span = range(pos, pos + len(r[3]))
        same = g.site_chrom == chrom
        for p in (span.start, span.stop - 1):
            assert not np.any(
                same & (g.site_start - 2 <= p) & (p < g.site_start + m + 2)
            )
        peak = (g.peak_chrom == chrom) & (g.peak_start <= pos) & (pos < g.peak_end)
        in_peak += bool(peak.any())
    assert 0.08 * len(neutral) <= in_peak <= 0.3 * len(neutral)


def test_soft_mask_and_n_runs(small):
    g, seqs = small
    letters = "".join(seqs.values())
    n = letters.count("N")
    lower = sum(letters.count(c) for c in "acgt")
    assert lower / (len(letters) - n) == pytest.approx(g.mask_fraction)
    assert 0.15 <= g.mask_fraction <= 0.25  # asked 0.2
    # lowercase comes in runs (repeat copies) at least 100 letters long
    runs = [len(x) for x in "".join(c if c.islower() else " " for c in letters).split()]
    assert np.median(runs) >= 100
    # N: a gap at each chromosome start and one inside
    assert g.n_runs.shape == (6, 3)
    for c, a, b in g.n_runs:
        seq = seqs[g.chromosomes[c]]
        assert set(seq[a:b]) == {"N"} and b - a == 5000
        assert a == 0 or (seq[a - 1] != "N" and seq[b] != "N")
    assert n == 6 * 5000


def test_gc_isochores(small):
    g, seqs = small
    measured, target = [], []
    for chrom, a, b, gc in zip(
        g.isochore_chrom, g.isochore_start, g.isochore_end, g.isochore_gc, strict=True
    ):
        text = seqs[str(chrom)][a:b].upper().replace("N", "")
        if len(text) < 15_000:
            continue
        measured.append(sum(text.count(c) for c in "GC") / len(text))
        target.append(gc)
    measured, target = np.array(measured), np.array(target)
    assert len(target) >= 6
    assert target.min() >= 0.35 and target.max() <= 0.60
    assert np.abs(measured - target).max() < 0.05
    assert measured.max() - measured.min() > 0.1
    assert np.corrcoef(measured, target)[0, 1] > 0.9


def test_peaks_are_gc_rich(small):
    g, seqs = small
    letters = "".join(seqs.values()).upper()
    genome_gc = sum(letters.count(c) for c in "GC") / (
        len(letters) - letters.count("N")
    )
    peak_gc = np.mean(
        [
            sum(seqs[str(c)][s - 100 : s + 100].upper().count(x) for x in "GC") / 200
            for c, s in zip(g.peak_chrom, g.peak_summit, strict=True)
        ]
    )
    assert peak_gc > genome_gc + 0.05
    assert g.background.sum() == pytest.approx(1.0)
    assert g.background[1] + g.background[2] == pytest.approx(genome_gc, abs=1e-9)


def test_seeded_and_bgzip(tmp_path):
    kw = {"n_peaks": 20, "n_neutral": 100, "n_causal": 10}
    a = write_synthetic_genome(tmp_path / "a", seed=7, **kw)
    b = write_synthetic_genome(tmp_path / "b", seed=7, **kw)
    c = write_synthetic_genome(tmp_path / "c", seed=8, **kw)
    z = write_synthetic_genome(tmp_path / "z", seed=7, bgzip=True, **kw)
    for name in ("genome", "peaks", "peaks_bed6", "peaks_bed3", "vcf"):
        assert getattr(a, name).read_bytes() == getattr(b, name).read_bytes()
    assert a.genome.read_bytes() != c.genome.read_bytes()
    assert a.causal_ids == b.causal_ids and np.array_equal(a.site_start, b.site_start)
    assert z.genome.name == "genome.fa.gz" and z.vcf.name == "variants.vcf.gz"
    assert z.genome.read_bytes()[:4] == b"\x1f\x8b\x08\x04"  # BGZF: gzip + extra field
    assert gzip.decompress(z.genome.read_bytes()) == a.genome.read_bytes()
    plain, packed = a.vcf.read_text(), gzip.decompress(z.vcf.read_bytes()).decode()
    assert packed == plain.replace("file://genome.fa\n", "file://genome.fa.gz\n")


def test_consensus_pwm():
    pwm = consensus_pwm("TGA")
    assert pwm.shape == (3, 4) and np.allclose(pwm.sum(axis=1), 1)
    assert pwm.argmax(axis=1).tolist() == [3, 2, 0]
    assert pwm[0, 3] == 0.6 and pwm[1, 2] == 0.94
    with pytest.raises(InputError, match="conservation"):
        consensus_pwm("TGA", 0.1)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"motif": "TGANNA"}, "motif"),
        ({"n_peaks": 500, "chromosome_length": 100_000}, "room"),
        ({"repeat_fraction": 0.9}, "repeat_fraction"),
        ({"gc_range": (0.6, 0.3)}, "gc_range"),
        ({"n_peaks": 0}, "n_peaks"),
    ],
)
def test_bad_arguments(tmp_path, kwargs, match):
    with pytest.raises(InputError, match=match):
        write_synthetic_genome(tmp_path, **kwargs)
