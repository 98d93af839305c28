"""The arrays of a `~poimkit.background.MarkovBackground`: checked, or estimated.

`check_chain` checks (and renormalises) the initial distribution and the
transition matrices the class is given. `fit_chain` and `fit_pooled_chain`
turn the letter counts of sequences into them: those behind
`MarkovBackground.fit` (sequences of one length, homogeneous or positional)
and `MarkovBackground.fit_pooled` (sequences of any lengths, homogeneous).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_int, check_nonnegative
from ..alphabet import N_LETTERS as _N_LETTERS
from ..alphabet import check_codes, kmer_indices, kmer_string
from ..errors import InputError

#: the highest chain order D (a MarkovBackground holds 4**D states)
MAX_ORDER = 3
#: how far from 1 the sum of a given distribution may be
SUM_TOLERANCE = 1e-9
#: a sum further from 1 than this is divided out (rounding is kept bit for bit)
_RENORMALISE_ABOVE = 1e-14


def _order_of_size(size: int) -> int | None:
    """D with ``4**D == size`` for D in 0..MAX_ORDER, else None."""
    for order in range(MAX_ORDER + 1):
        if _N_LETTERS**order == size:
            return order
    return None


def _state_name(state: int, order: int) -> str:
    return repr(kmer_string(state, order)) if order else "''"


def _check_entries(arr: np.ndarray, name: str) -> None:
    """Raise unless every entry of ``arr`` is finite and non-negative."""
    bad_mask = ~np.isfinite(arr) | (arr < 0)
    if np.any(bad_mask):
        bad = tuple(int(i) for i in np.argwhere(bad_mask)[0])
        raise InputError(
            f"{name}[{', '.join(map(str, bad))}] is {float(arr[bad])!r}; "
            "probabilities must be finite and non-negative"
        )


def check_chain(
    initial: ArrayLike, transitions: ArrayLike
) -> tuple[np.ndarray, np.ndarray, int]:
    """The arrays of a `~poimkit.background.MarkovBackground`, checked.

    Parameters
    ----------
    initial, transitions
        As the class takes them.

    Returns
    -------
    initial, transitions : numpy.ndarray of float64
        New arrays; a distribution whose sum is off by more than rounding is
        divided by it, the others are kept bit for bit.
    order : int
        The chain order D, read from the size of ``initial``.

    Raises
    ------
    InputError
        As listed in the class docstring.
    """
    initial = np.array(initial, dtype=np.float64)
    transitions = np.array(transitions, dtype=np.float64)
    if initial.ndim != 1:
        raise InputError(
            f"initial has shape {initial.shape} but must have shape (4**D,) "
            f"for a chain order D in 0..{MAX_ORDER}"
        )
    order = _order_of_size(initial.size)
    if order is None:
        hint = ""
        for big in range(MAX_ORDER + 1, 8):
            if initial.size == _N_LETTERS**big:
                hint = f"; order {big} is above the maximum {MAX_ORDER}"
        raise InputError(
            f"initial has {initial.size} entries but must have 4**D = 1, 4, 16 "
            f"or 64 entries for a chain order D in 0..{MAX_ORDER}{hint}"
        )
    n_states = _N_LETTERS**order
    if transitions.ndim != 3 or transitions.shape[1:] != (n_states, _N_LETTERS):
        raise InputError(
            f"transitions has shape {transitions.shape} but must have shape "
            f"(L - D, {n_states}, 4) for a chain of order D = {order} (read from "
            f"initial, which has {initial.size} entries)"
        )
    length = transitions.shape[0] + order
    if length < 1:
        raise InputError(
            "transitions has shape (0, 1, 4); an order-0 chain needs at least "
            "one position (sequence length L >= 1)"
        )
    _check_entries(initial, "initial")
    _check_entries(transitions, "transitions")
    total = initial.sum()
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise InputError(
            f"initial sums to {float(total)!r} but must sum to 1 (within "
            f"{SUM_TOLERANCE:g})"
        )
    sums = transitions.sum(axis=2)
    bad = np.argwhere(np.abs(sums - 1.0) > SUM_TOLERANCE)
    if bad.size:
        t, s = (int(i) for i in bad[0])
        raise InputError(
            f"transitions[{t}, {s}] (the letter distribution at position "
            f"{t + order + 1} after the state {_state_name(s, order)}) sums to "
            f"{float(sums[t, s])!r} but must sum to 1 (within {SUM_TOLERANCE:g}); "
            f"{len(bad)} row(s) are off"
        )
    # Renormalise distributions that are off by more than rounding; rows
    # already normalised are kept bit for bit (so persistence round-trips).
    if abs(total - 1.0) > _RENORMALISE_ABOVE:
        initial = initial / total
    off = np.abs(sums - 1.0) > _RENORMALISE_ABOVE
    if np.any(off):
        transitions[off] /= sums[off][:, None]
    return initial, transitions, order


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
    length = X.shape[1]
    order = check_int(order, "order", 0, MAX_ORDER)
    if length < order:
        raise InputError(
            f"X has sequences of length {length}, shorter than the chain order "
            f"{order}; use order <= {length}"
        )
    if not isinstance(positional, bool | np.bool_):
        raise InputError(f"positional must be True or False, got {positional!r}")
    check_nonnegative(pseudocount, "pseudocount")
    n_steps = length - order
    if not positional:
        return _homogeneous([X], order, n_steps, pseudocount)
    n_states = _N_LETTERS**order
    if n_steps:
        # (D+1)-gram index at start t - D is 4 * state + letter.
        flat = kmer_indices(X, order + 1) + (n_states * _N_LETTERS) * np.arange(n_steps)
        counts = np.bincount(flat.ravel(), minlength=n_steps * n_states * _N_LETTERS)
        counts = counts.reshape(n_steps, n_states, _N_LETTERS)
        trans = _normalise(counts + float(pseudocount))
    else:
        trans = np.zeros((0, n_states, _N_LETTERS))
    if order == 0:
        return np.ones(1), trans
    starts = kmer_indices(X, order)[:, 0]
    initial = np.bincount(starts, minlength=n_states) + float(pseudocount)
    return _normalise(initial), trans


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
    check_nonnegative(pseudocount, "pseudocount")
    seqs = [np.asarray(x) for x in seqs]  # read once: a generator is read once only
    if not any(x.size > order for x in seqs):
        raise InputError(f"no sequence is longer than the chain order {order}")
    rows = (check_codes(x[None, :]) for x in seqs)
    longer = (x for x in rows if x.shape[1] > order)
    return _homogeneous(longer, order, length - order, pseudocount)


def _homogeneous(
    chunks: Iterable[np.ndarray], order: int, n_steps: int, pseudocount: float
) -> tuple[np.ndarray, np.ndarray]:
    """A homogeneous chain from the letter counts at every position of ``chunks``.

    The transitions count the (D+1)-grams, the initial distribution the
    D-grams, of each code array (n, L) in turn; the transitions are one
    matrix repeated at ``n_steps`` positions (a read-only view).
    """
    counts = np.zeros((4**order, _N_LETTERS))
    grams = np.zeros(4**order)
    for x in chunks:
        if x.shape[1] > order:  # (D+1)-gram index 4 * state + letter
            pairs = kmer_indices(x, order + 1).ravel()
            counts += np.bincount(pairs, minlength=counts.size).reshape(counts.shape)
        if order:
            grams += np.bincount(kmer_indices(x, order).ravel(), minlength=grams.size)
    trans = _normalise(counts + float(pseudocount))
    initial = _normalise(grams + float(pseudocount)) if order else np.ones(1)
    return initial, np.broadcast_to(trans, (n_steps, 4**order, _N_LETTERS))


def _normalise(counts: np.ndarray) -> np.ndarray:
    """Divide the last axis by its sum; zero rows become uniform."""
    counts = np.asarray(counts, dtype=np.float64)
    totals = counts.sum(axis=-1, keepdims=True)
    uniform = np.full_like(counts, 1.0 / counts.shape[-1])
    return np.where(totals > 0, counts / np.where(totals > 0, totals, 1.0), uniform)
