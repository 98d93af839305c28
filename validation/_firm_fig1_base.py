"""FIRM Fig. 1's Boolean function, its SVM and its tables of literals."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

STEM = "firm_fig1_boolean"
PAPER_SCORE = 5.0 / 3.0  # "s(x) = 1.6̄ for (x1, x2) = (0, 1)", Section 3.1
KERNELS = {
    "homogeneous": {"coef0": 0.0, "formula": "(x^T x')^2"},
    "inhomogeneous": {"coef0": 1.0, "formula": "(x^T x' + 1)^2"},
}
KERNELS_BY_COEF0 = {spec["coef0"]: spec["formula"] for spec in KERNELS.values()}
N_VARIABLES = 3
HARD_MARGIN_C = 1e10


def truth_table() -> np.ndarray:
    """All 8 rows of {0, 1}^3, x1 most significant."""
    return np.array(list(itertools.product([0.0, 1.0], repeat=N_VARIABLES)))


def labels(X: np.ndarray) -> np.ndarray:
    """+1 where ``x1 or (not x1 and not x2)`` holds, -1 elsewhere."""
    x1, x2 = X[:, 0] == 1, X[:, 1] == 1
    return np.where(x1 | (~x1 & ~x2), 1.0, -1.0)


def train_svm(X: np.ndarray, y: np.ndarray, coef0: float) -> SVC:
    """Hard-margin SVM with kernel ``(x^T x' + coef0)^2``."""
    model = SVC(
        kernel="poly", degree=2, gamma=1.0, coef0=coef0, C=HARD_MARGIN_C, tol=1e-12
    )
    return model.fit(X, y)


def monomial_weights(scores: np.ndarray) -> dict:
    """Coefficients of the multilinear polynomial equal to the score on {0,1}^3.

    On 0/1 inputs ``x_j^2 = x_j``, so a quadratic score is
    ``c0 + sum_j c_j x_j + sum_{j<k} c_jk x_j x_k``: the weight the SVM adds
    when a monomial is present. Found by Moebius inversion of the 8 scores,
    ``c_S = sum_{T subset S} (-1)^{|S|-|T|} s(1_T)``.
    """
    table = truth_table()
    index = {tuple(row.astype(int)): i for i, row in enumerate(table)}

    def at(subset):
        key = tuple(1 if j in subset else 0 for j in range(N_VARIABLES))
        return scores[index[key]]

    def coef(subset):
        total = 0.0
        for r in range(len(subset) + 1):
            for sub in itertools.combinations(subset, r):
                total += (-1) ** (len(subset) - r) * at(sub)
        return total

    single = np.array([coef((j,)) for j in range(N_VARIABLES)])
    pairs = np.full((N_VARIABLES, N_VARIABLES), np.nan)
    for j, k in itertools.combinations(range(N_VARIABLES), 2):
        pairs[j, k] = pairs[k, j] = coef((j, k))
    return {
        "intercept": coef(()),
        "single": single,
        "pairs": pairs,
        "triple": coef(tuple(range(N_VARIABLES))),
    }


def literal_name(j: int, value: int) -> str:
    return f"x{j + 1}" if value == 1 else f"not x{j + 1}"


def firm_tables(result) -> tuple[dict, dict]:
    """Literal -> FIRM and conjunction -> FIRM from a `BinaryFirm`."""
    single = {
        literal_name(j, v): float(result.single[j, v])
        for j in range(N_VARIABLES)
        for v in (1, 0)
    }
    pairs = {}
    for j, k in itertools.combinations(range(N_VARIABLES), 2):
        for a, b in itertools.product((1, 0), repeat=2):
            name = f"{literal_name(j, a)} & {literal_name(k, b)}"
            pairs[name] = float(result.pairs[j, k, a, b])
    return single, pairs


def clean_table(table: dict) -> dict:
    """Values rounded to 10 decimals: the SVM solver leaves ~1e-13 noise."""
    return {key: round(float(value), 10) + 0.0 for key, value in table.items()}


def ranking(table: dict) -> list[str]:
    """Names by decreasing |value|, ties by name."""
    return sorted(table, key=lambda name: (-abs(table[name]), name))
