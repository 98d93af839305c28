"""GkmSVC: the gapped k-mer kernel, its exact weights and its exact POIMs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.metrics import roc_auc_score

import poimkit.svm.gkm as gkm_module
from poimkit import GkmSVC, extract_motifs, gkm_kernel, load_model
from poimkit.alphabet import decode, kmer_index, kmer_string, reverse_complement
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.poim import compute_poim
from poimkit.poim.position_free import _state_matrix, stationary_background
from poimkit.poim.reference import poim_reference

from ..factories import random_chain
from ..naive import gkm_kernel_naive


def random_sequences(rng, n, low, high):
    return [
        rng.integers(0, 4, rng.integers(low, high + 1)).astype(np.uint8)
        for _ in range(n)
    ]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    l=st.integers(1, 6),
    data=st.data(),
    rc=st.booleans(),
)
def test_kernel_matches_definition(seed, l, data, rc):
    k = data.draw(st.integers(1, l))
    rng = np.random.default_rng(seed)
    seqs = random_sequences(rng, 4, l, l + 6)
    K = gkm_kernel(seqs, l=l, k=k, reverse_complement=rc)
    expected = np.array(
        [[gkm_kernel_naive(a, b, l, k, rc) for b in seqs] for a in seqs]
    )
    assert_allclose(K, expected, rtol=0, atol=1e-9)


def test_kernel_is_positive_semidefinite():
    seqs = random_sequences(np.random.default_rng(0), 30, 10, 40)
    K = gkm_kernel(seqs, l=6, k=3)
    assert_allclose(K, K.T)
    assert np.linalg.eigvalsh(K).min() > -1e-8 * np.abs(K).max()


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(5)
    seqs = random_sequences(rng, 60, 8, 30)
    y = np.arange(60) % 2
    return (
        seqs,
        y,
        {
            rc: GkmSVC(l=4, k=2, reverse_complement=rc).fit(seqs, y)
            for rc in (False, True)
        },
    )


@pytest.mark.parametrize("rc", [False, True])
@pytest.mark.parametrize("by_lmer", [True, False])
def test_scores_equal_kernel_expansion(fitted, rc, by_lmer, monkeypatch):
    """Explicit weights score exactly like the normalised kernel expansion."""
    _, _, models = fitted
    model = models[rc]
    if not by_lmer:
        monkeypatch.setattr(gkm_module, "MAX_LMER_TABLE", 0)
    new = random_sequences(np.random.default_rng(9), 12, 4, 50)
    support = model.support_sequences()
    K = gkm_kernel(support + new, l=4, k=2, reverse_complement=rc)
    n_windows = np.array([x.size - 3 for x in support + new], dtype=float)
    scale = np.sqrt(model.kernel_scale_ * n_windows)
    Kn = K / np.outer(scale, scale)
    expected = Kn[len(support) :, : len(support)] @ model.dual_coef_ + model.intercept_
    assert_allclose(model.decision_function(new), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("rc", [False, True])
def test_lmer_weights_score_one_length(fitted, rc):
    _, _, models = fitted
    model = models[rc]
    X = np.random.default_rng(2).integers(0, 4, (20, 9)).astype(np.uint8)
    f = model.lmer_weights(9)
    windows = [[kmer_index(x[i : i + 4]) for i in range(6)] for x in X]
    assert_allclose(
        f[np.array(windows)].sum(axis=1) + model.intercept_,
        model.decision_function(X),
        rtol=1e-10,
        atol=1e-12,
    )
    if rc:  # a word and its reverse complement share a weight
        u = kmer_index("AACG")
        assert f[u] == pytest.approx(f[kmer_index("CGTT")])


def gkm_backgrounds(length):
    rng = np.random.default_rng(3)
    return {
        "uniform": MarkovBackground.uniform(length),
        "order0": MarkovBackground.from_letter_probabilities(
            [0.3, 0.2, 0.15, 0.35], length
        ),
        "order1": random_chain(rng, 1, length, positional=False),
        "order2": random_chain(rng, 2, length, positional=False),
        "order3": random_chain(rng, 3, length, positional=False),
    }


@pytest.mark.parametrize("rc", [False, True])
@pytest.mark.parametrize("name", ["uniform", "order0", "order1", "order2", "order3"])
@pytest.mark.parametrize("length, max_order", [(7, 5), (6, 2)])
def test_poim_is_exact(fitted, rc, name, length, max_order):
    """Position-free POIMs against enumeration of all 4**L sequences."""
    _, _, models = fitted
    model = models[rc]
    background = stationary_background(gkm_backgrounds(length)[name])
    poim = compute_poim(model, max_order, background)
    expected = poim_reference(model.decision_function, background, max_order)
    for l in range(1, max_order + 1):
        assert_allclose(poim.q(l), expected[l - 1], rtol=1e-9, atol=1e-12)
    assert poim.metadata["model"] == "position-free"
    assert_allclose(poim.anywhere(2), poim.q(2).mean(axis=0))


def test_stationary_background_is_stationary():
    chain = random_chain(np.random.default_rng(8), 2, 10, positional=False)
    pi = stationary_background(chain).initial
    assert_allclose(pi @ _state_matrix(chain.transitions[0], 2), pi, atol=1e-12)
    with pytest.raises(InputError, match="homogeneous"):
        stationary_background(random_chain(np.random.default_rng(8), 1, 10, True))


def planted(rng, n, length, motif, both_strands=True):
    """Random sequences, half of them with the motif anywhere, on either strand."""
    X = rng.integers(0, 4, (n, length)).astype(np.uint8)
    y = np.arange(n) % 2
    site = np.array(
        [kmer_index(motif) >> 2 * (len(motif) - 1 - i) & 3 for i in range(len(motif))],
        np.uint8,
    )
    for i in np.flatnonzero(y):
        word = (
            reverse_complement(site[None])[0]
            if both_strands and rng.random() < 0.5
            else site
        )
        start = rng.integers(0, length - len(motif) + 1)
        X[i, start : start + len(motif)] = word
    return X, y


def test_planted_motif_anywhere_either_strand():
    """A motif at any position on either strand: learnt, and on top of the POIM."""
    rng = np.random.default_rng(0)
    X, y = planted(rng, 300, 60, "TGACTCAG")
    Xt, yt = planted(rng, 200, 60, "TGACTCAG")
    model = GkmSVC(l=8, k=5).fit(X, y)
    assert roc_auc_score(yt, model.decision_function(Xt)) > 0.95
    best = kmer_string(int(np.argmax(compute_poim(model, 6).anywhere(6))), 6)
    assert best in "TGACTCAG" or best in "CTGAGTCA"


def test_any_lengths_and_errors(fitted):
    seqs, y, models = fitted
    model = models[True]
    assert model.length_ == int(np.median([x.size for x in seqs]))
    assert model.decision_function(["ACGTACGT", "ACG" * 20]).shape == (2,)
    with pytest.raises(InputError, match=r"X\[1\] has length 3, shorter than"):
        model.decision_function(["ACGTACGT", "ACG"])
    with pytest.raises(InputError, match="k must be"):
        GkmSVC(l=3, k=4).fit(seqs, y)
    with pytest.raises(InputError, match="homogeneous"):
        compute_poim(
            model,
            2,
            MarkovBackground.fit(np.stack([s[:8] for s in seqs]), 1, positional=True),
        )


def test_save_load_round_trip(fitted, tmp_path):
    seqs, _, models = fitted
    path = tmp_path / "gkm.npz"
    models[True].save(path)
    again = load_model(path)
    assert isinstance(again, GkmSVC)
    assert again.get_params() == models[True].get_params()
    assert_allclose(again.decision_function(seqs), models[True].decision_function(seqs))


def test_clone_and_params():
    model = GkmSVC(l=9, k=5, C=3.0)
    assert clone(model).get_params() == model.get_params()


def test_motifs_of_a_position_free_model_have_no_position():
    """Sites anywhere, on either strand, in records of different lengths."""
    rng = np.random.default_rng(4)
    X, y = planted(rng, 400, 80, "TGACTCAG")
    seqs = [x[rng.integers(0, 6) :] for x in X]  # lengths 75..80
    seqs = [x if i % 7 else x[:40] for i, x in enumerate(seqs)]  # a few short
    model = GkmSVC(l=8, k=5).fit(seqs, y)
    poim = compute_poim(model, 6, MarkovBackground.uniform(60))
    motifs = extract_motifs(poim, 2, sequences=seqs, labels=y)
    assert motifs and np.isnan(motifs[0].position) and np.isnan(motifs[0].spread)
    assert "GACTCA" in motifs[0].consensus or "TGAGTC" in motifs[0].consensus
    assert motifs[0].frac_positive > 0.5 > 5 * motifs[0].frac_negative
    assert motifs[0].sites.on_both_strands


def test_in_scikit_learn_cross_validation():
    """Lists of DNA strings of any lengths go through scikit-learn's CV."""
    from sklearn.model_selection import cross_val_score

    X, y = planted(np.random.default_rng(6), 120, 40, "TGACTCAG")
    seqs = [decode(x[None, : 30 + i % 11])[0] for i, x in enumerate(X)]
    aucs = cross_val_score(GkmSVC(l=6, k=4), seqs, y, cv=3, scoring="roc_auc")
    assert aucs.min() > 0.8


