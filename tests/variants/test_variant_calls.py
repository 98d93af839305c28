"""Variant calls: the null, p/q/z, placements, the VCF output and its index."""

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit import WDKernelSVC
from poimkit.cli import main
from poimkit.genome.peaks import Peaks
from poimkit.variants.effects import effect_engine
from poimkit.variants.null import VariantNull, q_values
from poimkit.variants.placement import Placement, _strongest, scored_chunk
from poimkit.variants.plots import variant_title

from ..cli.test_cli_variants import CHROM, _inputs, _model, _read
from ..naive import bh_q_values_naive, strongest_placement_naive

LETTERS = np.array(list("ACGT"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.floats(0, 1), st.just(float("nan"))), max_size=30))
def test_q_values_are_benjamini_hochberg(values):
    p = np.array(values, dtype=float)
    assert np.allclose(q_values(p), bh_q_values_naive(p), equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(-5, 5), min_size=1, max_size=40),
    st.lists(st.floats(-6, 6), min_size=1, max_size=10),
)
def test_p_values_count_null_effects_at_least_as_large(null, effects):
    found = VariantNull(np.array(null), "test").p_values(np.array(effects))
    for e, p in zip(effects, found, strict=True):
        expected = (1 + sum(abs(x) >= abs(e) for x in null)) / (1 + len(null))
        assert p == pytest.approx(expected)


def test_z_scores_are_in_null_standard_deviations():
    null = VariantNull(np.array([-1.0, 1.0, -1.0, 1.0]), "test")
    assert null.z_scores(np.array([2.0, 0.0])).tolist() == [2.0, 0.0]


def _small_wd(**params):
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(60, 20)).astype(np.uint8)
    X[:30, 8:12] = [0, 1, 2, 3]  # ACGT at 8 in positives
    y = np.r_[np.ones(30), np.zeros(30)]
    return WDKernelSVC(degree=4, **params).fit(X, y)


@pytest.fixture(scope="module")
def small_wd():
    return _small_wd(shift=1)


# the default WD model of unstranded peaks reads both strands
@pytest.fixture(scope="module", params=[{"shift": 1}, {"reverse_complement": True}])
def any_wd(request):
    return _small_wd(**request.param)


def test_strongest_placement_is_the_brute_force_one(any_wd):
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 4, 120).astype(np.uint8)
    codes[50:54] = [0, 1, 2, 3]
    engine = effect_engine(any_wd)
    pos = np.array([0, 3, 51, 52, 70, 119])
    alts = [(int(codes[p]) + 1) % 4 for p in pos]
    refs = LETTERS[codes[pos]].tolist()
    rows = np.arange(pos.size)
    chunk, _ = _strongest(
        engine, codes, pos, refs, LETTERS[alts].tolist(), rows, rows, 2
    )
    assert chunk.strongest.all()
    for j, p in enumerate(pos):
        column, effect = strongest_placement_naive(any_wd, codes, int(p), alts[j])
        assert chunk.anchor[j] == column
        assert chunk.effect[j] == pytest.approx(effect, abs=1e-9)


def test_a_variant_in_a_minus_strand_peak_is_scored_as_trained(small_wd):
    rng = np.random.default_rng(6)
    codes = rng.integers(0, 4, 100).astype(np.uint8)
    engine = effect_engine(small_wd)
    windows = Peaks(
        path="peaks",
        kind="bed6",
        chrom=["chr1", "chr1"],
        start=np.array([10, 60]),
        end=np.array([30, 80]),
        strand=np.array(["+", "-"]),
        summit=np.full(2, -1),
        line=np.arange(1, 3),
    )
    placement = Placement.of(engine, windows)
    pos = np.array([15, 66])
    alts = [(int(codes[p]) + 2) % 4 for p in pos]
    chunk, _ = scored_chunk(
        engine,
        placement,
        codes,
        "chr1",
        pos,
        LETTERS[codes[pos]].tolist(),
        LETTERS[alts].tolist(),
        np.arange(2),
        0,
    )
    for j, (start, minus) in enumerate([(10, False), (60, True)]):
        ref = codes[start : start + 20].copy()
        alt = ref.copy()
        alt[pos[j] - start] = alts[j]
        if minus:
            ref, alt = 3 - ref[::-1], 3 - alt[::-1]
        expected = np.diff(small_wd.decision_function(np.stack([ref, alt])))[0]
        assert chunk.effect[j] == pytest.approx(expected, abs=1e-9)
    assert not chunk.strongest.any()


