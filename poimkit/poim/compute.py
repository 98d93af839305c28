"""Public entry points: POIMs and instance explanations of a model."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._messages import inform
from .._threads import numba_threads
from .._validation import check_max_order
from .._version import __version__
from ..additive import decomposition, position_free
from ..alphabet import check_codes, kmer_indices
from ..background import MarkovBackground, check_background
from ..errors import InputError
from ..kernels.explicit import KmerWeights
from .engine import exact_poim, plan_shifts
from .exact import DEFAULT_MEMORY_LIMIT, as_weights, check_memory
from .result import Poim

if TYPE_CHECKING:
    from ..svm._base import KernelModelBase


def compute_poim(
    model: KernelModelBase | KmerWeights,
    max_order: int,
    background: MarkovBackground | None = None,
    *,
    memory_limit: float = DEFAULT_MEMORY_LIMIT,
    n_threads: int | None = None,
    progress: bool = False,
) -> Poim:
    """Exact POIMs of a positional k-mer linear model, orders 1..max_order.

    Parameters
    ----------
    model : WDKernelSVC, WDKernelSVR, GkmSVC, GkmSVR or KmerWeights
        A fitted model with ``explicit_weights()`` (WD and WDS SVMs and
        SVRs), the
        weights themselves (any positional k-mer linear score), or a
        position-free model (``position_free = True``, e.g. `GkmSVC`,
        `GkmSVR`), whose
        POIMs are for sequences of the background's length under that chain
        in equilibrium (`poimkit.poim.position_free`).
    max_order : int
        Largest k-mer length K.
    background : MarkovBackground, optional
        Distribution of sequences; default uniform order 0 for the model's
        length (for a position-free model: its median training length).
    memory_limit : float, default 4 GiB
        Stop with an error, before allocating, if the estimated peak memory in
        bytes exceeds this.
    n_threads : int, optional
        Threads for the numba engine.
    progress : bool
        Show a progress bar on standard error (positional models).

    Returns
    -------
    Poim
        ``Poim.q(l)[j, z]`` = Q_l(z, j) with 0-based start j.

    Notes
    -----
    ``Q_l(z, j) = E[s(X) | X[j:j+l] = z] - E[s(X)]`` under the background (a
    Markov chain of order D = 0..3), computed exactly, including correlations of
    non-overlapping features through the chain for D >= 1; see
    `poimkit.poim.exact` for the algorithm. For WDS models under a
    shift-invariant background (uniform, homogeneous order 0, stationary) the
    shifts are not expanded: the engine runs on the unshifted weights and its
    window tables are convolved (`poimkit.poim.shifted`). Under a homogeneous
    chain not started in equilibrium (e.g. `MarkovBackground.fit` with
    ``order >= 1``) the convolution runs under the stationary chain, and one
    difference pass corrects the positions before the marginals settle
    (`poimkit.poim.burn_in`). Same numbers as the expanded weights up to
    rounding; position-specific chains use the expanded weights.

    References
    ----------
    Sonnenburg et al., "POIMs: positional oligomer importance matrices",
    Bioinformatics 2008. Zien et al., "The feature importance ranking measure",
    ECML PKDD 2009.

    Examples
    --------
    >>> from poimkit import WDKernelSVC
    >>> from poimkit.datasets import make_gattaca
    >>> model = WDKernelSVC(degree=6).fit(
    ...     *make_gattaca(n_pos=50, n_neg=50, length=30, mean=10, sd=1, random_state=0)
    ... )
    >>> compute_poim(model, max_order=3).q(3).shape
    (28, 64)
    """
    kind = decomposition(model)
    if kind == "score_only":
        raise InputError(
            f"{model.describe()}: no exact POIMs, the score is not a sum of "
            "l-mer weights; use poimkit.poim.sampled.sampled_poim"
        )
    if kind == "lmer_table":
        return _position_free_poim(
            model, max_order, background, n_threads, memory_limit
        )
    shift = _convolvable_shift(model)
    plan = None  # the uniform background: the plain convolution
    if background is not None:
        check_background(background)
        plan = plan_shifts(background, shift) if shift else None  # the one plan
        if plan is not None and plan.method == "expand":
            shift, plan = 0, None  # the expanded weights under this background
    weights = model.shift_base_weights() if shift else as_weights(model)
    if background is None:
        background = MarkovBackground.uniform(weights.length)
    with numba_threads(n_threads):
        q = exact_poim(
            weights,
            background,
            max_order,
            memory_limit=memory_limit,
            progress=progress,
            shift=shift,
            plan=plan,
        )
    metadata = {
        "method": "exact",
        "poimkit_version": __version__,
        "background": repr(background),
        "n_weights": str(weights.nnz),
    }
    if shift:
        metadata["weights"] = "unshifted, convolved over the shifts"
        if plan is not None and plan.method == "burn-in":
            metadata["burn_in"] = str(plan.burn_in)
    metadata.update(model.recorded())
    return Poim(q, background, metadata)


def _convolvable_shift(model) -> int:
    """S of a WDS model whose POIM may skip the shift expansion, else 0."""
    if not model.convolves_shifts:  # the positional contract (`poimkit.additive`)
        return 0
    return int(model.shift) if model.shift and not model.mismatches else 0


def _position_free_poim(model, max_order, background, n_threads, memory_limit) -> Poim:
    """POIMs of a position-free model (`GkmSVC`) at the background's length."""
    from .position_free import estimate_bytes, position_free_poim, stationary_background

    if background is None:
        background = MarkovBackground.uniform(model.length_)
    check_background(background)
    background = stationary_background(background)
    check_max_order(max_order, background.length)
    need = estimate_bytes(background.length, model.l, max_order, background.order)
    check_memory(need, memory_limit, max_order, background.length)
    with numba_threads(n_threads):
        f = model.lmer_weights(background.length)
        q = position_free_poim(f, model.l, background, max_order)
    metadata = {
        "method": "exact",
        "model": "position-free",
        "poimkit_version": __version__,
        "background": repr(background),
        "n_weights": str(f.size),
    }
    if model.per_sequence_normalisation:
        # an LS-GKM model: its score is not linear in the l-mers
        metadata["explains"] = (
            "the un-normalised linear part sum_w f[x_w] / sqrt(c_L) + intercept "
            "(c_L: normalisation_constant(L)), not the per-sequence normalised score"
        )
        metadata["normalisation_constant"] = repr(
            model.normalisation_constant(background.length)
        )
    metadata.update(model.recorded())
    return Poim(q, background, metadata)


