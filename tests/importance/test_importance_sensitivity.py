"""Sensitivity importance (`poimkit.importance.sensitivity`) and Huh & Lee's tables.

Random estimates are compared with their exact expectation within 4 standard
errors of the mean over the repeats (seeded, deterministic; seeds not tuned).
The reproduction of Tables 2 and 3 is checked against the paper with the
tolerances justified next to each test.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

from poimkit.errors import InputError
from poimkit.importance.sensitivity import output_spread, sensitivity

from ..naive import max_sensitivity_naive, mean_abs_difference

REPRODUCE = Path(__file__).resolve().parents[2] / "validation"


def load_script(name):
    spec = importlib.util.spec_from_file_location(name, REPRODUCE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Square:
    """f(x) = x_0^2 + x_1: not monotone in x_0, ignores the other inputs."""

    def predict(self, X):
        return X[:, 0] ** 2 + X[:, 1]


def skewed_data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [rng.exponential(size=n), rng.normal(size=n), rng.integers(0, 3, size=n)]
    ).astype(float)
    y = 3 * X[:, 0] - X[:, 1] + 0.5 * X[:, 2] + rng.normal(size=n)
    return X, y


# ---------------------------------------------------------- definitions
def test_random_variant_is_unbiased_for_its_expectation():
    """For a linear model E[D_p] = |b_p| G(x_p) and D_y -> G(y) for many pairs."""
    X, y = skewed_data()
    model = LinearRegression().fit(X, y)
    n_repeats = 400
    imp, std = sensitivity(
        model, X, y, n_repeats, random_state=0, n_pairs=200_000, return_std=True
    )
    g_y = mean_abs_difference(y)
    expected = (
        np.abs(model.coef_) * [mean_abs_difference(X[:, j]) for j in range(3)] / g_y
    )
    # D_y is redrawn in every repeat, so its noise is part of std; the bias of a
    # mean of ratios, about cv(D_y)^2 = (0.76 / sqrt(2e5))^2 relative, is nil
    assert np.all(np.abs(imp - expected) < 4 * std / np.sqrt(n_repeats))


def test_random_variant_matches_a_loop_over_the_steps():
    """Steps 1-5 written out for one repeat, with the same random draws."""
    X, y = skewed_data(n=30, seed=3)
    model = LinearRegression().fit(X, y)
    rng = np.random.default_rng(7)
    n = len(y)
    d_p = []
    for j in range(3):
        draws = rng.integers(n, size=(2, n))
        d = []
        for i in range(n):  # Steps 1-2
            a, b = X[i].copy(), X[i].copy()
            a[j], b[j] = X[draws[0, i], j], X[draws[1, i], j]
            d.append(model.predict(a[None])[0] - model.predict(b[None])[0])
        d_p.append(np.mean(np.abs(d)))  # Step 3
    pairs = rng.integers(n, size=(2, 10 * n))
    d_y = np.mean(np.abs(y[pairs[0]] - y[pairs[1]]))  # Step 4
    got = sensitivity(model, X, y, n_repeats=1, random_state=np.random.default_rng(7))
    assert_allclose(got, np.array(d_p) / d_y, rtol=1e-12)  # Step 5


def test_max_variant_on_a_linear_model_is_coefficient_times_range_ratio():
    X, y = skewed_data()
    model = LinearRegression().fit(X, y)
    expected = np.abs(model.coef_) * np.ptp(X, axis=0) / np.ptp(y)
    imp, std = sensitivity(model, X, y, variant="max", return_std=True)
    assert_allclose(imp, expected, rtol=1e-10)
    assert_array_equal(std, 0)
    assert_allclose(sensitivity(model, X, y, variant="max", n_grid=None), expected)


def test_max_variant_grid_against_brute_force():
    X, _ = skewed_data(n=40, seed=1)
    X[:, 0] -= 1.0  # x_0 of both signs: x_0^2 peaks inside the range
    y = np.arange(40.0)
    model = Square()

    def five(v):
        u = np.unique(v)
        return u if u.size <= 5 else np.linspace(u[0], u[-1], 5)

    assert_allclose(
        sensitivity(model, X, y, variant="max"),
        max_sensitivity_naive(model, X, y, five),
    )
    assert_allclose(
        sensitivity(model, X, y, variant="max", n_grid=None),
        max_sensitivity_naive(model, X, y, np.unique),
    )
    # the integer input (3 distinct values) and an ignored input
    assert sensitivity(model, X, y, variant="max")[2] == 0.0


@pytest.mark.parametrize("variant", ["random", "max"])
def test_ignored_input_has_zero_importance(variant):
    X, y = skewed_data()
    assert sensitivity(Square(), X, y, variant=variant, random_state=0)[2] == 0.0


def test_seed_reproduces_and_shapes():
    X, y = skewed_data()
    model = LinearRegression().fit(X, y)
    a = sensitivity(model, X, y, random_state=4)
    b, std = sensitivity(model, X, y, random_state=4, return_std=True)
    assert a.shape == b.shape == std.shape == (3,)
    assert_array_equal(a, b)
    assert np.all(std > 0)


def test_column_outputs_are_flattened():
    class Column:
        def predict(self, X):
            return X[:, :1] * 2.0

    X, y = skewed_data()
    imp = sensitivity(Column(), X, y, variant="max")
    assert_allclose(imp, [2 * np.ptp(X[:, 0]) / np.ptp(y), 0, 0])


# ------------------------------------------------------------- output_spread
def test_output_spread():
    assert output_spread([0.0, 1.0, 3.0], variant="max") == 3.0
    y = np.random.default_rng(0).normal(scale=2.0, size=2000)
    d_y = output_spread(y, n_pairs=400_000, random_state=1)
    assert d_y == pytest.approx(mean_abs_difference(y), rel=0.01)
    assert mean_abs_difference(y) == pytest.approx(4 / np.sqrt(np.pi), rel=0.05)


@pytest.mark.parametrize(
    ("y", "kwargs", "match"),
    [
        ([1.0], {}, "at least 2 finite numbers"),
        (["a", "b"], {}, "non-numeric"),
        ([1.0, 1.0], {}, "must not be constant"),
        ([1.0, 2.0], {"variant": "mean"}, "variant must be 'random' or 'max'"),
        ([1.0, 2.0], {"n_pairs": 0}, "n_pairs must be an integer >= 1, got 0"),
    ],
)
def test_output_spread_errors(y, kwargs, match):
    with pytest.raises(InputError, match=match):
        output_spread(y, **kwargs)


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_repeats": 0}, "n_repeats must be an integer >= 1, got 0"),
        ({"variant": "mean"}, "variant must be 'random' or 'max', got 'mean'"),
        ({"n_grid": 1}, "n_grid must be an integer >= 2, got 1"),
        ({"n_pairs": -3}, "n_pairs must be an integer >= 1"),
        ({"random_state": 1.5}, "random_state must be None, an int seed"),
    ],
)
def test_invalid_arguments(kwargs, match):
    X, y = skewed_data()
    with pytest.raises(InputError, match=match):
        sensitivity(Square(), X, y, **kwargs)


def test_invalid_data_and_models():
    X, y = skewed_data()
    with pytest.raises(InputError, match=r"X must be 2-D .* got shape \(60,\)"):
        sensitivity(Square(), y, y)
    with pytest.raises(InputError, match="X must be numeric"):
        sensitivity(Square(), [["a", "b"], ["c", "d"]], [1.0, 2.0])
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(InputError, match="X must be finite"):
        sensitivity(Square(), bad, y)
    with pytest.raises(InputError, match=r"y must have shape \(60,\) .* \(59,\)"):
        sensitivity(Square(), X, y[1:])
    with pytest.raises(InputError, match="y must not be constant"):
        sensitivity(Square(), X, np.ones(60))
    with pytest.raises(InputError, match="model must have a predict method"):
        sensitivity(object(), X, y)

    class TwoOutputs:
        def predict(self, X):
            return X[:, :2]

    with pytest.raises(InputError, match=r"return 120 numbers .* shape \(120, 2\)"):
        sensitivity(TwoOutputs(), X, y)

    class Nan:
        def predict(self, X):
            return np.full(len(X), np.nan)

    with pytest.raises(InputError, match="NaN or infinite"):
        sensitivity(Nan(), X, y)


# ------------------------------------------------- Huh & Lee, Tables 2 and 3
@pytest.fixture(scope="module")
def tables():
    """The reproduction script's result at its default seed (0), 10 repeats;
    the spread over data draws and the logistic-output study at quick sizes."""
    return load_script("huh_lee_tables").reproduce(
        seed=0, n_draws=10, n_starts=4, n_draws_logistic=2
    )


def test_linear_regression_reproduces_table2(tables):
    """Within 0.03 of the paper. This is mostly sampling of the data set: over 40
    draws of the n = 1000 data the largest per-feature gap to the paper was 0.023
    on average and above 0.03 in about a quarter of the draws (the paper's own
    0.72/0.54/0.37/0.19 is one draw around 4, 3, 2, 1 / sqrt(31) =
    0.718/0.539/0.359/0.180). At seed 0 the largest gap is 0.014."""
    row = tables["table2"]["linear_regression"]
    assert_allclose(row["importance"], row["paper_importance"], atol=0.03)
    assert row["gofit"] == pytest.approx(0.82, abs=0.02)


def test_linear_regression_equals_standardized_betas(tables):
    """Imp = |b| G(x_p)/G(y) and beta = b sd(x_p)/sd(y): for Gaussian data the
    ratios G/sd of inputs and output agree to about 0.005 (largest gap over 40
    draws: 0.0064), and the Monte Carlo error of 10 repeats of 1000 pairs is
    0.72 * 0.0076 = 0.0055 for X1 (coefficient of variation of |Z - Z'| is
    0.756, over 10^4 pairs). 0.02 is their sum plus 2 standard errors; the
    largest gap over 40 draws was 0.0165, at seed 0 it is 0.006."""
    ours = tables["table3"]["linear_regression"]["ours"]
    betas = tables["table3"]["standardized_betas"]["ours"]
    assert_allclose(ours, betas, atol=0.02)
    assert_allclose(betas, [0.72, 0.54, 0.37, 0.18], atol=0.03)


def test_output_spread_matches_table2(tables):
    """D_y estimates E|Y - Y'| = 2 sqrt(31/pi) = 6.28 for Y ~ N(0, 31); the data
    draw moves it by sd 0.14 (40 draws: 6.06 to 6.76), so the paper's 6.18 is
    0.7 sd low. Tolerance 0.3, about 2 sd."""
    for name in ("linear_regression", "neural_network", "regression_tree"):
        row = tables["table2"][name]
        assert row["D_y"] == pytest.approx(row["paper_D_y"], abs=0.3)
        # the pooled random pairs agree with the all-pairs value of the draw
        assert row["D_y"] == pytest.approx(tables["D_y_all_pairs"], rel=0.01)
    assert tables["population"]["D_y"] == pytest.approx(6.2825, abs=1e-4)


def test_neural_network_reproduces_table2(tables):
    """A logistic 2-unit network fitted to near-linear data is close to the
    linear model, as in the paper (GoFit 0.81 vs 0.82)."""
    row = tables["table2"]["neural_network"]
    assert_allclose(row["importance"], row["paper_importance"], atol=0.03)
    assert row["gofit"] == pytest.approx(0.81, abs=0.02)


def test_regression_tree_reproduces_table2(tables):
    """The tree's importances vary with the data draw by sd 0.022/0.025/0.020/
    0.007 (40 draws): 0.06 is about 2.5 sd. At seed 0 the largest gap is X3,
    0.274 vs 0.22. GoFit (0.62 vs 0.60) shows that scikit-learn's unpruned
    depth-5 CART fits about as well as Clementine's C&R Tree."""
    row = tables["table2"]["regression_tree"]
    imp = np.array(row["importance"])
    assert_allclose(imp, row["paper_importance"], atol=0.06)
    assert imp[0] > imp[1] > imp[2] > imp[3]
    assert imp[3] < 0.03  # X4 is (almost) never split on
    assert row["gofit"] == pytest.approx(0.60, abs=0.04)


