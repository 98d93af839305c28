"""WDS POIMs by shift convolution (poimkit.poim.shifted) against the expansion.

The fast path must give the POIM of the expanded WDS weights (the old path,
`KmerWeights.from_support_vectors(..., shift=S)`) up to rounding, and the
brute-force POIM of the model for small L; backgrounds that are not shift
invariant go through the expanded weights.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit import WDKernelSVC
from poimkit.background import MarkovBackground
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.kernels.explicit import KmerWeights
from poimkit.poim import compute_poim, explain_instance
from poimkit.poim.exact import exact_poim
from poimkit.poim.reference import poim_reference
from poimkit.poim.shifted import expand_shifts, shift_invariant

from .factories import random_chain, stationary_chain


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
    assert convolved == (kind in INVARIANT)
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