def _variants(tmp_path, kind, *extra):
    """The command line, its null in background between the planted sites."""
    model = _model(tmp_path, kind)
    fa, vcf = _inputs(tmp_path)
    background = tmp_path / "background.bed"
    sites = np.arange(150, CHROM - 150, 100)
    background.write_text("".join(f"chr1\t{s + 20}\t{s + 80}\n" for s in sites))
    argv = ["variants", str(model), "--vcf", str(vcf), "--genome", str(fa)]
    argv += ["--null-windows", str(background)]
    return argv + ["--null", "20000", *extra]


@pytest.mark.parametrize("kind", ["gkm", "wd"])
def test_motif_destroying_variants_are_called(tmp_path, kind, capsys):
    out = tmp_path / "e.tsv"
    assert main([*_variants(tmp_path, kind, "-o", str(out), "--calls", "0.05")]) == 0
    said = capsys.readouterr().out
    assert "called" in said and "random SNVs" in said
    _, rows = _read(out)
    p = np.array([float(r["p_value"]) for r in rows])
    q = np.array([float(r["q_value"]) for r in rows])
    assert ((p > 0) & (p <= 1)).all() and (q >= p - 1e-12).all()
    hits = np.array([r["id"].startswith("hit") for r in rows])
    assert (q[hits] <= 0.05).mean() >= 0.75
    assert (q[~hits] <= 0.05).mean() <= 0.25
    assert f"called {int((q <= 0.05).sum())} of 16 variants" in said


def test_no_null_gives_na(tmp_path):
    out = tmp_path / "e.tsv"
    assert main([*_variants(tmp_path, "gkm", "-o", str(out)), "--null", "0"]) == 0
    _, rows = _read(out)
    assert {r["p_value"] for r in rows} == {"NA"}


def test_vcf_output_is_bgzipped_indexed_and_annotated(tmp_path):
    pysam = pytest.importorskip("pysam")
    out = tmp_path / "calls.vcf.gz"
    assert main([*_variants(tmp_path, "gkm", "-o", str(out), "--quiet")]) == 0
    assert (tmp_path / "calls.vcf.gz.tbi").is_file()
    with pysam.VariantFile(str(out)) as vcf:
        assert {"POIM_EFFECT", "POIM_Q", "POIM_TOP"} <= set(vcf.header.info)
        records = list(vcf.fetch("chr1"))  # through the tabix index
    assert len(records) == 16
    for record in records:
        effect, q = record.info["POIM_EFFECT"][0], record.info["POIM_Q"][0]
        assert np.isfinite(effect) and 0 < q <= 1
        assert ">" in record.info["POIM_TOP"][0]
    with gzip.open(out, "rt") as handle:  # BGZF is gzip: every line kept
        assert sum(not line.startswith("#") for line in handle) == 16


def test_the_vcf_output_is_sorted_for_its_index(tmp_path):
    pytest.importorskip("pysam")
    out = tmp_path / "calls.vcf.gz"  # the input's lines are shuffled
    assert main([*_variants(tmp_path, "gkm", "-o", str(out), "--quiet")]) == 0
    with gzip.open(out, "rt") as handle:
        pos = [int(line.split("\t")[1]) for line in handle if line[0] != "#"]
    assert pos == sorted(pos) and len(pos) == 16


def test_variants_refuse_to_replace_without_force(tmp_path, capsys):
    out = tmp_path / "e.tsv"
    argv = [*_variants(tmp_path, "gkm", "-o", str(out)), "--null", "0"]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "--force" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0
    other = tmp_path / "notes.tsv"
    other.write_text("my own notes\n")
    argv[argv.index(str(out))] = str(other)
    assert main([*argv, "--force"]) == 2
    assert other.read_text() == "my own notes\n"


def test_plot_titles_name_the_variant():
    class Table:
        chrom, pos = ["chr2"], np.array([1234])
        ref, alt, id = ["A"], ["G"], ["chr2:1234:A:G"]

    assert variant_title(Table, 0) == "chr2:1234 A>G"
    Table.id = ["rs42"]
    assert variant_title(Table, 0) == "chr2:1234 A>G (rs42)"


