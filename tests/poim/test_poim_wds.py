"""WDS POIMs by shift convolution (poimkit.poim.shifted) against the expansion.

The fast path must give the POIM of the expanded WDS weights (the old path,
`KmerWeights.from_support_vectors(..., shift=S)`) up to rounding, and the
brute-force POIM of the model for small L. Homogeneous chains that are not
started in equilibrium take the burn-in split (poimkit.poim.burn_in), which
must give the same numbers; position-specific chains go through the expanded
weights.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit import WDKernelSVC
from poimkit.background import MarkovBackground, kmer_probability_table
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.kernels.explicit import KmerWeights
from poimkit.poim import compute_poim, explain_instance
from poimkit.poim import shifted as shifted_module
from poimkit.poim.burn_in import (
    accumulate_burn_in,
    burn_in,
    difference_pass,
    estimate_burn_in_bytes,
)
from poimkit.poim.engine import (
    ShiftPlan,
    burn_in_pays,
    exact_poim,
    plan_shifts,
    weights_extent,
)
from poimkit.poim.exact import accumulate, finish_windows, lower_orders
from poimkit.poim.reference import poim_reference
from poimkit.poim.shifted import expand_shifts, shift_invariant

from ..factories import random_chain, stationary_chain


def assert_same_poims(got, expected):
    assert len(got) == len(expected)
    scale = max(np.abs(q).max() for q in expected) or 1.0
    for q_got, q_exp in zip(got, expected, strict=True):
        assert q_got.shape == q_exp.shape
        assert_allclose(q_got, q_exp, rtol=1e-9, atol=1e-12 * scale)


def weights_pair(seed, length, n_sv, degree, shift, rc):
    """(unshifted C, expanded WDS weights) of random support vectors."""
    rng = np.random.default_rng(seed)
    sv = rng.integers(0, 4, size=(n_sv, length)).astype(np.uint8)
    coef = rng.normal(size=n_sv)
    args = (sv, coef, 0.3)
    base = KmerWeights.from_support_vectors(*args, degree=degree, reverse_complement=rc)
    full = KmerWeights.from_support_vectors(
        *args, degree=degree, shift=shift, reverse_complement=rc
    )
    return base, full


def make_background(kind, rng, length, X=None):
    if kind == "uniform":
        return MarkovBackground.uniform(length)
    if kind == "order0":
        return random_chain(rng, 0, length, positional=False)
    if kind.startswith("stationary"):
        return stationary_chain(rng, int(kind[-1]), length)
    if kind == "order0_positional":
        return random_chain(rng, 0, length, positional=True)
    if kind == "order1":  # homogeneous, not stationary: the expanded path
        return random_chain(rng, 1, length, positional=False)
    if kind == "order2":
        return random_chain(rng, 2, length, positional=False)
    if kind == "order1_positional":
        return random_chain(rng, 1, length, positional=True)
    if kind == "order2_positional":
        return random_chain(rng, 2, length, positional=True)
    raise ValueError(kind)


INVARIANT = ["uniform", "order0", "stationary1", "stationary2", "stationary3"]
OTHER = [
    "order0_positional",
    "order1",
    "order2",
    "order1_positional",
    "order2_positional",
]


@pytest.mark.parametrize("kind", INVARIANT + OTHER)
def test_shift_invariant(kind):
    bg = make_background(kind, np.random.default_rng(0), 9)
    assert shift_invariant(bg) == (kind in INVARIANT)


@given(
    seed=st.integers(0, 2**31),
    length=st.integers(1, 9),
    shift=st.integers(1, 11),
    degree=st.integers(1, 9),
    rc=st.booleans(),
)
@settings(max_examples=40, deadline=None)
def test_expand_shifts_is_the_wds_expansion(seed, length, shift, degree, rc):
    base, full = weights_pair(seed, length, 4, degree, shift, rc)
    got = expand_shifts(base, shift)
    assert got.max_order == full.max_order
    for k in range(1, full.max_order + 1):
        g_ptr, g_kmer, g_val = got.order(k)
        f_ptr, f_kmer, f_val = full.order(k)
        assert np.array_equal(g_ptr, f_ptr)
        assert np.array_equal(g_kmer, f_kmer)
        assert_allclose(g_val, f_val, rtol=1e-12, atol=1e-14)


@given(
    seed=st.integers(0, 2**31),
    length=st.integers(2, 10),
    shift=st.integers(1, 12),
    degree=st.integers(1, 10),
    n_sv=st.integers(1, 6),
    rc=st.booleans(),
    kind=st.sampled_from(INVARIANT + OTHER),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_shifted_exact_poim_matches_expansion(
    seed, length, shift, degree, n_sv, rc, kind, data
):
    """Every S (also S >= L), every degree, both strands, any background."""
    order = int(kind[-1]) if kind[-1].isdigit() else 0
    if order >= length:
        kind, order = "uniform", 0
    max_order = data.draw(st.integers(1, length))
    base, full = weights_pair(seed, length, n_sv, min(degree, length), shift, rc)
    bg = make_background(kind, np.random.default_rng(seed), length)
    assert_same_poims(
        exact_poim(base, bg, max_order, shift=shift), exact_poim(full, bg, max_order)
    )


@pytest.mark.parametrize("shift", [1, 3, 20])
@pytest.mark.parametrize("kind", ["uniform", "stationary2", "order1"])
def test_shifted_exact_poim_larger_length(shift, kind):
    """L = 40, degree 12, K = 5: interior windows far from both ends."""
    base, full = weights_pair(7, 40, 8, 12, shift, False)
    bg = make_background(kind, np.random.default_rng(3), 40)
    assert_same_poims(exact_poim(base, bg, 5, shift=shift), exact_poim(full, bg, 5))


@pytest.fixture(scope="module")
def wds_data():
    X, y = make_gattaca(
        n_pos=50, n_neg=50, length=6, motif="GAT", mean=2, sd=1, random_state=5
    )
    return X, y


@pytest.mark.parametrize(
    ("shift", "rc"), [(1, False), (3, False), (5, False), (2, True), (5, True)]
)
@pytest.mark.parametrize(
    "kind", ["uniform", "stationary1", "stationary2", "order1", "order2_positional"]
)
def test_compute_poim_wds_against_brute_force(wds_data, shift, rc, kind):
    X, y = wds_data
    model = WDKernelSVC(degree=4, shift=shift, reverse_complement=rc).fit(X, y)
    bg = make_background(kind, np.random.default_rng(shift), X.shape[1])
    poim = compute_poim(model, 3, bg)
    assert_same_poims(
        [poim.q(l) for l in range(1, 4)],
        poim_reference(model.decision_function, bg, 3),
    )
    convolved = "weights" in poim.metadata
    assert convolved == (plan_shifts(bg, shift).method != "expand")
    assert convolved == (kind in INVARIANT)  # random order-1 chains do not settle
    # the fast path never builds the expanded weights
    assert (model._weights is None) == convolved


def test_compute_poim_routes(wds_data):
    X, y = wds_data
    wds = WDKernelSVC(degree=4, shift=2).fit(X, y)
    assert wds.shift_base_weights().nnz < wds.explicit_weights().nnz
    # given weights (or a WD model) use the engine as before
    weights_poim = compute_poim(wds.explicit_weights(), 3)
    assert "weights" not in weights_poim.metadata
    assert_same_poims(
        [compute_poim(wds, 3).q(l) for l in range(1, 4)],
        [weights_poim.q(l) for l in range(1, 4)],
    )
    wd = WDKernelSVC(degree=4).fit(X, y)
    assert wd.shift_base_weights() is wd.explicit_weights()
    assert "weights" not in compute_poim(wd, 3).metadata
    # mismatches do not combine with shifts (the kernel refuses them)
    with pytest.raises(InputError):
        WDKernelSVC(degree=4, shift=2, mismatches=1).fit(X, y)


def test_shifted_exact_poim_checks_inputs():
    base = KmerWeights.from_tables([np.ones((5, 4))], bias=0.0)
    with pytest.raises(InputError, match="background is for length"):
        exact_poim(base, MarkovBackground.uniform(6), 2, shift=2)
    with pytest.raises(InputError, match="KmerWeights"):
        exact_poim("weights", MarkovBackground.uniform(5), 2, shift=2)
    with pytest.raises(InputError):
        exact_poim(base, MarkovBackground.uniform(5), 2, shift=-1)


def test_explain_instance_wds_without_expansion(wds_data):
    X, y = wds_data
    model = WDKernelSVC(degree=4, shift=2).fit(X, y)
    got = explain_instance(model, X[0], 3)
    assert model._weights is None  # the shift convolution only
    expected = explain_instance(model.explicit_weights(), X[0], 3)
    for g, e in zip(got, expected, strict=True):
        assert_allclose(g, e, rtol=1e-9, atol=1e-12)


def test_shifted_exact_poim_memory_limit_and_progress(wds_data):
    X, y = wds_data
    model = WDKernelSVC(degree=4, shift=2).fit(X, y)
    with pytest.raises(InputError, match="over the limit"):
        compute_poim(model, 3, memory_limit=1000)
    poim = compute_poim(model, 3, progress=True, n_threads=1)
    assert "weights" in poim.metadata


# ---------------------------------------------------------------- burn-in split


def settling_chain(rng, order, length, eps):
    """Homogeneous chain, random start; rows ``(1 - eps) q + eps * random``.

    The smaller eps, the faster the D-gram marginals reach the stationary ones
    (eps = 0: after D letters), so that short sequences have a burn-in.
    """
    n_states = 4**order
    common = rng.dirichlet(np.ones(4))
    trans = (1 - eps) * common + eps * rng.dirichlet(np.ones(4), size=n_states)
    return MarkovBackground(
        rng.dirichlet(np.ones(n_states)),
        np.broadcast_to(trans, (length - order, n_states, 4)),
    )


def fitted_chain(order, length, n=1000, seed=0):
    X, _ = make_gattaca(
        n_pos=n // 2,
        n_neg=n // 2,
        length=length,
        mean=length // 3,
        sd=1,
        random_state=seed,
    )
    return MarkovBackground.fit(X, order=order)


def burn_in_poims(base, shift, bg, max_order, plan):
    top = max(max_order, bg.order)
    p_top = kmer_probability_table(bg, top)
    accumulated = accumulate_burn_in(
        base, shift, bg, top, plan.burn_in, plan.stationary
    )
    q_top = finish_windows(*accumulated, bg, top, p_top)
    return lower_orders(q_top, p_top, bg, max_order)


def max_rel_error(got, expected):
    scale = max(np.abs(q).max() for q in expected) or 1.0
    return max(np.abs(g - e).max() for g, e in zip(got, expected, strict=True)) / scale


def test_burn_in_of_chains():
    rng = np.random.default_rng(0)
    # in equilibrium: no burn-in, and the same chain back
    bg = make_background("stationary2", rng, 20)
    b, stat = burn_in(bg)
    assert b == 0
    assert_allclose(stat.initial, bg.initial, rtol=1e-12)
    # started off equilibrium: marginals equal the stationary ones from B on
    bg = settling_chain(rng, 2, 30, 0.05)
    b, stat = burn_in(bg)
    assert 2 < b < 30
    assert shift_invariant(stat) and not shift_invariant(bg)
    mu, pi = bg.marginals(), stat.initial
    assert np.all(np.abs(mu[b:] - pi) <= shifted_module.STATIONARY_RTOL * pi)
    assert np.any(np.abs(mu[b - 1] - pi) > shifted_module.STATIONARY_RTOL * pi)
    assert np.array_equal(stat.transitions, bg.transitions)
    # rows all equal: the chain forgets its start after D letters
    assert burn_in(settling_chain(rng, 3, 10, 0.0))[0] <= 3
    # none: position-specific, not settled within L, periodic, pi = 0 somewhere
    assert burn_in(make_background("order1_positional", rng, 30)) is None
    assert burn_in(settling_chain(rng, 1, 6, 0.9)) is None
    cycle = np.roll(np.eye(4), 1, axis=1)  # A -> C -> G -> T -> A
    assert burn_in(MarkovBackground([1.0, 0, 0, 0], [cycle] * 29)) is None
    absorbing = np.full((4, 4), 0.25)
    absorbing[0] = [1.0, 0, 0, 0]  # A forever: pi = (1, 0, 0, 0)
    assert burn_in(MarkovBackground([0, 0, 0, 1.0], [absorbing] * 99)) is None


@given(
    seed=st.integers(0, 2**31),
    length=st.integers(2, 12),
    shift=st.integers(1, 12),
    degree=st.integers(1, 8),
    n_sv=st.integers(1, 5),
    rc=st.booleans(),
    order=st.integers(1, 3),
    eps=st.sampled_from([0.0, 1e-9, 1e-6, 1e-3, 0.02]),
    data=st.data(),
)
@settings(max_examples=80, deadline=None)
def test_burn_in_split_matches_expansion(
    seed, length, shift, degree, n_sv, rc, order, eps, data
):
    """Any burn-in B' >= B (up to L): the split equals the expanded weights."""
    order = min(order, length - 1)
    rng = np.random.default_rng(seed)
    bg = settling_chain(rng, order, length, eps)
    found = burn_in(bg)
    if found is None:  # did not settle within L: nothing to split
        assert plan_shifts(bg, shift).method == "expand"
        return
    b = data.draw(st.integers(found[0], length))
    max_order = data.draw(st.integers(1, min(length, 5)))
    base, full = weights_pair(seed, length, n_sv, min(degree, length), shift, rc)
    got = burn_in_poims(base, shift, bg, max_order, ShiftPlan("burn-in", b, found[1]))
    expected = exact_poim(full, bg, max_order)
    assert max_rel_error(got, expected) < 1e-10
    assert_same_poims(got, expected)
    # and through exact_poim, whichever way plan_shifts routes it
    assert_same_poims(exact_poim(base, bg, max_order, shift=shift), expected)


