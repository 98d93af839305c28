"""Counted words: their counts, their test, and a planted word found and modelled."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy.stats import linregress

from poimkit import Motif, WDKernelSVR, compute_poim, encode, extract_motifs
from poimkit.background import MarkovBackground
from poimkit.motifs.features import COUNT_SHARE, motif_features, motif_log_odds
from poimkit.motifs.model import MotifRegressor, load_motif_model
from poimkit.motifs.scan import Sites
from poimkit.motifs.words import _tests, word_counts

from ..naive import word_count_naive


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    k=st.integers(1, 5),
    both=st.booleans(),
    pad=st.integers(0, 4),
)
def test_word_counts_match_a_brute_force_count(seed, k, both, pad):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(9, 12)).astype(np.uint8)
    X[:, X.shape[1] - pad :] = 4  # padding never matches
    word = "".join(rng.choice(list("ACGT"), k))
    text = ["".join("ACGT"[c] for c in row if c < 4) for row in X]
    want = [word_count_naive(x, word, both) for x in text]
    assert word_counts(X, word, both).tolist() == want


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), width=st.integers(2, 5), both=st.booleans())
def test_a_counted_motifs_feature_is_its_number_of_sites(seed, width, both):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(8, 20)).astype(np.uint8)
    strands = np.array([1, -1] if both else [1], dtype=np.int8)
    sites = Sites(np.zeros(strands.size, np.int64), np.zeros(strands.size, np.int64),
                  np.zeros(strands.size), strands)  # fmt: skip
    pwm = rng.dirichlet(np.ones(4) * 0.3, size=width)
    motif = Motif(pwm, np.nan, np.nan, n_sites=50, sites=sites, counted=True)
    background = np.full(4, 0.25)
    lods = motif_log_odds(motif, background)
    least = COUNT_SHARE * lods.max(axis=1).sum()
    tables = [lods, lods[::-1, ::-1]] if both else [lods]
    want = [
        sum(
            table[np.arange(width), x[a : a + width]].sum() >= least
            for table in tables
            for a in range(x.size - width + 1)
        )
        for x in X
    ]
    assert motif_features(X, [motif], background)[:, 0].tolist() == want


@pytest.mark.parametrize("seed", range(4))
def test_one_words_test_is_the_slope_test_of_its_count(seed):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(1.0, size=200)
    t = 0.1 * seed * counts + rng.normal(size=200)
    ((p, effect),) = _tests(t, np.zeros((200, 0), bool), counts[None, :])
    fit = linregress(counts, t)
    assert p == pytest.approx(fit.pvalue, rel=1e-9)
    assert effect == pytest.approx(fit.rvalue, rel=1e-9)


def _planted(n=800, length=60, seed=0, word="AATA"):
    """A positional site adding 1.0 and a word adding 0.5 per occurrence."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("ACGT"))
    seqs, y = [], []
    for _ in range(n):
        s = "".join(letters[rng.integers(0, 4, length)])
        value = 0.0
        if rng.random() < 0.4:
            s = s[:20] + "TGACTCA" + s[27:]
            value += 1.0
        value += 0.5 * word_count_naive(s, word, True)
        seqs.append(s)
        y.append(value + rng.normal(scale=0.3))
    return encode(seqs), np.array(y)


@pytest.fixture(scope="module")
def counted():
    X, y = _planted()
    model = WDKernelSVR(degree=6, shift=4).fit(X, y)
    poim = compute_poim(model, 6, MarkovBackground.uniform(X.shape[1]))
    return X, y, extract_motifs(poim, 5, sequences=X, targets=y)


def test_a_planted_word_is_found_as_a_counted_motif(counted):
    X, y, motifs = counted
    words = [m for m in motifs if m.counted]
    assert [m.consensus in ("AATA", "TATT") for m in words] == [True]
    (word,) = words
    assert np.isnan(word.position) and word.sites.on_both_strands
    assert word.effect > 0.2 and word.q_value <= 0.05
    assert word.n_sites == int((word_counts(X, "AATA", True) > 0).sum())
    # the site motif is still there, and is not counted
    assert any("TGACTCA" in m.consensus and not m.counted for m in motifs)


def test_the_motif_model_counts_the_word_and_round_trips(counted, tmp_path):
    X, y, motifs = counted
    with_word = MotifRegressor(motifs, cv=3).fit(X, y)
    without = MotifRegressor([m for m in motifs if not m.counted], cv=3).fit(X, y)
    assert with_word.inner_score_ > without.inner_score_ + 0.05  # R², inner CV
    column = [m.counted for m in with_word.motifs_].index(True)
    assert_allclose(
        with_word.transform(X)[:, column], word_counts(X, "AATA", True)
    )  # an exact word: its sites are its occurrences
    with_word.save(tmp_path / "m.npz")
    loaded = load_motif_model(tmp_path / "m.npz")
    assert [m.counted for m in loaded.motifs_] == [m.counted for m in with_word.motifs_]
    assert_allclose(loaded.predict(X), with_word.predict(X))


def test_shuffled_targets_give_no_counted_word(counted):
    X, y, _ = counted
    rng = np.random.default_rng(5)
    shuffled = rng.permutation(y)
    model = WDKernelSVR(degree=6, shift=4).fit(X, shuffled)
    poim = compute_poim(model, 6, MarkovBackground.uniform(X.shape[1]))
    motifs = extract_motifs(poim, 5, sequences=X, targets=shuffled)
    assert not [m for m in motifs if m.counted]


def test_the_summary_and_report_mark_a_counted_word(counted, tmp_path):
    from types import SimpleNamespace

    from poimkit.run.report.page import motif_columns
    from poimkit.run.summary import motif_rows

    _, _, motifs = counted
    rows = motif_rows(motifs)
    for row in rows:  # the table embeds each motif's logo
        (tmp_path / f"logo_{row['name']}.png").write_bytes(b"")
    assert [r.get("counted", False) for r in rows] == [m.counted for m in motifs]
    summary = SimpleNamespace(motifs=rows, position_free=False)  # what it reads
    header, cells = motif_columns(summary, tmp_path, {})
    where = header.index("position")
    marked = [row[where] == "counted anywhere" for row in cells]
    assert marked == [m.counted for m in motifs]
