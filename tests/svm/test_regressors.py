"""The regressors `WDKernelSVR` and `GkmSVR`: scikit-learn's checks, exact
explicit weights and POIMs, a planted continuous target, model files."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.svm import SVR
from sklearn.utils.estimator_checks import parametrize_with_checks

from poimkit import (
    GkmSVC,
    GkmSVR,
    MarkovBackground,
    WDKernelSVC,
    WDKernelSVR,
    compute_poim,
    encode,
    gkm_kernel,
    load_model,
    wd_kernel,
)
from poimkit.errors import InputError
from poimkit.poim.position_free import stationary_background
from poimkit.poim.reference import poim_reference

from ..factories import random_chain
from .test_sklearn_checks import EXPECTED_FAILED_CHECKS, check_id_of

# ------------------------------------------------------ scikit-learn's checks
_NOT_DNA = (
    "feeds real-valued (or complex, sparse, empty or object) features that are "
    "not DNA; the regressor refuses them with InputError rather than guess"
)
_CLASSIFIER_ONLY = {name for name in EXPECTED_FAILED_CHECKS if "classif" in name} | {
    "check_decision_proba_consistency"  # needs predict_proba
}
_REGRESSOR_CHECKS = (
    "check_fit2d_1sample",
    "check_regressor_data_not_an_array",
    "check_regressors_int",
    "check_regressors_no_decision_function",
    "check_regressors_train",
    "check_regressors_train(readonly_memmap=True)",
    "check_regressors_train(readonly_memmap=True,X_dtype=float32)",
)
EXPECTED_WD = {
    **{
        name: _NOT_DNA
        for name in set(EXPECTED_FAILED_CHECKS) - _CLASSIFIER_ONLY
        if name != "check_class_weight_classifiers"
    },
    **dict.fromkeys(_REGRESSOR_CHECKS, _NOT_DNA),
}
EXPECTED_GKM = {
    **EXPECTED_WD,
    **dict.fromkeys(
        (
            "check_complex_data",
            "check_estimators_empty_data_messages",
            "check_estimator_sparse_tag",
            "check_estimator_sparse_array",
            "check_estimator_sparse_matrix",
            "check_non_transformer_estimators_n_iter",  # GkmSVR has max_iter
        ),
        _NOT_DNA,
    ),
}
EXPECTED = {"WDKernelSVR": EXPECTED_WD, "GkmSVR": EXPECTED_GKM}

# The refusal, as raised or as quoted by the check that caught it: not DNA
# codes, or scikit-learn's complaint that the message is not its own.
_REFUSAL = (
    r"integer codes 0\.\.3|codes must be 0\.\.3|raised InputError|DNA strings|"
    r"InputError|doesn't check for NaN|sparse data|should contain one of"
)


@parametrize_with_checks([WDKernelSVR(degree=3), GkmSVR(l=3, k=2)])
def test_sklearn_estimator_checks(estimator, check, request):
    expected = EXPECTED[type(estimator).__name__]
    if check_id_of(request.node) not in expected:
        check(estimator)
        return
    with pytest.raises((InputError, AssertionError, ValueError), match=_REFUSAL):
        check(estimator)


def test_every_exclusion_names_a_check_that_runs(request):
    """A check renamed or dropped by scikit-learn must not linger here."""
    ids = {
        check_id_of(item)
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_sklearn_estimator_checks"
        and item.path.name == "test_regressors.py"
    }
    if not ids:
        pytest.skip("the estimator checks were not collected in this run")
    assert set(EXPECTED_GKM) <= ids


# ------------------------------------------------------------------ data
def planted_positional(n, length=30, noise=0.3, seed=0, starts=(5, 18)):
    """Continuous target: additive effects of positional motifs, plus noise."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, length), dtype=np.uint8)
    truth = np.zeros(n)
    for motif, start, effect in zip(("GATT", "CCA"), starts, (1.5, -1.0), strict=True):
        m = encode([motif])[0]
        has = rng.random(n) < 0.4
        X[has, start : start + m.size] = m
        truth += effect * (X[:, start : start + m.size] == m).all(axis=1)
    return X, truth, truth + rng.normal(scale=noise, size=n)


