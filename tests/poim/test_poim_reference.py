import numpy as np
import pytest
from numpy.testing import assert_allclose

from poimkit.alphabet import encode, kmer_index, kmer_indices
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.kernels.explicit import KmerWeights
from poimkit.poim.reference import (
    enumerate_sequences,
    expected_score_reference,
    instance_reference,
    poim_reference,
)

from ..factories import make_weights, random_chain
from ..naive import uniform_poim_single_weight

# --------------------------------------------------------------------- helpers


def table_score(rng, length):
    """An arbitrary score: one random value per sequence."""
    table = rng.normal(size=4**length)
    return lambda X: table[kmer_indices(X, length)[:, 0]]


# --------------------------------------------------------------- enumeration


def test_enumerate_sequences_in_index_order():
    for length in (1, 3, 5):
        X = enumerate_sequences(length)
        assert X.dtype == np.uint8 and X.shape == (4**length, length)
        assert np.array_equal(kmer_indices(X, length)[:, 0], np.arange(4**length))
    assert enumerate_sequences(4)[kmer_index("GATT")].tolist() == [2, 0, 3, 3]
    with pytest.raises(InputError, match=r"length must be an integer in 1..8"):
        enumerate_sequences(9)
    with pytest.raises(InputError, match="got 0"):
        enumerate_sequences(0)


# ---------------------------------------------------------- hand-checkable


@pytest.mark.parametrize(
    ("length", "k", "i", "y", "w"),
    [
        (4, 1, 0, "C", 0.7),
        (6, 2, 1, "GA", 1.5),
        (5, 3, 2, "TTA", -2.0),
        (6, 4, 0, "ACGT", 3.0),
    ],
)
def test_single_weight_under_uniform(length, k, i, y, w):
    weights = make_weights(length, {(k, i, y): w}, bias=0.3)
    bg = MarkovBackground.uniform(length)
    q = poim_reference(weights.decision_function, bg, length)
    shapes = [(length - m + 1, 4**m) for m in range(1, length + 1)]
    assert [a.shape for a in q] == shapes
    yi = kmer_index(y)
    # the feature's own window
    expected = np.full(4**k, -w * 4.0**-k)
    expected[yi] = w * (1 - 4.0**-k)
    assert_allclose(q[k - 1][i], expected, rtol=1e-12)
    for width in range(1, length + 1):
        for j in range(length - width + 1):
            if j + width <= i or j >= i + k:  # window does not overlap (i, k)
                assert_allclose(q[width - 1][j], 0.0, atol=1e-13)
        # every window against the overlap formula
        assert_allclose(
            q[width - 1],
            uniform_poim_single_weight(length, k, i, yi, w, width),
            rtol=1e-12,
            atol=1e-13,
        )
    assert_allclose(
        expected_score_reference(weights.decision_function, bg),
        0.3 + w * 4.0**-k,
        rtol=1e-12,
    )


def test_wd_model_under_uniform_is_sum_of_single_weights():
    rng = np.random.default_rng(0)
    length = 5
    sv = rng.integers(0, 4, size=(4, length)).astype(np.uint8)
    weights = KmerWeights.from_support_vectors(
        sv, rng.normal(size=4), bias=-0.2, degree=3, shift=1
    )
    q = poim_reference(weights.decision_function, MarkovBackground.uniform(length), 3)
    for width in range(1, 4):
        expected = np.zeros_like(q[width - 1])
        for k in range(1, weights.max_order + 1):
            indptr, kmers, values = weights.order(k)
            for i in range(length - k + 1):
                for y, w in zip(
                    kmers[indptr[i] : indptr[i + 1]],
                    values[indptr[i] : indptr[i + 1]],
                    strict=True,
                ):
                    expected += uniform_poim_single_weight(
                        length, k, i, int(y), w, width
                    )
        assert_allclose(q[width - 1], expected, rtol=1e-10, atol=1e-12)


