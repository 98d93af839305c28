"""Labels and probabilities: Platt scaling, calibrated classifiers, run figures."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit import InputError, WDKernelSVC, load_model
from poimkit.datasets import make_gattaca
from poimkit.run.crossval import best_accuracy, fold_figures
from poimkit.svm.calibration import platt, probability, threshold

from ..naive import platt_objective


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(6, 60), scale=st.floats(0.01, 50))
def test_platt_minimises_the_smoothed_cross_entropy(seed, n, scale):
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.4
    positive[:2], positive[2:4] = True, False
    s = scale * (rng.normal(size=n) + positive)
    a, b = platt(s, positive)
    best = platt_objective(a, b, s, positive)
    # no point of a fine grid around the fit does better (brute force)
    for da in np.linspace(-0.2, 0.2, 9) * (abs(a) + 1 / scale):
        for db in np.linspace(-0.2, 0.2, 9) * (abs(b) + 1):
            assert platt_objective(a + da, b + db, s, positive) >= best - 1e-7 * (
                1 + best
            )


def test_platt_agrees_with_scikit_learns_sigmoid_calibration():
    from sklearn.calibration import _sigmoid_calibration

    rng = np.random.default_rng(3)
    positive = rng.random(300) < 0.3
    s = rng.normal(size=300) + 2 * positive
    a, b = platt(s, positive)
    A, B = _sigmoid_calibration(s, positive.astype(int))
    assert_allclose([a, b], [-A, -B], rtol=1e-4, atol=1e-6)


def test_probability_and_threshold():
    cal = (2.0, -1.0)
    assert probability([threshold(cal)], cal)[0] == pytest.approx(0.5)
    assert probability([-1e6, 1e6], cal).tolist() == [0.0, 1.0]  # no overflow
    with pytest.raises(InputError):
        platt([0.0, 1.0, 2.0], [True, False, False])  # one positive


def test_best_accuracy_is_the_best_threshold_by_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(20):
        s = rng.integers(0, 6, 30).astype(float)  # ties
        positive = rng.random(30) < 0.5
        cuts = np.concatenate([np.unique(s), [np.inf]])
        brute = max(np.mean((s >= c) == positive) for c in cuts)
        assert best_accuracy(positive, s) == pytest.approx(brute)


def test_a_small_c_svm_is_calibrated_by_held_out_scores(tmp_path):
    """Unbalanced classes at a small C: labels by the placed intercept, then Platt."""
    X, y = make_gattaca(n_pos=80, n_neg=220, random_state=0)
    train, test = np.arange(0, 300, 2), np.arange(1, 300, 2)
    model = WDKernelSVC(degree=6, C=0.001).fit(X[train], y[train])
    # libsvm's intercept labelled every record 0; the placed one labels both
    assert set(model.predict(X[test]).tolist()) == {0, 1}
    with pytest.raises(InputError, match="no calibration"):
        model.predict_proba(X[test])
    held = WDKernelSVC(degree=6, C=0.001).fit(X[test], y[test])
    model.calibrate(held.decision_function(X[train]), y[train])  # out of sample
    accuracy = np.mean(model.predict(X[test]) == y[test])
    scores = model.decision_function(X[test])
    assert accuracy >= best_accuracy(y[test] == 1, scores) - 0.05
    p = model.predict_proba(X[test])
    assert_allclose(p.sum(axis=1), 1.0)
    assert ((p[:, 1] >= 0.5) == (model.predict(X[test]) == 1)).all()
    model.save(tmp_path / "m.npz")
    loaded = load_model(tmp_path / "m.npz")
    assert loaded.calibration_ == pytest.approx(model.calibration_)
    assert_allclose(loaded.predict_proba(X[test]), p)


def test_fold_figures_pool_probabilities_and_score_labels():
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(50), np.zeros(50)].astype(int)
    folds = [(np.arange(50, 100), np.arange(0, 100, 2)), (None, np.arange(1, 100, 2))]
    scores = rng.normal(size=100) + y
    scores[1::2] += 10.0  # one fold on another scale: pooled scores rank badly
    p = np.where(np.arange(100) % 2, 1 / (1 + np.exp(-(scores - 10))), 0.0)
    p[::2] = 1 / (1 + np.exp(-scores[::2]))
    figures = fold_figures(y, folds, scores, p)
    assert figures["cv_auc_pooled"] == pytest.approx(
        np.mean(figures["cv_auc_folds"]), abs=0.08
    )
    labels = p >= 0.5
    assert figures["cv_accuracy"] == pytest.approx(
        np.mean([np.mean(labels[t] == y[t]) for _, t in folds])
    )
    assert figures["cv_brier"] == pytest.approx(np.mean((p - y) ** 2))
    assert figures["cv_best_accuracy"] >= figures["cv_accuracy"] - 1e-12


def test_a_motif_model_is_calibrated_on_its_inner_folds(tmp_path):
    from poimkit import Motif
    from poimkit.datasets import PlantedMotif, make_motif_data
    from poimkit.motifs.model import MotifClassifier, load_motif_model

    X, y = make_motif_data(
        150, 250, 40, [PlantedMotif("GATTACA", 12, spread=1)], random_state=2
    )
    motif = Motif(np.eye(4)[[2, 0, 3, 3, 0, 1, 0]], 12.0, 1.0, n_sites=150)
    model = MotifClassifier([motif], cv=3).fit(X, y)
    assert model.calibration_ != (1.0, 0.0)  # fitted, not the log-odds as they are
    p = model.predict_proba(X)[:, 1]
    assert_allclose(p, probability(model.decision_function(X), model.calibration_))
    assert ((p >= 0.5) == (model.predict(X) == 1)).all()
    model.save(tmp_path / "m.npz")
    loaded = load_motif_model(tmp_path / "m.npz")
    assert loaded.calibration_ == pytest.approx(model.calibration_)
    assert_allclose(loaded.predict_proba(X), model.predict_proba(X))
