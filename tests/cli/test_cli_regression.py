"""Regression through the command line: ``train --targets``, ``score`` on regressors."""

import contextlib
import io
import re

import numpy as np
import pytest

from poimkit import GkmSVR, WDKernelSVR, load_model
from poimkit.errors import InputError
from poimkit.io import read_fasta, read_targets, write_fasta, write_table
from poimkit.run.regression import regression_scores
from poimkit.run.regression_search import (
    REGRESSION_C,
    REGRESSION_EPSILON,
    REGRESSION_FIXED,
)
from poimkit.run.results import RunSummary

from ..cli_runs import main, strict_json

#: planted additive effects: (motif, start in records of one length, effect)
MOTIFS = [("TGACTC", 6, 1.0), ("GATTA", 18, 0.7)]


def planted(n, length, seed, lengths=None, noise=0.2):
    """Records with two motifs, each present in half; target = sum of effects."""
    rng = np.random.default_rng(seed)
    seqs, y = [], []
    for _ in range(n):
        size = length if lengths is None else int(rng.integers(*lengths))
        s = list(rng.choice(list("ACGT"), size))
        value = 0.0
        for motif, start, effect in MOTIFS:
            if rng.random() < 0.5:
                at = start if lengths is None else int(rng.integers(0, size - 6))
                s[at : at + len(motif)] = motif
                value += effect
        seqs.append("".join(s))
        y.append(value + rng.normal(scale=noise))
    return [f"r{i}" for i in range(n)], seqs, np.array(y)


def write_data(folder, ids, seqs, y, name="data"):
    fasta, table = folder / f"{name}.fa", folder / f"{name}.tsv"
    write_fasta(fasta, ids, seqs)
    write_table(
        table,
        ["id", "activity"],
        [(i, f"{v:.6f}") for i, v in zip(ids, y, strict=True)],
    )
    return fasta, table


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("regression")
    fasta, table = write_data(folder, *planted(150, 30, 0))
    return folder, fasta, table


def cv_figures(out: str) -> dict[str, float]:
    return {
        line.split("\t")[0]: float(line.split("\t")[1])
        for line in out.splitlines()
        if line.startswith("cv_")
    }


@pytest.fixture(scope="module")
def wd_model(data):
    folder, fasta, table = data
    model = folder / "wd.npz"
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(
            ["train", "--fasta", fasta, "--targets", table, "--degree", "4"]
            + ["--cv", "3", "-o", model, "--quiet"]
        )
    assert code == 0
    return model, out.getvalue()


def test_train_wd_regression_cv(wd_model):
    model, out = wd_model
    figures = cv_figures(out)
    assert set(figures) == {"cv_pearson", "cv_spearman", "cv_r2"}
    assert figures["cv_pearson"] > 0.7
    assert figures["cv_spearman"] > 0.6
    assert 0.3 < figures["cv_r2"] <= 1
    assert "+/-" in out and "(3 folds)" in out
    reg = load_model(model)
    assert isinstance(reg, WDKernelSVR)
    # C and epsilon chosen by the inner CV, in units of the targets' SD
    _, _, y = planted(150, 30, 0)
    scale = np.std(np.round(y, 6))
    assert reg.degree == 4
    assert min(abs(reg.C / scale - c) for c in REGRESSION_C) < 1e-9
    assert min(abs(reg.epsilon / scale - e) for e in REGRESSION_EPSILON) < 1e-9


def test_no_grid_fixes_C_and_epsilon_in_target_units(data, tmp_path):
    _, fasta, table = data
    _, _, y = planted(150, 30, 0)
    scale = np.std(np.round(y, 6))
    out = tmp_path / "m.npz"
    code = main(
        ["train", "--fasta", fasta, "--targets", table, "--no-grid", "--cv", "0"]
        + ["-o", out, "--quiet"]
    )
    assert code == 0
    reg = load_model(out)
    assert isinstance(reg, WDKernelSVR) and (reg.degree, reg.shift) == (20, 0)
    np.testing.assert_allclose(
        [reg.C, reg.epsilon],
        [REGRESSION_FIXED["C"] * scale, REGRESSION_FIXED["epsilon"] * scale],
    )


