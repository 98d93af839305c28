"""Tests of poimkit.importance.mfi: HSIC, kernel / instance-based MFI, MoRF."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit.errors import InputError
from poimkit.importance.hsic import hsic
from poimkit.importance.mfi import mfi
from poimkit.importance.morf import MorfCurve, morf_curve

from ..naive import (
    hsic_biased_naive,
    hsic_unbiased_naive,
    hsic_v_statistic_naive,
    median_gamma_naive,
    rbf_gram_naive,
)


# ----------------------------------------------------------------------- HSIC
@pytest.mark.parametrize("n", [5, 12])
def test_hsic_matches_direct_formula(n):
    rng = np.random.default_rng(n)
    x, y = rng.normal(size=n), rng.normal(size=(n, 2))
    K = rbf_gram_naive(x, 0.7)
    L = rbf_gram_naive(y, 0.3)
    got = hsic(x, y, gamma_x=0.7, gamma_y=0.3)
    assert_allclose(got, hsic_biased_naive(K, L), rtol=1e-10)
    # the paper's population formula, with empirical means, is the V-statistic
    assert_allclose(got * (n - 1) ** 2 / n**2, hsic_v_statistic_naive(K, L), rtol=1e-10)
    got_u = hsic(x, y, gamma_x=0.7, gamma_y=0.3, estimator="unbiased")
    assert_allclose(got_u, hsic_unbiased_naive(K, L), rtol=1e-10)


def test_hsic_median_heuristic_and_normalisation_match_direct_formula():
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(size=15), 1)  # ties: zero distances are skipped
    x[:3] = 0.0
    y = np.sin(x) + 0.1 * rng.normal(size=15)
    K = rbf_gram_naive(x, median_gamma_naive(x))
    L = rbf_gram_naive(y, median_gamma_naive(y))
    assert_allclose(hsic(x, y), hsic_biased_naive(K, L), rtol=1e-10)
    expected = hsic_biased_naive(K, L) / np.sqrt(
        hsic_biased_naive(K, K) * hsic_biased_naive(L, L)
    )
    assert_allclose(hsic(x, y, normalize=True), expected, rtol=1e-10)
    expected_u = hsic_unbiased_naive(K, L) / np.sqrt(
        hsic_unbiased_naive(K, K) * hsic_unbiased_naive(L, L)
    )
    assert_allclose(
        hsic(x, y, normalize=True, estimator="unbiased"), expected_u, rtol=1e-10
    )


def test_hsic_linear_kernel_is_squared_covariance():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=40), rng.normal(size=40)
    y += x
    assert_allclose(hsic(x, y, kernel="linear"), np.cov(x, y)[0, 1] ** 2, rtol=1e-10)


def test_hsic_near_zero_for_independent_and_large_for_a_function():
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, size=400)
    independent = rng.uniform(-2, 2, size=400)
    function = x**2  # uncorrelated with x, fully dependent
    assert abs(np.corrcoef(x, function)[0, 1]) < 0.1
    low = hsic(x, independent, normalize=True)
    high = hsic(x, function, normalize=True)
    assert low < 0.02
    assert high > 0.3
    assert high > 20 * low
    # the unbiased estimator is centred at 0 under independence
    values = [
        hsic(rng.normal(size=60), rng.normal(size=60), estimator="unbiased")
        for _ in range(60)
    ]
    assert abs(np.mean(values)) < 3 * np.std(values) / np.sqrt(len(values))
    assert hsic(x, x, normalize=True) == pytest.approx(1.0)


def test_hsic_of_constant_variable_is_zero():
    x = np.arange(10.0)
    assert hsic(x, np.ones(10)) == 0.0
    assert hsic(np.ones(10), x, kernel="linear", normalize=True) == 0.0


@settings(max_examples=30, deadline=None)
@given(
    st.integers(4, 12).flatmap(
        lambda n: st.tuples(
            st.lists(st.floats(-5, 5), min_size=n, max_size=n),
            st.lists(st.floats(-5, 5), min_size=n, max_size=n),
        )
    )
)
def test_hsic_symmetric_nonnegative_and_normalised_in_unit_interval(xy):
    x, y = map(np.array, xy)
    value = hsic(x, y)
    assert value >= -1e-12
    assert_allclose(value, hsic(y, x), rtol=1e-9, atol=1e-15)
    assert -1e-9 <= hsic(x, y, normalize=True) <= 1 + 1e-9


# ---------------------------------------------------------- model-based MFI
def test_kernel_mfi_equals_hsic_per_feature_on_the_data():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 3))

    def score(A):
        return np.tanh(A[:, 0]) + A[:, 1] * A[:, 2]

    got = mfi(score, X, sampling="data", n_samples=100)  # all rows, no sampling
    expected = [hsic(score(X), X[:, f]) for f in range(3)]
    assert_allclose(got, expected, rtol=1e-10)
    grouped = mfi(score, X, features=[[1, 2], 0], sampling="data", kernel="linear")
    assert_allclose(
        grouped,
        [
            hsic(score(X), X[:, [1, 2]], kernel="linear"),
            hsic(score(X), X[:, 0], kernel="linear"),
        ],
        rtol=1e-10,
    )
    unbiased = mfi(score, X, sampling="data", estimator="unbiased", normalize=True)
    expected = [
        hsic(score(X), X[:, f], estimator="unbiased", normalize=True) for f in range(3)
    ]
    assert_allclose(unbiased, expected, rtol=1e-10)


def test_kernel_mfi_ranks_informative_features_first():
    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, size=(1000, 8))

    def score(A):
        # 0: monotone, 1: symmetric (zero correlation), 2 and 3: interaction only
        return A[:, 0] + np.abs(A[:, 1]) + 2 * A[:, 2] * A[:, 3]

    imp = mfi(score, X, n_samples=1000, random_state=0)
    assert set(np.argsort(-imp)[:4]) == {0, 1, 2, 3}
    assert imp[:4].min() > 3 * imp[4:].max()
    # a correlation-based measure misses features 1, 2, 3
    corr = np.abs([np.corrcoef(score(X), X[:, f])[0, 1] for f in range(8)])
    assert corr[1:4].max() < 0.2


def test_kernel_mfi_constant_feature_and_constant_model_give_zero():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(50, 3))
    X[:, 1] = 2.0
    imp = mfi(lambda A: A.sum(axis=1), X, n_samples=50, random_state=0)
    assert imp[1] == 0.0 and imp[0] > 0
    assert np.all(mfi(lambda A: np.ones(len(A)), X, n_samples=50) == 0.0)


def test_mfi_is_reproducible_and_uses_predict_proba():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(80, 4))

    class Model:
        def predict_proba(self, A):
            p = 1 / (1 + np.exp(-A[:, 0]))
            return np.column_stack([1 - p, p])

    a = mfi(Model(), X, n_samples=60, random_state=1)
    b = mfi(Model(), X, n_samples=60, random_state=1)
    assert_allclose(a, b, rtol=0)
    assert np.argmax(a) == 0


# ------------------------------------------------------- instance-based MFI
def test_instance_mfi_of_linear_model_is_closed_form():
    rng = np.random.default_rng(8)
    mu = np.array([1.0, -2.0, 0.5, 3.0])
    X = mu + rng.normal(size=(2000, 4))
    w = np.array([2.0, -1.0, 0.0, 0.5])
    x = np.array([3.0, 0.0, 7.0, 3.0])

    def score(A):
        return A @ w + 1.5

    value, se = mfi(score, X, instance=x, n_samples=500, random_state=0)
    expected = w * (x - mu)  # population means: the closed form
    assert np.all(np.abs(value - expected) <= 4 * se + 1e-12)
    assert se[2] == 0.0 and value[2] == 0.0
    assert np.all(se[[0, 1]] > 0)
    # with every row of X as sample the estimate is exact for the empirical mean
    value, se = mfi(score, X, instance=x, sampling="data", n_samples=5000)
    assert_allclose(value, w * (x - X.mean(axis=0)), rtol=1e-10, atol=1e-10)


def test_instance_mfi_several_rows_and_groups():
    rng = np.random.default_rng(9)
    X = rng.normal(size=(300, 3))
    w = np.array([1.0, 2.0, -3.0])
    rows = rng.normal(size=(2, 3))

    def score(A):
        return A @ w

    values, ses = mfi(
        score, X, instance=rows, features=[0, (1, 2)], sampling="data", n_samples=300
    )
    assert values.shape == ses.shape == (2, 2)
    m = X.mean(axis=0)
    expected = np.column_stack(
        [w[0] * (rows[:, 0] - m[0]), (rows[:, 1:] - m[1:]) @ w[1:]]
    )
    assert_allclose(values, expected, rtol=1e-10, atol=1e-10)


def test_instance_mfi_of_interaction_is_conditional_expectation():
    # s = x0 * x1 with independent features: E[s | x0 = a] - E[s] = (a - m0) m1
    rng = np.random.default_rng(10)
    X = np.column_stack([rng.normal(1.0, 1.0, 4000), rng.normal(2.0, 1.0, 4000)])
    value, se = mfi(
        lambda A: A[:, 0] * A[:, 1],
        X,
        instance=[3.0, -1.0],
        n_samples=4000,
        random_state=1,
        batch_size=1000,
    )
    expected = np.array([(3.0 - 1.0) * 2.0, 1.0 * (-1.0 - 2.0)])
    assert np.all(np.abs(value - expected) <= 4 * se)


# ----------------------------------------------------------------------- MoRF
def test_morf_good_ordering_degrades_faster_than_random():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(200, 10))
    w = np.linspace(5, 0.5, 10)
    y = (X @ w > 0).astype(int)

    class Linear:
        def decision_function(self, A):
            return A @ w

        def predict(self, A):
            return (A @ w > 0).astype(int)

    good = morf_curve(Linear(), X, w, n_steps=10, y=y, random_state=0)
    bad = morf_curve(Linear(), X, -w, n_steps=10, y=y, random_state=0)
    assert isinstance(good, MorfCurve)
    assert good.n_removed.tolist() == list(range(11))
    assert good.curve[0] == 1.0
    assert good.aopc > good.random_aopc > bad.aopc
    assert good.auc < good.random_auc < bad.auc
    assert np.all(good.curve[1:-1] <= good.random_curve[1:-1] + 0.02)
    # the same replacement values for every order: all removed, same result
    assert good.curve[-1] == pytest.approx(good.random_curve[-1], abs=1e-12)
    assert good.curve[-1] == bad.curve[-1]
    assert good.random_curves.shape == (10, 11)


def test_morf_per_instance_relevance_and_score_curve():
    rng = np.random.default_rng(12)
    X = rng.uniform(0, 1, size=(40, 6))
    w = np.array([1.0, -2.0, 3.0, 0.0, 0.5, -1.0])

    def score(A):
        return A @ w

    relevance = w * (X - 0.5)  # instance-based: contribution of each feature
    res = morf_curve(
        score, X, relevance, n_steps=3, baseline="mean", random_state=0, n_random=3
    )
    assert res.n_removed.tolist() == [0, 2, 4, 6]
    assert res.curve[0] == pytest.approx(score(X).mean())
    assert res.curve[-1] == pytest.approx(score(np.tile(X.mean(0), (40, 1))).mean())
    assert res.aopc > res.random_aopc
    limited = morf_curve(score, X, w, n_steps=10, max_features=2, baseline=0.0)
    assert limited.n_removed.tolist() == [0, 1, 2]


@pytest.mark.parametrize("baseline", ["uniform", "marginal", "mean", 0.0])
def test_morf_baselines_stay_in_range(baseline):
    X = np.random.default_rng(13).uniform(2, 3, size=(30, 4))
    seen = []

    def score(A):
        seen.append(A.copy())
        return A.sum(axis=1)

    morf_curve(score, X, np.arange(4.0), n_steps=4, baseline=baseline, n_random=1)
    values = np.concatenate(seen)
    if baseline == 0.0:
        assert set(np.unique(values[-30:])) == {0.0}
    else:
        assert values.min() >= 2 and values.max() <= 3


def test_mfi_on_digits_morf_beats_random():
    from sklearn.datasets import load_digits
    from sklearn.svm import SVC

    digits = load_digits()
    keep = np.isin(digits.target, [3, 8])
    X, y = digits.data[keep], (digits.target[keep] == 8).astype(int)
    rng = np.random.default_rng(0)
    test = rng.permutation(len(X))[: len(X) // 2]
    train = np.setdiff1d(np.arange(len(X)), test)
    clf = SVC(gamma="scale", C=10).fit(X[train], y[train])
    assert clf.score(X[test], y[test]) > 0.95
    relevance = mfi(clf, X[train], n_samples=300, random_state=0)
    res = morf_curve(
        clf, X[test], relevance, n_steps=16, y=y[test], random_state=0, n_random=5
    )
    assert res.aopc > res.random_aopc + 0.1
    # instance-based: per-input relevance (signed towards the predicted class)
    values, _ = mfi(clf, X[train], instance=X[test[:20]], n_samples=100, random_state=0)
    signed = values * np.sign(clf.decision_function(X[test[:20]]))[:, None]
    res = morf_curve(
        clf, X[test[:20]], signed, n_steps=16, y=y[test[:20]], random_state=0
    )
    assert res.aopc > res.random_aopc


# ------------------------------------------------------------------ bad input
X_OK = np.random.default_rng(14).normal(size=(20, 3))


def _sum(A):
    return A.sum(axis=1)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"X": np.ones(5)}, "X"),
        ({"X": np.full((5, 2), np.nan)}, "X"),
        ({"X": [["a", "b"]]}, "X"),
        ({"instance": [1.0, 2.0]}, "instance"),
        ({"instance": [1.0, np.inf, 2.0]}, "instance"),
        ({"features": [3]}, "features"),
        ({"features": [[0, 0]]}, "features"),
        ({"features": [1.5]}, "features"),
        ({"features": 1}, "features"),
        ({"features": []}, "features"),
        ({"kernel": "poly"}, "kernel"),
        ({"gamma": -1.0}, "gamma"),
        ({"score_gamma": 0}, "score_gamma"),
        ({"n_samples": 1}, "n_samples"),
        ({"n_samples": 3, "estimator": "unbiased"}, "n_samples"),
        ({"estimator": "v"}, "estimator"),
        ({"sampling": "conditional"}, "sampling"),
        ({"random_state": "seed"}, "random_state"),
        ({"model": object()}, "model"),
        ({"model": lambda A: A}, "returned shape"),
        ({"model": lambda A: np.full(len(A), np.nan)}, "non-finite"),
        ({"batch_size": 0}, "batch_size"),
    ],
)
def test_mfi_bad_input(kwargs, name):
    args = {"model": _sum, "X": X_OK, "n_samples": 10, **kwargs}
    with pytest.raises(InputError, match=name):
        mfi(**args)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"relevance": np.ones(4)}, "relevance"),
        ({"relevance": np.ones((3, 3))}, "relevance"),
        ({"relevance": [np.nan, 1, 2]}, "relevance"),
        ({"baseline": "zero"}, "baseline"),
        ({"baseline": np.ones(2)}, "baseline"),
        ({"n_steps": 0}, "n_steps"),
        ({"n_random": 0}, "n_random"),
        ({"max_features": 4}, "max_features"),
        ({"y": np.ones(3)}, "y"),
        ({"y": np.ones(20)}, "predict"),
        ({"X": np.ones((4, 3, 1))}, "X"),
    ],
)
def test_morf_bad_input(kwargs, name):
    args = {"model": _sum, "X": X_OK, "relevance": np.arange(3.0), **kwargs}
    with pytest.raises(InputError, match=name):
        morf_curve(**args)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"y": np.ones(4)}, "y"),
        ({"x": np.ones((5, 2, 2))}, "x"),
        ({"kernel": "cosine"}, "kernel"),
        ({"estimator": "unbiased", "x": np.ones(3), "y": np.ones(3)}, "at least 4"),
        ({"gamma_x": "1"}, "gamma_x"),
    ],
)
def test_hsic_bad_input(kwargs, name):
    args = {"x": np.arange(5.0), "y": np.arange(5.0), **kwargs}
    with pytest.raises(InputError, match=name):
        hsic(**args)


def test_input_error_is_value_error():
    with pytest.raises(ValueError, match="kernel"):
        mfi(_sum, X_OK, kernel="nope")
