"""WDLinearSVC's exact sparse table of the present k-mers (issue 18)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from poimkit import WDKernelSVC, compute_poim, load_model
from poimkit.datasets import make_planted
from poimkit.errors import InputError
from poimkit.io.files import write_npz
from poimkit.svm.linear import WDLinearSVC, table


@pytest.fixture(scope="module")
def data():
    X, y = make_planted(60, 60, 16, [("ACGTA", 5.0, 1.0)], random_state=3)
    X_new = np.random.default_rng(1).integers(0, 4, size=(40, 16), dtype=np.uint8)
    return X, y, X_new


def exact_pair(X, y, **params):
    """The sparse model (orders 3.. through the table) and the dense one."""
    params = dict(degree=6, tol=1e-10, max_iter=3000, **params)
    sparse = WDLinearSVC(exact_size=4**2 * 16, **params).fit(X, y)
    dense = WDLinearSVC(exact_size=10**9, **params).fit(X, y)
    return sparse, dense


@pytest.mark.parametrize("loss,shift", [("squared_hinge", 0), ("logistic", 2)])
def test_sparse_model_is_the_dense_model(data, loss, shift):
    X, y, X_new = data
    sparse, dense = exact_pair(X, y, loss=loss, shift=shift)
    assert sparse.layout_.n_dense == 2 and sparse.n_exact_orders_ == 6
    assert dense.layout_.n_dense == 6 and sparse.n_present_keys_ > 0
    assert sparse.coef_.size < dense.coef_.size
    assert_allclose(sparse.objective_, dense.objective_, rtol=1e-9)
    for Z in (X, X_new):  # X_new: k-mers absent from training weigh 0
        assert_allclose(
            sparse.decision_function(Z), dense.decision_function(Z), atol=1e-7
        )
    ws, wd = sparse.explicit_weights(), dense.explicit_weights()
    for k in range(1, 7):
        (ip_s, km_s, v_s), (ip_d, km_d, v_d) = ws.order(k), wd.order(k)
        assert_array_equal(ip_s, ip_d)
        assert_array_equal(km_s, km_d)
        assert_allclose(v_s, v_d, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("shift", [0, 1])
def test_default_model_has_exact_explicit_weights(data, shift):
    X, y, X_new = data
    clf = WDLinearSVC(shift=shift).fit(X, y)  # degree 20, orders 7..16 sparse
    assert clf.n_exact_orders_ == 16 and not clf.hashed_by_budget_
    weights = clf.explicit_weights()
    assert weights.max_order == 16
    for Z in (X, X_new):
        assert_allclose(
            weights.decision_function(Z), clf.decision_function(Z), atol=1e-10
        )
    assert compute_poim(clf, max_order=3).q(3).shape == (14, 64)


def test_hinge_model_uses_the_table(data):
    X, y, X_new = data
    sparse, dense = exact_pair(X, y, loss="hinge", random_state=0)
    assert_allclose(
        sparse.decision_function(X_new), dense.decision_function(X_new), atol=1e-6
    )


def test_agreement_with_kernel_svm_at_degree_20():
    """Top-20 order-7 POIM entries of WDLinearSVC and WDKernelSVC: the same set."""
    X, y = make_planted(250, 250, 40, [("GATTACAG", 15.0, 2.0)], random_state=4)
    lin = WDLinearSVC(degree=20, loss="hinge", tol=1e-4, max_iter=2000).fit(X, y)
    ker = WDKernelSVC(degree=20).fit(X, y)
    assert lin.n_exact_orders_ == 20

    def top(model):
        q = np.abs(compute_poim(model, 7).q(7)).ravel()
        return set(np.argsort(q)[-20:].tolist())

    assert top(lin) == top(ker)


def test_memory_budget_falls_back_to_hashing(data, monkeypatch):
    X, y, _ = data
    need = WDLinearSVC(degree=12).fit(X, y).table_bytes_  # orders 9..12 sparse
    monkeypatch.setattr(table, "memory_budget", lambda: need - 201)
    with pytest.warns(UserWarning, match=r"orders (9|1\d)\.\.12 are hashed"):
        clf = WDLinearSVC(degree=12).fit(X, y)
    assert clf.hashed_by_budget_ and 8 <= clf.n_exact_orders_ < 12
    assert clf.layout_.n_dense == 8 and clf.n_hashed_buckets_ > 0
    with pytest.raises(InputError, match="did not fit the memory budget"):
        clf.explicit_weights()
    monkeypatch.setattr(table, "memory_budget", lambda: need - 200)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # exactly enough: no warning
        clf = WDLinearSVC(degree=12).fit(X, y)
    assert clf.n_exact_orders_ == 12 and clf.table_bytes_ == need


def test_private_features_stay_out_of_the_training_table(data):
    """Features of one sequence train as one column; the fit has them all."""
    X, y, _ = data
    clf = WDLinearSVC(degree=12, shift=1).fit(X, y)
    dense_columns = clf.layout_.offsets[clf.layout_.n_dense]
    training_columns = (clf.table_bytes_ - 12 * 0) // (table.VECTOR_COPIES * 8)
    assert training_columns < dense_columns + clf.n_present_keys_  # fewer keys
    assert clf.layout_.n_private == 0 and clf.n_present_keys_ > 0
    estimate = table.estimate_train_bytes(len(X), 16, 12, 1)
    assert clf.table_bytes_ <= 1.01 * estimate  # an estimate, not a bound
    assert table.largest_fitting_degree(len(X), 16, 12, 1, estimate) == 12


def test_save_load_round_trip(data, tmp_path):
    X, y, X_new = data
    clf = WDLinearSVC(degree=10, shift=1).fit(X, y)
    clf.save(tmp_path / "m.npz")
    back = load_model(tmp_path / "m.npz")
    assert isinstance(back, WDLinearSVC) and back.sparse
    assert back.n_present_keys_ == clf.n_present_keys_
    assert back.n_exact_orders_ == 10
    assert_array_equal(back.decision_function(X_new), clf.decision_function(X_new))
    assert back.explicit_weights().nnz == clf.explicit_weights().nnz


def test_old_format_file_still_loads(data, tmp_path):
    """A version-1 file (before the table: no ``sparse``, hashed orders)."""
    X, y, X_new = data
    clf = WDLinearSVC(degree=8, exact_size=500, sparse=False).fit(X, y)
    clf.save(tmp_path / "new.npz")
    with np.load(tmp_path / "new.npz") as f:
        arrays = {name: f[name] for name in f.files}
    assert int(arrays.pop("format_version")) == 2
    del arrays["format"], arrays["poimkit_version"], arrays["sparse"]
    write_npz(tmp_path / "old.npz", "poimkit.WDLinearSVC", 1, arrays)
    old = WDLinearSVC.load(tmp_path / "old.npz")
    assert old.sparse is False and old.n_exact_orders_ == clf.n_exact_orders_
    assert_array_equal(old.decision_function(X_new), clf.decision_function(X_new))
    write_npz(tmp_path / "future.npz", "poimkit.WDLinearSVC", 3, arrays)
    with pytest.raises(InputError, match="version 3 is not supported"):
        WDLinearSVC.load(tmp_path / "future.npz")


@pytest.mark.parametrize("shift", [0, 2])
def test_item_cache_gives_the_lookups_passes(data, shift):
    """The cached items (all, some or no orders) give bitwise the same passes."""
    from poimkit.svm.linear.cache import build_cache
    from poimkit.svm.linear.passes import LocalBackend

    X, y, _ = data
    clf = WDLinearSVC(degree=8, exact_size=4**2 * 16, shift=shift).fit(X, y)
    layout = clf.layout_
    assert layout.n_dense == 2 and layout.n_exact == 8
    chunks = [X[:50], X[50:]]
    full = build_cache(chunks[0], layout, 2**40)
    assert (full[0][2:] >= 0).all() and (full[0][:2] == -1).all()
    size = full[1].nbytes + full[2].nbytes + full[3].nbytes  # what build_cache counts
    some = build_cache(chunks[0], layout, size // 2)
    assert (some[0][2] >= 0) and (some[0][-1] == -1)  # some orders, not all
    rng = np.random.default_rng(0)
    v = rng.normal(size=layout.n_columns + 1)
    c = rng.normal(size=len(X)) * (rng.random(len(X)) < 0.7)  # some rows inactive
    passes = []
    for budget in (0, size, 2**40):  # size: some orders of the second chunk
        backend = LocalBackend(chunks, layout, cache_budget=budget)
        passes.append((backend.margins(v), backend.gradient(c)))
    assert (backend.caches[0][0][2:] >= 0).all()  # every sparse order cached
    for margins, gradient in passes[1:]:
        assert_array_equal(margins, passes[0][0])
        assert_array_equal(gradient, passes[0][1])


@pytest.mark.parametrize("shift", [0, 1])
def test_item_cache_over_several_blocks(shift):
    """Chunks of several row blocks: cached and looked-up passes agree bitwise."""
    from poimkit.svm.linear._features import BLOCK
    from poimkit.svm.linear.passes import LocalBackend

    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, size=(2 * BLOCK + 37, 10), dtype=np.uint8)
    y = rng.integers(0, 2, size=300)
    clf = WDLinearSVC(degree=6, exact_size=4**2 * 9, shift=shift).fit(X[:300], y)
    layout = clf.layout_
    assert layout.n_dense == 2 and layout.n_exact == 6
    v = rng.normal(size=layout.n_columns + 1)
    c = rng.normal(size=len(X)) * (rng.random(len(X)) < 0.6)
    chunks = [X[: BLOCK + 5], X[BLOCK + 5 :]]  # blocks of a chunk start at its row 0
    looked_up = LocalBackend(chunks, layout)
    cached = LocalBackend(chunks, layout, cache_budget=2**40)
    assert (cached.caches[0][0][2:] >= 0).all() and cached.caches[0][2].size
    assert_array_equal(cached.margins(v), looked_up.margins(v))
    assert_array_equal(cached.gradient(c), looked_up.gradient(c))
    # one thread: one run of two blocks per chunk, each region walked for both
    one = LocalBackend(chunks, layout, n_threads=1, cache_budget=2**40)
    assert_array_equal(one.margins(v), looked_up.margins(v))
    assert_array_equal(one.gradient(c), looked_up.gradient(c))


@settings(max_examples=40, deadline=None)
@given(
    count=st.lists(st.integers(0, 4), min_size=1, max_size=6),
    n_seg=st.integers(0, 4),
    data=st.data(),
)
def test_place_regions_leaves_room_per_segment(count, n_seg, data):
    """Each region: its shared keys, then each segment's room in segment order."""
    from poimkit.svm.linear._table import place_regions

    count = np.array(count, dtype=np.int64)
    seg = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, 3), min_size=count.size, max_size=count.size),
                min_size=n_seg,
                max_size=n_seg,
            )
        ),
        dtype=np.int64,
    ).reshape(n_seg, count.size)
    keys_in = np.arange(1, count.sum() + 1, dtype=np.uint64)
    size = int(count.sum() + seg.sum())
    out = np.empty(count.size, np.int64), np.zeros(size, np.uint64), np.zeros(size)
    at = place_regions(count, keys_in, keys_in * 0.5, seg, *out)
    assert_array_equal(out[0], count + seg.sum(axis=0))
    start = np.cumsum(out[0]) - out[0]
    for r, shared in enumerate(np.split(keys_in, np.cumsum(count)[:-1])):
        assert_array_equal(out[1][start[r] : start[r] + count[r]], shared)
        assert_array_equal(out[2][start[r] : start[r] + count[r]], shared * 0.5)
        for g in range(n_seg):
            assert at[g, r] == start[r] + count[r] + seg[:g, r].sum()