def test_regression_tree_average_over_draws():
    """Averaged over 10 data draws (standard error about 0.008) the tree is within
    0.04 of the paper; X1 stays about 0.03 low (0.674 vs 0.70), a small
    systematic difference between scikit-learn's CART and Clementine's tree."""
    script = load_script("huh_lee_tables")
    imps = []
    for seed in range(1, 11):
        X, y = script.simulate(1000, np.random.default_rng(seed))
        tree = DecisionTreeRegressor(max_depth=5, random_state=seed).fit(X, y)
        imps.append(sensitivity(tree, X, y, random_state=seed))
    paper = script.PAPER_TABLE2["regression_tree"]["importance"]
    assert_allclose(np.mean(imps, axis=0), paper, atol=0.04)


def test_clementine_variant_table3(tables):
    """Clementine's maximum-based importance depends on extremes (ranges of the
    inputs and of y in the draw) and is *not* proportional to 4:3:2:1, as the
    paper says; its absolute values do not reproduce closely (0.66/0.55/0.44/
    0.22 vs 0.59/0.47/0.36/0.17, all within 0.08), see the report."""
    row = tables["table3"]["clementine_neural_network"]
    ours = np.array(row["ours"])
    assert_allclose(ours, row["paper"], atol=0.08)
    assert np.all(np.diff(ours) < 0)
    relative = 4 * ours / ours[0]
    assert np.max(np.abs(relative - [4, 3, 2, 1])) > 0.2


