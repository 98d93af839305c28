"""The model family is chosen, not asked (``kernel="auto"``, issue 27).

Records of different lengths leave only the position-free model; on records of
one length the inner cross-validation chooses between the positional WD / WDS
kernel and the gapped k-mer kernel, on signals built so that one family cannot
see them at all.
"""

import json
import warnings

import numpy as np
import pytest

from poimkit import GkmSVC, WDKernelSVC
from poimkit.errors import InputError
from poimkit.run.crossval import cross_validate, train_final
from poimkit.run.data import LabeledData, as_codes
from poimkit.run.options import (
    FAMILIES,
    FamilyNotice,
    RunOptions,
    narrow_kernel,
    resolve_kernel,
    search_families,
)
from poimkit.run.plan import make_plan
from poimkit.svm.families import select_families
from poimkit.svm.selection import DEFAULT_C, Grid, _uses_gram

MOTIF = np.array([2, 0, 3, 3, 0, 1, 0, 2], dtype=np.uint8)  # GATTACAG
OTHER = np.array([1, 1, 2, 2, 1, 3, 1, 1], dtype=np.uint8)  # CCGGCTCC


def _planned(X, y, options):
    """The data and its `make_plan`, for `cross_validate` and `train_final`."""
    data = LabeledData([], X, y, [], 0)
    return data, make_plan(data, options)