def test_poim_memory_limit(fitted):
    _, _, models = fitted
    with pytest.raises(InputError, match="GiB, over the limit"):
        compute_poim(models[True], 5, MarkovBackground.uniform(40), memory_limit=1e5)


def test_explain_instance_of_a_position_free_model(fitted):
    from poimkit.poim import explain_instance

    _, _, models = fitted
    background = stationary_background(gkm_backgrounds(7)["order1"])
    x = np.array([0, 1, 2, 3, 3, 2, 1], dtype=np.uint8)
    got = explain_instance(models[True], x, 3, background)
    poim = compute_poim(models[True], 3, background)
    assert_allclose(
        got[2], poim.q(3)[np.arange(5), [kmer_index(x[j : j + 3]) for j in range(5)]]
    )


@pytest.mark.parametrize("n", [1, 2, 16, 1 << 17])
def test_walsh_hadamard(n):
    """Against scipy's Hadamard matrix; H H = n I beyond the in-cache blocks."""
    from scipy.linalg import hadamard

    from poimkit.kernels._gkm import WHT_BLOCK, walsh_hadamard

    a = np.random.default_rng(n).normal(size=n)
    b = a.copy()
    walsh_hadamard(b)
    if n <= 16:
        assert_allclose(b, hadamard(n) @ a, atol=1e-12)
    else:
        assert n > WHT_BLOCK
        # the first outputs see only the low bits of the index
        assert_allclose(b[:16], hadamard(16) @ a.reshape(-1, 16).sum(axis=0))
        walsh_hadamard(b)
        assert_allclose(b / n, a, atol=1e-12)
