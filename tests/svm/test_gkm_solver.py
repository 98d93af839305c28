"""GkmSVC's linear solver: the gkm kernel through the l-mer table, no matrix."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.metrics import roc_auc_score

import poimkit.svm.gkm_solver as gkm_solver
from poimkit import GkmSVC, gkm_kernel, load_model
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.io import read_npz, write_npz
from poimkit.kernels.gkm import self_kernel, windows
from poimkit.poim import compute_poim
from poimkit.poim.reference import poim_reference
from poimkit.svm.gkm_solver import LmerGram, fit_sequence_space

from ..naive import gkm_kernel_naive
from .test_gkm import planted, random_sequences


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), l=st.integers(1, 8), data=st.data())
def test_self_kernel_is_the_diagonal(seed, l, data):
    """K(x, x) per record, against the definition (both strands and one)."""
    k = data.draw(st.integers(1, l))
    rc = data.draw(st.booleans())
    seqs = random_sequences(np.random.default_rng(seed), 5, l, l + 25)
    expected = [gkm_kernel_naive(x, x, l, k, rc) for x in seqs]
    assert_allclose(self_kernel(seqs, l, k, rc), expected, rtol=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), l=st.integers(1, 7), data=st.data())
def test_lmer_gram_is_the_kernel_matrix_product(seed, l, data):
    """``K u`` through two Walsh-Hadamard transforms equals the matrix product."""
    k = data.draw(st.integers(1, l))
    rc = data.draw(st.booleans())
    rng = np.random.default_rng(seed)
    seqs = random_sequences(rng, 12, l, l + 20)
    scale = rng.uniform(0.5, 3.0, len(seqs))
    u = rng.normal(size=len(seqs))
    K = gkm_kernel(seqs, l=l, k=k, reverse_complement=rc) / np.outer(scale, scale)
    got = LmerGram(seqs, scale, l, k, rc, None).gram(u)
    assert_allclose(got, K @ u, rtol=1e-9, atol=1e-9 * np.abs(K).sum())


@pytest.mark.parametrize("rc", [False, True])
def test_linear_solver_reaches_the_l2svm_optimum(rc):
    """At the solution the coefficients satisfy the squared hinge's optimality.

    For ``min 0.5 c^T K c + C sum max(0, 1 - y_i f_i)**2`` with ``f = K c + b``
    (b free): ``c_i = 2 C max(0, 1 - y_i f_i) y_i`` and ``sum_i c_i = 0``; the
    problem is strictly convex in the scores, so this identifies the optimum.
    """
    rng = np.random.default_rng(1)
    seqs = random_sequences(rng, 50, 10, 30)
    y = np.where(np.arange(50) % 2, 1.0, -1.0)
    scale = np.sqrt(rng.uniform(5.0, 9.0, 50))
    gram = LmerGram(seqs, scale, 5, 3, rc, None)
    C = 0.7
    res = fit_sequence_space(gram, y, C, 1e-11, 5000)
    assert res.converged
    c, b = res.coef[:-1], res.coef[-1]
    K = gkm_kernel(seqs, l=5, k=3, reverse_complement=rc) / np.outer(scale, scale)
    f = K @ c + b
    assert_allclose(c, 2 * C * np.maximum(0, 1 - y * f) * y, atol=1e-7)
    assert abs(c.sum()) < 1e-7
    assert 0 < np.count_nonzero(np.maximum(0, 1 - y * f) > 1e-6) < 50


@pytest.mark.parametrize("normalize", [True, False])
@pytest.mark.parametrize("rc", [False, True])
def test_linear_model_is_its_kernel_expansion(rc, normalize):
    """Support sequences, coefficients and kappa make the same model as the kernel's."""
    rng = np.random.default_rng(2)
    seqs = random_sequences(rng, 80, 12, 40)
    y = np.arange(80) % 2
    params = {"l": 5, "k": 3, "reverse_complement": rc, "normalize": normalize}
    solver = {"solver": "linear", "tol": 1e-9, "max_iter": 5000}
    model = GkmSVC(**params, **solver).fit(seqs, y)
    kernel = GkmSVC(**params, solver="kernel").fit(seqs, y)
    assert (model.solver_, kernel.solver_) == ("linear", "kernel")
    assert model.kernel_scale_ == pytest.approx(kernel.kernel_scale_, rel=1e-12)
    new = random_sequences(rng, 10, 5, 60)
    support = model.support_sequences()
    K = gkm_kernel(support + new, l=5, k=3, reverse_complement=rc)
    scale = np.sqrt(model.kernel_scale_ * windows(support + new, 5))
    if not normalize:
        scale = np.ones(len(support + new))
    Kn = (K / np.outer(scale, scale))[len(support) :, : len(support)]
    expected = Kn @ model.dual_coef_ + model.intercept_
    assert_allclose(model.decision_function(new), expected, rtol=1e-9, atol=1e-12)
    # and the training optimum is the one of that kernel: the matrix solver agrees
    matrix = GkmSVC(**params, **solver)
    matrix._fit_gram(seqs, y, matrix._raw_kernel(seqs))
    assert model.converged_ and matrix.converged_
    assert_allclose(
        model.decision_function(new), matrix.decision_function(new), atol=1e-5
    )


