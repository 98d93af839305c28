"""Model selection on shared Gram matrices (`poimkit.svm.selection`), its defaults."""

import json

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

from poimkit import WDKernelSVC, load_model
from poimkit.cli import main
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.io import write_fasta
from poimkit.run.crossval import cross_validate
from poimkit.run.data import LabeledData
from poimkit.run.options import FIXED_DEFAULTS, RunOptions, search_grid
from poimkit.run.plan import make_plan
from poimkit.svm.selection import (
    DEFAULT_C,
    DEFAULT_DEGREES,
    Grid,
    _choose,
    auc_standard_error,
    default_grid,
    select_nested,
    select_parameters,
)


def _planned(X, y, options):
    """The data and its `make_plan`, for `cross_validate` and `train_final`."""
    data = LabeledData([], X, y, [], 0)
    return data, make_plan(data, options)


@pytest.fixture(scope="module")
def jitter():
    """GATTACA with a motif start of SD 5: shifted comparisons must help."""
    return make_gattaca(n_pos=150, n_neg=150, length=40, mean=18, sd=5, random_state=1)


@pytest.fixture(scope="module")
def fasta_pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("selection")
    X, y = make_gattaca(n_pos=40, n_neg=40, length=24, mean=10, sd=3, random_state=5)
    pos, neg = folder / "pos.fa", folder / "neg.fa"
    write_fasta(pos, [f"p{i}" for i in range(40)], X[y == 1])
    write_fasta(neg, [f"n{i}" for i in range(40)], X[y == 0])
    return pos, neg, X, y


# --------------------------------------------------------------------------- #
# the Gram path is the fit path
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("degree", "shift"), [(6, 0), (5, 3)])
def test_fit_from_a_slice_of_one_gram_is_fit(jitter, degree, shift):
    X, y = jitter
    rng = np.random.default_rng(0)
    rows = np.sort(rng.permutation(y.size)[:200])
    test = np.setdiff1d(np.arange(y.size), rows)
    model = WDKernelSVC(degree=degree, shift=shift, C=0.7)
    K = model._raw_kernel(X)  # every sequence once
    from_gram = clone(model)._fit_gram(X[rows], y[rows], K[np.ix_(rows, rows)])
    direct = clone(model).fit(X[rows], y[rows])
    assert from_gram.kernel_scale_ == direct.kernel_scale_
    np.testing.assert_array_equal(from_gram.support_vectors_, direct.support_vectors_)
    np.testing.assert_allclose(from_gram.dual_coef_, direct.dual_coef_, rtol=1e-10)
    assert from_gram.intercept_ == pytest.approx(direct.intercept_, rel=1e-10)
    expected = direct.decision_function(X[test])
    np.testing.assert_allclose(
        from_gram.decision_function(X[test]), expected, rtol=1e-10
    )
    # scores from the same matrix, against the support vectors' rows
    support = rows[from_gram._gram_support]
    np.testing.assert_array_equal(X[support], direct.support_vectors_)
    scores = from_gram._decision_gram(X[test], K[np.ix_(test, support)])
    np.testing.assert_allclose(scores, expected, rtol=1e-10)


class _Refit(ClassifierMixin, BaseEstimator):
    """WDKernelSVC without the Gram protocol: selection refits it per candidate."""

    def __init__(self, degree=6, shift=0, C=1.0):
        self.degree = degree
        self.shift = shift
        self.C = C

    def fit(self, X, y):
        self.model_ = WDKernelSVC(degree=self.degree, shift=self.shift, C=self.C).fit(
            X, y
        )
        self.classes_ = self.model_.classes_
        return self

    def decision_function(self, X):
        return self.model_.decision_function(X)


def test_shared_grams_score_like_refitting_and_like_a_hand_loop(jitter):
    X, y = jitter
    grid = Grid({"shift": (0, 4)}, (1.0, 10.0))
    outer = [np.arange(0, 300, 2), np.arange(y.size)]
    shared = select_nested(WDKernelSVC(degree=6), X, y, grid, outer, n_jobs=2)
    refit = select_nested(_Refit(), X, y, grid, outer)
    for a, b in zip(shared, refit, strict=True):
        np.testing.assert_allclose(a.scores, b.scores, rtol=1e-12)
        assert a.params == b.params and a.inner == b.inner == "3-fold"
    # the documented inner split: stratified 3-fold, shuffled with the seed
    rows = outer[0]
    aucs = []
    for train, test in StratifiedKFold(3, shuffle=True, random_state=0).split(
        X[rows], y[rows]
    ):
        model = WDKernelSVC(degree=6, shift=4, C=10.0).fit(
            X[rows[train]], y[rows[train]]
        )
        scores = model.decision_function(X[rows[test]])
        aucs.append(roc_auc_score(y[rows[test]], scores))
    assert shared[0].scores[1, 1] == pytest.approx(np.mean(aucs), rel=1e-12)


