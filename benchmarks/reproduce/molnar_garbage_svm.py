"""Molnar's "garbage SVM": permutation importance on training vs test data.

Interpretable Machine Learning, section 5.5.2: an SVM regression is trained on
200 instances of 50 standard normal features and a standard normal target that
is independent of them, and a second sample of the same size serves as test
data. The model overfits (mean absolute error 0.29 on the training data, 0.82
on the test data, 0.78 for always predicting 0). Permutation importances
(ratio of mean absolute errors) computed on the training data are above 1 for
many features, because the model relies on what it memorised; on the test
data they are close to 1.

Molnar's model is R's ``e1071::svm`` with its defaults (eps-regression, RBF
kernel with gamma = 1 / n_features, cost 1, epsilon 0.1, inputs and target
standardised), mirrored here with scikit-learn's ``SVR``; the importances use
5 permutations per feature as in ``iml::FeatureImp``.

Run ``python benchmarks/reproduce/molnar_garbage_svm.py [-o OUT] [--seed S]
[--quick]``; writes ``molnar_garbage_svm.{json,png,pdf}``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import parser, save_figure, write_json  # noqa: E402

from poimkit.importance.permutation import permutation  # noqa: E402

STEM = "molnar_garbage_svm"
# Molnar, section 5.5.2
PAPER = {
    "mae_train": 0.29,
    "mae_test": 0.82,
    "mae_predict_zero": 0.78,
    "top_feature_train_importance": 1.21,
    "top_feature_test_importance": 0.97,
}


def garbage_svm(n_features: int):
    """e1071::svm defaults: standardised X and y, RBF, gamma = 1/p, C=1, eps=0.1."""
    svr = SVR(kernel="rbf", C=1.0, epsilon=0.1, gamma=1.0 / n_features)
    return TransformedTargetRegressor(
        regressor=make_pipeline(StandardScaler(), svr), transformer=StandardScaler()
    )


def summary(values: np.ndarray) -> dict:
    """Summary statistics of per-feature importances."""
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return {
        "mean": float(values.mean()),
        "std": float(values.std()),
        "min": float(values.min()),
        "q1": float(q1),
        "median": float(median),
        "q3": float(q3),
        "max": float(values.max()),
        "fraction_above_1": float(np.mean(values > 1)),
    }


def reproduce(
    seed: int = 0, n: int = 200, n_features: int = 50, n_repeats: int = 5
) -> dict:
    """Train the garbage SVM and compute importances on training and test data."""
    rng = np.random.default_rng(seed)
    X_train = rng.standard_normal((n, n_features))
    y_train = rng.standard_normal(n)
    X_test = rng.standard_normal((n, n_features))
    y_test = rng.standard_normal(n)
    model = garbage_svm(n_features).fit(X_train, y_train)

    results = {}
    for name, X, y in (("train", X_train, y_train), ("test", X_test, y_test)):
        result = permutation(
            model,
            X,
            y,
            n_repeats=n_repeats,
            scoring="neg_mean_absolute_error",
            kind="ratio",
            random_state=rng,
        )
        results[name] = result
    top = int(np.argmax(results["train"].importances_mean))
    return {
        "settings": {
            "seed": seed,
            "n": n,
            "n_features": n_features,
            "n_repeats": n_repeats,
            "loss": "mean absolute error",
            "kind": "ratio",
        },
        "mae": {
            "train": results["train"].baseline_error,
            "test": results["test"].baseline_error,
            "predict_zero_test": float(np.mean(np.abs(y_test))),
            "predict_train_mean_test": mean_absolute_error(
                y_test, np.full(n, y_train.mean())
            ),
        },
        "paper": PAPER,
        "importance": {
            name: {
                "summary": summary(r.importances_mean),
                "per_feature_mean": r.importances_mean.tolist(),
                "per_feature_std": r.importances_std.tolist(),
            }
            for name, r in results.items()
        },
        "top_feature_train": {
            "feature": f"X{top + 1}",
            "train_importance": float(results["train"].importances_mean[top]),
            "test_importance": float(results["test"].importances_mean[top]),
        },
    }


def plot(result: dict):
    """Boxplots (Molnar's Figure 5.27) and histograms of the importances."""
    train = result["importance"]["train"]["per_feature_mean"]
    test = result["importance"]["test"]["per_feature_mean"]
    fig, (ax_box, ax_hist) = plt.subplots(1, 2, figsize=(10, 4))
    ax_box.boxplot([train, test])
    ax_box.set_xticks([1, 2], ["Training data", "Test data"])
    ax_box.axhline(1.0, color="0.5", linestyle="--", linewidth=1)
    ax_box.set_ylabel("feature importance (MAE ratio)")
    ax_box.set_title("Distributions of the importances of all features")
    bins = np.linspace(min(min(train), min(test)), max(max(train), max(test)), 30)
    ax_hist.hist(train, bins=bins, alpha=0.6, label="training data")
    ax_hist.hist(test, bins=bins, alpha=0.6, label="test data")
    ax_hist.axvline(1.0, color="0.5", linestyle="--", linewidth=1)
    ax_hist.set_xlabel("feature importance (MAE ratio)")
    ax_hist.set_ylabel("number of features")
    ax_hist.legend()
    mae = result["mae"]
    s = result["settings"]
    fig.suptitle(
        f"Garbage SVM: {s['n_features']} random features, {s['n']} instances, "
        f"random target (MAE train {mae['train']:.2f}, test {mae['test']:.2f})"
    )
    fig.tight_layout()
    return fig


def main(argv=None) -> int:
    """Reproduce the comparison, print it, write JSON and the figure."""
    args = parser(__doc__.splitlines()[0]).parse_args(argv)
    start = time.perf_counter()
    result = reproduce(seed=args.seed, n_repeats=2 if args.quick else 5)
    result["settings"]["quick"] = args.quick
    result["settings"]["seconds"] = time.perf_counter() - start
    mae = result["mae"]
    print(
        f"MAE train {mae['train']:.3f} (paper {PAPER['mae_train']}), test "
        f"{mae['test']:.3f} (paper {PAPER['mae_test']}), predicting 0 "
        f"{mae['predict_zero_test']:.3f} (paper {PAPER['mae_predict_zero']})"
    )
    for name in ("train", "test"):
        s = result["importance"][name]["summary"]
        print(
            f"{name:5s} importances: median {s['median']:.3f} mean {s['mean']:.3f} "
            f"range {s['min']:.3f}..{s['max']:.3f}, {s['fraction_above_1']:.0%} > 1"
        )
    top = result["top_feature_train"]
    print(
        f"most important on training data: {top['feature']} "
        f"{top['train_importance']:.3f} (test {top['test_importance']:.3f}); "
        f"paper X13 {PAPER['top_feature_train_importance']} (test "
        f"{PAPER['top_feature_test_importance']})"
    )
    write_json(args.out, STEM, result)
    save_figure(plot(result), args.out, STEM)
    print(f"wrote {args.out / STEM}.{{json,png,pdf}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
