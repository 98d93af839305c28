"""The GATTACA toy data set of the POIM and FIRM papers.

Random DNA; each positive carries the motif ``GATTACA`` at a start drawn
from a rounded normal distribution (mean 35, SD 7, as a 1-based position),
with one motif position replaced by a random letter (Sonnenburg, Rätsch &
Schäfer 2005; Zien et al. 2009, section 3.3).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..io import read_labeled
from .synthetic import (
    balanced_labels,
    plant_normal,
    random_dna,
    record_ids,
    write_dataset,
)

__all__ = [
    "GATTACA_BUNDLE",
    "GATTACA_SEED",
    "load_gattaca",
    "make_gattaca",
    "write_gattaca_data",
]

GATTACA_SEED = 2009
"""Seed of the bundled ``data/gattaca`` files."""

GATTACA_BUNDLE = {
    "n_pos": 2500,
    "n_neg": 2500,
    "length": 100,
    "motif": "GATTACA",
    "mean": 35,
    "sd": 7,
    "mutate": True,
    "random_state": GATTACA_SEED,
}
"""`make_gattaca` arguments of the bundled ``data/gattaca`` files."""

_DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "gattaca"


def make_gattaca(
    n_pos: int = 2500,
    n_neg: int = 2500,
    length: int = 100,
    motif: str = "GATTACA",
    mean: float = 35,
    sd: float = 7,
    mutate: bool = True,
    random_state: np.random.Generator | int | None = None,
    *,
    return_starts: bool = False,
) -> tuple[np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Generate the GATTACA toy data set (seeded).

    Parameters
    ----------
    n_pos, n_neg : int
        Number of positive and negative sequences.
    length : int
        Sequence length ``L``.
    motif : str
        Planted consensus, length ``m <= L``.
    mean, sd : float
        The motif's first letter sits at the **1-based** position
        ``p = round(N(mean, sd))`` (as in the papers' figures), clipped to
        ``1 .. L - m + 1`` so that the motif fits; the 0-based start is
        ``p - 1``. Rounding is to the nearest integer (`numpy.rint`).
    mutate : bool
        If true, one uniformly chosen motif position of each positive is
        replaced by a uniformly random letter, so about 25% of the planted
        copies equal the consensus (see `planting_pwm`).
    random_state : numpy.random.Generator, int or None
        Seed or generator (`numpy.random.default_rng`). Draws, in order: all
        ``n_pos + n_neg`` background sequences, the ``n_pos`` normal
        positions, then (if ``mutate``) the mutated columns and letters.
    return_starts : bool
        Also return the 0-based motif starts.

    Returns
    -------
    X : numpy.ndarray of uint8, shape (n_pos + n_neg, L)
        Positives first, then negatives (not shuffled).
    y : numpy.ndarray of int64, shape (n_pos + n_neg,)
        ``1`` for positives, ``0`` for negatives.
    starts : numpy.ndarray of int64, shape (n_pos + n_neg,)
        Only if ``return_starts``: 0-based motif start, ``-1`` for negatives.

    References
    ----------
    S. Sonnenburg, G. Rätsch and C. Schäfer. Learning interpretable SVMs for
    biological sequence classification. RECOMB 2005, LNBI 3500, 389-407.

    A. Zien, N. Krämer, S. Sonnenburg and G. Rätsch. The feature importance
    ranking measure. ECML PKDD 2009, section 3.3.

    Examples
    --------
    >>> X, y, starts = make_gattaca(n_pos=3, n_neg=2, length=20, mean=8, sd=2,
    ...                             random_state=0, return_starts=True)
    >>> X.shape, y.tolist(), starts.tolist()
    ((5, 20), [1, 1, 1, 0, 0], [7, 5, 6, -1, -1])
    """
    for name, value in (("n_pos", n_pos), ("n_neg", n_neg), ("length", length)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise InputError(f"{name} must be an int, got {value!r}")
    if n_pos < 0 or n_neg < 0 or n_pos + n_neg < 1:
        raise InputError(
            f"need n_pos >= 0, n_neg >= 0 and at least one sequence, got "
            f"n_pos={n_pos}, n_neg={n_neg}"
        )
    m = len(motif) if isinstance(motif, str) else 0
    if not 1 <= m <= length:
        raise InputError(
            f"motif must be a DNA string of length 1..length={length}, got {motif!r}"
        )
    if not (math.isfinite(mean) and math.isfinite(sd) and sd >= 0):
        raise InputError(f"need a finite mean and sd >= 0, got mean={mean}, sd={sd}")
    rng = np.random.default_rng(random_state)
    X = random_dna(n_pos + n_neg, length, rng)
    X, starts = plant_normal(X, n_pos, motif, mean, sd, mutate, rng)
    y = balanced_labels(n_pos, n_neg)
    return (X, y, starts) if return_starts else (X, y)


def write_gattaca_data(directory: str | os.PathLike) -> tuple[Path, Path]:
    """Write the bundled data set, ``positives.fa`` and ``negatives.fa``.

    Generates ``make_gattaca(**GATTACA_BUNDLE)`` and writes it with
    `write_dataset` (60 letters per line) under ids ``pos_0001`` ... and
    ``neg_0001`` .... Running it again gives byte-identical files.

    Parameters
    ----------
    directory : str or path-like
        Existing output directory.

    Returns
    -------
    tuple of pathlib.Path
        The positive and the negative file.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     pos, neg = write_gattaca_data(folder)
    ...     print(pos.name, open(pos).readline(), end="")
    positives.fa >pos_0001
    """
    return write_dataset(directory, *make_gattaca(**GATTACA_BUNDLE))


def load_gattaca(
    directory: str | os.PathLike | None = None,
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Read the bundled GATTACA data set (2500 + 2500 sequences, length 100).

    Parameters
    ----------
    directory : str or path-like, optional
        Folder with ``positives.fa`` and ``negatives.fa``; default
        ``data/gattaca`` of the source tree, or, where the package is
        installed without it, the same data regenerated from their seed
        (``make_gattaca(**GATTACA_BUNDLE)``, identical to the files).

    Returns
    -------
    ids : list of str
    X : numpy.ndarray of uint8, shape (5000, 100)
    y : numpy.ndarray of int64, shape (5000,)
        ``1`` for the first 2500 (positives), ``0`` for the rest.

    Examples
    --------
    >>> ids, X, y = load_gattaca()
    >>> X.shape, int(y.sum()), ids[0], ids[-1]
    ((5000, 100), 2500, 'pos_0001', 'neg_2500')
    """
    folder = _DATA_DIR if directory is None else Path(directory)
    pos, neg = folder / "positives.fa", folder / "negatives.fa"
    if directory is None and not (pos.is_file() and neg.is_file()):
        X, y = make_gattaca(**GATTACA_BUNDLE)  # a plain install: regenerate
        n_pos = int(y.sum())
        return record_ids("pos", n_pos) + record_ids("neg", y.size - n_pos), X, y
    return read_labeled(pos=pos, neg=neg)