@pytest.mark.parametrize("kernel", ["wd", "gkm"])
def test_linear_solver_trains_the_regressor(data, tmp_path, kernel):
    """--solver linear: WDLinearSVR (fixed parameters) or GkmSVR's linear solver."""
    from poimkit import WDLinearSVR

    _, fasta, table = data
    out = tmp_path / "m.npz"
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        code = main(
            ["train", "--fasta", fasta, "--targets", table, "--solver", "linear"]
            + ["--kernel", kernel, "--cv", "3", "-o", out, "--quiet"]
            + (
                ["--degree", "4"]
                if kernel == "wd"
                else ["--gkm-l", "6", "--gkm-k", "4"]
            )
        )
    assert code == 0
    assert cv_figures(printed.getvalue())["cv_pearson"] > 0.6
    reg = load_model(out)
    if kernel == "wd":
        _, _, y = planted(150, 30, 0)
        assert isinstance(reg, WDLinearSVR) and reg.degree == 4
        assert reg.C == pytest.approx(REGRESSION_FIXED["C"] * np.std(np.round(y, 6)))
    else:
        assert isinstance(reg, GkmSVR) and reg.solver == "linear"


def test_selection_is_invariant_to_the_targets_unit(tmp_path):
    """Targets times 1000 (plus an offset): the same choice, the same figures."""
    ids, seqs, y = planted(120, 30, 3)
    runs = []
    for name, values in (("a", y), ("b", 1000 * y + 5000)):
        fasta, table = write_data(tmp_path, ids, seqs, values, name=name)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            code = main(
                ["train", "--fasta", fasta, "--targets", table, "--degree", "3"]
                + ["--cv", "3", "-o", tmp_path / f"{name}.npz", "--quiet"]
            )
        assert code == 0
        reg = load_model(tmp_path / f"{name}.npz")
        runs.append((cv_figures(out.getvalue()), reg.shift, reg.C, reg.epsilon))
    (fa, shift_a, C_a, eps_a), (fb, shift_b, C_b, eps_b) = runs
    assert shift_a == shift_b
    np.testing.assert_allclose([C_b / C_a, eps_b / eps_a], [1000, 1000], rtol=1e-4)
    for name in fa:
        assert abs(fa[name] - fb[name]) < 2e-3, name


