"""Configurable planted-motif data sets: backgrounds, PWMs, positions, mutations.

`PlantedMotif` describes one motif (a consensus or a PWM), where its first
letter goes (fixed, uniform range or rounded normal, 1-based), how a planted
copy is mutated, how often it is planted on the reverse strand and how often
positives and negatives carry it. `make_motif_data` draws background
sequences from any `~poimkit.MarkovBackground` and plants a list of such
motifs; `expected_pwm` gives the letter distribution of the planted copies;
`write_dataset` writes ``positives.fa`` and ``negatives.fa``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from pathlib import Path

import numpy as np

from .._validation import as_rng, check_int
from ..alphabet import N_LETTERS, check_codes, decode, encode
from ..background import MarkovBackground
from ..errors import InputError
from ..io import write_fasta
from .planted import random_dna

__all__ = [
    "PlantedMotif",
    "PlantingRecord",
    "expected_pwm",
    "make_motif_data",
    "mutate_copies",
    "sample_copies",
    "sample_starts",
    "write_dataset",
]

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
        if (
            isinstance(self.spread, bool)
            or not isinstance(self.spread, Real)
            or not math.isfinite(self.spread)
            or self.spread < 0
        ):
            raise InputError(
                f"spread must be a finite number >= 0, got {self.spread!r}"
            )
        _mutation_rate(self.mutation, pwm.shape[0])
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

    Attributes
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


def _mutation_rate(mutation, m: int) -> float:
    """Per-column probability that the letter is replaced by a uniform letter."""
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


def expected_pwm(motif: PlantedMotif | str, mutation: str | float | None = None):
    r"""Letter distribution of the copies of a motif, mutation included.

    Parameters
    ----------
    motif : PlantedMotif or str
        The motif (its ``pwm`` and ``mutation``), or a consensus.
    mutation : "one", "none" or float, optional
        Overrides the motif's mutation (required meaning for a string:
        default ``"one"``).

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
        Rows sum to 1; in the motif's own orientation.

    Notes
    -----
    A column is replaced by a uniform letter with probability ``a`` (``1/m``
    for ``"one"``, ``r`` for a rate, 0 for ``"none"``), so the planted
    column follows

    .. math:: P'_c = (1 - a) P_c + a / 4.

    For a consensus and ``"one"`` this is `poimkit.datasets.planting_pwm`.

    Examples
    --------
    >>> expected_pwm("GA").tolist()
    [[0.125, 0.125, 0.625, 0.125], [0.625, 0.125, 0.125, 0.125]]
    >>> expected_pwm(PlantedMotif("GA", 1, mutation=0.4))[0].tolist()
    [0.1, 0.1, 0.7, 0.1]
    """
    if isinstance(motif, str):
        motif = PlantedMotif(
            motif, 1, mutation=MUTATE_ONE if mutation is None else mutation
        )
    elif not isinstance(motif, PlantedMotif):
        raise InputError(
            f"motif must be a PlantedMotif or a string, got {type(motif).__name__}"
        )
    pwm = motif.pwm
    rate = _mutation_rate(motif.mutation if mutation is None else mutation, len(pwm))
    return (1.0 - rate) * pwm + rate / N_LETTERS


def sample_copies(
    motif: PlantedMotif, n: int, rng: np.random.Generator | int | None = None
) -> np.ndarray:
    """Draw ``n`` copies of a motif from its PWM, then mutate them.

    Parameters
    ----------
    motif : PlantedMotif
    n : int
    rng : numpy.random.Generator, int or None

    Returns
    -------
    numpy.ndarray of uint8, shape (n, m)
        Distributed column-wise as `expected_pwm` (columns are independent,
        except for ``mutation="one"`` which mutates exactly one column).

    Examples
    --------
    >>> sample_copies(PlantedMotif("ACGT", 1, mutation="none"), 2, 0).tolist()
    [[0, 1, 2, 3], [0, 1, 2, 3]]
    """
    n = check_int(n, "n", 0)
    rng = as_rng(rng, "rng")
    pwm = motif.pwm
    m = pwm.shape[0]
    if np.all(pwm.max(axis=1) == 1.0):
        copies = np.broadcast_to(pwm.argmax(axis=1).astype(np.uint8), (n, m)).copy()
    else:
        cum = np.cumsum(pwm, axis=1)
        cum[:, -1] = 1.0
        u = rng.random((n, m))
        copies = (u[:, :, None] >= cum[None, :, :-1]).sum(axis=2).astype(np.uint8)
    return mutate_copies(copies, motif.mutation, rng)


def mutate_copies(
    copies: np.ndarray,
    mutation: str | float,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Apply a mutation process to motif copies (a new array).

    Parameters
    ----------
    copies : numpy.ndarray of uint8, shape (n, m)
    mutation : "one", "none" or float
        See `PlantedMotif`.
    rng : numpy.random.Generator, int or None
        For ``"one"`` draws the columns, then the letters (as
        `poimkit.datasets.plant_motif` does); for a rate draws the hit mask,
        then the letters.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, m)

    Examples
    --------
    >>> X = np.zeros((1000, 7), dtype=np.uint8)
    >>> changed = (mutate_copies(X, "one", 0) != 0).sum(axis=1)
    >>> int(changed.max()), bool(0.2 < (changed == 0).mean() < 0.3)
    (1, True)
    """
    copies = check_codes(np.atleast_2d(copies), "copies").copy()
    n, m = copies.shape
    rate = _mutation_rate(mutation, m)
    if rate == 0.0 or n == 0:
        return copies
    rng = as_rng(rng, "rng")
    if mutation == MUTATE_ONE:
        columns = rng.integers(0, m, size=n)
        letters = rng.integers(0, N_LETTERS, size=n, dtype=np.uint8)
        copies[np.arange(n), columns] = letters
    else:
        hit = rng.random((n, m)) < rate
        letters = rng.integers(0, N_LETTERS, size=(n, m), dtype=np.uint8)
        copies[hit] = letters[hit]
    return copies


