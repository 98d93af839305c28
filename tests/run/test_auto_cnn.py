"""``kernel="auto"`` with the CNN beside the SVM: the plan, the rule, a run."""

from dataclasses import replace

import numpy as np
import pytest

from poimkit import RunOptions
from poimkit.run.data import LabeledData
from poimkit.run.families import keep_family
from poimkit.run.plan import make_plan
from poimkit.run.results import CVResult
from poimkit.svm.metrics import tie_tolerance

from ..cli_runs import main, strict_json, write_gattaca


def _cv(auc: float, chosen: str = "svm") -> CVResult:
    """A cross-validation's result as `keep_family` reads it."""
    figures = {"cv_auc": auc, "cv_auc_std": 0.01, "cv_auc_interval": [0, 1]}
    return CVResult(
        figures={**figures, "cv_accuracy": 0.5},
        chosen_model=chosen,
        models={"svm": {"cv_auc": auc}},
        scores=np.zeros(4),
    )


@pytest.mark.parametrize("gain_in_errors", [-3.0, 0.0, 0.5, 0.99, 1.01, 2.0])
def test_the_cnn_is_kept_only_when_better_by_more_than_one_standard_error(
    gain_in_errors,
):
    y = np.array([0, 1] * 400)
    svm = 0.80
    tolerance = tie_tolerance(svm, (400, 400))
    cnn = svm + gain_in_errors * tolerance
    kept, cnn_kept = keep_family(_cv(svm), _cv(cnn, "stack"), y, "gkm")
    compared = kept.families_compared
    # the tolerance is that of the best figure; beyond it only if cnn leads
    best_tolerance = tie_tolerance(max(svm, cnn), (400, 400))
    wins = cnn > svm + best_tolerance
    assert compared["chosen"] == ("cnn" if wins else "kernel") and cnn_kept == wins
    assert kept.figure() == (cnn if wins else svm)
    assert kept.chosen_model == ("stack" if wins else "svm")
    assert compared["kernel"]["family"] == "gkm"
    assert compared["cnn"]["cv_auc"] == cnn and compared["kernel"]["cv_auc"] == svm
    assert "out_of_fold_scores" not in compared["cnn"]
    assert np.isclose(compared["tolerance"], best_tolerance)


def _data(n: int) -> LabeledData:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, (n, 30), dtype=np.uint8)
    return LabeledData([], X, np.arange(n) % 2, [], 0)


def test_auto_plans_the_cnn_only_from_its_record_count_with_torch(monkeypatch):
    pytest.importorskip("torch")
    small, large = _data(60), _data(120)
    options = RunOptions(cnn_min_records=100, cv=2)
    assert make_plan(small, options).contender is None
    contender = make_plan(large, options).contender
    assert contender is not None and contender.options.kernel == "cnn"
    assert type(contender.templates["cnn"]).__name__ == "CNNClassifier"
    # the kernels' options do not reach the CNN, which refuses them
    given = RunOptions(cnn_min_records=100, cv=2, C=3.0, grid=True)
    assert make_plan(large, given).contender.options.C is None
    for other in (
        RunOptions(cnn_min_records=None, cv=2),
        RunOptions(cnn_min_records=100, cv=0),
        RunOptions(cnn_min_records=100, cv=2, kernel="gkm"),
    ):
        assert make_plan(large, other).contender is None
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert make_plan(large, options).contender is None


@pytest.fixture(scope="module")
def fasta(tmp_path_factory):
    folder = tmp_path_factory.mktemp("auto_cnn")
    write_gattaca(folder, 60, 24, mean=8, sd=2, seed=1)
    return folder


SMALL = ["--cnn-filters", "8", "--cnn-layers", "1", "--cnn-epochs", "3"]
FAST = ["--cv", "2", "--max-order", "3", "--no-grid", "--degree", "3", "--quiet"]


