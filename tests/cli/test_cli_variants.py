"""``poimkit variants`` end to end: planted motif, exit codes, nothing half-written."""

import gzip
from functools import cache

import numpy as np
import pytest

from poimkit import GkmSVC, WDKernelSVC
from poimkit.cli import main

MOTIF = "GATTACA"
CHROM = 3000


@cache
def _world():
    """A genome with the motif planted every 100 letters, and training windows."""
    rng = np.random.default_rng(0)
    letters = np.array(list("ACGT"))
    seq = letters[rng.integers(0, 4, CHROM)]
    sites = np.arange(150, CHROM - 150, 100)
    for s in sites:
        seq[s : s + len(MOTIF)] = list(MOTIF)
    genome = "".join(seq)
    # training: 40-nt windows with the motif at 17 (where the variant windows of
    # the motif-destroying SNVs at site + 3 put it), or without it
    pos = [genome[s - 17 : s + 23] for s in sites]
    neg = ["".join(letters[rng.integers(0, 4, 40)]) for _ in range(len(sites))]
    return genome, sites, pos, neg


def _model(tmp_path, kind):
    genome, sites, pos, neg = _world()
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    model = GkmSVC(l=6, k=4) if kind == "gkm" else WDKernelSVC(degree=6, shift=1)
    model.fit(pos + neg, y)
    path = tmp_path / f"{kind}.npz"
    model.save(path)
    return path


def _inputs(tmp_path):
    genome, sites, _, _ = _world()
    fa = tmp_path / "g.fa"
    fa.write_text(">chr1\n" + genome + "\n")
    rng = np.random.default_rng(1)
    rows = []
    for s in sites[:8]:  # destroy the motif: the T of GATTACA at s + 3
        p = s + 3
        rows.append((p, genome[p], "C" if genome[p] != "C" else "G", "hit"))
    for s in sites[:8]:  # neutral: 40 letters downstream of a site, random change
        p = s + 50
        rows.append((p, genome[p], "ACGT"[("ACGT".index(genome[p]) + 1) % 4], "bg"))
    rng.shuffle(rows)
    body = "".join(
        f"chr1\t{p + 1}\t{tag}{i}\t{r}\t{a}\t.\n"
        for i, (p, r, a, tag) in enumerate(rows)
    )
    vcf = tmp_path / "v.vcf.gz"
    with gzip.open(vcf, "wt") as handle:
        handle.write("##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\n" + body)
    return fa, vcf


def _read(path):
    lines = path.read_text().splitlines()
    header = lines[0].split("\t")
    return header, [
        dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]
    ]


@pytest.mark.parametrize("kind", ["gkm", "wd"])
def test_planted_motif_destroying_variants_rank_first(tmp_path, kind, capsys):
    model = _model(tmp_path, kind)
    fa, vcf = _inputs(tmp_path)
    out = tmp_path / "effects.tsv"
    code = main(
        [
            "variants",
            str(model),
            "--vcf",
            str(vcf),
            "--genome",
            str(fa),
            "-o",
            str(out),
            "--plots",
            "2",
            "--top",
            "2",
        ]
    )
    assert code == 0
    header, rows = _read(out)
    assert header == [
        "chrom",
        "pos",
        "id",
        "ref",
        "alt",
        "effect",
        "z",
        "p_value",
        "q_value",
        "ref_score",
        "alt_score",
        "top_kmers",
    ]
    assert len(rows) == 16
    ranked = sorted(rows, key=lambda r: float(r["effect"]))
    assert all(r["id"].startswith("hit") for r in ranked[:8])
    for r in rows:
        e, rs, a = (float(r[c]) for c in ("effect", "ref_score", "alt_score"))
        assert abs(a - rs - e) < 1e-9
        assert len(r["top_kmers"].split(";")) <= 2
    plots = sorted((tmp_path / "effects_plots").iterdir())
    assert len(plots) == 2 and plots[0].name.startswith("001_hit")
    assert "scored 16 variants" in capsys.readouterr().err


def test_pairs_input_and_n_skipped(tmp_path, capsys):
    model = _model(tmp_path, "gkm")
    pairs = tmp_path / "p.tsv"
    pairs.write_text("a\tACGATTACAGT\tACGATCACAGT\nb\tACGTTTTACN\tACGTTTTACG\n")
    out = tmp_path / "e.tsv"
    assert main(["variants", str(model), "--pairs", str(pairs), "-o", str(out)]) == 0
    _, rows = _read(out)
    assert [r["id"] for r in rows] == ["a"] and rows[0]["chrom"] == "."
    assert float(rows[0]["effect"]) < 0
    assert "1 (N in a sequence)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--vcf", "{vcf}"], "--vcf needs --genome"),
        (["--vcf", "{bad_ref}", "--genome", "{fa}"], "line 3: REF"),
        (["--vcf", "{chrom}", "--genome", "{fa}"], "line 3: chromosome 'chr9'"),
        (["--vcf", "{broken}", "--genome", "{fa}"], "line 4: POS"),
        (["--pairs", "{pairs}"], "line 1: the ref sequence has 5 letters"),
    ],
)
def test_bad_input_exit_2_nothing_written(tmp_path, capsys, extra, message):
    model = _model(tmp_path, "wd")
    fa, vcf = _inputs(tmp_path)
    genome = _world()[0]
    head = "##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\n"
    wrong = "ACGT"[("ACGT".index(genome[500]) + 1) % 4]
    files = {
        "vcf": vcf,
        "fa": fa,
        "bad_ref": tmp_path / "r.vcf",
        "chrom": tmp_path / "c.vcf",
        "broken": tmp_path / "b.vcf",
        "pairs": tmp_path / "p.tsv",
    }
    files["bad_ref"].write_text(head + f"chr1\t501\t.\t{wrong}\tA\n")
    files["chrom"].write_text(head + "chr9\t5\t.\tA\tC\n")
    files["broken"].write_text(head + "chr1\t5\t.\tA\tC\nchr1\tfive\t.\tA\tC\n")
    files["pairs"].write_text("v\tACGTA\tACGTT\n")
    out = tmp_path / "out.tsv"
    argv = ["variants", str(model), *[a.format(**files) for a in extra], "-o", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) == 1 and message in errors[0]
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]


def test_skip_mismatched_ref_counts(tmp_path, capsys):
    model = _model(tmp_path, "gkm")
    fa, _ = _inputs(tmp_path)
    genome = _world()[0]
    wrong = "ACGT"[("ACGT".index(genome[500]) + 1) % 4]
    right = genome[700]
    vcf = tmp_path / "v.vcf"
    vcf.write_text(
        "#CHROM\tPOS\tID\tREF\tALT\n"
        f"chr1\t501\t.\t{wrong}\tA\nchr1\t701\t.\t{right}\tN\nchr1\t2\t.\t{genome[1]}\tA\n"
        f"chr1\t1001\t.\t{genome[1000]}\t<DEL>\n"
    )
    out = tmp_path / "e.tsv"
    argv = [
        "variants",
        str(model),
        "--vcf",
        str(vcf),
        "--genome",
        str(fa),
        "-o",
        str(out),
    ]
    assert main([*argv, "--skip-mismatched-ref"]) == 0
    err = capsys.readouterr().err
    assert "scored 0 variants" in err
    for reason in (
        "1 (REF not matching the genome)",
        "1 (N in the window)",
        "1 (window past a chromosome end)",
        "1 (symbolic ALT",
    ):
        assert reason in err
    assert _read(out)[1] == []
