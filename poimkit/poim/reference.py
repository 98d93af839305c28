"""Brute-force POIMs by enumerating all 4**L sequences (L <= 8).

Slow and obviously correct: every sequence x is scored, weighted by its
background probability ``Pr(X = x)`` and averaged. The exact engine
(`poimkit.poim.exact`) and any other fast POIM code is tested against these
functions. They accept any score function, so they also serve as the ground
truth for black-box (sampled) POIMs.

Convention shared with the engine: a positional k-mer ``(z, j)`` of
background probability 0 has ``Q_l(z, j) = 0`` (the conditional expectation
is undefined there).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..alphabet import check_codes, kmer_indices
from ..background import MarkovBackground, check_background
from ..errors import InputError
from ..importance.score_functions import ScoreFunction, score_function

__all__ = [
    "MAX_REFERENCE_LENGTH",
    "enumerate_sequences",
    "expected_score_reference",
    "instance_reference",
    "poim_reference",
]

MAX_REFERENCE_LENGTH = 8


def _check_range(
    value: Any, name: str, high: int, why: str = "", advice: str = ""
) -> int:
    """``value`` as int if it is an integer in ``1..high`` (bools refused)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not 1 <= value <= high
    ):
        raise InputError(
            f"{name} must be an integer in 1..{high}{why}, got {value!r}{advice}"
        )
    return int(value)


def _check_length(length: Any, name: str = "length") -> int:
    return _check_range(
        length,
        name,
        MAX_REFERENCE_LENGTH,
        " for brute-force enumeration of all 4**L sequences",
        "; use the exact engine (poimkit.poim.exact) for longer sequences",
    )


def enumerate_sequences(length: int) -> np.ndarray:
    """All 4**L sequences of length L in index order.

    Parameters
    ----------
    length : int
        Sequence length L, 1..8.

    Returns
    -------
    numpy.ndarray of uint8, shape (4**L, L)
        Row r is the sequence whose L-mer index (see `poimkit.kmer_index`) is
        r, so rows are in lexicographic order.

    Examples
    --------
    >>> enumerate_sequences(2)[[0, 1, 4, 15]].tolist()
    [[0, 0], [0, 1], [1, 0], [3, 3]]
    """
    length = _check_length(length)
    index = np.arange(4**length, dtype=np.int64)
    shifts = 2 * np.arange(length - 1, -1, -1, dtype=np.int64)
    return ((index[:, None] >> shifts[None, :]) & 3).astype(np.uint8)


