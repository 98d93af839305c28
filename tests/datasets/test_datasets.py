import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.alphabet import decode, encode, reverse_complement
from poimkit.background import MarkovBackground
from poimkit.datasets import (
    GATTACA_BUNDLE,
    GATTACA_SEED,
    PlantedMotif,
    expected_pwm,
    load_gattaca,
    make_gattaca,
    make_motif_data,
    make_planted,
    mutate_copies,
    plant_motif,
    planting_pwm,
    random_dna,
    sample_copies,
    sample_starts,
    write_dataset,
    write_gattaca_data,
)
from poimkit.errors import InputError
from poimkit.io import read_labeled

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "data" / "gattaca"
MOTIF = encode("GATTACA")[0]
M = len(MOTIF)


@pytest.fixture(scope="module")
def big():
    """4000 positives, 3000 negatives with the paper's parameters."""
    return make_gattaca(n_pos=4000, n_neg=3000, random_state=123, return_starts=True)


def planted(X, starts):
    rows = np.flatnonzero(starts >= 0)
    return X[rows[:, None], starts[rows, None] + np.arange(M)]


def test_seeded_determinism():
    a = make_gattaca(n_pos=50, n_neg=50, random_state=7)
    b = make_gattaca(n_pos=50, n_neg=50, random_state=7)
    c = make_gattaca(n_pos=50, n_neg=50, random_state=8)
    d = make_gattaca(n_pos=50, n_neg=50, random_state=np.random.default_rng(7))
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(a[0], d[0])
    assert not np.array_equal(a[0], c[0])
    np.testing.assert_array_equal(random_dna(4, 9, 3), random_dna(4, 9, 3))


def test_shapes_labels_and_order(big):
    X, y, starts = big
    assert X.shape == (7000, 100) and X.dtype == np.uint8
    assert y.dtype == np.int64 and y.tolist() == [1] * 4000 + [0] * 3000
    assert starts.dtype == np.int64
    assert (starts[:4000] >= 0).all() and (starts[4000:] == -1).all()
    X2, y2 = make_gattaca(n_pos=4000, n_neg=3000, random_state=123)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


def test_motif_position_distribution(big):
    _, _, starts = big
    first = starts[:4000] + 1  # 1-based position of the motif's first letter
    # rounding a normal leaves the mean and adds variance 1/12
    assert abs(first.mean() - 35) < 4 * 7 / np.sqrt(4000)
    assert abs(first.std() - np.sqrt(49 + 1 / 12)) < 0.3
    assert first.min() >= 1 and first.max() <= 100 - M + 1


def test_planted_copies_have_one_mutation_and_quarter_exact(big):
    X, _, starts = big
    copies = planted(X, starts)
    mismatches = (copies != MOTIF).sum(axis=1)
    assert mismatches.max() <= 1
    exact = (mismatches == 0).mean()
    assert abs(exact - 0.25) < 4 * np.sqrt(0.25 * 0.75 / 4000)


def test_planting_pwm_matches_planted_columns(big):
    X, _, starts = big
    pwm = planting_pwm("GATTACA")
    assert pwm.shape == (M, 4)
    np.testing.assert_allclose(pwm.sum(axis=1), 1.0)
    consensus = 1 - 1 / M + 1 / (4 * M)
    np.testing.assert_allclose(pwm[np.arange(M), MOTIF], consensus)
    np.testing.assert_allclose(np.sort(pwm, axis=1)[:, :3], 1 / (4 * M))
    copies = planted(X, starts)
    freq = np.stack([np.bincount(copies[:, c], minlength=4) for c in range(M)]) / 4000
    tolerance = 4 * np.sqrt(pwm * (1 - pwm) / 4000)
    assert (np.abs(freq - pwm) <= tolerance).all()


def test_planting_pwm_without_mutation():
    np.testing.assert_array_equal(
        planting_pwm("GATTACA", mutate=False), np.eye(4)[MOTIF]
    )
    X, _, starts = make_gattaca(
        n_pos=200, n_neg=0, mutate=False, random_state=1, return_starts=True
    )
    assert (planted(X, starts) == MOTIF).all()


def near_gattaca_windows(X):
    windows = np.lib.stride_tricks.sliding_window_view(X, M, axis=1)
    return (windows != MOTIF).sum(axis=2) <= 1  # (n, L - M + 1)


