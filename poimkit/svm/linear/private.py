"""The fitted sparse table: shared features plus the private ones that carry weight.

While training, a feature of a sparse order that only one training sequence i
has (a *private* feature) is not in the table: with L2 regularisation the
optimal weights of sequence i's private features are proportional to their
values in ``phi(x_i)`` (any other direction only adds to ``||w||^2``), so they
are trained as one column of value ``s_i = ||phi_private(x_i)||`` and weight
``v_i`` (`poimkit.svm.linear.keys`). This is exact: the objective on the
reduced map has the same minimum. After training, `materialise` writes the
private features of every sequence with ``v_i != 0`` into the table with
their weights ``v_i phi_f(x_i) / s_i``, so that new sequences, explicit
weights and POIMs see the full weight vector.
"""

from __future__ import annotations

import numpy as np

from ...kernels.explicit import sum_duplicates
from . import _table
from .keys import PresentKeys
from .layout import FeatureLayout


def _private_order(chunks, layout, k, scale, rows, absent, buffers):
    """``(r, key, weight)`` of the private features of order k, one per feature.

    ``absent``: per chunk, which occurrences of its selected rows fed absent
    features at order k - 1 (empty: unknown); replaced by those of order k.
    ``buffers``: the four output arrays of `_table.private_entries`, large
    enough for the first sparse order (reused by every order: fresh arrays
    of that size cost more in page faults than their writes).
    """
    n_pos = layout.length - k + 1
    shift = layout.shift
    factors = np.ascontiguousarray(
        layout.coef[k - 1] * layout.band[k - 1, :n_pos], dtype=np.float64
    )
    seg = n_pos * (shift + 1)  # entries a row may give
    out_r, out_key, out_row, out_val = buffers
    row0, t = 0, 0  # the chunks' entries follow each other in the outputs
    for c, X in enumerate(chunks):
        m = X.shape[0]
        sel = rows[(rows >= row0) & (rows < row0 + m)] - row0
        if sel.size:
            known, absent[c] = absent[c], np.empty((sel.size, seg), np.bool_)
            t1 = t + _table.private_entries(
                np.ascontiguousarray(X, dtype=np.uint8),
                sel.astype(np.int64),
                k,
                shift,
                factors,
                layout.fmap,
                known,
                absent[c],
                out_r[t:],
                out_key[t:],
                out_row[t:],
                out_val[t:],
            )
            out_val[t:t1] *= scale[row0 + sel[out_row[t:t1]]]
            t = t1
        row0 += m
    r, key, val = out_r[:t], out_key[:t], out_val[:t]
    # WDS: one feature fed by several occurrences in its row, added up (WD: a
    # private feature occurs once, in one row)
    return sum_duplicates(r, key, val) if shift else (r, key, val)


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
    size = rows.size * (layout.length - present.first_order + 1) * (layout.shift + 1)
    buffers = (np.empty(size, np.int64), np.empty(size, np.uint64))
    buffers += (np.empty(size, np.int64), np.empty(size))
    for o in range(present.n_orders):
        k = present.first_order + o
        n_pos = layout.length - k + 1
        r, key, val = _private_order(chunks, layout, k, scale, rows, absent, buffers)
        count = present.counts[o]
        start = layout.offsets[k - 1]
        size = int(count.sum()) + r.size
        out = np.empty(n_pos, np.int64), np.empty(size, np.uint64), np.empty(size)
        _table.merge_regions(
            count,
            present.keys[o],
            coef[start : start + size - r.size],
            r,
            key,
            val,
            *out,
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