def _weighted_scores(
    score: ScoreFunction, background: MarkovBackground
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """All sequences, their probabilities, their scores and E[s(X)]."""
    check_background(background)
    checked = score_function(
        score,
        name="score",
        methods=(),
        unit="sequence",
        squeeze=False,
        example="model.decision_function, mapping a uint8 array (n, L) to n scores",
    )
    length = _check_length(background.length, "background.length")
    X = enumerate_sequences(length)
    prob = np.exp(background.log_probability(X))
    s = checked(X)
    mean = float(np.dot(prob, s) / prob.sum())
    return X, prob, s, mean


def expected_score_reference(
    score: ScoreFunction, background: MarkovBackground
) -> float:
    """``E[s(X)]`` under the background, by enumeration.

    Parameters
    ----------
    score : callable
        Maps a uint8 array (n, L) of letter codes to scores of shape (n,),
        e.g. ``KmerWeights.decision_function``.
    background : MarkovBackground
        Chain for sequences of length L <= 8.

    Returns
    -------
    float

    Notes
    -----
    Probabilities are ``exp(background.log_probability(x))``, so results
    carry rounding of order 1e-16 relative.
    ``E[s(X)] = sum_x Pr(X = x) s(x) / sum_x Pr(X = x)`` over all 4**L
    sequences (the denominator is 1 up to rounding).

    Examples
    --------
    >>> bg = MarkovBackground.uniform(3)
    >>> round(expected_score_reference(lambda X: (X[:, 0] == 0).astype(float), bg), 12)
    0.25
    """
    return _weighted_scores(score, background)[3]


def poim_reference(
    score: ScoreFunction, background: MarkovBackground, max_order: int
) -> list[np.ndarray]:
    """POIMs ``Q_l`` for l = 1..max_order, by enumeration of all sequences.

    Parameters
    ----------
    score : callable
        Maps a uint8 array (n, L) of letter codes to scores of shape (n,),
        e.g. ``KmerWeights.decision_function`` or a model's
        ``decision_function``.
    background : MarkovBackground
        Chain for sequences of length L <= 8.
    max_order : int
        Largest k-mer length K, 1..L.

    Returns
    -------
    list of numpy.ndarray
        ``Q[l - 1]`` has shape ``(L - l + 1, 4**l)``; entry ``[j, z]`` is
        ``Q_l(z, j)`` for the k-mer with index z starting at 0-based j.

    Raises
    ------
    InputError
        If L > 8, max_order is out of range or score returns a wrong shape.

    Notes
    -----
    .. code-block:: text

        Q_l(z, j) = E[s(X) | X[j:j+l] = z] - E[s(X)]
                  = sum_{x: x[j:j+l] = z} Pr(x) (s(x) - E[s(X)])
                    / sum_{x: x[j:j+l] = z} Pr(x),

    and ``Q_l(z, j) = 0`` when ``Pr(X[j:j+l] = z) = 0``. Scores are centred
    before averaging, so that ``sum_z Pr(z at j) Q_l(z, j) = 0`` holds to
    rounding (law of total expectation).

    Examples
    --------
    >>> bg = MarkovBackground.uniform(3)
    >>> q = poim_reference(lambda X: (X[:, 1] == 0).astype(float), bg, 1)
    >>> q[0][1].round(12).tolist()  # A at position 2 adds 1 - 1/4, others -1/4
    [0.75, -0.25, -0.25, -0.25]
    >>> bool(np.abs(q[0][0]).max() < 1e-12)  # no effect at position 1 under order 0
    True
    """
    X, prob, s, mean = _weighted_scores(score, background)
    length = X.shape[1]
    max_order = _check_range(max_order, "max_order", length)
    centred = prob * (s - mean)
    out = []
    for width in range(1, max_order + 1):
        n_kmers = 4**width
        index = kmer_indices(X, width)  # (4**L, L - width + 1)
        q = np.zeros((length - width + 1, n_kmers))
        for j in range(length - width + 1):
            mass = np.bincount(index[:, j], weights=prob, minlength=n_kmers)
            total = np.bincount(index[:, j], weights=centred, minlength=n_kmers)
            seen = mass > 0
            q[j, seen] = total[seen] / mass[seen]
        out.append(q)
    return out


def instance_reference(
    score: ScoreFunction, background: MarkovBackground, x: ArrayLike, max_order: int
) -> list[np.ndarray]:
    """POIM entries of the k-mers of one sequence, by enumeration.

    Parameters
    ----------
    score : callable
        Maps a uint8 array (n, L) of letter codes to scores of shape (n,).
    background : MarkovBackground
        Chain for sequences of length L <= 8.
    x : array-like of int, shape (L,) or (1, L)
        The sequence (letter codes 0..3).
    max_order : int
        Largest k-mer length K, 1..L.

    Returns
    -------
    list of numpy.ndarray
        Element ``l - 1`` has shape ``(L - l + 1,)``: entry j is
        ``E[s(X) | X[j:j+l] = x[j:j+l]] - E[s(X)] = Q_l(x[j:j+l], j)``
        (0 if ``x[j:j+l]`` has background probability 0).

    Examples
    --------
    >>> bg = MarkovBackground.uniform(3)
    >>> q = instance_reference(lambda X: 1.0 * (X[:, 1] == 0), bg, [2, 0, 1], 2)
    >>> [(v.round(12) + 0.0).tolist() for v in q]  # x = GAC
    [[0.0, 0.75, 0.0], [0.75, 0.75]]
    """
    x = check_codes(np.asarray(x).reshape(1, -1) if np.ndim(x) == 1 else x, "x")
    if x.shape != (1, background.length):
        raise InputError(
            f"x has shape {x.shape} but must have shape ({background.length},) or "
            f"(1, {background.length}) to match the background"
        )
    poims = poim_reference(score, background, max_order)
    out = []
    for width, q in enumerate(poims, start=1):
        target = kmer_indices(x, width)[0]
        out.append(q[np.arange(q.shape[0]), target])
    return out
