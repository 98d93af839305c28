"""``poimkit scan``: motif hits in a genome with exact p-values and coordinates."""

import numpy as np
import pytest

from poimkit.cli import main
from poimkit.datasets import write_synthetic_genome
from poimkit.genome.reference import open_genome
from poimkit.motifs.enrichment import motif_counts
from poimkit.motifs.formats import write_motifs
from poimkit.motifs.hits import scan_genome
from poimkit.motifs.motif import Motif
from poimkit.motifs.scan import log_odds, score_tail

COMPLEMENT = np.array([3, 2, 1, 0, 4], dtype=np.uint8)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scan")
    g = write_synthetic_genome(folder / "g", n_peaks=60, seed=11)
    motif = Motif(g.pwm, float("nan"), float("nan"), name="planted", n_sites=50)
    write_motifs(folder / "planted.meme", [motif])
    return g, motif, folder


def _p_value(lods, background, letters):
    low, tail = score_tail(lods, background)
    steps = int(round(sum(lods[j, c] for j, c in enumerate(letters)) / 0.01))
    return tail[steps - low]


def test_planted_sites_are_found_at_their_coordinates(planted):
    g, motif, _ = planted
    with open_genome(g.genome, quiet=True) as genome:
        hits = scan_genome([motif], genome, p=1e-4)
        background = _background(genome)
        lods = log_odds(motif_counts(motif), background)
        found = set(
            zip(hits.chrom, hits.start.tolist(), hits.minus.tolist(), strict=True)
        )
        expected = 0
        for chrom, start, strand in zip(
            g.site_chrom, g.site_start, g.site_strand, strict=True
        ):
            letters = genome.codes(chrom, start, start + motif.length)
            if strand == "-":
                letters = COMPLEMENT[letters[::-1]]
            if _p_value(lods, background, letters) <= 1e-4:
                expected += 1
                assert (chrom, int(start), strand == "-") in found
    # most sites are drawn close enough to the consensus to pass (others
    # carry the generator's point mutations)
    assert expected >= 0.6 * len(g.site_start)


def _background(genome):
    counts = np.zeros(5)
    for name in genome.lengths:
        counts += np.bincount(genome.codes(name), minlength=5)[:5]
    return counts[:4] / counts[:4].sum()


def test_every_hit_has_its_exact_p_value_and_no_n(planted):
    g, motif, _ = planted
    with open_genome(g.genome, quiet=True) as genome:
        background = _background(genome)
        lods = log_odds(motif_counts(motif), background)
        hits = scan_genome([motif], genome, p=1e-3)
        assert len(hits) > 0
        for i in np.random.default_rng(0).choice(len(hits), 50):
            letters = genome.codes(hits.chrom[i], hits.start[i], hits.end[i])
            assert (letters < 4).all()
            if hits.minus[i]:
                letters = COMPLEMENT[letters[::-1]]
            assert hits.p_value[i] == pytest.approx(_p_value(lods, background, letters))
            assert hits.p_value[i] <= 1e-3


def test_regions_limit_the_scan_and_count_a_hit_once(planted):
    g, motif, _ = planted
    with open_genome(g.genome, quiet=True) as genome:
        chrom = next(iter(genome.lengths))
        flat = np.full(4, 0.25)  # one background for both scans
        whole = scan_genome([motif], genome, [(chrom, 0, 50_000)], 1e-3, flat)
        halves = [(chrom, 0, 30_000), (chrom, 20_000, 50_000)]
        split = scan_genome([motif], genome, halves, 1e-3, flat)
    assert set(zip(split.start.tolist(), split.minus.tolist(), strict=True)) == set(
        zip(whole.start.tolist(), whole.minus.tolist(), strict=True)
    )
    assert len(split) == len(whole)
    assert (whole.end <= 50_000).all()


