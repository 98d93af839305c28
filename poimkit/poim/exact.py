"""Exact POIMs of positional k-mer linear models under Markov backgrounds.

For a score ``s(x) = b + sum_{k,i,y} w_k[i, y] I(x[i:i+k] = y)`` and a
background chain of order D, the POIM is

    Q_l(z, j) = E[s(X) | X[j:j+l] = z] - E[s(X)]
              = sum_{k,i,y} w_k[i, y] (Pr(y at i | z at j) - Pr(y at i)).

The engine computes it exactly, without enumerating sequences:

* features overlapping the window: ``Pr(y at i | z at j)`` is zero unless y and
  z agree on the overlap, and otherwise a ratio of string probabilities that
  depends on z only through the letters of the overlap (widened by up to D
  letters at an edge where the chain state holds letters of z that y leaves
  free). Values are summed per sub-window and letter pattern and expanded to
  all 4**l k-mers once per window.
* features wholly left or right of the window: by the Markov property they
  see z only through its first or last D letters. Two recursions along the
  chain (one forward, one backward) give these terms exactly, for any
  distance; for D = 0 they cancel with ``E[s(X)]``.

The largest order ``K' = max(K, D)`` is computed directly; lower orders follow
exactly from the law of total expectation,
``Q_l(z, j) = sum_u Pr(zu at j | z at j) Q_{l+1}(zu, j)`` (the window extended
to the right, or to the left at the sequence end). k-mers of background
probability zero get Q = 0.

This module is the foundation of the engine (chain arrays, feature lists, the
scatter `accumulate`, `finish_windows`, `lower_orders`); the entry point,
`poimkit.poim.engine.exact_poim`, builds on it, on `poimkit.poim.shifted` and
on `poimkit.poim.burn_in`.
"""

from __future__ import annotations

import numpy as np

from ..additive import declares
from ..background import MarkovBackground, kmer_probability_table
from ..errors import InputError
from ..kernels.explicit import KmerWeights
from . import _exact

DEFAULT_MEMORY_LIMIT = 4 * 1024**3  # bytes


def as_weights(model: object) -> KmerWeights:
    """Explicit k-mer weights of a fitted model, or the weights themselves.

    Parameters
    ----------
    model : WDKernelSVC, WDLinearSVC or KmerWeights
        A fitted model with ``explicit_weights()``, or weights.

    Returns
    -------
    KmerWeights
        ``model`` itself, or its ``explicit_weights()``.

    Raises
    ------
    InputError
        For anything else.
    """
    if isinstance(model, KmerWeights):
        return model
    if declares(model, "positional"):
        return model.explicit_weights()
    raise InputError(
        f"expected a fitted WDKernelSVC (or another model with explicit_weights()) "
        f"or KmerWeights, got {type(model).__name__}"
    )


def region_offsets(l: int) -> tuple[np.ndarray, int]:
    """Start of each sub-window ``[a, b)`` of a window in a flat region table.

    Parameters
    ----------
    l : int
        Window length.

    Returns
    -------
    offsets : numpy.ndarray of int64, shape (l + 1, l + 1)
        ``offsets[a, b]``: where the ``4**(b - a)`` values of the sub-window
        ``[a, b)`` start; -1 for the whole window ``[0, l)`` (kept apart, in
        the window's own row) and for empty sub-windows.
    size : int
        Length of the flat table.

    Examples
    --------
    >>> offsets, size = region_offsets(2)
    >>> int(offsets[0, 1]), int(offsets[1, 2]), int(offsets[0, 2]), size
    (0, 4, -1, 8)
    """
    offsets = np.full((l + 1, l + 1), -1, dtype=np.int64)
    size = 0
    for a in range(l):
        for b in range(a + 1, l + 1):
            if (a, b) != (0, l):
                offsets[a, b] = size
                size += 4 ** (b - a)
    return offsets, size


def estimate_bytes(length: int, max_order: int, chain_order: int = 0) -> int:
    """Peak bytes of the POIMs of plain weights: output, probability and region tables.

    The estimate of `poimkit.poim.engine.exact_poim` without shifts (see
    `poimkit.poim.engine.estimate_poim_bytes` for WDS weights).

    Parameters
    ----------
    length : int
        Sequence length L.
    max_order : int
        Largest POIM order K.
    chain_order : int, default=0
        Order D of the background chain (orders up to ``max(K, D)`` are
        computed).

    Returns
    -------
    int
        8 bytes per float: two tables of every order and the region tables.

    Examples
    --------
    >>> estimate_bytes(100, 2)
    38080
    """
    top = max(max_order, chain_order)
    out = sum((length - l + 1) * 4**l for l in range(1, top + 1))
    _, region = region_offsets(top)
    n_windows = length - top + 1
    return 8 * (2 * out + n_windows * region)


