"""The linear solvers for continuous targets: `GkmSVR`'s L2-loss SVR (squared
epsilon-insensitive loss) by L-BFGS through the l-mer table, and `WDLinearSVR`
in feature space; against their optimality conditions, LIBLINEAR's solver,
the kernel expansion, brute-force POIMs and planted targets; model files old
and new."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

import poimkit.svm.gkm_solver as gkm_solver
from poimkit import GkmSVR, WDLinearSVC, WDLinearSVR, gkm_kernel, load_model, wd_kernel
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.io import read_npz, write_npz
from poimkit.poim import compute_poim
from poimkit.poim.reference import poim_reference
from poimkit.svm.linear.losses import score_terms

from ..naive import l2_svr_predictions_liblinear
from .test_gkm import random_sequences
from .test_regressors import (
    _REFUSAL,
    EXPECTED_GKM,
    EXPECTED_WD,
    L,
    planted_anywhere,
    planted_positional,
    wd_backgrounds,
)
from .test_sklearn_checks import check_id_of

EXPECTED = {
    "GkmSVR": EXPECTED_GKM,
    "WDLinearSVR": {
        **EXPECTED_WD,
        "check_non_transformer_estimators_n_iter": EXPECTED_GKM[
            "check_non_transformer_estimators_n_iter"
        ],
    },
}


@parametrize_with_checks(
    [GkmSVR(l=3, k=2, solver="linear", max_iter=200), WDLinearSVR(degree=3)]
)
def test_sklearn_estimator_checks(estimator, check, request):
    """The linear solvers pass what the kernel ones pass (`test_regressors`)."""
    if check_id_of(request.node) not in EXPECTED[type(estimator).__name__]:
        check(estimator)
        return
    with pytest.raises((InputError, AssertionError, ValueError), match=_REFUSAL):
        check(estimator)


def _normalised_kernel(model, seqs, others=None):
    """The model's normalised kernel between ``others`` (default seqs) and seqs."""
    others = seqs if others is None else others
    K = gkm_kernel(
        others + seqs, l=model.l, k=model.k, reverse_complement=model.reverse_complement
    )[: len(others), len(others) :]
    w = lambda xs: np.array([x.size - model.l + 1.0 for x in xs])  # noqa: E731
    return K / np.sqrt(model.kernel_scale_**2 * np.outer(w(others), w(seqs)))


def _coefficients(model, n):
    """Every training record's coefficient (zero off the support)."""
    coef = np.zeros(n)
    coef[model._gram_support] = model.dual_coef_
    return coef


def _problem(seed=1, n=50):
    rng = np.random.default_rng(seed)
    seqs = random_sequences(rng, n, 10, 30)
    return seqs, rng.normal(size=n) + 0.5


@pytest.mark.parametrize("rc", [False, True])
@pytest.mark.parametrize("epsilon", [0.0, 0.5])
def test_linear_solver_reaches_the_l2_svr_optimum(rc, epsilon):
    """At the solution the coefficients satisfy the KKT conditions.

    For ``min 0.5 c^T K c + C sum max(0, |y_i - f_i| - eps)**2`` with
    ``f = K c + b`` (b free): ``c_i = -2 C max(0, |f_i - y_i| - eps)
    sign(f_i - y_i)`` and ``sum_i c_i = 0``; the problem is strictly convex in
    the scores, so this identifies the optimum.
    """
    seqs, y = _problem()
    C = 0.7
    model = GkmSVR(
        l=5,
        k=3,
        C=C,
        epsilon=epsilon,
        reverse_complement=rc,
        solver="linear",
        tol=1e-10,
    )
    model.fit(seqs, y)
    assert model.solver_ == "linear" and model.converged_
    f = model.predict(seqs)
    coef = _coefficients(model, len(seqs))
    _, d1, _ = score_terms("squared_epsilon_insensitive", f, y, epsilon)
    assert_allclose(coef, -C * d1, atol=1e-7)
    assert abs(coef.sum()) < 1e-7
    if epsilon > 0:  # the tube holds records, whose coefficients vanish
        inside = np.abs(f - y) < epsilon - 1e-6
        assert inside.any() and np.abs(coef[inside]).max() < 1e-7
    # the scores are the kernel expansion of the coefficients
    K = _normalised_kernel(model, seqs)
    assert_allclose(f, K @ coef + model.intercept_, atol=1e-9)


