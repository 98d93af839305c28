"""Observed-sample POIMs (`poimkit.poim.observed`, MFI's estimator) against brute force.

Estimates are compared with exact enumeration entry by entry within 4.5
standard errors, and the standard errors themselves with the spread of the
estimates over seeds. All tests are seeded (not tuned).
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from poimkit.alphabet import kmer_indices
from poimkit.background import MarkovBackground, kmer_probability_table
from poimkit.errors import InputError
from poimkit.poim import observed_poim
from poimkit.poim.reference import poim_reference

from .. import factories
from ..factories import gattaca_svm, pooled_motif_score

LENGTH = 7


def random_chain(seed, order, length=LENGTH):
    rng = np.random.default_rng(seed)
    return factories.random_chain(rng, order, length, True, concentration=2.0)


BACKGROUNDS = {
    "uniform": lambda: MarkovBackground.uniform(LENGTH),
    "positional order 0": lambda: random_chain(1, 0),
    "order 1": lambda: random_chain(2, 1),
    "positional order 2": lambda: random_chain(3, 2),
}


@pytest.fixture(scope="module")
def small_svm():
    return gattaca_svm(LENGTH)


def assert_within_se(estimates, exact, stderr, n_se=4.5):
    """Entries with a standard error lie within n_se of it; z-scores look standard."""
    z_all = []
    for l, (q, e, se) in enumerate(zip(estimates, exact, stderr, strict=True), 1):
        ok = np.isfinite(se) & (se > 0)
        z = (q[ok] - e[ok]) / se[ok]
        assert np.all(np.abs(z) <= n_se), f"order {l}: max |z| {np.abs(z).max():.1f}"
        z_all.append(z)
    z2 = np.mean(np.concatenate(z_all) ** 2)
    assert 0.6 < z2 < 1.6, f"mean squared z-score {z2}: standard errors look wrong"


@pytest.mark.parametrize("name", list(BACKGROUNDS))
def test_every_start_matches_brute_force(small_svm, name):
    background = BACKGROUNDS[name]()
    poim = observed_poim(small_svm, 3, background, n_samples=20_000, random_state=5)
    reference = poim_reference(small_svm.decision_function, background, 3)
    assert_within_se([poim.q(l) for l in (1, 2, 3)], reference, poim.stderr)
    assert poim.metadata["estimator"] == "observed"
    assert poim.metadata["windows"] == "all"


@pytest.mark.parametrize("name", ["uniform", "order 1"])
def test_pooled_starts_match_the_weighted_mean_of_brute_force(name):
    background = BACKGROUNDS[name]()
    poim = observed_poim(
        pooled_motif_score, 3, background, 20_000, random_state=2, windows="pooled"
    )
    reference = poim_reference(pooled_motif_score, background, 3)
    pooled = []
    for l in (1, 2, 3):
        p = kmer_probability_table(background, l)
        mean = (p * reference[l - 1]).sum(axis=0) / p.sum(axis=0)
        pooled.append(np.broadcast_to(mean, p.shape))
        assert np.all(poim.q(l) == poim.q(l)[0])  # one estimate for every start
    assert_within_se([poim.q(l) for l in (1, 2, 3)], pooled, poim.stderr)


@pytest.mark.parametrize("windows", ["all", "pooled"])
def test_equals_the_formulas_on_the_same_samples(windows):
    """The kernels and the delta-method errors, against plain numpy on the draws."""
    seen = []

    def score(X):
        seen.append(X.copy())
        return pooled_motif_score(X) * 10.0 + 100.0  # an offset tests the shift

    n, length, l = 500, 9, 2
    background = random_chain(7, 1, length)
    poim = observed_poim(score, l, background, n, random_state=1, windows=windows)
    X = np.concatenate(seen)
    s = pooled_motif_score(X) * 10.0 + 100.0
    keys = kmer_indices(X, l)
    rows = [keys] if windows == "pooled" else [keys[:, [j]] for j in range(8)]
    for j, block in enumerate(rows):
        for z in range(16):
            c = (block == z).sum(axis=1).astype(float)
            held = int((c > 0).sum())
            m = (c * s).sum() / c.sum()
            psi = c * (s - m) / c.sum() - (s - s.mean()) / n
            own = ((c * (s - m) / c.sum()) ** 2).sum()
            assert_allclose(poim.q(l)[j, z], m - s.mean(), rtol=1e-9, atol=1e-9)
            if held < 2:  # no error from one sample
                assert np.isnan(poim.stderr[l - 1][j, z])
                continue
            var = (psi**2).sum() + own / (held - 1)
            assert_allclose(poim.stderr[l - 1][j, z], np.sqrt(var), rtol=1e-7)


@pytest.mark.parametrize("windows", ["all", "pooled"])
def test_standard_errors_match_the_spread_over_seeds(windows):
    background = MarkovBackground.uniform(12)

    def score(X):
        pair = (X[:, 3] == 0) & (X[:, 4] == 1)
        return 2.0 * pair + 0.1 * X.sum(axis=1) + 0.05 * ((X == 2).sum(axis=1) ** 2)

    runs = [
        observed_poim(score, 2, background, 3000, random_state=s, windows=windows)
        for s in range(40)
    ]
    spread = np.std([r.q(2) for r in runs], axis=0, ddof=1)
    stated = np.mean([r.stderr[1] for r in runs], axis=0)
    ratio = np.median(spread / stated)
    assert 0.85 < ratio < 1.15, ratio


def test_seeded_reproducible_batch_size_free_and_counts_calls(small_svm):
    calls = []

    def score(X):
        calls.append(X.shape[0])
        return small_svm.decision_function(X)

    background = MarkovBackground.uniform(LENGTH)
    a = observed_poim(score, 2, background, 5000, random_state=3, batch_size=700)
    b = observed_poim(score, 2, background, 5000, random_state=3, batch_size=5000)
    assert sum(calls) == 10_000 and max(calls) == 4096  # drawn 4096 at a time
    for l in (1, 2):
        assert_allclose(a.q(l), b.q(l), atol=1e-12)
        assert_allclose(a.stderr[l - 1], b.stderr[l - 1], atol=1e-12)


def test_rare_and_impossible_kmers():
    # Order-1 chain where A is never followed by C.
    trans = np.full((LENGTH - 1, 4, 4), 0.25)
    trans[:, 0] = [0.5, 0.0, 0.25, 0.25]
    background = MarkovBackground(np.full(4, 0.25), trans)
    poim = observed_poim(pooled_motif_score, 3, background, 3, random_state=0)
    for l in (1, 2, 3):
        impossible = kmer_probability_table(background, l) == 0
        assert np.all(poim.q(l)[impossible] == 0)
        assert np.all(poim.stderr[l - 1][impossible] == 0)
    # three samples cannot hold every possible 3-mer twice: no error stated there
    rare = np.isnan(poim.stderr[2])
    assert rare.any()
    impossible = kmer_probability_table(background, 3) == 0
    assert not np.isnan(poim.stderr[2][impossible]).any()


def test_bad_inputs_raise_input_error():
    background = MarkovBackground.uniform(5)
    with pytest.raises(InputError, match="windows must be"):
        observed_poim(pooled_motif_score, 1, background, windows="centre")
    with pytest.raises(InputError, match="n_samples"):
        observed_poim(pooled_motif_score, 1, background, n_samples=1)
    with pytest.raises(InputError, match="max_order"):
        observed_poim(pooled_motif_score, 6, background)
    with pytest.raises(InputError, match="progress"):
        observed_poim(pooled_motif_score, 1, background, progress="yes")
    with pytest.raises(InputError, match="background is required"):
        observed_poim(pooled_motif_score, 1)