def check_memory(need: float, limit: float, max_order: int, length: int) -> None:
    """Raise `InputError` if POIMs needing ``need`` bytes exceed ``limit``.

    Parameters
    ----------
    need : float
        Estimated peak bytes (`estimate_bytes`).
    limit : float
        The memory limit in bytes.
    max_order, length : int
        The POIM request, for the message.

    Raises
    ------
    InputError
        If ``need > limit``, with what to change.
    """
    if need > limit:
        raise InputError(
            f"POIMs up to order {max_order} for length {length} need about "
            f"{need / 1024**3:.3g} GiB, over the limit of {limit / 1024**3:.3g} "
            "GiB; lower --max-order, or raise --memory-limit"
        )


def lower_orders(
    q_top: np.ndarray,
    p_top: np.ndarray,
    background: MarkovBackground,
    max_order: int,
) -> list[np.ndarray]:
    """All POIMs ``Q_1..Q_max_order`` from the top one, by total expectation.

    ``Q_l(z, j) = sum_u Pr(zu at j | z at j) Q_{l+1}(zu, j)`` (at the sequence
    end, the letter before z); one probability table of each order is alive
    at a time.

    Parameters
    ----------
    q_top : numpy.ndarray of float64, shape (L - K' + 1, 4**K')
        The POIM of the top order ``K' = max(max_order, D)``.
    p_top : numpy.ndarray of float64
        ``kmer_probability_table(background, K')``.
    background : MarkovBackground
        The sequence distribution.
    max_order : int
        The orders returned.

    Returns
    -------
    list of numpy.ndarray
        ``Q[l - 1]`` has shape ``(L - l + 1, 4**l)``.
    """
    top = int(q_top.shape[1]).bit_length() // 2  # 4**top columns
    poims = [None] * top
    poims[top - 1] = q_top
    p_next = p_top
    for l in range(top - 1, 0, -1):
        p_this = kmer_probability_table(background, l)
        poims[l - 1] = _marginalise(poims[l], p_next, p_this)
        p_next = p_this
    return poims[:max_order]


def _marginalise(q_next, p_next, p_this):
    """Q_l from Q_{l+1}: average over the letter after (or, at the end, before) z."""
    n_windows, n_z = p_this.shape
    q = np.empty((n_windows, n_z))
    shape = (n_windows - 1, n_z, 4)
    q[:-1] = np.einsum(  # no temporary of the larger order's size
        "jzu,jzu->jz", p_next.reshape(shape), q_next.reshape(shape)
    )
    q[-1] = np.einsum(
        "uz,uz->z", p_next[-1].reshape(4, n_z), q_next[-1].reshape(4, n_z)
    )
    positive = p_this > 0
    q[positive] /= p_this[positive]
    q[~positive] = 0.0
    return q


def chain_arrays(
    background: MarkovBackground, other: MarkovBackground | None = None
) -> tuple:
    """``(pi, trans, small, rel)`` of a background, as the numba engine reads them.

    Parameters
    ----------
    background : MarkovBackground
        The chain to hand to the numba engine.
    other : MarkovBackground, optional
        For a difference pass (`poimkit.poim._burn_in`): a chain with the
        same transitions.

    Returns
    -------
    tuple of numpy.ndarray
        D-gram marginals ``pi[t, s]``, transitions ``trans[t - D, s, a]``,
        ``small[k, i, y] = Pr(y at i)`` for k-mers shorter than D, and ``rel``:
        empty, or ``other``'s D-gram marginals over ``pi`` (0 where ``pi`` is);
        with ``other``, ``small`` is ``other``'s minus ``background``'s.
    """
    length = background.length
    order = background.order
    pi = np.ascontiguousarray(background.marginals(), dtype=np.float64)
    trans = np.ascontiguousarray(background.transitions, dtype=np.float64)
    small = np.zeros((max(order, 1), length, 4 ** max(order - 1, 0)))
    for k in range(1, order):
        small[k, : length - k + 1, : 4**k] = kmer_probability_table(background, k)
        if other is not None:
            small[k, : length - k + 1, : 4**k] *= -1.0
            small[k, : length - k + 1, : 4**k] += kmer_probability_table(other, k)
    rel = np.zeros((0, 0))
    if other is not None:
        mu = other.marginals()
        rel = np.divide(mu, pi, out=np.zeros_like(pi), where=pi > 0)
    return pi, trans, small, rel


def feature_lists(weights: KmerWeights) -> tuple:
    """``(indptrs, kmers, values)`` as numba typed lists (no copies).

    Parameters
    ----------
    weights : KmerWeights
        A model's positional k-mer weights, one CSR block per order k.

    Returns
    -------
    tuple of numba.typed.List
        The blocks' arrays, order 1 first, for the numba engine.
    """
    from numba.typed import List

    indptrs, kmers, values = List(), List(), List()
    for k in range(1, weights.max_order + 1):
        indptr, kmer, value = weights.order(k)
        indptrs.append(np.ascontiguousarray(indptr, dtype=np.int64))
        kmers.append(np.ascontiguousarray(kmer, dtype=np.int64))
        values.append(np.ascontiguousarray(value, dtype=np.float64))
    return indptrs, kmers, values


