"""A position-free POIM read off per-letter attributions of records, in context.

A POIM inserts a k-mer into *background* sequences, so it cannot see a k-mer
that matters only beside a partner: motifs A and B that act only together,
at a spacing, get a POIM near zero (a background seldom holds the partner at
the right place). Attributions are taken in the records' own context, where
the partner is present. `attribution_poim` averages, over every occurrence of
a k-mer z in the attributed records, the sum of the contributions of its
letters:

.. code-block:: text

    Q_attr(z) = sum_r V_r(z) / sum_r C_r(z)

with ``C_r(z)`` the occurrences of z in record r and ``V_r(z)`` the summed
contributions of their letters (an occurrence's letters counted once each
per occurrence). The standard error treats the records as independent
clusters (the ratio estimator's delta-method error):

.. code-block:: text

    se^2 = G / (G - 1) sum_r (V_r - Q C_r)^2 / (sum_r C_r)^2

with G the records holding z. The result is a position-free `Poim`
(metadata ``method = "attributions"``), which `poimkit.extract_motifs` turns
into motifs with the same evidence on held-out records as any POIM. It
describes the model *on those records*: a k-mer the model uses only in the
context of the attributed records is credited, and one absent from them is 0.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int
from .._version import __version__
from ..alphabet import N_LETTERS, kmer_indices
from ..errors import InputError
from .attributions import Attributions

__all__ = ["attribution_poim"]

#: records whose k-mer tables are summed at once (bounds memory: 4**6 each)
RECORD_CHUNK = 256


def attribution_poim(found: Attributions, max_order: int = 6):
    """A position-free POIM of k-mers' summed letter attributions in context.

    Parameters
    ----------
    found : Attributions
        Attributions of records (`poimkit.explain.ism.ism_attributions`,
        `poimkit.explain.attributions.letter_attributions`), for example of
        the records the model scores highest and lowest.
    max_order : int, default 6
        Largest k-mer length K, at most the shortest record's length.

    Returns
    -------
    Poim
        ``q(l)[j, z] = Q_attr(z)`` at every start j (position-free; length the
        longest record's), with standard errors: NaN where fewer than two
        records hold z, and ``q = 0`` where none does. Metadata ``method =
        "attributions"``, ``model = "position-free"``, ``n_samples`` the
        records.

    Raises
    ------
    InputError
        If ``max_order`` is not in 1..min(shortest record, 31).

    Examples
    --------
    >>> ohe = np.zeros((2, 4, 3))
    >>> ohe[0, [0, 1, 0], [0, 1, 2]] = 1  # ACA
    >>> ohe[1, [0, 1, 1], [0, 1, 2]] = 1  # ACC
    >>> contrib = np.array([[1.0, 2.0, 0.0], [3.0, 0.0, 1.0]])
    >>> found = Attributions(ohe * contrib[:, None, :], ohe, np.array([3, 3]))
    >>> poim = attribution_poim(found, 2)
    >>> poim.q(2)[0, 1].item()  # AC: 1 + 2 in the first record, 3 + 0 in the second
    3.0
    >>> poim.q(1)[0, 1].item()  # C: 2, 0 and 1
    1.0
    """
    from ..background import MarkovBackground
    from ..poim import Poim

    lengths = np.asarray(found.lengths, dtype=np.int64)
    if lengths.size == 0:
        raise InputError("no attributed records")
    max_order = check_int(max_order, "max_order", 1)
    if max_order > min(int(lengths.min()), 31):
        raise InputError(
            f"max_order must be at most the shortest record's length "
            f"({int(lengths.min())}) and 31, got {max_order}"
        )
    codes = np.argmax(found.ohe, axis=1).astype(np.uint8)
    contrib = found.contributions
    width = codes.shape[1]
    q, stderr = [], []
    for l in range(1, max_order + 1):
        sums = np.zeros((6, N_LETTERS**l))
        for first in range(0, codes.shape[0], RECORD_CHUNK):
            rows = slice(first, first + RECORD_CHUNK)
            sums += _cluster_sums(codes[rows], contrib[rows], lengths[rows], l)
        est, se = _estimates(sums)
        q.append(np.broadcast_to(est, (width - l + 1, est.size)).copy())
        stderr.append(np.broadcast_to(se, (width - l + 1, se.size)).copy())
    metadata = {
        "method": "attributions",
        "estimator": "attributions",
        "windows": "pooled",
        "model": "position-free",
        "n_samples": str(lengths.size),
        "exact": "no: k-mers' summed letter attributions in the records' context",
        "poimkit_version": __version__,
    }
    return Poim(q, MarkovBackground.uniform(width), metadata, stderr)


def _cluster_sums(
    codes: np.ndarray, contrib: np.ndarray, lengths: np.ndarray, l: int
) -> np.ndarray:
    """Per-k-mer sums over records of G, C, V, V^2, V C and C^2 (rows, in order).

    ``C`` and ``V`` are a record's occurrences of the k-mer and their summed
    letter contributions; starts that run past a record's end are left out.
    """
    n, width = codes.shape
    starts = width - l + 1
    keys = kmer_indices(codes, l)
    cum = np.concatenate([np.zeros((n, 1)), np.cumsum(contrib, axis=1)], axis=1)
    values = cum[:, l : l + starts] - cum[:, :starts]
    inside = np.arange(starts)[None, :] <= (lengths[:, None] - l)
    size = N_LETTERS**l
    cell = (np.arange(n)[:, None] * size + keys)[inside]
    c = np.bincount(cell, minlength=n * size).reshape(n, size)
    v = np.bincount(cell, weights=values[inside], minlength=n * size).reshape(n, size)
    return np.stack(
        [
            (c > 0).sum(0),
            c.sum(0),
            v.sum(0),
            (v * v).sum(0),
            (v * c).sum(0),
            (c * c).sum(0),
        ]
    ).astype(np.float64)


def _estimates(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``Q_attr`` and its clustered standard error from `_cluster_sums`' rows."""
    g, c, v, vv, vc, cc = sums
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.where(c > 0, v / c, 0.0)
        spread = np.maximum(vv - 2 * m * vc + m * m * cc, 0.0)
        se = np.sqrt(g / (g - 1) * spread) / c
    return m, np.where(g >= 2, se, np.nan)
