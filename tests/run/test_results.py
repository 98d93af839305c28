"""A run's typed results: `CVResult` and `RunSummary` (issue 56).

The summary a run writes is `RunSummary.to_json`; reading it back
(`RunSummary.from_json`) must give the same file, and every key must land in
a typed place (a field, the CV's figures or parts), never be dropped.
"""

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from poimkit.errors import InputError
from poimkit.io.outdir import RUN_FORMAT
from poimkit.run.results import CVResult, RunSummary

FIGURES = {
    "cv_auc": 0.8,
    "cv_auc_std": 0.05,
    "cv_auc_interval": [0.7, 0.9],
    "cv_auc_folds": [0.75, 0.85],
    "cv_accuracy": 0.7,
}


def _cv(**given) -> CVResult:
    mapping = {
        **FIGURES,
        "out_of_fold_scores": np.arange(4.0),
        "out_of_fold_probabilities": np.full(4, 0.5),
        "selection": None,
        "gc_cv_auc": 0.55,
        "gc_cv_auc_folds": [0.5, 0.6],
        "cv_split": "chromosome",
        "cv_split_note": "",
        "folds": [{"n_test": 2, "auc": 0.75}, {"n_test": 2, "auc": 0.85}],
        "motif_out_of_fold_scores": np.ones(4),
        "stack_out_of_fold_scores": np.zeros(4),
        "models": {"svm": {"cv_auc": 0.8}, "motifs": {"cv_auc": 0.7}},
        "chosen_model": "svm",
        **given,
    }
    return CVResult.from_mapping("auc", mapping)


def test_a_cv_mapping_lands_in_fields_and_its_json_keeps_no_array():
    cv = _cv()
    assert cv.figures == FIGURES and cv.baseline["gc_cv_auc"] == 0.55
    assert cv.split == "chromosome" and len(cv.folds) == 2
    assert np.array_equal(cv.scores, np.arange(4.0))
    assert np.array_equal(cv.motif_scores, np.ones(4))
    assert cv.probabilities is not None and cv.predictions is None
    assert cv.figure() == 0.8 and cv.figure("interval") == [0.7, 0.9]
    out = cv.to_json()
    assert not any(isinstance(v, np.ndarray) for v in out.values())
    assert json.loads(json.dumps(out)) == out
    assert CVResult.from_mapping("auc", out).to_json() == out


@pytest.mark.parametrize(
    "metric, interval, better",
    [
        ("auc", [0.51, 0.9], True),
        ("auc", [0.5, 0.9], False),
        ("auc", [0.2, 0.45], False),
        ("pearson", [0.01, 0.3], True),
        ("pearson", [-0.1, 0.3], False),
    ],
)
def test_better_than_chance_needs_the_interval_above_chance(metric, interval, better):
    figures = {f"cv_{metric}": 0.6, f"cv_{metric}_interval": interval}
    assert CVResult(metric, figures).better_than_chance() is better


@pytest.mark.parametrize("metric", ["auc", "pearson"])
def test_no_cross_validation_has_no_figure_and_is_not_better_than_chance(metric):
    cv = CVResult.none(metric)
    assert not cv.done and not cv.better_than_chance()
    assert cv.figure() is None and cv.chosen_model == "svm"
    # a classification says its figures are missing (None); targets have none
    assert ("cv_auc" in cv.to_json()) == (metric == "auc")


def test_back_to_svm_restores_the_svm_figures_and_predictions():
    svm, motifs = np.arange(4.0), np.ones(4)
    cv = CVResult(
        "pearson",
        {"cv_pearson": 0.9, "cv_r2": 0.8},
        scores=svm,
        predictions=motifs,
        models={"svm": {"cv_pearson": 0.5, "cv_r2": 0.2}},
        chosen_model="motifs",
    )
    cv.back_to_svm()
    assert cv.figures == {"cv_pearson": 0.5, "cv_r2": 0.2}
    assert cv.chosen_model == "svm" and cv.predictions is svm


def _summary(task: str = "classification", **given) -> RunSummary:
    fields = {
        "task": task,
        "inputs": [],
        "n_sequences": 4,
        "length": 10,
        "lengths": [10, 10],
        "position_free": False,
        "parameters": {"C": 1.0},
        "family": "wd",
        "background": "uniform",
        "versions": {"poimkit": "x"},
        "cv": _cv(),
        "motifs": [],
        "motifs_note": "none",
        "top_kmers": [],
        "differential_peaks": [],
        "figures": [],
        "runtimes": {"total": 1.0},
        "motif_model": None,
        **given,
    }
    return RunSummary(**fields)


def test_a_summary_round_trips_through_its_json():
    summary = _summary(n_positive=2, n_negative=2, n_dropped=0, n_motif_sequences=4)
    on_disk = json.loads(json.dumps(summary.to_json()))
    assert on_disk["format"] == RUN_FORMAT and on_disk["task"] == "classification"
    assert on_disk["cv_auc"] == 0.8 and on_disk["chosen_model"] == "svm"
    back = RunSummary.from_json(on_disk)
    assert back.to_json() == on_disk and back.n_positive == 2
    assert back.cv.figures == FIGURES and back.cv.scores is None


def test_a_summary_leaves_out_what_is_not_its_task_s():
    regression = _summary("regression", model="GkmSVR", cv_folds=3).to_json()
    assert "n_positive" not in regression and "peaks" not in regression
    assert regression["model"] == "GkmSVR" and regression["dataset"] is None
    classification = _summary(n_positive=2).to_json()
    assert "model" not in classification and "target" not in classification


@given(
    st.dictionaries(
        st.sampled_from(["cv_pearson", "cv_r2", "cv_spearman_std", "cv_pearson_folds"]),
        st.floats(allow_nan=False, allow_infinity=False) | st.lists(st.floats(0, 1)),
    ),
    st.sampled_from([None, "random", "chromosome"]),
)
def test_every_cv_key_is_kept_through_the_summary(figures, split):
    cv = CVResult("pearson", dict(figures), split=split)
    summary = _summary("regression", cv=cv)
    back = RunSummary.from_json(json.loads(json.dumps(summary.to_json())))
    assert back.cv.figures == figures and back.cv.split == split


@pytest.mark.parametrize(
    "content, says",
    [
        ({"format": "something else"}, "not the summary of a poimkit run"),
        ([1, 2], "not the summary of a poimkit run"),
        ({"format": RUN_FORMAT, "format_version": 99}, "newer than this poimkit"),
        ({"format": RUN_FORMAT, "format_version": 1}, "lacks background"),
    ],
)
def test_a_file_that_is_not_a_summary_is_refused_with_its_name(content, says):
    with pytest.raises(InputError, match=says) as caught:
        RunSummary.from_json(content, "runs/a/summary.json")
    assert str(caught.value).startswith("runs/a/summary.json: ")