def test_q_values_are_stratified_by_peaks():
    from poimkit.variants.scoring import VariantScores

    rng = np.random.default_rng(2)
    scores = VariantScores(12, 0)
    scores.effect = rng.normal(size=12)
    null = VariantNull(rng.normal(size=500), "test")
    inside = np.arange(12) < 4
    scores.test({False: null}, inside)
    p = null.p_values(scores.effect)
    assert np.allclose(scores.q[inside], q_values(p[inside]))
    assert np.allclose(scores.q[~inside], q_values(p[~inside]))
    scores.test({False: null})
    assert np.allclose(scores.q, q_values(p))


def test_bed_makes_the_variants_in_peaks_their_own_family(tmp_path, capsys):
    peaks = tmp_path / "peaks.bed"  # around the first 8 sites, as trained
    sites = np.arange(150, CHROM - 150, 100)[:8]
    peaks.write_text("".join(f"chr1\t{s - 17}\t{s + 23}\n" for s in sites))
    out = tmp_path / "e.tsv"
    argv = _variants(tmp_path, "gkm", "-o", str(out), "--calls", "0.05")
    assert main([*argv, "--bed", str(peaks)]) == 0
    assert "8 in peaks, q-values within them" in capsys.readouterr().out
    _, rows = _read(out)
    hits = [r for r in rows if r["id"].startswith("hit")]
    p = np.array([float(r["p_value"]) for r in hits])
    q = np.array([float(r["q_value"]) for r in hits])
    assert np.allclose(q, q_values(p), rtol=1e-3)


def test_variants_refuse_the_input_as_output_and_a_plain_vcf(tmp_path, capsys):
    argv = _variants(tmp_path, "gkm", "--null", "0")
    vcf = argv[argv.index("--vcf") + 1]
    before = Path(vcf).read_bytes()
    assert main([*argv, "-o", vcf, "--force"]) == 2
    assert "-o names the input VCF" in capsys.readouterr().err
    assert Path(vcf).read_bytes() == before
    plain = tmp_path / "effects.vcf"
    assert main([*argv, "-o", str(plain)]) == 2
    assert "a plain .vcf is not written" in capsys.readouterr().err
    assert not plain.exists()


def test_a_scored_vcf_scored_again_keeps_one_copy_of_each_field(tmp_path):
    """Fields of an earlier run are replaced, not repeated (readers take the first)."""
    pysam = pytest.importorskip("pysam")
    first = tmp_path / "first.vcf.gz"
    assert main([*_variants(tmp_path, "gkm", "-o", str(first), "--quiet")]) == 0
    argv = _variants(
        tmp_path, "gkm", "--null", "0", "-o", str(tmp_path / "second.vcf.gz")
    )
    argv[argv.index("--vcf") + 1] = str(first)
    assert main([*argv, "--quiet"]) == 0
    with gzip.open(tmp_path / "second.vcf.gz", "rt") as handle:
        lines = handle.read().splitlines()
    for name in ("POIM_EFFECT", "POIM_P", "POIM_Q"):
        assert sum(line.startswith(f"##INFO=<ID={name},") for line in lines) == 1
    records = [line.split("\t")[7] for line in lines if line[0] != "#"]
    assert len(records) == 16
    for info in records:
        keys = [entry.split("=")[0] for entry in info.split(";")]
        assert len(keys) == len(set(keys)), info
    with pysam.VariantFile(str(tmp_path / "second.vcf.gz")) as vcf:
        p_values = [r.info["POIM_P"][0] for r in vcf.fetch("chr1")]
    assert all(p is None for p in p_values)  # the new run had no null: not the old p


def test_stratified_q_values_say_so_in_the_vcf_header(tmp_path):
    pytest.importorskip("pysam")
    peaks = tmp_path / "peaks.bed"
    sites = np.arange(150, CHROM - 150, 100)[:8]
    peaks.write_text("".join(f"chr1\t{s - 17}\t{s + 23}\n" for s in sites))
    out = tmp_path / "e.vcf.gz"
    argv = _variants(tmp_path, "gkm", "-o", str(out), "--quiet")
    assert main([*argv, "--bed", str(peaks)]) == 0
    with gzip.open(out, "rt") as handle:
        header = [line for line in handle if line.startswith("##INFO=<ID=POIM_Q")]
    assert len(header) == 1 and "within the variants in peaks" in header[0]