def test_order_one_chain_correlates_distant_positions():
    """Order-1 'stay' chain: Pr(stay) = p, else each other letter (1 - p) / 3.

    Its transition matrix has eigenvalues 1 and lam = p - (1 - p) / 3 (three
    times), so Pr(X_{t+n} = b | X_t = a) = 1/4 + (3/4) lam**n if a = b, else
    1/4 - (1/4) lam**n. With the uniform start the chain is stationary and
    reversible, and for the score s(x) = w I(x_3 = A):

        Q_1(a, j) = w (Pr(X_3 = A | X_j = a) - 1/4)
                  = w (3/4) lam**(3-j) if a = A, else -w (1/4) lam**(3-j).
    """
    p, w, length = 0.7, 2.0, 4
    lam = p - (1 - p) / 3  # 0.6
    stay = np.full((4, 4), (1 - p) / 3)
    np.fill_diagonal(stay, p)
    bg = MarkovBackground(np.full(4, 0.25), np.broadcast_to(stay, (3, 4, 4)))

    def score(X):
        return w * (X[:, 3] == 0)

    q = poim_reference(score, bg, 2)
    for j in range(length):
        n = 3 - j
        expected = np.full(4, -w * lam**n / 4)
        expected[0] = 0.75 * w * lam**n
        assert_allclose(q[0][j], expected, rtol=1e-12)
    # position 1 does not overlap the feature at 4, yet its Q is not zero:
    assert_allclose(q[0][0], [0.324, -0.108, -0.108, -0.108], rtol=1e-12)
    # a 2-mer window at 0 sees the feature only through its last letter
    assert_allclose(q[1][0], np.tile(q[0][1], 4), rtol=1e-12)
    # the same holds backwards: a feature at 1 seen from the window at 4
    q_back = poim_reference(lambda X: w * (X[:, 0] == 0), bg, 1)
    assert_allclose(q_back[0][3], q[0][0], rtol=1e-12)
    # under an order-0 background the same windows have no effect at all
    q_iid = poim_reference(score, MarkovBackground.uniform(length), 1)
    assert_allclose(q_iid[0][:3], 0.0, atol=1e-14)
    assert_allclose(q_iid[0][3], [0.75 * w, -w / 4, -w / 4, -w / 4], rtol=1e-12)


def test_zero_probability_kmers_get_zero():
    bg = MarkovBackground.from_letter_probabilities([0.5, 0.5, 0.0, 0.0], 3)
    weights = make_weights(3, {(1, 0, "A"): 1.0, (2, 1, "CG"): 5.0})
    q = poim_reference(weights.decision_function, bg, 3)
    for width in range(1, 4):
        for j in range(3 - width + 1):
            prob = bg.kmer_probabilities(width, j)
            assert np.all(q[width - 1][j][prob == 0] == 0.0)
    assert_allclose(q[0][0], [0.5, -0.5, 0, 0], rtol=1e-12)
    x = encode(["AGA"])[0]
    inst = instance_reference(weights.decision_function, bg, x, 2)
    assert_allclose(inst[0], [0.5, 0.0, 0.0], atol=1e-14)
    assert_allclose(inst[1], [0.0, 0.0], atol=0)


# ------------------------------------------------------------- identities


@pytest.mark.parametrize(
    ("order", "positional"),
    [(0, False), (0, True), (1, False), (1, True), (2, True), (3, False), (3, True)],
)
def test_law_of_total_expectation(order, positional):
    rng = np.random.default_rng(order + 10 * positional)
    length = 5
    bg = random_chain(rng, order, length, positional)
    score = table_score(rng, length)
    q = poim_reference(score, bg, length)
    for width in range(1, length + 1):
        for j in range(length - width + 1):
            prob = bg.kmer_probabilities(width, j)
            assert abs(prob @ q[width - 1][j]) < 1e-13
            if j + width < length:
                # Q_l(z, j) = sum_u Pr(zu at j | z at j) Q_{l+1}(zu, j)
                longer = bg.kmer_probabilities(width + 1, j).reshape(-1, 4)
                joint = (longer * q[width][j].reshape(-1, 4)).sum(axis=1)
                seen = prob > 0
                assert_allclose(
                    joint[seen] / prob[seen],
                    q[width - 1][j][seen],
                    rtol=1e-9,
                    atol=1e-12,
                )


