import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.svm import SVC

from poimkit import InputError, WDKernelSVC, decode, wd_kernel
from poimkit.datasets import make_gattaca, random_dna
from poimkit.kernels.explicit import KmerWeights

from ..naive import explicit_weights_naive


@pytest.fixture(scope="module")
def small_data():
    return make_gattaca(n_pos=40, n_neg=40, length=30, mean=12, sd=3, random_state=1)


def test_decision_function_matches_sklearn_svc_on_same_kernel(small_data):
    X, y = small_data
    model = WDKernelSVC(degree=6, normalize=False).fit(X, y)
    svc = SVC(kernel="precomputed").fit(wd_kernel(X, degree=6), y)
    X_test = random_dna(25, 30, np.random.default_rng(3))
    expected = svc.decision_function(wd_kernel(X_test, X, degree=6))
    np.testing.assert_allclose(model.decision_function(X_test), expected, rtol=1e-9)
    np.testing.assert_array_equal(
        model.predict(X_test), svc.predict(wd_kernel(X_test, X, degree=6))
    )


@pytest.mark.parametrize(
    ("degree", "shift", "normalize"),
    [
        (1, 0, True),
        (5, 0, True),
        (8, 0, False),
        (35, 0, True),
        (6, 1, True),
        (6, 3, False),
        (20, 4, True),
    ],
)
def test_explicit_weights_reproduce_kernel_expansion(
    small_data, degree, shift, normalize
):
    X, y = small_data
    model = WDKernelSVC(degree=degree, shift=shift, normalize=normalize).fit(X, y)
    weights = model.explicit_weights()
    assert weights.max_order == min(degree, X.shape[1])
    X_test = np.vstack([random_dna(50, 30, np.random.default_rng(5)), X[:20]])
    np.testing.assert_allclose(
        weights.decision_function(X_test),
        model.decision_function(X_test),
        rtol=1e-9,
        atol=1e-12,
    )


@pytest.mark.parametrize("shift", [0, 2])
def test_explicit_weights_equal_naive_definition(shift):
    rng = np.random.default_rng(7)
    sv = random_dna(5, 7, rng)
    coef = rng.normal(size=5)
    got = KmerWeights.from_support_vectors(sv, coef, 0.3, degree=4, shift=shift)
    expected = explicit_weights_naive(sv, coef, degree=4, shift=shift)
    for k in range(1, 5):
        indptr, kmers, values = got.order(k)
        dense = np.zeros((7 - k + 1, 4**k))
        for p in range(7 - k + 1):
            sl = slice(indptr[p], indptr[p + 1])
            assert np.all(np.diff(kmers[sl]) > 0), "k-mers sorted and unique"
            dense[p, kmers[sl]] = values[sl]
        np.testing.assert_allclose(dense, expected[k], rtol=1e-12, atol=1e-15)


def test_weights_are_sparse_for_long_kmers(small_data):
    X, y = small_data
    model = WDKernelSVC(degree=20).fit(X, y)
    weights = model.explicit_weights()
    n_sv = model.support_vectors_.shape[0]
    # at most one k-mer per support vector and position: never 4**20 entries
    assert weights.nnz <= n_sv * sum(30 - k + 1 for k in range(1, 21))


def test_strings_and_any_two_labels(small_data):
    X, y = small_data
    labels = np.where(y == 1, "bound", "unbound")
    model = WDKernelSVC(degree=5).fit(decode(X), labels)
    assert set(model.classes_) == {"bound", "unbound"}
    coded = WDKernelSVC(degree=5).fit(X, labels)
    np.testing.assert_allclose(
        model.decision_function(decode(X[:5])), coded.decision_function(X[:5])
    )
    assert model.score(decode(X), labels) > 0.8


def test_gattaca_is_learned():
    X, y = make_gattaca(n_pos=200, n_neg=200, length=40, mean=20, sd=1, random_state=2)
    auc = cross_val_score(
        WDKernelSVC(degree=10, shift=2), X, y, cv=3, scoring="roc_auc"
    )
    assert auc.mean() > 0.9


def test_explicit_weights_refuse_kmers_beyond_64_bits():
    X, y = make_gattaca(n_pos=10, n_neg=10, length=40, mean=10, sd=1, random_state=0)
    model = WDKernelSVC(degree=35).fit(X, y)
    with pytest.raises(InputError, match="at most 31 letters"):
        model.explicit_weights()


