"""Exact positional k-mer weights of a `WDLinearSVC` without hashed orders.

An occurrence of y at p feeds the features ``(k, p - j, y)``, ``j = 0..S``,
with factors ``coef_k * band[k, p, j]`` (see `poimkit.svm.linear.layout`), so
the indicator weight ``w_k[p, y]`` is the sum of those features' weights times
the factors. Dense orders are read from their full tables, sparse ones from the
present keys: a k-mer no training sequence had at p (or, for WDS, within S
positions of it) has weight 0.
"""

from __future__ import annotations

import numpy as np

from ...kernels.explicit import KmerWeights, sum_duplicates
from .layout import FeatureLayout


def exact_tables(coef: np.ndarray, layout: FeatureLayout) -> list[np.ndarray]:
    """Indicator weights ``w_k[p, y]`` of the dense orders.

    Parameters
    ----------
    coef : numpy.ndarray of float64, shape (n_columns,)
        Weights of the feature map (``WDLinearSVC.coef_``).
    layout : FeatureLayout
        The feature map.

    Returns
    -------
    list of numpy.ndarray
        Table k (k = 1..n_dense) has shape ``(L - k + 1, 4**k)`` (see
        `poimkit.kernels.explicit.KmerWeights.from_tables`).
    """
    tables = []
    for k in range(1, layout.n_dense + 1):
        n_pos, width = layout.length - k + 1, 4**k
        start = layout.offsets[k - 1]
        features = coef[start : start + n_pos * width].reshape(n_pos, width)
        table = np.zeros((n_pos, width))
        for j in range(layout.shift + 1):
            factor = layout.coef[k - 1] * layout.band[k - 1, j:n_pos, j]
            table[j:] += factor[:, None] * features[: n_pos - j]
        tables.append(table)
    return tables


def sparse_order(
    coef: np.ndarray, layout: FeatureLayout, k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR block ``(indptr, kmers, values)`` of the sparse order k.

    Parameters
    ----------
    coef : numpy.ndarray of float64, shape (n_columns,)
        Weights of the feature map.
    layout : FeatureLayout
        The feature map; order k sparse.
    k : int
        The order.

    Returns
    -------
    indptr, kmers, values : numpy.ndarray
        As in `poimkit.kernels.explicit.KmerWeights` (zeros left out).
    """
    present = layout.present
    o = k - present.first_order
    count = present.counts[o]
    n_pos = count.shape[0]
    kmer = present.keys[o].astype(np.int64) - 1
    region = np.repeat(np.arange(n_pos), count)
    start = layout.offsets[k - 1]
    features = coef[start : start + kmer.size]
    pos, kmers, vals = [], [], []
    for j in range(layout.shift + 1):
        p = region + j
        keep = p < n_pos
        pos.append(p[keep])
        kmers.append(kmer[keep])
        vals.append(
            layout.coef[k - 1] * layout.band[k - 1, p[keep], j] * features[keep]
        )
    pos, kmer, val = sum_duplicates(  # WDS: equal (position, k-mer) added
        np.concatenate(pos), np.concatenate(kmers), np.concatenate(vals)
    )
    nonzero = val != 0.0
    pos, kmer, val = pos[nonzero], kmer[nonzero], val[nonzero]
    indptr = np.searchsorted(pos, np.arange(n_pos + 1)).astype(np.int64)
    return indptr, kmer, np.ascontiguousarray(val, dtype=np.float64)


def explicit_kmer_weights(
    coef: np.ndarray, layout: FeatureLayout, bias: float
) -> KmerWeights:
    """The `KmerWeights` of a feature map whose orders are all dense or sparse.

    Parameters
    ----------
    coef : numpy.ndarray of float64, shape (n_columns,)
        Weights of the feature map (``WDLinearSVC.coef_``).
    layout : FeatureLayout
        The feature map; no hashed order.
    bias : float
        The intercept.

    Returns
    -------
    KmerWeights
        Orders 1..degree; its ``decision_function`` equals the model's.
    """
    weights = KmerWeights.from_tables(exact_tables(coef, layout), bias)
    weights.length = layout.length
    for k in range(layout.n_dense + 1, layout.n_exact + 1):
        weights.append_order(*sparse_order(coef, layout, k))
    return weights
