"""What to plant, and what was planted: `PlantedMotif` and `PlantingRecord`.

A `PlantedMotif` describes one motif of `poimkit.datasets.make_motif_data`:
a consensus or a PWM, where its first letter goes (fixed, uniform range or
rounded normal, 1-based), how a planted copy is mutated, how often it is
planted on the reverse strand and how often positives and negatives carry
it. A `PlantingRecord` says where the copies went.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from .._validation import check_nonnegative
from ..alphabet import N_LETTERS, decode, encode
from ..errors import InputError

__all__ = ["MUTATE_ONE", "PlantedMotif", "PlantingRecord"]

#: the FIRM paper's mutation: one uniformly chosen position gets a uniform letter
MUTATE_ONE = "one"


@dataclass(frozen=True)
class PlantedMotif:
    """One motif to plant, with its position distribution and noise.

    Parameters
    ----------
    motif : str or array-like of float, shape (m, 4)
        A consensus over ``ACGT`` or a PWM (rows: motif columns, columns
        A, C, G, T; each row sums to 1) from which every copy is drawn.
    position : float or (int, int)
        **1-based** position of the motif's first letter: a number is the
        fixed position (``spread == 0``) or the mean of a rounded normal
        (``spread > 0``); a pair ``(first, last)`` draws uniformly from that
        inclusive range. Starts are clipped so that the motif fits.
    spread : float
        Standard deviation of the rounded normal position; 0 for a fixed
        position. Must be 0 with a uniform range.
    mutation : "one", "none" or float
        ``"one"`` (the FIRM paper's process): one uniformly chosen position
        of each copy is replaced by a uniformly random letter, so about 25%
        of the copies stay unchanged. ``"none"``: copies are planted as
        drawn. A float ``r`` in [0, 1]: every position independently is
        replaced by a uniformly random letter with probability ``r`` (it then
        differs from the drawn letter with probability ``3 r / 4``).
    reverse_complement : float
        Probability that a copy is planted as its reverse complement (the
        motif read on the other strand), in [0, 1].
    in_positives : float
        Probability that a positive sequence carries the motif.
    in_negatives : float
        Probability that a negative sequence carries the motif (a decoy; 0
        leaves the negatives pure background).

    Examples
    --------
    >>> PlantedMotif("GATTACA", 35, spread=7).distribution
    'normal'
    >>> PlantedMotif("GATTACA", (10, 20)).distribution
    'uniform'
    """

    motif: str | np.ndarray
    position: float | tuple[int, int]
    spread: float = 0.0
    mutation: str | float = MUTATE_ONE
    reverse_complement: float = 0.0
    in_positives: float = 1.0
    in_negatives: float = 0.0

    def __post_init__(self) -> None:
        pwm = _as_pwm(self.motif)
        object.__setattr__(self, "_pwm", pwm)
        if isinstance(self.position, tuple | list):
            if len(self.position) != 2 or not all(
                isinstance(p, Integral) and not isinstance(p, bool)
                for p in self.position
            ):
                raise InputError(
                    f"position must be a number or a pair of ints (first, last), "
                    f"got {self.position!r}"
                )
            first, last = (int(p) for p in self.position)
            if not 1 <= first <= last:
                raise InputError(
                    f"position range must satisfy 1 <= first <= last, got "
                    f"{self.position!r}"
                )
            object.__setattr__(self, "position", (first, last))
            if self.spread != 0:
                raise InputError("spread must be 0 with a uniform position range")
        elif (
            isinstance(self.position, bool)
            or not isinstance(self.position, Real)
            or not math.isfinite(self.position)
        ):
            raise InputError(
                f"position must be a finite number or a pair of ints, got "
                f"{self.position!r}"
            )
        check_nonnegative(self.spread, "spread")
        mutation_rate(self.mutation, pwm.shape[0])
        for name in ("reverse_complement", "in_positives", "in_negatives"):
            _check_probability(getattr(self, name), name)

    @property
    def pwm(self) -> np.ndarray:
        """The letter distribution copies are drawn from, shape (m, 4)."""
        return self._pwm.copy()

    @property
    def length(self) -> int:
        """Number of motif columns m."""
        return self._pwm.shape[0]

    @property
    def consensus(self) -> str:
        """Most probable letter of each column."""
        return decode(self._pwm.argmax(axis=1)[None, :].astype(np.uint8))[0]

    @property
    def distribution(self) -> str:
        """``"fixed"``, ``"uniform"`` or ``"normal"``."""
        if isinstance(self.position, tuple):
            return "uniform"
        return "normal" if self.spread > 0 else "fixed"


@dataclass
class PlantingRecord:
    """What `make_motif_data` planted where.

    Parameters
    ----------
    starts : numpy.ndarray of int64, shape (n, n_motifs)
        0-based start of motif g in sequence i, ``-1`` where it was not planted.
    strands : numpy.ndarray of int8, shape (n, n_motifs)
        ``+1`` forward, ``-1`` reverse complement, ``0`` not planted.
    copies : list of numpy.ndarray of uint8
        ``copies[g]`` of shape (n, m_g): the letters written for motif g, in
        the motif's own orientation (before reverse complementing); rows of
        sequences without the motif are undefined.
    """

    starts: np.ndarray
    strands: np.ndarray
    copies: list[np.ndarray]


def _check_probability(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= 1:
        raise InputError(f"{name} must be a probability in [0, 1], got {value!r}")
    return float(value)


def _as_pwm(motif) -> np.ndarray:
    if isinstance(motif, str):
        if not motif:
            raise InputError("motif must be a non-empty DNA string or a PWM")
        return np.eye(N_LETTERS)[encode(motif, ["motif"])[0]]
    pwm = np.array(motif, dtype=np.float64)
    if pwm.ndim != 2 or pwm.shape[1] != N_LETTERS or pwm.shape[0] < 1:
        raise InputError(
            f"motif PWM has shape {pwm.shape} but must have shape (m, 4) with m >= 1"
        )
    if not np.isfinite(pwm).all() or (pwm < 0).any():
        raise InputError("motif PWM must hold finite, non-negative probabilities")
    if not np.allclose(pwm.sum(axis=1), 1.0, atol=1e-8):
        raise InputError("every row of the motif PWM must sum to 1")
    return pwm / pwm.sum(axis=1, keepdims=True)


def mutation_rate(mutation: float | int | None, m: int) -> float:
    """Per-column probability that the letter is replaced by a uniform letter.

    Parameters
    ----------
    mutation : float, int or None
        As the dataset makers take it (see `make_planted_motif`).
    m : int
        The motif's length.

    Returns
    -------
    float
    """
    if isinstance(mutation, str):
        if mutation == MUTATE_ONE:
            return 1.0 / m
        if mutation == "none":
            return 0.0
    elif isinstance(mutation, Real) and not isinstance(mutation, bool):
        if 0 <= mutation <= 1:
            return float(mutation)
    raise InputError(
        f"mutation must be 'one', 'none' or a rate in [0, 1], got {mutation!r}"
    )
