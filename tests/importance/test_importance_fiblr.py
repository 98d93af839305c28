"""FIBLRClassifier: the paper's update rule, importance distributions, sklearn API."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import logit
from sklearn.datasets import load_iris, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.utils.estimator_checks import parametrize_with_checks

from poimkit.errors import InputError
from poimkit.importance.fiblr import (
    FIBLRClassifier,
    _assign,
    _bin_edges,
    _design,
    _gradient_descent,
)

from ..naive import fiblr_step_naive

# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def threshold_data(m, noise=0.1, seed=0):
    """x0 decides the label at 0.5 (with ``noise`` label flips); x1 is irrelevant."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(m, 2))
    y = (X[:, 0] > 0.5).astype(int)
    flip = rng.random(m) < noise
    y[flip] = 1 - y[flip]
    return X, y


# ------------------------------------------------------ estimator checks


@parametrize_with_checks([FIBLRClassifier(random_state=0)])
def test_sklearn_estimator_checks(estimator, check):
    # Every check applies to a dense real-valued classifier and passes; there is
    # nothing to list in expected_failed_checks.
    check(estimator)


# ------------------------------------------------------------ update rule


def test_one_step_matches_the_papers_rule_parameter_by_parameter():
    rng = np.random.default_rng(1)
    m, n, width, n_models = 40, 3, 4, 2
    bins = rng.integers(0, width - 1, size=(m, n)) + width * np.arange(n)  # a gap
    X_std = rng.normal(size=(m, n))
    Y = (rng.random((m, n_models)) < 0.4).astype(float)
    counts = np.bincount(bins.ravel(), minlength=n * width).astype(float)
    theta = rng.normal(size=(2 * n * width, n_models))
    expected = fiblr_step_naive(theta, X_std, bins, counts, Y, eta=0.3)
    _gradient_descent(theta, _design(bins, X_std, n * width), Y, counts, 0.3, 1, 0)
    assert_allclose(theta, expected, rtol=1e-12, atol=1e-14)


def test_sparse_design_matrix_gives_the_same_fit(iris, monkeypatch):
    X, y = iris
    dense = FIBLRClassifier(random_state=0).fit(X, y)
    monkeypatch.setattr("poimkit.importance.fiblr._DENSE_LIMIT", 0)
    sparse = FIBLRClassifier(random_state=0).fit(X, y)
    assert sparse.n_iter_ == dense.n_iter_
    assert_allclose(sparse.bin_coef_, dense.bin_coef_, rtol=1e-10)
    assert_allclose(sparse.loss_curve_, dense.loss_curve_, rtol=1e-12)


def test_update_rule_decreases_the_training_loss_every_iteration(iris):
    X, y = iris
    clf = FIBLRClassifier(
        n_bins=5, learning_rate=0.1, tol=1e-5, max_iter=3000, random_state=0
    )
    clf.fit(X, y)
    curve = clf.loss_curve_
    assert curve.shape == (clf.n_iter_ + 1, 3)
    assert np.all(np.diff(curve, axis=0) <= 1e-12)
    assert np.all(curve[-1] < 0.3 * curve[0])
    assert_allclose(curve[0], np.log(2), atol=0.05)  # near-zero initial parameters


def test_one_bin_is_unpenalised_logistic_regression():
    X, y = make_classification(
        300, 4, n_informative=3, n_redundant=0, flip_y=0.2, random_state=0
    )
    clf = FIBLRClassifier(n_bins=1, learning_rate=1.0, tol=1e-12, max_iter=5000)
    clf.fit(X, y)
    lr = LogisticRegression(C=np.inf, tol=1e-10, max_iter=10_000).fit(X, y)
    assert_allclose(clf.predict_proba(X), lr.predict_proba(X), atol=1e-4)
    assert_allclose(clf.bin_coef_[0, :, 0], lr.coef_[0], rtol=1e-3)
    assert_allclose(clf.bin_intercept_.sum(), lr.intercept_[0], rtol=1e-3)


def test_learning_rate_too_large_warns_to_decrease_it():
    X, y = make_classification(300, 60, random_state=0)
    with pytest.warns(ConvergenceWarning, match="decrease learning_rate"):
        FIBLRClassifier(n_bins=1, learning_rate=1.0, max_iter=100).fit(X, y)


