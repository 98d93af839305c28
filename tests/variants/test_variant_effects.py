"""Exact variant effects: equal to decision_function differences for every model."""

from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poimkit import GkmSVC, InputError, WDKernelSVC, WDLinearSVC, variant_effects
from poimkit.alphabet import reverse_complement
from poimkit.datasets import make_gattaca
from poimkit.genome.reference import text_codes
from poimkit.kernels.explicit import KmerWeights
from poimkit.variants.windows import HAS_N, PAST_END, TOO_LONG, genome_windows

LENGTH = 24


@cache
def _data():
    return make_gattaca(n_pos=30, n_neg=30, length=LENGTH, random_state=0)


@cache
def _model(kind: str):
    X, y = _data()
    if kind == "wd":
        return WDKernelSVC(degree=5).fit(X, y)
    if kind == "wds":
        return WDKernelSVC(degree=4, shift=2).fit(X, y)
    if kind == "wd_rc":
        return WDKernelSVC(degree=4, reverse_complement=True).fit(X, y)
    if kind == "linear":
        return WDLinearSVC(degree=4).fit(X, y)
    if kind == "gkm":
        return GkmSVC(l=6, k=4).fit(X, y)
    if kind == "gkm_fwd":
        return GkmSVC(l=5, k=3, reverse_complement=False).fit(X, y)
    raise AssertionError(kind)


POSITIONAL = ["wd", "wds", "wd_rc", "linear"]
FREE = ["gkm", "gkm_fwd"]


def _mutate(rng, x, kind):
    """An SNV, a deletion or an insertion of x (ragged)."""
    p = int(rng.integers(0, x.size))
    if kind == 0:
        y = x.copy()
        y[p] = (y[p] + rng.integers(1, 4)) % 4
        return y
    n = int(rng.integers(1, 4))
    if kind == 1:
        return np.delete(x, np.arange(p, min(p + n, x.size)))
    return np.insert(x, p, rng.integers(0, 4, n).astype(np.uint8))


def _fixed_length(y, length, rng):
    """Cut or extend y to length (the genome windows keep L for indels)."""
    if y.size >= length:
        return y[:length]
    return np.concatenate([y, rng.integers(0, 4, length - y.size).astype(np.uint8)])


def _check(model, refs, alts, fx):
    d = model.decision_function(alts) - model.decision_function(refs)
    scale = 1.0 + np.abs(model.decision_function(refs))
    assert np.all(np.abs(fx.effect - d) <= 1e-9 * scale)
    assert np.allclose(fx.ref_score, model.decision_function(refs), atol=1e-9)
    assert np.allclose(fx.alt_score, model.decision_function(alts), atol=1e-9)
    for i in range(len(refs)):
        changes = fx.changes(i)
        assert abs(sum(c.change for c in changes) - fx.effect[i]) <= 1e-12 * (
            1 + sum(abs(c.change) for c in changes)
        )
        top = fx.top_changes(i)
        mags = [abs(c.change) for c in top]
        assert mags == sorted(mags, reverse=True)
        assert all(c in changes for c in top)
        if changes:
            assert mags[0] == max(abs(c.change) for c in changes)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(POSITIONAL),
    seed=st.integers(0, 2**32 - 1),
    mutation=st.sampled_from([0, 1, 2]),
)
def test_positional_effects_are_decision_differences(kind, seed, mutation):
    model = _model(kind)
    X, _ = _data()
    rng = np.random.default_rng(seed)
    refs = X[rng.integers(0, len(X), 6)]
    alts = np.stack(
        [_fixed_length(_mutate(rng, x, mutation), LENGTH, rng) for x in refs]
    )
    fx = variant_effects(model, refs, alts, top=4)
    _check(model, refs, alts, fx)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(FREE),
    seed=st.integers(0, 2**32 - 1),
    mutation=st.sampled_from([0, 1, 2]),
    keep_length=st.booleans(),
)
def test_position_free_effects_are_decision_differences(
    kind, seed, mutation, keep_length
):
    model = _model(kind)
    X, _ = _data()
    rng = np.random.default_rng(seed)
    refs = [X[i][: int(rng.integers(12, LENGTH + 1))] for i in rng.integers(0, 60, 6)]
    alts = [_mutate(rng, x, mutation) for x in refs]
    if keep_length:
        alts = [_fixed_length(a, r.size, rng) for a, r in zip(alts, refs, strict=True)]
    fx = variant_effects(model, refs, alts, top=3)
    _check(model, refs, alts, fx)


@pytest.mark.parametrize("kind", FREE)
def test_position_free_snv_changes_only_covering_windows(kind):
    model = _model(kind)
    X, _ = _data()
    ref = X[:5]
    alt = ref.copy()
    alt[:, 10] = (alt[:, 10] + 1) % 4
    fx = variant_effects(model, ref, alt, top=50)
    for i in range(5):
        positions = {c.position for c in fx.changes(i)}
        assert positions <= set(range(-model.l + 1, 1))  # windows covering the SNV