def test_auto_chooses_gkm_for_position_free_signal(tmp_path, capsys):
    """Motifs at random starts in records of one length: the inner CV picks gkm."""

    ids, seqs, y = planted(200, 40, 4, lengths=(40, 41), noise=0.1)
    fasta, table = write_data(tmp_path, ids, seqs, y)
    out = tmp_path / "out"
    code = main(
        ["run", "--fasta", fasta, "--targets", table, "--gkm-l", "6", "--gkm-k", "4"]
        + ["--cv", "3", "--max-order", "2", "-o", out]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    summary = strict_json(out / "summary.json")
    selection = summary["selection"]
    assert summary["model"] == "GkmSVR" and selection["family"] == "gkm"
    families = selection["families"]
    assert families["gkm"]["best_inner_pearson"] > families["wd"]["best_inner_pearson"]
    assert len(selection["folds"]) == 3 and "inner_pearson" in selection
    assert "chosen by inner CV" in captured.err and "Pearson" in captured.err
    low, high = summary["cv_pearson_interval"]
    assert low < summary["cv_pearson"] < high and len(summary["cv_pearson_folds"]) == 3
    # read back as typed, a regression's summary is the same
    typed = RunSummary.from_json(summary)
    assert typed.task == "regression" and typed.cv.metric == "pearson"
    assert typed.cv.selection == selection and typed.to_json() == summary
    page = (out / "report.html").read_text()
    assert "nested cross-validation" in page and "best inner Pearson" in page
    assert "gapped k-mer kernel</b>" in page


def test_train_epsilon_and_C_reach_the_model(data, tmp_path):
    _, fasta, table = data
    out = tmp_path / "m.npz"
    code = main(
        ["train", "--fasta", fasta, "--targets", table, "--degree", "3", "--cv", "0"]
        + ["-C", "2.5", "--epsilon", "0.3", "-o", out, "--quiet"]
    )
    assert code == 0
    reg = load_model(out)
    assert (reg.C, reg.epsilon, reg.degree) == (2.5, 0.3, 3)


def test_train_auto_picks_gkm_for_different_lengths(tmp_path, capsys):
    ids, seqs, y = planted(150, None, 1, lengths=(30, 45), noise=0.1)
    fasta, table = write_data(tmp_path, ids, seqs, y)
    out = tmp_path / "gkm.npz"
    code = main(
        ["train", "--fasta", fasta, "--targets", table, "--gkm-l", "6"]
        + ["--gkm-k", "4", "--cv", "3", "-o", out]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "gapped k-mer" in captured.err
    assert cv_figures(captured.out)["cv_pearson"] > 0.5
    assert isinstance(load_model(out), GkmSVR)


def test_score_writes_the_regressors_predictions(data, wd_model, tmp_path):
    _, fasta, _ = data
    model, _ = wd_model
    out = tmp_path / "scores.tsv"
    assert main(["score", model, fasta, "-o", out, "--quiet"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].split("\t") == ["id", "predicted"]
    ids, X = read_fasta(fasta)
    rows = [line.split("\t") for line in lines[1:]]
    assert [r[0] for r in rows] == ids
    expected = load_model(model).predict(X)
    np.testing.assert_allclose([float(r[1]) for r in rows], expected, rtol=1e-9)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("r3\tabc", "line 5: the value of 'r3' is 'abc', not a finite number"),
        ("r3\tnan", "line 5: the value of 'r3' is 'nan', not a finite number"),
        ("r3\tinf", "line 5: the value of 'r3' is 'inf', not a finite number"),
        ("r3\t1.0\textra", "line 5: expected 2 columns (id, value)"),
        ("nosuch\t1.0", "1 ids in the table are not records of"),
        (None, "1 records of"),  # r3 has no line
    ],
)
def test_bad_targets_exit_2_naming_file_and_line(tmp_path, capsys, line, message):
    ids, seqs, y = planted(12, 30, 2)
    fasta = tmp_path / "a.fa"
    write_fasta(fasta, ids, seqs)
    rows = ["id\tvalue"] + [f"{i}\t{v:.3f}" for i, v in zip(ids, y, strict=True)]
    if line is None:
        del rows[4]
    else:
        rows[4] = line
    table = tmp_path / "t.tsv"
    table.write_text("\n".join(rows) + "\n")
    out = tmp_path / "model.npz"
    code = main(
        ["train", "--fasta", fasta, "--targets", table, "--cv", "0"] + ["-o", out]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert str(table) in err and message in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.fa", "t.tsv"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--loss", "logistic"], "--loss applies to classifiers"),
        (["--solver", "linear", "--mismatches", "1"], "apply to the kernel solver"),
        (["--positive-label", "1"], "--positive-label applies to --labels"),
        (["--kernel", "gkm", "--degree", "3"], "apply to --kernel wd"),
        (["--epsilon", "-1"], "epsilon"),
        (["--bed", "x.bed", "--genome", "g.fa"], "--fasta or --bed (peaks), not both"),
    ],
)
def test_train_targets_refuses_what_does_not_apply(
    data, tmp_path, capsys, extra, message
):
    _, fasta, table = data
    out = tmp_path / "m.npz"
    code = main(["train", "--fasta", fasta, "--targets", table, "-o", out, *extra])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_run_writes_model_poim_summary_and_figure(data, tmp_path, capsys):

    from poimkit import compute_poim
    from poimkit.poim import Poim

    _, fasta, table = data
    out = tmp_path / "out"
    code = main(
        ["run", "--fasta", fasta, "--targets", table, "--degree", "4", "--cv", "3"]
        + ["--max-order", "3", "-o", out]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    summary = strict_json(out / "summary.json")
    assert summary["task"] == "regression" and summary["model"] == "WDKernelSVR"
    assert summary["cv_pearson"] > 0.7
    assert round(summary["cv_pearson"], 4) == cv_figures(captured.out)["cv_pearson"]
    # printed as a classification run prints: figures, motifs, the report's path
    lines = captured.out.splitlines()
    assert lines[-1] == f"report\t{out / 'report.html'}"
    assert "motif\tconsensus\tposition\tspread\teffect\tq_value" in lines
    assert "results in" not in captured.err  # the unsigned stderr line is gone
    assert {"cv_spearman", "cv_r2", "cv_r2_std"} <= set(summary)
    assert summary["figures"][0] == "predicted_vs_observed.png"
    assert "poim_order_3.png" in summary["figures"]
    # the CV interval lies above 0: motifs, their files and the report
    assert summary["motifs"], summary["motifs_note"]
    assert all(m["q_value"] <= 0.05 for m in summary["motifs"])
    assert (out / "motifs.meme").exists() and (out / "sites.tsv").exists()
    page = (out / "report.html").read_text()
    assert "Pearson" in page and "rank-biserial" in page
    # each step timed, as a classification run's: in the summary and the report
    steps = ["read", "cross-validation", "training", "POIM", "motifs", "outputs"]
    assert list(summary["runtimes"]) == [*steps, "total"]
    assert "wall time" in page
    text = re.sub(r"data:image/[^'\"]+", "", page)  # base64 holds any letters
    assert "ROC" not in text and "AUC" not in text
    assert (out / "figures" / "predicted_vs_observed.png").stat().st_size > 1000
    model = load_model(out / "model.npz")
    poim = Poim.load(out / "poim.npz")
    # the planted motif TGACTC at 0-based 6 carries the largest 3-mer POIM values
    # (top_kmers positions are 1-based)
    top = summary["top_kmers"][0]
    assert top["kmer"] in "TGACTC" and 7 <= top["position"] <= 10
    assert poim.max_order == 3 and isinstance(model, WDKernelSVR)
    np.testing.assert_allclose(poim.q(3), compute_poim(model, 3).q(3))
    # --force replaces it; with --cv 0 no CV figures and no figure
    code = main(
        ["run", "--fasta", fasta, "--targets", table, "--degree", "4", "--cv", "0"]
        + ["--max-order", "2", "-o", out, "--force", "--quiet"]
    )
    assert code == 0
    printed = capsys.readouterr().out.splitlines()  # not empty with --cv 0
    assert printed[0].startswith("# no cross-validation (--cv 0)")
    assert printed[-1] == f"report\t{out / 'report.html'}"
    summary = strict_json(out / "summary.json")
    assert "cv_pearson" not in summary
    assert "predicted_vs_observed.png" not in summary["figures"]
    assert summary["motifs"] == [] and "cv 0" in summary["motifs_note"]


def test_run_on_noise_targets_reports_no_motifs(data, tmp_path):

    _, fasta, _ = data
    ids = [f"r{i}" for i in range(150)]  # the records of `data`
    noise = np.random.default_rng(3).normal(size=len(ids))
    table = tmp_path / "noise.tsv"
    write_table(
        table, ["id", "t"], [(i, f"{v:.6f}") for i, v in zip(ids, noise, strict=True)]
    )
    out = tmp_path / "out"
    code = main(
        ["run", "--fasta", fasta, "--targets", table, "--degree", "4", "--cv", "3"]
        + ["--max-order", "3", "-o", out, "--quiet"]
    )
    assert code == 0
    summary = strict_json(out / "summary.json")
    assert summary["cv_pearson_interval"][0] <= 0
    assert summary["motifs"] == [] and "no better than chance" in summary["motifs_note"]
    # the motif files as a classification run without motifs has them: empty
    assert (out / "sites.tsv").read_text().count("\n") == 1  # the header
    assert "MOTIF" not in (out / "motifs.meme").read_text()
    assert not list((out / "figures").glob("logo_*"))
    assert "no better than chance" in (out / "report.html").read_text()


@pytest.mark.parametrize(
    ("extra", "family"),
    [(["--degree", "4", "--shift", "2"], "wd"), (["--kernel", "gkm"], "gkm")],
)
def test_run_refuses_a_poim_over_the_memory_limit_before_training(
    data, tmp_path, capsys, monkeypatch, extra, family
):
    """Before: the selection, CV and final fit ran, then the POIM step refused."""
    from poimkit.run import regression

    def trained(*args, **kwargs):
        raise AssertionError("the models were trained before the memory check")

    monkeypatch.setattr(regression, "nested_regression", trained)
    monkeypatch.setattr(regression, "cv_regression", trained)
    _, fasta, table = data
    out = tmp_path / "out"
    code = main(
        ["run", "--fasta", fasta, "--targets", table, "--memory-limit", "1e-6"]
        + [*extra, "-o", out]
    )
    err = capsys.readouterr().err
    assert code == 2, err
    # the need and the limit in digits that differ (not "0.0 GiB over 0.0 GiB")
    assert re.search(
        r"need about 0\.0*[1-9][0-9.e-]* GiB, over the limit of 1e-06", err
    )
    assert not out.exists()


def test_run_bad_targets_leaves_no_folder(tmp_path, capsys):
    ids, seqs, y = planted(12, 30, 2)
    fasta = tmp_path / "a.fa"
    write_fasta(fasta, ids, seqs)
    table = tmp_path / "t.tsv"
    table.write_text("r0\t1\nr1\tx\n")
    out = tmp_path / "out"
    assert main(["run", "--fasta", fasta, "--targets", table, "-o", out]) == 2
    assert "line 2" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.fa", "t.tsv"]


def test_read_targets_header_and_order(tmp_path):
    fasta = tmp_path / "a.fa"
    write_fasta(fasta, ["a", "b", "c"], ["ACGT", "AAAA", "GGGG"])
    table = tmp_path / "t.tsv"
    table.write_text("# comment\nid\tactivity\nc\t3\na\t-1.5\n\nb\t2e-1\n")
    ids, X, y = read_targets(fasta, table)
    assert ids == ["a", "b", "c"] and y.tolist() == [-1.5, 0.2, 3.0]
    # a first line with a number is data, not a header: its unknown id is named
    table.write_text("x\t1\na\t1\nb\t2\nc\t3\n")
    with pytest.raises(InputError, match=r"not records of .*'x'.*line 1"):
        read_targets(fasta, table)
    table.write_text("a\t1\nb\t1\nc\t1\n")
    with pytest.raises(InputError, match="all 3 targets are equal"):
        read_targets(fasta, table)
    table.write_text("a\t1\nb\t1\na\t2\nc\t1\n")
    with pytest.raises(InputError, match=r"listed twice.*lines 1 and 3"):
        read_targets(fasta, table)


def test_regression_scores_match_scipy():
    from scipy.stats import pearsonr, spearmanr
    from sklearn.metrics import r2_score

    rng = np.random.default_rng(3)
    y = rng.normal(size=50)
    p = y + rng.normal(size=50)
    p[:5] = p[5]  # ties
    s = regression_scores(y, p)
    assert s["pearson"] == pytest.approx(pearsonr(y, p)[0])
    assert s["spearman"] == pytest.approx(spearmanr(y, p)[0])
    assert s["r2"] == pytest.approx(r2_score(y, p))


@pytest.mark.parametrize("command", ["run", "train"])
def test_targets_help_describes_selection_and_motifs(command, capsys):
    """Before: it said regression had no selection and no motifs "yet"."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    start = text.index("--targets TSV|COLUMN instead")
    help_text = text[start : start + 900]
    assert "yet" not in help_text and "chosen by nested CV" in help_text
    assert "counted words" in help_text
