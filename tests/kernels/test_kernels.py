"""WD / WDS kernels: fast bitplane kernels against brute-force references."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poimkit.errors import InputError
from poimkit.kernels.wd import wd_diagonal, wd_kernel, wd_normalizer

from ..naive import wd_diagonal_constant, wd_kernel_kmers, wd_kernel_naive

TOL = {"rtol": 1e-12, "atol": 1e-12}


def tricky_sequences(length, n_random, seed):
    """Random rows plus near-identical ones: long runs, runs across word ends."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 4, length)
    rows = [base, base.copy()]  # identical rows
    for cut in (31, 62, 63, 64, 65, 127, 128):  # a mismatch at (or near) word ends
        if cut < length:
            row = base.copy()
            row[cut] = (row[cut] + 1) % 4
            rows.append(row)
    row = base.copy()
    row[::9] = (row[::9] + 2) % 4  # runs of 8 matches
    rows.append(row)
    rows.append(np.roll(base, 1))  # matches only under a shift
    rows.append(np.roll(base, -2))
    rows.append(np.zeros(length, dtype=int))  # homopolymers
    rows.extend(rng.integers(0, 4, (n_random, length)))
    return np.array(rows, dtype=np.uint8)


GRID = [
    (length, degree, shift)
    for length in (1, 2, 7, 63, 64, 65, 130)
    for degree in sorted({1, 3, 20, length + 5})
    for shift in (0, 1, 3)
    if shift < length
]


@pytest.mark.parametrize(("length", "degree", "shift"), GRID)
def test_matches_naive(length, degree, shift):
    X = tricky_sequences(length, 2, seed=length)
    rng = np.random.default_rng(1000 + length)
    Y = np.concatenate([X[:2], rng.integers(0, 4, (2, length))]).astype(np.uint8)
    if length > 60:  # keep the pure-Python reference fast
        X = X[rng.choice(len(X), 6, replace=False)]
        X[0] = Y[0]
    expected = wd_kernel_naive(X, Y, degree, shift)
    np.testing.assert_allclose(
        wd_kernel(X, Y, degree=degree, shift=shift), expected, **TOL
    )
    expected_sym = wd_kernel_naive(X, None, degree, shift)
    np.testing.assert_allclose(
        wd_kernel(X, degree=degree, shift=shift), expected_sym, **TOL
    )


@pytest.mark.parametrize("shift", [0, 2, 8, 9, 17])
def test_many_tiles_match_kmer_reference(shift):
    """More rows than one tile (64) and shifts filling more than one 8-lane block."""
    rng = np.random.default_rng(shift)
    X = rng.integers(0, 4, (150, 70)).astype(np.uint8)
    X[100:] = X[:50]
    X[100:, 35] = (X[100:, 35] + 1) % 4
    Y = rng.integers(0, 4, (70, 70)).astype(np.uint8)
    Y[:30] = np.roll(X[:30], 3, axis=1)
    np.testing.assert_allclose(
        wd_kernel(X, degree=12, shift=shift), wd_kernel_kmers(X, None, 12, shift), **TOL
    )
    np.testing.assert_allclose(
        wd_kernel(X, Y, degree=12, shift=shift), wd_kernel_kmers(X, Y, 12, shift), **TOL
    )


def test_shift_beyond_64_positions():
    rng = np.random.default_rng(5)
    base = rng.integers(0, 4, 150)
    X = np.array(
        [base, np.roll(base, 66), np.roll(base, -70), rng.integers(0, 4, 150)],
        dtype=np.uint8,
    )
    np.testing.assert_allclose(
        wd_kernel(X, degree=7, shift=71), wd_kernel_kmers(X, None, 7, 71), **TOL
    )
    np.testing.assert_allclose(
        wd_diagonal(X, degree=7, shift=71),
        np.diag(wd_kernel_kmers(X, None, 7, 71)),
        **TOL,
    )


def test_literal_values():
    X = np.array([[0, 1, 2, 3], [0, 1, 2, 0], [1, 2, 3, 0]])
    K = wd_kernel(X, degree=2, shift=1)
    # beta = (2/3, 1/3), delta_1 = 1/4; rows 0, 2 match only under shift 1:
    # ACG = ACG (+: three 1-mers, two 2-mers) -> (3 * 2/3 + 2 * 1/3) / 4
    assert K[0, 2] == pytest.approx((3 * 2 / 3 + 2 / 3) / 4, rel=1e-15)
    assert K[0, 0] == pytest.approx(4 * 2 / 3 + 3 / 3, rel=1e-15)
    assert K[0, 1] == pytest.approx(3 * 2 / 3 + 2 / 3, rel=1e-15)


