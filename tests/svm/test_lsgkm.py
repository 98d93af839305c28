"""LS-GKM model files: exact scores of kernel types 0, 1, 2; writing GkmSVC models."""

from itertools import combinations

import numpy as np
import pytest
from numpy.testing import assert_allclose

from poimkit import GkmSVC
from poimkit.alphabet import decode
from poimkit.errors import InputError
from poimkit.kernels.gkm import hamming_eigenvalues, self_kernel, windows
from poimkit.kernels.lsgkm import table_eigenvalues
from poimkit.svm.lsgkm import (
    LsgkmModel,
    mismatch_table,
    read_lsgkm,
    write_lsgkm,
)

from ..naive import lsgkm_score_naive


def random_strings(rng, n, low, high):
    return [
        "".join("ACGT"[c] for c in rng.integers(0, 4, rng.integers(low, high + 1)))
        for _ in range(n)
    ]


def model_text(kernel, l, k, d, support, coef, rho, norc=0):
    head = [
        "svm_type c_svc",
        f"kernel_type {kernel}",
        f"L {l}",
        f"k {k}",
        f"d {d}",
        f"norc {norc}",
        "nr_class 2",
        f"total_sv {len(support)}",
        f"rho {rho}",
        "label 1 -1",
        "SV",
    ]
    return (
        "\n".join(head + [f"{c} {s}" for c, s in zip(coef, support, strict=True)])
        + "\n"
    )


def test_gkm_table_counts_shared_gapped_kmers():
    """T[m] of -t 0 is the number of k-subsets of positions avoiding m mismatches."""
    l, k = 6, 3
    table = mismatch_table(0, l, k)
    for m in range(l + 1):
        shared = sum(1 for s in combinations(range(l), k) if all(p >= m for p in s))
        assert table[m] == shared


def test_eigenvalues_of_gkm_table_match_the_closed_form():
    """The Krawtchouk eigenvalues of the -t 0 table equal GkmSVC's closed form."""
    for l, k in [(4, 2), (5, 5), (6, 3)]:
        assert_allclose(
            table_eigenvalues(mismatch_table(0, l, k), l),
            hamming_eigenvalues(l, k),
            atol=1e-12,
        )


