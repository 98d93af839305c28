import subprocess
import sys

import numpy as np
import pytest

from poimkit import WDKernelSVC, read_fasta
from poimkit.cli import main
from poimkit.datasets import make_gattaca
from poimkit.io import write_fasta
from poimkit.poim import Poim


@pytest.fixture(scope="module")
def fasta_pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    X, y = make_gattaca(n_pos=40, n_neg=40, length=30, mean=12, sd=3, random_state=4)
    pos, neg = folder / "pos.fa", folder / "neg.fa"
    write_fasta(pos, [f"p{i}" for i in range(40)], X[y == 1])
    write_fasta(neg, [f"n{i}" for i in range(40)], X[y == 0])
    return pos, neg, X, y


def test_train_then_score(tmp_path, fasta_pair, capsys):
    pos, neg, _, _ = fasta_pair
    model_path = tmp_path / "m.npz"
    code = main(
        [
            "train",
            "--pos",
            str(pos),
            "--neg",
            str(neg),
            "--degree",
            "6",
            "--cv",
            "3",
            "-o",
            str(model_path),
            "--quiet",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    auc = float(out.split("\t")[1])
    assert 0.5 < auc <= 1.0
    scores_path = tmp_path / "scores.tsv"
    assert (
        main(["score", str(model_path), str(pos), "-o", str(scores_path), "--quiet"])
        == 0
    )
    lines = scores_path.read_text().splitlines()
    assert lines[0] == "id\tscore\tprobability\tpredicted"
    assert len(lines) == 41
    model = WDKernelSVC.load(model_path)
    assert model.calibration_ is not None  # from the CV's out-of-fold scores
    rows = [line.split("\t") for line in lines[1:]]
    scores = np.array([float(r[1]) for r in rows])
    _, X_pos = read_fasta(pos)
    np.testing.assert_allclose(scores, model.decision_function(X_pos), rtol=1e-9)
    p = np.array([float(r[2]) for r in rows])
    np.testing.assert_allclose(p, model.predict_proba(X_pos)[:, 1], rtol=1e-5)
    assert [r[3] for r in rows] == [str(c) for c in model.predict(X_pos)]


def test_train_with_labels_tsv(tmp_path, fasta_pair):
    pos, neg, X, y = fasta_pair
    ids = [f"s{i}" for i in range(len(y))]
    fasta = tmp_path / "all.fa"
    write_fasta(fasta, ids, X)
    labels = tmp_path / "labels.tsv"
    labels.write_text(
        "".join(f"{i}\t{'pos' if c else 'neg'}\n" for i, c in zip(ids, y, strict=True))
    )
    assert (
        main(
            [
                "train",
                "--fasta",
                str(fasta),
                "--labels",
                str(labels),
                "--degree",
                "4",
                "--cv",
                "0",
                "-o",
                str(tmp_path / "m.npz"),
                "--quiet",
            ]
        )
        == 0
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty"),
        (">a\nACGT\n>b\nACNT\n", "record 'b', position 3"),
        (">a\nACGT\n>b\nACG\n", "length"),
    ],
)
def test_bad_fasta_exits_2(tmp_path, fasta_pair, capsys, content, message):
    pos, _, _, _ = fasta_pair
    bad = tmp_path / "bad.fa"
    bad.write_text(content)
    out = tmp_path / "m.npz"
    code = main(
        ["train", "--pos", str(pos), "--neg", str(bad), "-o", str(out), "--quiet"]
        + ["--kernel", "wd"]  # the positional kernel: records of one length
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "bad.fa" in err and message in err
    assert not out.exists()


def test_missing_file_and_wrong_model(tmp_path, fasta_pair, capsys):
    pos, _, _, _ = fasta_pair
    assert (
        main(
            [
                "train",
                "--pos",
                str(pos),
                "--neg",
                str(tmp_path / "nope.fa"),
                "-o",
                str(tmp_path / "m.npz"),
            ]
        )
        == 2
    )
    assert "nope.fa" in capsys.readouterr().err
    (tmp_path / "fake.npz").write_bytes(b"junk")
    assert (
        main(
            [
                "score",
                str(tmp_path / "fake.npz"),
                str(pos),
                "-o",
                str(tmp_path / "s.tsv"),
            ]
        )
        == 2
    )
    assert "fake.npz" in capsys.readouterr().err
    assert not (tmp_path / "s.tsv").exists()


def test_inconsistent_input_options(tmp_path, fasta_pair, capsys):
    pos, _, _, _ = fasta_pair
    assert main(["train", "--pos", str(pos), "-o", str(tmp_path / "m.npz")]) == 2
    assert "--pos and --neg" in capsys.readouterr().err


def test_console_script_version_and_help():
    result = subprocess.run(
        [sys.executable, "-m", "poimkit.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.startswith("poimkit ")
    result = subprocess.run(
        [sys.executable, "-m", "poimkit.cli", "train", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "examples: poimkit train" in result.stdout


def test_poim_command(tmp_path, fasta_pair, capsys):
    pos, neg, _, _ = fasta_pair
    model_path = tmp_path / "m.npz"
    assert (
        main(
            [
                "train",
                "--pos",
                str(pos),
                "--neg",
                str(neg),
                "--degree",
                "6",
                "--cv",
                "0",
                "-o",
                str(model_path),
                "--quiet",
            ]
        )
        == 0
    )
    capsys.readouterr()
    out = tmp_path / "p.npz"
    assert (
        main(
            [
                "poim",
                str(model_path),
                "--max-order",
                "3",
                "-o",
                str(out),
                "--top",
                "4",
                "--top-tsv",
                str(tmp_path / "top.tsv"),
                "--quiet",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "kmer\tposition\tvalue" and len(printed) == 5
    poim = Poim.load(out)
    assert poim.max_order == 3
    assert printed[1].split("\t")[0] == poim.top(1)[0][0]
    assert (
        main(
            [
                "poim",
                str(model_path),
                "--max-order",
                "2",
                "--background",
                f"fit:{neg}",
                "--markov-order",
                "1",
                "-o",
                str(tmp_path / "p1.npz"),
                "--quiet",
            ]
        )
        == 0
    )
    assert Poim.load(tmp_path / "p1.npz").background.order == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--background", "bogus"], "uniform' or 'fit:FASTA"),
        (["--max-order", "30", "--memory-limit", "0.001"], "lower --max-order"),
        (["--markov-order", "2"], "apply to --background fit"),
        (["--background", "fit:/nonexistent.fa"], "nonexistent.fa"),
    ],
)
def test_poim_command_bad_input(tmp_path, fasta_pair, capsys, extra, message):
    pos, neg, _, _ = fasta_pair
    model_path = tmp_path / "m.npz"
    assert (
        main(
            [
                "train",
                "--pos",
                str(pos),
                "--neg",
                str(neg),
                "--degree",
                "3",
                "--cv",
                "0",
                "-o",
                str(model_path),
                "--quiet",
            ]
        )
        == 0
    )
    out = tmp_path / "p.npz"
    assert main(["poim", str(model_path), "-o", str(out), "--quiet", *extra]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_motifs_command(tmp_path, capsys):
    from poimkit import compute_poim
    from poimkit.datasets import make_planted
    from poimkit.motifs.formats import read_motifs

    X, y = make_planted(400, 400, 40, [("GGCCGTAAA", 8, 0)], random_state=3)
    poim_path = tmp_path / "p.npz"
    compute_poim(WDKernelSVC(degree=10).fit(X, y), 5).save(poim_path)
    out = tmp_path / "m.meme"
    logos = tmp_path / "logos"
    assert (
        main(
            [
                "motifs",
                str(poim_path),
                "-o",
                str(out),
                "--max-motifs",
                "2",
                "--logos",
                str(logos),
                "--quiet",
            ]
        )
        == 0
    )
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("name\tconsensus")
    (motif,) = read_motifs(out)[:1]
    assert motif.consensus == "GGCCGTAAA"
    assert abs(motif.position - 8) <= 1
    assert (logos / "motif_1.png").stat().st_size > 0
    assert main(["motifs", str(tmp_path / "none.npz"), "-o", str(out)]) == 2
    assert main(["motifs", str(poim_path), "-o", str(tmp_path / "m.xyz")]) == 2
    assert not (tmp_path / "m.xyz").exists()
