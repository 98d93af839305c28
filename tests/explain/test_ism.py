"""In-silico mutagenesis (poimkit.explain.ism) against exact per-letter weights."""

import numpy as np
import pytest

from poimkit import WDKernelSVC, letter_attributions
from poimkit.datasets import make_gattaca, random_dna
from poimkit.explain.ism import count_ism_evaluations, ism_attributions, mutants


class LetterWeights:
    """A score that is a sum of per-letter weights w[b, i] (plus a constant)."""

    def __init__(self, w):
        self.w = w
        self.calls = 0

    def decision_function(self, X):
        self.calls += 1
        rows = [np.asarray(x) for x in X]
        return np.array([1.5 + self.w[x, np.arange(x.size)].sum() for x in rows])


def test_mutants_change_one_letter_each():
    x = random_dna(1, 9, random_state=0)[0]
    M = mutants(x)
    assert M.shape == (28, 9) and np.array_equal(M[0], x)
    changed = M[1:] != x
    assert np.all(changed.sum(axis=1) == 1)
    assert len({tuple(r) for r in M}) == 28  # every variant once


def test_ism_of_a_letter_additive_model_is_its_centred_weights():
    rng = np.random.default_rng(1)
    w = rng.normal(size=(4, 30))
    model = LetterWeights(w)
    seqs = [random_dna(1, n, random_state=s)[0] for s, n in enumerate((30, 12, 21))]
    found = ism_attributions(model, seqs)
    centred = w - w.mean(axis=0)
    for r, s in enumerate(seqs):
        n = s.size
        assert np.allclose(found.hypothetical[r, :, :n], centred[:, :n], atol=1e-12)
        assert np.all(found.hypothetical[r, :, n:] == 0)
        assert np.array_equal(found.ohe[r].argmax(axis=0)[:n], s)
    assert model.calls == 1  # one call for the three records
    assert count_ism_evaluations([30, 12, 21]) == 3 + 3 * 63


def test_ism_of_a_degree_one_wd_svm_is_its_exact_attributions_centred():
    X, y = make_gattaca(n_pos=40, n_neg=40, length=16, mean=5, sd=1, random_state=2)
    model = WDKernelSVC(degree=1).fit(X, y)
    exact = letter_attributions(model, X[:5]).hypothetical
    found = ism_attributions(model, X[:5]).hypothetical
    assert np.allclose(found, exact - exact.mean(axis=1, keepdims=True), atol=1e-9)


def test_ism_of_any_model_is_its_scored_differences():
    X, y = make_gattaca(n_pos=40, n_neg=40, length=14, mean=4, sd=1, random_state=3)
    model = WDKernelSVC(degree=4).fit(X, y)
    x = X[0]
    found = ism_attributions(model, X[:1]).hypothetical[0]
    base = model.decision_function(x[None])[0]
    delta = np.zeros((4, x.size))
    for i in range(x.size):
        for b in range(4):
            m = x.copy()
            m[i] = b
            delta[b, i] = model.decision_function(m[None])[0] - base
    assert np.allclose(found, delta - delta.mean(axis=0), atol=1e-9)


def test_ism_needs_records():
    with pytest.raises(Exception, match="no records"):
        ism_attributions(LetterWeights(np.zeros((4, 3))), [])