@pytest.mark.parametrize("kernel_type", [0, 1, 2])
def test_table_weights_equal_pairwise_sum(kernel_type):
    """The WHT l-mer table gives sum_v T[d(u, v)] for every l-mer u."""
    l, k, d = 4, 2, 2
    table = mismatch_table(kernel_type, l, k, d)
    rng = np.random.default_rng(1)
    c = rng.normal(size=4**l)
    f = c.copy()
    from poimkit.kernels import _gkm

    _gkm.walsh_hadamard(f)
    f *= table_eigenvalues(table, l)
    _gkm.walsh_hadamard(f)
    u = np.arange(4**l)
    dist = np.zeros((4**l, 4**l), dtype=int)
    for p in range(l):
        a = (u >> (2 * p)) & 3
        dist += a[:, None] != a[None, :]
    assert_allclose(f, table[dist] @ c, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kernel", ["gkm_cnt", "gkm_estfull", "gkm_esttrunc", "2"])
@pytest.mark.parametrize("norc", [0, 1])
def test_hand_written_file_scores_as_the_kernel_expansion(tmp_path, kernel, norc):
    """No peer needed: a written file's scores against the brute-force expansion."""
    rng = np.random.default_rng(2)
    l, k, d = 5, 3, 2
    support = random_strings(rng, 6, 8, 20)
    coef = rng.normal(size=6).round(6)
    rho = 0.25
    path = tmp_path / "model.txt"
    path.write_text(model_text(kernel, l, k, d, support, coef, rho, norc))
    model = read_lsgkm(path)
    test = random_strings(rng, 12, 5, 25)
    kernel_type = {"gkm_cnt": 0, "gkm_estfull": 1, "gkm_esttrunc": 2, "2": 2}[kernel]
    table = mismatch_table(kernel_type, l, k, d)
    expected = [
        lsgkm_score_naive(support, coef, rho, table, l, norc == 0, x) for x in test
    ]
    assert model.kernel_type == kernel_type
    assert model.reverse_complement == (norc == 0)
    assert_allclose(model.decision_function(test), expected, rtol=1e-10, atol=1e-12)


def test_estimated_table_is_zero_above_d():
    table = mismatch_table(2, 8, 5, 3)
    assert np.all(table[:4] > 0) and np.all(table[4:] == 0)
    assert np.all(np.diff(table[:4]) < 0)


@pytest.mark.parametrize("rc", [True, False])
@pytest.mark.parametrize("normalize", [True, False])
def test_written_gkmsvc_scores_with_lsgkm_normalisation(tmp_path, rc, normalize):
    """write_lsgkm then read_lsgkm: s_LS = b + (s - b) a(x) / sqrt(K(x, x)) exactly."""
    rng = np.random.default_rng(3)
    pos = [s[:8] + "GATTACA" + s[15:] for s in random_strings(rng, 25, 30, 40)]
    neg = random_strings(rng, 25, 30, 40)
    clf = GkmSVC(l=5, k=3, reverse_complement=rc, normalize=normalize).fit(
        pos + neg, [1] * 25 + [0] * 25
    )
    path = tmp_path / "gkm.model.txt"
    write_lsgkm(clf, path)
    model = read_lsgkm(path)
    test = random_strings(rng, 30, 20, 50)
    seqs = [np.array(["ACGT".index(c) for c in s], dtype=np.uint8) for s in test]
    b = clf.intercept_
    factor = clf._scale(windows(seqs, 5)) / np.sqrt(self_kernel(seqs, 5, 3, rc))
    expected = b + (clf.decision_function(test) - b) * factor
    assert_allclose(model.decision_function(test), expected, rtol=1e-9, atol=1e-12)
    # the support sequences are the GkmSVC's
    assert (
        decode(np.stack(model.support[:1]))[0]
        == decode(np.stack(clf.support_sequences()[:1]))[0]
    )
    # the constructor from the read numbers scores the same
    again = LsgkmModel(
        0, 5, 3, 3, model.support, model.dual_coef_, -model.intercept_, rc
    )
    assert_allclose(again.decision_function(test), model.decision_function(test))


def bad_file(tmp_path, text):
    path = tmp_path / "bad.model.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("ACGTACGT", "ACGNACGT"), "line 13.*'N' at position 4"),
        (lambda t: t.replace("kernel_type gkm_cnt", "kernel_type gkmrbf"), "'gamma'"),
        (lambda t: t.replace("kernel_type gkm_cnt", "kernel_type foo"), "unknown"),
        (lambda t: t.replace("kernel_type gkm_cnt\n", ""), "no 'kernel_type'"),
        (lambda t: t.replace("total_sv 2", "total_sv 3"), "total_sv says 3"),
        (lambda t: t.replace("L 5", "L x"), "line 3.*bad value"),
        (lambda t: t.replace("0.5 ACGTACGT", "0.5ACGTACGT"), "line 13"),
        (lambda t: t.replace("SV\n", ""), "no 'SV' line"),
        (lambda t: t.replace("L 5", "L 13"), "l <= 12"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path, edit, message):
    text = model_text("gkm_cnt", 5, 3, 2, ["TTGACCA", "ACGTACGT"], [-1.0, 0.5], 0.1)
    path = bad_file(tmp_path, edit(text))
    with pytest.raises(InputError, match=message) as info:
        read_lsgkm(path)
    assert str(path) in str(info.value)


# ------------------------------------------------------------- against the peer
@pytest.mark.parametrize("kernel_type", [0, 1, 2])
@pytest.mark.parametrize("rc", [True, False])
def test_scores_equal_gkmsvm_lite(tmp_path, kernel_type, rc):
    """Models trained and saved by gkmsvm-lite score the same in poimkit."""
    gkmsvm = pytest.importorskip("gkmsvm")
    rng = np.random.default_rng(4)
    pos = [s[:10] + "GATTACAG" + s[18:] for s in random_strings(rng, 30, 40, 40)]
    neg = random_strings(rng, 30, 40, 40)
    peer = gkmsvm.train_gkmsvm(
        pos, neg, kernel_type=kernel_type, l=6, k=4, d=2, include_rc=rc, device="cpu"
    )
    path = tmp_path / "peer.model.txt"
    gkmsvm.save_lsgkm(peer, path)
    test = random_strings(rng, 60, 40, 40)
    theirs = peer(np.stack([gkmsvm.one_hot_encode(s) for s in test]))[:, 0]
    ours = read_lsgkm(path).decision_function(test)
    spread = float(theirs.max() - theirs.min())
    assert np.abs(ours - theirs).max() <= 1e-5 * spread


@pytest.mark.parametrize("rc", [True, False])
def test_gkmsvm_lite_scores_written_gkmsvc(tmp_path, rc):
    """gkmsvm-lite's loader scores a written GkmSVC as read_lsgkm does."""
    gkmsvm = pytest.importorskip("gkmsvm")
    rng = np.random.default_rng(5)
    pos = [s[:8] + "GATTACA" + s[15:] for s in random_strings(rng, 25, 36, 36)]
    neg = random_strings(rng, 25, 36, 36)
    clf = GkmSVC(l=6, k=4, reverse_complement=rc).fit(pos + neg, [1] * 25 + [0] * 25)
    path = tmp_path / "gkm.model.txt"
    write_lsgkm(clf, path)
    test = random_strings(rng, 40, 36, 36)
    peer = gkmsvm.load_lsgkm_model(path)
    theirs = peer(np.stack([gkmsvm.one_hot_encode(s) for s in test]))[:, 0]
    ours = read_lsgkm(path).decision_function(test)
    spread = float(theirs.max() - theirs.min())
    assert np.abs(ours - theirs).max() <= 1e-5 * spread