def test_negatives_carry_no_signal_beyond_chance(big):
    X, y, _ = big
    negatives = X[y == 0]
    hits = near_gattaca_windows(negatives)
    # a uniform window is within Hamming distance 1 of a 7-mer w.p. 22 / 4**7
    expected = hits.size * 22 / 4**M
    assert abs(hits.sum() - expected) < 5 * np.sqrt(expected)
    # no positional pile-up around the planting site
    assert hits[:, 25:45].mean() < 3 * 22 / 4**M
    freq = np.bincount(negatives.ravel(), minlength=4) / negatives.size
    np.testing.assert_allclose(freq, 0.25, atol=0.005)
    # the positives do pile up there
    assert near_gattaca_windows(X[y == 1])[:, 25:45].mean() > 10 * 22 / 4**M


def test_start_is_clipped_so_the_motif_fits():
    _, _, low = make_gattaca(
        n_pos=300, n_neg=0, length=20, mean=1, sd=5, random_state=0, return_starts=True
    )
    _, _, high = make_gattaca(
        n_pos=300, n_neg=0, length=20, mean=20, sd=5, random_state=0, return_starts=True
    )
    assert low.min() == 0 and high.max() == 20 - M
    _, _, fixed = make_gattaca(
        n_pos=10, n_neg=0, length=20, mean=5, sd=0, random_state=0, return_starts=True
    )
    assert (fixed == 4).all()  # 1-based 5 is 0-based 4


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"motif": "GATNACA"}, "position 4"),
        ({"motif": "ACGT" * 30}, "length 1..length"),
        ({"motif": ""}, "motif"),
        ({"n_pos": -1}, "n_pos"),
        ({"n_pos": 0, "n_neg": 0}, "at least one"),
        ({"n_pos": 2.5}, "int"),
        ({"sd": -1}, "sd"),
        ({"mean": float("nan")}, "mean"),
    ],
)
def test_make_gattaca_rejects_bad_arguments(kwargs, words):
    with pytest.raises(InputError, match=words):
        make_gattaca(**kwargs)


def test_random_dna_is_uniform():
    X = random_dna(500, 100, np.random.default_rng(0))
    assert X.dtype == np.uint8 and X.shape == (500, 100)
    np.testing.assert_allclose(
        np.bincount(X.ravel(), minlength=4) / X.size, 0.25, atol=0.01
    )
    assert random_dna(0, 5, 0).shape == (0, 5)


def test_plant_motif_leaves_unplanted_rows_and_input_alone():
    X = random_dna(3, 12, 0)
    before = X.copy()
    out = plant_motif(X, np.array([-1, 5, 0]), "ACG", mutate=False)
    np.testing.assert_array_equal(X, before)
    np.testing.assert_array_equal(out[0], X[0])
    assert out[1, 5:8].tolist() == [0, 1, 2] and out[2, :3].tolist() == [0, 1, 2]
    with pytest.raises(InputError, match="does not fit"):
        plant_motif(X, np.array([0, 10, 0]), "ACG")
    with pytest.raises(InputError, match="starts"):
        plant_motif(X, np.array([0, 1]), "ACG")


def test_bundled_files_regenerate_byte_identically(tmp_path):
    pos, neg = write_gattaca_data(tmp_path)
    assert pos.read_bytes() == (BUNDLE / "positives.fa").read_bytes()
    assert neg.read_bytes() == (BUNDLE / "negatives.fa").read_bytes()


def test_load_gattaca_after_a_plain_install(tmp_path, monkeypatch):
    """Installed without the source tree, the same data come from their seed."""
    import poimkit.datasets.gattaca as gattaca

    monkeypatch.setattr(gattaca, "_DATA_DIR", tmp_path / "absent")
    ids, X, y = load_gattaca()
    files = read_labeled(BUNDLE / "positives.fa", BUNDLE / "negatives.fa")
    assert ids == files[0]
    np.testing.assert_array_equal(X, files[1])
    np.testing.assert_array_equal(y, files[2])


def test_bundled_data_equals_generator_and_provenance():
    ids, X, y = load_gattaca()
    X_gen, y_gen = make_gattaca(**GATTACA_BUNDLE)
    np.testing.assert_array_equal(X, X_gen)
    np.testing.assert_array_equal(y, y_gen)
    assert ids[:2] == ["pos_0001", "pos_0002"] and ids[2500] == "neg_0001"
    assert (ids, X.shape) == (
        read_labeled(BUNDLE / "positives.fa", BUNDLE / "negatives.fa")[0],
        (5000, 100),
    )
    provenance = (BUNDLE / "PROVENANCE.md").read_text()
    assert f"random_state={GATTACA_SEED}" in provenance
    assert "python scripts/make_gattaca_data.py" in provenance