def test_solvers_agree_on_a_planted_motif():
    """The squared-hinge and hinge SVMs of one kernel rank held-out records alike."""
    rng = np.random.default_rng(0)
    X, y = planted(rng, 400, 60, "TGACTCAG")
    Xt, yt = planted(rng, 400, 60, "TGACTCAG")
    scores = {
        solver: GkmSVC(l=8, k=5, solver=solver).fit(X, y).decision_function(Xt)
        for solver in ("kernel", "linear")
    }
    aucs = {s: roc_auc_score(yt, v) for s, v in scores.items()}
    assert aucs["linear"] > 0.95
    assert abs(aucs["linear"] - aucs["kernel"]) < 0.01
    assert np.corrcoef(scores["linear"], scores["kernel"])[0, 1] > 0.95


def test_auto_solver_by_size(monkeypatch):
    monkeypatch.setattr(gkm_solver, "KERNEL_MAX_RECORDS", 50)
    seqs = random_sequences(np.random.default_rng(3), 60, 10, 20)
    y = np.arange(60) % 2
    assert GkmSVC(l=4, k=2).fit(seqs, y).solver_ == "linear"
    assert GkmSVC(l=4, k=2).fit(seqs[:50], y[:50]).solver_ == "kernel"
    assert GkmSVC(l=4, k=2)._solver_for(50) == "kernel"
    weighted = GkmSVC(l=4, k=2, class_weight="balanced")
    assert weighted.fit(seqs, y).solver_ == "kernel"
    assert GkmSVC(l=13, k=2)._solver_for(10**6) == "kernel"
    with pytest.raises(InputError, match="needs l <= 12"):
        GkmSVC(l=13, k=2, solver="linear").fit(seqs, y)
    with pytest.raises(InputError, match="no class_weight"):
        GkmSVC(l=4, k=2, solver="linear", class_weight="balanced").fit(seqs, y)
    with pytest.raises(InputError, match="solver must be one of"):
        GkmSVC(l=4, k=2, solver="dual").fit(seqs, y)


@pytest.mark.parametrize("rc", [False, True])
def test_linear_solver_on_the_matrix_is_the_table_solver(rc):
    """The selection's shared matrix trains the same squared-hinge model."""
    seqs = random_sequences(np.random.default_rng(6), 70, 10, 40)
    y = np.arange(70) % 2
    model = GkmSVC(l=5, k=3, reverse_complement=rc, solver="linear", tol=1e-10)
    table = clone(model).fit(seqs, y)
    matrix = clone(model)._fit_gram(seqs, y, model._raw_kernel(seqs))
    assert matrix.solver_ == "linear" and table.converged_ and matrix.converged_
    new = random_sequences(np.random.default_rng(7), 10, 10, 40)
    assert_allclose(
        matrix.decision_function(new), table.decision_function(new), atol=1e-7
    )
    assert_allclose(matrix.intercept_, table.intercept_, atol=1e-7)


