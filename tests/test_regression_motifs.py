"""Motifs of regressors: planted effects on a continuous target, rank-test evidence."""

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

from poimkit import GkmSVR, WDKernelSVR, compute_poim, encode, extract_motifs
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.motifs.evidence import shift_test
from poimkit.motifs.formats import read_motifs, write_meme

#: planted motifs: (consensus, 0-based start for the positional model, effect)
MOTIFS = [("TGACTCAT", 6, 1.0), ("GCATTAGC", 24, -1.0)]


def planted(n, length, seed, anywhere=False, noise=0.3):
    """Records holding each motif with probability 0.4; target = sum of effects."""
    rng = np.random.default_rng(seed)
    seqs, y = [], []
    for _ in range(n):
        s = list(rng.choice(list("ACGT"), length))
        value = 0.0
        for motif, start, effect in MOTIFS:
            if rng.random() < 0.4:
                at = int(rng.integers(0, length - len(motif))) if anywhere else start
                s[at : at + len(motif)] = motif
                value += effect
        seqs.append("".join(s))
        y.append(value + rng.normal(scale=noise))
    return encode(seqs), np.array(y)


def motifs_of(model, X, y, order):
    poim = compute_poim(model.fit(X, y), order, MarkovBackground.uniform(X.shape[1]))
    return poim, extract_motifs(poim, 5, sequences=X, targets=y)


@pytest.fixture(scope="module", params=["wd", "gkm"])
def found(request):
    anywhere = request.param == "gkm"
    X, y = planted(300, 50 if anywhere else 40, 0, anywhere)
    model = GkmSVR() if anywhere else WDKernelSVR(degree=8)
    return request.param, *motifs_of(model, X, y, 5 if anywhere else 6)


def test_planted_motifs_are_found_with_the_sign_of_their_effect(found):
    kind, _, motifs = found
    assert len(motifs) == 2
    for consensus, start, effect in MOTIFS:
        (m,) = [
            m for m in motifs if consensus in m.consensus or m.consensus in consensus
        ]
        assert np.sign(m.effect) == np.sign(effect)
        assert np.sign(m.median_shift) == np.sign(effect)
        assert np.sign(m.importance) == np.sign(effect)
        assert abs(m.median_shift - effect) < 0.5  # target units
        assert m.q_value <= 0.05 and abs(m.effect) >= 0.2
        if kind == "wd":
            assert abs(m.position - (start + 1)) <= 2
        else:
            assert np.isnan(m.position)
        # above-median sequences hold a raising motif more often, and vice versa
        more, less = (m.frac_positive, m.frac_negative)
        assert (more > less) == (effect > 0)


def test_effect_fields_survive_a_meme_file(found, tmp_path):
    _, _, motifs = found
    write_meme(tmp_path / "m.meme", motifs)
    back = read_motifs(tmp_path / "m.meme")
    for a, b in zip(motifs, back, strict=True):
        assert b.effect == pytest.approx(a.effect)
        assert b.median_shift == pytest.approx(a.median_shift)


def test_classification_meme_lines_have_no_effect_fields(tmp_path):
    from poimkit import Motif

    write_meme(tmp_path / "m.meme", [Motif(np.full((4, 4), 0.25), 1.0, 0.0)])
    assert "effect" not in (tmp_path / "m.meme").read_text()


@pytest.mark.parametrize("seed", [1, 2])
def test_noise_targets_give_no_motifs(seed):
    X, _ = planted(300, 40, seed)
    y = np.random.default_rng(seed).normal(size=len(X))
    _, motifs = motifs_of(WDKernelSVR(degree=8), X, y, 6)
    assert motifs == []


@pytest.mark.parametrize("seed", range(6))
def test_shift_test_is_scipys_mann_whitney_with_rank_biserial(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 30))
    t = rng.normal(size=n).round(1)  # ties too
    has = rng.random(n) < 0.4
    has[:2] = [True, False]
    result = shift_test(t, has)
    u, p = mannwhitneyu(t[has], t[~has], alternative="two-sided")
    assert result.p_value == pytest.approx(p)
    # rank-biserial by brute force: P(with > without) - P(with < without)
    d = t[has][:, None] - t[~has][None, :]
    assert result.effect == pytest.approx((d > 0).mean() - (d < 0).mean())
    assert result.median_shift == pytest.approx(np.median(t[has]) - np.median(t[~has]))


def test_labels_and_targets_are_exclusive(found):
    _, poim, _ = found
    X = np.zeros((10, poim.length), dtype=np.uint8)
    with pytest.raises(InputError, match="not both"):
        extract_motifs(poim, sequences=X, labels=np.ones(10), targets=np.ones(10))
    with pytest.raises(InputError, match="finite"):
        extract_motifs(poim, sequences=X, targets=np.full(10, np.nan))
