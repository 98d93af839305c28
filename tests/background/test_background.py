import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit.alphabet import encode, kmer_index, kmer_indices
from poimkit.background import MarkovBackground, check_background
from poimkit.errors import InputError

from ..naive import all_sequences, kmer_probabilities_naive

# --------------------------------------------------------------------- helpers


def random_chain(rng, order, length, positional, alpha=1.0, sparsity=0.0):
    """Chain with Dirichlet(alpha) rows; a fraction ``sparsity`` of entries zeroed."""
    n_states = 4**order

    def rows(shape):
        p = rng.dirichlet(np.full(shape[-1], alpha), size=shape[:-1])
        if sparsity:
            drop = rng.random(p.shape) < sparsity
            drop &= p < p.max(axis=-1, keepdims=True)  # keep each row's largest
            p = np.where(drop, 0.0, p)
            p /= p.sum(axis=-1, keepdims=True)
        return p

    initial = rows((n_states,))
    n_steps = length - order
    if positional:
        trans = rows((n_steps, n_states, 4))
    else:
        trans = np.broadcast_to(rows((n_states, 4)), (n_steps, n_states, 4))
    return MarkovBackground(initial, trans, positional=positional)


def stationary_chain(rng, order, length, alpha=3.0):
    """Homogeneous chain started in its stationary D-gram distribution."""
    n_states = 4**order
    step = rng.dirichlet(np.full(4, alpha), size=n_states)
    if order == 0:
        return MarkovBackground(np.ones(1), np.broadcast_to(step, (length, 1, 4)))
    move = np.zeros((n_states, n_states))
    for s in range(n_states):
        for a in range(4):
            move[s, (4 * s + a) % n_states] += step[s, a]
    values, vectors = np.linalg.eig(move.T)
    pi = np.real(vectors[:, np.argmin(np.abs(values - 1.0))])
    pi = np.abs(pi) / np.abs(pi).sum()
    return MarkovBackground(pi, np.broadcast_to(step, (length - order, n_states, 4)))


def check_against_brute_force(bg):
    X = all_sequences(bg.length)
    prob = np.exp(bg.log_probability(X))
    assert_allclose(prob.sum(), 1.0, rtol=1e-12)
    for k in range(1, bg.length + 1):
        index = kmer_indices(X, k)
        for j in range(bg.length - k + 1):
            brute = np.bincount(index[:, j], weights=prob, minlength=4**k)
            fast = bg.kmer_probabilities(k, j)
            assert fast.shape == (4**k,)
            assert_allclose(fast.sum(), 1.0, rtol=1e-12)
            assert_allclose(fast, brute, rtol=1e-10, atol=1e-15)
    marg = bg.marginals()
    assert marg.shape == (bg.length - bg.order + 1, 4**bg.order)
    assert_allclose(marg.sum(axis=1), 1.0, rtol=1e-12)
    if bg.order:
        for t in range(bg.length - bg.order + 1):
            assert_allclose(
                marg[t],
                kmer_probabilities_naive(bg, bg.order, t),
                rtol=1e-10,
                atol=1e-15,
            )
    else:
        assert_allclose(marg, 1.0)


# ------------------------------------------------------------------- uniform


def test_uniform():
    bg = MarkovBackground.uniform(5)
    assert (bg.order, bg.length, bg.positional) == (0, 5, False)
    assert bg.initial.tolist() == [1.0]
    assert bg.transitions.shape == (5, 1, 4)
    assert_allclose(bg.transitions, 0.25)
    for k in range(1, 6):
        for j in range(5 - k + 1):
            assert_allclose(bg.kmer_probabilities(k, j), 4.0**-k, rtol=1e-14)
    assert bg.kmer_probability(kmer_index("GATTA"), 5, 0) == 4.0**-5
    assert_allclose(bg.marginals(), np.ones((6, 1)))
    assert_allclose(bg.log_probability(encode(["ACGTA", "TTTTT"])), 5 * np.log(0.25))
    assert repr(bg) == "MarkovBackground(order=0, length=5, positional=False)"


