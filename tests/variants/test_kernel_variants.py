"""WD kernel variants: reverse complement (both strands) and mismatches.

Every fast result is compared with a brute-force definition (tests/naive.py):
the kernel, its explicit weights, and exact POIMs of fitted models against
enumeration of all 4**L sequences.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from poimkit import InputError, WDKernelSVC, wd_kernel
from poimkit.alphabet import reverse_complement
from poimkit.background import MarkovBackground
from poimkit.datasets import make_gattaca, random_dna
from poimkit.kernels.explicit import KmerWeights, mismatch_weight_size
from poimkit.kernels.wd import wd_diagonal, wd_normalizer
from poimkit.poim import compute_poim
from poimkit.poim.reference import poim_reference

from ..factories import random_chain
from ..naive import explicit_weights_mismatch_rc_naive, wd_kernel_mismatch_rc_naive


def _cases():
    """(L, degree, shift, mismatches, reverse_complement) of the kernel tests."""
    return [
        (6, 3, 0, 1, False),
        (9, 5, 0, 2, False),
        (7, 9, 0, 3, False),  # degree > L
        (5, 4, 0, 6, False),  # m >= degree: acts like degree - 1
        (8, 1, 0, 2, False),  # k = 1 <= m: letters must match
        (7, 4, 0, 0, True),
        (8, 3, 2, 0, True),
        (9, 4, 0, 1, True),
        (6, 6, 0, 2, True),
        (10, 20, 0, 3, True),
    ]


def _data(length, seed):
    rng = np.random.default_rng(seed)
    X = random_dna(7, length, rng)
    X[1] = X[0]
    X[2, : length // 2] = X[0, : length // 2]  # long partial matches
    X[3] = reverse_complement(X[4:5])[0]  # a reverse-complement pair
    X[5, 1::3] = X[0, 1::3]  # every third letter of X[0]
    return X, random_dna(4, length, rng)


# --------------------------------------------------------------------------
# the kernel
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("length", "degree", "shift", "m", "rc"), _cases())
def test_kernel_matches_brute_force(length, degree, shift, m, rc):
    X, Y = _data(length, seed=length * 31 + degree)
    params = {"degree": degree, "shift": shift, "mismatches": m}
    K = wd_kernel(X, reverse_complement=rc, **params)
    assert_allclose(
        K, wd_kernel_mismatch_rc_naive(X, None, **params, rc=rc), rtol=1e-10, atol=1e-12
    )
    K_xy = wd_kernel(X, Y, reverse_complement=rc, **params)
    assert_allclose(
        K_xy, wd_kernel_mismatch_rc_naive(X, Y, **params, rc=rc), rtol=1e-10, atol=1e-12
    )
    # the symmetric path (half the pairs, mirrored) equals the general one
    assert_allclose(K, wd_kernel(X, X.copy(), reverse_complement=rc, **params))
    assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() > -1e-10 * np.abs(K).max()
    diagonal = wd_diagonal(X, reverse_complement=rc, **params)
    assert_allclose(diagonal, np.diag(K), rtol=1e-12)


def test_literal_values():
    # AAAA vs AAAT, d = 3, m = 1: 3/2 + 2/3 + 1/18 + 1/6 + 1/54 = 65/27
    X = np.array([[0, 0, 0, 0], [0, 0, 0, 3]])
    assert wd_kernel(X, degree=3, mismatches=1)[0, 1] == pytest.approx(65 / 27)
    assert wd_kernel(X, degree=3)[0, 1] == pytest.approx(3 / 2 + 2 / 3 + 1 / 6)
    # single letters never match with a mismatch; A vs T: rc(A) = T matches
    A, C, T = np.array([[0]]), np.array([[1]]), np.array([[3]])
    assert wd_kernel(A, C, degree=1, mismatches=3)[0, 0] == 0.0
    assert wd_kernel(A, T, degree=1, reverse_complement=True)[0, 0] == 1.0


def test_unweighted_mismatch_count_would_not_be_psd():
    """Why the Shogun weights 1/(C(k, j) 3**j): the plain count is indefinite."""
    X = np.array([[a, b] for a in range(4) for b in range(4)])  # all 2-mers
    K = wd_kernel(X, degree=2, mismatches=1)
    assert np.linalg.eigvalsh(K).min() > 0
    exact = (X[:, None, :] == X[None, :, :]).sum(2)  # matching letters
    plain = (2 / 3) * exact + (1 / 3) * (exact >= 1)  # 2-mers with <= 1 mismatch
    assert np.linalg.eigvalsh(plain).min() < -0.3


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    length=st.integers(1, 8),
    degree=st.integers(1, 10),
    m=st.integers(0, 4),
    rc=st.booleans(),
)
def test_kernel_properties(data, length, degree, m, rc):
    """Brute force, symmetry, PSD and strand invariance on random small inputs."""
    n = data.draw(st.integers(1, 5))
    X = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, 3), min_size=length, max_size=length),
                min_size=n,
                max_size=n,
            )
        ),
        dtype=np.uint8,
    )
    K = wd_kernel(X, degree=degree, mismatches=m, reverse_complement=rc)
    expected = wd_kernel_mismatch_rc_naive(X, None, degree=degree, mismatches=m, rc=rc)
    assert_allclose(K, expected, rtol=1e-10, atol=1e-12)
    assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() > -1e-10 * max(1.0, np.abs(K).max())
    if rc:  # k_rc(rc(x), x') = k_rc(x, x')
        K_rc = wd_kernel(
            reverse_complement(X),
            X,
            degree=degree,
            mismatches=m,
            reverse_complement=True,
        )
        assert_allclose(K_rc, K, rtol=1e-12)


def test_normalisation_is_a_constant():
    X = random_dna(30, 12, np.random.default_rng(4))
    # mismatches keep k(x, x) of plain WD: the same constant, diagonal exactly 1
    K = wd_kernel(X, degree=5, mismatches=2, normalize=True)
    assert_array_equal(np.diag(K), 1.0)
    assert wd_normalizer(X, 5, mismatches=2) == wd_normalizer(X, 5)
    # both strands: k(x, x) varies, divided by the mean training diagonal
    scale = wd_normalizer(X, 5, mismatches=1, reverse_complement=True)
    diagonal = wd_diagonal(X, 5, mismatches=1, reverse_complement=True)
    assert np.ptp(diagonal) > 0
    assert scale == pytest.approx(diagonal.mean())
    raw = wd_kernel(X, degree=5, mismatches=1, reverse_complement=True)
    assert_allclose(
        wd_kernel(X, degree=5, mismatches=1, reverse_complement=True, normalize=True),
        raw / scale,
        rtol=1e-12,
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mismatches": 1, "shift": 1}, "cannot be combined with shift=1"),
        ({"mismatches": -1}, "mismatches must be an integer >= 0"),
        ({"mismatches": 1.5}, "mismatches must be an integer"),
        ({"reverse_complement": "yes"}, "reverse_complement must be True or False"),
    ],
)
def test_kernel_argument_errors(kwargs, message):
    X = random_dna(3, 6, np.random.default_rng(0))
    with pytest.raises(InputError, match=message):
        wd_kernel(X, degree=3, **kwargs)
    with pytest.raises(InputError, match=message):
        wd_diagonal(X, 3, **kwargs)


# --------------------------------------------------------------------------
# explicit weights
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("m", "rc"), [(1, False), (2, False), (0, True), (2, True)])
def test_explicit_weights_equal_naive_definition(m, rc):
    rng = np.random.default_rng(m * 2 + rc)
    sv = random_dna(5, 7, rng)
    coef = rng.normal(size=5)
    got = KmerWeights.from_support_vectors(
        sv, coef, 0.3, degree=4, mismatches=m, reverse_complement=rc
    )
    expected = explicit_weights_mismatch_rc_naive(sv, coef, 4, m, rc)
    for k in range(1, 5):
        indptr, kmers, values = got.order(k)
        dense = np.zeros((7 - k + 1, 4**k))
        for p in range(7 - k + 1):
            sl = slice(indptr[p], indptr[p + 1])
            assert np.all(np.diff(kmers[sl]) > 0), "k-mers sorted and unique"
            dense[p, kmers[sl]] = values[sl]
        assert_allclose(dense, expected[k], rtol=1e-12, atol=1e-15)


@pytest.fixture(scope="module")
def gattaca30():
    return make_gattaca(n_pos=40, n_neg=40, length=30, mean=12, sd=3, random_state=1)


@pytest.mark.parametrize(
    "params",
    [
        {"degree": 6, "reverse_complement": True},
        {"degree": 6, "shift": 2, "reverse_complement": True},
        {"degree": 5, "mismatches": 1},
        {"degree": 6, "mismatches": 2, "normalize": False},
        {"degree": 5, "mismatches": 1, "reverse_complement": True},
    ],
)
def test_decision_function_equals_explicit_weights(gattaca30, params):
    X, y = gattaca30
    model = WDKernelSVC(**params).fit(X, y)
    X_test = np.vstack([random_dna(40, 30, np.random.default_rng(5)), X[:10]])
    scores = model.decision_function(X_test)
    assert_allclose(
        model.explicit_weights().decision_function(X_test),
        scores,
        rtol=1e-9,
        atol=1e-12,
    )
    if params.get("reverse_complement"):  # both strands score alike
        assert_allclose(
            model.decision_function(reverse_complement(X_test)), scores, rtol=1e-12
        )
    if params.get("mismatches"):
        n_entries, _ = mismatch_weight_size(
            len(model.support_vectors_),
            30,
            model.degree,
            model.mismatches,
            model.reverse_complement,
        )
        assert model.explicit_weights().nnz <= n_entries


def test_weight_memory_guard():
    sv = random_dna(50, 40, np.random.default_rng(0))
    coef = np.ones(50)
    with pytest.raises(InputError, match=r"mismatches=3 would need about .* GiB"):
        KmerWeights.from_support_vectors(
            sv, coef, 0.0, degree=12, mismatches=3, memory_limit=1e6
        )
    with pytest.raises(InputError, match="cannot be combined"):
        KmerWeights.from_support_vectors(sv, coef, 0.0, degree=4, shift=1, mismatches=1)
    # the estimate bounds what is stored
    w = KmerWeights.from_support_vectors(sv[:, :12], coef, 0.0, degree=5, mismatches=2)
    assert w.nnz <= mismatch_weight_size(50, 12, 5, 2)[0]


# --------------------------------------------------------------------------
# exact POIMs against enumeration (L = 7)
# --------------------------------------------------------------------------

L = 7


@pytest.fixture(scope="module")
def variant_models():
    X, y = make_gattaca(
        n_pos=50, n_neg=50, length=L, motif="GATT", mean=3, sd=1, random_state=3
    )
    return X, {
        "rc": WDKernelSVC(degree=5, reverse_complement=True).fit(X, y),
        "rc_shift": WDKernelSVC(degree=4, shift=2, reverse_complement=True).fit(X, y),
        "mismatch": WDKernelSVC(degree=5, mismatches=1).fit(X, y),
        "mismatch2_rc": WDKernelSVC(
            degree=6, mismatches=2, reverse_complement=True
        ).fit(X, y),
    }


def _background(name, X):
    rng = np.random.default_rng(17)
    if name == "uniform":
        return MarkovBackground.uniform(L)
    if name == "order1":
        return MarkovBackground.fit(X, order=1)
    return random_chain(rng, 2, L, positional=True)


@pytest.mark.parametrize("model_name", ["rc", "rc_shift", "mismatch", "mismatch2_rc"])
@pytest.mark.parametrize("background_name", ["uniform", "order1", "order2"])
def test_poims_match_enumeration(variant_models, model_name, background_name):
    X, models = variant_models
    model = models[model_name]
    background = _background(background_name, X)
    expected = poim_reference(model.decision_function, background, L)
    poim = compute_poim(model, L, background)
    for l in range(1, L + 1):
        assert_allclose(poim.q(l), expected[l - 1], rtol=1e-9, atol=1e-12)
    assert poim.metadata["model_mismatches"] == str(model.mismatches)
    assert poim.metadata["model_reverse_complement"] == str(model.reverse_complement)


# --------------------------------------------------------------------------
# model files
# --------------------------------------------------------------------------


def test_save_load_round_trip(tmp_path, gattaca30):
    X, y = gattaca30
    model = WDKernelSVC(degree=5, mismatches=2, reverse_complement=True).fit(X, y)
    path = tmp_path / "model.npz"
    model.save(path)
    loaded = WDKernelSVC.load(path)
    assert loaded.mismatches == 2 and loaded.reverse_complement is True
    assert loaded.get_params() == model.get_params()
    assert_array_equal(loaded.decision_function(X), model.decision_function(X))


def test_files_without_the_new_parameters_load_with_defaults(tmp_path, gattaca30):
    X, y = gattaca30
    model = WDKernelSVC(degree=5).fit(X, y)
    model.save(tmp_path / "new.npz")
    arrays = dict(np.load(tmp_path / "new.npz"))
    del arrays["mismatches"], arrays["reverse_complement"]
    np.savez(tmp_path / "old.npz", **arrays)
    loaded = WDKernelSVC.load(tmp_path / "old.npz")
    assert loaded.mismatches == 0 and loaded.reverse_complement is False
    assert_array_equal(loaded.decision_function(X), model.decision_function(X))


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"mismatches": -1}, "mismatches must be an integer >= 0"),
        ({"mismatches": True}, "mismatches must be an integer"),
        ({"mismatches": 1, "shift": 2}, "cannot be combined with shift=2"),
        ({"reverse_complement": 1}, "reverse_complement must be True or False"),
    ],
)
def test_bad_parameters(gattaca30, params, message):
    X, y = gattaca30
    with pytest.raises(InputError, match=message):
        WDKernelSVC(**params).fit(X, y)
