"""Exact POIMs of WDS models without expanding the shifts.

A WDS model's explicit weights are the unshifted weights ``U_k`` (those of the
same support vectors with S = 0, `WDKernelSVC.shift_base_weights`) convolved
along positions,

    W_k[i, y] = sum_{s=-S..S} h_|s| U_k[i - s, y],   h_0 = 1, h_s = 1 / (2 (s + 1)),

kept only where the k-mer lies inside the sequence (0 <= i <= L - k). Expanded,
W has up to 2S + 1 times as many entries as U, and the POIM engine's cost grows
with them. The POIM is linear in the weights, and under a background that is
*shift invariant* (homogeneous transitions and the same D-gram marginals at
every position: the uniform background, every homogeneous order-0 chain,
stationary chains) every per-feature term of the engine depends on the
feature and the window only through their offset. So, on a sequence padded by
``P = S + D`` positions at both ends (the same chain):

* the engine runs once on U (placed at ``P + p``), filling the windows that
  any shifted copy reaches; the window tables and chain messages of the full
  convolution ``V = h * U`` are then ``h`` convolved with those of U along the
  window (or message) position;
* W differs from V by the shifted copies that cross a sequence end: U at
  distance r from an end, moved by s > r towards it. With ``A_s`` the window
  tables and messages of the U features at distance < s from that end (one
  more "layer" of U per s, at most S layers of about ``n_SV`` k-mers per
  order and end), the copies of shift s are ``h_s A_s`` moved by s and are
  subtracted. A copy moved towards the left end reaches, inside the
  sequence, only the windows that start inside its feature before the move
  (those that end inside it, at the right end), so ``A_s`` is built for
  those alone, layer by layer and row by row (`_shifted.end_layers`), both
  ends at once when their windows are apart. Copies wholly outside the
  sequence touch no window;
* the expectation ``E[s(X)]`` is that of V minus, per layer r, the shift
  weights ``sum_{s > r} h_s`` times the layer's ``sum w Pr(y at i)``.

The result equals the POIM of the expanded weights up to floating-point
rounding. Homogeneous chains with non-stationary marginals (e.g. a fitted
order-2 chain) use this convolution under their stationary chain plus a few
expanded positions (`poimkit.poim.burn_in`); position-specific chains fall
back to the expanded weights (`poimkit.poim.engine.plan_shifts` decides).
"""

from __future__ import annotations

import numpy as np

from ..background import MarkovBackground, kmer_probability_table
from ..kernels.explicit import KmerWeights, shift_weights, sum_duplicates
from . import _shifted
from .exact import (
    accumulate,
    chain_arrays,
    estimate_bytes,
    feature_lists,
    region_offsets,
)

STATIONARY_RTOL = 1e-13
"""Relative spread of the D-gram marginals over positions taken as constant
(a stationary start found numerically varies by about 1e-15 over 2000 positions)."""


def shift_kernel(shift: int) -> np.ndarray:
    """The shift weights ``h`` of a WDS model, the unshifted copy first.

    Parameters
    ----------
    shift : int
        The largest shift S.

    Returns
    -------
    numpy.ndarray of float64, shape (S + 1,)
        ``h[0] = 1`` and ``h[s] = delta_s = 1 / (2 (s + 1))`` for s = 1..S.

    Examples
    --------
    >>> shift_kernel(2).tolist()
    [1.0, 0.25, 0.16666666666666666]
    """
    return np.concatenate([[1.0], shift_weights(shift)])


def shift_invariant(background: MarkovBackground) -> bool:
    """Whether the chain looks the same from every position.

    Parameters
    ----------
    background : MarkovBackground
        The chain to test: its transition matrices and its D-gram marginals
        at every position.

    Returns
    -------
    bool
        True if every position has the same transition matrix and the D-gram
        marginals agree at every position (to ``STATIONARY_RTOL``), and the
        chain has at least one transition.

    Examples
    --------
    >>> shift_invariant(MarkovBackground.uniform(10))
    True
    """
    trans = background.transitions
    if trans.shape[0] == 0 or np.any(trans != trans[:1]):
        return False
    pi = background.marginals()
    return bool(np.all(np.abs(pi - pi[0]) <= STATIONARY_RTOL * pi[0]))