def test_from_letter_probabilities():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    bg = MarkovBackground.from_letter_probabilities(p, length=3)
    assert (bg.order, bg.length, bg.positional) == (0, 3, False)
    assert_allclose(bg.kmer_probability(kmer_index("CGT"), 3, 0), 0.2 * 0.3 * 0.4)
    rows = np.array([[1.0, 0, 0, 0], [0.5, 0.5, 0, 0], [0.25] * 4])
    pos = MarkovBackground.from_letter_probabilities(rows)
    assert (pos.order, pos.length, pos.positional) == (0, 3, True)
    assert_allclose(pos.kmer_probabilities(1, 1), rows[1])
    assert_allclose(pos.kmer_probability(kmer_index("AC"), 2, 0), 0.5)
    assert pos.kmer_probability(kmer_index("CA"), 2, 0) == 0.0
    with pytest.raises(InputError, match="length is required"):
        MarkovBackground.from_letter_probabilities(p)
    with pytest.raises(InputError, match="length is 4 but p has shape"):
        MarkovBackground.from_letter_probabilities(rows, length=4)
    with pytest.raises(InputError, match=r"p has shape \(5,\)"):
        MarkovBackground.from_letter_probabilities(np.full(5, 0.2), length=3)


def test_hand_computed_order_one():
    # Pr(AC at 0) = 0.5 * 0.1; Pr(C at 1) = 0.5 * 0.1 + 0.5 * 0.3
    trans = np.array([[[0.9, 0.1, 0, 0], [0.2, 0.3, 0.5, 0], [0.25] * 4, [0.25] * 4]])
    bg = MarkovBackground([0.5, 0.5, 0, 0], trans)
    assert_allclose(bg.kmer_probability(kmer_index("AC"), 2, 0), 0.05)
    assert_allclose(bg.kmer_probabilities(1, 1), [0.55, 0.2, 0.25, 0.0])
    assert_allclose(bg.marginals(), [[0.5, 0.5, 0, 0], [0.55, 0.2, 0.25, 0.0]])
    assert bg.log_probability(encode(["CT"]))[0] == -np.inf


# ------------------------------------------------------------ brute force


@pytest.mark.parametrize(
    ("order", "length"),
    [
        (order, length)
        for order in range(4)
        for length in (1, 2, 3, 4, 6)
        if length >= order
    ],
)
@pytest.mark.parametrize("positional", [False, True])
def test_probabilities_match_brute_force(order, positional, length):
    rng = np.random.default_rng(100 * order + 10 * length + positional)
    bg = random_chain(rng, order, length, positional)
    check_against_brute_force(bg)
    # the scalar version agrees with the vector version
    for k in range(1, length + 1):
        for j in range(length - k + 1):
            table = bg.kmer_probabilities(k, j)
            for z in rng.integers(0, 4**k, size=3):
                assert_allclose(
                    bg.kmer_probability(int(z), k, j), table[z], rtol=1e-12, atol=1e-300
                )


def test_sparse_chain_matches_brute_force():
    rng = np.random.default_rng(7)
    bg = random_chain(rng, 2, 5, positional=True, sparsity=0.5)
    assert np.any(bg.transitions == 0)
    check_against_brute_force(bg)


@settings(max_examples=100, deadline=None)
@given(
    order=st.integers(0, 3),
    extra=st.integers(0, 2),
    positional=st.booleans(),
    sparsity=st.sampled_from([0.0, 0.3]),
    seed=st.integers(0, 2**32 - 1),
)
def test_property_random_chains(order, extra, positional, sparsity, seed):
    length = max(order, 1) + extra
    bg = random_chain(
        np.random.default_rng(seed), order, length, positional, sparsity=sparsity
    )
    check_against_brute_force(bg)


# ------------------------------------------------------------------ fitting