def test_regeneration_script(tmp_path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_gattaca_data.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "positives.fa" in result.stdout
    for name in ("positives.fa", "negatives.fa"):
        assert (tmp_path / name).read_bytes() == (BUNDLE / name).read_bytes()


# ------------------------------------------------ configurable planted motifs
dna = st.text(alphabet="ACGT", min_size=1, max_size=12)


def copies_of(X, record, g, m):
    """Planted windows of motif g, read back in the motif's own orientation."""
    rows = np.flatnonzero(record.starts[:, g] >= 0)
    at = record.starts[rows, g]
    windows = X[rows[:, None], at[:, None] + np.arange(m)]
    reverse = record.strands[rows, g] == -1
    windows[reverse] = (3 - windows[reverse])[:, ::-1]
    return rows, windows


@settings(max_examples=30, deadline=None)
@given(
    motif=dna,
    n_pos=st.integers(0, 15),
    n_neg=st.integers(0, 15),
    extra=st.integers(0, 20),
    spread=st.sampled_from([0.0, 1.5, 6.0]),
    rc=st.sampled_from([0.0, 0.5, 1.0]),
    seed=st.integers(0, 2**16),
)
def test_make_motif_data_properties(motif, n_pos, n_neg, extra, spread, rc, seed):
    if n_pos + n_neg == 0:
        n_pos = 1
    length = len(motif) + extra
    spec = PlantedMotif(
        motif, length / 2, spread=spread, mutation="none", reverse_complement=rc
    )
    X, y, rec = make_motif_data(
        n_pos, n_neg, length, [spec], random_state=seed, return_record=True
    )
    assert X.shape == (n_pos + n_neg, length) and X.dtype == np.uint8
    assert y.tolist() == [1] * n_pos + [0] * n_neg
    # every positive carries the motif, no negative does; all copies fit
    assert ((rec.starts[:, 0] >= 0) == (y == 1)).all()
    assert (rec.starts[:, 0] <= length - len(motif)).all()
    assert ((rec.strands[:, 0] != 0) == (y == 1)).all()
    # unmutated copies read back as the consensus on their strand
    _, windows = copies_of(X, rec, 0, len(motif))
    assert (windows == encode(motif)[0]).all()
    if rc == 0.0:
        assert (rec.strands[:, 0] >= 0).all()
    if rc == 1.0:
        assert (rec.strands[y == 1, 0] == -1).all()
    # seeded
    X2, y2 = make_motif_data(n_pos, n_neg, length, [spec], random_state=seed)
    np.testing.assert_array_equal(X, X2)


@settings(max_examples=40, deadline=None)
@given(motif=dna, rate=st.floats(0, 1), seed=st.integers(0, 2**16))
def test_mutate_copies_properties(motif, rate, seed):
    codes = np.repeat(encode(motif), 20, axis=0)
    one = mutate_copies(codes, "one", seed)
    assert ((one != codes).sum(axis=1) <= 1).all()
    assert (mutate_copies(codes, "none", seed) == codes).all()
    out = mutate_copies(codes, rate, seed)
    assert out.shape == codes.shape and out.dtype == np.uint8 and out.max() <= 3
    if rate == 0:
        assert (out == codes).all()
    pwm = expected_pwm(PlantedMotif(motif, 1, mutation=rate))
    np.testing.assert_allclose(pwm.sum(axis=1), 1.0)
    assert (pwm[np.arange(len(motif)), encode(motif)[0]] >= 0.25 - 1e-12).all()


def test_expected_pwm_generalises_planting_pwm():
    np.testing.assert_allclose(expected_pwm("GATTACA"), planting_pwm("GATTACA"))
    np.testing.assert_allclose(
        expected_pwm("GATTACA", "none"), planting_pwm("GATTACA", mutate=False)
    )
    np.testing.assert_allclose(
        expected_pwm(PlantedMotif("AC", 1, mutation=0.2)),
        [[0.85, 0.05, 0.05, 0.05], [0.05, 0.85, 0.05, 0.05]],
    )
    pwm = np.array([[0.5, 0.5, 0, 0], [0, 0, 0.2, 0.8]])
    np.testing.assert_allclose(
        expected_pwm(PlantedMotif(pwm, 1, mutation="one")),
        0.5 * pwm + 0.5 / 4,
    )


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        (PlantedMotif("GATTACA", 30, mutation="one"), 6000),
        (PlantedMotif("GGCCGTAAA", 10, mutation=0.3), 6000),
        (
            PlantedMotif(
                np.array([[0.7, 0.1, 0.1, 0.1], [0.25] * 4, [0.0, 0.0, 0.4, 0.6]]),
                5,
                mutation=0.2,
                reverse_complement=0.5,
            ),
            6000,
        ),
    ],
)
def test_planted_frequencies_match_expected_pwm(spec, n):
    X, _, rec = make_motif_data(n, 0, 60, [spec], random_state=11, return_record=True)
    _, windows = copies_of(X, rec, 0, spec.length)
    freq = (
        np.stack([np.bincount(windows[:, c], minlength=4) for c in range(spec.length)])
        / n
    )
    pwm = expected_pwm(spec)
    tolerance = 4.5 * np.sqrt(pwm * (1 - pwm) / n) + 1e-12
    assert (np.abs(freq - pwm) <= tolerance).all()
    # the record keeps the letters before reverse complementing
    np.testing.assert_array_equal(rec.copies[0], windows)


