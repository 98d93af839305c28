"""Random DNA and motifs planted into it, with the distribution that was planted."""

from __future__ import annotations

import numpy as np

from ..alphabet import N_LETTERS, check_codes, encode
from ..errors import InputError

__all__ = ["plant_motif", "planting_pwm", "random_dna"]


def _motif_codes(motif: str) -> np.ndarray:
    if not isinstance(motif, str) or not motif:
        raise InputError(f"motif must be a non-empty DNA string, got {motif!r}")
    return encode(motif, ["motif"])[0]


def random_dna(
    n: int, length: int, rng: np.random.Generator | int | None = None
) -> np.ndarray:
    """Uniform i.i.d. random DNA.

    Parameters
    ----------
    n : int
        Number of sequences.
    length : int
        Sequence length.
    rng : numpy.random.Generator, int or None
        Random generator, or a seed for `numpy.random.default_rng`.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, length)
        Codes 0..3, each with probability 1/4.

    Examples
    --------
    >>> X = random_dna(3, 5, np.random.default_rng(0))
    >>> X.shape, X.dtype.name, bool(X.max() <= 3)
    ((3, 5), 'uint8', True)
    """
    if n < 0 or length < 1:
        raise InputError(f"need n >= 0 and length >= 1, got n={n}, length={length}")
    rng = np.random.default_rng(rng)
    return rng.integers(0, N_LETTERS, size=(n, length), dtype=np.uint8)


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
