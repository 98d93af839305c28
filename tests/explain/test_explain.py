"""``poimkit explain``: modisco-lite inputs, scores, logos and a bigWig."""

import numpy as np
import pytest

from poimkit import Poim, load_model
from poimkit.cli import main
from poimkit.datasets import make_gattaca, write_synthetic_genome
from poimkit.explain.attributions import Attributions
from poimkit.explain.kmer_poim import attribution_poim

from ..cli_runs import strict_json


@pytest.fixture(scope="module")
def fasta_case(tmp_path_factory):
    from poimkit import GkmSVC

    folder = tmp_path_factory.mktemp("explain")
    X, y = make_gattaca(n_pos=40, n_neg=40, length=40, random_state=3)
    model = GkmSVC(l=6, k=4).fit(X, y)
    model.save(folder / "m.npz")
    letters = np.array(list("ACGT"))
    fasta = folder / "r.fa"
    fasta.write_text(
        "".join(f">r{i}\n{''.join(letters[x])}\n" for i, x in enumerate(X))
    )
    return folder, fasta, X


def _load_like_modisco(path):
    """What modisco-lite's ``motifs -s/-a`` reads from an .npz."""
    modisco = pytest.importorskip("modiscolite.cli")
    return modisco._load_input(path)


def test_explain_fasta_writes_what_modisco_reads(fasta_case, tmp_path):
    folder, fasta, X = fasta_case
    out = tmp_path / "out"
    args = ["explain", str(folder / "m.npz"), "--fasta", str(fasta), "--top", "3"]
    assert main([*args, "-o", str(out), "--quiet"]) == 0
    ohe = np.load(out / "ohe.npz")["arr_0"]
    attr = np.load(out / "attr.npz")["arr_0"]
    assert ohe.shape == attr.shape == (len(X), 4, X.shape[1])
    assert (ohe.sum(axis=1) == 1).all()
    assert (ohe.argmax(axis=1) == X).all()
    assert _load_like_modisco(out / "attr.npz").shape == attr.shape
    model = load_model(folder / "m.npz")
    lines = (out / "scores.tsv").read_text().splitlines()[1:]
    scores = np.array([float(line.split("\t")[1]) for line in lines])
    assert scores == pytest.approx(model.decision_function(X), abs=1e-5)
    own = (attr * ohe).sum(axis=(1, 2)) + model.intercept_
    assert own == pytest.approx(scores, abs=1e-3)  # float32 attributions
    assert sorted(p.name for p in (out / "logos").iterdir()) == [
        "001.png",
        "002.png",
        "003.png",
    ]
    summary = strict_json(out / "summary.json")
    assert summary["attribution_poim_max_order"] == 6
    poim = Poim.load(out / "attribution_poim.npz")
    found = Attributions(np.load(out / "attr.npz")["arr_0"], ohe, np.full(len(X), 40))
    want = attribution_poim(found, 6)
    for l in (1, 4, 6):
        assert np.allclose(poim.q(l), want.q(l), atol=1e-4)
    # a second explain into the same folder: --force replaces poimkit's own
    assert main([*args, "-o", str(out), "--quiet"]) == 2
    assert main([*args, "-o", str(out), "--quiet", "--force"]) == 0