def test_linear_solver_matches_liblinear():
    """The same predictions as LIBLINEAR's L2-loss SVR on an exact feature map.

    ``Phi = V sqrt(lambda)`` from the normalised kernel matrix (``Phi Phi^T =
    K``); LIBLINEAR penalises its bias, made negligible by a large
    ``intercept_scaling``.
    """
    seqs, y = _problem(seed=2, n=40)
    C, epsilon = 0.5, 0.2
    model = GkmSVR(l=4, k=2, C=C, epsilon=epsilon, solver="linear", tol=1e-11)
    f = model.fit(seqs, y).predict(seqs)
    expected = l2_svr_predictions_liblinear(
        _normalised_kernel(model, seqs), y, C, epsilon
    )
    assert_allclose(f, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


@pytest.mark.parametrize("rc", [False, True])
def test_linear_model_is_its_kernel_expansion(rc):
    """Predictions from the l-mer table equal the support sequences' expansion."""
    seqs, y = _problem(seed=3)
    model = GkmSVR(l=5, k=3, reverse_complement=rc, solver="linear").fit(seqs, y)
    new = random_sequences(np.random.default_rng(8), 15, 10, 40)
    K = _normalised_kernel(model, model.support_sequences(), new)
    expected = K @ model.dual_coef_ + model.intercept_
    assert_allclose(model.predict(new), expected, rtol=1e-10, atol=1e-12)


def test_linear_solver_on_the_matrix_is_the_table_solver():
    """The selection's shared matrix trains the same model as the l-mer table."""
    seqs, y = _problem(seed=4, n=60)
    model = GkmSVR(l=5, k=3, epsilon=0.3, solver="linear", tol=1e-10)
    table = clone(model).fit(seqs, y)
    matrix = clone(model)._fit_gram(seqs, y, model._raw_kernel(seqs))
    assert matrix.solver_ == "linear" and matrix.converged_
    new = random_sequences(np.random.default_rng(9), 10, 10, 40)
    assert_allclose(matrix.predict(new), table.predict(new), atol=1e-7)


def test_linear_model_poim_is_exact():
    seqs, y = _problem(seed=5, n=60)
    model = GkmSVR(l=4, k=2, solver="linear").fit(seqs, y)
    background = MarkovBackground.uniform(7)
    poim = compute_poim(model, 4, background)
    expected = poim_reference(model.predict, background, 4)
    for l in range(1, 5):
        assert_allclose(poim.q(l), expected[l - 1], rtol=1e-9, atol=1e-12)


def test_linear_solver_recovers_a_planted_target():
    """Held-out Pearson > 0.8 with the planted truth, close to the kernel SVR."""
    X, truth, y = planted_anywhere(600, seed=5)
    preds = {
        solver: GkmSVR(l=6, k=4, solver=solver).fit(X[:400], y[:400]).predict(X[400:])
        for solver in ("kernel", "linear")
    }
    r = np.corrcoef(preds["linear"], truth[400:])[0, 1]
    assert r > 0.8, r
    assert np.corrcoef(preds["linear"], preds["kernel"])[0, 1] > 0.95


def test_auto_solver_by_size(monkeypatch):
    monkeypatch.setattr(gkm_solver, "KERNEL_MAX_RECORDS", 50)
    seqs, y = _problem(seed=6, n=60)
    assert GkmSVR(l=4, k=2).fit(seqs, y).solver_ == "linear"
    assert GkmSVR(l=4, k=2).fit(seqs[:50], y[:50]).solver_ == "kernel"
    assert GkmSVR(l=13, k=2)._solver_for(10**6) == "kernel"
    assert GkmSVR(l=4, k=2)._gram_pays(50, 1000)
    with pytest.raises(InputError, match=r"needs l <= 12 \(got 13\); use"):
        GkmSVR(l=13, k=2, solver="linear").fit(seqs, y)
    with pytest.raises(InputError, match="solver must be one of"):
        GkmSVR(l=4, k=2, solver="dual").fit(seqs, y)
    with pytest.raises(InputError, match="max_iter"):
        GkmSVR(l=4, k=2, max_iter=0).fit(seqs, y)


def test_non_convergence_warns():
    from sklearn.exceptions import ConvergenceWarning

    seqs, y = _problem(seed=7)
    with pytest.warns(ConvergenceWarning, match="GkmSVR's linear solver"):
        model = GkmSVR(l=4, k=2, solver="linear", max_iter=1, tol=1e-12).fit(seqs, y)
    assert not model.converged_ and model.n_iter_ == 1


def test_save_load_keeps_the_solver(tmp_path):
    seqs, y = _problem(seed=8, n=40)
    model = GkmSVR(l=4, k=2, solver="linear", max_iter=50).fit(seqs, y)
    path = tmp_path / "gkm.npz"
    model.save(path)
    for again in (load_model(path), GkmSVR.load(path)):
        assert type(again) is GkmSVR
        assert again.get_params() == model.get_params()
        assert_allclose(again.predict(seqs), model.predict(seqs), rtol=0, atol=0)
    # a file written before the solvers existed was trained on the kernel matrix
    arrays = read_npz(path, "poimkit.GkmSVR", 1)
    old = {
        k: v
        for k, v in arrays.items()
        if k not in ("solver", "max_iter", "format", "format_version")
    }
    old.pop("poimkit_version", None)
    write_npz(tmp_path / "old.npz", "poimkit.GkmSVR", 1, old)
    loaded = load_model(tmp_path / "old.npz")
    assert loaded.get_params()["solver"] == "kernel"
    assert loaded.get_params()["max_iter"] == 1000
    assert_allclose(loaded.predict(seqs), model.predict(seqs), rtol=0, atol=0)


# ------------------------------------------------------------------ WDLinearSVR
def _wd_svr_problem(seed=3, n=60, length=10):
    X, _, y = planted_positional(n, length=length, seed=seed, starts=(1, 6))
    return X, y


def test_wd_linear_svr_matches_liblinear_and_kkt():
    """On the exact feature map (no order hashed) the L2-loss SVR's optimum:
    LIBLINEAR's predictions on ``Phi Phi^T = K``, and the KKT conditions
    ``f = K c + b`` with ``c = -C l'(f)``, ``sum c = 0``."""
    X, y = _wd_svr_problem()
    C, epsilon = 0.5, 0.2
    model = WDLinearSVR(degree=4, C=C, epsilon=epsilon, tol=1e-10, max_iter=5000)
    f = model.fit(X, y).predict(X)
    assert model.converged_ and model.n_exact_orders_ == 4
    K = wd_kernel(X, degree=4)
    K /= K[0, 0]  # the normalisation of WDKernelSVR (one length)
    _, d1, _ = score_terms("squared_epsilon_insensitive", f, y, epsilon)
    c = -C * d1
    assert_allclose(f, K @ c + model.intercept_, atol=1e-6)
    assert abs(c.sum()) < 1e-6
    assert model.n_support_.tolist() == [int((c != 0).sum())]
    expected = l2_svr_predictions_liblinear(K, y, C, epsilon)
    assert_allclose(f, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


@pytest.fixture(scope="module")
def wd_linear_model():
    X, _, y = planted_positional(120, length=L, seed=1, starts=(0, 4))
    return WDLinearSVR(degree=5, shift=1, tol=1e-6).fit(X, y), X


def test_wd_linear_svr_predictions_are_explicit_weight_scores(wd_linear_model):
    model, X = wd_linear_model
    Z = np.random.default_rng(5).integers(0, 4, size=(50, L), dtype=np.uint8)
    assert_allclose(
        model.explicit_weights().decision_function(Z),
        model.predict(Z),
        rtol=1e-9,
        atol=1e-9,
    )
    assert not hasattr(model, "decision_function")


@pytest.mark.parametrize("background_name", ["uniform", "order2_positional"])
def test_wd_linear_svr_poims_match_brute_force(wd_linear_model, background_name):
    model, X = wd_linear_model
    background = wd_backgrounds(X)[background_name]
    expected = poim_reference(model.predict, background, L)
    poim = compute_poim(model, L, background)
    for l in range(1, L + 1):
        assert_allclose(poim.q(l), expected[l - 1], rtol=1e-9, atol=1e-12)


def test_wd_linear_svr_recovers_a_planted_target():
    X, truth, y = planted_positional(900, seed=4)
    model = WDLinearSVR(degree=6).fit(X[:600], y[:600])
    r = np.corrcoef(model.predict(X[600:]), truth[600:])[0, 1]
    assert r > 0.8, r


def test_wd_linear_svr_save_load_round_trip(wd_linear_model, tmp_path):
    model, X = wd_linear_model
    path = tmp_path / "m.npz"
    model.save(path)
    for loaded in (WDLinearSVR.load(path), load_model(path)):
        assert type(loaded) is WDLinearSVR
        assert loaded.get_params() == {**model.get_params(), "n_threads": None}
        assert_allclose(loaded.predict(X), model.predict(X), rtol=0, atol=0)
        assert loaded.n_support_.tolist() == model.n_support_.tolist()
    with pytest.raises(InputError, match="not a poimkit.WDLinearSVC file"):
        WDLinearSVC.load(path)


def test_wd_linear_svr_bad_input():
    X = np.random.default_rng(0).integers(0, 4, size=(10, 12), dtype=np.uint8)
    with pytest.raises(InputError, match="NaN"):
        WDLinearSVR(degree=3).fit(X, np.r_[np.nan, np.zeros(9)])
    with pytest.raises(InputError, match="epsilon"):
        WDLinearSVR(degree=3, epsilon=-1.0).fit(X, np.zeros(10))
    with pytest.raises(ValueError, match="requires y to be passed"):
        WDLinearSVR(degree=3).fit(X, None)