# --------------------------------------------------------------------------- #
# what is chosen
# --------------------------------------------------------------------------- #
def test_positional_jitter_makes_a_shift_win(jitter):
    X, y = jitter
    chosen = select_parameters(
        WDKernelSVC(degree=6), X, y, Grid({"shift": (0, 4, 8, 16)}, (1.0,))
    )
    assert chosen.params["shift"] > 0
    assert chosen.score > chosen.scores[0, 0] + 0.05  # WD (shift 0) is clearly worse
    assert chosen.corner == []
    # without jitter nothing beats the plain WD kernel by a standard error
    X0, y0 = make_gattaca(
        n_pos=100, n_neg=100, length=40, mean=18, sd=0, random_state=1
    )
    fixed = select_parameters(
        WDKernelSVC(degree=6), X0, y0, Grid({"shift": (0, 4, 8)}, (1.0,))
    )
    assert fixed.params["shift"] == 0


def test_a_narrow_grid_reports_its_corner(jitter):
    X, y = jitter
    chosen = select_parameters(
        WDKernelSVC(degree=6), X, y, Grid({"shift": (0, 2)}, (1.0,))
    )
    assert chosen.params["shift"] == 2 and chosen.corner == ["shift"]
    assert chosen.to_dict()["corner"] == ["shift"]


def _settings(shifts, Cs, table):
    grid = Grid({"shift": shifts}, Cs)
    return _choose(np.array(table, dtype=float), grid, "3-fold", (10**6, 10**6))


def test_corner_rules():
    # still rising at the top of the shift grid: a corner
    assert _settings((0, 4, 8), (1.0,), [[0.70], [0.75], [0.80]]).corner == ["shift"]
    # a plateau at the top: the first of the ties wins, no corner
    flat = _settings((0, 4, 8), (1.0,), [[0.70], [0.80], [0.80]])
    assert flat.params["shift"] == 4 and flat.corner == []
    # shift 0 is a natural bound, not a corner
    assert _settings((0, 4), (1.0,), [[0.9], [0.7]]).corner == []
    # the lowest C beating the next: a corner; the highest C beating: too
    low = _settings((0,), (0.01, 0.1, 1.0), [[0.9, 0.8, 0.7]])
    assert low.params == {"shift": 0, "C": 0.01} and low.corner == ["C"]
    assert _settings((0,), (0.01, 0.1), [[0.7, 0.9]]).corner == ["C"]
    # a single candidate is never a corner; the best is recorded beside the choice
    one = _settings((4,), (1.0,), [[0.6]])
    assert one.corner == [] and one.best == one.params


def test_ties_go_to_the_simpler_candidate_within_a_standard_error():
    se = auc_standard_error(0.9, 50, 50)
    assert se == pytest.approx(0.0321, abs=1e-4)
    grid = Grid({"degree": (10, 20), "shift": (0, 4)}, (1.0, 10.0))
    scores = np.array([[0.80, 0.81], [0.885, 0.88], [0.85, 0.86], [0.89, 0.90]])
    chosen = _choose(scores, grid, "3-fold", (50, 50))
    assert chosen.params == {"degree": 10, "shift": 4, "C": 1.0}
    assert chosen.best == {"degree": 20, "shift": 4, "C": 10.0}
    assert chosen.best_score == 0.90
    # with a tiny standard error, 10 % of the best's error (0.01) still ties
    many = _choose(scores, grid, "3-fold", (10**6, 10**6))
    assert many.params == {"degree": 20, "shift": 4, "C": 1.0}
    scores[3, 0] = 0.885
    strict = _choose(scores, grid, "3-fold", (10**6, 10**6))
    assert strict.params == strict.best


def test_large_inputs_select_on_a_stratified_sample(jitter):
    X, y = jitter
    grid = Grid({"shift": (0, 4)}, (1.0,))
    half = np.arange(0, y.size, 2)
    sampled = select_nested(
        WDKernelSVC(degree=6), X, y, grid, [half, np.arange(y.size)], max_sequences=120
    )
    assert sampled[1].n_sequences == 120 and 40 < sampled[0].n_sequences < 80
    assert sampled[1].to_dict()["n_sequences"] == 120
    whole = select_parameters(WDKernelSVC(degree=6), X, y, grid, max_sequences=None)
    assert whole.n_sequences == y.size
    assert not np.allclose(whole.scores, sampled[1].scores)


