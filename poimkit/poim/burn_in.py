"""Exact WDS POIMs under homogeneous chains that start out of equilibrium.

`poimkit.poim.shifted` computes the POIM of the WDS weights ``W = h * U``
without expanding the shifts when the background is shift invariant. A
homogeneous chain fitted to data (`MarkovBackground.fit` with ``order >= 1``)
is not: its first D letters follow the pooled D-gram frequencies, and its
D-gram marginals ``mu_t`` change with t, converging geometrically to the
stationary distribution ``pi`` of its transitions. Let the *burn-in* B be the
first position from which ``mu_t`` equals ``pi`` to ``STATIONARY_RTOL``
(relative, every D-gram) at every t >= B, and ``stat`` the same transitions
started in ``pi``. Then the letters ``X[B:]`` have the same distribution
under both chains, and so does every term that a feature starting at i >= B
adds to the top-order POIM ``Q(z, j) = sum w (Pr(y at i | z at j) -
Pr(y at i))``:

* ``Pr(y at i)`` and, for windows j >= B, ``Pr(y at i | z at j)`` are
  probabilities of events in ``X[B:]``;
* for windows j < B (so j < i) the feature lies after the window start, and
  ``Pr(y at i | z at j)`` depends only on z and the (homogeneous)
  transitions: the engine divides by the window's own probability, so the
  D-gram marginal at j cancels.

Split ``W = W_early + W_late`` by target position (i < B and i >= B). The
POIM is linear in the weights, so

    Q_true(W) = Q_stat(W) + (Q_true(W_early) - Q_stat(W_early)),

where ``Q_stat(W)`` is the shift convolution of `poimkit.poim.shifted` under
``stat`` and ``W_early`` holds the expanded weights of the first B positions
only. The two chains have the same transitions and differ only in their
D-gram marginals, ``mu_t = r_t pi``; so for a feature (y at i) and a window
(z at j):

* j <= i: ``Pr_true(y at i | z at j) = Pr_stat(y at i | z at j)`` (the
  window's marginal cancels in the ratio), and so do the chain messages of
  windows after the feature from the right;
* j > i: ``Pr_true(y at i | z at j) = Pr_stat(y at i | z at j) r_i(y[:D]) /
  r_j(z[:D])``; the messages of windows after the feature gain
  ``r_i(y[:D])``, and ``Pr(y at i)`` the same factor.

The bracket is therefore one engine pass over ``W_early`` under ``stat``
that visits only the windows after each feature's start and adds the
difference of the two chains' terms (`difference_pass`; it visits the
features row by row, an order and a row of U at a time, and window by window
within a row: a prefix probability grows by one transition per window, the
same for every target of the row's shifted copies, and the writes stay in
one window's tables). All terms are added before
the engine finishes the windows (`poimkit.poim.exact.finish_windows`, with
the true chain: its D-gram marginals at windows j >= B are ``pi``); the lower
orders then follow from the true chain as for any weights. The extra cost is
that pass, about ``B (2S + 1) / L`` of the unshifted weights' cost (fewer
windows per feature: those after its start).

Required: one transition matrix at every position, ``pi > 0`` for every
D-gram (so that no window has probability zero under ``stat`` but not under
the chain), and convergence within the sequence. Position-specific chains,
chains that do not settle before the sequence ends, and chains whose burn-in
makes the split no cheaper than the expansion use the expanded weights.
"""

from __future__ import annotations

import numpy as np

from ..background import MarkovBackground, kmer_probability_table
from ..kernels.explicit import KmerWeights
from . import _burn_in
from .exact import chain_arrays, feature_lists, region_offsets
from .shifted import (
    STATIONARY_RTOL,
    accumulate_shifted,
    estimate_shifted_bytes,
    shift_invariant,
    shift_kernel,
)


def _step_matrix(trans: np.ndarray) -> np.ndarray:
    """D-gram to D-gram transition matrix of one ``(4**D, 4)`` matrix."""
    n_states = trans.shape[0]
    step = np.zeros((n_states, n_states))
    states = np.repeat(np.arange(n_states), 4)
    nxt = (4 * states + np.tile(np.arange(4), n_states)) % n_states
    np.add.at(step, (states, nxt), trans.ravel())
    return step