def test_position_distributions():
    n, length = 20000, 100
    fixed = sample_starts(PlantedMotif("ACGTA", 12), n, length, 0)
    assert (fixed == 11).all()
    uniform = sample_starts(PlantedMotif("ACGTA", (10, 19)), n, length, 0)
    counts = np.bincount(uniform - 9, minlength=10)
    assert uniform.min() == 9 and uniform.max() == 18 and counts.size == 10
    expected = n / 10
    assert (np.abs(counts - expected) < 5 * np.sqrt(expected)).all()
    normal = sample_starts(PlantedMotif("ACGTA", 40, spread=6), n, length, 0) + 1
    assert abs(normal.mean() - 40) < 4 * 6 / np.sqrt(n)
    assert abs(normal.std() - np.sqrt(36 + 1 / 12)) < 0.15
    assert np.allclose(normal, np.rint(normal))
    clipped = sample_starts(PlantedMotif("ACGTA", 98, spread=3), n, length, 0)
    assert clipped.max() == length - 5 and (clipped == length - 5).mean() > 0.5


def test_reverse_complement_planting_exact():
    spec = PlantedMotif("GATTACA", 5, mutation="none", reverse_complement=1.0)
    X, _, rec = make_motif_data(3, 0, 20, [spec], random_state=0, return_record=True)
    assert [s[4:11] for s in decode(X)] == ["TGTAATC"] * 3
    assert (rec.strands == -1).all()
    assert decode(reverse_complement(X[:, 4:11])) == ["GATTACA"] * 3
    half = PlantedMotif("GATTACA", 5, mutation="none", reverse_complement=0.5)
    _, _, rec = make_motif_data(4000, 0, 20, [half], random_state=0, return_record=True)
    assert abs((rec.strands == -1).mean() - 0.5) < 4 * 0.5 / np.sqrt(4000)


def test_several_motifs_and_decoys():
    specs = [
        PlantedMotif("GGCCGTAAA", 11, mutation="none", in_negatives=0.25),
        PlantedMotif("TTTCACGTTGA", 24, mutation="none", in_positives=0.5),
    ]
    X, y, rec = make_motif_data(
        3000, 3000, 60, specs, shuffle=True, random_state=2, return_record=True
    )
    assert y.sum() == 3000 and not (y[:3000] == 1).all()  # shuffled
    has = rec.starts >= 0
    assert has[y == 1, 0].all()
    assert abs(has[y == 0, 0].mean() - 0.25) < 4 * np.sqrt(0.25 * 0.75 / 3000)
    assert abs(has[y == 1, 1].mean() - 0.5) < 4 * np.sqrt(0.25 / 3000)
    assert not has[y == 0, 1].any()
    strings = decode(X)
    for i in np.flatnonzero(has[:, 0])[:50]:
        assert strings[i][10:19] == "GGCCGTAAA"
    for i in np.flatnonzero(has[:, 1])[:50]:
        assert strings[i][23:34] == "TTTCACGTTGA"


def test_sample_copies_from_a_pwm():
    pwm = np.array([[1.0, 0, 0, 0], [0, 0.5, 0.5, 0]])
    copies = sample_copies(PlantedMotif(pwm, 1, mutation="none"), 4000, 3)
    assert (copies[:, 0] == 0).all() and np.isin(copies[:, 1], (1, 2)).all()
    assert abs((copies[:, 1] == 1).mean() - 0.5) < 4 * 0.5 / np.sqrt(4000)


