"""Runs on many records: the CV's sample, the family at scale, the folds' motifs."""

import warnings
from dataclasses import replace

import numpy as np
import pytest
from sklearn.base import clone

from poimkit import RunOptions
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.run import motif_model
from poimkit.run.data import (
    LabeledData,
    MovedCopies,
    as_codes,
    run_sample,
    sample_description,
)
from poimkit.run.options import FamilyNotice, resolve_scale
from poimkit.run.plan import make_plan
from poimkit.run.registry import KERNEL_MAX_SEQUENCES
from poimkit.run.report.page import sample_note
from poimkit.run.train import train_model

from ..cli_runs import main, strict_json, write_gattaca


def _data(n_pos: int, n_neg: int, kernel: str = "wd", copies: bool = False):
    X, y = make_gattaca(n_pos=n_pos, n_neg=n_neg, length=30, random_state=0)
    ids = [f"chr{1 + i % 3}:{100 * i}-{100 * i + 30}" for i in range(y.size)]
    moved = None
    if copies:
        moved = MovedCopies((0, 1), np.stack([X, np.roll(X, 1, axis=1)]))
    return LabeledData(
        ids, as_codes(X if kernel == "wd" else list(X), kernel), y, [], 0, moved
    )


@pytest.mark.parametrize("size", [100, 333, 999])
def test_the_sample_keeps_the_class_shares_the_order_and_the_copies(size):
    data = _data(300, 700, copies=True)
    sample = run_sample(data, RunOptions(cv_sample=size, seed=3))
    assert sample.y.size == size
    assert abs((sample.y == 1).sum() - 0.3 * size) <= 1
    rows = [data.ids.index(i) for i in sample.ids]  # records in reading order
    assert rows == sorted(rows) and len(set(rows)) == size
    np.testing.assert_array_equal(sample.X, data.X[rows])
    np.testing.assert_array_equal(sample.y, data.y[rows])
    np.testing.assert_array_equal(sample.copies.windows, data.copies.windows[:, rows])
    # seeded: the same sample again, another with another seed
    again = run_sample(data, RunOptions(cv_sample=size, seed=3))
    other = run_sample(data, RunOptions(cv_sample=size, seed=4))
    assert again.ids == sample.ids and other.ids != sample.ids
    assert sample_description(sample, data) == {
        "records": size,
        "of": 1000,
        "positive": int((sample.y == 1).sum()),
    }


@pytest.mark.parametrize("size", [None, 0, 1000, 5000])
def test_no_sample_when_every_record_fits_or_none_is_asked(size):
    data = _data(300, 700)
    assert run_sample(data, RunOptions(cv_sample=size)) is data
    assert sample_description(data, data) is None and sample_note(None) == ""


@pytest.mark.parametrize("size", [-1, 1, 99])
def test_a_sample_too_small_is_refused(size):
    with pytest.raises(InputError, match="cv_sample"):
        RunOptions(cv_sample=size).check()


def test_auto_takes_the_gapped_kmer_model_where_the_wd_kernel_solver_cannot():
    many = KERNEL_MAX_SEQUENCES + 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options = resolve_scale(RunOptions(), many)
    assert options.kernel == "gkm"
    assert [type(w.message) for w in caught] == [FamilyNotice]
    assert f"{many} records" in str(caught[0].message)
    unchanged = [
        (RunOptions(), KERNEL_MAX_SEQUENCES),  # the kernel solver takes them
        (RunOptions(degree=12), many),  # an option of the WD kernel
        (RunOptions(solver="linear"), many),  # a solver asked for
        (RunOptions(cv_sample=None), many),  # every record cross-validated
        (RunOptions(cv_sample=0), many),
        (RunOptions(kernel="wd"), many),
    ]
    for given, n in unchanged:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert resolve_scale(given, n) == given


def test_the_cnn_is_not_tried_beside_the_svm_on_more_records_than_the_sample():
    pytest.importorskip("torch")
    data = _data(60, 60)
    tried = RunOptions(cnn_min_records=100, cv=2, cv_sample=120)
    assert make_plan(data, tried).contender is not None
    assert make_plan(data, replace(tried, cv_sample=119)).contender is None
    assert make_plan(data, replace(tried, cv_sample=0)).contender is not None