def test_strand_symmetric_models_score_both_strands_alike():
    for kind in ("gkm", "wd_rc"):
        model = _model(kind)
        X, _ = _data()
        ref = X[:6]
        alt = ref.copy()
        alt[:, 7] = (alt[:, 7] + 2) % 4
        fx = variant_effects(model, ref, alt)
        if kind == "gkm":  # position-free: a strand flip scores the same
            fx_rc = variant_effects(
                model, reverse_complement(ref), reverse_complement(alt)
            )
            assert np.allclose(fx.effect, fx_rc.effect, atol=1e-12)
        # the rc strand is in the weights: equal to the kernel model's scores
        d = model.decision_function(alt) - model.decision_function(ref)
        assert np.allclose(fx.effect, d, atol=1e-10)


def test_explicit_weights_example_and_positions():
    w = KmerWeights.from_tables(
        [np.zeros((5, 4)), np.tile(np.arange(16.0), (4, 1))], bias=0.5
    )
    fx = variant_effects(w, ["AAAAA"], ["AACAA"], at=[2])
    # the 2-mers AA -> AC at start 1 (0 -> 1) and AA -> CA at start 2 (0 -> 4)
    changes = [(c.ref, c.alt, c.position, c.change) for c in fx.changes(0)]
    assert changes == [("AA", "AC", -1, 1.0), ("AA", "CA", 0, 4.0)]
    assert fx.effect.tolist() == [5.0]
    assert fx.top_strings() == ["AA>CA@0:4;AA>AC@-1:1"]


def test_bad_input():
    model = _model("wd")
    X, _ = _data()
    with pytest.raises(InputError, match="length"):
        variant_effects(model, X[:2], [x[:10] for x in X[:2]])
    with pytest.raises(InputError, match="one pair per variant"):
        variant_effects(model, X[:2], X[:3])
    with pytest.raises(InputError, match="top"):
        variant_effects(model, X[:2], X[:2], top=-1)
    with pytest.raises(InputError, match="shorter"):
        variant_effects(_model("gkm"), ["ACGTAC"], ["ACG"])


def test_genome_windows_snv_indel_edges_and_n():
    genome = text_codes("ACGTACGTACGTNACGTACGTACGT")
    L = 6
    pos = np.array([5, 5, 5, 1, 23, 10, 17, 6])
    refs = ["C", "CG", "C", "C", "G", "T", "A", "GTACG"]
    alts = ["T", "C", "CAA", "A", "T", "A", "T", "G"]
    w, skipped = genome_windows(genome, pos, refs, alts, np.arange(8), L)
    assert skipped == {PAST_END: 2, HAS_N: 1, TOO_LONG: 1}
    assert w.rows.tolist() == [0, 1, 2, 6]
    text = ["".join("ACGT"[c] for c in row) for row in w.A]
    assert "".join("ACGT"[c] for c in w.R[0]) == "GTACGT"
    assert text[:3] == ["GTATGT", "GTACTA", "GTACAA"]  # SNV, deletion, insertion
    assert w.lo.tolist()[:3] == [3, 4, 4]
    assert w.rhi.tolist()[:3] == [4, 5, 4] and w.ahi.tolist()[:3] == [4, 4, 6]


def test_genome_window_effects_match_the_model():
    """Windows from a genome: the gkm effect equals the difference of scores."""
    model = _model("gkm")
    rng = np.random.default_rng(3)
    genome = rng.integers(0, 4, 400).astype(np.uint8)
    pos = np.sort(rng.choice(np.arange(30, 370), 30, replace=False))
    refs, alts = [], []
    for i, p in enumerate(pos):
        ref = "ACGT"[genome[p]]
        kind = i % 3
        if kind == 0:
            alt = "ACGT"[(genome[p] + 1) % 4]
        elif kind == 1:
            ref = "".join("ACGT"[c] for c in genome[p : p + 3])
            alt = ref[0]
        else:
            alt = ref + "GA"
        refs.append(ref)
        alts.append(alt)
    w, skipped = genome_windows(genome, pos, refs, alts, np.arange(30), model.length_)
    assert not skipped
    from poimkit.variants.effects import effect_engine

    engine = effect_engine(model)
    fx = engine.run(w.R, w.A, w.anchor, 3, True, spans=(w.lo, w.rhi, w.ahi))
    d = model.decision_function(w.A) - model.decision_function(w.R)
    assert np.allclose(fx.effect, d, atol=1e-10)
    for i in range(30):
        assert np.isclose(sum(c.change for c in fx._entries.changes(i)), fx.effect[i])