# ------------------------------------- Huh & Lee: theory, spread and claims
HUH_LEE_JSON = REPRODUCE / "results" / "huh_lee_tables.json"
VERDICTS = {"holds", "differs", "not attempted"}


def check_claims(claims):
    assert claims
    for c in claims:
        assert set(c) == {"claim", "paper", "ours", "verdict", "reason"}
        assert c["verdict"] in VERDICTS
        assert c["claim"] and c["paper"] is not None
        if c["verdict"] != "holds":
            assert c["reason"]


def claim_about(claims, fragment):
    found = [c for c in claims if fragment in c["claim"]]
    assert len(found) == 1, fragment
    return found[0]


def test_theory_closed_forms():
    """Y ~ N(0, 31); E|Z - Z'| = 2 sd / sqrt(pi) for Gaussians, so
    Imp_p = b_p / sqrt(31) and E[D_y] = 2 sqrt(31 / pi)."""
    th = load_script("huh_lee_tables").theory()
    assert th["var_Y"] == 31
    assert_allclose(th["importance"], [0.7184, 0.5388, 0.3592, 0.1796], atol=5e-5)
    assert_allclose(th["importance"], np.array([4, 3, 2, 1]) / np.sqrt(31))
    assert th["D_y"] == pytest.approx(6.2825, abs=5e-5)
    assert_allclose(np.array(th["importance"]) * th["D_y"], th["D_p"], rtol=1e-12)
    # E|Z - Z'| of a Gaussian, by Monte Carlo (sd of the mean about 0.002)
    z = np.random.default_rng(7).normal(scale=np.sqrt(31), size=(2, 400_000))
    assert np.abs(z[0] - z[1]).mean() == pytest.approx(th["D_y"], abs=0.01)


