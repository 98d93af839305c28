"""Huh and Lee's set-up: the model, the paper's tables, the regressions, the tests."""

from __future__ import annotations

import warnings

import numpy as np
from scipy.stats import chi2
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

STEM = "huh_lee_tables"
COEF = np.array([4.0, 3.0, 2.0, 1.0])
FEATURES = ["X1", "X2", "X3", "X4"]
MODELS = ("linear_regression", "neural_network", "regression_tree")

# Huh & Lee, Table 2: importances, D_y and GoFit per model
PAPER_TABLE2 = {
    "linear_regression": {"importance": [0.72, 0.54, 0.37, 0.19], "D_y": 6.18,
                          "gofit": 0.82},
    "neural_network": {"importance": [0.71, 0.53, 0.36, 0.18], "D_y": 6.18,
                       "gofit": 0.81},
    "regression_tree": {"importance": [0.70, 0.47, 0.22, 0.01], "D_y": 6.17,
                        "gofit": 0.60},
}  # fmt: skip
# Huh & Lee, Table 3
PAPER_TABLE3 = {
    "neural_network": [0.71, 0.53, 0.36, 0.18],
    "clementine_neural_network": [0.59, 0.47, 0.36, 0.17],
    "linear_regression": [0.72, 0.54, 0.37, 0.19],
    "standardized_betas": [0.72, 0.54, 0.37, 0.18],
}


#: Y ~ N(0, 31): the variance of 4 X1 + 3 X2 + 2 X3 + X4 + e
VAR_Y = float(np.sum(COEF**2) + 1.0)
#: a gap to the paper "holds" unless as large as in fewer than 5% of pairs of
#: draws (chi-square test of the gap, covariance twice that over draws)
AGREE_P = 0.05
#: variance of rounding to 2 decimals, (0.01)^2 / 12, added to each paper value
ROUNDING_VAR = 0.01**2 / 12
#: Clementine's grid: 5 equally spaced values of each input (section 5)
CLEMENTINE_GRID = 5


def theory() -> dict:
    """Exact population values for the linear model of section 4.

    ``D_p = |b_p| E|X_p - X_p'| = |b_p| 2 / sqrt(pi)`` for ``X_p ~ N(0, 1)``
    and ``E[D_y] = E|Y - Y'| = 2 sqrt(31 / pi)`` for ``Y ~ N(0, 31)``, so
    ``Imp_p = b_p / sqrt(31)``, the standardised coefficient.
    """
    sd_y = np.sqrt(VAR_Y)
    return {
        "var_Y": VAR_Y,
        "importance": (COEF / sd_y).tolist(),
        "D_p": (COEF * 2.0 / np.sqrt(np.pi)).tolist(),
        "D_y": float(2.0 * np.sqrt(VAR_Y / np.pi)),
        "derivation": "Var Y = 16 + 9 + 4 + 1 + 1 = 31; for Gaussian Z, Z' iid "
        "E|Z - Z'| = 2 sd(Z) / sqrt(pi); D_p = |b_p| 2 / sqrt(pi), "
        "E[D_y] = 2 sqrt(31 / pi), Imp_p = b_p / sqrt(31)",
    }


def simulate(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The data of section 4: X ~ N(0, I_4), Y = 4X1 + 3X2 + 2X3 + X4 + e."""
    X = rng.standard_normal((n, 4))
    y = X @ COEF + rng.standard_normal(n)
    return X, y


def make_models(seed: int) -> dict:
    """The three models of section 4, unfitted."""
    return {
        "linear_regression": LinearRegression(),
        "neural_network": make_pipeline(
            StandardScaler(),
            MLPRegressor(
                hidden_layer_sizes=(2,),
                activation="logistic",
                solver="lbfgs",
                max_iter=5000,
                random_state=seed,
            ),
        ),
        "regression_tree": DecisionTreeRegressor(max_depth=5, random_state=seed),
    }


def gofit(y: np.ndarray, fitted: np.ndarray) -> float:
    """The paper's goodness of fit: 1 - sum|y - yhat| / sum|y - median(y)|."""
    return 1.0 - np.abs(y - fitted).sum() / np.abs(y - np.median(y)).sum()


def fit_models(X: np.ndarray, y: np.ndarray, seed: int) -> dict:
    """The three models of section 4, fitted."""
    fitted = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for name, model in make_models(seed).items():
            fitted[name] = model.fit(X, y)
    return fitted


def max_rule_linear(model: LinearRegression, X: np.ndarray, y: np.ndarray):
    """Clementine's rule for a linear model: ``|b_p| range(X_p) / range(y)``.

    The output is monotone in each input, so its largest change over any
    grid spanning ``[min X_p, max X_p]`` is ``|b_p| range(X_p)``.
    """
    return np.abs(model.coef_) * np.ptp(X, axis=0) / np.ptp(y)


def deviation_from_4321(imp) -> float:
    """Largest gap of ``4 imp / imp[0]`` to (4, 3, 2, 1)."""
    imp = np.asarray(imp, dtype=float)
    return float(np.max(np.abs(4 * imp / imp[0] - COEF)))


# ------------------------------------------------ spread over data draws
def mean_sd(values) -> dict:
    """Mean and sd over draws (and the covariance, for a row of numbers)."""
    values = np.asarray(values, dtype=float)
    out = {
        "mean": values.mean(axis=0).tolist(),
        "sd": values.std(axis=0, ddof=1).tolist(),
    }
    if values.ndim == 2:
        out["cov"] = np.atleast_2d(np.cov(values.T)).tolist()
    return out


def mahalanobis_p(diff, cov) -> float:
    """P(chi^2_d >= diff^T cov^-1 diff): how usual ``diff`` is for N(0, cov)."""
    diff = np.atleast_1d(np.asarray(diff, dtype=float))
    cov = np.atleast_2d(np.asarray(cov, dtype=float))
    return float(chi2.sf(diff @ np.linalg.solve(cov, diff), diff.size))