def test_max_iter_reached_warns(iris):
    X, y = iris
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        clf = FIBLRClassifier(max_iter=3, random_state=0).fit(X, y)
    assert clf.n_iter_ == 3


# ------------------------------------------------- importance distribution


def test_threshold_feature_steps_and_irrelevant_feature_is_flat():
    X, y = threshold_data(m=5000)
    clf = FIBLRClassifier(n_bins=10, random_state=0).fit(X, y)

    centres, step = clf.importance_distribution(0, class_=1)
    below, above = step[centres < 0.5], step[centres > 0.5]
    assert below.max() < 0.25 and above.min() > 0.75
    jump = np.argmax(np.diff(step))  # the step sits on the bin edge at 0.5
    assert abs(clf.bin_edges_[0][jump + 1] - 0.5) < 0.02

    _, flat = clf.importance_distribution(1, class_=1)
    assert np.abs(flat - 0.5).max() < 0.1  # balanced classes: no power either way
    assert np.ptp(flat) < 0.2 * np.ptp(step)


def test_sum_of_feature_logits_is_the_decision_function():
    X, y = threshold_data(m=400)
    clf = FIBLRClassifier(n_bins=4, random_state=0).fit(X, y)
    logits = [
        logit(clf.importance_distribution(j, class_=1, values=X[:, j])[1])
        for j in range(X.shape[1])
    ]
    assert_allclose(np.sum(logits, axis=0), clf.decision_function(X), rtol=1e-9)


def test_iris_petal_length_follows_figure_1(iris):
    # low / medium / high petal length -> setosa / versicolor / virginica
    X, y = iris
    clf = FIBLRClassifier(n_bins=5, random_state=0).fit(X, y)
    _, imp = clf.importance_distribution(2, values=[1.4, 4.2, 6.0])
    assert_array_equal(imp.argmax(axis=1), [0, 1, 2])
    assert np.all(imp.max(axis=1) > 0.9)
    _, norm = clf.importance_distribution(2, values=[1.4, 4.2, 6.0], normalize=True)
    assert_allclose(norm.sum(axis=1), 1.0)
    _, setosa = clf.importance_distribution(2, class_=0, values=[1.4, 4.2, 6.0])
    assert_allclose(setosa, imp[:, 0])


def test_binary_importance_columns_are_complementary():
    X, y = threshold_data(m=300)
    clf = FIBLRClassifier(random_state=0).fit(X, y)
    values, imp = clf.importance_distribution(0)
    assert_allclose(values, clf.bin_centres(0))
    assert imp.shape == (clf.n_bins_[0], 2)
    assert_allclose(imp.sum(axis=1), 1.0)


# ------------------------------------------------------------------ binning


def test_quantile_bins_have_equal_counts_and_uniform_bins_equal_width():
    x = np.random.default_rng(0).exponential(size=1000)
    edges = _bin_edges(x, 4, "quantile")
    assert_array_equal(np.bincount(_assign(x, edges)), [250, 250, 250, 250])
    edges = _bin_edges(x, 4, "uniform")
    assert_allclose(np.diff(edges), (x.max() - x.min()) / 4)


def test_ties_empty_bins_and_constant_features_reduce_the_bin_count():
    assert_array_equal(_bin_edges(np.array([0.0, 0, 0, 0, 1]), 4, "quantile"), [0, 1])
    # equal width over [0, 10]: the middle bins are empty and merged away
    assert_array_equal(
        _bin_edges(np.array([0.0, 0.5, 9.5, 10]), 4, "uniform"), [0, 2.5, 10]
    )
    assert_array_equal(_bin_edges(np.full(5, 3.0), 4, "quantile"), [3, 3])
    X = np.column_stack([np.arange(20.0), np.full(20, 7.0)])
    clf = FIBLRClassifier(n_bins=4, random_state=0).fit(X, np.arange(20) % 2)
    assert_array_equal(clf.n_bins_, [4, 1])
    assert_array_equal(clf.bin_count_[0], [5, 5, 5, 5])
    assert np.isnan(clf.bin_coef_[0, 1, 1:]).all()


def test_values_outside_the_training_range_use_the_outer_bins():
    edges = np.array([0.0, 1.0, 2.0, 3.0])
    assert_array_equal(
        _assign(np.array([-5, 0, 0.99, 1, 2.5, 3, 9.0]), edges), [0, 0, 0, 1, 2, 2, 2]
    )


# ----------------------------------------------------------- predictions


