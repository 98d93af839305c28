"""Strict JSON outputs (`poimkit.io.json_text`) and figures that need no NaN.

A motif model without motifs predicts the prior (issue 55): the training mean,
or the log-odds of the positive share, so that a fold without motifs gives
finite figures instead of NaN.
"""

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import poimkit
from poimkit.io.json_text import NULL_SUFFIX, json_text
from poimkit.run.crossval import calibrated_figures
from poimkit.run.motif_model import compare_models, prior_score
from poimkit.run.regression_figures import regression_figures, regression_scores

from ..cli_runs import strict_json, strict_loads


def test_non_finite_values_become_null_with_the_reason_beside():
    value = {
        "cv_pearson": float("nan"),
        "folds": [0.2, float("-inf"), float("nan")],
        "inner": {"r2": float("inf"), "ok": 1.5},
        "name": "x",
    }
    out = strict_loads(json_text(value))
    assert out["cv_pearson"] is None and "NaN" in out[f"cv_pearson{NULL_SUFFIX}"]
    assert out["folds"] == [0.2, None, None]
    assert out[f"folds{NULL_SUFFIX}"].startswith("entry 1: -infinite; entry 2: ")
    assert out["inner"] == {"r2": None, f"r2{NULL_SUFFIX}": "+infinite", "ok": 1.5}
    assert out["name"] == "x" and f"name{NULL_SUFFIX}" not in out


leaves = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-5, 5),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
)
trees = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text("abc", min_size=1, max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


def finite_paths(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from finite_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from finite_paths(v, (*path, i))
    elif not (isinstance(value, float) and not math.isfinite(value)):
        yield path, value


@given(trees)
def test_any_tree_is_strict_json_and_keeps_every_finite_value(tree):
    out = strict_loads(json_text(tree))
    for path, value in finite_paths(tree):
        got = out
        for key in path:
            got = got[key]
        assert got == value


def test_every_json_file_is_written_by_json_text():
    """No other ``json.dump``: every JSON output goes through the strict writer."""
    package = Path(poimkit.__file__).parent
    writers = [
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if "json.dump" in path.read_text(encoding="utf-8")
    ]
    assert writers == ["io/json_text.py"]


def test_a_motif_model_without_motifs_predicts_the_prior():
    rng = np.random.default_rng(0)
    y = rng.normal(5.0, 2.0, 60)
    folds = [
        (np.setdiff1d(np.arange(60), t), t) for t in np.array_split(np.arange(60), 3)
    ]
    scores = y + rng.normal(0, 1.0, 60)
    svm = regression_figures(y, folds, scores)
    found = compare_models(
        np.zeros((60, 4)),
        y,
        folds,
        [None] * 3,
        scores,
        svm,
        regression_figures,
        "pearson",
    )
    motif = found["motif_out_of_fold_scores"]
    for train, test in folds:
        assert np.allclose(motif[test], y[train].mean())
    figures = found["models"]["motifs"]
    assert figures["cv_pearson"] == 0.0 and figures["cv_pearson_folds"] == [0.0] * 3
    assert np.isfinite(figures["cv_r2"]) and figures["cv_r2"] < 0.05
    assert found["chosen_model"] == "svm"
    strict_loads(json_text(found["models"]))  # no NaN left to hide

    labels = (rng.random(60) < 0.25).astype(int)
    found = compare_models(
        np.zeros((60, 4)),
        labels,
        folds,
        [None] * 3,
        labels + rng.normal(0, 0.5, 60),
        {"cv_auc": 0.9},
        calibrated_figures,
        "auc",
    )
    motif = found["motif_out_of_fold_scores"]
    for train, test in folds:
        share = labels[train].mean()
        assert np.allclose(motif[test], np.log(share / (1 - share)))
    assert found["models"]["motifs"]["cv_auc"] == 0.5


def test_prior_and_constant_predictions():
    assert prior_score(np.array([1, 1, 1]), "auc") > 13  # clipped, finite
    assert prior_score(np.array([1.0, 3.0]), "pearson") == 2.0
    scores = regression_scores(np.array([1.0, 2.0, 4.0]), np.full(3, 2.0))
    assert scores["pearson"] == 0.0 and scores["spearman"] == 0.0
    assert math.isnan(regression_scores(np.ones(3), np.arange(3.0))["pearson"])


def test_strict_reader_refuses_bare_nan(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"a": NaN}')
    with pytest.raises(AssertionError, match="NaN"):
        strict_json(path)
