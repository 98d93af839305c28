"""The position-free gapped k-mer model through the command line (``--kernel gkm``)."""

import numpy as np
import pytest

from poimkit import GkmSVC, load_model
from poimkit.cli import main as cli_main
from poimkit.io import read_fasta, write_fasta
from poimkit.poim import Poim

from ..cli_runs import strict_json

MOTIF = "TGACTCAG"


def main(args) -> int:
    return cli_main([str(a) for a in args])


GKM = ["--kernel", "gkm", "--gkm-l", "8", "--gkm-k", "5"]


def reverse_complement(s: str) -> str:
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))


@pytest.fixture(scope="module")
def peaks(tmp_path_factory):
    """Records of 50-90 nt; positives carry the motif anywhere, on either strand."""
    folder = tmp_path_factory.mktemp("gkm_cli")
    rng = np.random.default_rng(0)

    def random_seq():
        return "".join(rng.choice(list("ACGT"), rng.integers(50, 91)))

    pos = []
    for i in range(80):
        s = random_seq()
        site = MOTIF if i % 2 else reverse_complement(MOTIF)
        start = rng.integers(0, len(s) - len(site))
        pos.append(s[:start] + site + s[start + len(site) :])
    neg = [random_seq() for _ in range(80)]
    paths = folder / "pos.fa", folder / "neg.fa"
    write_fasta(paths[0], [f"p{i}" for i in range(80)], pos)
    write_fasta(paths[1], [f"n{i}" for i in range(80)], neg)
    return folder, paths


def test_train_score_poim_motifs(peaks, capsys):
    folder, (pos, neg) = peaks
    model_path = folder / "m.npz"
    code = main(
        ["train", "--pos", pos, "--neg", neg, *GKM, "-C", "1", "-o", model_path]
    )
    assert code == 0
    assert capsys.readouterr().out.startswith("cv_auc")
    model = load_model(model_path)
    assert isinstance(model, GkmSVC) and (model.l, model.k) == (8, 5)

    scores = folder / "scores.tsv"
    assert main(["score", model_path, pos, "-o", scores, "--quiet"]) == 0
    values = [float(r.split("\t")[1]) for r in scores.read_text().splitlines()[1:]]
    assert len(values) == 80 and np.mean(np.array(values) > 0) > 0.9

    poim_path = folder / "p.npz"
    code = main(
        [
            "poim",
            model_path,
            "--max-order",
            "6",
            "--background",
            f"fit:{neg}",
            "--markov-order",
            "1",
            "-o",
            poim_path,
            "--top",
            "3",
        ]
    )
    assert code == 0
    top = capsys.readouterr().out.splitlines()[1:]
    assert all(row.split("\t")[1] == "any" for row in top)
    best = top[0].split("\t")[0]
    assert best in MOTIF or best in reverse_complement(MOTIF)
    poim = Poim.load(poim_path)
    assert poim.position_free and poim.length == model.length_

    sites = folder / "sites.tsv"
    meme = folder / "m.meme"
    code = main(
        ["motifs", poim_path, "--pos", pos, "--neg", neg, "-o", meme, "--sites", sites]
    )
    assert code == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].split("\t")[3:5] == ["any", "any"]
    strands = {r.split("\t")[4] for r in sites.read_text().splitlines()[1:]}
    assert strands == {"+", "-"}


def test_run_gkm_selects_and_reports_anywhere(peaks, tmp_path, capsys):
    _, (pos, neg) = peaks
    out = tmp_path / "out"
    code = main(
        ["run", "--pos", pos, "--neg", neg, *GKM, "--max-order", "5", "-o", out]
        + ["--quiet"]
    )
    assert code == 0
    summary = strict_json(out / "summary.json")
    assert summary["cv_auc"] > 0.9
    assert summary["position_free"] and summary["lengths"] == [50, 90]
    assert summary["parameters"]["chosen"]["l"] == 8
    assert {"reverse_complement", "C"} <= set(summary["selection"]["chosen"])
    assert summary["motifs"] and summary["motifs"][0]["position"] is None
    assert summary["top_kmers"][0]["position"] is None
    assert "anywhere" in (out / "report.html").read_text()
    assert "\tany\tany\t" in capsys.readouterr().out


def test_wd_options_refused_with_gkm(peaks, tmp_path, capsys):
    _, (pos, neg) = peaks
    args = ["run", "--pos", pos, "--neg", neg, "--kernel", "gkm", "--shift", "2"]
    assert main([*args, "-o", tmp_path / "o"]) == 2
    assert "option(s) of the WD kernel" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_unequal_lengths_choose_gkm_or_suggest_it_and_crop(peaks, tmp_path, capsys):
    _, (pos, neg) = peaks
    fast = [*GKM[2:], "--no-grid", "--cv", "0", "--max-motifs", "0"]
    assert main(["run", "--pos", pos, "--neg", neg, *fast, "-o", tmp_path / "a"]) == 0
    err = capsys.readouterr().err
    assert err.count("poimkit: warning: the records have different lengths") == 1
    summary = strict_json(tmp_path / "a" / "summary.json")
    assert summary["family"] == "gkm" and summary["position_free"]
    assert summary["parameters"]["kernel"] == "gkm"
    wd = ["--kernel", "wd", "-o", tmp_path / "o"]
    assert main(["run", "--pos", pos, "--neg", neg, *wd]) == 2
    err = capsys.readouterr().err
    assert "--kernel gkm" in err and "the shortest has 50 letters" in err
    code = main(
        ["train", "--pos", pos, "--neg", neg, "--crop", "60", "--drop-short"]
        + ["--no-grid", "--degree", "6", "--cv", "0", "-o", tmp_path / "m.npz"]
    )
    assert code == 0
    assert load_model(tmp_path / "m.npz").length_ == 60
    # `score` applies the model's own crop to longer records
    scores = tmp_path / "s.tsv"
    code = main(["score", tmp_path / "m.npz", pos, "--drop-short", "-o", scores])
    assert code == 0
    long_enough = sum(x.size >= 60 for x in read_fasta(pos, any_length=True)[1])
    assert len(scores.read_text().splitlines()) == 1 + long_enough < 81


def test_train_gkm_with_the_linear_solver(peaks, tmp_path, capsys):
    """`--kernel gkm --solver linear`: GkmSVC's linear solver, not WDLinearSVC."""
    _, (pos, neg) = peaks
    model_path = tmp_path / "m.npz"
    args = ["train", "--pos", pos, "--neg", neg, *GKM, "--solver", "linear"]
    assert main([*args, "-C", "0.1", "--cv", "0", "-o", model_path]) == 0
    model = load_model(model_path)
    assert isinstance(model, GkmSVC) and model.get_params()["solver"] == "linear"
    capsys.readouterr()
    bad = tmp_path / "bad.npz"
    assert main([*args, "--dask", "127.0.0.1:1", "--cv", "0", "-o", bad]) == 2
    assert "dask apply to the WD kernel's linear solver" in capsys.readouterr().err
    assert main([*args, "--loss", "logistic", "--cv", "0", "-o", bad]) == 2
    assert not bad.exists()