def sample_starts(
    motif: PlantedMotif,
    n: int,
    length: int,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """0-based starts of ``n`` copies of a motif in sequences of length ``length``.

    Parameters
    ----------
    motif : PlantedMotif
    n : int
    length : int
    rng : numpy.random.Generator, int or None

    Returns
    -------
    numpy.ndarray of int64, shape (n,)
        ``p - 1`` for the 1-based position ``p`` (fixed, uniform on the range,
        or ``round(N(position, spread))`` rounded half to even by
        `numpy.rint`), clipped to ``0 .. length - m``.

    Examples
    --------
    >>> sample_starts(PlantedMotif("ACGT", 5), 3, 20).tolist()
    [4, 4, 4]
    >>> sample_starts(PlantedMotif("ACGT", 19), 1, 20).tolist()  # clipped
    [16]
    """
    n = check_int(n, "n", 0)
    length = check_int(length, "length", 1)
    if motif.length > length:
        raise InputError(
            f"motif {motif.consensus!r} of length {motif.length} does not fit into "
            f"sequences of length {length}"
        )
    rng = as_rng(rng, "rng")
    kind = motif.distribution
    if kind == "uniform":
        first, last = motif.position
        p = rng.integers(first, last + 1, size=n).astype(np.float64)
    elif kind == "normal":
        p = np.rint(rng.normal(motif.position, motif.spread, size=n))
    else:
        p = np.full(n, np.rint(motif.position))
    return np.clip(p, 1, length - motif.length + 1).astype(np.int64) - 1


def make_motif_data(
    n_pos: int,
    n_neg: int,
    length: int,
    motifs: Sequence[PlantedMotif],
    background: MarkovBackground | None = None,
    *,
    shuffle: bool = False,
    random_state: np.random.Generator | int | None = None,
    return_record: bool = False,
) -> tuple[np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, PlantingRecord]:
    """Background sequences with motifs planted, positives and negatives (seeded).

    Parameters
    ----------
    n_pos, n_neg : int
        Class sizes (the class balance is ``n_pos / (n_pos + n_neg)``).
    length : int
        Sequence length L.
    motifs : sequence of PlantedMotif
        Planted in the order given; where two copies overlap the later one
        wins.
    background : MarkovBackground, optional
        Distribution of the sequences before planting, of length ``length``;
        default i.i.d. uniform letters.
    shuffle : bool
        Shuffle the rows (default: positives first, then negatives).
    random_state : numpy.random.Generator, int or None
        Draws, in order: the background, then per motif whether each sequence
        carries it, the starts, the copies (with their mutations) and the
        strands; finally the shuffle.
    return_record : bool
        Also return a `PlantingRecord`.

    Returns
    -------
    X : numpy.ndarray of uint8, shape (n_pos + n_neg, L)
    y : numpy.ndarray of int64, shape (n_pos + n_neg,)
        1 for positives, 0 for negatives.
    record : PlantingRecord
        Only if ``return_record``.

    Examples
    --------
    >>> X, y, rec = make_motif_data(
    ...     2, 1, 30, [PlantedMotif("GGCCGTAAA", 11, mutation="none")],
    ...     random_state=0, return_record=True)
    >>> [s[10:19] for s in decode(X)][:2], rec.starts[:, 0].tolist()
    (['GGCCGTAAA', 'GGCCGTAAA'], [10, 10, -1])
    """
    for name, value in (("n_pos", n_pos), ("n_neg", n_neg)):
        check_int(value, name, 0)
    length = check_int(length, "length", 1)
    if n_pos + n_neg < 1:
        raise InputError(
            f"need at least one sequence, got n_pos={n_pos}, n_neg={n_neg}"
        )
    motifs = list(motifs)
    for g, motif in enumerate(motifs):
        if not isinstance(motif, PlantedMotif):
            raise InputError(
                f"motifs[{g}] must be a PlantedMotif, got {type(motif).__name__}"
            )
    rng = as_rng(random_state)
    n = n_pos + n_neg
    X = random_dna(n, length, rng, background=background)
    y = np.zeros(n, dtype=np.int64)
    y[:n_pos] = 1
    starts = np.full((n, len(motifs)), -1, dtype=np.int64)
    strands = np.zeros((n, len(motifs)), dtype=np.int8)
    copies = []
    for g, motif in enumerate(motifs):
        share = np.where(y == 1, motif.in_positives, motif.in_negatives)
        carry = rng.random(n) < share
        at = sample_starts(motif, n, length, rng)
        copy = sample_copies(motif, n, rng)
        reverse = rng.random(n) < motif.reverse_complement
        written = np.where(reverse[:, None], (3 - copy)[:, ::-1], copy)
        rows = np.flatnonzero(carry)
        X[rows[:, None], at[rows, None] + np.arange(motif.length)] = written[rows]
        starts[rows, g] = at[rows]
        strands[rows, g] = np.where(reverse[rows], -1, 1)
        copies.append(copy)
    if shuffle:
        order = rng.permutation(n)
        X, y, starts, strands = X[order], y[order], starts[order], strands[order]
        copies = [c[order] for c in copies]
    if return_record:
        return X, y, PlantingRecord(starts, strands, copies)
    return X, y


def write_dataset(
    directory: str | os.PathLike,
    X: np.ndarray,
    y: np.ndarray,
    *,
    line_width: int | None = 60,
) -> tuple[Path, Path]:
    """Write ``positives.fa`` (``y == 1``) and ``negatives.fa`` (``y == 0``).

    Parameters
    ----------
    directory : str or path-like
        Existing folder.
    X : numpy.ndarray of uint8, shape (n, L)
    y : array of int, shape (n,)
        Labels 0 and 1.
    line_width : int or None
        Letters per FASTA line (`poimkit.io.write_fasta`).

    Returns
    -------
    tuple of pathlib.Path
        The positive and the negative file; ids ``pos_0001`` ... and
        ``neg_0001`` ... (`poimkit.io.read_labeled` reads them back).

    Examples
    --------
    >>> import tempfile
    >>> from poimkit.io import read_labeled
    >>> X, y = make_motif_data(3, 2, 12, [PlantedMotif("ACGT", 2)], random_state=0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     pos, neg = write_dataset(folder, X, y)
    ...     ids, X2, y2 = read_labeled(pos=pos, neg=neg)
    >>> bool((X2 == X).all()), ids[0]
    (True, 'pos_0001')
    """
    X = check_codes(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or not np.isin(y, (0, 1)).all():
        raise InputError(
            f"y must hold labels 0/1 of shape ({X.shape[0]},), got shape {y.shape}"
        )
    folder = Path(directory)
    paths = folder / "positives.fa", folder / "negatives.fa"
    for path, label, prefix in zip(paths, (1, 0), ("pos", "neg"), strict=True):
        rows = X[y == label]
        width = max(4, len(str(len(rows))))
        ids = [f"{prefix}_{i:0{width}d}" for i in range(1, len(rows) + 1)]
        write_fasta(path, ids, rows, line_width=line_width)
    return paths
