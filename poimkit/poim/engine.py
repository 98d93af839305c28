"""The exact POIM engine's entry: how WDS weights are computed, and at what cost.

`exact_poim` is the one entry of the positional exact engine: it decides how
to handle the shifts of a WDS model (`plan_shifts`: the shift convolution of
`poimkit.poim.shifted`, the burn-in split of `poimkit.poim.burn_in`, or the
expanded weights), checks the memory that this needs (`estimate_poim_bytes`,
the same estimate as the pre-check of ``poimkit run``) and runs the engine of
`poimkit.poim.exact`. Imports run one way: exact, shifted, burn_in, engine,
then `poimkit.poim.compute`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_int, check_max_order
from ..background import MarkovBackground, check_background, kmer_probability_table
from ..errors import InputError
from ..kernels.explicit import KmerWeights
from . import burn_in, exact, shifted


@dataclass(frozen=True)
class ShiftPlan:
    """How `exact_poim` computes the POIM of a WDS model.

    Attributes
    ----------
    method : str
        ``"convolve"`` (a `poimkit.poim.shifted.shift_invariant` background:
        the shift convolution),
        ``"burn-in"`` (the convolution under ``stationary`` plus the
        difference pass over the first ``burn_in`` positions) or ``"expand"``
        (the expanded weights).
    burn_in : int
        B, for ``"burn-in"`` (else 0).
    stationary : MarkovBackground or None
        The chain's transitions started in their stationary distribution, for
        ``"burn-in"``.
    """

    method: str
    burn_in: int = 0
    stationary: MarkovBackground | None = None


def _targets(length: int, shift: int, stop: int) -> int:
    """Copies ``(i, s)``: targets ``i < stop``, sources ``i - s`` in the sequence."""
    i = np.arange(min(stop, length))
    return int((np.minimum(i + shift, length - 1) - np.maximum(i - shift, 0) + 1).sum())


def burn_in_pays(length: int, shift: int, b: int) -> bool:
    """Whether the burn-in split is cheaper than expanding the shifts.

    Parameters
    ----------
    length : int
        Sequence length L.
    shift : int
        The largest shift S.
    b : int
        The burn-in B: positions after which the chain is stationary to rounding.

    Returns
    -------
    bool
        True if ``L + 2 min(S, L) + n(B) < n(L)``, with ``n(m)`` the number
        of (target < m, shift) copies of a position's weights inside the
        sequence: the engine's work in units of one position's unshifted
        weights (the convolution runs on U once and on S positions next to
        each end; the split adds one difference pass over the first B
        positions).

    Examples
    --------
    >>> burn_in_pays(100, 8, 12), burn_in_pays(100, 8, 95)
    (True, False)
    """
    split = length + 2 * min(shift, length) + _targets(length, shift, b)
    return split < _targets(length, shift, length)


def plan_shifts(background: MarkovBackground, shift: int) -> ShiftPlan:
    """How to compute the POIM of WDS weights with shifts up to S: the one decision.

    Parameters
    ----------
    background : MarkovBackground
        The sequence distribution the POIM is taken under.
    shift : int
        The largest shift S (at least 1).

    Returns
    -------
    ShiftPlan
        ``"convolve"`` for a `shift_invariant` background; ``"burn-in"`` for a
        homogeneous chain with a `poimkit.poim.burn_in.burn_in` for which
        `burn_in_pays`;
        ``"expand"`` otherwise (position-specific chains among them).

    Examples
    --------
    >>> plan_shifts(MarkovBackground.uniform(20), 3).method
    'convolve'
    """
    if shifted.shift_invariant(background):
        return ShiftPlan("convolve")
    found = burn_in.burn_in(background)
    if found is None or not burn_in_pays(background.length, shift, found[0]):
        return ShiftPlan("expand")
    return ShiftPlan("burn-in", found[0], found[1])


def weights_extent(weights: KmerWeights) -> tuple[int, int]:
    """The size of unshifted weights that the burn-in split's memory depends on.

    Parameters
    ----------
    weights : KmerWeights
        The unshifted weights U of a WDS model.

    Returns
    -------
    degree : int
        ``weights.max_order``.
    per_position : int
        Most entries at one position of one order.

    Examples
    --------
    >>> weights_extent(KmerWeights.from_tables([np.ones((5, 4))], bias=0.0))
    (1, 4)
    """
    longest = 0
    for k in range(1, weights.max_order + 1):
        longest = max(longest, int(np.diff(weights.order(k)[0]).max(initial=0)))
    return weights.max_order, longest


def estimate_poim_bytes(
    background: MarkovBackground,
    max_order: int,
    shift: int = 0,
    *,
    plan: ShiftPlan | None = None,
    degree: int = 1,
    per_position: int = 0,
) -> int:
    """Peak bytes of `exact_poim`, however it handles the shifts.

    Parameters
    ----------
    background : MarkovBackground
        The sequence distribution (its length and order; for a shift, how
        the shifts are handled).
    max_order : int
        Largest POIM order K.
    shift : int, default=0
        The largest shift S of a WDS model whose shifts `exact_poim` may
        convolve (0: plain weights, or the expanded ones).
    plan : ShiftPlan, optional
        ``plan_shifts(background, shift)``, if already made.
    degree, per_position : int
        The unshifted weights' `weights_extent` (only the burn-in split
        depends on them; an upper bound will do, e.g. before training).

    Returns
    -------
    int
        `poimkit.poim.exact.estimate_bytes` for plain or expanded weights,
        `poimkit.poim.shifted.estimate_shifted_bytes` for the shift
        convolution, `poimkit.poim.burn_in.estimate_burn_in_bytes` for the
        burn-in split.

    Examples
    --------
    >>> bg = MarkovBackground.uniform(100)
    >>> estimate_poim_bytes(bg, 2) == exact.estimate_bytes(100, 2)
    True
    >>> estimate_poim_bytes(bg, 2, 4) > estimate_poim_bytes(bg, 2)
    True
    """
    length, order = background.length, background.order
    if shift and plan is None:
        plan = plan_shifts(background, shift)
    if not shift or plan.method == "expand":
        return exact.estimate_bytes(length, max_order, order)
    if plan.method == "burn-in":
        return burn_in.estimate_burn_in_bytes(
            length, max_order, order, shift, plan.burn_in, degree, per_position
        )
    return shifted.estimate_shifted_bytes(length, max_order, order, shift)


def exact_poim(
    weights: KmerWeights,
    background: MarkovBackground,
    max_order: int,
    memory_limit: float = exact.DEFAULT_MEMORY_LIMIT,
    n_blocks: int | None = None,
    progress: bool = False,
    shift: int = 0,
    *,
    plan: ShiftPlan | None = None,
) -> list[np.ndarray]:
    """Exact POIMs ``Q_l`` for l = 1..max_order.

    Parameters
    ----------
    weights : KmerWeights
        The model's positional k-mer weights; with ``shift``, the unshifted
        weights U of a WDS model (`WDKernelSVC.shift_base_weights`).
    background : MarkovBackground
        Same sequence length as the weights.
    max_order : int
        Largest k-mer length K (1 <= K <= L).
    memory_limit : float
        Refuse to start if the estimated peak memory (bytes,
        `estimate_poim_bytes`) exceeds this.
    n_blocks : int, optional
        Parallel work units (default: 4 per thread).
    progress : bool
        Show a progress bar over the windows of the top order.
    shift : int
        WDS: the POIMs of U convolved over shifts up to S, as decided by
        `plan_shifts`: without expanding them where the background is
        `poimkit.poim.shifted.shift_invariant` (`poimkit.poim.shifted`), with
        a difference pass over the first B positions for a homogeneous chain
        with a short burn-in B (`poimkit.poim.burn_in`), else of the expanded
        weights.
    plan : ShiftPlan, optional
        ``plan_shifts(background, shift)``, if the caller made it already.

    Returns
    -------
    list of numpy.ndarray
        ``Q[l - 1]`` has shape ``(L - l + 1, 4**l)``.

    Examples
    --------
    >>> w = KmerWeights.from_tables([np.array([[0, 1.0, 0, 0]] * 3)], bias=0.0)
    >>> q = exact_poim(w, MarkovBackground.uniform(3), 1)
    >>> q[0][0].tolist()
    [-0.25, 0.75, -0.25, -0.25]
    """
    if not isinstance(weights, KmerWeights):
        raise InputError(f"weights must be KmerWeights, got {type(weights).__name__}")
    length = weights.length
    check_background(background, length)
    check_max_order(max_order, length)
    check_int(shift, "shift", 0)
    order = background.order
    top = max(int(max_order), order)
    if shift:
        if plan is None:
            plan = plan_shifts(background, shift)
        if plan.method == "expand":
            weights, shift = shifted.expand_shifts(weights, shift), 0
    degree, per_position = 1, 0
    if shift and plan.method == "burn-in":
        degree, per_position = weights_extent(weights)
    need = estimate_poim_bytes(
        background,
        max_order,
        shift,
        plan=plan,
        degree=degree,
        per_position=per_position,
    )
    exact.check_memory(need, memory_limit, max_order, length)
    if shift and plan.method == "burn-in":
        accumulated = burn_in.accumulate_burn_in(
            weights,
            shift,
            background,
            top,
            plan.burn_in,
            plan.stationary,
            n_blocks,
            progress,
        )
    elif shift:
        accumulated = shifted.accumulate_shifted(
            weights, shift, background, top, n_blocks, progress
        )
    p_top = kmer_probability_table(background, top)  # after the shifted passes
    if not shift:
        n_windows = length - top + 1
        accumulated = exact.accumulate(
            weights, background, top, p_top, 0, n_windows, n_blocks, progress
        )
    q_top = exact.finish_windows(*accumulated, background, top, p_top)
    return exact.lower_orders(q_top, p_top, background, max_order)