def test_works_in_grid_search_and_clone(small_data):
    X, y = small_data
    model = WDKernelSVC(degree=4)
    assert clone(model).get_params() == model.get_params()
    grid = GridSearchCV(model, {"degree": [2, 6], "C": [0.5, 2.0]}, cv=2).fit(X, y)
    assert grid.best_params_["degree"] in (2, 6)
    assert grid.best_estimator_.length_ == 30


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"degree": 0}, "degree"),
        ({"degree": 2.5}, "degree"),
        ({"shift": -1}, "shift"),
        ({"shift": 30}, "shift"),
        ({"C": 0.0}, "C must be"),
    ],
)
def test_bad_parameters(small_data, params, message):
    X, y = small_data
    with pytest.raises(InputError, match=message):
        WDKernelSVC(**params).fit(X, y)


def test_bad_data(small_data):
    X, y = small_data
    with pytest.raises(ValueError, match="only one class"):
        WDKernelSVC().fit(X, np.zeros(len(X)))
    with pytest.raises(InputError, match="one label per sequence"):
        WDKernelSVC().fit(X, y[:-1])
    model = WDKernelSVC(degree=3).fit(X, y)
    with pytest.raises(InputError, match="trained on length 30"):
        model.decision_function(X[:, :20])
    with pytest.raises(InputError, match="position 3"):
        model.decision_function(["ACNTTT" * 5])


def test_save_load_round_trip(tmp_path, small_data):
    X, y = small_data
    model = WDKernelSVC(degree=7, shift=2, C=0.7).fit(X, np.where(y == 1, 5, -5))
    path = tmp_path / "model.npz"
    model.save(path)
    loaded = WDKernelSVC.load(path)
    assert loaded.get_params() == model.get_params() | {"n_threads": None}
    np.testing.assert_array_equal(loaded.classes_, model.classes_)
    np.testing.assert_array_equal(
        loaded.decision_function(X), model.decision_function(X)
    )
    np.testing.assert_allclose(
        loaded.explicit_weights().decision_function(X),
        model.decision_function(X),
        rtol=1e-9,
    )
    assert [p.name for p in tmp_path.iterdir()] == ["model.npz"]


def test_load_rejects_bad_files(tmp_path, small_data):
    X, y = small_data
    good = tmp_path / "model.npz"
    WDKernelSVC(degree=3).fit(X, y).save(good)
    raw = good.read_bytes()

    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(raw[: len(raw) // 2])
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a model at all")
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, format=np.array([{"a": 1}], dtype=object))
    other = tmp_path / "other.npz"
    np.savez(other, x=np.arange(3))
    for path, message in [
        (truncated, "corrupt poimkit model file"),
        (garbage, "not a poimkit model file"),
        (pickled, "not a poimkit model file"),
        (other, "not a poimkit.WDKernelSVC"),
        (tmp_path / "missing.npz", "not found"),
    ]:
        with pytest.raises(InputError, match=message) as info:
            WDKernelSVC.load(path)
        assert path.name in str(info.value)

    arrays = dict(np.load(good))
    arrays["format_version"] = np.int64(99)
    future = tmp_path / "future.npz"
    np.savez(future, **arrays)
    with pytest.raises(InputError, match="version 99"):
        WDKernelSVC.load(future)
    arrays["format_version"] = np.int64(1)
    arrays["dual_coef"] = arrays["dual_coef"][:-1]
    broken = tmp_path / "broken.npz"
    np.savez(broken, **arrays)
    with pytest.raises(InputError, match="inconsistent"):
        WDKernelSVC.load(broken)


def test_estimator_contract_on_dna(small_data):
    """What scikit-learn's checks assert with real-valued data, asserted on DNA."""
    import pickle

    X, y = small_data
    model = WDKernelSVC(degree=5, shift=1)
    params = model.get_params()
    assert model.fit(X, y) is model
    assert model.get_params() == params
    assert model.n_features_in_ == X.shape[1]
    first = model.decision_function(X)
    np.testing.assert_array_equal(model.fit(X, y).decision_function(X), first)
    order = np.random.default_rng(0).permutation(len(X))
    np.testing.assert_allclose(
        model.decision_function(X[order]), first[order], rtol=1e-12
    )
    np.testing.assert_allclose(model.decision_function(X[:7]), first[:7], rtol=1e-12)
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.decision_function(X), first)
    with pytest.raises(Exception, match="not fitted"):
        WDKernelSVC().predict(X)
    with pytest.raises(TypeError, match="sparse input is not supported"):
        from scipy.sparse import csr_matrix

        model.predict(csr_matrix(X))
