"""Exact POIMs of position-free models (`poimkit.GkmSVC`) under stationary chains.

A position-free model scores a sequence of length L as
``s(x) = b + sum_{t=0..L-l} f(x[t:t+l])``: one l-mer weight table f, the
same at every window (``GkmSVC.lmer_weights``). Under a stationary Markov
chain of order D the POIM

    Q_m(z, j) = sum_t (E[f(X[t:t+l]) | X[j:j+m] = z] - E[f(X[t:t+l])])

splits by the offset ``o = t - j`` of the window:

* overlapping windows (``-l < o < m``): the expectation depends on z only
  through the overlap (widened to z's first or last D letters where the
  window reaches past z) and on o, not on j: one table per offset, by
  enumerating the window's letters (`_position_free.overlap_tables`);
* windows right of z, d letters after its end: ``(M^d before)(last D of z)``
  with M the D-gram transition matrix; windows left of z, d letters before
  its start: ``(after M^(d+D))(first D of z) / pi(first D of z)``. For D = 0
  both equal E[f] and cancel.

So a POIM costs about ``(l + m) 4**(l + D)`` operations whatever L is. The
top order ``max(K, D)`` is computed so; lower orders follow by the law of
total expectation as in `poimkit.poim.exact`.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_max_order
from ..background import MarkovBackground, kmer_probability_table
from ..errors import InputError
from . import _position_free
from .exact import lower_orders


def stationary_background(background: MarkovBackground) -> MarkovBackground:
    """The background with its first D letters drawn from the stationary law.

    Position-free POIMs need a homogeneous chain in equilibrium, so that
    every window looks alike; `MarkovBackground.fit` (pooled) gives the
    homogeneous chain, and this replaces its initial D-gram distribution by
    the stationary one of its transition matrix (for D = 0 nothing changes).

    Parameters
    ----------
    background : MarkovBackground
        A homogeneous chain (``positional=False``).

    Returns
    -------
    MarkovBackground

    Raises
    ------
    InputError
        If the background is position-specific.
    """
    if background.positional:
        raise InputError(
            "position-free models need a homogeneous background (one chain for "
            "every position); fit it with MarkovBackground.fit(X, order, "
            "positional=False)"
        )
    order = background.order
    if order == 0:
        return background
    trans = background.transitions[0]
    n_states = 4**order
    M = _state_matrix(trans, order)
    values, vectors = np.linalg.eig(M.T)
    pi = np.real(vectors[:, np.argmin(np.abs(values - 1.0))])
    pi = np.clip(pi / pi.sum(), 0.0, None)
    pi /= pi.sum()
    if pi.shape != (n_states,):
        raise InputError("background has no stationary distribution")
    return MarkovBackground(pi, background.transitions, positional=False)


def _state_matrix(trans: np.ndarray, order: int) -> np.ndarray:
    """D-gram transition matrix ``M[s, (4 s + a) mod 4**D] = trans[s, a]``."""
    n_states = 4**order
    M = np.zeros((n_states, n_states))
    for s in range(n_states):
        for a in range(4):
            M[s, (4 * s + a) % n_states] += trans[s, a]
    return M


def _spans(l: int, m: int, order: int) -> tuple[np.ndarray, np.ndarray]:
    """Offsets of the overlapping windows and the letters of z each depends on."""
    offsets = np.arange(-l + 1, m, dtype=np.int64)
    spans = np.empty((offsets.size, 2), dtype=np.int64)
    for i, o in enumerate(offsets):
        ja, jb = max(o, 0), min(o + l, m)
        if o < 0:
            ja, jb = 0, max(jb, order)
        if o + l > m:
            ja, jb = min(ja, m - order), m
        spans[i] = ja, jb
    return offsets, spans


def estimate_bytes(length: int, l: int, max_order: int, chain_order: int = 0) -> int:
    """Peak bytes of `position_free_poim`: l-mer table, offset tables, POIMs.

    Parameters
    ----------
    length : int
        Sequence length of the POIMs.
    l : int
        Word length of the model.
    max_order : int
        Largest POIM order.
    chain_order : int, default=0
        Order of the background chain.

    Returns
    -------
    int
    """
    top = max(max_order, chain_order)
    poims = sum((length - m + 1) * 4**m for m in range(1, top + 1))
    return 8 * (4**l + 2 * (l + top) * 4**top + 2 * poims)


def position_free_poim(
    f: np.ndarray,
    l: int,
    background: MarkovBackground,
    max_order: int,
) -> list[np.ndarray]:
    """Exact POIMs ``Q_m`` (m = 1..max_order) of ``s(x) = b + sum_t f(x[t:t+l])``.

    Parameters
    ----------
    f : numpy.ndarray of float64, shape (4**l,)
        Weight of every l-mer window.
    l : int
        Word length.
    background : MarkovBackground
        Homogeneous chain for the sequence length L (>= l); it is used with
        its stationary initial distribution (`stationary_background`).
    max_order : int
        Largest POIM order, ``1 <= max_order <= L``.

    Returns
    -------
    list of numpy.ndarray
        ``Q[m - 1]`` has shape ``(L - m + 1, 4**m)``.
    """
    background = stationary_background(background)
    length, order = background.length, background.order
    if length < l:
        raise InputError(f"sequence length {length} is shorter than l = {l}")
    check_max_order(max_order, length)
    top = max(int(max_order), order)
    pi = np.ascontiguousarray(background.initial)
    trans = np.ascontiguousarray(background.transitions[0])
    f = np.ascontiguousarray(f, dtype=np.float64)

    before = np.zeros(pi.size)
    after = np.zeros(pi.size)
    offsets, spans = _spans(l, top, order)
    tables = np.zeros((offsets.size, 4 ** int((spans[:, 1] - spans[:, 0]).max())))
    if order == 0:  # independent letters: marginalise f axis by axis
        mean = _letter_tables(f, l, trans[0], offsets, spans, tables)
        before[:] = after[:] = mean
    else:
        mean = _position_free.outside_terms(f, l, order, pi, trans, before, after)
        args = (f, l, top, order, pi, trans, offsets, spans, tables)
        _position_free.overlap_tables(*args)

    z = np.arange(4**top, dtype=np.int64)
    # per offset: E[f(window) | z] - E[f] expanded to every z
    near = np.empty((offsets.size, z.size))
    for i, (ja, jb) in enumerate(spans):
        part = (z >> (2 * (top - jb))) & ((1 << (2 * (jb - ja))) - 1)
        near[i] = tables[i, part] - mean
    right, left = _outside_sums(before, after, pi, trans, order, mean, length)
    last = z & (4**order - 1)
    first = z >> (2 * (top - order))

    q = np.zeros((length - top + 1, z.size))
    for j in range(length - top + 1):
        valid = (j + offsets >= 0) & (j + offsets <= length - l)
        q[j] = near[valid].sum(axis=0)
        n_right = length - l - j - top  # windows d = 0..n_right after z
        if n_right >= 0:
            q[j] += right[n_right][last]
        n_left = j - l  # windows d = 0..n_left before z
        if n_left >= 0:
            q[j] += left[n_left][first]

    return lower_orders(
        q, kmer_probability_table(background, top), background, max_order
    )


def _letter_tables(
    f: np.ndarray,
    l: int,
    letters: np.ndarray,
    offsets: np.ndarray,
    spans: np.ndarray,
    out: np.ndarray,
) -> float:
    """`_position_free.overlap_tables` and ``E[f]`` for independent letters.

    Under a chain of order 0 a window's letters outside z are independent
    of z, so ``E[f(window) | z]`` is f summed over those letters weighted by
    their probabilities: f as an l-dimensional table, contracted with
    ``letters`` along every axis but the overlap's (4**l work per offset,
    instead of enumerating every string).

    Returns
    -------
    float
        ``E[f]``, every axis contracted.
    """
    table = f.reshape((4,) * l)
    for i, (o, (ja, jb)) in enumerate(zip(offsets, spans, strict=True)):
        lead, kept = ja - o, jb - ja  # window letters before z's part, and in it
        part = table.reshape(4**lead, 4**kept, -1)
        part = np.tensordot(_weights(letters, lead), part, axes=(0, 0))
        out[i, : 4**kept] = part @ _weights(letters, l - lead - kept)
    return float(_weights(letters, l) @ f)


def _weights(letters: np.ndarray, n: int) -> np.ndarray:
    """Probability of every string of ``n`` independent letters, ``(4**n,)``.

    The first letter is the most significant digit of a string's index.
    """
    weights = np.ones(1)
    for _ in range(n):
        weights = np.outer(weights, letters).ravel()
    return weights


def _outside_sums(before, after, pi, trans, order, mean, length):
    """Cumulative sums over d of the non-overlapping windows' terms minus E[f].

    ``right[n][e] = sum_{d=0..n} ((M^d before)(e) - mean)`` and
    ``left[n][f] = sum_{d=0..n} ((after M^(d+D))(f) / pi(f) - mean)``.
    """
    n_states = pi.size
    right = np.zeros((length + 1, n_states))
    left = np.zeros((length + 1, n_states))
    if order == 0:
        return right, left  # every term is E[f] - E[f]
    M = _state_matrix(trans, order)
    r = before.copy()
    a = after.copy()
    for _ in range(order):
        a = a @ M
    safe = np.where(pi > 0, pi, 1.0)
    for d in range(length + 1):
        right[d] = (right[d - 1] if d else 0.0) + r - mean
        left[d] = (left[d - 1] if d else 0.0) + np.where(pi > 0, a / safe, 0.0) - mean
        r = M @ r
        a = a @ M
    return right, left