def test_explain_peaks_writes_a_bigwig_at_genome_positions(tmp_path):
    pyBigWig = pytest.importorskip("pyBigWig")
    from poimkit.genome.loci import record_loci

    g = write_synthetic_genome(tmp_path / "g", n_peaks=60, seed=13)
    # summits with strands: some windows are read as reverse complements
    peaks = tmp_path / "s.narrowPeak"
    strands = [line.split("\t")[5] for line in g.peaks_bed6.read_text().splitlines()]
    rows = [line.split("\t") for line in g.peaks.read_text().splitlines()]
    peaks.write_text(
        "".join(
            "\t".join([*f[:5], s, *f[6:]]) + "\n"
            for f, s in zip(rows, strands, strict=True)
        )
    )
    model = tmp_path / "m.npz"
    train = ["train", "--bed", str(peaks), "--genome", str(g.genome), "--width", "60"]
    train += ["--kernel", "gkm", "--no-grid", "--cv", "0", "--quiet"]
    assert main([*train, "-o", str(model)]) == 0
    out = tmp_path / "out"
    args = ["explain", str(model), "--bed", str(peaks), "--genome", str(g.genome)]
    assert main([*args, "--width", "60", "-o", str(out), "--quiet"]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["bigwig"] and summary["n_records"] > 40
    attr = np.load(out / "attr.npz")["arr_0"]
    ohe = np.load(out / "ohe.npz")["arr_0"]
    contributions = (attr * ohe).sum(axis=1)
    ids = [
        line.split("\t")[0]
        for line in (out / "scores.tsv").read_text().split("\n")[1:]
        if line
    ]
    loci = record_loci(ids)
    assert loci.minus.any()
    covered = {}
    for c, s in zip(loci.chrom, loci.start, strict=True):
        covered.setdefault(c, []).append(int(s))
    handle = pyBigWig.open(str(out / "contributions.bw"))
    checked = 0
    for r in range(len(ids)):
        c, s = loci.chrom[r], int(loci.start[r])
        if any(abs(o - s) < 60 for o in covered[c] if o != s):
            continue  # overlapping windows are averaged
        expected = contributions[r][::-1] if loci.minus[r] else contributions[r]
        got = np.array(handle.values(c, s, s + 60))
        assert got == pytest.approx(expected, abs=1e-4)
        checked += 1
    handle.close()
    assert checked > 20


def test_explain_without_pybigwig_writes_the_rest(tmp_path, capsys, monkeypatch):
    """Without pyBigWig: ohe.npz and attr.npz, and a notice that the bigWig is not."""
    monkeypatch.setitem(__import__("sys").modules, "pyBigWig", None)
    g = write_synthetic_genome(tmp_path / "g", n_peaks=30, seed=3)
    model = tmp_path / "m.npz"
    train = ["train", "--bed", str(g.peaks), "--genome", str(g.genome)]
    train += ["--width", "40", "--kernel", "gkm", "--no-grid", "--cv", "0", "--quiet"]
    assert main([*train, "-o", str(model)]) == 0
    out = tmp_path / "out"
    args = ["explain", str(model), "--bed", str(g.peaks), "--genome", str(g.genome)]
    assert main([*args, "--width", "40", "-o", str(out), "--quiet"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install pyBigWig" in err[0]
    assert (out / "ohe.npz").is_file() and (out / "attr.npz").is_file()
    assert not (out / "contributions.bw").exists()
    summary = strict_json(out / "summary.json")
    assert summary["bigwig"] is False and "pyBigWig" in summary["bigwig_skipped"]


def test_a_positional_model_refuses_records_of_another_length(tmp_path, capsys):
    from poimkit import WDKernelSVC

    X, y = make_gattaca(n_pos=20, n_neg=20, length=30, random_state=1)
    WDKernelSVC(degree=4).fit(X, y).save(tmp_path / "wd.npz")
    fasta = tmp_path / "r.fa"
    fasta.write_text(">a\nACGTACGTAC\n")
    args = ["explain", str(tmp_path / "wd.npz"), "--fasta", str(fasta)]
    assert main([*args, "-o", str(tmp_path / "out"), "--quiet"]) == 2
    assert "of its length 30" in capsys.readouterr().err


def test_motifs_of_the_attribution_poim_from_the_command_line(fasta_case, tmp_path):
    """explain, then motifs on its attribution_poim.npz: the planted GATTACA."""
    folder, fasta, X = fasta_case
    out = tmp_path / "out"
    argv = ["explain", str(folder / "m.npz"), "--fasta", str(fasta), "--top", "0"]
    assert main([*argv, "--max-order", "5", "-o", str(out), "--quiet"]) == 0
    letters = np.array(list("ACGT"))
    for name, rows in (("pos", X[:40]), ("neg", X[40:])):
        (tmp_path / f"{name}.fa").write_text(
            "".join(f">{name}{i}\n{''.join(letters[x])}\n" for i, x in enumerate(rows))
        )
    meme = tmp_path / "m.meme"
    argv = ["motifs", str(out / "attribution_poim.npz"), "-o", str(meme), "--quiet"]
    pos, neg = str(tmp_path / "pos.fa"), str(tmp_path / "neg.fa")
    assert main([*argv, "--pos", pos, "--neg", neg]) == 0
    heads = [line for line in meme.read_text().splitlines() if line.startswith("MOTIF")]
    assert any("ATTAC" in h or "GTAAT" in h for h in heads), heads


def test_explain_refuses_a_max_order_below_one_before_any_work(fasta_case, tmp_path):
    folder, fasta, _ = fasta_case
    out = tmp_path / "out"
    argv = ["explain", str(folder / "m.npz"), "--fasta", str(fasta), "--max-order"]
    assert main([*argv, "0", "-o", str(out), "--quiet"]) == 2
    assert not out.exists()
