"""FIRM's input checks: covariances, feature columns, binary codings, weights.

Each names the argument it checks; the generic checks are in `poimkit._validation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import as_float, as_vector, check_finite, check_int
from ..errors import InputError


def check_covariance(cov: Any, d: int, name: str) -> np.ndarray:
    """``cov`` as a symmetric positive semi-definite (d, d) float64 matrix.

    Parameters
    ----------
    cov : array-like of shape (d, d)
        The argument to check; symmetric up to rounding, then symmetrised.
    d : int
        Number of features.
    name : str
        Its name, for messages.

    Returns
    -------
    numpy.ndarray of float64, shape (d, d)
    """
    arr = as_float(cov, name, "a numeric matrix")
    if arr.shape != (d, d):
        raise InputError(
            f"{name} has shape {arr.shape} but must have shape ({d}, {d}) "
            f"(one row and column per feature, {d} features)"
        )
    check_finite(arr, name)
    scale = max(float(np.abs(arr).max()), np.finfo(float).tiny)
    asym = float(np.abs(arr - arr.T).max())
    if asym > 1e-10 * scale:
        raise InputError(
            f"{name} must be symmetric, got max |cov - cov.T| = {asym:.3g}"
        )
    arr = (arr + arr.T) / 2.0
    low = float(np.linalg.eigvalsh(arr).min())
    if low < -1e-10 * scale:
        raise InputError(
            f"{name} must be positive semi-definite, got smallest eigenvalue {low:.3g}"
        )
    return arr


def covariance_of(
    X: np.ndarray, covariance: Any, name: str = "covariance"
) -> np.ndarray:
    """Covariance of the rows of ``X`` by a named estimator, or a given matrix.

    Parameters
    ----------
    X : numpy.ndarray of shape (n_samples, n_features)
        Finite data.
    covariance : {"empirical", "ledoit_wolf"} or array-like
        The maximum-likelihood covariance (divisor n), its Ledoit-Wolf
        shrinkage (`sklearn.covariance.LedoitWolf`), or a matrix checked by
        `check_covariance`.
    name : str, default "covariance"
        The argument's name, for messages.

    Returns
    -------
    numpy.ndarray of float64, shape (n_features, n_features)
    """
    d = X.shape[1]
    if isinstance(covariance, str):
        if covariance == "empirical":
            Xc = X - X.mean(axis=0)
            return Xc.T @ Xc / X.shape[0]
        if covariance == "ledoit_wolf":
            from sklearn.covariance import LedoitWolf

            return LedoitWolf().fit(X).covariance_
        raise InputError(
            f"{name} must be one of ('empirical', 'ledoit_wolf') or a ({d}, {d}) "
            f"matrix, got {covariance!r}"
        )
    return check_covariance(covariance, d, name)


def check_features(features: Sequence[int] | np.ndarray | None, d: int) -> np.ndarray:
    """Column indices to evaluate: all ``d`` columns, or the distinct ones given.

    Parameters
    ----------
    features : sequence of int or None
        Column indices in ``0..d-1``, none repeated; None for all.
    d : int
        Number of columns.

    Returns
    -------
    numpy.ndarray of intp
    """
    if features is None:
        return np.arange(d)
    if isinstance(features, str | bytes) or not isinstance(
        features, Sequence | np.ndarray
    ):
        raise InputError(
            f"features must be None or a sequence of column indices, got "
            f"{type(features).__name__}"
        )
    idx = np.asarray(features)
    if idx.ndim != 1 or idx.size == 0:
        raise InputError(
            f"features must be a non-empty 1-D sequence of column indices, got "
            f"shape {idx.shape}"
        )
    cols = [
        check_int(j, f"features[{i}]", 0, d - 1) for i, j in enumerate(idx.tolist())
    ]
    if len(set(cols)) != len(cols):
        raise InputError(f"features must not repeat a column, got {cols}")
    return np.asarray(cols, dtype=np.intp)


def check_weights(sample_weight: Any, n: int) -> np.ndarray:
    """Non-negative sample weights normalised to sum 1 (uniform for None).

    Parameters
    ----------
    sample_weight : array-like of shape (n,) or None
        Non-negative weights with a positive sum.
    n : int
        Number of samples.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
    """
    if sample_weight is None:
        return np.full(n, 1.0 / n)
    w = as_vector(sample_weight, "sample_weight", size=n, size_name="n_samples")
    if np.any(w < 0) or w.sum() <= 0:
        raise InputError(
            "sample_weight must be non-negative with a positive sum, got "
            f"min {w.min():.3g}, sum {w.sum():.3g}"
        )
    return w / w.sum()


def as_indicators(F: np.ndarray, n: int, name: str) -> np.ndarray:
    """Boolean features ``F`` (bool or 0/1) as a bool matrix (n, m).

    Parameters
    ----------
    F : numpy.ndarray of shape (n,) or (n, m)
        Value of each Boolean feature at each of n rows.
    n : int
        Number of rows.
    name : str
        Its name, for messages.

    Returns
    -------
    numpy.ndarray of bool, shape (n, m)
    """
    F2 = F.reshape(-1, 1) if F.ndim == 1 else F
    if F2.ndim != 2 or F2.shape[0] != n or F2.shape[1] == 0:
        raise InputError(
            f"{name} has shape {F.shape} but must have shape ({n},) or ({n}, m)"
        )
    if F2.dtype != bool:
        vals = as_float(F2, name, "Boolean (bool or 0/1)")
        if not np.all((vals == 0) | (vals == 1)):
            raise InputError(
                f"{name} must be Boolean (bool or 0/1), got values "
                f"{np.unique(vals)[:5].tolist()}"
            )
        F2 = vals == 1
    return F2


def binary_columns(
    X: np.ndarray, cols: np.ndarray, name: str, advice: str = ""
) -> tuple[np.ndarray, np.ndarray]:
    """Larger and smaller value of each selected column; at most two allowed.

    Parameters
    ----------
    X : numpy.ndarray of shape (n, d)
        The data.
    cols : numpy.ndarray of int
        Columns to check.
    name : str
        The name of ``X``, for the message.
    advice : str, optional
        What to do instead, appended to the message.

    Returns
    -------
    high, low : numpy.ndarray of shape (len(cols),)
    """
    high = X[:, cols].max(axis=0)
    low = X[:, cols].min(axis=0)
    other = (X[:, cols] != high) & (X[:, cols] != low)
    if other.any():
        j = int(cols[np.flatnonzero(other.any(axis=0))[0]])
        n_values = np.unique(X[:, j]).size
        raise InputError(
            f"{name}[:, {j}] takes {n_values} distinct values but must be binary "
            f"(two values) for this exact estimate{advice}"
        )
    return high, low


def binary_coding(X: np.ndarray, name: str) -> tuple[float, float]:
    """The coding of binary data, ``(0.0, 1.0)`` or ``(-1.0, 1.0)``, else raise.

    Parameters
    ----------
    X : numpy.ndarray
        Data coded 0/1, or -1/+1.
    name : str
        Its name, for the message.

    Returns
    -------
    tuple of (float, float)
    """
    vals = np.unique(X)
    if np.all(np.isin(vals, (0.0, 1.0))):
        return (0.0, 1.0)
    if np.all(np.isin(vals, (-1.0, 1.0))):
        return (-1.0, 1.0)
    raise InputError(
        f"{name} must be coded 0/1 or -1/+1, got values {vals[:6].tolist()}"
    )