@pytest.mark.parametrize("shift", [0, 2])
def test_collected_keys_match_enumeration(shift):
    """Shared keys per (order, position) and private norms, by brute force.

    Sequences copied in part from others share long k-mers, so every order
    has shared and private features (WD collects an order's candidates from
    the previous order's shared ones).
    """
    rng = np.random.default_rng(3)
    n, length, degree, first = 60, 14, 9, 3
    X = rng.integers(0, 4, size=(n, length), dtype=np.uint8)
    for i in range(0, n, 3):  # a stretch of another sequence, same place
        a, b = sorted(rng.integers(0, length, size=2))
        X[i, a : b + 1] = X[(i + 7) % n, a : b + 1]
    factors = rng.uniform(0.5, 1.5, size=(degree, length, shift + 1))
    present = table.collect_present_keys(
        [X[:25], X[25:]], degree, shift, first, 0, 2**40, factors
    )
    assert present.n_orders == degree - first + 1
    private_sq, n_private = np.zeros(n), 0
    for o, k in enumerate(range(first, degree + 1)):
        n_pos = length - k + 1
        km = np.zeros((n, n_pos), dtype=np.uint64)
        for t in range(k):
            km = km * np.uint64(4) + X[:, t : t + n_pos].astype(np.uint64)
        flat = np.split(present.keys[o], np.cumsum(present.counts[o])[:-1])
        for r in range(n_pos):
            value: dict = {}
            for i in range(n):
                for p in range(r, min(r + shift + 1, n_pos)):
                    row = value.setdefault(int(km[i, p]) + 1, {})
                    row[i] = row.get(i, 0.0) + factors[k - 1, p, p - r]
            shared = {key for key, rows in value.items() if len(rows) > 1}
            assert set(flat[r].tolist()) == shared, (k, r)
            for rows in value.values():
                if len(rows) == 1:
                    ((i, v),) = rows.items()
                    private_sq[i] += v * v
                    n_private += 1
    assert present.counts[-1].sum() > 0  # shared keys up to the top order
    assert 0 < n_private == present.n_private
    assert_allclose(present.private_norm, np.sqrt(private_sq), rtol=1e-12)


