"""The fitted sparse table: shared features plus the private ones that carry weight.

While training, a feature of a sparse order that only one training sequence i
has (a *private* feature) is not in the table: with L2 regularisation the
optimal weights of sequence i's private features are proportional to their
values in ``phi(x_i)`` (any other direction only adds to ``||w||^2``), so they
are trained as one column of value ``s_i = ||phi_private(x_i)||`` and weight
``v_i`` (`poimkit.svm.linear.table`). This is exact: the objective on the
reduced map has the same minimum. After training, `materialise` writes the
private features of every sequence with ``v_i != 0`` into the table with
their weights ``v_i phi_f(x_i) / s_i``, so that new sequences, explicit
weights and POIMs see the full weight vector.
"""

from __future__ import annotations

import numpy as np

from . import _table
from .layout import FeatureLayout
from .table import PresentKeys

#: row segments in which the private features are counted and written (in
#: parallel; any number gives the same table)
N_SEGMENTS = 64


def _private_order(chunks, layout, k, count, keys, weights, rows, scale, absent):
    """``(count, keys, weights)`` of order k in the fitted table.

    Each region holds its shared keys (``count``, ``keys`` and ``weights`` of
    the training table), then the private features of the rows ``rows`` of
    the training data, row after row. ``scale[a]``: the factor of the a-th
    row's private features. ``absent``: per chunk, which occurrences of its
    selected rows fed absent features at order k - 1 (empty: unknown);
    replaced by those of order k.
    """
    n_pos = layout.length - k + 1
    shift = layout.shift
    factors = np.ascontiguousarray(
        layout.coef[k - 1] * layout.band[k - 1, :n_pos], dtype=np.float64
    )
    parts = []  # per chunk with selected rows: (chunk, X, rows, first row, counts)
    row0 = 0
    for c, X in enumerate(chunks):
        m = X.shape[0]
        sel = (rows[(rows >= row0) & (rows < row0 + m)] - row0).astype(np.int64)
        if sel.size:
            X = np.ascontiguousarray(X, dtype=np.uint8)
            seg_counts = np.zeros((min(N_SEGMENTS, sel.size), n_pos), np.int64)
            known = absent[c]
            absent[c] = np.empty((sel.size, n_pos * (shift + 1)), np.bool_)
            _table.private_counts(
                X, sel, k, shift, layout.fmap, known, absent[c], seg_counts
            )
            parts.append((c, X, sel, row0, seg_counts))
        row0 += m
    seg_counts = np.concatenate([p[-1] for p in parts] or [np.zeros((0, n_pos), int)])
    size = int(count.sum() + seg_counts.sum())
    out = np.empty(n_pos, np.int64), np.empty(size, np.uint64), np.empty(size)
    at = _table.place_regions(count, keys, weights, seg_counts, *out)
    g = 0
    for c, X, sel, row0, part_counts in parts:
        g, g0 = g + len(part_counts), g
        _table.write_private(
            *(X, sel, k, shift, factors, scale[row0 + sel], absent[c]),
            *(at[g0:g], out[1], out[2]),
        )
    return out


def materialise(
    chunks: list[np.ndarray], layout: FeatureLayout, coef: np.ndarray
) -> tuple[PresentKeys, np.ndarray]:
    """The fitted table and weights: private features with weight added.

    Parameters
    ----------
    chunks : list of numpy.ndarray of uint8
        The training sequences, chunk by chunk (in training order).
    layout : FeatureLayout
        The training feature map, with private columns.
    coef : numpy.ndarray of float64, shape (layout.n_columns,)
        Trained weights (bias excluded).

    Returns
    -------
    present : PresentKeys
        Shared and weighted private keys of every sparse order, no private
        columns.
    coef : numpy.ndarray of float64
        The weights in the column order of ``make_layout(present=present)``.
    """
    present = layout.present
    n = layout.n_private
    v = coef[layout.private_offset : layout.private_offset + n]
    norm = layout.private_norm
    scale = np.divide(v, norm, out=np.zeros(n), where=norm > 0)
    rows = np.flatnonzero(scale != 0.0)
    counts, keys, weights = [], [], []
    absent = [np.zeros((0, 0), np.bool_)] * len(chunks)  # nothing known yet
    for o in range(present.n_orders):
        k = present.first_order + o
        start = layout.offsets[k - 1]
        count = present.counts[o]
        out = _private_order(
            chunks,
            layout,
            k,
            count,
            present.keys[o],
            coef[start : start + int(count.sum())],
            rows,
            scale,
            absent,
        )
        counts.append(out[0])
        keys.append(out[1])
        weights.append(out[2])
    fitted = PresentKeys(first_order=present.first_order, counts=counts, keys=keys)
    end = layout.private_offset
    first = (
        int(layout.offsets[layout.n_exact]) if layout.n_exact < layout.degree else end
    )
    hashed = coef[first:end]
    dense = coef[: int(layout.offsets[layout.n_dense])]
    return fitted, np.concatenate([dense, *weights, hashed])