def test_linearity_in_the_weights():
    rng = np.random.default_rng(42)
    length = 6
    bg = random_chain(rng, 2, length, positional=True)
    w1 = make_weights(
        length, {(1, 2, "A"): 1.0, (3, 0, "GGC"): -0.5, (2, 4, "TT"): 2.0}
    )
    w2 = make_weights(length, {(1, 5, "C"): 0.3, (2, 1, "AG"): 1.2})
    a, b, c = 2.5, -1.5, 7.0

    def combined(X):
        return a * w1.decision_function(X) + b * w2.decision_function(X) + c

    q1 = poim_reference(w1.decision_function, bg, 3)
    q2 = poim_reference(w2.decision_function, bg, 3)
    q12 = poim_reference(combined, bg, 3)
    for m in range(3):
        assert_allclose(q12[m], a * q1[m] + b * q2[m], rtol=1e-10, atol=1e-13)
    e1 = expected_score_reference(w1.decision_function, bg)
    e2 = expected_score_reference(w2.decision_function, bg)
    assert_allclose(
        expected_score_reference(combined, bg), a * e1 + b * e2 + c, rtol=1e-12
    )


def test_expected_score_matches_direct_average():
    rng = np.random.default_rng(3)
    bg = random_chain(rng, 1, 4, positional=True)
    score = table_score(rng, 4)
    X = enumerate_sequences(4)
    direct = np.sum(np.exp(bg.log_probability(X)) * score(X))
    assert_allclose(expected_score_reference(score, bg), direct, rtol=1e-12)


def test_instance_reference_picks_the_sequence_kmers():
    rng = np.random.default_rng(9)
    length = 5
    bg = random_chain(rng, 1, length, positional=False)
    score = table_score(rng, length)
    q = poim_reference(score, bg, 3)
    x = encode(["GATTA"])
    inst = instance_reference(score, bg, x[0], 3)
    assert [v.shape for v in inst] == [(5,), (4,), (3,)]
    for width in range(1, 4):
        idx = kmer_indices(x, width)[0]
        assert_allclose(
            inst[width - 1], q[width - 1][np.arange(length - width + 1), idx]
        )
    # direct definition for one entry: E[s | X[1:3] = AT] - E[s]
    X = enumerate_sequences(length)
    prob = np.exp(bg.log_probability(X))
    s = score(X)
    match = (X[:, 1] == 0) & (X[:, 2] == 3)
    direct = (prob[match] @ s[match]) / prob[match].sum() - prob @ s
    assert_allclose(inst[1][1], direct, rtol=1e-10)
    assert_allclose(instance_reference(score, bg, x, 1)[0], inst[0])


# -------------------------------------------------------------- validation


def test_reference_validation():
    bg = MarkovBackground.uniform(3)
    ok = lambda X: np.zeros(X.shape[0])  # noqa: E731
    with pytest.raises(InputError, match="enumeration of all 4"):
        poim_reference(ok, MarkovBackground.uniform(9), 1)
    with pytest.raises(InputError, match=r"max_order must be an integer in 1..3"):
        poim_reference(ok, bg, 4)
    with pytest.raises(InputError, match=r"score returned shape \(64, 1\)"):
        poim_reference(lambda X: np.zeros((X.shape[0], 1)), bg, 1)
    with pytest.raises(InputError, match="non-finite"):
        expected_score_reference(lambda X: np.full(X.shape[0], np.nan), bg)
    with pytest.raises(InputError, match="score must be a callable"):
        poim_reference(np.zeros(64), bg, 1)
    with pytest.raises(InputError, match="background must be a MarkovBackground"):
        poim_reference(ok, "uniform", 1)
    with pytest.raises(InputError, match=r"x has shape \(1, 4\)"):
        instance_reference(ok, bg, [0, 1, 2, 3], 1)
    with pytest.raises(InputError, match="codes must be 0..3"):
        instance_reference(ok, bg, [0, 1, 7], 1)