def test_refused_settings_are_skipped_and_bad_grids_named(jitter):
    X, y = jitter
    with pytest.raises(InputError, match="has no parameter gamma"):
        select_parameters(WDKernelSVC(), X, y, Grid({"gamma": (1,)}, (1.0,)))
    with pytest.raises(InputError, match="C goes in Grid.C"):
        Grid({"C": (1.0,)}, (1.0,))
    few = np.array([0, 0, 1, 1, 1, 1])
    with pytest.raises(InputError, match="at least 3 sequences of each class"):
        select_parameters(WDKernelSVC(), X[:6], few, Grid({"shift": (0, 1)}))
    if "mismatches" not in WDKernelSVC().get_params():
        pytest.skip("WDKernelSVC has no mismatches parameter yet")
    grid = Grid({"shift": (0, 2), "mismatches": (0, 1)}, (1.0,))
    chosen = select_parameters(WDKernelSVC(degree=4), X[::2], y[::2], grid)
    assert np.isnan(chosen.scores[3]).all()  # shift 2 with a mismatch: refused
    assert not np.isnan(chosen.scores[:3]).any()
    with pytest.raises(InputError, match="refused every kernel setting.*mismatches"):
        select_parameters(
            WDKernelSVC(), X, y, Grid({"shift": (2,), "mismatches": (1,)}, (0.1, 1.0))
        )


# --------------------------------------------------------------------------- #
# defaults of the pipeline and the command line
# --------------------------------------------------------------------------- #
def test_default_grid_and_what_fixes_it():
    grid = default_grid(100)
    assert grid.kernel == {"degree": DEFAULT_DEGREES, "shift": (0, 2, 4, 8, 16, 32)}
    assert grid.C == DEFAULT_C and grid.size == 2 * 6 * 5
    assert default_grid(12).kernel["shift"] == (0, 2, 4)  # up to L / 2
    assert search_grid(RunOptions(kernel="wd"), 100, 500).to_dict() == grid.to_dict()
    assert search_grid(RunOptions(), 100, 500) is None  # auto: see search_families
    shifted = search_grid(RunOptions(kernel="wd", shift=4), 100, 500)
    assert shifted.kernel["shift"] == (4,)
    fixed = RunOptions(kernel="wd", degree=8, shift=0, C=1.0)
    assert search_grid(fixed, 100, 500) is None
    assert search_grid(RunOptions(grid=False), 100, 500) is None
    assert RunOptions(grid=False).fixed() == FIXED_DEFAULTS
    assert search_grid(RunOptions(solver="linear", degree=6), 100, 500) is None
    linear = search_grid(
        RunOptions(kernel="wd", solver="linear", degree=6, grid=True), 100, 500
    )
    assert linear.kernel["degree"] == (6,)  # exact POIMs: never searched


def test_cross_validate_records_grid_choices_and_corners(fasta_pair):
    _, _, X, y = fasta_pair
    data = LabeledData([], X, y, [], 0)
    cv = cross_validate(data, make_plan(data, RunOptions(degree=6, cv=3)))
    selection = cv.selection
    assert selection["grid"] == {
        "degree": [6],
        "shift": [0, 2, 4, 8],
        "C": list(DEFAULT_C),
    }
    assert selection["inner"] == "3-fold" and len(selection["folds"]) == 3
    assert set(selection["chosen"]) == {"degree", "shift", "C"}
    assert isinstance(selection["corner"], list)
    assert len(selection["table"]) == 4  # one row per kernel setting
    json.dumps(selection)  # JSON-ready
    assert (
        cross_validate(data, make_plan(data, RunOptions(cv=3, grid=False))).selection
        is None
    )


def test_train_selects_by_default_like_run(tmp_path, fasta_pair, capsys):
    pos, neg, X, y = fasta_pair
    out = tmp_path / "m.npz"
    args = ["train", "--pos", str(pos), "--neg", str(neg), "--degree", "6"]
    assert main([*args, "--cv", "3", "-o", str(out)]) == 0
    printed = capsys.readouterr()
    first = printed.out.splitlines()[0].split("\t")
    assert first[0] == "cv_auc" and first[4] == "(3 folds)"
    assert first[5:10:2] == ["accuracy", "balanced", "best_threshold"]
    assert "chosen by inner CV: degree 6, shift" in printed.err
    # the same numbers as the CV of `poimkit run` (one code path)
    cv = cross_validate(*_planned(X, y, RunOptions(degree=6, cv=3)))
    assert float(first[1]) == pytest.approx(cv.figure(), abs=5e-5)
    model = load_model(out)
    chosen = cv.selection["chosen"]
    assert (model.degree, model.shift, model.C) == (6, chosen["shift"], chosen["C"])


def test_train_fixed_parameters(tmp_path, fasta_pair, capsys):
    pos, neg, _, _ = fasta_pair
    out = tmp_path / "m.npz"
    base = ["train", "--pos", str(pos), "--neg", str(neg), "--cv", "0", "-o", str(out)]
    assert main([*base, "--no-grid", "--quiet"]) == 0
    model = load_model(out)
    assert (model.degree, model.shift, model.C) == (20, 0, 1.0)
    # a value given is kept; the others are still chosen
    assert main([*base, "--degree", "6", "--shift", "2"]) == 0
    model = load_model(out)
    assert (model.degree, model.shift) == (6, 2) and model.C in DEFAULT_C
    assert "chosen by inner CV" in capsys.readouterr().err