def burn_in(background: MarkovBackground) -> tuple[int, MarkovBackground] | None:
    """Burn-in B of a homogeneous chain and the chain started in equilibrium.

    Parameters
    ----------
    background : MarkovBackground
        The chain.

    Returns
    -------
    tuple of (int, MarkovBackground) or None
        ``(B, stat)``: B is the first D-gram start from which the marginals
        ``mu_t`` (`MarkovBackground.marginals`) equal the stationary D-gram
        distribution ``pi`` of the transitions to ``STATIONARY_RTOL``
        (relative, every D-gram) at every t >= B; ``stat`` has the same
        transitions and initial distribution ``pi``. None if the transitions
        differ between positions, the marginals do not settle before the
        sequence ends (e.g. a periodic chain), or some D-gram has ``pi = 0``.

    Notes
    -----
    ``pi`` is the limit of the marginals themselves: ``mu_{L-D}`` times a
    high power of the D-gram step matrix (by repeated squaring), polished by
    a few steps. For a shift invariant chain B = 0.

    Examples
    --------
    >>> bg = MarkovBackground([1.0, 0, 0, 0], [[[0.25] * 4] * 4] * 5)
    >>> b, stat = burn_in(bg)
    >>> b, stat.initial.tolist()
    (1, [0.25, 0.25, 0.25, 0.25])
    """
    trans = background.transitions
    if trans.shape[0] == 0 or np.any(trans != trans[:1]):
        return None
    mu = background.marginals()
    step = _step_matrix(trans[0])
    power = step
    for _ in range(64):  # step ** (2 ** 64): the limit for a mixing chain
        squared = power @ power
        squared /= squared.sum(axis=1, keepdims=True)  # no drift of the row sums
        settled = np.array_equal(squared, power)
        power = squared
        if settled:
            break
    pi = mu[-1] @ power
    for _ in range(4):
        pi = pi @ step
        pi /= pi.sum()
    if not np.all(pi > 0) or np.any(np.abs(pi @ step - pi) > STATIONARY_RTOL * pi):
        return None
    close = np.all(np.abs(mu - pi) <= STATIONARY_RTOL * pi, axis=1)
    if not close[-1]:
        return None
    far = np.flatnonzero(~close)
    b = int(far[-1]) + 1 if far.size else 0
    stat = MarkovBackground(pi, trans, positional=False)
    if not shift_invariant(stat):
        return None
    return b, stat


def _reach(length: int, degree: int, top: int, b: int) -> int:
    """The windows ``0:reach`` of order ``top`` that the difference pass writes.

    They hold every window j > i of a feature (y at i < B) of order up to
    ``degree``.
    """
    return min(length - top + 1, b + degree - 1)


def estimate_burn_in_bytes(
    length: int,
    max_order: int,
    chain_order: int,
    shift: int,
    b: int,
    degree: int,
    per_position: int,
) -> int:
    """Peak bytes of `accumulate_burn_in`.

    Parameters
    ----------
    length, max_order, chain_order, shift
        As in `poimkit.poim.shifted.estimate_shifted_bytes`.
    b : int
        The burn-in B.
    degree : int
        Largest k-mer length of the unshifted weights U (``U.max_order``).
    per_position : int
        Most entries of U at one position of one order (an upper bound will
        do, e.g. before training; `poimkit.poim.engine.weights_extent`).

    Returns
    -------
    int
        `estimate_shifted_bytes` (the convolution) plus the difference
        pass's tables of the windows it reaches (one set per thread and their
        sum), its rows (32 bytes per row of U with a copy at a target i < B)
        and each thread's suffix probabilities of a row.

    Examples
    --------
    >>> extra = estimate_burn_in_bytes(30, 2, 2, 3, 5, degree=1, per_position=4)
    >>> extra > estimate_shifted_bytes(30, 2, 2, 3)
    True
    """
    import numba

    rows = sum(min(length - k + 1, b + shift) for k in range(1, degree + 1))
    need = estimate_shifted_bytes(length, max_order, chain_order, shift)
    top = max(max_order, chain_order)
    reach = _reach(length, degree, top, b)
    window = region_offsets(top)[1] + 4**top
    n_threads = numba.get_num_threads()
    private = 8 * (n_threads + 1) * reach * window
    work = 8 * n_threads * (degree + 1) * per_position
    return need + 32 * rows + private + work


def accumulate_burn_in(
    base: KmerWeights,
    shift: int,
    background: MarkovBackground,
    top: int,
    b: int,
    stationary: MarkovBackground,
    n_blocks: int | None = None,
    progress: bool = False,
) -> tuple:
    """`accumulate` of ``h * U`` under a chain with a burn-in (see module doc).

    Parameters
    ----------
    base, shift, top, n_blocks, progress
        As in `poimkit.poim.shifted.accumulate_shifted`.
    background : MarkovBackground
        The homogeneous chain.
    b : int
        The burn-in B (`burn_in`, as in `poimkit.poim.engine.plan_shifts`).
    stationary : MarkovBackground
        The same transitions started in equilibrium (`burn_in`).

    Returns
    -------
    tables, out, new_left, new_right, total
        As `poimkit.poim.shifted.accumulate_shifted` returns them, under
        ``background``.

    Examples
    --------
    >>> from poimkit.poim.engine import exact_poim, plan_shifts
    >>> from poimkit.poim.shifted import expand_shifts
    >>> base = KmerWeights.from_tables([np.array([[0, 1.0, 0, 0]] * 30)], bias=0.0)
    >>> tilt = np.array([[1, -1, 0, 0], [0, 1, -1, 0], [0, 0, 1, -1], [-1, 0, 0, 1]])
    >>> trans = np.broadcast_to(0.25 + 0.02 * tilt, (29, 4, 4))
    >>> bg = MarkovBackground([1.0, 0, 0, 0], trans)  # starts with A
    >>> plan = plan_shifts(bg, 8)
    >>> plan.method, plan.burn_in
    ('burn-in', 10)
    >>> fast = exact_poim(base, bg, 1, shift=8)  # calls accumulate_burn_in
    >>> slow = exact_poim(expand_shifts(base, 8), bg, 1)
    >>> bool(np.allclose(fast[0], slow[0], rtol=1e-12, atol=1e-12))
    True
    """
    tables, out, new_left, new_right, total = accumulate_shifted(
        base, shift, stationary, top, n_blocks, progress
    )
    reach = _reach(base.length, base.max_order, top, b)
    part = difference_pass(base, stationary, background, top, reach, shift, b)
    tables[:reach] += part[0]
    out[:reach] += part[1]
    new_left += part[2]
    return tables, out, new_left, new_right, total + part[3]


