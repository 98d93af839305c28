"""The intercept of kernel classifiers where the hinge leaves it free (issue 55 §2)."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.svm import SVC

from poimkit import GkmSVC, WDKernelSVC, wd_kernel
from poimkit.datasets import make_gattaca
from poimkit.run.crossval import best_accuracy
from poimkit.svm.intercept import hinge_minimisers, left_out_scores, svc_intercept


def hinge(b, scores, signs, weights):
    return np.sum(weights * np.maximum(0.0, 1.0 - signs * (scores + b)))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-2, 2, allow_nan=False),
            st.booleans(),
            st.sampled_from([0.5, 1.0, 2.0]),
        ),
        min_size=2,
        max_size=12,
    ).filter(lambda r: len({p for _, p, _ in r}) == 2)
)
def test_hinge_minimisers_are_the_minimisers_of_the_hinge(records):
    scores = np.array([s for s, _, _ in records])
    signs = np.array([1.0 if p else -1.0 for _, p, _ in records])
    weights = np.array([w for _, _, w in records])
    lo, hi = hinge_minimisers(scores, signs, weights)
    grid = np.linspace(-5, 5, 4001)
    least = hinge(lo, scores, signs, weights)
    assert least <= min(hinge(b, scores, signs, weights) for b in grid) + 1e-9
    assert hinge(hi, scores, signs, weights) == pytest.approx(least, abs=1e-9)
    # just outside [lo, hi] the loss is higher (it is linear between bends)
    for b in (lo - 1e-4, hi + 1e-4):
        assert hinge(b, scores, signs, weights) > least + 1e-7


def test_left_out_scores_equal_a_naive_loop():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(9, 4))
    K = A @ A.T
    coef = rng.normal(size=9)
    positive = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0], dtype=bool)
    expected = np.empty(9)
    for i in range(9):
        mates = [j for j in range(9) if positive[j] == positive[i] and j != i]
        terms = [coef[j] * K[i, j] for j in range(9) if j != i]
        expected[i] = sum(terms) + np.mean([coef[j] * K[i, j] for j in mates])
    np.testing.assert_allclose(left_out_scores(K, coef, positive), expected)


def test_a_determined_intercept_is_libsvms():
    """Separable records at C = 1: support vectors on the margin fix b."""
    X, y = make_gattaca(n_pos=40, n_neg=40, length=30, mean=12, sd=3, random_state=1)
    K = wd_kernel(X, degree=6)
    svc = SVC(kernel="precomputed").fit(K, y)
    assert svc_intercept(svc, K, y) == svc.intercept_[0]


@pytest.mark.parametrize("kind", ["gkm", "wd"])
def test_bare_estimators_at_small_c_label_near_the_best_threshold(kind):
    """libsvm's intercept follows the class counts; poimkit's labels held-out data."""
    X, y = make_gattaca(n_pos=300, n_neg=400, length=60, mean=30, sd=4, random_state=0)
    rng = np.random.default_rng(0)
    pos, neg = rng.permutation(300), 300 + rng.permutation(400)
    train = np.r_[pos[:150], neg[:250]]  # unbalanced
    test = np.r_[pos[150:], neg[250:]]  # balanced
    model = (
        GkmSVC(C=0.01, solver="kernel")
        if kind == "gkm"
        else WDKernelSVC(C=0.01, degree=6)
    ).fit(X[train], y[train])
    assert model.calibration_ is None
    scores = model.decision_function(X[test])
    best = best_accuracy(y[test] == 1, scores)
    assert best > 0.62
    assert np.mean(model.predict(X[test]) == y[test]) >= best - 0.04
    # libsvm's own intercept (kept where the hinge has one minimiser) labels
    # almost every held-out record negative
    with mock.patch("poimkit.svm.intercept.hinge_minimisers", lambda *a: (0.0, 0.0)):
        libsvm = clone(model).fit(X[train], y[train])
    assert np.mean(libsvm.predict(X[test]) == 0) > 0.9
