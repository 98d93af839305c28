"""The command line with the linear solver: streaming training, any-model scoring."""

import gzip

import numpy as np
import pytest

from poimkit import WDLinearSVC, load_model, read_fasta
from poimkit.cli import main
from poimkit.datasets import make_gattaca
from poimkit.io import write_fasta

from ..cli_runs import strict_json


@pytest.fixture(scope="module")
def fasta_pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    X, y = make_gattaca(n_pos=60, n_neg=60, length=30, mean=12, sd=2, random_state=7)
    pos, neg = folder / "pos.fa", folder / "neg.fa"
    write_fasta(pos, [f"p{i}" for i in range(60)], X[y == 1])
    write_fasta(neg, [f"n{i}" for i in range(60)], X[y == 0])
    return pos, neg


def train(tmp_path, pos, neg, *extra):
    out = tmp_path / "m.npz"
    args = ["train", "--pos", str(pos), "--neg", str(neg), "--degree", "6"]
    return main([*args, "--solver", "linear", *extra, "-o", str(out), "--quiet"]), out


def test_streamed_training_scoring_and_poims(tmp_path, fasta_pair, capsys):
    pos, neg = fasta_pair
    code, model_path = train(tmp_path, pos, neg, "--cv", "0", "--chunk-size", "16")
    assert code == 0
    model = load_model(model_path)
    assert isinstance(model, WDLinearSVC) and model.chunk_size == 16
    direct = WDLinearSVC(degree=6, chunk_size=16).fit((pos, neg))
    np.testing.assert_array_equal(model.coef_, direct.coef_)

    gz = tmp_path / "pos.fa.gz"
    gz.write_bytes(gzip.compress(pos.read_bytes()))
    scores_path = tmp_path / "scores.tsv"
    assert main(["score", str(model_path), str(gz), "-o", str(scores_path)]) == 0
    assert "scored 60 sequences" in capsys.readouterr().err
    lines = scores_path.read_text().splitlines()
    assert lines[0] == "id\tscore\tprobability\tpredicted" and len(lines) == 61
    _, X_pos = read_fasta(pos)
    scores = np.array([float(line.split("\t")[1]) for line in lines[1:]])
    np.testing.assert_allclose(scores, model.decision_function(X_pos), rtol=1e-9)
    predicted = [line.split("\t")[3] for line in lines[1:]]
    assert predicted == [str(c) for c in model.predict(X_pos)]

    poim_path = tmp_path / "poim.npz"
    assert (
        main(
            [
                "poim",
                str(model_path),
                "--max-order",
                "3",
                "-o",
                str(poim_path),
                "--top",
                "3",
            ]
        )
        == 0
    )
    assert poim_path.exists() and len(capsys.readouterr().out.splitlines()) == 4


def test_cross_validated_in_memory(tmp_path, fasta_pair, capsys):
    pos, neg = fasta_pair
    code, model_path = train(tmp_path, pos, neg, "--cv", "3", "--loss", "logistic")
    assert code == 0
    auc = float(capsys.readouterr().out.split("\t")[1])
    assert 0.5 < auc <= 1.0
    assert load_model(model_path).loss == "logistic"


def test_streamed_training_on_a_local_dask_cluster(tmp_path, fasta_pair):
    pytest.importorskip("distributed")
    pos, neg = fasta_pair
    code, model_path = train(tmp_path, pos, neg, "--cv", "0", "--dask", "local")
    assert code == 0
    direct = WDLinearSVC(degree=6).fit((pos, neg))
    np.testing.assert_allclose(load_model(model_path).coef_, direct.coef_, rtol=1e-10)


def test_streamed_bad_input_names_file_record_position(tmp_path, fasta_pair, capsys):
    pos, _ = fasta_pair
    bad = tmp_path / "bad.fa"
    bad.write_text(">a\n" + "A" * 30 + "\n>b\n" + "ACGN" + "A" * 26 + "\n")
    code, out = train(tmp_path, pos, bad, "--cv", "0")
    assert code == 2 and not out.exists()
    err = capsys.readouterr().err
    assert "bad.fa, record 'b', position 4" in err and "--drop-invalid" in err
    code, out = train(tmp_path, pos, bad, "--cv", "0", "--drop-invalid")
    assert code == 0 and load_model(out).length_ == 30
    assert "poimkit: warning: " in capsys.readouterr().err  # one line, no source