@pytest.mark.parametrize("order", [1, 2])
def test_fit_recovers_homogeneous_chain(order):
    rng = np.random.default_rng(order)
    truth = stationary_chain(rng, order, length=30)
    X = truth.sample(20_000, random_state=rng)
    bg = MarkovBackground.fit(X, order=order)
    assert (bg.order, bg.length, bg.positional) == (order, 30, False)
    # one matrix repeated at every position
    assert np.all(bg.transitions == bg.transitions[0])
    assert_allclose(bg.transitions[0], truth.transitions[0], atol=0.02)
    assert_allclose(bg.initial, truth.initial, atol=0.01)


@pytest.mark.parametrize("order", [1, 2])
def test_fit_recovers_positional_chain(order):
    rng = np.random.default_rng(10 + order)
    length, n = 5, 100_000
    truth = random_chain(rng, order, length, positional=True, alpha=5.0)
    X = truth.sample(n, random_state=rng)
    bg = MarkovBackground.fit(X, order=order, positional=True)
    assert (bg.order, bg.length, bg.positional) == (order, length, True)
    # tolerance from the number of times each state was seen (5 standard errors)
    states = kmer_indices(X, order)[:, : length - order]
    seen = np.stack(
        [np.bincount(states[:, t], minlength=4**order) for t in range(length - order)]
    )
    tol = 5 * np.sqrt(0.25 / np.maximum(seen, 1)) + 4.0 / np.maximum(seen, 1)
    assert np.all(np.abs(bg.transitions - truth.transitions) <= tol[:, :, None])
    assert_allclose(bg.initial, truth.initial, atol=5 * np.sqrt(0.25 / n) + 1e-3)


def test_fit_order_zero_and_pseudocounts():
    X = encode(["AAC", "AAG"])
    bg = MarkovBackground.fit(X, pseudocount=0)
    assert_allclose(bg.transitions[0, 0], [4 / 6, 1 / 6, 1 / 6, 0])
    pos = MarkovBackground.fit(X, positional=True, pseudocount=0)
    assert_allclose(
        pos.transitions[:, 0], [[1, 0, 0, 0], [1, 0, 0, 0], [0, 0.5, 0.5, 0]]
    )
    smooth = MarkovBackground.fit(X, positional=True, pseudocount=1.0)
    assert_allclose(smooth.transitions[2, 0], [1 / 6, 2 / 6, 2 / 6, 1 / 6])


def test_fit_counts_by_hand_order_one():
    X = encode(["ACGT", "ACCA"])
    bg = MarkovBackground.fit(X, order=1, pseudocount=0)
    # pooled pairs: AC GT CG | AC CC CA -> after A: C,C; after C: G,C,A; after G: T
    assert_allclose(bg.transitions[0, 0], [0, 1, 0, 0])
    assert_allclose(bg.transitions[0, 1], [1 / 3, 1 / 3, 1 / 3, 0])
    assert_allclose(bg.transitions[0, 2], [0, 0, 0, 1])
    assert_allclose(bg.transitions[0, 3], 0.25)  # never seen: uniform
    # pooled letters over all positions: A 3, C 3, G 1, T 1
    assert_allclose(bg.initial, [3 / 8, 3 / 8, 1 / 8, 1 / 8])
    pos = MarkovBackground.fit(X, order=1, positional=True, pseudocount=0)
    assert_allclose(pos.initial, [1, 0, 0, 0])
    assert_allclose(pos.transitions[1, 1], [0, 0.5, 0.5, 0])  # position 2 after C


def test_fit_full_order_length():
    X = encode(["ACG", "ACT"])
    bg = MarkovBackground.fit(X, order=3, positional=True, pseudocount=0)
    assert bg.transitions.shape == (0, 64, 4)
    assert_allclose(bg.kmer_probability(kmer_index("ACG"), 3, 0), 0.5)
    check_against_brute_force(bg)


# ----------------------------------------------------------------- sampling