def test_auto_run_compares_both_families_in_the_report(fasta, tmp_path):
    pytest.importorskip("torch")
    out = tmp_path / "run"
    args = ["run", "--pos", fasta / "p.fa", "--neg", fasta / "n.fa", "-o", out]
    assert main([*args, *SMALL, *FAST, "--cnn-min-records", "100"]) == 0
    summary = strict_json(out / "summary.json")
    compared = summary["families_compared"]
    kernel, cnn = compared["kernel"], compared["cnn"]
    assert kernel["family"] == "wd" and cnn["family"] == "cnn"
    best = max(kernel["cv_auc"], cnn["cv_auc"])
    tolerance = tie_tolerance(best, (60, 60))
    assert np.isclose(compared["tolerance"], tolerance)
    ties = kernel["cv_auc"] >= best - tolerance  # the SVM is kept on a tie
    assert compared["chosen"] == ("kernel" if ties else "cnn")
    kept = compared[compared["chosen"]]
    assert summary["cv_auc"] == kept["cv_auc"]
    assert summary["family"] == ("wd" if compared["chosen"] == "kernel" else "cnn")
    assert summary["runtimes"]["CNN cross-validation"] > 0
    report = (out / "report.html").read_text()
    assert "Families compared." in report and "SVM (wd)" in report


def test_auto_run_that_keeps_the_cnn_explains_the_cnn(fasta, tmp_path, monkeypatch):
    """The wiring once the CNN is kept: its model, sampled POIM and report."""
    pytest.importorskip("torch")
    import poimkit.run.train as train

    def cnn_kept(kernel, cnn, y, family):
        compared = keep_family(kernel, cnn, y, family)[0].families_compared
        return replace(cnn, families_compared={**compared, "chosen": "cnn"}), True

    monkeypatch.setattr(train, "keep_family", cnn_kept)
    out = tmp_path / "run"
    args = ["run", "--pos", fasta / "p.fa", "--neg", fasta / "n.fa", "-o", out]
    assert main([*args, *SMALL, *FAST, "--cnn-min-records", "100"]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["family"] == "cnn" and summary["n_parameters"] > 0
    assert summary["parameters"]["kernel"] == "cnn"
    # the CNN family's own choice, or the CNN itself if the final fit has no motif
    cnn_models = summary["families_compared"]["cnn"]["models"]
    assert summary["cv_auc"] == cnn_models[summary["chosen_model"]]["cv_auc"]
    from poimkit import Poim, load_model

    metadata = Poim.load(out / "poim.npz").metadata
    assert metadata["method"] == "sampled"
    # both strands averaged: its motifs' sites are sought on both strands
    assert metadata["model_reverse_complement"] == "True"
    assert type(load_model(out / "model.npz")).__name__ == "CNNClassifier"
    report = (out / "report.html").read_text()
    assert "dilated residual CNN" in report and "the CNN's family is kept" in report


def test_train_says_which_family_it_kept(fasta, tmp_path, capsys):
    pytest.importorskip("torch")
    args = ["train", "--pos", fasta / "p.fa", "--neg", fasta / "n.fa"]
    small = [*SMALL, "--cv", "2", "--no-grid", "--degree", "3"]
    out = tmp_path / "m.npz"
    assert main([*args, *small, "--cnn-min-records", "100", "-o", out]) == 0
    assert "the CNN" in capsys.readouterr().err


def test_a_run_hands_its_progress_and_chromosomes_to_a_cnn_fit():
    from poimkit.run.copy_fits import CopyFits

    class Recorder:
        fits_groups = True

        def get_params(self, deep=False):
            return {}

        def set_params(self, **params):
            return self

        def fit(self, X, y, **kwargs):
            self.kwargs = kwargs
            return self

    data = _data(10)
    groups = np.array(["chr1", "chr2"] * 5)
    rows = np.arange(6)
    fitted = CopyFits(data, groups, progress=True).fit(Recorder(), "cnn", {}, rows)
    assert fitted.kwargs["progress"] is True
    assert fitted.kwargs["groups"].tolist() == groups[rows].tolist()
    assert CopyFits(data).fit(Recorder(), "cnn", {}, rows).kwargs == {
        "groups": None,
        "progress": False,
    }