def test_collection_makes_the_item_cache(monkeypatch):
    """WD: the items made from the collection's slots are the looked-up ones,
    also when the positions of an order are collected in several batches."""
    from poimkit.svm.linear import _table
    from poimkit.svm.linear.cache import build_cache

    rng = np.random.default_rng(5)
    X = rng.integers(0, 4, size=(2000, 16), dtype=np.uint8)
    X[::4, 3:12] = X[1::4, 3:12]  # long shared k-mers
    chunks = [X[:1500], X[1500:]]
    model = WDLinearSVC(degree=8, exact_size=4**2 * 16)
    model.length_, model.kernel_scale_ = 16, 1.0
    base = model._make_layout(None)
    factors = base.coef[:, None, None] * base.band
    calls = []
    collect = _table.collect
    monkeypatch.setattr(_table, "collect", lambda *a: calls.append(1) or collect(*a))
    # 2**22: three orders fit, the third collected in batches of positions
    for budget, n_orders in ((2**40, 6), (2**22, 3)):
        calls.clear()
        items: list = []
        present = table.collect_present_keys(
            chunks, 8, 0, 3, base.offsets[2], budget, factors, items
        )
        assert present.n_orders == len(items) == n_orders
        assert len(calls) >= 2 * n_orders
        layout = model._make_layout(present)
        for c, Xc in enumerate(chunks):
            made = build_cache(Xc, layout, 2**40, [order[c] for order in items])
            looked_up = build_cache(Xc, layout, 2**40)
            assert made[1].shape[0] > 0 and made[2].size > 0
            for a, b in zip(made, looked_up, strict=True):
                assert_array_equal(a, b)
    assert len(calls) > 2 * 3  # the small budget did batch the positions
