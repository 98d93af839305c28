"""The motif model: features against a brute-force scan, fit, files, fidelity."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit import InputError, Motif
from poimkit.datasets import PlantedMotif, make_motif_data
from poimkit.motifs.model import (
    MotifClassifier,
    MotifRegressor,
    fidelity,
    load_motif_model,
    motif_features,
    motif_log_odds,
    placements,
    reads_both_strands,
)
from poimkit.motifs.scan import Sites


def _motif(rng, width, position, spread, both):
    pwm = rng.dirichlet(np.ones(4), size=width)
    strands = np.array([1, -1] if both else [1], dtype=np.int8)
    sites = Sites(
        np.zeros(strands.size, np.int64),
        np.zeros(strands.size, np.int64),
        np.zeros(strands.size),
        strands,
    )
    return Motif(pwm, position, spread, n_sites=int(rng.integers(0, 50)), sites=sites)


def _brute(X, motif, background):
    """Best window score over the allowed placements, by enumeration."""
    lods = motif_log_odds(motif, background)
    m, L = motif.length, X.shape[1]
    rc = lods[::-1, ::-1]
    out = []
    for x in X:
        best = -np.inf
        for a in range(L - m + 1):
            free = np.isnan(motif.position)
            near = abs(a - (motif.position - 1)) <= max(3 * motif.spread, 1.0)
            if not (free or near):
                continue
            window = x[a : a + m]
            best = max(best, lods[np.arange(m), window].sum())
            if free or motif.sites.on_both_strands:  # reads_both_strands
                best = max(best, rc[np.arange(m), window].sum())
        out.append(best if np.isfinite(best) else lods.min(axis=1).sum())
    return np.array(out)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    width=st.integers(2, 6),
    free=st.booleans(),
    both=st.booleans(),
)
def test_features_match_a_brute_force_scan(seed, width, free, both):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(7, 15)).astype(np.uint8)
    position = np.nan if free else float(rng.integers(1, 12))
    motif = _motif(rng, width, position, float(rng.uniform(0, 2)), both)
    background = rng.dirichlet(np.ones(4) * 5)
    got = motif_features(X, [motif], background)[:, 0]
    assert_allclose(got, _brute(X, motif, background), atol=1e-9)


def test_placements_of_a_positional_motif():
    motif = Motif(np.full((4, 4), 0.25), position=10.0, spread=1.0)
    allowed, allowed_rc = placements(motif, 30, reads_both_strands(motif))
    assert allowed.tolist() == list(range(6, 13)) and allowed_rc.size == 0
    free = Motif(np.full((4, 4), 0.25), position=np.nan, spread=np.nan)
    allowed, allowed_rc = placements(free, 30, reads_both_strands(free))
    assert allowed.tolist() == allowed_rc.tolist() == list(range(27))


def _planted():
    X, y = make_motif_data(
        300, 300, 40, [PlantedMotif("GATTACA", 12, spread=1)], random_state=1
    )
    motif = Motif(np.eye(4)[[2, 0, 3, 3, 0, 1, 0]], 12.0, 1.0, n_sites=300)
    return X, y, motif


def test_classifier_ranks_a_planted_motif_and_round_trips(tmp_path):
    X, y, motif = _planted()
    model = MotifClassifier([motif]).fit(X, y)
    assert model.coef_[0] > 0
    from sklearn.metrics import roc_auc_score

    assert roc_auc_score(y, model.decision_function(X)) > 0.9
    path = tmp_path / "motif_model.npz"
    model.save(path)
    loaded = load_motif_model(path)
    assert isinstance(loaded, MotifClassifier)
    assert loaded.both_strands == [False]  # a positional motif on its strand
    assert_allclose(loaded.decision_function(X), model.decision_function(X))
    assert_allclose(loaded.predict_proba(X), model.predict_proba(X))
    assert (loaded.predict(X) == model.predict(X)).all()
    with np.load(path, allow_pickle=False) as f:  # no pickle inside
        assert "pwms" in f.files


def test_regressor_follows_the_motif_and_round_trips(tmp_path):
    X, y, motif = _planted()
    t = 2.0 * y + np.random.default_rng(0).normal(0, 0.3, y.size)
    model = MotifRegressor([motif]).fit(X, t)
    # one feature: the fit is a line through it, as correlated as the feature
    feature = model.transform(X)[:, 0]
    r = np.corrcoef(model.predict(X), t)[0, 1]
    assert r == pytest.approx(np.corrcoef(feature, t)[0, 1], abs=1e-9) and r > 0.8
    model.save(tmp_path / "r.npz")
    loaded = load_motif_model(tmp_path / "r.npz")
    assert isinstance(loaded, MotifRegressor)
    assert_allclose(loaded.predict(X), model.predict(X))


def test_motif_model_refuses_no_motifs_and_bad_files(tmp_path):
    X, y, _ = _planted()
    with pytest.raises(InputError, match="at least one motif"):
        MotifClassifier([]).fit(X, y)
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros(2))
    with pytest.raises(InputError):
        load_motif_model(bad)


def test_fidelity_is_the_share_of_the_ranking_kept():
    y = np.array([0, 1] * 50)
    f = y + np.random.default_rng(0).normal(0, 0.1, 100)
    assert fidelity(f, f, y) == pytest.approx(1.0)
    assert fidelity(f, -f, y) == pytest.approx(-1.0)
    t = np.arange(100.0)
    assert fidelity(t + 1, 2 * t, t) == pytest.approx(1.0)