def accumulate(
    weights: KmerWeights,
    background: MarkovBackground,
    l: int,
    zprob: np.ndarray,
    window_lo: int,
    window_hi: int,
    n_blocks: int | None = None,
    progress: bool = False,
    into: tuple | None = None,
) -> tuple:
    """Scatter the features into the windows ``window_lo:window_hi`` of order l.

    Parameters
    ----------
    weights : KmerWeights
        The features (same length as the background).
    background : MarkovBackground
        The chain.
    l : int
        Window length.
    zprob : numpy.ndarray of float64, shape (L - l + 1, 4**l)
        ``kmer_probability_table(background, l)``.
    window_lo, window_hi : int
        Windows filled; rows outside stay 0. Features starting before
        ``window_lo`` add to the windows but not to the chain messages.
    n_blocks : int, optional
        Parallel work units (default: 4 per thread).
    progress : bool
        Show a progress bar over the windows.
    into : tuple of numpy.ndarray, optional
        ``(tables, out)`` to add to instead of new zero arrays.

    Returns
    -------
    tables, out : numpy.ndarray
        Region tables and whole-window values, one row per window.
    new_left, new_right : numpy.ndarray, shape (L + 1, 4**D)
        Chain messages of the features (see `_exact.accumulate_features`).
    total : float
        ``sum w Pr(y at i)`` over those features.
    """
    import numba
    from tqdm.auto import tqdm

    length = weights.length
    order = background.order
    n_states = 4**order
    n_windows = length - l + 1
    chain = chain_arrays(background)
    features = feature_lists(weights)
    n_span = window_hi - window_lo
    if n_blocks is None:
        n_blocks = 4 * numba.get_num_threads()
    n_blocks = max(1, min(int(n_blocks), n_span))
    block_bounds = (
        np.linspace(window_lo, window_hi, n_blocks + 1).round().astype(np.int64)
    )
    # calls of one block per thread: the bar moves between them
    per_call = numba.get_num_threads() if progress else n_blocks

    offsets, region_size = region_offsets(l)
    if into is None:
        tables = np.zeros((n_windows, max(region_size, 1)))
        out = np.zeros((n_windows, 4**l))
    else:
        tables, out = into
    new_left = np.zeros((n_blocks, length + 1, n_states))
    new_right = np.zeros((n_blocks, length + 1, n_states))
    totals = np.zeros(n_blocks)
    bar = tqdm(
        total=n_span,
        desc=f"POIM order {l}",
        unit="window",
        disable=not progress,
        leave=False,
    )
    windows = (zprob, offsets, tables, out)
    messages = (new_left, new_right, totals)
    for b_lo in range(0, n_blocks, per_call):
        b_hi = min(b_lo + per_call, n_blocks)
        _exact.accumulate_features(
            features,
            block_bounds,
            b_lo,
            b_hi,
            l,
            order,
            length,
            chain,
            windows,
            messages,
        )
        bar.update(int(block_bounds[b_hi] - block_bounds[b_lo]))
    bar.close()
    return tables, out, new_left.sum(axis=0), new_right.sum(axis=0), totals.sum()


def finish_windows(
    tables: np.ndarray,
    out: np.ndarray,
    new_left: np.ndarray,
    new_right: np.ndarray,
    total: float,
    background: MarkovBackground,
    l: int,
    zprob: np.ndarray,
) -> np.ndarray:
    """Q_l from the accumulated tables and messages (`accumulate`), in place.

    Parameters
    ----------
    tables, out : numpy.ndarray
        Region tables and whole-window values; ``out`` becomes Q_l.
    new_left, new_right : numpy.ndarray, shape (L + 1, 4**D)
        Chain messages of all features.
    total : float
        ``E[s(X)] - b``.
    background, l, zprob
        As in `accumulate`.

    Returns
    -------
    numpy.ndarray of float64, shape (L - l + 1, 4**l)
        ``out``, holding Q_l.
    """
    length = background.length
    order = background.order
    n_states = 4**order
    pi = np.ascontiguousarray(background.marginals(), dtype=np.float64)
    trans = np.ascontiguousarray(background.transitions, dtype=np.float64)
    offsets, _ = region_offsets(l)
    left = np.zeros((length - order + 1, n_states))
    right = np.zeros((length + 1, n_states))
    _exact.chain_messages(new_left, new_right, order, length, trans, left, right)
    _exact.expand_windows(
        tables, offsets, l, order, pi, left, right, float(total), zprob, out
    )
    return out
