import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit import WDKernelSVC
from poimkit.alphabet import kmer_index, kmer_string
from poimkit.background import MarkovBackground, kmer_probability_table
from poimkit.datasets import load_gattaca, make_gattaca
from poimkit.errors import InputError
from poimkit.kernels.explicit import KmerWeights
from poimkit.poim import Poim, compute_poim, explain_instance
from poimkit.poim.engine import exact_poim
from poimkit.poim.exact import estimate_bytes
from poimkit.poim.reference import instance_reference, poim_reference

from ..factories import make_weights, random_chain

L = 7


def assert_poims_equal(got, expected):
    assert len(got) == len(expected)
    for q_got, q_exp in zip(got, expected, strict=True):
        assert q_got.shape == q_exp.shape
        assert_allclose(q_got, q_exp, rtol=1e-9, atol=1e-12)


@pytest.fixture(scope="module")
def small_models():
    X, y = make_gattaca(
        n_pos=60, n_neg=60, length=L, motif="GATT", mean=3, sd=1, random_state=3
    )
    return {
        "wd": WDKernelSVC(degree=5).fit(X, y),
        "wd_long": WDKernelSVC(degree=20, normalize=False).fit(X, y),
        "wds": WDKernelSVC(degree=4, shift=2).fit(X, y),
    }, X


def backgrounds(X):
    rng = np.random.default_rng(11)
    return {
        "uniform": MarkovBackground.uniform(L),
        "positional0": MarkovBackground.fit(X, order=0, positional=True),
        "order1": MarkovBackground.fit(X, order=1),
        "order1_positional": random_chain(rng, 1, L, positional=True),
        "order2": random_chain(rng, 2, L, positional=False),
        "order2_positional": MarkovBackground.fit(X, order=2, positional=True),
        "order3": random_chain(rng, 3, L, positional=True),
    }


@pytest.mark.parametrize("model_name", ["wd", "wd_long", "wds"])
@pytest.mark.parametrize(
    "background_name",
    [
        "uniform",
        "positional0",
        "order1",
        "order1_positional",
        "order2",
        "order2_positional",
        "order3",
    ],
)
def test_trained_models_match_brute_force(small_models, model_name, background_name):
    models, X = small_models
    model = models[model_name]
    background = backgrounds(X)[background_name]
    expected = poim_reference(model.decision_function, background, L)
    poim = compute_poim(model, L, background)
    assert_poims_equal([poim.q(l) for l in range(1, L + 1)], expected)


@pytest.mark.parametrize("progress", [False, True])
@pytest.mark.parametrize("n_blocks", [1, 2, 5])
@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_random_weights_any_block_split(order, n_blocks, progress):
    """Weights not from an SVM (any sign, k-mers absent from data, degree > K).

    With a progress bar the blocks go to the kernel a thread's worth per call.
    """
    rng = np.random.default_rng(order * 10 + n_blocks)
    length = 6
    entries = {}
    for _ in range(40):
        k = int(rng.integers(1, length + 1))
        i = int(rng.integers(0, length - k + 1))
        entries[(k, i, int(rng.integers(0, 4**k)))] = float(rng.normal())
    weights = make_weights(length, entries, bias=0.7)
    background = random_chain(rng, order, length, positional=True)
    expected = poim_reference(weights.decision_function, background, 3)
    got = exact_poim(weights, background, 3, n_blocks=n_blocks, progress=progress)
    assert_poims_equal(got, expected)


def test_zero_probability_letters_give_zero():
    length = 6
    background = MarkovBackground.from_letter_probabilities(
        [0.5, 0.0, 0.3, 0.2], length
    )
    weights = make_weights(
        length, {(2, 1, "AG"): 1.5, (3, 2, "CAT"): -2.0, (4, 0, "GATT"): 0.8}
    )
    expected = poim_reference(weights.decision_function, background, 4)
    got = exact_poim(weights, background, 4)
    assert_poims_equal(got, expected)
    assert np.all(got[1][:, kmer_index("CA")] == 0.0)


def test_law_of_total_expectation(small_models):
    models, X = small_models
    background = backgrounds(X)["order2"]
    poim = compute_poim(models["wds"], 5, background)
    for l in range(1, 6):
        p = kmer_probability_table(background, l)
        assert_allclose((p * poim.q(l)).sum(axis=1), 0.0, atol=1e-12)


def test_instance_explanation_matches_reference(small_models):
    models, X = small_models
    background = backgrounds(X)["order1"]
    x = X[0]
    got = explain_instance(models["wd"], x, 4, background)
    expected = instance_reference(models["wd"].decision_function, background, x, 4)
    for g, e in zip(got, expected, strict=True):
        assert_allclose(g, e, rtol=1e-9, atol=1e-12)
    as_string = explain_instance(
        models["wd"], "".join("ACGT"[c] for c in x), 4, background
    )
    assert_allclose(as_string[3], got[3])


def test_gattaca_top_order7_entry():
    _, X, y = load_gattaca()
    model = WDKernelSVC(degree=20).fit(X, y)
    poim = compute_poim(model, 7)
    kmer, position, value = poim.top(1, order=7)[0]
    assert kmer == "GATTACA"
    assert 30 <= position <= 40
    assert value > 0


