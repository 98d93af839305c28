"""Random DNA and motifs planted into it, with the distribution that was planted."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..alphabet import N_LETTERS, check_codes, encode
from ..background import MarkovBackground
from ..errors import InputError

__all__ = ["plant_motif", "planting_pwm", "random_dna"]


def _motif_codes(motif: str) -> np.ndarray:
    if not isinstance(motif, str) or not motif:
        raise InputError(f"motif must be a non-empty DNA string, got {motif!r}")
    return encode(motif, ["motif"])[0]


def random_dna(
    n: int,
    length: int,
    rng: np.random.Generator | int | None = None,
    *,
    background: MarkovBackground | None = None,
) -> np.ndarray:
    """Random DNA: i.i.d. uniform letters, or drawn from a Markov background.

    Parameters
    ----------
    n : int
        Number of sequences.
    length : int
        Sequence length.
    rng : numpy.random.Generator, int or None
        Random generator, or a seed for `numpy.random.default_rng`.
    background : MarkovBackground, optional
        Chain to sample from (`MarkovBackground.sample`, any order,
        homogeneous or positional); its length must equal ``length``.
        Default: every letter uniform and independent.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, length)
        Codes 0..3 (each with probability 1/4 without a background).

    Examples
    --------
    >>> X = random_dna(3, 5, np.random.default_rng(0))
    >>> X.shape, X.dtype.name, bool(X.max() <= 3)
    ((3, 5), 'uint8', True)
    >>> bg = MarkovBackground.from_letter_probabilities([0, 0, 0, 1.0], 4)
    >>> random_dna(1, 4, 0, background=bg).tolist()
    [[3, 3, 3, 3]]
    """
    if n < 0 or length < 1:
        raise InputError(f"need n >= 0 and length >= 1, got n={n}, length={length}")
    rng = np.random.default_rng(rng)
    if background is None:
        return rng.integers(0, N_LETTERS, size=(n, length), dtype=np.uint8)
    if not isinstance(background, MarkovBackground):
        raise InputError(
            f"background must be a MarkovBackground, got {type(background).__name__}"
        )
    if background.length != length:
        raise InputError(
            f"background is for sequences of length {background.length} but "
            f"length is {length}"
        )
    return background.sample(n, rng)


def plant_motif(
    X: np.ndarray,
    starts: np.ndarray,
    motif: str,
    *,
    mutate: bool = True,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Copy of ``X`` with ``motif`` written at ``starts``, optionally mutated.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Background sequences.
    starts : array of int, shape (n,)
        0-based start of the motif in each row; a negative value leaves the
        row unchanged.
    motif : str
        Consensus over ``ACGT``, length ``m <= L``.
    mutate : bool
        If true, each planted copy then has one motif position, chosen
        uniformly, replaced by a uniformly random letter (which equals the
        consensus letter with probability 1/4). The planted columns then
        follow `planting_pwm`.
    rng : numpy.random.Generator, int or None
        Random generator or seed (used only when ``mutate``). Draws: the
        mutated columns, then the new letters, one per planted row.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, L)

    Examples
    --------
    >>> from poimkit.alphabet import decode
    >>> X = np.zeros((2, 10), dtype=np.uint8)
    >>> decode(plant_motif(X, np.array([2, -1]), "GATTACA", mutate=False))
    ['AAGATTACAA', 'AAAAAAAAAA']
    """
    X = check_codes(X).copy()
    codes = _motif_codes(motif)
    m = len(codes)
    starts = np.asarray(starts)
    if starts.shape != (X.shape[0],) or starts.dtype.kind not in "iu":
        raise InputError(
            f"starts has shape {starts.shape} and dtype {starts.dtype} but must "
            f"be integers of shape ({X.shape[0]},)"
        )
    rows = np.flatnonzero(starts >= 0)
    at = starts[rows].astype(np.int64)
    if at.size and at.max() + m > X.shape[1]:
        raise InputError(
            f"a motif of length {m} starting at 0-based {int(at.max())} does not "
            f"fit into sequences of length {X.shape[1]}"
        )
    X[rows[:, None], at[:, None] + np.arange(m)] = codes
    if mutate and rows.size:
        rng = np.random.default_rng(rng)
        columns = rng.integers(0, m, size=rows.size)
        letters = rng.integers(0, N_LETTERS, size=rows.size, dtype=np.uint8)
        X[rows, at + columns] = letters
    return X