def expand_shifts(base: KmerWeights, shift: int) -> KmerWeights:
    """The explicit WDS weights ``W = h * U`` (restricted to the sequence).

    Parameters
    ----------
    base : KmerWeights
        The unshifted weights U.
    shift : int
        The largest shift S.

    Returns
    -------
    KmerWeights
        Equal to ``KmerWeights.from_support_vectors(..., shift=S)`` of the same
        support vectors, up to rounding.
    """
    h = shift_kernel(shift)
    out = KmerWeights(length=base.length, bias=base.bias)
    for k in range(1, base.max_order + 1):
        n_pos = base.length - k + 1
        pos, kmer, val = _shifted_entries(base, k, h, np.arange(n_pos))
        keep = val != 0.0
        out.append_entries(pos[keep], kmer[keep], val[keep])
    return out


def _shifted_entries(base: KmerWeights, k: int, h: np.ndarray, targets: np.ndarray):
    """Entries ``(i, y, sum_s h_|s| U_k[i - s, y])`` for the positions ``targets``.

    Positions may lie outside ``0..L-k``; sources must lie inside. Sorted by
    (position, k-mer).
    """
    indptr, kmers, values = base.order(k)
    n_pos = base.length - k + 1
    n_shift = h.size - 1
    parts = []
    for s in range(-n_shift, n_shift + 1):
        src = targets - s
        src = src[(src >= 0) & (src < n_pos)]
        if src.size == 0:
            continue
        counts = indptr[src + 1] - indptr[src]
        take = np.repeat(indptr[src] - np.cumsum(counts) + counts, counts)
        take += np.arange(int(counts.sum()))
        parts.append(
            (np.repeat(src + s, counts), kmers[take], h[abs(s)] * values[take])
        )
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    return sum_duplicates(*(np.concatenate(a) for a in zip(*parts, strict=True)))


def _padded(base: KmerWeights, pad: int) -> KmerWeights:
    """C on a sequence with ``pad`` empty positions at both ends."""
    out = KmerWeights(length=base.length + 2 * pad, bias=base.bias)
    for k in range(1, base.max_order + 1):
        indptr, kmers, values = base.order(k)
        ends = np.full(pad, indptr[-1], np.int64)
        out.append_order(
            np.concatenate([np.zeros(pad, np.int64), indptr, ends]), kmers, values
        )
    return out


def _padded_chain(background: MarkovBackground, pad: int) -> MarkovBackground:
    """The same shift-invariant chain on ``L + 2 pad`` positions."""
    trans = background.transitions
    n_trans = background.length + 2 * pad - background.order
    return MarkovBackground(
        background.initial,
        np.broadcast_to(trans[:1], (n_trans,) + trans.shape[1:]),
        positional=False,
    )


def estimate_shifted_bytes(
    length: int, max_order: int, chain_order: int, shift: int
) -> int:
    """Peak bytes of `accumulate_shifted`: `estimate_bytes` plus the padded tables.

    Parameters
    ----------
    length, max_order, chain_order
        As in `poimkit.poim.exact.estimate_bytes`.
    shift : int
        The largest shift S.

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> estimate_shifted_bytes(100, 2, 0, 4) > estimate_bytes(100, 2)
    True
    """
    top = max(max_order, chain_order)
    _, region = region_offsets(top)
    padded = length + 2 * (shift + chain_order) - top + 1
    return estimate_bytes(length, max_order, chain_order) + 8 * 2 * padded * (
        region + 4**top
    )


