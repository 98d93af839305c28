"""In-silico mutagenesis: per-letter attributions of any model, from its scores.

A model that only scores (a CNN, any wrapped torch module, an LS-GKM RBF
model, a motif model) has no k-mer decomposition; `ism_attributions` scores
every record and each of its ``3 L`` single-letter variants. With
``d[b, i] = s(x with b at i) - s(x)`` (0 at the record's own letter), the
hypothetical contribution of letter b at position i is

    h[b, i] = d[b, i] - mean_b' d[b', i],

the letter's effect against the average letter there; the record's own
letter gets ``h[x_i, i] = -mean_b' d[b', i]``. For a score that is a sum of
per-letter weights, ``s(x) = c + sum_i w[x_i, i]``, this is exactly
``w[b, i] - mean_b' w[b', i]`` (no sampling, no gradients, no baseline). The
result is an `poimkit.explain.attributions.Attributions`, written by
``poimkit explain`` as modisco-lite's ``ohe.npz`` and ``attr.npz``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InputError
from .attributions import Attributions

#: variants scored per model call at most (records are grouped up to it)
CHUNK = 20_000


def mutants(codes: np.ndarray) -> np.ndarray:
    """A record followed by its ``3 L`` single-letter variants, position by position.

    Parameters
    ----------
    codes : numpy.ndarray of uint8, shape (L,)

    Returns
    -------
    numpy.ndarray of uint8, shape (1 + 3 L, L)
        Row ``1 + 3 i + t`` has letter ``(codes[i] + 1 + t) % 4`` at ``i``.

    Examples
    --------
    >>> mutants(np.array([0, 3], np.uint8)).tolist()
    [[0, 3], [1, 3], [2, 3], [3, 3], [0, 0], [0, 1], [0, 2]]
    """
    length = codes.size
    out = np.repeat(codes[None, :], 1 + 3 * length, axis=0)
    alternatives = (codes[:, None].astype(np.int64) + np.arange(1, 4)) % 4
    out[1 + np.arange(3 * length), np.repeat(np.arange(length), 3)] = (
        alternatives.ravel()
    )
    return out


def count_ism_evaluations(lengths: Sequence[int]) -> int:
    """Records `ism_attributions` scores: ``sum (1 + 3 L)``.

    Parameters
    ----------
    lengths : sequence of int

    Returns
    -------
    int

    Examples
    --------
    >>> count_ism_evaluations([10, 20])
    92
    """
    return int(sum(1 + 3 * int(n) for n in lengths))


def ism_attributions(
    model: object, sequences: np.ndarray | Sequence[np.ndarray]
) -> Attributions:
    """Per-letter attributions of any model by in-silico mutagenesis.

    Parameters
    ----------
    model : object
        With ``decision_function`` on letter codes (records of their own
        lengths, or of the model's length).
    sequences : numpy.ndarray of shape (n, L) or sequence of code arrays
        The records.

    Returns
    -------
    Attributions
        ``hypothetical[r, b, i] = h[b, i]`` of record r (see the module);
        zero past a record's end.

    Notes
    -----
    Scores `count_ism_evaluations` records, in calls of up to `CHUNK`.

    Examples
    --------
    >>> score = lambda X: (np.asarray(X) == 2).sum(axis=1).astype(float)
    >>> class Count:
    ...     decision_function = staticmethod(score)
    >>> found = ism_attributions(Count(), np.array([[2, 0]], np.uint8))
    >>> found.hypothetical[0, :, 0].tolist()  # G counts 1, the others 0
    [-0.25, -0.25, 0.75, -0.25]
    """
    from ..kernels.gkm import as_sequences

    if len(sequences) == 0:
        raise InputError("no records to explain")
    seqs = as_sequences(sequences)
    lengths = np.array([len(s) for s in seqs], dtype=np.int64)
    width = int(lengths.max())
    hypothetical = np.zeros((len(seqs), 4, width))
    ohe = np.zeros((len(seqs), 4, width))
    group: list[int] = []
    for r, s in enumerate(seqs):
        ohe[r, s, np.arange(s.size)] = 1.0
        group.append(r)
        if sum(1 + 3 * len(seqs[g]) for g in group) >= CHUNK or r == len(seqs) - 1:
            _score_group(model, seqs, group, hypothetical)
            group = []
    return Attributions(hypothetical, ohe, lengths)


def _score_group(model, seqs, group: list[int], hypothetical: np.ndarray) -> None:
    """Fill ``hypothetical`` for the records of ``group``, in one model call."""
    blocks = [mutants(seqs[r]) for r in group]
    if len({b.shape[1] for b in blocks}) == 1:
        batch = np.concatenate(blocks)
    else:
        batch = [row for block in blocks for row in block]
    scores = np.asarray(model.decision_function(batch), dtype=np.float64)
    offset = 0
    for r, block in zip(group, blocks, strict=True):
        length = block.shape[1]
        s = scores[offset : offset + block.shape[0]]
        offset += block.shape[0]
        delta = np.zeros((4, length))
        alternatives = (seqs[r][:, None].astype(np.int64) + np.arange(1, 4)) % 4
        delta[alternatives.T, np.arange(length)[None, :]] = (
            s[1:].reshape(length, 3).T - s[0]
        )
        hypothetical[r, :, :length] = delta - delta.mean(axis=0, keepdims=True)