def _anywhere(n: int, length: int, seed: int):
    """Positives carry MOTIF at a uniformly random start: a position-free signal."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (2 * n, length), dtype=np.uint8)
    for row in X[:n]:
        start = rng.integers(0, length - MOTIF.size + 1)
        row[start : start + MOTIF.size] = MOTIF
    return X, np.repeat([1, 0], n)


def _swapped(n: int, length: int, seed: int):
    """Both classes carry MOTIF and OTHER at two fixed places, swapped in negatives.

    Every sequence holds the same words, so a position-free model sees nothing;
    only where they sit tells the classes apart.
    """
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (2 * n, length), dtype=np.uint8)
    a, b = 4, length - 4 - MOTIF.size
    X[:n, a : a + MOTIF.size], X[:n, b : b + MOTIF.size] = MOTIF, OTHER
    X[n:, a : a + MOTIF.size], X[n:, b : b + MOTIF.size] = OTHER, MOTIF
    return X, np.repeat([1, 0], n)


#: small grids: few candidates, small gkm words (fast)
FAST = {"C": 1.0, "gkm_l": 6, "gkm_k": 4, "cv": 3}


# --------------------------------------------------------------------------- #
# which families are compared
# --------------------------------------------------------------------------- #
def test_mixed_lengths_choose_gkm_with_a_notice():
    with pytest.warns(FamilyNotice, match="different lengths.*position-free"):
        assert resolve_kernel(RunOptions(), lengths_differ=True).kernel == "gkm"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no notice when nothing is decided
        assert resolve_kernel(RunOptions(), lengths_differ=False).kernel == "auto"
        assert resolve_kernel(RunOptions(kernel="wd"), True).kernel == "wd"
    with pytest.raises(InputError, match="different lengths.*--shift.*--crop"):
        resolve_kernel(RunOptions(shift=2), lengths_differ=True)


def test_auto_narrows_to_wd_when_nothing_chooses():
    assert narrow_kernel(RunOptions()).kernel == "auto"
    assert narrow_kernel(RunOptions(grid=False)).kernel == "wd"
    assert narrow_kernel(RunOptions(degree=8)).kernel == "wd"
    assert narrow_kernel(RunOptions(mismatches=1)).kernel == "wd"
    assert narrow_kernel(RunOptions(solver="linear")).kernel == "wd"
    assert narrow_kernel(RunOptions(kernel="gkm", grid=False)).kernel == "gkm"


def test_search_families_compares_both_unless_fixed():
    families = search_families(RunOptions(C=1.0), 40, 500)
    assert [name for name, _, _ in families] == list(FAMILIES) == ["wd", "gkm"]
    wd, gkm = (grid.to_dict() for _, _, grid in families)
    assert wd == {"degree": [10, 20], "shift": [0, 2, 4, 8, 16], "C": [1.0]}
    assert gkm == {"l": [11], "k": [7], "reverse_complement": [True, False], "C": [1]}
    # a family of one candidate still takes part in the comparison
    one = search_families(RunOptions(C=1.0, reverse_complement=True), 40, 500)
    assert one[1][2].size == 1
    assert [n for n, _, _ in search_families(RunOptions(), 8, 500)] == ["wd"]  # L < l
    only = search_families(RunOptions(kernel="gkm"), 40, 500)
    assert [n for n, _, _ in only] == ["gkm"]
    assert search_families(RunOptions(kernel="wd", grid=False), 40, 500) is None
    # above KERNEL_MAX_RECORDS gkm's linear solver refits every candidate: C <= 1
    # (5000 x 100 nt: 450,000 windows, over the shared matrix's 300,000)
    big = dict(search_families(RunOptions(), 100, 5000)[i][::2] for i in (0, 1))
    assert big["gkm"].C == (0.01, 0.1, 1.0) and big["wd"].C == DEFAULT_C
    small = dict(search_families(RunOptions(), 40, 5000)[i][::2] for i in (0, 1))
    assert small["gkm"].C == DEFAULT_C  # 150,000 windows: one matrix for all C
    gkm = search_families(RunOptions(kernel="gkm", solver="kernel"), 100, 5000)
    assert gkm[0][2].C == DEFAULT_C


def test_read_rows_stack_for_auto_unless_lengths_differ():
    rows = [np.zeros(5, np.uint8), np.ones(5, np.uint8)]
    assert as_codes(rows, "auto").shape == (2, 5)
    assert as_codes(rows, "gkm").shape == (2,)
    mixed = as_codes([np.zeros(5, np.uint8), np.ones(6, np.uint8)], "auto")
    assert (
        mixed.shape == (2,)
        and LabeledData([], mixed, np.array([0, 1]), [], 0).lengths_differ
    )
    assert not LabeledData(
        [], as_codes(rows, "auto"), np.array([0, 1]), [], 0
    ).lengths_differ


# --------------------------------------------------------------------------- #
# the inner CV chooses the family that sees the signal
# --------------------------------------------------------------------------- #
def test_position_free_signal_chooses_gkm():
    X, y = _anywhere(50, 60, seed=1)
    cv = cross_validate(*_planned(X, y, RunOptions(**FAST)))
    selection = cv.selection
    assert selection["family"] == "gkm"
    assert [f["family"] for f in selection["folds"]] == ["gkm"] * 3
    rows = selection["families"]
    assert rows["gkm"]["best_inner_auc"] > rows["wd"]["best_inner_auc"]
    assert selection["family_margin"] == pytest.approx(
        rows["gkm"]["best_inner_auc"] - rows["wd"]["best_inner_auc"], abs=1e-6
    )
    assert selection["family_margin"] > selection["family_tolerance"]
    assert cv.figure() > 0.9
    json.dumps(selection)  # JSON-ready
    model, chosen, _ = train_final(*_planned(X, y, RunOptions(**FAST)), selection)
    assert isinstance(model, GkmSVC) and chosen["l"] == 6 and "degree" not in chosen


def test_positional_signal_chooses_wd():
    X, y = _swapped(40, 40, seed=2)
    data = LabeledData([], X, y, [], 0)
    cv = cross_validate(data, make_plan(data, RunOptions(**FAST)))
    selection = cv.selection
    assert selection["family"] == "wd"
    assert {f["family"] for f in selection["folds"]} == {"wd"}
    assert selection["families"]["gkm"]["best_inner_auc"] < 0.75  # blind to it
    assert selection["family_margin"] > 0.2 and cv.figure() > 0.95
    model, chosen, found = train_final(
        data, make_plan(data, RunOptions(**FAST))
    )  # selects itself
    assert isinstance(model, WDKernelSVC) and found["family"] == "wd"
    assert set(chosen) == {"degree", "shift", "C"}


def test_kernel_option_fixes_the_family():
    X, y = _swapped(40, 40, seed=2)
    data = LabeledData([], X, y, [], 0)
    cv = cross_validate(data, make_plan(data, RunOptions(**FAST, kernel="gkm")))
    assert cv.selection["family"] == "gkm"
    assert list(cv.selection["families"]) == ["gkm"]
    assert cv.selection["family_margin"] is None
    model, _, _ = train_final(
        data, make_plan(data, RunOptions(**FAST, kernel="gkm")), cv.selection
    )
    assert isinstance(model, GkmSVC)
    X, y = _anywhere(30, 40, seed=1)
    cv = cross_validate(*_planned(X, y, RunOptions(**FAST, kernel="wd")))
    assert list(cv.selection["families"]) == ["wd"]


def test_families_tie_goes_to_the_first():
    """The same estimator twice: identical scores, the first family wins."""
    X, y = _swapped(20, 30, seed=3)
    grid = Grid({"shift": (0,)}, (1.0,))
    families = [("b", WDKernelSVC(degree=4), grid), ("a", WDKernelSVC(degree=4), grid)]
    found = select_families(families, X, y, [np.arange(y.size)])[0]
    assert found.family == "b" and found.margin == 0.0
    assert found.to_dict()["families"]["a"] == found.to_dict()["families"]["b"]
    with pytest.raises(InputError, match="names must differ"):
        select_families([families[0], families[0]], X, y, [np.arange(y.size)])


def test_gram_is_skipped_when_the_estimator_says_it_does_not_pay():
    class Cheap(GkmSVC):
        def _gram_pays(self, n, letters):
            return n < 100

    def records(n, length):
        return np.zeros((n, length), np.uint8)

    assert _uses_gram(GkmSVC(solver="kernel"), records(5000, 400))
    assert _uses_gram(Cheap(), records(99, 2))
    assert not _uses_gram(Cheap(), records(100, 2))
    # auto: the matrix up to 1000 records, and up to 300,000 windows (any solver)
    assert _uses_gram(GkmSVC(), records(1000, 400))
    assert _uses_gram(GkmSVC(), [np.zeros(60, np.uint8)] * 5000)  # 250,000 windows
    assert not _uses_gram(GkmSVC(), records(5000, 100))  # 450,000
    assert not _uses_gram(GkmSVC(solver="linear"), records(900, 400))

    sizes = []

    class NeverPays(GkmSVC):
        def _gram_pays(self, n, letters):
            return False

        def _raw_kernel(self, X):
            sizes.append(len(X))
            return super()._raw_kernel(X)

    X, y = _anywhere(15, 30, seed=4)
    grid = Grid({"l": (6,), "k": (4,)}, (0.1, 1.0))
    rows = [np.arange(30)]
    refitted = select_families([("gkm", NeverPays(l=6, k=4), grid)], X, y, rows)
    assert sizes and 30 not in sizes  # every candidate refitted on its fold
    shared = select_families([("gkm", GkmSVC(l=6, k=4), grid)], X, y, rows)
    np.testing.assert_allclose(refitted[0].selection.scores, shared[0].selection.scores)
