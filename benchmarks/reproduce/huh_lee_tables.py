"""Huh & Lee, Tables 2 and 3: sensitivity importances on a simulated data set.

Y = 4 X1 + 3 X2 + 2 X3 + X4 + e with X1..X4, e independent N(0, 1), n = 1000
(section 4). Three models are fitted and their importances ``D_p / D_y``
computed with 10 repeats:

* linear regression (the paper's "Linear Regression");
* a neural network with one hidden layer of two logistic units (scikit-learn
  ``MLPRegressor`` on standardised inputs, fitted with L-BFGS; the paper used
  SPSS Clementine 7.1 with a logistic output unit as well, scikit-learn's
  output unit is linear);
* a regression tree of depth 5 (scikit-learn CART; the paper used
  Clementine's C&R Tree with its defaults).

Table 3 adds Clementine's maximum-based importance for the neural network
(``variant="max"``) and the standardised regression coefficients.

Run ``python benchmarks/reproduce/huh_lee_tables.py [-o OUT] [--seed S]
[--quick]``; writes ``huh_lee_tables.{json,png,pdf}``.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import parser, save_figure, write_json  # noqa: E402

from poimkit.importance.sensitivity import output_spread, sensitivity  # noqa: E402

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


def reproduce(seed: int = 0, n: int = 1000, n_repeats: int = 10) -> dict:
    """Fit the models and compute Tables 2 and 3; returns a JSON-ready dict."""
    X, y = simulate(n, np.random.default_rng(seed))
    fitted = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for name, model in make_models(seed).items():
            fitted[name] = model.fit(X, y)

    table2 = {}
    for k, name in enumerate(MODELS):
        model = fitted[name]
        rng = np.random.default_rng((seed, k))
        imp, std = sensitivity(
            model, X, y, n_repeats=n_repeats, random_state=rng, return_std=True
        )
        paper = PAPER_TABLE2[name]
        # D_y as used above: n_repeats draws of N = 10 n pairs, pooled
        d_y = output_spread(y, n_pairs=10 * n * n_repeats, random_state=rng)
        table2[name] = {
            "importance": imp.tolist(),
            "importance_std_over_repeats": std.tolist(),
            "paper_importance": paper["importance"],
            "difference": (imp - paper["importance"]).tolist(),
            "relative_to_X1": (4 * imp / imp[0]).tolist(),
            "D_y": d_y,
            "paper_D_y": paper["D_y"],
            "gofit": gofit(y, model.predict(X)),
            "paper_gofit": paper["gofit"],
        }

    lin = fitted["linear_regression"]
    betas = lin.coef_ * X.std(axis=0) / y.std()
    clementine = sensitivity(fitted["neural_network"], X, y, variant="max")
    ours3 = {
        "neural_network": table2["neural_network"]["importance"],
        "clementine_neural_network": clementine.tolist(),
        "linear_regression": table2["linear_regression"]["importance"],
        "standardized_betas": betas.tolist(),
    }
    table3 = {
        name: {
            "ours": values,
            "paper": PAPER_TABLE3[name],
            "difference": (np.array(values) - PAPER_TABLE3[name]).tolist(),
            "relative_to_X1": (4 * np.array(values) / values[0]).tolist(),
        }
        for name, values in ours3.items()
    }
    sigma_y = np.sqrt(np.sum(COEF**2) + 1.0)
    all_pairs = np.abs(y[:, None] - y[None, :]).mean()
    return {
        "settings": {"seed": seed, "n": n, "n_repeats": n_repeats, "n_pairs": 10 * n},
        "features": FEATURES,
        "table2": table2,
        "table3": table3,
        "linear_minus_betas": (
            np.array(table2["linear_regression"]["importance"]) - betas
        ).tolist(),
        "D_y_all_pairs": all_pairs,
        "population": {
            "standardized_betas": (COEF / sigma_y).tolist(),
            "D_y": 2 * sigma_y / np.sqrt(np.pi),
            "note": "Y ~ N(0, 31): beta_p = b_p / sqrt(31) and "
            "E[D_y] = 2 sqrt(31 / pi); the paper's values are one draw",
        },
    }


def plot(result: dict):
    """Ours (bars, +- spread of the repeats) against the paper (black marks)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    x = np.arange(len(FEATURES))
    for ax, table, columns, title in (
        (axes[0], result["table2"], MODELS, "Table 2: D_p / D_y (10 repeats)"),
        (axes[1], result["table3"], tuple(PAPER_TABLE3), "Table 3"),
    ):
        width = 0.8 / len(columns)
        for k, name in enumerate(columns):
            entry = table[name]
            ours = entry["importance"] if "importance" in entry else entry["ours"]
            paper = entry.get("paper_importance", entry.get("paper"))
            err = entry.get("importance_std_over_repeats")
            pos = x - 0.4 + width * (k + 0.5)
            ax.bar(
                pos,
                ours,
                width,
                yerr=err,
                ecolor="0.45",
                capsize=2,
                label=name.replace("_", " "),
            )
            ax.plot(pos, paper, "k_", markersize=12, markeredgewidth=2)
        ax.plot([], [], "k_", markersize=12, markeredgewidth=2, label="paper")
        ax.set_xticks(x, FEATURES)
        ax.set_title(title)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("importance")
    fig.suptitle("Huh & Lee: Y = 4X1 + 3X2 + 2X3 + X4 + e, n = 1000")
    fig.tight_layout()
    return fig


def main(argv=None) -> int:
    """Reproduce the tables, print them, write JSON and the figure."""
    args = parser(__doc__.splitlines()[0]).parse_args(argv)
    start = time.perf_counter()
    result = reproduce(seed=args.seed, n_repeats=3 if args.quick else 10)
    result["settings"]["quick"] = args.quick
    result["settings"]["seconds"] = time.perf_counter() - start
    for name in MODELS:
        row = result["table2"][name]
        print(
            f"{name:18s} ours {np.round(row['importance'], 3)} "
            f"paper {row['paper_importance']}  D_y {row['D_y']:.2f} "
            f"(paper {row['paper_D_y']})  GoFit {row['gofit']:.2f} "
            f"(paper {row['paper_gofit']})"
        )
    for name, row in result["table3"].items():
        print(f"{name:26s} ours {np.round(row['ours'], 3)} paper {row['paper']}")
    write_json(args.out, STEM, result)
    save_figure(plot(result), args.out, STEM)
    print(f"wrote {args.out / STEM}.{{json,png,pdf}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