# --------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------


@st.composite
def code_arrays(draw, max_rows=6, max_length=40):
    n = draw(st.integers(1, max_rows))
    length = draw(st.integers(1, max_length))
    alphabet = draw(st.integers(1, 4))  # small alphabets give long runs
    flat = draw(
        st.lists(st.integers(0, alphabet - 1), min_size=n * length, max_size=n * length)
    )
    return np.array(flat, dtype=np.uint8).reshape(n, length)


@st.composite
def kernel_problems(draw):
    X = draw(code_arrays())
    degree = draw(st.integers(1, 25))
    shift = draw(st.integers(0, min(4, X.shape[1] - 1)))
    return X, degree, shift


PROPERTY = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY
@given(kernel_problems())
def test_symmetric_and_psd(problem):
    X, degree, shift = problem
    K = wd_kernel(X, degree=degree, shift=shift)
    np.testing.assert_array_equal(K, K.T)
    eig = np.linalg.eigvalsh(K)
    assert eig.min() >= -1e-9 * max(1.0, np.abs(eig).max())
    np.testing.assert_allclose(np.diag(K), wd_diagonal(X, degree, shift), **TOL)
    np.testing.assert_allclose(K, wd_kernel(X, X, degree=degree, shift=shift), **TOL)


@PROPERTY
@given(kernel_problems(), code_arrays(max_rows=4))
def test_cross_kernel_is_transpose(problem, Y):
    X, degree, shift = problem
    Y = np.resize(Y, (Y.shape[0], X.shape[1])).astype(np.uint8)
    K = wd_kernel(X, Y, degree=degree, shift=shift)
    np.testing.assert_allclose(K, wd_kernel(Y, X, degree=degree, shift=shift).T, **TOL)


@PROPERTY
@given(code_arrays(), st.integers(1, 45))
def test_wd_diagonal_is_constant(X, degree):
    expected = wd_diagonal_constant(X.shape[1], degree)
    K = wd_kernel(X, degree=degree)
    np.testing.assert_allclose(np.diag(K), expected, **TOL)
    np.testing.assert_allclose(wd_diagonal(X, degree), expected, **TOL)
    assert wd_normalizer(X, degree) == pytest.approx(expected, rel=1e-14)
    Kn = wd_kernel(X, degree=degree, normalize=True)
    assert np.all(np.diag(Kn) == 1.0)
    np.testing.assert_allclose(Kn, K / expected, **TOL)


@PROPERTY
@given(kernel_problems(), code_arrays(max_rows=4))
def test_wds_normalize_divides_by_mean_training_diagonal(problem, Y):
    X, degree, shift = problem
    Y = np.resize(Y, (Y.shape[0], X.shape[1])).astype(np.uint8)
    diag_x = wd_diagonal(X, degree, shift)
    diag_y = wd_diagonal(Y, degree, shift)
    assert wd_normalizer(Y, degree, shift) == pytest.approx(diag_y.mean(), rel=1e-14)
    np.testing.assert_allclose(
        wd_kernel(X, degree=degree, shift=shift, normalize=True),
        wd_kernel(X, degree=degree, shift=shift) / diag_x.mean(),
        **TOL,
    )
    np.testing.assert_allclose(
        wd_kernel(X, Y, degree=degree, shift=shift, normalize=True),
        wd_kernel(X, Y, degree=degree, shift=shift) / diag_y.mean(),
        **TOL,
    )


@PROPERTY
@given(kernel_problems(), st.floats(1e-3, 1e3))
def test_scale_is_honoured(problem, scale):
    X, degree, shift = problem
    K = wd_kernel(X, degree=degree, shift=shift)
    for normalize in (False, True):
        np.testing.assert_allclose(
            wd_kernel(X, degree=degree, shift=shift, normalize=normalize, scale=scale),
            K / scale,
            **TOL,
        )


def test_wds_diagonal_depends_on_sequence():
    X = np.array([[0, 0, 0, 0, 0], [0, 1, 2, 3, 0]])
    diag = wd_diagonal(X, degree=3, shift=2)
    assert diag[0] > diag[1]
    np.testing.assert_allclose(diag, np.diag(wd_kernel_naive(X, None, 3, 2)), **TOL)


def test_n_threads_is_restored():
    X = np.random.default_rng(0).integers(0, 4, (70, 20))
    before = numba.get_num_threads()
    K1 = wd_kernel(X, degree=5, shift=2, n_threads=1)
    assert numba.get_num_threads() == before
    np.testing.assert_array_equal(K1, wd_kernel(X, degree=5, shift=2))


