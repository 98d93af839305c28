"""Estimating a `~poimkit.background.MarkovBackground` from sequences.

The letter counts behind `MarkovBackground.fit` (sequences of one length,
homogeneous or positional) and `MarkovBackground.fit_pooled` (sequences of
any lengths, homogeneous), turned into the chain's initial distribution and
transition matrices.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ._validation import check_int, check_nonnegative
from .alphabet import N_LETTERS as _N_LETTERS
from .alphabet import check_codes, kmer_indices
from .errors import InputError

#: the highest chain order D (a MarkovBackground holds 4**D states)
MAX_ORDER = 3


def fit_chain(
    X: np.ndarray, order: int, positional: bool, pseudocount: float
) -> tuple[np.ndarray, np.ndarray]:
    """Initial distribution and transitions of `MarkovBackground.fit`.

    Parameters
    ----------
    X, order, positional, pseudocount
        As in `MarkovBackground.fit` (which checks nothing itself).

    Returns
    -------
    initial : numpy.ndarray of float64, shape (4**D,)
    transitions : numpy.ndarray of float64, shape (L - D, 4**D, 4)

    Raises
    ------
    InputError
        For an invalid argument.
    """
    X = check_codes(X)
    n, length = X.shape
    order = check_int(order, "order", 0, MAX_ORDER)
    if length < order:
        raise InputError(
            f"X has sequences of length {length}, shorter than the chain order "
            f"{order}; use order <= {length}"
        )
    if not isinstance(positional, bool | np.bool_):
        raise InputError(f"positional must be True or False, got {positional!r}")
    check_nonnegative(pseudocount, "pseudocount")
    n_states = _N_LETTERS**order
    n_steps = length - order
    if n_steps:
        # (D+1)-gram index at start t - D is 4 * state + letter.
        grams = kmer_indices(X, order + 1)
        if positional:
            flat = grams + (n_states * _N_LETTERS) * np.arange(n_steps)
            counts = np.bincount(
                flat.ravel(), minlength=n_steps * n_states * _N_LETTERS
            )
            counts = counts.reshape(n_steps, n_states, _N_LETTERS)
        else:
            counts = np.bincount(grams.ravel(), minlength=n_states * _N_LETTERS)
            counts = np.broadcast_to(
                counts.reshape(1, n_states, _N_LETTERS),
                (n_steps, n_states, _N_LETTERS),
            )
        trans = _normalise(counts + float(pseudocount))
    else:
        trans = np.zeros((0, n_states, _N_LETTERS))
    if order == 0:
        initial = np.ones(1)
    else:
        starts = kmer_indices(X, order)
        if positional:
            starts = starts[:, 0]
        initial = _normalise(
            np.bincount(starts.ravel(), minlength=n_states) + float(pseudocount)
        )
    return initial, trans


def fit_pooled_chain(
    seqs: Iterable[np.ndarray], order: int, length: int, pseudocount: float
) -> tuple[np.ndarray, np.ndarray]:
    """Initial distribution and transitions of `MarkovBackground.fit_pooled`.

    Parameters
    ----------
    seqs, order, length, pseudocount
        As in `MarkovBackground.fit_pooled` (which checks nothing itself).

    Returns
    -------
    initial, transitions
        As in `fit_chain`; the transitions are one matrix repeated at every
        position (a read-only view).

    Raises
    ------
    InputError
        For an invalid argument, or no sequence longer than the order.
    """
    order = check_int(order, "order", 0, MAX_ORDER)
    length = check_int(length, "length", max(order, 1))
    if not any(np.asarray(x).size > order for x in seqs):
        raise InputError(f"no sequence is longer than the chain order {order}")
    counts = np.zeros((4**order, _N_LETTERS))
    grams = np.zeros(4**order)
    for x in seqs:
        x = check_codes(np.asarray(x)[None, :])
        if x.shape[1] <= order:
            continue
        pairs = kmer_indices(x, order + 1).ravel()
        counts += np.bincount(pairs, minlength=counts.size).reshape(counts.shape)
        if order:
            grams += np.bincount(kmer_indices(x, order).ravel(), minlength=grams.size)
    trans = _normalise(counts + float(pseudocount))
    initial = _normalise(grams + float(pseudocount)) if order else np.ones(1)
    return initial, np.broadcast_to(trans, (length - order, 4**order, _N_LETTERS))


def _normalise(counts: np.ndarray) -> np.ndarray:
    """Divide the last axis by its sum; zero rows become uniform."""
    counts = np.asarray(counts, dtype=np.float64)
    totals = counts.sum(axis=-1, keepdims=True)
    uniform = np.full_like(counts, 1.0 / counts.shape[-1])
    return np.where(totals > 0, counts / np.where(totals > 0, totals, 1.0), uniform)