def planted_anywhere(n, length=40, noise=0.3, seed=0):
    """Continuous target: additive effect per occurrence of position-free motifs."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, length), dtype=np.uint8)
    truth = np.zeros(n)
    for motif in ("GATTACA", "CCGCGG"):
        m = encode([motif])[0]
        for i in range(n):
            for _ in range(rng.integers(0, 3)):
                start = rng.integers(0, length - m.size + 1)
                X[i, start : start + m.size] = m
    for motif, effect in (("GATTACA", 1.0), ("CCGCGG", -0.7)):
        m = encode([motif])[0]
        windows = np.lib.stride_tricks.sliding_window_view(X, m.size, axis=1)
        truth += effect * (windows == m).all(axis=2).sum(axis=1)
    return X, truth, truth + rng.normal(scale=noise, size=n)


@pytest.fixture(scope="module")
def wd_models():
    X, _, y = planted_positional(120, length=7, seed=1, starts=(0, 4))
    return {
        "wd": WDKernelSVR(degree=5).fit(X, y),
        "wd_raw": WDKernelSVR(degree=20, normalize=False, epsilon=0.05).fit(X, y),
        "wds": WDKernelSVR(degree=4, shift=2).fit(X, y),
        "wd_mm_rc": WDKernelSVR(degree=4, mismatches=1, reverse_complement=True).fit(
            X, y
        ),
    }, X


@pytest.fixture(scope="module")
def gkm_models():
    X, _, y = planted_anywhere(80, length=20, seed=2)
    return (
        {rc: GkmSVR(l=4, k=2, reverse_complement=rc).fit(X, y) for rc in (False, True)},
        X,
        y,
    )


# ------------------------------------------------- exact explicit weights
@pytest.mark.parametrize("name", ["wd", "wd_raw", "wds", "wd_mm_rc"])
def test_wd_predictions_are_explicit_weight_scores(wd_models, name):
    models, X = wd_models
    model = models[name]
    rng = np.random.default_rng(5)
    Z = rng.integers(0, 4, size=(50, X.shape[1]), dtype=np.uint8)
    assert_allclose(
        model.explicit_weights().decision_function(Z),
        model.predict(Z),
        rtol=1e-9,
        atol=1e-9,
    )
    assert not hasattr(model, "decision_function")


def test_wd_is_sklearn_svr_on_the_kernel_matrix():
    """The same predictions as SVR on the normalised WD kernel, fitted here."""
    X, _, y = planted_positional(150, length=12, seed=3, starts=(1, 7))
    train, test = X[:100], X[100:]
    model = WDKernelSVR(degree=4, C=2.0, epsilon=0.2).fit(train, y[:100])
    K = wd_kernel(train, degree=4)
    scale = K[0, 0]
    svr = SVR(kernel="precomputed", C=2.0, epsilon=0.2).fit(K / scale, y[:100])
    expected = svr.predict(wd_kernel(test, train, degree=4) / scale)
    assert_allclose(model.predict(test), expected, rtol=1e-9, atol=1e-9)


def test_gkm_is_sklearn_svr_on_the_kernel_matrix(gkm_models):
    """Predictions from the l-mer table equal SVR on the normalised gkm kernel,
    fitted here (records of several lengths)."""
    rng = np.random.default_rng(7)
    X = [
        rng.integers(0, 4, size=rng.integers(12, 30), dtype=np.uint8) for _ in range(90)
    ]
    y = rng.normal(size=60)
    train, test = X[:60], X[60:]
    model = GkmSVR(l=5, k=3, C=0.5).fit(train, y)
    K = gkm_kernel(X, l=5, k=3)
    n_windows = np.array([x.size - 4.0 for x in X])
    kappa = np.mean(np.diag(K)[:60] / n_windows[:60])
    a = np.sqrt(kappa * n_windows)
    Kn = K / np.outer(a, a)
    svr = SVR(kernel="precomputed", C=0.5).fit(Kn[:60, :60], y)
    expected = svr.predict(Kn[60:, :60])
    assert_allclose(model.predict(test), expected, rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------ exact POIMs
L = 7


def wd_backgrounds(X):
    rng = np.random.default_rng(11)
    return {
        "uniform": MarkovBackground.uniform(L),
        "order1": MarkovBackground.fit(X, order=1),
        "order2_positional": random_chain(rng, 2, L, positional=True),
    }


@pytest.mark.parametrize("name", ["wd", "wd_raw", "wds", "wd_mm_rc"])
@pytest.mark.parametrize("background_name", ["uniform", "order1", "order2_positional"])
def test_wd_poims_match_brute_force(wd_models, name, background_name):
    models, X = wd_models
    model = models[name]
    background = wd_backgrounds(X)[background_name]
    expected = poim_reference(model.predict, background, L)
    poim = compute_poim(model, L, background)
    for l in range(1, L + 1):
        assert_allclose(poim.q(l), expected[l - 1], rtol=1e-9, atol=1e-12)
    assert poim.metadata["model_epsilon"] == str(model.epsilon)


@pytest.mark.parametrize("rc", [False, True])
@pytest.mark.parametrize("order", [0, 2])
def test_gkm_poims_match_brute_force(gkm_models, rc, order):
    models, _, _ = gkm_models
    model = models[rc]
    chain = (
        MarkovBackground.uniform(L)
        if order == 0
        else random_chain(np.random.default_rng(3), order, L, positional=False)
    )
    background = stationary_background(chain)
    poim = compute_poim(model, 5, background)
    expected = poim_reference(model.predict, background, 5)
    for l in range(1, 6):
        assert_allclose(poim.q(l), expected[l - 1], rtol=1e-9, atol=1e-12)
    assert poim.metadata["model"] == "position-free"


# ------------------------------------------------------ planted targets
def test_wd_recovers_a_planted_positional_target():
    X, truth, y = planted_positional(900, seed=4)
    model = WDKernelSVR(degree=6, C=1.0).fit(X[:600], y[:600])
    r = np.corrcoef(model.predict(X[600:]), truth[600:])[0, 1]
    assert r > 0.8, r
    # the strongest positive POIM entry of order 4 is the planted GATT at 5
    q4 = compute_poim(model, 4).q(4)
    j, z = np.unravel_index(np.argmax(q4), q4.shape)
    assert (j, z) == (5, int(np.dot(encode(["GATT"])[0], 4 ** np.arange(3, -1, -1))))


def test_gkm_recovers_a_planted_position_free_target():
    X, truth, y = planted_anywhere(600, seed=5)
    model = GkmSVR(l=6, k=4, C=1.0).fit(X[:400], y[:400])
    r = np.corrcoef(model.predict(X[400:]), truth[400:])[0, 1]
    assert r > 0.8, r


# ------------------------------------------------------------------ files
@pytest.mark.parametrize("name", ["wd", "wds", "wd_mm_rc"])
def test_wd_save_load_round_trip(wd_models, name, tmp_path):
    models, X = wd_models
    model = models[name]
    path = tmp_path / "m.npz"
    model.save(path)
    for loaded in (WDKernelSVR.load(path), load_model(path)):
        assert type(loaded) is WDKernelSVR
        assert loaded.get_params() == {
            **model.get_params(),
            "n_threads": None,
        }
        assert_allclose(loaded.predict(X), model.predict(X), rtol=0, atol=0)
    with pytest.raises(InputError, match="not a poimkit.WDKernelSVC file"):
        WDKernelSVC.load(path)


def test_gkm_save_load_round_trip(gkm_models, tmp_path):
    models, X, _ = gkm_models
    model = models[True]
    path = tmp_path / "m.npz"
    model.save(path)
    for loaded in (GkmSVR.load(path), load_model(path)):
        assert type(loaded) is GkmSVR
        assert loaded.get_params() == model.get_params()
        assert_allclose(loaded.predict(X), model.predict(X), rtol=0, atol=0)
        assert_allclose(loaded.lmer_weights(), model.lmer_weights(), rtol=0, atol=0)
    with pytest.raises(InputError, match="not a poimkit.GkmSVC file"):
        GkmSVC.load(path)


# ------------------------------------------------------------- bad input
@pytest.mark.parametrize("cls", [WDKernelSVR, GkmSVR])
def test_bad_targets_and_parameters(cls):
    X = np.random.default_rng(0).integers(0, 4, size=(10, 12), dtype=np.uint8)
    model = cls(degree=3) if cls is WDKernelSVR else cls(l=4, k=2)
    with pytest.raises(InputError, match="NaN"):
        model.fit(X, np.r_[np.nan, np.zeros(9)])
    with pytest.raises(InputError, match="shape"):
        model.fit(X, np.zeros(9))
    with pytest.raises(InputError, match="y must be real numbers"):
        model.fit(X, ["a"] * 10)
    with pytest.raises(ValueError, match="requires y to be passed"):
        model.fit(X, None)
    with pytest.raises(InputError, match="epsilon"):
        model.set_params(epsilon=-0.1).fit(X, np.zeros(10))
