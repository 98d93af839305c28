"""``variants --all-snvs``: every SNV of every peak, brute force on a small genome."""

import gzip

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit import GkmSVC, WDKernelSVC
from poimkit.cli import main
from poimkit.genome.peaks import read_peaks
from poimkit.variants.all_snvs import q_of_counts, score_all_snvs
from poimkit.variants.null import q_values

LETTERS = np.array(list("ACGTN"))
L = 24  # the models' window length


def _genome():
    """Two chromosomes with a motif every 60 letters, N runs and short ends."""
    rng = np.random.default_rng(7)
    chroms = {}
    for name, size in (("chr1", 700), ("chr2", 200)):
        codes = rng.integers(0, 4, size).astype(np.uint8)
        for s in range(30, size - 30, 60):
            codes[s : s + 7] = [2, 0, 3, 3, 0, 1, 0]  # GATTACA
        chroms[name] = codes
    chroms["chr1"][300:304] = 4  # an N run inside a peak's reach
    chroms["chr2"][5] = 4
    return chroms


def _write(tmp_path, chroms, peaks):
    fa = tmp_path / "g.fa"
    fa.write_text("".join(f">{n}\n{''.join(LETTERS[c])}\n" for n, c in chroms.items()))
    bed = tmp_path / "peaks.bed"
    bed.write_text(
        "".join(
            f"{c}\t{s}\t{e}\tp{i}\t0\t{st}\n" for i, (c, s, e, st) in enumerate(peaks)
        )
    )
    return str(fa), str(bed)


# peaks: two overlapping, one over the N run, one on the minus strand, two
# reaching past a chromosome's ends
PEAKS = [
    ("chr1", 20, 60, "+"),
    ("chr1", 40, 70, "+"),
    ("chr1", 285, 320, "+"),
    ("chr1", 500, 530, "-"),
    ("chr1", 690, 700, "+"),
    ("chr2", 0, 10, "+"),
]


def _fit(kind, chroms):
    rng = np.random.default_rng(3)
    pos = []
    codes = chroms["chr1"]
    for s in range(30, 640, 60):
        pos.append(codes[s - 8 : s - 8 + L])
    neg = [rng.integers(0, 4, L).astype(np.uint8) for _ in pos]
    X = np.stack(pos + neg)
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    if kind == "gkm":
        return GkmSVC(l=5, k=3).fit(X, y)
    model = WDKernelSVC(degree=4, shift=1).fit(X, y)
    if kind == "wd, moved copies":  # as if trained on copies moved by 3 letters
        model.training_offsets_ = (0, -3, 3)
    return model


def _in_window(model, codes, s, p, minus):
    """Each letter's change at p in the window starting at s (None: no window)."""
    if s < 0 or s + L > codes.size or (codes[s : s + L] > 3).any():
        return None
    ref = codes[s : s + L].copy()
    out = np.full(4, np.nan)
    for c in range(4):
        if c == codes[p]:
            continue
        alt = ref.copy()
        alt[p - s] = c
        pair = np.stack([ref, alt])
        if minus:
            pair = 3 - pair[:, ::-1]
        out[c] = np.diff(model.decision_function(pair))[0]
    return out


def _brute(model, kind, chroms, peaks, chrom, p, strand_of):
    """Every letter's change at p by scoring both windows, or None if unscorable.

    A model trained on moved copies: the mean over the moved windows that
    hold p, if its own window can be scored.
    """
    codes = chroms[chrom]
    if kind == "gkm":
        return _in_window(model, codes, p - L // 2, p, False)
    s, minus = strand_of[(chrom, p)]  # the peak's training window holding p
    own = _in_window(model, codes, s, p, minus)
    if own is None:
        return None
    found = [own]
    for offset in model.training_offsets_[1:]:
        if s + offset <= p < s + offset + L:
            moved = _in_window(model, codes, s + offset, p, minus)
            if moved is not None:
                found.append(moved)
    return np.mean(found, axis=0)


def _placements(peaks, chroms):
    """(chrom, p) -> (window start, minus) of the last window starting <= p."""
    windows = peaks.windows(L)
    held = {}
    order = np.argsort(windows.start, kind="stable")
    for i in order:
        size = chroms[windows.chrom[i]].size
        for p in range(max(windows.start[i], 0), min(windows.end[i], size)):
            held[(windows.chrom[i], p)] = (
                int(windows.start[i]),
                windows.strand[i] == "-",
            )
    return held


@pytest.mark.parametrize("kind", ["gkm", "wd", "wd, moved copies"])
def test_every_snv_effect_equals_scoring_both_windows(tmp_path, kind):
    chroms = _genome()
    fa, bed = _write(tmp_path, chroms, PEAKS)
    model = _fit(kind, chroms)
    found = score_all_snvs(model, fa, bed, null=0)
    peaks = read_peaks(bed)
    strand_of = _placements(peaks, chroms)
    seen = set()
    n_scored = 0
    for s in found.chromosomes:
        for j, p in enumerate(s.pos.tolist()):
            assert (s.chrom, p) not in seen
            seen.add((s.chrom, p))
            got = s.effect[j]
            if s.ref[j] > 3:
                assert np.isnan(got).all()
                continue
            want = _brute(model, kind, chroms, peaks, s.chrom, p, strand_of)
            if want is None:
                assert np.isnan(got).all(), (s.chrom, p)
                continue
            assert np.allclose(got, want, atol=1e-9, equal_nan=True), (s.chrom, p)
            n_scored += 3
    assert seen == set(strand_of)  # every position of every window, once
    assert found.n_snvs == n_scored > 100
    assert sum(found.skipped.values()) > 0  # the N run and the ends


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=60), st.integers(12, 30))
def test_q_by_count_is_benjamini_hochberg_of_the_p_values(ks, n_null):
    counts = np.bincount(np.array(ks), minlength=n_null + 1)
    p = (1.0 + np.array(ks)) / (1.0 + n_null)
    assert np.array_equal(q_of_counts(counts)[ks], q_values(p))