def test_separable_problem_is_learnt():
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(-2, 1, (200, 3)), rng.normal(2, 1, (200, 3))])
    y = np.repeat(["neg", "pos"], 200)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, stratify=y, random_state=0)
    clf = FIBLRClassifier(random_state=0).fit(X_tr, y_tr)
    assert clf.score(X_te, y_te) > 0.97
    proba = clf.predict_proba(X_te)
    assert_allclose(proba.sum(axis=1), 1.0)
    assert_array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(X_te))


def test_multiclass_probabilities_are_stable_for_extreme_inputs(iris):
    X, y = iris
    clf = FIBLRClassifier(random_state=0).fit(X, y)
    proba = clf.predict_proba(np.array([[1e6, -1e6, 1e6, -1e6]]))
    assert np.isfinite(proba).all()
    assert_allclose(proba.sum(), 1.0)


def test_fit_is_reproducible_with_random_state(iris):
    X, y = iris
    a = FIBLRClassifier(random_state=5).fit(X, y)
    b = FIBLRClassifier(random_state=5).fit(X, y)
    assert_array_equal(a.bin_coef_, b.bin_coef_)


# ------------------------------------------------------------- grid search


def test_grid_search_tunes_n_bins_and_learning_rate():
    # y depends on |x0| < 0.5: no single slope (n_bins=1) can fit it
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(240, 2))
    y = (np.abs(X[:, 0]) < 0.5).astype(int)
    grid = GridSearchCV(
        FIBLRClassifier(random_state=0),
        {"n_bins": [1, 4], "learning_rate": [0.1, 0.5]},
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        grid.fit(X, y)
    assert len(grid.cv_results_["params"]) == 4
    assert grid.best_params_["n_bins"] == 4
    assert grid.best_params_["learning_rate"] in (0.1, 0.5)
    assert grid.best_score_ > 0.9
    one_bin = np.array(grid.cv_results_["param_n_bins"]) == 1
    assert grid.cv_results_["mean_test_score"][one_bin].max() < 0.8


# --------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"n_bins": 0}, r"n_bins must be an integer >= 1, got 0"),
        ({"n_bins": 2.5}, r"n_bins must be an integer"),
        ({"n_bins": True}, r"n_bins must be an integer"),
        ({"learning_rate": 0}, r"learning_rate must be a finite number > 0.*got 0"),
        ({"learning_rate": np.nan}, r"learning_rate must be a finite number"),
        ({"learning_rate": "fast"}, r"learning_rate .*got 'fast'"),
        ({"max_iter": 0}, r"max_iter must be an integer >= 1, got 0"),
        ({"tol": -1e-3}, r"tol must be a number >= 0, got -0.001"),
        ({"strategy": "kmeans"}, r"strategy must be one of .*got 'kmeans'"),
        ({"random_state": "seed"}, r"random_state must be None, an int seed"),
    ],
)
def test_bad_parameters_raise_input_error(iris, params, match):
    X, y = iris
    with pytest.raises(InputError, match=match):
        FIBLRClassifier(**params).fit(X, y)


def test_bad_data_raises(iris):
    X, y = iris
    with pytest.raises(InputError, match="1 class"):
        FIBLRClassifier().fit(X, np.zeros(len(y)))
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        FIBLRClassifier().fit(X_nan, y)
    with pytest.raises(ValueError, match="Unknown label type"):
        FIBLRClassifier().fit(X, y + 0.5)
    clf = FIBLRClassifier(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        clf.predict(X[:, :3])


def test_bad_importance_arguments_raise_input_error(iris):
    X, y = iris
    clf = FIBLRClassifier(random_state=0).fit(X, y)
    with pytest.raises(InputError, match=r"feature must be an integer in 0\.\.3"):
        clf.importance_distribution(4)
    with pytest.raises(InputError, match="known names: none"):
        clf.importance_distribution("petal length")
    with pytest.raises(InputError, match=r"class_ must be one of classes_ \[0, 1, 2\]"):
        clf.importance_distribution(0, class_=7)
    with pytest.raises(InputError, match="values must be a 1-d array"):
        clf.importance_distribution(0, values=[[1.0, 2.0]])
    with pytest.raises(InputError, match="NaN or inf"):
        clf.importance_distribution(0, values=[1.0, np.nan])
    assert_allclose(clf.importance_distribution(-1)[0], clf.bin_centres(3))