def test_random_dna_under_a_markov_background():
    rng = np.random.default_rng(0)
    rows = rng.dirichlet(np.ones(4), size=16)
    chain = MarkovBackground(np.full(16, 1 / 16), np.broadcast_to(rows, (48, 16, 4)))
    X = random_dna(3000, 50, 1, background=chain)
    refit = MarkovBackground.fit(X, order=2, pseudocount=0)
    np.testing.assert_allclose(refit.transitions[0], rows, atol=0.03)
    X2, _ = make_motif_data(
        3000,
        0,
        50,
        [PlantedMotif("ACGT", 1, in_positives=0.0)],
        chain,
        random_state=1,
    )
    np.testing.assert_array_equal(X, X2)  # background drawn first, same seed
    with pytest.raises(InputError, match="length"):
        random_dna(2, 40, 0, background=chain)
    with pytest.raises(InputError, match="MarkovBackground"):
        random_dna(2, 50, 0, background="uniform")


def test_random_dna_without_background_is_unchanged():
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    np.testing.assert_array_equal(
        random_dna(7, 9, rng_a), rng_b.integers(0, 4, size=(7, 9), dtype=np.uint8)
    )
    # make_planted keeps its draws
    X, y = make_planted(3, 2, 30, [("GGCCGTAAA", 11, 0)], mutate=False, random_state=0)
    assert y.tolist() == [1, 1, 1, 0, 0]
    assert all(s[10:19] == "GGCCGTAAA" for s in decode(X[:3]))


def test_write_dataset_round_trip(tmp_path):
    X, y = make_motif_data(
        5, 4, 30, [PlantedMotif("GATTACA", 3)], shuffle=True, random_state=0
    )
    pos, neg = write_dataset(tmp_path, X, y)
    ids, X2, y2 = read_labeled(pos=pos, neg=neg)
    np.testing.assert_array_equal(X2, np.concatenate([X[y == 1], X[y == 0]]))
    assert y2.tolist() == [1] * 5 + [0] * 4 and ids[0] == "pos_0001"
    assert pos.read_text().startswith(">pos_0001\n")
    with pytest.raises(InputError, match="labels 0/1"):
        write_dataset(tmp_path, X, y + 1)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"motif": ""}, "non-empty"),
        ({"motif": "GANTACA"}, "position"),
        ({"motif": np.ones((3, 4))}, "sum to 1"),
        ({"motif": np.ones(4) / 4}, r"shape \(m, 4\)"),
        ({"position": (5, 2)}, "first <= last"),
        ({"position": (1, 9), "spread": 1.0}, "spread must be 0"),
        ({"position": float("inf")}, "finite"),
        ({"spread": -1.0}, "spread"),
        ({"mutation": 1.5}, "mutation"),
        ({"mutation": "two"}, "mutation"),
        ({"reverse_complement": 2.0}, "reverse_complement"),
        ({"in_negatives": -0.1}, "in_negatives"),
    ],
)
def test_planted_motif_rejects_bad_arguments(kwargs, words):
    args = {"motif": "GATTACA", "position": 10, **kwargs}
    with pytest.raises(InputError, match=words):
        PlantedMotif(**args)


def test_make_motif_data_rejects_bad_arguments():
    with pytest.raises(InputError, match="at least one"):
        make_motif_data(0, 0, 10, [])
    with pytest.raises(InputError, match="PlantedMotif"):
        make_motif_data(2, 2, 10, [("ACGT", 1, 0)])
    with pytest.raises(InputError, match="does not fit"):
        make_motif_data(2, 2, 5, [PlantedMotif("GATTACA", 1)])


def test_the_old_seed_name_rng_still_works_with_a_warning():
    """One seed name, ``random_state``; ``rng=`` is deprecated, not broken."""
    from poimkit.background import MarkovBackground
    from poimkit.datasets import PlantedMotif
    from poimkit.datasets.synthetic import sample_starts

    with pytest.warns(DeprecationWarning, match=r"random_dna\(rng=...\)"):
        old = random_dna(4, 9, rng=3)
    np.testing.assert_array_equal(old, random_dna(4, 9, random_state=3))
    bg = MarkovBackground.from_letter_probabilities([0.1, 0.2, 0.3, 0.4], 6)
    with pytest.warns(DeprecationWarning):
        np.testing.assert_array_equal(bg.sample(3, rng=1), bg.sample(3, random_state=1))
    motif = PlantedMotif("ACGT", (1, 10))
    with pytest.warns(DeprecationWarning):
        old = sample_starts(motif, 5, 20, rng=2)
    np.testing.assert_array_equal(old, sample_starts(motif, 5, 20, random_state=2))
    with pytest.raises(TypeError, match="not rng too"):
        random_dna(2, 3, rng=1, random_state=1)
