"""Monte Carlo POIMs (`poimkit.poim.sampled`) against the exact engine and brute force.

Sampled estimates are compared entry by entry with the exact value:
``|Q_sampled - Q_exact| <= 4 se + 1e-12``. All tests are seeded, so they are
deterministic; the seeds are not tuned (4 standard errors fail with
probability about 6e-5 per entry).
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from poimkit import WDKernelSVC
from poimkit.alphabet import encode, kmer_indices
from poimkit.background import MarkovBackground, kmer_probability_table
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.poim.compute import compute_poim
from poimkit.poim.reference import instance_reference, poim_reference
from poimkit.poim.result import Poim
from poimkit.poim.sampled import (
    as_score_function,
    count_evaluations,
    sample_conditional,
    sampled_instance,
    sampled_poim,
)

from .. import factories
from ..factories import gattaca_svm, pooled_motif_score
from ..naive import conditional_probabilities_naive

LENGTH = 7


def random_chain(seed, order, length=LENGTH, positional=True, concentration=0.7):
    rng = np.random.default_rng(seed)
    return factories.random_chain(rng, order, length, positional, concentration)


BACKGROUNDS = {
    "uniform": lambda: MarkovBackground.uniform(LENGTH),
    "positional order 0": lambda: random_chain(1, 0),
    "order 1": lambda: random_chain(2, 1, positional=False),
    "positional order 2": lambda: random_chain(3, 2),
    "order 3": lambda: random_chain(4, 3),
}


@pytest.fixture(scope="module")
def small_svm():
    return gattaca_svm(LENGTH)


def assert_within_se(sampled, exact, stderr, n_se=4.0):
    """Every entry within n_se standard errors; stderrs not grossly inflated."""
    for l, (q, e, se) in enumerate(zip(sampled, exact, stderr, strict=True), 1):
        bad = np.abs(q - e) > n_se * se + 1e-12
        assert not bad.any(), (
            f"order {l}: {bad.sum()} entries off by more than {n_se} se, e.g. "
            f"{q[bad][:3]} vs {e[bad][:3]} (se {se[bad][:3]})"
        )
    se_all = np.concatenate([se.ravel() for se in stderr])
    diff = np.concatenate(
        [(q - e).ravel() for q, e in zip(sampled, exact, strict=True)]
    )
    ok = se_all > 0
    z2 = np.mean((diff[ok] / se_all[ok]) ** 2)
    assert 0.3 < z2 < 3.0, f"mean squared z-score {z2}: standard errors look wrong"


# ------------------------------------------------------ against the exact engine


@pytest.mark.parametrize("name", list(BACKGROUNDS))
def test_sampled_poim_matches_exact_engine_and_brute_force(small_svm, name):
    background = BACKGROUNDS[name]()
    max_order = 4
    sampled = sampled_poim(
        small_svm, max_order, background, n_samples=200, random_state=11
    )
    exact = compute_poim(small_svm, max_order, background)
    reference = poim_reference(small_svm.decision_function, background, max_order)
    q = [sampled.q(l) for l in range(1, max_order + 1)]
    assert_within_se(q, [exact.q(l) for l in range(1, max_order + 1)], sampled.stderr)
    assert_within_se(q, reference, sampled.stderr)
    assert sampled.metadata["method"] == "sampled"
    assert sampled.metadata["n_samples"] == "200"
    # Common random numbers: the Pr-weighted sum over z is zero in every window.
    for l in range(1, max_order + 1):
        weighted = (kmer_probability_table(background, l) * q[l - 1]).sum(axis=1)
        assert_allclose(weighted, 0.0, atol=1e-12)


def test_sampled_poim_gattaca_length_30():
    X, y = make_gattaca(n_pos=80, n_neg=80, length=30, mean=10, sd=1, random_state=0)
    model = WDKernelSVC(degree=6).fit(X, y)
    background = MarkovBackground.fit(X, order=1)
    sampled = sampled_poim(model, 3, background, n_samples=150, random_state=3)
    exact = compute_poim(model, 3, background)
    assert_within_se(
        [sampled.q(l) for l in (1, 2, 3)],
        [exact.q(l) for l in (1, 2, 3)],
        sampled.stderr,
    )
    # The planted motif stands out: the top 3-mer is part of GATTACA near 10.
    kmer, position, _ = sampled.top(1, order=3)[0]
    assert kmer in {"GAT", "ATT", "TTA", "TAC", "ACA"}
    assert 8 <= position <= 16


def test_zero_probability_kmers_get_zero(small_svm):
    # Order-1 chain where A is never followed by C: such k-mers have Q = se = 0.
    trans = np.full((LENGTH - 1, 4, 4), 0.25)
    trans[:, 0] = [0.5, 0.0, 0.25, 0.25]
    background = MarkovBackground(np.full(4, 0.25), trans)
    sampled = sampled_poim(small_svm, 3, background, n_samples=100, random_state=0)
    reference = poim_reference(small_svm.decision_function, background, 3)
    for l in (1, 2, 3):
        impossible = kmer_probability_table(background, l) == 0
        assert impossible.any() or l == 1
        assert np.all(sampled.q(l)[impossible] == 0)
        assert np.all(sampled.stderr[l - 1][impossible] == 0)
    assert_within_se([sampled.q(l) for l in (1, 2, 3)], reference, sampled.stderr)


def test_window_independent_score_gives_exact_zeros():
    # D = 0 with common random numbers: a score not reading the window gives d = 0.
    background = random_chain(5, 0)
    sampled = sampled_poim(
        lambda X: X[:, 0].astype(float) ** 2,
        2,
        background,
        n_samples=30,
        random_state=0,
    )
    assert np.all(sampled.q(1)[1:] == 0) and np.all(sampled.q(2)[1:] == 0)
    assert np.all(sampled.stderr[0][1:] == 0)
    assert np.abs(sampled.q(1)[0]).max() > 0


# ----------------------------------------------------- conditional sampling alone


@pytest.mark.parametrize(
    ("kmer", "position"),
    [
        ("GT", 2),  # l = D
        ("ACG", 1),  # l > D
        ("TG", 0),  # no left flank
        ("CA", 4),  # no right flank
        ("C", 2),  # l < D: window extended to the right
        ("T", 5),  # l < D at the end: extended to the left
    ],
)
def test_sample_conditional_matches_enumeration(kmer, position):
    background = random_chain(7, 2, length=6, concentration=1.0)
    n = 20_000
    X = sample_conditional(background, kmer, position, n, random_state=1)
    assert X.shape == (n, 6) and X.dtype == np.uint8
    assert np.all(X[:, position : position + len(kmer)] == encode(kmer)[0])
    expected = conditional_probabilities_naive(background, kmer, position)
    observed = np.bincount(kmer_indices(X, 6)[:, 0], minlength=4**6)
    assert np.all(expected[observed > 0] > 0)  # never an impossible sequence
    # Chi-square test, cells with small expectation pooled.
    big = expected * n >= 5
    f_exp = np.append(expected[big] * n, expected[~big].sum() * n)
    f_obs = np.append(observed[big], observed[~big].sum()).astype(float)
    if f_exp[-1] == 0:
        f_exp, f_obs = f_exp[:-1], f_obs[:-1]
    assert stats.chisquare(f_obs, f_exp).pvalue > 1e-3
    # And every cell within 5 binomial standard deviations.
    tol = 5 * np.sqrt(expected * (1 - expected) / n) + 3 / n
    assert np.all(np.abs(observed / n - expected) <= tol)


def test_sample_conditional_rejects_impossible_kmer():
    trans = np.full((3, 4, 4), 0.25)
    trans[:, 0] = [0.5, 0.0, 0.25, 0.25]
    background = MarkovBackground(np.full(4, 0.25), trans)
    with pytest.raises(InputError, match="probability 0"):
        sample_conditional(background, "AC", 1, 5)


# ------------------------------------------------------------- black-box models


@pytest.fixture(scope="module")
def onehot_pipeline():
    X, y = make_gattaca(
        n_pos=150,
        n_neg=150,
        length=LENGTH,
        motif="GATT",
        mean=2,
        sd=1,
        random_state=2,
    )
    pipe = make_pipeline(
        OneHotEncoder(categories=[list(range(4))] * LENGTH),
        LogisticRegression(C=10.0, max_iter=1000),
    )
    return pipe.fit(X, y), X


class ProbaOnly:
    """A black box with only predict_proba (non-linear in the k-mer indicators)."""

    def __init__(self, model):
        self.model = model

    def predict_proba(self, X):
        return self.model.predict_proba(X)


@pytest.mark.parametrize("proba", [False, True])
def test_black_box_pipeline_matches_brute_force(onehot_pipeline, proba):
    pipe, X = onehot_pipeline
    model = ProbaOnly(pipe) if proba else pipe
    background = MarkovBackground.fit(X, order=1)
    sampled = sampled_poim(model, 3, background, n_samples=300, random_state=5)
    reference = poim_reference(as_score_function(model), background, 3)
    assert_within_se([sampled.q(l) for l in (1, 2, 3)], reference, sampled.stderr)
    if not proba:  # length from n_features_in_ for a default uniform background
        assert sampled_poim(pipe, 1, n_samples=2).length == LENGTH


# ---------------------------------------------------------------- instance MFI


@pytest.mark.parametrize("name", ["uniform", "positional order 2", "order 3"])
def test_sampled_instance_matches_brute_force(small_svm, name):
    background = BACKGROUNDS[name]()
    x = encode("GATTACA")[0]
    values, stderrs = sampled_instance(
        small_svm, x, 4, background, n_samples=400, random_state=8
    )
    reference = instance_reference(small_svm.decision_function, background, x, 4)
    assert [v.shape for v in values] == [(LENGTH - l + 1,) for l in range(1, 5)]
    assert_within_se(values, reference, stderrs)


def test_sampled_instance_accepts_strings_and_default_background(small_svm):
    a = sampled_instance(small_svm, "GATTACA", 2, n_samples=50, random_state=0)
    b = sampled_instance(small_svm, encode("GATTACA"), 2, n_samples=50, random_state=0)
    for u, v in zip(a[0] + a[1], b[0] + b[1], strict=True):
        assert_array_equal(u, v)


def test_stderr_shrinks_like_inverse_sqrt_n(small_svm):
    background = BACKGROUNDS["positional order 2"]()
    se = [
        sampled_poim(small_svm, 2, background, n_samples=n, random_state=0).stderr
        for n in (100, 1600)
    ]
    for l in (1, 2):
        ok = se[1][l - 1] > 0
        ratio = np.median(se[0][l - 1][ok] / se[1][l - 1][ok])
        assert 3.0 < ratio < 5.3  # sqrt(16) = 4
    x = encode("GATTACA")[0]
    se_instance = [
        sampled_instance(small_svm, x, 2, background, n_samples=n, random_state=0)[1]
        for n in (100, 1600)
    ]
    ratio = np.median(np.concatenate(se_instance[0]) / np.concatenate(se_instance[1]))
    assert 3.0 < ratio < 5.3


# ------------------------------------------------------------------ determinism


def test_seeded_results_are_reproducible_and_batch_size_free(small_svm):
    background = BACKGROUNDS["order 1"]()
    a = sampled_poim(small_svm, 3, background, n_samples=40, random_state=9)
    b = sampled_poim(small_svm, 3, background, n_samples=40, random_state=9)
    c = sampled_poim(
        small_svm, 3, background, n_samples=40, random_state=9, batch_size=37
    )
    d = sampled_poim(
        small_svm,
        3,
        background,
        n_samples=40,
        random_state=np.random.default_rng(9),
    )
    e = sampled_poim(small_svm, 3, background, n_samples=40, random_state=10)
    for l in (1, 2, 3):
        assert_array_equal(a.q(l), b.q(l))
        assert_array_equal(a.stderr[l - 1], b.stderr[l - 1])
        assert_allclose(a.q(l), c.q(l), rtol=1e-10, atol=1e-13)
        assert_allclose(a.stderr[l - 1], c.stderr[l - 1], rtol=1e-10, atol=1e-13)
        assert_array_equal(a.q(l), d.q(l))
    assert not np.array_equal(a.q(3), e.q(3))
    x = encode("GATTACA")[0]
    i1 = sampled_instance(small_svm, x, 3, background, n_samples=30, random_state=4)
    i2 = sampled_instance(
        small_svm, x, 3, background, n_samples=30, random_state=4, batch_size=7
    )
    for u, v in zip(i1[0] + i1[1], i2[0] + i2[1], strict=True):
        assert_allclose(u, v, rtol=1e-10, atol=1e-13)


def test_batches_and_progress_bar(small_svm, capsys):
    calls = []

    def score(X):
        calls.append(X.shape[0])
        return small_svm.decision_function(X)

    background = MarkovBackground.uniform(LENGTH)
    poim = sampled_poim(
        score,
        2,
        background,
        n_samples=10,
        batch_size=64,
        progress=True,
        random_state=0,
    )
    assert max(calls) <= 64
    assert sum(calls) == count_evaluations(LENGTH, 2, 0, 10) == 10 * (28 + 96)
    assert poim.max_order == 2
    assert "sampled POIM" in capsys.readouterr().err


def test_sampled_poim_round_trips_with_stderr(small_svm, tmp_path):
    background = BACKGROUNDS["order 1"]()
    poim = sampled_poim(small_svm, 2, background, n_samples=20, random_state=0)
    poim.save(tmp_path / "poim.npz")
    loaded = Poim.load(tmp_path / "poim.npz")
    assert loaded.metadata["method"] == "sampled"
    for l in (1, 2):
        assert_array_equal(loaded.q(l), poim.q(l))
        assert_array_equal(loaded.stderr[l - 1], poim.stderr[l - 1])


# ------------------------------------------------------------------ bad inputs


def test_as_score_function_choices_and_errors():
    X = np.array([[0, 1, 2, 3], [3, 3, 3, 3]], dtype=np.uint8)

    class Predict:
        def predict(self, X):
            return X.sum(axis=1)

    class Labels:
        def predict(self, X):
            return np.array(["pos"] * len(X))

    class Three:
        def predict_proba(self, X):
            return np.full((len(X), 3), 1 / 3)

    assert as_score_function(Predict())(X).tolist() == [6.0, 12.0]
    assert as_score_function(lambda X: X[:, :1] * 1.0)(X).tolist() == [0.0, 3.0]
    with pytest.raises(InputError, match="decision_function, predict_proba"):
        as_score_function(object())
    with pytest.raises(InputError, match="did not return numbers"):
        as_score_function(Labels())(X)
    with pytest.raises(InputError, match=r"must return shape \(2, 2\)"):
        as_score_function(Three())(X)
    with pytest.raises(InputError, match=r"returned shape \(2, 4\)"):
        as_score_function(lambda X: X * 1.0)(X)
    with pytest.raises(InputError, match="non-finite"):
        as_score_function(lambda X: np.full(len(X), np.nan))(X)


def test_bad_inputs_raise_input_error(small_svm):
    background = MarkovBackground.uniform(LENGTH)
    good = small_svm.decision_function
    with pytest.raises(InputError, match="decision_function"):
        sampled_poim(object(), 2, background)
    with pytest.raises(InputError, match="returned shape"):
        sampled_poim(lambda X: np.zeros((len(X), 2)), 1, background, n_samples=5)
    with pytest.raises(InputError, match="max_evaluations") as info:
        sampled_poim(good, 6, background, n_samples=1000, max_evaluations=1e6)
    assert "max_order" in str(info.value) and "n_samples" in str(info.value)
    for n in (1, 0, 2.5, True, "10"):
        with pytest.raises(InputError, match="n_samples"):
            sampled_poim(good, 1, background, n_samples=n)
        with pytest.raises(InputError, match="n_samples"):
            sampled_instance(good, "GATTACA", 1, background, n_samples=n)
    for k in (0, LENGTH + 1, 1.0):
        with pytest.raises(InputError, match="max_order"):
            sampled_poim(good, k, background)
    with pytest.raises(InputError, match="batch_size"):
        sampled_poim(good, 1, background, batch_size=0)
    with pytest.raises(InputError, match="random_state"):
        sampled_poim(good, 1, background, random_state="seed")
    with pytest.raises(InputError, match="background is required"):
        sampled_poim(good, 1)
    with pytest.raises(InputError, match="MarkovBackground"):
        sampled_poim(good, 1, "uniform")
    with pytest.raises(InputError, match="length"):
        sampled_poim(small_svm, 1, MarkovBackground.uniform(LENGTH + 1))
    with pytest.raises(InputError, match="length"):
        sampled_instance(good, "GATTAC", 1, background)
    with pytest.raises(InputError, match="one sequence"):
        sampled_instance(good, encode(["GATTACA", "GATTACA"]), 1, background)
    with pytest.raises(InputError, match="not one of A, C, G, T"):
        sampled_instance(good, "GATTNCA", 1, background)


# ------------------------------------------------ one central window per k-mer


@pytest.mark.parametrize("name", list(BACKGROUNDS))
def test_central_windows_match_brute_force_at_the_centre(name):
    background = BACKGROUNDS[name]()
    max_order = 3
    calls = []

    def score(X):
        calls.append(X.shape[0])
        return pooled_motif_score(X)

    sampled = sampled_poim(
        score, max_order, background, n_samples=300, random_state=3, windows="centre"
    )
    reference = poim_reference(pooled_motif_score, background, max_order)
    centre = [(LENGTH - l) // 2 for l in range(1, max_order + 1)]
    q = [sampled.q(l) for l in range(1, max_order + 1)]
    assert_within_se(
        [a[c] for a, c in zip(q, centre, strict=True)],
        [r[c] for r, c in zip(reference, centre, strict=True)],
        [se[c] for se, c in zip(sampled.stderr, centre, strict=True)],
    )
    for l, (a, se) in enumerate(zip(q, sampled.stderr, strict=True), 1):
        assert a.shape == (LENGTH - l + 1, 4**l)
        assert np.all(a == a[centre[l - 1]]) and np.all(se == se[centre[l - 1]])
    order = background.order
    assert sum(calls) == count_evaluations(LENGTH, max_order, order, 300, "centre")
    assert sampled.metadata["windows"] == "centre"


def test_central_windows_are_exact_for_letter_sums():
    """A translation-invariant sum of letter weights: d has no variance."""
    weights = np.array([0.7, -0.2, 0.4, -0.9])
    sampled = sampled_poim(
        lambda X: weights[X].sum(axis=1),
        2,
        MarkovBackground.uniform(200),
        n_samples=4,
        random_state=0,
        windows="centre",
    )
    centred = weights - weights.mean()
    assert_allclose(sampled.q(1), np.broadcast_to(centred, (200, 4)), atol=1e-9)
    pairs = (centred[:, None] + centred[None, :]).ravel()
    assert_allclose(sampled.q(2)[57], pairs, atol=1e-9)
    assert_allclose(sampled.stderr[1], 0.0, atol=1e-9)
    assert count_evaluations(200, 2, 0, 4, "centre") == 4 * (4 + 16)
    with pytest.raises(InputError, match="windows must be"):
        sampled_poim(lambda X: X[:, 0], 1, MarkovBackground.uniform(5), windows="mid")