def test_linear_model_poim_is_exact():
    seqs = random_sequences(np.random.default_rng(4), 60, 8, 30)
    model = GkmSVC(l=4, k=2, solver="linear").fit(seqs, np.arange(60) % 2)
    background = MarkovBackground.uniform(6)
    poim = compute_poim(model, 3, background)
    expected = poim_reference(model.decision_function, background, 3)
    for l in range(1, 4):
        assert_allclose(poim.q(l), expected[l - 1], rtol=1e-9, atol=1e-12)


def test_save_load_keeps_the_solver(tmp_path):
    seqs = random_sequences(np.random.default_rng(5), 40, 8, 30)
    model = GkmSVC(l=4, k=2, solver="linear", max_iter=50).fit(seqs, np.arange(40) % 2)
    path = tmp_path / "gkm.npz"
    model.save(path)
    again = load_model(path)
    assert again.get_params() == model.get_params()
    assert_allclose(again.decision_function(seqs), model.decision_function(seqs))
    # a file written before the solvers existed was trained on the kernel matrix
    arrays = read_npz(path, "poimkit.GkmSVC", 1)
    old = {
        k: v
        for k, v in arrays.items()
        if k not in ("solver", "max_iter", "format", "format_version")
    }
    old.pop("poimkit_version", None)
    write_npz(tmp_path / "old.npz", "poimkit.GkmSVC", 1, old)
    assert load_model(tmp_path / "old.npz").get_params()["solver"] == "kernel"


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 12),
    parts=st.integers(1, 6),
    l=st.integers(1, 6),
    rc=st.booleans(),
)
def test_counts_by_parts_add_up_to_the_counts(seed, n, parts, l, rc):
    """Each part's l-mer counts, summed, are the counts of every row at once."""
    from poimkit.kernels import _gkm
    from poimkit.kernels.gkm import strands

    rng = np.random.default_rng(seed)
    seqs = random_sequences(rng, n, l, l + 20)
    codes, offsets, _ = strands(seqs, False)
    coef = rng.normal(size=n) * (rng.random(n) < 0.7)  # some rows add nothing
    whole = np.zeros(4**l)
    _gkm.lmer_counts(codes, offsets, coef, l, rc, whole)
    tables = np.zeros((parts, 4**l))
    _gkm.lmer_counts_parts(codes, offsets, coef, l, rc, tables)
    assert_allclose(tables.sum(axis=0), whole, rtol=1e-12, atol=1e-12)
    # each part holds its own rows' counts
    first = n // parts
    alone = np.zeros(4**l)
    _gkm.lmer_counts(codes, offsets[: first + 1], coef[:first], l, rc, alone)
    assert_allclose(tables[0], alone, rtol=0, atol=0)


def test_the_table_is_the_same_on_any_number_of_threads(monkeypatch):
    """The parts are fixed by l, so the sum's order does not follow the threads."""
    seqs = random_sequences(np.random.default_rng(4), 300, 30, 60)
    u = np.random.default_rng(5).normal(size=300)
    one = LmerGram(seqs, np.ones(300), 6, 3, True, 1).table(u)
    two = LmerGram(seqs, np.ones(300), 6, 3, True, 2).table(u)
    np.testing.assert_array_equal(one, two)
    assert gkm_solver.count_parts(11) == gkm_solver.COUNT_PARTS
    monkeypatch.setattr(gkm_solver, "COUNT_PARTS_BYTES", 8 * 4**11)
    assert gkm_solver.count_parts(11) == 1 and gkm_solver.count_parts(12) == 1