def test_the_cv_runs_on_the_sample_and_the_final_model_on_every_record():
    data = _data(300, 300, kernel="gkm")
    options = RunOptions(kernel="gkm", cv=3, cv_sample=240, C=1.0, grid=False)
    plan = make_plan(data, options)
    trained = train_model(data, plan)
    sample = trained.sample
    assert sample.y.size == 240 and trained.cv.scores.size == 240
    assert sum(fold["n_test"] for fold in trained.cv.folds) == 240
    # the final model is the template fitted on every record
    alone = clone(plan.templates["gkm"]).fit(data.X, data.y)
    np.testing.assert_allclose(
        trained.model.decision_function(data.X), alone.decision_function(data.X)
    )
    # its Platt scaling is fitted on the sample's out-of-fold scores
    again = clone(plan.templates["gkm"]).fit(data.X, data.y)
    again.calibrate(trained.cv.scores, sample.y)
    assert trained.model.calibration_ == again.calibration_
    everything = train_model(data, make_plan(data, replace(options, cv_sample=None)))
    assert everything.sample is data and everything.cv.scores.size == 600


def test_a_fold_finds_its_motifs_in_a_sample_of_its_training_records(monkeypatch):
    import poimkit.motifs as motifs

    seen = []
    found = motifs.extract_motifs

    def spy(poim, **kwargs):
        seen.append(np.asarray(kwargs["labels"]))
        return found(poim, **kwargs)

    monkeypatch.setattr(motifs, "extract_motifs", spy)
    monkeypatch.setattr(motif_model, "FOLD_MOTIF_RECORDS", 150)
    data = _data(150, 250)
    options = RunOptions(kernel="wd", degree=3, max_motifs=1, cv=0)
    plan = make_plan(data, options)
    train = np.arange(0, 400, 2)  # 200 records: 75 positive
    model = clone(plan.templates["wd"]).fit(data.X[train], data.y[train])
    motif_model.fold_motif_model(model, data, train, options)
    assert seen[-1].size == 150 and abs(seen[-1].sum() - 150 * 75 / 200) <= 1
    few = np.arange(0, 400, 4)  # 100 records: all of them
    small = clone(plan.templates["wd"]).fit(data.X[few], data.y[few])
    motif_model.fold_motif_model(small, data, few, options)
    np.testing.assert_array_equal(seen[-1], data.y[few])


def test_a_run_on_more_records_than_the_sample_says_so(tmp_path, capsys):
    write_gattaca(tmp_path, 200, 30, 15, 2)
    out = tmp_path / "run"
    code = main(
        ["run", "--pos", tmp_path / "p.fa", "--neg", tmp_path / "n.fa", "-o", out]
        + ["--cv", "2", "--cv-sample", "150", "--max-motifs", "1", "--quiet"]
    )
    assert code == 0
    printed = capsys.readouterr().out
    said = "# cross-validation, motifs on a stratified sample of 150 of the 400"
    assert said in printed
    summary = strict_json(out / "summary.json")
    assert summary["sample"] == {"records": 150, "of": 400, "positive": 75}
    assert summary["n_sequences"] == 400 and summary["n_motif_sequences"] == 150
    assert summary["parameters"]["cv_sample"] == 150
    assert sum(e["n_test"] for e in summary["folds"]) == 150
    report = (out / "report.html").read_text()
    assert "stratified random sample of 150 (75 positive)" in report
    assert "The final model was trained on all 400" in report


def test_a_bad_sample_size_is_one_line_and_exit_2(tmp_path, capsys):
    write_gattaca(tmp_path, 20, 30, 15, 2)
    out = tmp_path / "run"
    code = main(
        ["run", "--pos", tmp_path / "p.fa", "--neg", tmp_path / "n.fa", "-o", out]
        + ["--cv-sample", "7"]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and not out.exists()
    wanted = "cv_sample must be 0 (every record) or at least 100, got 7"
    assert len(err) == 1 and err[0].endswith(wanted)


def test_train_says_what_it_cross_validated(tmp_path, capsys):
    write_gattaca(tmp_path, 100, 30, 15, 2)
    args = ["train", "--pos", tmp_path / "p.fa", "--neg", tmp_path / "n.fa"]
    args += ["--kernel", "gkm", "--no-grid", "--cv-sample", "120"]
    assert main([*args, "--cv", "2", "-o", tmp_path / "m.npz"]) == 0
    said = "cross-validated on a stratified sample of 120 of the 200 records"
    assert said in capsys.readouterr().err
    assert main([*args, "--cv", "0", "-o", tmp_path / "n.npz"]) == 0
    assert "stratified sample" not in capsys.readouterr().err
