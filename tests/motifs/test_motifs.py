"""Motif building blocks (the motif extraction itself is still being tuned)."""

import numpy as np
import pytest

from poimkit.errors import InputError
from poimkit.motifs import Motif
from poimkit.motifs.motif_poim import (
    PlacedPwm,
    motif_poim,
    motif_poim_gradient,
    start_distribution,
)


def test_motif_poim_is_centred_like_a_poim():
    rng = np.random.default_rng(2)
    pwm = rng.dirichlet(np.ones(4), size=6)
    background = np.array([0.3, 0.2, 0.2, 0.3])
    R = motif_poim(PlacedPwm(pwm, 8.0, 2.0, gamma=0.4), 3, 25, background)
    weights = np.einsum("a,b,c->abc", background, background, background).ravel()
    np.testing.assert_allclose(R @ weights, 0.0, atol=1e-14)


def test_motif_poim_matches_its_definition():
    rng = np.random.default_rng(0)
    m, k, length = 5, 3, 20
    pwm = rng.dirichlet(np.ones(4), size=m)
    background = np.array([0.3, 0.2, 0.2, 0.3])
    R = motif_poim(PlacedPwm(pwm, 7.3, 1.7), k, length, background)
    phi, _, _ = start_distribution(7.3, 1.7, length - m + 1)
    for j, z in [(4, 27), (0, 0), (17, 63), (9, 5)]:
        letters = [(z >> (2 * (k - 1 - p))) & 3 for p in range(k)]
        expected = 0.0
        for t in range(length - m + 1):
            prod = 1.0
            for p in range(k):
                c = j + p - t
                if 0 <= c < m:
                    prod *= pwm[c, letters[p]] / background[letters[p]]
            expected += phi[t] * (prod - 1.0)
        assert R[j, z] == pytest.approx(expected, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("gamma", [1.0, 0.45])
def test_motif_poim_gradient_matches_finite_differences(gamma):
    rng = np.random.default_rng(1)
    m, k, length = 4, 3, 15
    pwm = rng.dirichlet(np.full(4, 3.0), size=m)
    background = np.array([0.3, 0.2, 0.2, 0.3])
    mu, sigma = 5.2, 1.4
    G = rng.normal(size=(length - k + 1, 4**k))

    def f(p, mu_, sigma_, gamma_=gamma):
        R = motif_poim(PlacedPwm(p, mu_, sigma_, gamma_), k, length, background)
        return float((G * R).sum())

    d_pwm, d_mu, d_sigma, d_gamma = motif_poim_gradient(
        PlacedPwm(pwm, mu, sigma, gamma), k, length, background, G
    )
    eps = 1e-6
    assert d_gamma == pytest.approx(
        (f(pwm, mu, sigma, gamma + eps) - f(pwm, mu, sigma, gamma - eps)) / (2 * eps),
        abs=1e-6,
    )
    for c in range(m):
        for a in range(4):
            up, down = pwm.copy(), pwm.copy()
            up[c, a] += eps
            down[c, a] -= eps
            assert d_pwm[c, a] == pytest.approx(
                (f(up, mu, sigma) - f(down, mu, sigma)) / (2 * eps), abs=1e-6
            )
    assert d_mu == pytest.approx(
        (f(pwm, mu + eps, sigma) - f(pwm, mu - eps, sigma)) / (2 * eps), abs=1e-6
    )
    assert d_sigma == pytest.approx(
        (f(pwm, mu, sigma + eps) - f(pwm, mu, sigma - eps)) / (2 * eps), abs=1e-6
    )


def test_motif_object():
    pwm = np.full((3, 4), 0.1)
    pwm[[0, 1, 2], [2, 0, 3]] = 0.7
    motif = Motif(pwm, position=11.0, spread=0.0, name="m1")
    assert motif.consensus == "GAT"
    assert motif.length == 3
    assert np.all(motif.information > 0)
    bio = motif.to_biopython()
    assert str(bio.consensus) == "GAT"
    assert bio.counts["G"][0] == pytest.approx(7000.0)
    with pytest.raises(InputError, match="shape"):
        Motif(np.ones((3, 3)) / 3, 1.0, 0.0)
    with pytest.raises(InputError, match="sum to 1"):
        Motif(np.ones((3, 4)), 1.0, 0.0)