def test_scan_command_writes_bed_and_refuses_to_replace(planted, tmp_path, capsys):
    g, _, folder = planted
    out = tmp_path / "hits.bed"
    args = ["scan", str(folder / "planted.meme"), "--genome", str(g.genome)]
    assert main([*args, "--bed", str(g.peaks_bed3), "-o", str(out), "--quiet"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("track name=poimkit_scan")
    rows = [line.split("\t") for line in lines[1:]]
    assert rows and all(len(r) == 8 and r[3] == "planted" for r in rows)
    assert all(0 <= int(r[4]) <= 1000 and r[5] in "+-" for r in rows)
    assert "hits of 1 motifs" in capsys.readouterr().err
    assert main([*args, "-o", str(out), "--quiet"]) == 2
    assert "give --force" in capsys.readouterr().err
    other = tmp_path / "mine.bed"
    other.write_text("chr1\t1\t2\n")
    assert main([*args, "-o", str(other), "--force", "--quiet"]) == 2
    assert other.read_text() == "chr1\t1\t2\n"


def test_bed_rows_are_one_word_names_and_ucsc_scores():
    from poimkit.motifs.hits import MotifHits

    hits = MotifHits(
        ["c1", "c1"],
        np.array([5, 9]),
        np.array([0, 0]),
        np.array([True, False]),
        np.array([9.5, 20.0]),
        np.array([1e-5, 1e-14]),
        ["MA1.1 FOS::JUN"],
        np.array([7]),
    )
    assert hits.bed_rows() == [
        ("c1", 5, 12, "MA1.1_FOS::JUN", 500, "-", "1e-05", "9.50"),
        ("c1", 9, 16, "MA1.1_FOS::JUN", 1000, "+", "1e-14", "20.00"),
    ]


def test_hits_bed_is_the_bed_rows_written_in_blocks(tmp_path, monkeypatch):
    import poimkit.motifs.hits as motif_hits

    rng = np.random.default_rng(2)
    n = 11
    hits = motif_hits.MotifHits(
        ["c1"] * 6 + ["c2"] * 5,
        np.sort(rng.integers(0, 10**6, n)),
        rng.integers(0, 2, n),
        rng.random(n) < 0.5,
        rng.uniform(5, 30, n),
        10 ** -rng.uniform(4, 16, n),
        ["MA1.1 FOS::JUN", "m2"],
        np.array([7, 12]),
    )
    monkeypatch.setattr(motif_hits, "WRITE_ROWS", 3)  # blocks of 3, 3, 3, 2
    motif_hits.write_hits_bed(tmp_path / "h.bed", hits, "track t")
    expected = ["track t"] + ["\t".join(map(str, row)) for row in hits.bed_rows()]
    assert (tmp_path / "h.bed").read_text() == "\n".join(expected) + "\n"


def test_scan_refuses_a_motif_file_without_motifs(planted, tmp_path, capsys):
    g, _, _ = planted
    empty = tmp_path / "empty.meme"
    write_motifs(empty, [])
    out = tmp_path / "hits.bed"
    assert main(["scan", str(empty), "--genome", str(g.genome), "-o", str(out)]) == 2
    assert "holds no motif" in capsys.readouterr().err
    assert not out.exists()


def _brute_hits(motifs, genome, regions, p, background):
    """Every window of every motif scored one by one (no packing, no chunks)."""
    found = set()
    for m, motif in enumerate(motifs):
        lods = log_odds(motif_counts(motif), background)
        for chrom, start, end in regions:
            letters = genome.codes(chrom, start, end)
            for s in range(letters.size - motif.length + 1):
                window = letters[s : s + motif.length]
                if (window > 3).any():
                    continue
                for minus in (False, True):
                    read = COMPLEMENT[window[::-1]] if minus else window
                    pv = _p_value(lods, background, read)
                    if pv <= p:
                        found.add((chrom, start + s, m, minus, round(float(pv), 12)))
    return found


def test_many_motifs_in_short_regions_and_chunks_equal_brute_force(
    planted, monkeypatch
):
    """Motifs of several widths, regions shorter than the widest, stretches cut."""
    import poimkit.motifs.hits as motif_hits

    g, motif, _ = planted
    rng = np.random.default_rng(4)
    motifs = [motif]
    for width in (4, 6, 11):
        pwm = rng.dirichlet(np.full(4, 0.4), size=width)
        motifs.append(Motif(pwm, float("nan"), float("nan"), name=f"w{width}"))
    monkeypatch.setattr(motif_hits, "CHUNK", 97)  # many stretches per region
    with open_genome(g.genome, quiet=True) as genome:
        chrom = next(iter(genome.lengths))
        regions = [(chrom, 1000, 1600), (chrom, 5000, 5008), (chrom, 9000, 9400)]
        background = np.array([0.3, 0.2, 0.2, 0.3])
        hits = scan_genome(motifs, genome, regions, 5e-3, background)
        expected = _brute_hits(motifs, genome, regions, 5e-3, background)
    got = set(
        zip(
            hits.chrom,
            hits.start.tolist(),
            hits.motif.tolist(),
            hits.minus.tolist(),
            [round(float(v), 12) for v in hits.p_value],
            strict=True,
        )
    )
    assert len(got) == len(hits)  # each hit once
    assert got == expected
    assert {m for _, _, m, _, _ in expected} >= {1, 2, 3}  # short motifs hit
    with open_genome(g.genome, quiet=True) as genome:
        assert len(scan_genome([], genome, regions, 5e-3, background)) == 0


def test_scan_takes_threads_and_refuses_a_bad_count(planted, tmp_path, capsys):
    g, _, folder = planted
    out = tmp_path / "hits.bed"
    command = ["scan", str(folder / "planted.meme"), "--genome", str(g.genome)]
    assert main([*command, "-o", str(out), "--threads", "1", "--quiet"]) == 0
    assert out.exists()
    code = main([*command, "-o", str(tmp_path / "b.bed"), "--threads", "0"])
    assert code == 2
    assert "n_threads" in capsys.readouterr().err
    assert not (tmp_path / "b.bed").exists()


def test_hits_written_by_chromosome_equal_the_whole_scan(planted, tmp_path):
    """One chromosome's hits at a time: the same file as all the hits at once."""
    from poimkit.motifs.hits import scan_by_chromosome, write_hits_bed

    g, motif, _ = planted
    with open_genome(g.genome, quiet=True) as genome:
        names = list(genome.lengths)
        regions = [  # out of order, repeated, overlapping
            (names[2], 0, 90_000),
            (names[0], 40_000, 120_000),
            (names[2], 80_000, 150_000),
            (names[1], 0, 200_000),
            (names[0], 0, 50_000),
        ]
        whole = scan_genome([motif], genome, regions, 1e-3)
        parts = list(scan_by_chromosome([motif], genome, regions, 1e-3))
        streamed = scan_by_chromosome([motif], genome, regions, 1e-3)
        n = write_hits_bed(tmp_path / "streamed.bed", streamed, "track t")
    assert [set(p.chrom) for p in parts] == [{c} for c in sorted(set(names[:3]))]
    write_hits_bed(tmp_path / "whole.bed", whole, "track t")
    assert n == len(whole) > 30
    whole_text = (tmp_path / "whole.bed").read_bytes()
    assert (tmp_path / "streamed.bed").read_bytes() == whole_text
    columns = (whole.chrom, whole.start.tolist(), whole.motif.tolist(), whole.minus)
    keys = list(zip(*columns, strict=True))
    assert keys == sorted(set(keys))  # genome order, each hit once