def accumulate_shifted(
    base: KmerWeights,
    shift: int,
    background: MarkovBackground,
    top: int,
    n_blocks: int | None = None,
    progress: bool = False,
) -> tuple:
    """`poimkit.poim.exact.accumulate` of the WDS weights ``h * U``, by convolution.

    `poimkit.poim.engine.exact_poim` calls it with ``shift=S`` under a shift
    invariant background and finishes the windows as for any weights.

    Parameters
    ----------
    base : KmerWeights
        The unshifted weights U (see `WDKernelSVC.shift_base_weights`).
    shift : int
        The largest shift S (at least 1).
    background : MarkovBackground
        A `shift_invariant` chain for the weights' length.
    top : int
        The order computed, ``max(K, D)``.
    n_blocks, progress
        As in `poimkit.poim.engine.exact_poim`.

    Returns
    -------
    tables, out, new_left, new_right, total
        As `poimkit.poim.exact.accumulate` of ``expand_shifts(base, shift)``
        over all windows of order ``top``, up to rounding; `finish_windows`
        turns them into the POIM.

    Notes
    -----
    See the module docstring. The engine runs on U over the windows of a
    sequence padded by ``S + D``; the padded window tables are convolved with
    ``h``. The S positions of U next to each end add their terms for the
    windows after their start (left end) or before their end (right end),
    about ``(k - 1) / (k + l - 1)`` of a full pass over them, row by row. The
    cost is about that of the unshifted weights plus ``2S`` of their ``L``
    positions at most, instead of ``2S + 1`` times for the expanded weights.

    Examples
    --------
    >>> from poimkit.poim.engine import exact_poim
    >>> base = KmerWeights.from_tables([np.array([[0, 1.0, 0, 0]] * 6)], bias=0.0)
    >>> bg = MarkovBackground.uniform(6)
    >>> fast = exact_poim(base, bg, 2, shift=2)  # calls accumulate_shifted
    >>> slow = exact_poim(expand_shifts(base, 2), bg, 2)
    >>> bool(np.allclose(fast[1], slow[1]))
    True
    """
    length = base.length
    order = background.order
    h = shift_kernel(shift)
    pad = shift + order
    n_windows = length - top + 1
    padded_chain = _padded_chain(background, pad)
    zprob_padded = kmer_probability_table(padded_chain, top)

    padded = _padded(base, pad)
    # U over every padded window that a shifted copy reaches
    c_tables, c_out, c_left, c_right, c_total = accumulate(
        padded,
        padded_chain,
        top,
        zprob_padded,
        pad - shift,
        pad + n_windows + shift,
        n_blocks,
        progress,
    )
    tables = np.zeros((n_windows, c_tables.shape[1]))
    out = np.zeros((n_windows, c_out.shape[1]))
    new_left = np.zeros((length + 1, c_left.shape[1]))
    new_right = np.zeros((length + 1, c_right.shape[1]))
    for src, dst in ((c_tables, tables), (c_out, out)):
        _shifted.convolve_rows(src, h, pad, dst)
    _shifted.convolve_rows(c_left, h, pad, new_left)
    _shifted.convolve_rows(c_right, h, pad, new_right)
    total = (2.0 * h.sum() - 1.0) * c_total  # as if every copy stayed inside
    del c_tables, c_out

    # minus the copies that cross an end (see end_layers)
    n_acc = min(shift + max(base.max_order, 1) - 1, n_windows + shift)
    n_states = 4**order
    acc = (
        np.zeros((2, n_acc, tables.shape[1])),
        np.zeros((2, n_acc, out.shape[1])),
        np.zeros((2, padded.length + 1, n_states)),
        np.zeros((2, padded.length + 1, n_states)),
    )
    totals = np.zeros(2)
    chain = chain_arrays(padded_chain)
    # both ends at once where their rows are apart
    apart = 2 * min(n_windows, n_acc - 1) <= n_windows
    for sides in [(0, 1)] if apart else [(0,), (1,)]:
        _shifted.end_layers(
            feature_lists(base),
            h,
            pad,
            length,
            top,
            order,
            chain,
            np.divide(1.0, chain[0], out=np.zeros_like(chain[0]), where=chain[0] > 0),
            (zprob_padded, region_offsets(top)[0]),
            np.array(sides, dtype=np.int64),
            acc,
            (tables, out, new_left, new_right),
            totals,
        )
    return tables, out, new_left, new_right, total - totals.sum()