@pytest.fixture(scope="module")
def toy_poim():
    weights = make_weights(6, {(3, 2, "GAT"): 2.0, (1, 0, "C"): -1.0})
    return compute_poim(weights, 4)


def test_top_lists_strongest_first_with_1_based_positions(toy_poim):
    top = toy_poim.top(5)
    values = [abs(v) for _, _, v in top]
    assert values == sorted(values, reverse=True)
    assert top[0][:2] == ("GAT", 3)  # 0-based start 2
    assert top[0][2] == pytest.approx(2.0 * (1 - 4**-3))
    assert all(len(k) == 3 for k, _, _ in toy_poim.top(4, order=3))


def test_derived_views_follow_their_definitions(toy_poim):
    for l in range(1, 5):
        q = toy_poim.q(l)
        assert_allclose(toy_poim.weight_mass(l), np.abs(q).sum(axis=1))
        assert_allclose(toy_poim.max_abs(l), np.abs(q).max(axis=1))
        p = kmer_probability_table(toy_poim.background, l)
        assert_allclose(toy_poim.firm(l), q * np.sqrt((1 - p) / p))
    diff = toy_poim.differential()
    assert diff.shape == (4, 6)
    q2, q3 = toy_poim.max_abs(2), toy_poim.max_abs(3)
    for j in range(4):
        assert diff[2, j] == pytest.approx(q3[j] - max(q2[j], q2[j + 1]))
    assert np.isnan(diff[2, 4:]).all()
    # the planted 3-mer at start 2 is where the differential POIM peaks for l = 3
    assert int(np.nanargmax(diff[2])) == 2


def test_save_load_and_tsv(tmp_path, toy_poim):
    path = tmp_path / "poim.npz"
    toy_poim.save(path)
    loaded = Poim.load(path)
    for l in range(1, 5):
        assert_allclose(loaded.q(l), toy_poim.q(l), rtol=0, atol=0)
    assert loaded.metadata == toy_poim.metadata
    assert loaded.background.order == 0
    toy_poim.write_top(tmp_path / "top.tsv", n=3)
    lines = (tmp_path / "top.tsv").read_text().splitlines()
    assert lines[0] == "kmer\tlength\tposition\tvalue"
    assert lines[1].startswith("GAT\t3\t3\t")
    (tmp_path / "bad.npz").write_bytes(b"nope")
    with pytest.raises(InputError, match="bad.npz"):
        Poim.load(tmp_path / "bad.npz")
    with pytest.raises(InputError, match="not found"):
        Poim.load(tmp_path / "missing.npz")


def test_memory_guard_and_argument_errors(toy_poim):
    weights = make_weights(6, {(2, 0, "AC"): 1.0})
    with pytest.raises(InputError, match="max-order"):
        compute_poim(weights, 5, memory_limit=1000)
    assert estimate_bytes(100, 7) > 8 * sum((101 - l) * 4**l for l in range(1, 8))
    with pytest.raises(InputError, match="max_order"):
        compute_poim(weights, 7)
    with pytest.raises(InputError, match="length 6"):
        compute_poim(weights, 2, MarkovBackground.uniform(8))
    with pytest.raises(InputError, match="explicit_weights"):
        compute_poim(object(), 2)
    with pytest.raises(InputError, match="order must be"):
        toy_poim.q(9)


def test_kmer_probability_table_matches_background():
    rng = np.random.default_rng(2)
    for order in range(4):
        background = random_chain(rng, order, 6, positional=True)
        for l in range(1, 7):
            table = kmer_probability_table(background, l)
            for j in range(6 - l + 1):
                assert_allclose(
                    table[j], background.kmer_probabilities(l, j), rtol=1e-12
                )


def test_weights_can_be_given_directly():
    weights = KmerWeights.from_support_vectors(
        np.array([[0, 1, 2, 3, 0]], dtype=np.uint8), np.array([1.0]), 0.0, degree=3
    )
    poim = compute_poim(weights, 2)
    assert kmer_string(int(np.argmax(poim.q(2)[0])), 2) == "AC"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), l=st.integers(1, 6), data=st.data())
def test_independent_letters_marginalise_as_the_enumeration(seed, l, data):
    """Order 0: the axis-by-axis contraction equals enumerating every string."""
    from poimkit.poim import _position_free
    from poimkit.poim.position_free import _letter_tables, _spans

    m = data.draw(st.integers(1, l + 3))
    rng = np.random.default_rng(seed)
    f = rng.normal(size=4**l)
    letters = rng.dirichlet(np.ones(4))
    pi, trans = np.ones(1), letters[None, :]
    offsets, spans = _spans(l, m, 0)
    width = 4 ** int((spans[:, 1] - spans[:, 0]).max())
    enumerated, contracted = np.zeros((2, offsets.size, width))
    args = (f, l, m, 0, pi, trans, offsets, spans, enumerated)
    _position_free.overlap_tables(*args)
    mean = _letter_tables(f, l, letters, offsets, spans, contracted)
    np.testing.assert_allclose(contracted, enumerated, rtol=1e-10, atol=1e-12)
    before, after = np.zeros(1), np.zeros(1)
    expected = _position_free.outside_terms(f, l, 0, pi, trans, before, after)
    assert np.isclose(mean, expected, rtol=1e-10, atol=1e-12)
    assert np.allclose([before[0], after[0]], expected, rtol=1e-10, atol=1e-12)
