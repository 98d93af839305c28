"""Exact per-letter contributions and hypothetical contributions of k-mer models.

A k-mer model's score of a record is the intercept plus a sum of k-mer
weights: positional ``w_k[j, y]`` for the WD / WDS models (their explicit
weights, `poimkit.kernels.explicit`), or an l-mer table times a factor of
the record for the gapped k-mer models (``1 / scale(length)`` for
`poimkit.GkmSVC`, ``1 / sqrt(K(x, x))`` for LS-GKM's normalised kernels).
Each weight is shared equally by its k letters, so a record's contributions
sum to its score minus the intercept, exactly (no sampling, no baseline, no
model calls).

The *hypothetical* contribution of letter b at position i is what position i
would get with b there and every other letter as it is: the weights of the
k-mers covering i read with b at i. At the record's own letter it is the
contribution; modisco-lite takes these (``attr``) with the one-hot records
(``ohe``), both records x 4 x length. For an LS-GKM model the record's own
normalisation factor is kept (the factor of the changed record differs by
a part in ``l / length`` per letter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..additive import decomposition
from ..errors import InputError


@dataclass(frozen=True)
class Attributions:
    """Per-letter attributions of records.

    Attributes
    ----------
    hypothetical : numpy.ndarray of float64, shape (n, 4, L)
        The contribution of every letter at every position (0 past a
        record's end).
    ohe : numpy.ndarray of float64, shape (n, 4, L)
        The records one-hot (A, C, G, T rows; 0 past a record's end).
    lengths : numpy.ndarray of int64, shape (n,)
        The records' lengths.
    """

    hypothetical: np.ndarray
    ohe: np.ndarray
    lengths: np.ndarray

    @property
    def contributions(self) -> np.ndarray:
        """Each letter's contribution, shape (n, L): sums to score - intercept."""
        return (self.hypothetical * self.ohe).sum(axis=1)


def letter_attributions(
    model: object, sequences: np.ndarray | Sequence[np.ndarray]
) -> Attributions:
    """Exact contributions and hypothetical contributions of every record.

    Parameters
    ----------
    model : WDKernelSVC, WDLinearSVC, WDKernelSVR, GkmSVC, GkmSVR or LsgkmModel
        A fitted k-mer model (positional models need records of their length).
    sequences : numpy.ndarray of uint8, shape (n, L), or list of arrays
        Letter codes 0-3 (any lengths for the gapped k-mer models).

    Returns
    -------
    Attributions

    Raises
    ------
    InputError
        For a model without k-mer weights (a motif model, LS-GKM's RBF
        kernels) or records of the wrong length.

    Examples
    --------
    >>> from poimkit import GkmSVC
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=30, n_neg=30, length=30, random_state=0)
    >>> model = GkmSVC(l=6, k=4).fit(X, y)
    >>> found = letter_attributions(model, X[:2])
    >>> total = found.contributions.sum(axis=1) + model.intercept_
    >>> bool(np.allclose(total, model.decision_function(X[:2])))
    True
    """
    records = [np.asarray(x, dtype=np.uint8) for x in sequences]
    if not records:
        raise InputError("no records to explain")
    lengths = np.array([x.size for x in records], dtype=np.int64)
    if any(((x > 3).any()) for x in records):
        raise InputError("records must hold the letter codes 0-3 (A, C, G, T) only")
    X = np.zeros((len(records), int(lengths.max())), dtype=np.uint8)
    for row, x in zip(X, records, strict=True):
        row[: x.size] = x
    kind = decomposition(model)
    out = np.zeros((X.shape[0], 4, X.shape[1]))
    if kind == "positional":
        _positional(model.explicit_weights(), X, lengths, out)
    elif kind == "lmer_table":
        _lmers(model, records, X, lengths, out)
    else:
        raise InputError(
            f"letter attributions need k-mer weights; {type(model).__name__} has none "
            "(a motif model or an LS-GKM RBF kernel)"
        )
    ohe = np.zeros_like(out)
    rows, cols = np.nonzero(np.arange(X.shape[1])[None, :] < lengths[:, None])
    ohe[rows, X[rows, cols], cols] = 1.0
    return Attributions(out, ohe, lengths)


def _positional(weights, X, lengths, out) -> None:
    """Positional weights: every order's share, for records of the model's length."""
    from ._attributions import positional_hypothetical

    if (lengths != weights.length).any():
        raise InputError(
            f"a positional model explains records of its length {weights.length}; "
            f"got lengths {sorted(set(lengths.tolist()))[:5]}"
        )
    for k in range(1, weights.max_order + 1):
        positional_hypothetical(X, lengths, k, *weights.order(k), out)


def _lmers(model, records, X, lengths, out) -> None:
    """An l-mer table times each record's factor (its length's, or its own)."""
    from ._attributions import lmer_hypothetical

    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    factors = model.record_factors(np.concatenate(records), offsets)
    scale = np.asarray(factors, dtype=np.float64)
    table = np.ascontiguousarray(model.lmer_table(), dtype=np.float64)
    lmer_hypothetical(X, lengths, int(model.l), table, scale, out)
