import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from poimkit.alphabet import encode
from poimkit.datasets import (
    GATTACA_BUNDLE,
    GATTACA_SEED,
    load_gattaca,
    make_gattaca,
    plant_motif,
    planting_pwm,
    random_dna,
    write_gattaca_data,
)
from poimkit.errors import InputError
from poimkit.io import read_labeled

ROOT = Path(__file__).resolve().parents[1]
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