def test_clementine_max_rule_is_b_times_range_ratio(tables):
    """For a linear model the maximum rule is |b_p| range(X_p) / range(y), the
    near-linear network's is within 0.03 of it: the sample ranges set it."""
    ident = tables["clementine"]["linear_identity"]
    assert_allclose(
        ident["linear_regression_max_rule"],
        ident["abs_b_times_range_over_range_y"],
        rtol=1e-12,
    )
    assert_allclose(
        ident["neural_network_max_rule"],
        ident["abs_b_times_range_over_range_y"],
        atol=0.03,
    )
    assert_allclose(
        ident["neural_network_max_rule"],
        tables["table3"]["clementine_neural_network"]["ours"],
        rtol=1e-12,
    )


def test_logistic_output_lowers_only_the_maximum_rule(tables):
    """Clementine's logistic output unit saturates where the maximum rule looks
    (the extremes of X1): X1 drops below the linear value, the proposed measure
    hardly moves (seed 0: 0.59..0.63 vs 0.654; proposed within 0.01)."""
    seed0 = tables["clementine"]["logistic_output"]["seed_0_data"]
    linear_x1 = tables["clementine"]["linear_identity"][
        "abs_b_times_range_over_range_y"
    ][0]
    assert seed0["max_rule_x1_range"][1] < linear_x1
    assert np.ptp(seed0["proposed_x1_range"]) < 0.01
    assert np.ptp(seed0["max_rule_x1_range"]) > np.ptp(seed0["proposed_x1_range"])


def test_claims_quick_are_well_formed(tables):
    claims = tables["claims"]
    check_claims(claims)
    assert claim_about(claims, "Table 1")["verdict"] == "not attempted"
    assert claim_about(claims, "a lot more computations")["verdict"] == "differs"
    assert claim_about(claims, "not proportional")["verdict"] == "holds"
    assert claim_about(claims, "equals the standardised")["verdict"] == "holds"


def test_committed_json_claims_and_spread():
    """The full-size JSON: every claim judged, the theory exact, the paper's
    and our linear importances within 3 sd (over 100 data draws) of it, and
    Clementine's numbers within the spread of two draws."""
    data = json.loads(HUH_LEE_JSON.read_text())
    assert not data["settings"]["quick"] and data["settings"]["n_draws"] == 100
    claims = data["claims"]
    check_claims(claims)
    th = data["theory"]
    assert_allclose(th["importance"], np.array([4, 3, 2, 1]) / np.sqrt(31))
    assert th["D_y"] == pytest.approx(2 * np.sqrt(31 / np.pi), rel=1e-12)
    spread = data["seed_spread"]
    sd = np.array(spread["importance"]["linear_regression"]["sd"])
    assert 0.01 < sd[0] < 0.025  # about 0.016 for X1
    for values in (
        data["table2"]["linear_regression"]["importance"],
        data["table2"]["linear_regression"]["paper_importance"],
    ):
        assert np.all(np.abs(np.array(values) - th["importance"]) < 3 * sd)
    assert spread["D_y"]["mean"] == pytest.approx(th["D_y"], abs=0.1)
    sampling = data["clementine"]["sampling"]
    # the maximum rule is 2.4 to 4.6 times as variable as the proposed one
    assert min(spread["clementine_sd_over_proposed_sd_nn"]) > 1.5
    # on average it is proportional to 4:3:2:1 (about beta) ...
    assert_allclose(sampling["mean_over_draws"], th["importance"], atol=0.03)
    # ... and the gap of ours to the paper is usual for two draws
    assert sampling["p_gap_vs_difference_of_two_draws"] > 0.05
    for fragment in ("linear regression importances 0.72", "Clementine's (maximum)"):
        assert claim_about(claims, fragment)["verdict"] == "holds", fragment