def planting_pwm(motif: str, mutate: bool = True) -> np.ndarray:
    r"""Per-column letter distribution of the motif copies `plant_motif` writes.

    Parameters
    ----------
    motif : str
        Consensus of length ``m`` over ``ACGT``.
    mutate : bool
        Whether one uniformly chosen position is replaced by a uniform letter.

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
        Row ``c`` is the distribution of the letter at motif column ``c``
        (columns ``A, C, G, T``); rows sum to 1.

    Notes
    -----
    With mutation, column ``c`` is hit with probability ``1/m`` and then gets
    a uniform letter, so

    .. math::

        P(\text{consensus}) = 1 - \frac{1}{m} + \frac{1}{4m}, \qquad
        P(\text{other letter}) = \frac{1}{4m}.

    Without mutation every row is the one-hot consensus letter.

    Examples
    --------
    >>> planting_pwm("GA").tolist()
    [[0.125, 0.125, 0.625, 0.125], [0.625, 0.125, 0.125, 0.125]]
    """
    codes = _motif_codes(motif)
    m = len(codes)
    rate = 1.0 / m if mutate else 0.0
    pwm = np.full((m, N_LETTERS), rate / N_LETTERS)
    pwm[np.arange(m), codes] += 1.0 - rate
    return pwm


def make_planted(
    n_pos: int,
    n_neg: int,
    length: int,
    motifs: Sequence[tuple[str, float, float]],
    *,
    mutate: bool = True,
    random_state: np.random.Generator | int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Random DNA with motifs planted in the positives (seeded).

    Parameters
    ----------
    n_pos, n_neg : int
        Number of positive and negative sequences (positives first).
    length : int
        Sequence length L.
    motifs : sequence of (consensus, mean, sd)
        Each motif's first letter sits at the 1-based position
        ``round(N(mean, sd))``, clipped so that it fits; motifs are planted in
        the order given (a later one overwrites an earlier one where they meet).
    mutate : bool
        One uniformly chosen position of each planted copy gets a uniformly
        random letter (see `plant_motif`).
    random_state : numpy.random.Generator, int or None

    Returns
    -------
    X : numpy.ndarray of uint8, shape (n_pos + n_neg, L)
    y : numpy.ndarray of int64
        1 for positives, 0 for negatives.

    Examples
    --------
    >>> X, y = make_planted(2, 1, 30, [("GGCCGTAAA", 11, 0)], mutate=False,
    ...                     random_state=0)
    >>> from poimkit.alphabet import decode
    >>> [s[10:19] for s in decode(X)][:2]
    ['GGCCGTAAA', 'GGCCGTAAA']
    """
    if n_pos < 0 or n_neg < 0 or n_pos + n_neg < 1:
        raise InputError(
            f"need n_pos, n_neg >= 0 and one sequence, got {n_pos}, {n_neg}"
        )
    rng = np.random.default_rng(random_state)
    X = random_dna(n_pos + n_neg, length, rng)
    for consensus, mean, sd in motifs:
        m = len(_motif_codes(consensus))
        if m > length:
            raise InputError(f"motif {consensus!r} is longer than length {length}")
        first = np.rint(rng.normal(mean, sd, size=n_pos))
        starts = np.full(n_pos + n_neg, -1, dtype=np.int64)
        starts[:n_pos] = np.clip(first, 1, length - m + 1).astype(np.int64) - 1
        X = plant_motif(X, starts, consensus, mutate=mutate, rng=rng)
    y = np.zeros(n_pos + n_neg, dtype=np.int64)
    y[:n_pos] = 1
    return X, y