def test_accepts_any_integer_dtype_and_numpy_ints():
    X = np.array([[0, 1, 2, 3], [3, 2, 1, 0]], dtype=np.int64)
    K = wd_kernel(X.tolist(), degree=np.int32(3), shift=np.int64(1))
    np.testing.assert_allclose(K, wd_kernel_naive(X, None, 3, 1), **TOL)


# --------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------


X_OK = np.zeros((3, 10), dtype=np.uint8)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"X2": np.zeros((2, 9), dtype=np.uint8)}, "X2"),
        ({"degree": 0}, "degree"),
        ({"degree": 2.5}, "degree"),
        ({"degree": True}, "degree"),
        ({"shift": -1}, "shift"),
        ({"shift": 10}, "shift"),
        ({"shift": 11}, "shift"),
        ({"scale": 0.0}, "scale"),
        ({"scale": float("nan")}, "scale"),
        ({"scale": "1"}, "scale"),
        ({"n_threads": 0}, "n_threads"),
        ({"n_threads": 10_000}, "n_threads"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(InputError, match=match):
        wd_kernel(X_OK, **kwargs)


@pytest.mark.parametrize(
    ("X1", "X2", "match"),
    [
        (np.zeros(10, dtype=np.uint8), None, "X1"),
        (np.zeros((2, 3, 4), dtype=np.uint8), None, "X1"),
        (X_OK, np.zeros(10, dtype=np.uint8), "X2"),
        (np.full((2, 5), 4), None, "X1"),
        (np.zeros((0, 5), dtype=np.uint8), None, "X1"),
    ],
)
def test_bad_arrays(X1, X2, match):
    with pytest.raises(InputError, match=match):
        wd_kernel(X1, X2)


@pytest.mark.parametrize("func", [wd_diagonal, wd_normalizer])
def test_bad_arguments_of_helpers(func):
    with pytest.raises(InputError, match="X"):
        func(np.zeros(5, dtype=np.uint8))
    with pytest.raises(InputError, match="degree"):
        func(X_OK, degree=0)
    with pytest.raises(InputError, match="shift"):
        func(X_OK, shift=10)


# --------------------------------------------------------------------------
# vector intrinsics against their NumPy definitions
# --------------------------------------------------------------------------


def test_vector_helpers_match_numpy_definitions():
    from numba import njit

    from poimkit.kernels import _packing as pk

    if numba.config.DISABLE_JIT:
        pytest.skip("the intrinsics exist only when compiled")

    @njit
    def run(a, b, c, weights, out):
        va, vb, vc = pk.v_load(a, 0), pk.v_load(b, 0), pk.v_load(c, 0)
        pk.v_store(out, 0, pk.v_or(va, vb))
        pk.v_store(out, 8, pk.v_add(va, vb))
        pk.v_store(out, 16, pk.v_match(va, vb, vc, pk.v_splat(a[3]), pk.v_load(b, 8)))
        pk.v_store(out, 24, pk.v_step(va, vb))
        pk.v_store(out, 32, pk.v_popcount(va))
        return (
            pk.v_any(va),
            pk.v_any(pk.v_splat(0)),
            pk.popcount64(a[0]),
            pk.v_weighted_sum(vb, vc, 3, weights, 1),
        )

    rng = np.random.default_rng(0)
    a, b, c = (
        rng.integers(0, 2**63, 16, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        for _ in range(3)
    )
    b >>= np.uint64(40)  # small enough that total + 3 cum stays exact in float64
    c >>= np.uint64(40)
    weights = rng.random(9)
    out = np.zeros(40, dtype=np.uint64)
    any_a, any_zero, pop, wsum = run(a, b, c, weights, out)
    va, vb, vc = a[:8], b[:8], c[:8]
    np.testing.assert_array_equal(out[:8], pk._py_v_or(va, vb))
    np.testing.assert_array_equal(out[8:16], pk._py_v_add(va, vb))
    np.testing.assert_array_equal(
        out[16:24], pk._py_v_match(va, vb, vc, pk._py_v_splat(a[3]), b[8:16])
    )
    np.testing.assert_array_equal(out[24:32], pk._py_v_step(va, vb))
    np.testing.assert_array_equal(out[32:40], pk._py_v_popcount(va))
    assert (any_a, any_zero) == (True, False)
    assert pop == pk._py_popcount64(a[0])
    assert wsum == pk._py_v_weighted_sum(vb, vc, 3, weights, 1)
