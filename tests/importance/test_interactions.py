"""Motif interaction maps (poimkit.importance.interactions) against exact values."""

import numpy as np
import pytest

from poimkit import InputError, WDKernelSVC
from poimkit.datasets import make_gattaca
from poimkit.importance.interactions import motif_interactions, placements

from ..naive import mean_score_fixed_naive


class Together:
    """1 when AC sits exactly 3 letters after GG (on the given strand), else 0."""

    def decision_function(self, X):
        X = np.asarray(X)
        hit = np.zeros(len(X))
        for i in range(X.shape[1] - 6):
            hit += (
                (X[:, i] == 2)
                & (X[:, i + 1] == 2)
                & (X[:, i + 5] == 0)
                & (X[:, i + 6] == 1)
            )
        return (hit > 0).astype(float)


class Letters:
    """A sum of per-letter weights: motifs add up, they never interact."""

    def __init__(self, length):
        self.w = np.random.default_rng(0).normal(size=(4, length))
        self.length_ = length

    def decision_function(self, X):
        X = np.asarray(X)
        return self.w[X, np.arange(X.shape[1])].sum(axis=1)


def test_an_additive_model_has_no_interaction_at_all():
    found = motif_interactions(
        Letters(30),
        "GATT",
        "ACA",
        distances=range(0, 8),
        n_samples=20,
        random_state=1,
    )
    assert np.allclose(found.interaction, 0.0, atol=1e-10)
    assert np.allclose(found.stderr, 0.0, atol=1e-10)
    assert found.n_evaluations == 20 * (1 + 3 * 8 * 4)


def test_the_map_peaks_at_the_planted_spacing_and_orientation():
    found = motif_interactions(
        Together(),
        "GG",
        "AC",
        30,
        distances=range(0, 7),
        n_samples=100,
        random_state=2,
    )
    peak = found.peak()
    assert (peak["orientation"], peak["distance"]) == ("++", 3)
    assert peak["z"] > 10
    others = np.abs(found.z())
    others[0, 3] = 0
    assert others.max() < peak["z"] / 2


def test_a_wd_svm_map_matches_exact_expectations():
    X, y = make_gattaca(n_pos=60, n_neg=60, length=10, mean=3, sd=0, random_state=3)
    model = WDKernelSVC(degree=4).fit(X, y)
    found = motif_interactions(
        model,
        "GAT",
        "TA",
        10,
        distances=[0, 1, 2],
        orientations=["++", "-+"],
        n_samples=400,
        random_state=4,
    )
    a, b = np.array([2, 0, 3]), np.array([3, 0])
    for i, signs in enumerate(found.orientations):
        site_a = a if signs[0] == "+" else 3 - a[::-1]
        for j, d in enumerate(found.distances):
            start_a, start_b = placements(10, 3, 2, int(d))
            fixed_a = {start_a + p: c for p, c in enumerate(site_a)}
            fixed_b = {start_b + p: c for p, c in enumerate(b)}
            exact = (
                mean_score_fixed_naive(model, 10, {**fixed_a, **fixed_b})
                - mean_score_fixed_naive(model, 10, fixed_a)
                - mean_score_fixed_naive(model, 10, fixed_b)
                + mean_score_fixed_naive(model, 10, {})
            )
            error = abs(found.interaction[i, j] - exact)
            assert error <= 5 * found.stderr[i, j] + 1e-9, (signs, d, exact)


def test_interactions_refuse_what_does_not_fit():
    with pytest.raises(InputError, match="does not fit"):
        motif_interactions(Letters(10), "GATT", "ACA", distances=[5])
    with pytest.raises(InputError, match="letters A, C, G, T"):
        motif_interactions(Letters(10), "GANT", "ACA", distances=[0])
    with pytest.raises(InputError, match="orientations"):
        motif_interactions(Letters(10), "GA", "AC", distances=[0], orientations=["+"])