def test_sample_frequencies_match_probabilities():
    rng = np.random.default_rng(3)
    bg = random_chain(rng, 2, 3, positional=True, alpha=2.0)
    n = 100_000
    X = bg.sample(n, random_state=np.random.default_rng(4))
    assert X.dtype == np.uint8 and X.shape == (n, 3)
    counts = np.bincount(kmer_indices(X, 3)[:, 0], minlength=64)
    expected = n * np.exp(bg.log_probability(all_sequences(3)))
    chi2 = np.sum((counts - expected) ** 2 / expected)
    df = 63
    assert chi2 < df + 6 * np.sqrt(2 * df)


def test_sample_is_seeded_and_avoids_zero_probabilities():
    trans = np.array([[[0.0, 0.5, 0.5, 0.0]] * 4] * 5)
    bg = MarkovBackground([0.0, 0.0, 0.0, 1.0], trans)
    X = bg.sample(5_000, random_state=1)
    assert np.all(X[:, 0] == 3)
    assert set(np.unique(X[:, 1:])) == {1, 2}
    assert np.array_equal(X, bg.sample(5_000, random_state=np.random.default_rng(1)))
    assert bg.sample(0, random_state=0).shape == (0, 6)
    with pytest.raises(InputError, match="random_state must be"):
        bg.sample(3, random_state="seed")


# --------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("initial", "transitions", "match"),
    [
        (np.ones((1, 1)), np.full((3, 1, 4), 0.25), r"initial has shape \(1, 1\)"),
        (np.full(5, 0.2), np.full((3, 1, 4), 0.25), "initial has 5 entries"),
        (np.full(256, 1 / 256), np.full((3, 256, 4), 0.25), "order 4 is above"),
        (np.ones(1), np.full((3, 4, 4), 0.25), r"transitions has shape \(3, 4, 4\)"),
        (np.ones(1), np.full((3, 4), 0.25), r"transitions has shape \(3, 4\)"),
        (np.full(4, 0.25), np.full((3, 4, 3), 1 / 3), r"shape \(L - D, 4, 4\)"),
        (np.ones(1), np.zeros((0, 1, 4)), "at least one position"),
        (np.full(4, 0.3), np.full((3, 4, 4), 0.25), "initial sums to"),
        (np.ones(1), np.full((3, 1, 4), np.nan), "finite and non-negative"),
        (np.ones(1), np.array([[[1.5, -0.5, 0, 0]]]), r"transitions\[0, 0, 1\] is -0"),
    ],
)
def test_constructor_validation(initial, transitions, match):
    with pytest.raises(InputError, match=match):
        MarkovBackground(initial, transitions)


def test_row_sum_error_names_position_and_state():
    trans = np.full((3, 4, 4), 0.25)
    trans[1, 2] = [0.5, 0.5, 0.5, 0.0]
    with pytest.raises(
        InputError,
        match=r"transitions\[1, 2\].*position 3 after the "
        r"state 'G'.*sums to 1.5",
    ):
        MarkovBackground(np.full(4, 0.25), trans)


def test_rows_are_renormalised_within_tolerance():
    trans = np.full((2, 1, 4), 0.25 + 1e-11)
    bg = MarkovBackground(np.ones(1), trans)
    assert_allclose(bg.transitions.sum(axis=2), 1.0, rtol=1e-15)
    with pytest.raises(InputError, match="sums to"):
        MarkovBackground(np.ones(1), np.full((2, 1, 4), 0.25 + 1e-8))


def test_positional_flag_inferred():
    same = np.full((3, 1, 4), 0.25)
    assert MarkovBackground(np.ones(1), same).positional is False
    diff = same.copy()
    diff[0, 0] = [1, 0, 0, 0]
    assert MarkovBackground(np.ones(1), diff).positional is True
    assert MarkovBackground(np.ones(1), same, positional=True).positional is True


