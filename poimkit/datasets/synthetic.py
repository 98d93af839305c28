"""Planted-motif data sets: random DNA with motifs written in, and what was planted.

Two generators share this module's pieces (`random_dna`, the mutation of a
planted copy, the letter distribution of the copies):

* `make_planted` plants consensus strings at rounded-normal positions in the
  positives (the process of `poimkit.datasets.make_gattaca`); `plant_motif`
  writes one motif at given starts and `planting_pwm` gives the letter
  distribution of its copies.
* `make_motif_data` plants a list of `PlantedMotif` (consensus or PWM, fixed,
  uniform or normal position, mutation, strand, share of positives and of
  negatives) into background sequences drawn from any
  `~poimkit.MarkovBackground`; `expected_pwm` gives the letter distribution
  of the planted copies.

`write_dataset` writes ``positives.fa`` and ``negatives.fa``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .._validation import as_rng, check_int, renamed_seed
from ..alphabet import N_LETTERS, check_codes, encode
from ..background import MarkovBackground, check_background
from ..errors import InputError
from ..io import write_fasta
from .planted_motif import MUTATE_ONE, PlantedMotif, PlantingRecord, mutation_rate

__all__ = [
    "expected_pwm",
    "make_motif_data",
    "make_planted",
    "mutate_copies",
    "plant_motif",
    "planting_pwm",
    "random_dna",
    "sample_copies",
    "sample_starts",
    "write_dataset",
]


def _motif_codes(motif: str) -> np.ndarray:
    if not isinstance(motif, str) or not motif:
        raise InputError(f"motif must be a non-empty DNA string, got {motif!r}")
    return encode(motif, ["motif"])[0]


@renamed_seed
def random_dna(
    n: int,
    length: int,
    random_state: np.random.Generator | int | None = None,
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
    random_state : numpy.random.Generator, int or None
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
    rng = as_rng(random_state)
    if background is None:
        return rng.integers(0, N_LETTERS, size=(n, length), dtype=np.uint8)
    check_background(background, length, against="the sequences have")
    return background.sample(n, rng)


@renamed_seed
def plant_motif(
    X: np.ndarray,
    starts: np.ndarray,
    motif: str,
    *,
    mutate: bool = True,
    random_state: np.random.Generator | int | None = None,
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
    random_state : numpy.random.Generator, int or None
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
    copies = np.broadcast_to(codes, (rows.size, m)).copy()
    if mutate and rows.size:
        _mutate_one(copies, as_rng(random_state))
    X[rows[:, None], at[:, None] + np.arange(m)] = copies
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
    return _mutated(np.eye(N_LETTERS)[codes], 1.0 / len(codes) if mutate else 0.0)


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
        Seed or generator. Draws, in order: the background, then per motif
        the positions and (with ``mutate``) the mutations.

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
        if len(_motif_codes(consensus)) > length:
            raise InputError(f"motif {consensus!r} is longer than length {length}")
        X, _ = plant_normal(X, n_pos, consensus, mean, sd, mutate, rng)
    return X, balanced_labels(n_pos, n_neg)


def plant_normal(
    X: np.ndarray,
    n_pos: int,
    motif: str,
    mean: float,
    sd: float,
    mutate: bool,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """``motif`` planted in rows ``0..n_pos-1`` at ``round(N(mean, sd))``; starts.

    The 1-based position is clipped so that the motif fits.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Background sequences.
    n_pos : int
        Rows that receive the motif (the first ``n_pos``).
    motif : str
        The DNA motif.
    mean, sd : float
        Mean and standard deviation of its 1-based position.
    mutate : bool
        Plant mutated copies (as `make_gattaca`'s ``mutate``).
    rng : numpy.random.Generator
        The random stream.

    Returns
    -------
    X : numpy.ndarray of uint8
        The sequences with the motif.
    starts : numpy.ndarray of int64
        0-based starts (``-1`` for rows without the motif).
    """
    first = np.rint(rng.normal(mean, sd, size=n_pos))
    starts = np.full(X.shape[0], -1, dtype=np.int64)
    starts[:n_pos] = np.clip(first, 1, X.shape[1] - len(motif) + 1).astype(np.int64) - 1
    return plant_motif(X, starts, motif, mutate=mutate, random_state=rng), starts


def balanced_labels(n_pos: int, n_neg: int) -> np.ndarray:
    """``n_pos`` ones, then ``n_neg`` zeros (int64).

    Parameters
    ----------
    n_pos, n_neg : int
        Numbers of positives and negatives.

    Returns
    -------
    numpy.ndarray of int64, shape (n_pos + n_neg,)
    """
    y = np.zeros(n_pos + n_neg, dtype=np.int64)
    y[:n_pos] = 1
    return y


def expected_pwm(
    motif: PlantedMotif | str, mutation: str | float | None = None
) -> np.ndarray:
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
    rate = mutation_rate(motif.mutation if mutation is None else mutation, len(pwm))
    return _mutated(pwm, rate)


def _mutated(pwm: np.ndarray, rate: float) -> np.ndarray:
    """Letter distribution of copies of ``pwm`` after the mutation of ``rate``.

    A column is replaced by a uniform letter with probability ``rate``.
    """
    return (1.0 - rate) * pwm + rate / N_LETTERS


@renamed_seed
def sample_copies(
    motif: PlantedMotif,
    n: int,
    random_state: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Draw ``n`` copies of a motif from its PWM, then mutate them.

    Parameters
    ----------
    motif : PlantedMotif
        The motif (its ``pwm`` and ``mutation``).
    n : int
        Number of copies.
    random_state : numpy.random.Generator, int or None
        Draws the letters, then the mutations (`mutate_copies`).

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
    rng = as_rng(random_state)
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


@renamed_seed
def mutate_copies(
    copies: np.ndarray,
    mutation: str | float,
    random_state: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Apply a mutation process to motif copies (a new array).

    Parameters
    ----------
    copies : numpy.ndarray of uint8, shape (n, m)
        Motif copies (letter codes).
    mutation : "one", "none" or float
        See `PlantedMotif`.
    random_state : numpy.random.Generator, int or None
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
    rate = mutation_rate(mutation, m)
    if rate == 0.0 or n == 0:
        return copies
    rng = as_rng(random_state)
    if mutation == MUTATE_ONE:
        _mutate_one(copies, rng)
    else:
        hit = rng.random((n, m)) < rate
        letters = rng.integers(0, N_LETTERS, size=(n, m), dtype=np.uint8)
        copies[hit] = letters[hit]
    return copies


def _mutate_one(copies: np.ndarray, rng: np.random.Generator) -> None:
    """Replace one uniformly chosen letter of every row by a uniform letter.

    In place. Draws the columns, then the letters, one per row.
    """
    n, m = copies.shape
    columns = rng.integers(0, m, size=n)
    letters = rng.integers(0, N_LETTERS, size=n, dtype=np.uint8)
    copies[np.arange(n), columns] = letters


@renamed_seed
def sample_starts(
    motif: PlantedMotif,
    n: int,
    length: int,
    random_state: np.random.Generator | int | None = None,
) -> np.ndarray:
    """0-based starts of ``n`` copies of a motif in sequences of length ``length``.

    Parameters
    ----------
    motif : PlantedMotif
        The motif (its ``position``, ``spread`` and length).
    n : int
        Number of starts.
    length : int
        Sequence length L.
    random_state : numpy.random.Generator, int or None
        Draws the positions (not for a fixed position).

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
    rng = as_rng(random_state)
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
    >>> from poimkit.alphabet import decode
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
    y = balanced_labels(n_pos, n_neg)
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
        Letter codes.
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
        write_fasta(path, record_ids(prefix, len(rows)), rows, line_width=line_width)
    return paths


def record_ids(prefix: str, n: int) -> list[str]:
    """Record ids ``prefix_0001`` ... of `write_dataset` (more digits if needed).

    Parameters
    ----------
    prefix : str
        ``"pos"`` or ``"neg"`` in `write_dataset`.
    n : int
        Number of ids.

    Returns
    -------
    list of str

    Examples
    --------
    >>> record_ids("pos", 2)
    ['pos_0001', 'pos_0002']
    """
    width = max(4, len(str(n)))
    return [f"{prefix}_{i:0{width}d}" for i in range(1, n + 1)]
