"""Genomic negatives: matched GC and repeats, no overlaps, seeding, shortfall."""

import numpy as np
import pytest

from poimkit.errors import InputError
from poimkit.genome.negatives import (
    NEGATIVE_KINDS,
    genomic_negatives,
    write_negatives_bed,
)
from poimkit.genome.peaks import read_peaks
from poimkit.genome.reference import open_genome

LETTERS = np.frombuffer(b"ACGTN", dtype=np.uint8)


def _chromosome(rng, n, gcs, segment=20_000, gaps=2):
    """Codes with GC isochores, repeat blocks and N gaps; and its soft-mask."""
    gc = np.repeat(rng.choice(gcs, n // segment + 1), segment)[:n]
    u = rng.random(n)
    codes = np.where(
        u < gc, np.where(u < gc / 2, 1, 2), np.where(u < (1 + gc) / 2, 0, 3)
    ).astype(np.uint8)
    masked = np.repeat(rng.random(n // 250 + 1) < 0.4, 250)[:n]
    for g in rng.integers(0, n - 3000, gaps):
        codes[g : g + 3000] = 4
    return codes, masked


def _text(codes, masked):
    text = LETTERS[codes].copy()
    text[masked] += 32  # lowercase; "n" for masked N
    return text.tobytes().decode()


class MemGenome:
    """An in-memory stand-in with the Genome attributes the negatives use."""

    def __init__(self, chromosomes):
        self._c = {k: c for k, (c, _) in chromosomes.items()}
        self._m = {k: m for k, (_, m) in chromosomes.items()}
        self.lengths = {k: c.size for k, c in self._c.items()}

    def codes(self, chrom, start=0, end=None):
        return self._c[chrom][start:end]

    def soft_masked(self, chrom, start=0, end=None):
        return self._m[chrom][start:end]


def _genome_parts(seed=0):
    rng = np.random.default_rng(seed)
    return {
        "chr1": _chromosome(rng, 300_000, [0.35, 0.45, 0.55]),
        "chr2": _chromosome(rng, 200_000, [0.4, 0.5, 0.62]),
        "chr3": _chromosome(rng, 150_000, [0.3, 0.5]),
        "chrS": _chromosome(rng, 5_000, [0.5], gaps=0),
    }


@pytest.fixture(scope="module")
def fasta_genome(tmp_path_factory):
    folder = tmp_path_factory.mktemp("genome")
    path = folder / "genome.fa"
    with open(path, "w") as handle:
        for name, (codes, masked) in _genome_parts().items():
            text = _text(codes, masked)
            handle.write(f">{name} synthetic\n")
            for i in range(0, len(text), 60):
                handle.write(text[i : i + 60] + "\n")
    genome = open_genome(path, quiet=True)
    yield genome
    genome.close()


def _peaks(genome, n=200, seed=1, lengths=(200,)):
    """Peaks (wider) and positive windows inside them, away from N."""
    rng = np.random.default_rng(seed)
    names = [c for c in genome.lengths if genome.lengths[c] > 10_000]
    chrom, start, end, pchrom, pstart, pend = [], [], [], [], [], []
    while len(chrom) < n:
        c = names[rng.integers(len(names))]
        s = int(rng.integers(0, genome.lengths[c] - 1000))
        L = int(rng.choice(lengths))
        if (genome.codes(c, s, s + 1000) == 4).any():
            continue
        chrom.append(c)
        start.append(s)
        end.append(s + 1000)
        pchrom.append(c)
        pstart.append(s + 400)
        pend.append(s + 400 + L)
    return (chrom, np.array(start), np.array(end)), (
        pchrom,
        np.array(pstart),
        np.array(pend),
    )


def _fractions(genome, chrom, start, end):
    """GC (of ACGT) and lowercase fractions, N count, read letter by letter."""
    text = genome.fetch(chrom, int(start), int(end))
    upper = text.upper()
    acgt = sum(upper.count(x) for x in "ACGT")
    gc = (upper.count("G") + upper.count("C")) / acgt
    return gc, sum(ch.islower() for ch in text) / len(text), len(text) - acgt


def _overlap(a0, a1, b0, b1):
    return a0 < b1 and b0 < a1


@pytest.fixture(scope="module")
def matched(fasta_genome):
    peaks, windows = _peaks(fasta_genome, lengths=(150, 200, 260))
    neg = genomic_negatives(
        fasta_genome, *windows, exclude=peaks, per_positive=2, seed=3
    )
    return fasta_genome, peaks, windows, neg


def test_negatives_match_their_positive(matched):
    genome, _, windows, neg = matched
    # a few positives of this small genome have only one or two matching
    # places (checked by brute force when this test was written)
    assert neg.n_unmatched <= 0.02 * neg.requested
    assert len(neg) + neg.n_unmatched == neg.requested == 2 * len(windows[0])
    np.testing.assert_array_equal(
        np.bincount(neg.positive, minlength=len(windows[0])), 2 - neg.shortfall
    )
    plen = windows[2] - windows[1]
    np.testing.assert_array_equal(neg.end - neg.start, plen[neg.positive])
    for k in range(len(neg)):
        c, s, e, p = neg.chrom[k], neg.start[k], neg.end[k], neg.positive[k]
        gc, rep, n_other = _fractions(genome, c, s, e)
        pgc, prep, _ = _fractions(genome, windows[0][p], windows[1][p], windows[2][p])
        assert n_other == 0
        assert 0 <= s < e <= genome.lengths[c]
        assert neg.gc[k] == pytest.approx(gc, abs=1e-12)
        assert neg.repeat[k] == pytest.approx(rep, abs=1e-12)
        assert neg.positive_gc[p] == pytest.approx(pgc, abs=1e-12)
        assert neg.positive_repeat[p] == pytest.approx(prep, abs=1e-12)
        assert abs(gc - pgc) <= 0.02 + 1e-12
        assert abs(rep - prep) <= 0.02 + 1e-12


def test_no_overlap_with_peaks_windows_or_each_other(matched):
    _, peaks, windows, neg = matched
    taken = list(zip(*peaks, strict=True)) + list(zip(*windows, strict=True))
    mine = list(zip(neg.chrom, neg.start, neg.end, strict=True))
    for i, (c, s, e) in enumerate(mine):
        for c2, s2, e2 in taken:
            assert not (c == c2 and _overlap(s, e, s2, e2))
        for c2, s2, e2 in mine[i + 1 :]:
            assert not (c == c2 and _overlap(s, e, s2, e2))


def test_gc_and_repeat_histograms_agree_within_tolerance(matched):
    _, _, _, neg = matched
    for ours, theirs, tol in (
        (neg.gc, neg.positive_gc[neg.positive], neg.gc_tolerance),
        (neg.repeat, neg.positive_repeat[neg.positive], neg.repeat_tolerance),
    ):
        # Wasserstein-1 distance of the two distributions is at most tol
        assert np.abs(np.sort(ours) - np.sort(theirs)).mean() <= tol + 1e-12
        # each histogram bar of the negatives lies between the positives'
        # counts on the bar shrunk and widened by the tolerance
        for a in np.arange(0.0, 1.0, 0.1):
            b = a + 0.1
            count = ((ours >= a) & (ours < b)).sum()
            inner = ((theirs >= a + tol) & (theirs < b - tol)).sum()
            outer = ((theirs >= a - tol) & (theirs < b + tol)).sum()
            assert inner <= count <= outer


def test_seeded(fasta_genome):
    peaks, windows = _peaks(fasta_genome, n=60)
    one = genomic_negatives(fasta_genome, *windows, exclude=peaks, seed=5)
    two = genomic_negatives(fasta_genome, *windows, exclude=peaks, seed=5)
    other = genomic_negatives(fasta_genome, *windows, exclude=peaks, seed=6)
    assert one.chrom == two.chrom
    np.testing.assert_array_equal(one.start, two.start)
    np.testing.assert_array_equal(one.positive, two.positive)
    assert not np.array_equal(one.start, other.start)


def test_a_shared_genome_is_read_once_and_again_when_changed(
    fasta_genome, tmp_path, monkeypatch
):
    """`share_letters`: a batch worker's experiments read each chromosome once."""
    import os
    import shutil

    from poimkit.genome.negatives import share_letters
    from poimkit.genome.reference import Genome

    fetched = []
    fetch = Genome.fetch

    def counting(self, name, *args, **kwargs):
        if not args and not kwargs:  # a whole chromosome
            fetched.append(name)
        return fetch(self, name, *args, **kwargs)

    monkeypatch.setattr(Genome, "fetch", counting)
    copy = tmp_path / "genome.fa"
    shutil.copyfile(fasta_genome.path, copy)
    peaks, windows = _peaks(fasta_genome, n=50)
    share_letters(False)  # a thread-based batch earlier in this process left it on
    alone = genomic_negatives(open_genome(copy), *windows, exclude=peaks, seed=2)
    n_chromosomes = len(set(fetched))
    try:
        share_letters(True)
        runs = []
        for _ in range(3):  # each experiment of a batch turns sharing on again
            share_letters(True)
            runs.append(
                genomic_negatives(open_genome(copy), *windows, exclude=peaks, seed=2)
            )
        assert len(fetched) == 2 * n_chromosomes  # the first shared run reads
        for run in runs:  # the same negatives as without sharing
            assert run.chrom == alone.chrom
            np.testing.assert_array_equal(run.start, alone.start)
        stat = os.stat(copy)
        os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        genomic_negatives(open_genome(copy), *windows, exclude=peaks, seed=2)
        assert len(fetched) == 3 * n_chromosomes  # a changed file is read again
    finally:
        share_letters(False)
    genomic_negatives(open_genome(copy), *windows, exclude=peaks, seed=2)
    assert len(fetched) == 4 * n_chromosomes  # not sharing: read per search


def test_memory_stand_in_gives_the_same_as_the_fasta(fasta_genome):
    mem = MemGenome(_genome_parts())
    peaks, windows = _peaks(fasta_genome, n=50)
    a = genomic_negatives(fasta_genome, *windows, exclude=peaks, seed=2)
    b = genomic_negatives(mem, *windows, exclude=peaks, seed=2)
    assert a.chrom == b.chrom
    np.testing.assert_array_equal(a.start, b.start)
    np.testing.assert_array_equal(a.gc, b.gc)


def test_chromosome_ends_and_n_gaps_never_chosen():
    rng = np.random.default_rng(4)
    # chrA: ACGT islands of 150 letters between 100-letter N gaps; chrB: 250
    # letters only (a 300-letter window cannot fit); chrC: ordinary
    island = np.concatenate([rng.integers(0, 4, 150), np.full(100, 4)])
    chrA = np.tile(island, 400).astype(np.uint8)
    chrB = rng.integers(0, 4, 250).astype(np.uint8)
    chrC = rng.integers(0, 4, 4000).astype(np.uint8)
    genome = MemGenome(
        {
            "chrA": (chrA, np.zeros(chrA.size, bool)),
            "chrB": (chrB, np.zeros(chrB.size, bool)),
            "chrC": (chrC, np.zeros(chrC.size, bool)),
        }
    )
    neg = genomic_negatives(
        genome, ["chrC"] * 4, [0, 1000, 2000, 3000], [300, 1300, 2300, 3300],
        gc_tolerance=0.2, repeat_tolerance=0.5, seed=0,
    )  # fmt: skip
    assert set(neg.chrom) == {"chrC"} and neg.n_unmatched == 0
    for s, e in zip(neg.start, neg.end, strict=True):
        assert 0 <= s and e <= chrC.size
        for ps in (0, 1000, 2000, 3000):
            assert not _overlap(s, e, ps, ps + 300)
    # with a little N allowed, chrA's windows (always > 33% N) still never fit
    neg = genomic_negatives(
        genome, ["chrC"], [0], [300], max_n_fraction=0.3, seed=1,
        gc_tolerance=0.3, repeat_tolerance=0.5,
    )  # fmt: skip
    assert neg.chrom == ["chrC"]


def test_shortfall_is_reported_or_refused():
    rng = np.random.default_rng(0)
    ordinary = rng.integers(0, 4, 200_000).astype(np.uint8)
    # a 400-letter stretch of pure G and C: the window in its middle has no
    # match that does not overlap it
    ordinary[5000:5400] = rng.integers(1, 3, 400)
    genome = MemGenome({"chr1": (ordinary, np.zeros(ordinary.size, bool))})
    starts = np.array([5100, 20_000, 40_000, 60_000, 80_000])
    neg = genomic_negatives(
        genome, ["chr1"] * 5, starts, starts + 200, per_positive=2, seed=0,
        max_tries=200,
    )  # fmt: skip
    assert neg.shortfall.tolist() == [2, 0, 0, 0, 0]
    assert neg.n_unmatched == 2 and len(neg) == 8 and neg.requested == 10
    info = neg.describe()
    assert info["unmatched"] == 2 and info["positives_short"] == 1
    assert info["matched"] == 8 and info["kind"] == "genomic"
    with pytest.raises(InputError, match=r"only 2 of 6 negatives"):
        genomic_negatives(
            genome, ["chr1"] * 3, [5100, 5150, 20_000], [5300, 5350, 20_200],
            per_positive=2,
            max_tries=100,
        )  # fmt: skip
    # the same with min_matched=0 returns what it found (nothing)
    neg = genomic_negatives(
        genome, ["chr1"], [5100], [5300], max_tries=50, min_matched=0.0
    )
    assert len(neg) == 0 and neg.shortfall.tolist() == [1]


def test_all_n_positive_cannot_be_matched():
    codes = np.random.default_rng(0).integers(0, 4, 50_000).astype(np.uint8)
    codes[:500] = 4
    genome = MemGenome({"c": (codes, np.zeros(codes.size, bool))})
    neg = genomic_negatives(genome, ["c", "c"], [0, 1000], [200, 1200])
    assert np.isnan(neg.positive_gc[0]) and neg.shortfall.tolist() == [1, 0]


def test_chroms_restricts_the_draw(fasta_genome):
    peaks, windows = _peaks(fasta_genome, n=40)
    neg = genomic_negatives(
        fasta_genome, *windows, exclude=peaks, chroms=["chr1"], seed=0
    )
    assert set(neg.chrom) == {"chr1"}


def test_progress_bar(fasta_genome, capsys):
    _, windows = _peaks(fasta_genome, n=10)
    genomic_negatives(fasta_genome, *windows, progress=True)
    assert "genomic negatives" in capsys.readouterr().err


def test_bed_round_trip(matched, tmp_path):
    _, _, windows, neg = matched
    path = tmp_path / "negatives.bed"
    write_negatives_bed(path, neg)
    back = read_peaks(path)
    assert back.kind == "bed6" and back.chrom == neg.chrom
    np.testing.assert_array_equal(back.start, neg.start)
    np.testing.assert_array_equal(back.end, neg.end)
    names = [line.split("\t")[3] for line in path.read_text().splitlines()]
    p = neg.positive[0]
    assert names[0] == f"{windows[0][p]}:{windows[1][p]}-{windows[2][p]}"
    write_negatives_bed(path, neg, [f"peak{i}" for i in range(len(windows[0]))])
    assert path.read_text().split("\t")[3] == f"peak{p}"


def test_bed_writer_leaves_nothing_on_bad_names(matched, tmp_path):
    _, _, _, neg = matched
    path = tmp_path / "negatives.bed"
    with pytest.raises(InputError, match="positive_names has 1 names"):
        write_negatives_bed(path, neg, ["one"])
    assert list(tmp_path.iterdir()) == []


def test_bad_input(fasta_genome):
    with pytest.raises(InputError, match=r"window 2 \(chrX:0-10\): chromosome"):
        genomic_negatives(fasta_genome, ["chr1", "chrX"], [0, 0], [10, 10])
    with pytest.raises(InputError, match=r"window 1 .* outside the chromosome"):
        genomic_negatives(fasta_genome, ["chrS"], [4990], [5010])
    with pytest.raises(InputError, match="gc_tolerance"):
        genomic_negatives(fasta_genome, ["chr1"], [0], [10], gc_tolerance=0)
    with pytest.raises(InputError, match="per_positive"):
        genomic_negatives(fasta_genome, ["chr1"], [0], [10], per_positive=0)
    with pytest.raises(InputError, match="no positive windows"):
        genomic_negatives(fasta_genome, [], [], [])
    with pytest.raises(InputError, match="chroms: 'chrZ'"):
        genomic_negatives(fasta_genome, ["chr1"], [0], [10], chroms=["chrZ"])
    with pytest.raises(InputError, match="exclude: start and end must be"):
        genomic_negatives(
            fasta_genome, ["chr1"], [0], [10], exclude=(["chr1"], ["a"], [5])
        )
    with pytest.raises(InputError, match="exclude must be a"):
        genomic_negatives(fasta_genome, ["chr1"], [0], [10], exclude=5)
    with pytest.raises(InputError, match="genome must have"):
        genomic_negatives({"chr1": 5}, ["chr1"], [0], [10])


def test_negative_kinds_texts():
    assert set(NEGATIVE_KINDS) == {"genomic", "shuffle", "file"}
    assert "composition" in NEGATIVE_KINDS["shuffle"]
    assert "GC" in NEGATIVE_KINDS["genomic"]


def test_window_counts_from_flags_equal_counting_the_letters():
    """One flag byte per letter gives each window's GC, ACGT and lowercase counts."""
    from poimkit.genome._negatives import (
        count_windows,
        flag_table,
        letter_flags,
        pack_flags,
    )
    from poimkit.genome.reference import text_codes, text_masked

    every = "".join(map(chr, range(128)))
    table = flag_table()
    rng = np.random.default_rng(3)
    text = "".join(rng.choice(list("ACGTNacgtnRYry-?é"), 5001))  # odd: a half byte
    raw = np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8)
    codes, masked = text_codes(text), text_masked(text)
    for flags in (table[raw], letter_flags(codes, masked)):
        starts = np.r_[rng.integers(0, 4800, 300), 4801, 0]
        lengths = np.r_[rng.integers(1, 200, 300), 200, 5001]
        gc, acgt, low = (np.zeros(starts.size, dtype=np.int64) for _ in range(3))
        count_windows(pack_flags(flags), starts, lengths, gc, acgt, low)
        for i, (s, n) in enumerate(zip(starts, lengths, strict=True)):
            c, m = codes[s : s + n], masked[s : s + n]
            assert gc[i] == np.sum((c == 1) | (c == 2))
            assert acgt[i] == np.sum(c < 4)
            assert low[i] == np.sum(m)
    np.testing.assert_array_equal(
        table[: len(every)],
        letter_flags(text_codes(every), text_masked(every)),
    )


def test_a_genome_too_large_to_keep_gives_the_same_negatives(fasta_genome, monkeypatch):
    """Chromosomes read again per batch (not kept) give the same negatives."""
    import poimkit.genome.negatives as negatives

    peaks, windows = _peaks(fasta_genome, n=50)
    kept = genomic_negatives(fasta_genome, *windows, exclude=peaks, seed=2)
    monkeypatch.setattr(negatives, "SEARCH_LETTERS", 0)
    again = genomic_negatives(fasta_genome, *windows, exclude=peaks, seed=2)
    assert kept.chrom == again.chrom
    np.testing.assert_array_equal(kept.start, again.start)
    np.testing.assert_array_equal(kept.gc, again.gc)
    np.testing.assert_array_equal(kept.repeat, again.repeat)