def _table(path):
    with gzip.open(path, "rt") as handle:
        lines = [line.rstrip("\n") for line in handle]
    meta = [line for line in lines if line.startswith("##")]
    header = next(line for line in lines if line.startswith("#c"))[1:].split("\t")
    rows = [
        dict(zip(header, line.split("\t"), strict=True))
        for line in lines
        if not line.startswith("#")
    ]
    return meta, rows


def test_the_command_writes_an_indexed_table_that_agrees_with_a_vcf(tmp_path, capsys):
    pysam = pytest.importorskip("pysam")
    chroms = _genome()
    fa, bed = _write(tmp_path, chroms, PEAKS)
    model_path = tmp_path / "gkm.npz"
    _fit("gkm", chroms).save(model_path)
    out = tmp_path / "snvs.tsv.gz"
    argv = [
        "variants",
        str(model_path),
        "--all-snvs",
        "--bed",
        bed,
        "--genome",
        fa,
        "--null",
        "3000",
        "-o",
        str(out),
        "--calls",
        "0.5",
    ]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert "called" in said and "SNVs" in said
    meta, rows = _table(out)
    assert meta[0] == "##poimkit variants --all-snvs"
    keys = [(r["chrom"], int(r["pos"]), r["alt"]) for r in rows]
    assert keys == sorted(keys, key=lambda k: (k[0] != "chr1", k[1], k[2]))
    q = np.array([float(r["q_value"]) for r in rows])
    p = np.array([float(r["p_value"]) for r in rows])
    assert np.allclose(q, q_values(p), rtol=1e-3)
    # tabix reads a region
    inside = [r for r in rows if r["chrom"] == "chr1" and 40 <= int(r["pos"]) <= 50]
    with pysam.TabixFile(str(out)) as index:
        fetched = list(index.fetch("chr1", 39, 50))
    assert len(fetched) == len(inside) > 0
    # the same SNVs through a VCF give the same effects
    some = rows[::7]
    vcf = tmp_path / "some.vcf"
    vcf.write_text(
        "##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\n"
        + "".join(
            f"{r['chrom']}\t{r['pos']}\t.\t{r['ref']}\t{r['alt']}\n" for r in some
        )
    )
    effects = tmp_path / "some.tsv"
    assert (
        main(
            [
                "variants",
                str(model_path),
                "--vcf",
                str(vcf),
                "--genome",
                fa,
                "--null",
                "0",
                "-o",
                str(effects),
            ]
        )
        == 0
    )
    lines = effects.read_text().splitlines()[1:]
    via_vcf = np.array([float(line.split("\t")[5]) for line in lines])
    mine = np.array([float(r["effect"]) for r in some])
    assert np.allclose(mine, via_vcf, rtol=1e-5, atol=1e-12)
    # replaced only with --force, and only poimkit's own table
    assert main(argv) == 2
    assert main([*argv, "--force"]) == 0


@pytest.mark.parametrize(
    "change, message",
    [
        (["--bed", None], "--all-snvs needs --bed"),
        (["-o", "snvs.tsv"], "tabix-indexed table"),
        (["--plots", "3"], "--plots goes with"),
    ],
)
def test_bad_arguments_exit_2_before_any_work(tmp_path, capsys, change, message):
    chroms = _genome()
    fa, bed = _write(tmp_path, chroms, PEAKS)
    model_path = tmp_path / "gkm.npz"
    _fit("gkm", chroms).save(model_path)
    options = {"--bed": bed, "--genome": fa, "-o": str(tmp_path / "s.tsv.gz")}
    flag, value = change
    if flag in options and value is None:
        del options[flag]
    elif flag in options:
        options[flag] = str(tmp_path / value)
    argv = ["variants", str(model_path), "--all-snvs"]
    for k, v in options.items():
        argv += [k, v]
    if flag not in options and value is not None:
        argv += [flag, value]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.glob("*s.tsv*"))
