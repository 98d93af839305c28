"""WDLinearSVC: feature map, solvers, exactness of the model, sklearn conventions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.svm import LinearSVC

from poimkit import WDKernelSVC, compute_poim, wd_kernel
from poimkit.alphabet import kmer_index
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.kernels.explicit import shift_weights
from poimkit.kernels.wd import wd_normalizer
from poimkit.svm.linear import WDLinearSVC, _features, lbfgs, make_layout
from poimkit.svm.linear.layout import shift_band
from poimkit.svm.linear.lbfgs import HISTORY_BYTES, MEMORY, history_pairs, minimize
from poimkit.svm.linear.losses import loss_terms
from poimkit.svm.linear.passes import LocalBackend, chunk_pass

from ..naive import primal_lbfgs, primal_objective

RNG = np.random.default_rng(0)


def feature_matrix(X, layout):
    """Explicit phi(x) rows (bias column 1 last) through the scatter kernel."""
    return np.stack(
        [chunk_pass(X[i : i + 1], np.ones(1), layout, True) for i in range(len(X))]
    )


@pytest.fixture(scope="module")
def small():
    X, y = make_gattaca(n_pos=30, n_neg=30, length=12, mean=4, sd=1, random_state=3)
    return X, y


# ----------------------------------------------------------------- feature map
@pytest.mark.parametrize("shift", [0, 1, 3])
@pytest.mark.parametrize("degree", [4, 14])  # 14 > L: beta_k keeps the user degree
def test_feature_map_reproduces_wd_and_wds_kernel(shift, degree):
    X = RNG.integers(0, 4, size=(7, 10), dtype=np.uint8)
    scale = wd_normalizer(X, degree, shift)
    layout = make_layout(10, degree, shift, scale, exact_size=10**9)
    assert layout.n_exact == min(degree, 10)
    Phi = feature_matrix(X, layout)[:, :-1]
    K = wd_kernel(X, degree=degree, shift=shift) / scale
    assert_allclose(Phi @ Phi.T, K, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("shift", [0, 2])
def test_margins_and_gradient_are_phi_products(shift):
    X = RNG.integers(0, 4, size=(600, 15), dtype=np.uint8)  # > one row block
    layout = make_layout(15, 9, shift, 7.0, exact_size=4**4 * 15, hash_bits=6)
    assert 0 < layout.n_exact < layout.degree  # both exact and hashed orders
    Phi = feature_matrix(X, layout)
    v = RNG.normal(size=layout.n_columns + 1)
    c = RNG.normal(size=len(X))
    c[::3] = 0.0
    assert_allclose(chunk_pass(X, v, layout, False), Phi @ v, rtol=1e-10)
    assert_allclose(chunk_pass(X, c, layout, True), Phi.T @ c, rtol=1e-10, atol=1e-12)
    # serial and parallel kernels give the same bits (Dask uses the serial ones)
    assert np.array_equal(
        chunk_pass(X, v, layout, False), chunk_pass(X, v, layout, False, False)
    )
    assert np.array_equal(
        chunk_pass(X, c, layout, True), chunk_pass(X, c, layout, True, False)
    )


def misaligned(a):
    """A copy of ``a`` whose data start at an odd byte address."""
    raw = bytearray(a.nbytes + 3)
    out = np.frombuffer(raw, dtype=a.dtype, offset=3, count=a.size)
    out[:] = a
    assert not out.flags.aligned
    return out


def test_passes_do_not_depend_on_memory_alignment():
    """Dask workers may receive unpickled arrays misaligned."""
    X = RNG.integers(0, 4, size=(20000, 10), dtype=np.uint8)
    layout = make_layout(10, 4, 0, 1.0)
    c = RNG.normal(size=len(X))
    v = RNG.normal(size=layout.n_columns + 1)
    assert np.array_equal(
        chunk_pass(X, misaligned(c), layout, True), chunk_pass(X, c, layout, True)
    )
    assert np.array_equal(
        chunk_pass(X, misaligned(v), layout, False), chunk_pass(X, v, layout, False)
    )


@pytest.mark.parametrize("shift", [1, 2, 5])
def test_shift_band_is_cholesky_of_wds_matrix(shift):
    n = 12
    band = shift_band(n, shift)
    A = np.zeros((n, n))
    for p in range(n):
        for j in range(min(shift, p) + 1):
            A[p, p - j] = band[p, j]
    M = np.eye(n)
    for s, d in enumerate(shift_weights(shift), start=1):
        M += d * (np.eye(n, k=s) + np.eye(n, k=-s))
    assert_allclose(A @ A.T, M, atol=1e-14)


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(1, 12),
    r=st.integers(0, 20),
    kmer=st.lists(st.integers(0, 3), min_size=12, max_size=12),
    bits=st.integers(1, 8),
)
def test_feature_index_math(k, r, kmer, bits):
    length = 33
    layout = make_layout(length, 12, 0, 1.0, exact_size=4**5 * 40, hash_bits=bits)
    key = kmer_index(kmer[:k])
    col, sign = _features.feature(k, r, key, layout.fmap)
    start = layout.offsets[k - 1] + r * layout.strides[k - 1]
    if k <= layout.n_exact:
        assert (col, sign) == (start + key, 1.0)
        assert layout.strides[k - 1] == 4**k
    else:
        assert start <= col < start + 2**bits and sign in (-1.0, 1.0)
    assert col < layout.n_columns


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=30, unique=True))
def test_mix64_is_injective(values):
    out = {int(_features.mix64(np.uint64(v))) for v in values}
    assert len(out) == len(values)


def test_hash_seed_changes_hashed_columns_only():
    a = make_layout(40, 10, 0, 1.0, seed=0)
    b = make_layout(40, 10, 0, 1.0, seed=1)
    assert a.n_exact == b.n_exact and not np.array_equal(a.salt, b.salt)
    assert np.array_equal(a.offsets, b.offsets)


# -------------------------------------------------------------------- solvers
def _problem(loss, n=80, length=8, degree=4, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, length), dtype=np.uint8)
    y = np.where(X[:, 3] == 2, 1.0, -1.0)
    y[rng.random(n) < 0.15] *= -1
    layout = make_layout(length, degree, 0, 1.0, exact_size=10**9)
    return X, y, layout, feature_matrix(X, layout)


def test_gradient_matches_finite_differences():
    X, y, layout, Phi = _problem("logistic")
    backend = LocalBackend([X[:30], X[30:]], layout)
    w = RNG.normal(size=layout.n_columns + 1) * 0.1
    _, d1, _ = loss_terms("logistic", y * backend.margins(w))
    reg = w.copy()
    reg[-1] = 0.0
    grad = reg + backend.gradient(0.7 * d1 * y)
    for j in RNG.choice(layout.n_columns + 1, size=8, replace=False).tolist() + [-1]:
        e = np.zeros_like(w)
        e[j] = 1e-6
        fd = (
            primal_objective(w + e, Phi, y, 0.7, "logistic")[0]
            - primal_objective(w - e, Phi, y, 0.7, "logistic")[0]
        ) / 2e-6
        assert fd == pytest.approx(grad[j], rel=1e-5, abs=1e-7)


def test_lbfgs_matches_sklearn_logistic_regression():
    X, y, layout, Phi = _problem("logistic")
    res = minimize(LocalBackend([X], layout), y, 0.5, "logistic", 1e-10, 500)
    assert res.converged
    ref = LogisticRegression(C=0.5, tol=1e-12, max_iter=10000).fit(Phi[:, :-1], y)
    assert_allclose(res.margins, ref.decision_function(Phi[:, :-1]), atol=1e-5)


def test_lbfgs_squared_hinge_satisfies_optimality():
    X, y, layout, Phi = _problem("squared_hinge")
    res = minimize(
        LocalBackend([X[:50], X[50:]], layout), y, 2.0, "squared_hinge", 1e-10, 500
    )
    value, grad = primal_objective(res.w, Phi, y, 2.0, "squared_hinge")
    assert np.linalg.norm(grad) <= 1e-10 * res.grad_norm0 * 10
    # KKT: w = sum_i alpha_i y_i phi_i with alpha_i = 2C max(0, 1 - m_i)
    alpha_y = 2 * 2.0 * np.maximum(0, 1 - y * (Phi @ res.w)) * y
    assert_allclose(Phi[:, :-1].T @ alpha_y, res.w[:-1], atol=1e-7)
    assert abs(alpha_y.sum()) < 1e-6  # free bias: sum_i alpha_i y_i = 0


@pytest.mark.parametrize("loss", ["squared_hinge", "logistic"])
@pytest.mark.parametrize("n_iter", [1, 2, 7, 25])
def test_lbfgs_in_sequence_space_follows_primal_lbfgs(loss, n_iter):
    """Same iterates as L-BFGS on w itself (memory 3: pairs dropped from 4 on)."""
    X, y, layout, Phi = _problem(loss, n=30)
    backend = LocalBackend([X[:13], X[13:]], layout)
    res = minimize(backend, y, 2.0, loss, 0.0, n_iter, memory=3)
    ref = primal_lbfgs(Phi, y, 2.0, loss, n_iter, 3)
    assert res.n_iter == n_iter
    assert_allclose(res.w, ref, rtol=0, atol=1e-10 * np.abs(ref).max())
    assert_allclose(
        res.margins, Phi @ ref, rtol=0, atol=1e-10 * np.abs(Phi @ ref).max()
    )
    value, grad = primal_objective(ref, Phi, y, 2.0, loss)
    assert res.objective == pytest.approx(value, rel=1e-12)
    assert res.grad_norm == pytest.approx(np.linalg.norm(grad), rel=1e-8)


@pytest.mark.parametrize("memory", [3, MEMORY])
def test_lbfgs_keeps_history_pairs_by_default(monkeypatch, memory):
    """``memory=None``: `history_pairs` of the records (``MEMORY`` pairs here)."""
    monkeypatch.setattr(lbfgs, "MEMORY", memory)
    X, y, layout, Phi = _problem("squared_hinge", n=30)
    backend = LocalBackend([X[:13], X[13:]], layout)
    res = minimize(backend, y, 2.0, "squared_hinge", 0.0, 25)
    ref = primal_lbfgs(Phi, y, 2.0, "squared_hinge", 25, memory)
    assert_allclose(res.w, ref, rtol=0, atol=1e-10 * np.abs(ref).max())
    if memory == 3:  # pairs dropped from the fourth on: not the default's iterates
        other = primal_lbfgs(Phi, y, 2.0, "squared_hinge", 25, MEMORY)
        assert np.abs(other - ref).max() > 1e-6 * np.abs(ref).max()


def test_history_pairs_caps_the_history_bytes():
    pair_bytes = lambda n: 2 * 2 * (n + 1) * 8  # noqa: E731
    assert history_pairs(30) == MEMORY
    largest = HISTORY_BYTES // (MEMORY * pair_bytes(0))  # about: MEMORY pairs fit
    assert history_pairs(largest // 2) == MEMORY
    for n in (2 * largest, 5 * largest):
        pairs = history_pairs(n)
        assert 10 <= pairs < MEMORY
        assert pairs * pair_bytes(n) <= HISTORY_BYTES < (pairs + 1) * pair_bytes(n)
    assert history_pairs(10**9) == 10  # never fewer than 10


def test_gram_is_the_kernel_matrix_product():
    X, y, layout, Phi = _problem("logistic")
    backend = LocalBackend([X[:30], X[30:55], X[55:]], layout)
    u = RNG.normal(size=len(X))
    u[::4] = 0.0
    K = Phi[:, :-1] @ Phi[:, :-1].T
    assert_allclose(backend.gram(u), K @ u, rtol=1e-12)
    # the kept vectors are overwritten, never added to
    first = backend.gradient(u)
    backend.gram(RNG.normal(size=len(X)))
    assert np.array_equal(backend.gradient(u), first)


@pytest.mark.parametrize("n_chunks,max_iter", [(1, 12), (2, 40)])
def test_lbfgs_memory_does_not_scale_with_columns(n_chunks, max_iter):
    """The solver holds vectors of n entries; primal ones only in the passes."""
    import tracemalloc

    X = np.random.default_rng(0).integers(0, 4, size=(60, 12), dtype=np.uint8)
    y = np.where(np.arange(60) % 2 == 0, 1.0, -1.0)
    layout = make_layout(12, 7, 0, 1.0, exact_size=10**9)  # 2.5e5 columns
    backend = LocalBackend(np.array_split(X, n_chunks), layout)
    vector = 8 * (layout.n_columns + 1)
    tracemalloc.start()
    res = minimize(backend, y, 10.0, "logistic", 0.0, max_iter)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert res.n_iter == max_iter
    # a gradient vector per chunk (kept for the next pass) and the result
    assert peak < (n_chunks + 1.5) * vector


def test_hinge_dual_cd_matches_liblinear():
    X, y, layout, Phi = _problem("hinge")
    clf = WDLinearSVC(
        degree=4,
        loss="hinge",
        C=0.5,
        tol=1e-9,
        max_iter=20000,
        normalize=False,
        exact_size=10**9,
    ).fit(X, y)
    ref = LinearSVC(
        loss="hinge", C=0.5, tol=1e-10, max_iter=10**6, intercept_scaling=1.0
    ).fit(Phi[:, :-1], y)
    assert_allclose(
        clf.decision_function(X), ref.decision_function(Phi[:, :-1]), atol=1e-4
    )


# -------------------------------------------------------------- the estimator
@pytest.mark.parametrize(
    "loss,shift", [("squared_hinge", 0), ("logistic", 2), ("hinge", 1)]
)
def test_scores_are_the_learned_weights_on_the_feature_map(small, loss, shift):
    X, y = small
    clf = WDLinearSVC(
        degree=8,
        shift=shift,
        loss=loss,
        exact_size=500,
        hash_bits=4,
        chunk_size=7,
        sparse=False,
    ).fit(X, y)
    assert 0 < clf.n_exact_orders_ < 8 and 0 < clf.collision_rate_ <= 1
    Phi = feature_matrix(X, clf.layout_)
    expected = Phi @ np.append(clf.coef_, clf.intercept_)
    assert_allclose(clf.decision_function(X), expected, rtol=1e-10, atol=1e-12)
    assert clf.n_support_.sum() > 0 and clf.n_iter_ >= 1


def test_hashed_model_has_no_explicit_weights(small):
    X, y = small
    clf = WDLinearSVC(degree=8, exact_size=500, hash_bits=4, sparse=False).fit(X, y)
    with pytest.raises(InputError, match="hashes the orders 3..8"):
        clf.explicit_weights()
    with pytest.raises(InputError, match="sampled_poim"):
        compute_poim(clf, max_order=3)


@pytest.mark.parametrize("loss,shift", [("squared_hinge", 0), ("hinge", 2)])
def test_exact_model_has_exact_weights_and_poims(small, loss, shift):
    X, y = small
    clf = WDLinearSVC(degree=6, shift=shift, loss=loss, exact_size=10**6).fit(X, y)
    assert clf.n_exact_orders_ == 6 and clf.collision_rate_ == 0.0
    weights = clf.explicit_weights()
    rng = np.random.default_rng(1)
    X_new = rng.integers(0, 4, size=(50, 12), dtype=np.uint8)
    for data in (X, X_new):
        assert_allclose(
            weights.decision_function(data),
            clf.decision_function(data),
            rtol=1e-9,
            atol=1e-12,
        )
    assert compute_poim(clf, max_order=3).q(3).shape == (10, 64)


def test_without_hashing_matches_primal_weights(small):
    X, y = small
    clf = WDLinearSVC(degree=6, C=0.3, tol=1e-9, max_iter=1000, exact_size=10**9).fit(
        X, y
    )
    assert clf.collision_rate_ == 0.0 and clf.converged_
    layout = make_layout(12, 6, 0, clf.kernel_scale_, exact_size=10**9)
    res = minimize(
        LocalBackend([X], layout), 2.0 * y - 1, 0.3, "squared_hinge", 1e-9, 1000
    )
    assert_allclose(clf.decision_function(X), res.margins, atol=1e-6)


def test_sklearn_conventions(small):
    X, y = small
    est = WDLinearSVC(degree=5, C=0.5)
    assert clone(est).get_params() == est.get_params()
    assert est.set_params(C=2.0).C == 2.0
    scores = cross_val_score(WDLinearSVC(degree=5), X, y, cv=3)
    assert scores.shape == (3,)
    clf = WDLinearSVC(degree=5).fit(X, np.where(y == 1, "pos", "neg"))
    assert set(clf.predict(X)) <= {"pos", "neg"} and clf.classes_[1] == "pos"
    assert clf.score(X, np.where(y == 1, "pos", "neg")) > 0.5


def test_save_load_roundtrip(small, tmp_path):
    X, y = small
    clf = WDLinearSVC(degree=6, shift=1).fit(X, y)
    clf.save(tmp_path / "m.npz")
    back = WDLinearSVC.load(tmp_path / "m.npz")
    assert back.get_params() == clf.get_params()
    assert_allclose(back.decision_function(X), clf.decision_function(X), rtol=1e-12)
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(InputError):
        WDLinearSVC.load(tmp_path / "bad.npz")
    with pytest.raises(InputError):
        WDKernelSVC.load(tmp_path / "m.npz")  # another format


def test_fasta_pair_equals_arrays(small, tmp_path):
    X, y = small
    from poimkit.alphabet import decode

    for name, rows in (("pos.fa", X[y == 1]), ("neg.fa.gz", X[y == 0])):
        text = "".join(f">{name}{i}\n{s}\n" for i, s in enumerate(decode(rows)))
        path = tmp_path / name
        if name.endswith(".gz"):
            import gzip

            path.write_bytes(gzip.compress(text.encode()))
        else:
            path.write_text(text)
    order = np.r_[np.flatnonzero(y == 1), np.flatnonzero(y == 0)]
    a = WDLinearSVC(degree=6, chunk_size=16).fit(X[order], y[order])
    b = WDLinearSVC(degree=6, chunk_size=16).fit(
        (tmp_path / "pos.fa", str(tmp_path / "neg.fa.gz"))
    )
    assert np.array_equal(a.coef_, b.coef_)
    assert a.intercept_ == b.intercept_ and list(b.classes_) == [0, 1]


@pytest.mark.parametrize(
    "params,match",
    [
        ({"degree": 0}, "degree"),
        ({"loss": "hinge2"}, "loss"),
        ({"C": -1}, "C"),
        ({"hash_bits": 40}, "hash_bits"),
        ({"tol": 0}, "tol"),
        ({"chunk_size": 0}, "chunk_size"),
    ],
)
def test_bad_parameters(small, params, match):
    X, y = small
    with pytest.raises(InputError, match=match):
        WDLinearSVC(**params).fit(X, y)


def test_bad_input(small):
    X, y = small
    with pytest.raises(ValueError, match="y is None"):
        WDLinearSVC().fit(X)
    with pytest.raises(ValueError, match="only one class"):
        WDLinearSVC().fit(X, np.ones(len(X)))
    with pytest.raises(ValueError, match="two classes"):
        WDLinearSVC().fit(X, np.arange(len(X)) % 3)
    with pytest.raises(InputError, match="shift"):
        WDLinearSVC(shift=12).fit(X, y)
    with pytest.raises(InputError, match="one label per sequence"):
        WDLinearSVC().fit(X, y[:-1])
    with pytest.raises(InputError, match="client"):
        WDLinearSVC(degree=3).fit(X, y, client=42)
    with pytest.raises(InputError, match="sequential"):
        WDLinearSVC(degree=3, loss="hinge").fit(X, y, client="local")
    clf = WDLinearSVC(degree=3).fit(X, y)
    with pytest.raises(InputError, match="length"):
        clf.decision_function(X[:, :-1])
    with pytest.raises(InputError, match="not found"):
        WDLinearSVC().fit(("/nonexistent/pos.fa", "/nonexistent/neg.fa"))


def test_agreement_with_kernel_svm_on_gattaca():
    """Exact feature map (degree 8, no hashing) and the kernel SVM's hinge loss.

    A subset of the bundled GATTACA data; the 5000-sequence check (and the AUC
    at degree 20) is in benchmarks/bench_scale.py.
    """
    from sklearn.metrics import roc_auc_score

    from poimkit.datasets.gattaca import load_gattaca

    _, X, y = load_gattaca()
    idx = np.random.default_rng(0).permutation(len(X))
    tr, te = idx[:1400], idx[1400:2000]
    lin = WDLinearSVC(degree=8, loss="hinge", exact_size=2**23).fit(X[tr], y[tr])
    ker = WDKernelSVC(degree=8).fit(X[tr], y[tr])
    assert lin.n_exact_orders_ == 8
    auc_l = roc_auc_score(y[te], lin.decision_function(X[te]))
    auc_k = roc_auc_score(y[te], ker.decision_function(X[te]))
    assert abs(auc_l - auc_k) < 0.005

    def top(model):
        q = np.abs(compute_poim(model, 7).q(7)).ravel()
        return set(np.argsort(q)[-20:].tolist())

    assert top(lin) == top(ker)