def difference_pass(
    weights: KmerWeights,
    first: MarkovBackground,
    second: MarkovBackground,
    l: int,
    reach: int,
    shift: int = 0,
    stop: int | None = None,
) -> tuple:
    """`accumulate` of ``weights`` under ``second`` minus under ``first``.

    Parameters
    ----------
    weights : KmerWeights
        The features; with ``shift``, the unshifted weights U of a WDS model.
    first, second : MarkovBackground
        Homogeneous chains with the same transitions; ``first`` gives every
        D-gram (D >= 1) a positive probability at every position.
    l : int
        Window length (at least D).
    reach : int
        The windows ``0:reach`` hold every window j > i of a feature (y at i).
    shift : int, default=0
        The features are the entries before ``stop`` of
        ``expand_shifts(weights, shift)``, read from U row by row (a row of U
        at p, times ``h_|i - p|``, for each target i), never expanded.
    stop : int, optional
        Only targets ``i < stop`` (all by default).

    Returns
    -------
    tables, out : numpy.ndarray
        Region tables and whole-window values of the windows ``0:reach``.
    new_left : numpy.ndarray, shape (L + 1, 4**D)
        Left chain messages (the right ones are the same for both chains).
    total : float
        ``sum w (Pr_second(y at i) - Pr_first(y at i))``.

    Notes
    -----
    See the module docstring: only the windows j > i of a feature differ,
    by the factor ``r_i(y[:D]) / r_j(z[:D]) - 1`` of the first chain's terms,
    with ``r_t`` the ratio of the chains' D-gram marginals; per unit of
    ``w Pr(y at i | z at j)`` without the marginals, that is ``mu_i(y[:D]) /
    mu_j(z[:D]) - pi_i(y[:D]) / pi_j(z[:D])`` (``mu``, ``pi``: the D-gram
    marginals of ``second`` and ``first``). The rows of U (an order and a
    start, with every target of their shifted copies) are split into one
    group per thread, each with its own tables, added at the end.
    """
    import numba

    length = weights.length
    order = first.order
    chain = chain_arrays(first, second)
    zprob = np.ascontiguousarray(kmer_probability_table(first, l)[:reach])
    offsets, region_size = region_offsets(l)
    rows, cost = [], []
    for k in range(1, weights.max_order + 1):
        counts = np.diff(weights.order(k)[0])
        n_pos = length - k + 1
        i_stop = n_pos if stop is None else min(stop, n_pos)
        for p in np.flatnonzero(counts[: i_stop + shift]):
            i_lo, i_hi = max(0, p - shift), min(i_stop, p + shift + 1)
            rows.append((k, p, i_lo, i_hi))
            cost.append(counts[p] * (k + 1) * (i_hi - i_lo))
    rows = np.array(rows, dtype=np.int64).reshape(-1, 4)
    n_groups = max(1, min(numba.get_num_threads(), len(rows)))
    cumulative = np.concatenate([[0], np.cumsum(cost)])
    group_bounds = np.searchsorted(
        cumulative, np.linspace(0, cumulative[-1], n_groups + 1), side="left"
    ).astype(np.int64)
    group_bounds[-1] = len(rows)
    tables = np.zeros((n_groups, reach, max(region_size, 1)))
    out = np.zeros((n_groups, reach, 4**l))
    new_left = np.zeros((n_groups, length + 1, 4**order))
    totals = np.zeros(n_groups)
    mu = second.marginals()
    inv_mu = np.divide(1.0, mu, out=np.zeros_like(mu), where=mu > 0)
    inv_pi = np.divide(1.0, chain[0], out=np.zeros_like(mu), where=mu > 0)
    _burn_in.difference_rows(
        feature_lists(weights),
        rows,
        shift_kernel(shift),
        group_bounds,
        l,
        order,
        length,
        chain,
        (mu, inv_mu, inv_pi),
        (zprob, offsets),
        (tables, out, new_left, totals),
    )
    return tables.sum(axis=0), out.sum(axis=0), new_left.sum(axis=0), totals.sum()