def explain_instance(
    model: KernelModelBase | KmerWeights,
    x: ArrayLike | str,
    max_order: int,
    background: MarkovBackground | None = None,
    *,
    poim: Poim | None = None,
) -> list[np.ndarray]:
    """Instance-based importance of the k-mers of one sequence (exact).

    Parameters
    ----------
    model : WDKernelSVC, WDKernelSVR, WDLinearSVC, GkmSVC, GkmSVR or KmerWeights
        As in `compute_poim`.
    x : array-like of int, shape (L,), or str
        The sequence to explain.
    max_order : int
        Largest k-mer length explained.
    background : MarkovBackground, optional
        Default uniform order 0.
    poim : Poim, optional
        A POIM of this model and background to reuse (saves recomputing it).

    Returns
    -------
    list of numpy.ndarray
        Entry ``l - 1`` has shape ``(L - l + 1,)``:
        ``E[s(X) | X[j:j+l] = x[j:j+l]] - E[s(X)]``, the instance-based MFI of
        the k-mer of x at each start j.
    """
    from ..alphabet import encode

    codes = (
        encode([x])[0]
        if isinstance(x, str)
        else check_codes(np.asarray(x).reshape(1, -1), "x")[0]
    )
    if poim is None:
        poim = compute_poim(model, max_order, background)
    elif poim.max_order < max_order:
        raise InputError(
            f"poim has orders up to {poim.max_order} but max_order is {max_order}"
        )
    if position_free(model):
        length = poim.length  # any length scores; the POIM fixes one
    elif isinstance(model, KmerWeights):
        length = model.length
    elif model.length_ is not None:  # no need to expand WDS weights for this
        length = int(model.length_)
    else:  # not fitted: as_weights says so
        length = as_weights(model).length
    if codes.shape[0] != length:
        raise InputError(
            f"x has length {codes.shape[0]} but the model scores length {length}"
        )
    out = []
    for l in range(1, max_order + 1):
        idx = kmer_indices(codes[None, :], l)[0]
        out.append(poim.q(l)[np.arange(idx.size), idx])
    return out


def model_poim(
    model: object,
    max_order: int,
    background: MarkovBackground,
    samples: int = 1000,
    seed: int = 0,
    memory_limit_gb: float = 4.0,
    threads: int | None = None,
    progress: bool = False,
    windows: str | None = None,
    estimator: str = "inserted",
) -> Poim:
    """The POIM of any model file: exact, or sampled where no exact one exists.

    LS-GKM files of kernel types 3, 4, 5, motif models and stacks
    (``model.score_only``) get
    `poimkit.poim.score_only.sampled_score_only_poim` (``samples`` per
    window, or in all for the observed estimator, ``seed``; metadata
    ``method = "sampled"``, ``exact = "no: ..."``); every other model
    `compute_poim`. This is ``poimkit poim``.

    Parameters
    ----------
    model : object
        A loaded model (`poimkit.load_model`).
    max_order : int
        The longest k-mer.
    background : MarkovBackground
    samples : int, default=1000
        Monte Carlo samples per window of a sampled POIM (observed: in all).
    seed : int, default=0
        Seed of a sampled POIM.
    memory_limit_gb : float, default=4.0
        Refuse an exact POIM whose estimated peak memory is larger.
    threads : int, optional
        Threads for numba.
    progress : bool, default=False
        Show a progress bar.
    windows : {"all", "centre", "pooled"} or None
        The windows of a sampled POIM: "all" or "centre" inserted
        (`poimkit.poim.sampled.sampled_poim`), "all" or "pooled" observed
        (`poimkit.poim.observed.observed_poim`); None: "centre" (inserted) or
        "pooled" (observed) for a position-free model (``position_free``, e.g.
        a CNN), else "all".
    estimator : {"inserted", "observed"}, default="inserted"
        How a sampled POIM is estimated (`poimkit.poim.score_only`).

    Returns
    -------
    Poim
    """
    if decomposition(model) == "score_only":
        from .score_only import sampled_score_only_poim

        if windows is None and model.position_free:
            windows = "pooled" if estimator == "observed" else "centre"
        windows = windows or "all"
        inform(
            f"{model.describe()}: no exact POIMs, sampling ({estimator}, {windows} "
            "windows)"
        )
        return sampled_score_only_poim(
            model,
            max_order,
            background,
            estimator,
            n_samples=samples,
            random_state=seed,
            progress=progress,
            windows=windows,
        )
    return compute_poim(
        model,
        max_order,
        background,
        memory_limit=memory_limit_gb * 1024**3,
        n_threads=threads,
        progress=progress,
    )