def test_fit_validation():
    X = encode(["ACGT", "ACGA"])
    with pytest.raises(InputError, match="order must be an integer 0..3, got 4"):
        MarkovBackground.fit(X, order=4)
    with pytest.raises(InputError, match="pseudocount must be a finite number >= 0"):
        MarkovBackground.fit(X, pseudocount=-1)
    with pytest.raises(InputError, match="pseudocount"):
        MarkovBackground.fit(X, pseudocount=float("nan"))
    with pytest.raises(InputError, match="shorter than the chain order"):
        MarkovBackground.fit(X[:, :2], order=3)
    with pytest.raises(InputError, match="codes must be 0..3"):
        MarkovBackground.fit(np.array([[0, 1, 4]]))
    with pytest.raises(InputError, match=r"X has shape \(4,\)"):
        MarkovBackground.fit(np.array([0, 1, 2, 3]))
    with pytest.raises(InputError, match="positional must be True or False"):
        MarkovBackground.fit(X, positional="yes")


def test_method_argument_validation():
    bg = MarkovBackground.uniform(4)
    with pytest.raises(InputError, match="k must be an integer 1..4, got 5"):
        bg.kmer_probabilities(5, 0)
    with pytest.raises(InputError, match="position must be an integer 0..2, got 3"):
        bg.kmer_probabilities(2, 3)
    with pytest.raises(InputError, match="kmer_index must be an integer in 0..15"):
        bg.kmer_probability(16, 2, 0)
    with pytest.raises(InputError, match="length 3 but the background is for length 4"):
        bg.log_probability(encode(["ACG"]))
    with pytest.raises(InputError, match="length must be an integer >= 1"):
        MarkovBackground.uniform(0)


# -------------------------------------------------------------- persistence


@pytest.mark.parametrize("positional", [False, True])
def test_arrays_round_trip(positional):
    bg = random_chain(np.random.default_rng(5), 2, 6, positional)
    buffer = io.BytesIO()
    np.savez(buffer, **bg.to_arrays())
    buffer.seek(0)
    with np.load(buffer, allow_pickle=False) as data:
        back = MarkovBackground.from_arrays({key: data[key] for key in data.files})
    assert (back.order, back.length, back.positional) == (2, 6, positional)
    assert np.array_equal(back.initial, bg.initial)
    assert np.array_equal(back.transitions, bg.transitions)
    assert repr(back) == repr(bg)


def test_from_arrays_missing_key():
    with pytest.raises(InputError, match="lack transitions"):
        MarkovBackground.from_arrays({"initial": np.ones(1)})


def test_check_background_names_the_type_and_both_lengths():
    bg = MarkovBackground.uniform(5)
    assert check_background(bg) is bg
    assert check_background(bg, 5) is bg
    with pytest.raises(InputError, match="must be a MarkovBackground, got ndarray"):
        check_background(np.full(4, 0.25))
    with pytest.raises(
        InputError, match="background is for length 5 but the model scores length 7"
    ):
        check_background(bg, 7)
    with pytest.raises(InputError, match="for length 5 but x has length 3"):
        check_background(bg, 3, against="x has")


def test_fit_pooled_reads_a_generator_like_a_list():
    seqs = [encode([s])[0] for s in ("ACAG", "AC", "GGTT")]
    from_list = MarkovBackground.fit_pooled(seqs, 1, 5, pseudocount=0)
    from_generator = MarkovBackground.fit_pooled(iter(seqs), 1, 5, pseudocount=0)
    np.testing.assert_array_equal(from_generator.transitions, from_list.transitions)
    np.testing.assert_array_equal(from_generator.initial, from_list.initial)


@pytest.mark.parametrize("pseudocount", [-1.0, np.nan, np.inf])
def test_fit_pooled_rejects_a_pseudocount_fit_rejects(pseudocount):
    seqs = [encode(["ACGTACGT"])[0]]
    for fit in (
        lambda: MarkovBackground.fit(seqs[0][None, :], 1, pseudocount=pseudocount),
        lambda: MarkovBackground.fit_pooled(seqs, 1, 8, pseudocount=pseudocount),
    ):
        with pytest.raises(InputError, match="pseudocount must be a finite number"):
            fit()