def test_linear_options_need_the_linear_solver(tmp_path, fasta_pair, capsys):
    pos, neg = fasta_pair
    base = ["train", "--pos", str(pos), "--neg", str(neg), "-o", str(tmp_path / "m")]
    assert main([*base, "--dask", "local"]) == 2
    assert "--dask applies to --solver linear" in capsys.readouterr().err
    assert main([*base, "--loss", "logistic"]) == 2
    assert "linear solver only" in capsys.readouterr().err


def test_score_checks_length_and_model_kind(tmp_path, fasta_pair, capsys):
    pos, neg = fasta_pair
    _, model_path = train(tmp_path, pos, neg, "--cv", "0")
    short = tmp_path / "short.fa"
    write_fasta(short, ["s"], ["ACGT" * 5])
    out = tmp_path / "s.tsv"
    assert main(["score", str(model_path), str(short), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "short.fa" in err and "--crop 30" in err and not out.exists()
    poim = tmp_path / "p.npz"
    assert main(["poim", str(model_path), "--max-order", "2", "-o", str(poim)]) == 0
    assert main(["score", str(poim), str(pos), "-o", str(out)]) == 2
    assert "not a poimkit model file" in capsys.readouterr().err


def test_run_with_the_linear_solver(tmp_path, fasta_pair, capsys, monkeypatch):
    """The linear solver's degree: the default when its exact table fits."""
    from poimkit.svm.linear import table

    pos, neg = fasta_pair
    base = ["run", "--pos", str(pos), "--neg", str(neg), "--solver", "linear"]
    out = tmp_path / "out"
    fixed = ["--cv", "3", "--max-order", "3", "-o", str(out), "--quiet"]
    assert main([*base, *fixed, "--max-motifs", "0"]) == 0  # fits: degree 20
    summary = strict_json(out / "summary.json")
    assert summary["parameters"]["chosen"]["degree"] == 20
    assert "degree" not in capsys.readouterr().err
    # tables that outgrow the budget beyond degree 10: the largest that fits
    budget = table.memory_budget()
    monkeypatch.setattr(
        table, "estimate_train_bytes", lambda n, L, degree, *a: degree * budget / 10.5
    )
    assert main([*base, *fixed, "--degree", "20", "--force"]) == 2
    assert "use --degree 10 or less" in capsys.readouterr().err
    assert main([*base, *fixed, "--max-motifs", "0", "--force"]) == 0
    assert "using degree 10 (exact POIMs)" in capsys.readouterr().err
    summary = strict_json(out / "summary.json")
    assert summary["parameters"]["chosen"]["degree"] == 10
    monkeypatch.undo()
    # the table outgrows the estimate (e.g. repeats): trained again, exact
    X, y = make_gattaca(n_pos=60, n_neg=60, length=30, mean=12, sd=2, random_state=7)
    small = WDLinearSVC(degree=9).fit(X, y).table_bytes_  # orders up to 9 fit
    monkeypatch.setattr(table, "estimate_train_bytes", lambda *a: 0)
    monkeypatch.setattr(table, "memory_budget", lambda: small)
    assert main([*base, *fixed, "--max-motifs", "0", "--force"]) == 0
    err = capsys.readouterr().err
    assert "again with degree 9 (exact POIMs)" in err
    summary = strict_json(out / "summary.json")
    assert summary["parameters"]["chosen"]["degree"] == 9
    monkeypatch.undo()
    args = ["--degree", "6", "--cv", "3", "--max-order", "3", "--max-motifs", "1"]
    args += ["--force"]
    assert main([*base, *args, "-o", str(out), "--quiet"]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["parameters"]["solver"] == "linear"
    assert 0.5 < summary["cv_auc"] <= 1.0
    assert isinstance(load_model(out / "model.npz"), WDLinearSVC)