@given(
    seed=st.integers(0, 2**31),
    length=st.integers(2, 12),
    degree=st.integers(1, 8),
    order=st.integers(1, 3),
    top_extra=st.integers(0, 3),
    certain_start=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_difference_pass_is_the_difference_of_two_passes(
    seed, length, degree, order, top_extra, certain_start
):
    """difference_pass: the second chain's terms minus the first's, window by window.

    Any two homogeneous chains with the same transitions (the second may give
    D-grams probability zero); windows j <= i and right messages cancel.
    """
    order = min(order, length - 1)
    top = min(max(order, 1) + top_extra, length)
    rng = np.random.default_rng(seed)
    first = settling_chain(rng, order, length, 0.3)
    start = rng.dirichlet(np.ones(4**order))
    if certain_start:
        start = np.eye(4**order)[rng.integers(4**order)]
    second = MarkovBackground(start, first.transitions)
    weights, _ = weights_pair(seed, length, 3, min(degree, length), 1, False)
    n_windows = length - top + 1
    zfirst = kmer_probability_table(first, top)
    zsecond = kmer_probability_table(second, top)
    got = difference_pass(weights, first, second, top, n_windows)
    got = (*got[:3], None, got[3])  # no right messages: the same for both
    plus = accumulate(weights, second, top, zsecond, 0, n_windows)
    minus = accumulate(weights, first, top, zfirst, 0, n_windows)
    scale = max(np.abs(np.concatenate([a.ravel() for a in plus[:4]])).max(), 1.0)
    # windows where z[:D] is impossible under the second chain: Q = 0 there,
    # whatever the tables hold
    head = np.arange(4**top) >> (2 * (top - order))
    possible = second.marginals()[:n_windows, head] > 0
    for g, p, m in zip(got[1:2], plus[1:2], minus[1:2], strict=True):
        assert_allclose(g[possible], (p - m)[possible], rtol=0, atol=1e-12 * scale)
    assert_allclose(got[2], plus[2] - minus[2], rtol=0, atol=1e-12 * scale)
    assert_allclose(plus[3], minus[3], rtol=0, atol=1e-12 * scale)
    assert got[4] == pytest.approx(plus[4] - minus[4], abs=1e-12 * scale)
    if not certain_start:
        assert_allclose(got[0], plus[0] - minus[0], rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize(
    ("order", "shift", "length"), [(1, 12, 40), (2, 4, 40), (3, 12, 60)]
)
def test_burn_in_split_fitted_chains(order, shift, length):
    """Fitted chains (pooled start, not stationary) take the split."""
    bg = fitted_chain(order, length)
    plan = plan_shifts(bg, shift)
    assert plan.method == "burn-in" and plan.burn_in > order
    base, full = weights_pair(11, length, 5, 8, shift, order == 2)
    got = exact_poim(base, bg, 4, shift=shift)
    expected = exact_poim(full, bg, 4)
    assert max_rel_error(got, expected) < 1e-10
    assert_same_poims(got, expected)


@pytest.mark.parametrize("rc", [False, True])
@pytest.mark.parametrize(("order", "eps", "b_extra"), [(1, 0.0, 0), (2, 1e-8, 1)])
def test_burn_in_split_against_brute_force(order, eps, b_extra, rc):
    X, y = make_gattaca(
        n_pos=30, n_neg=30, length=7, motif="GAT", mean=2, sd=1, random_state=1
    )
    model = WDKernelSVC(degree=4, shift=4, reverse_complement=rc).fit(X, y)
    bg = settling_chain(np.random.default_rng(order), order, 7, eps)
    b, stat = burn_in(bg)
    plan = ShiftPlan("burn-in", b + b_extra, stat)
    got = burn_in_poims(model.shift_base_weights(), 4, bg, 3, plan)
    assert_same_poims(got, poim_reference(model.decision_function, bg, 3))


def test_compute_poim_takes_the_split_for_fitted_chains(monkeypatch):
    """MarkovBackground.fit(X, order=2): no full expansion, same POIM."""
    X, y = make_gattaca(
        n_pos=100, n_neg=100, length=40, motif="GATTA", mean=12, sd=2, random_state=2
    )
    model = WDKernelSVC(degree=6, shift=4).fit(X, y)
    bg = MarkovBackground.fit(X, order=2)
    assert not shift_invariant(bg)
    expected = compute_poim(model.explicit_weights(), 4, bg)

    monkeypatch.setattr(
        shifted_module,
        "expand_shifts",
        lambda base, shift: pytest.fail("the WDS expansion was built"),
    )
    model._weights = None
    monkeypatch.setattr(
        model, "explicit_weights", lambda: pytest.fail("explicit weights built")
    )
    poim = compute_poim(model, 4, bg)
    plan = plan_shifts(bg, 4)
    assert plan.method == "burn-in"
    assert poim.metadata["burn_in"] == str(plan.burn_in)
    assert "weights" in poim.metadata
    assert_same_poims(
        [poim.q(l) for l in range(1, 5)], [expected.q(l) for l in range(1, 5)]
    )


def test_position_specific_chains_fall_back(wds_data):
    X, y = wds_data
    model = WDKernelSVC(degree=4, shift=2).fit(X, y)
    bg = MarkovBackground.fit(X, order=1, positional=True)
    assert plan_shifts(bg, 2) == ShiftPlan("expand")
    poim = compute_poim(model, 3, bg)
    assert "weights" not in poim.metadata
    assert_same_poims(
        [poim.q(l) for l in range(1, 4)],
        poim_reference(model.decision_function, bg, 3),
    )


def test_burn_in_cost_and_memory():
    # pays for a short burn-in, not once it covers most of the sequence
    assert burn_in_pays(100, 8, 15) and not burn_in_pays(100, 8, 95)
    assert burn_in_pays(100, 16, 15) and not burn_in_pays(100, 1, 70)
    base, _ = weights_pair(0, 30, 4, 5, 3, False)
    extent = weights_extent(base)
    small = estimate_burn_in_bytes(30, 3, 2, 3, 2, *extent)
    large = estimate_burn_in_bytes(30, 3, 2, 3, 20, *extent)
    assert small < large
    extra = large - shifted_module.estimate_shifted_bytes(30, 3, 2, 3)
    assert extra >= 8 * 2 * 24 * 4**3  # out of 24 windows: a thread's and the sum
