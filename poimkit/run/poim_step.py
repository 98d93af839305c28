"""The POIM step of a run: its memory checked first, its background, the POIMs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..additive import decomposition
from .options import RunOptions
from .registry import family

if TYPE_CHECKING:
    from ..background import MarkovBackground
    from ..poim import Poim

from .data import LabeledData


def check_poim_memory(
    data: LabeledData, options: RunOptions, candidates: Iterable[tuple]
) -> int:
    """Raise `InputError` now if the POIM step would exceed the memory limit.

    The estimate is `poimkit.poim.engine.estimate_poim_bytes`, the one
    `poimkit.compute_poim` checks, for the largest shift and degree the run
    may train (a WDS model's shifts are convolved, or split at the burn-in of
    a fitted chain); the weights' entries per position are bounded by twice
    the number of sequences (both strands).

    Parameters
    ----------
    data : LabeledData
        The labeled sequences (their length and number).
    options : RunOptions
        ``max_order``, the background and ``memory_limit_gb``.
    candidates : iterable of (str, estimator, Grid or None)
        What the run may train, as `largest_models` takes it.

    Returns
    -------
    int
        The estimate in bytes.
    """
    from .._threads import numba_threads
    from .._validation import check_max_order
    from ..poim.engine import estimate_poim_bytes
    from ..poim.exact import check_memory
    from ..poim.position_free import estimate_bytes as position_free_bytes

    order = options.markov_order if options.background == "fit" else 0
    max_order = min(options.max_order, data.length)
    if options.max_order != RunOptions.max_order:  # the default fits short data
        check_max_order(options.max_order, data.length)
    gkm_l, wds = largest_models(candidates, data.length)
    need = 0  # kernel "auto": the family chosen later may be either
    if gkm_l is not None:
        need = position_free_bytes(data.length, gkm_l, max_order, order)
    if wds is not None:
        shift, degree = wds
        background = make_background(data, options)  # as in the POIM step
        with numba_threads(options.threads):  # as in the POIM step
            positional = estimate_poim_bytes(
                background,
                max_order,
                shift,
                degree=degree,
                per_position=min(4**degree, 2 * data.y.size),
            )
        need = max(need, positional)
    check_memory(need, options.memory_limit_gb * 1024**3, max_order, data.length)
    return need


def largest_models(
    candidates: Iterable[tuple], length: int
) -> tuple[int | None, tuple[int, int] | None]:
    """The largest models a run may train (`check_poim_memory`).

    Parameters
    ----------
    candidates : iterable of (str, estimator, Grid or None)
        Each family the run may train: its name ("gkm" or a WD family), its
        unfitted model and the grid the inner CV searches (None: the model's
        own parameters), as `RunPlan.candidates` and a regression's families
        list them.
    length : int
        The POIM length.

    Returns
    -------
    gkm_l : int or None
        The gkm model's largest ``l`` (None: no gkm model).
    wds : (int, int) or None
        The largest shift and degree of a WD model whose shifts the POIM
        convolves (``(0, 1)``: the POIM of expanded weights, for the linear
        solver or mismatches; None: no WD model).
    """
    gkm_l, wds = None, None
    for name, model, grid in candidates:
        if not family(name).kernel_svm:
            continue  # a CNN: its POIM is sampled (`sampled_run_poim`)
        values = {k: [v] for k, v in model.get_params().items()}
        values.update(grid.to_dict() if grid is not None else {})
        if family(name).position_free:
            gkm_l = max(values["l"])
        elif not model.convolves_shifts or any(values["mismatches"]):
            wds = (0, 1)  # the POIM of the expanded weights
        else:
            wds = (int(max(values["shift"])), min(int(max(values["degree"])), length))
    return gkm_l, wds


def compute_run_poim(
    model: object, data: LabeledData, options: RunOptions, progress: bool = False
) -> tuple[Poim, MarkovBackground]:
    """A run's POIM step: the model's POIMs under the run's background.

    Parameters
    ----------
    model : fitted model
        The run's final model.
    data : LabeledData
        The run's records (the POIM length, the background's letters).
    options : RunOptions
        ``max_order``, the background, ``memory_limit_gb`` and ``threads``.
    progress : bool, default=False
        A progress bar of `poimkit.compute_poim`.

    Returns
    -------
    poim : Poim
        Up to ``min(max_order, data.length)``.
    background : MarkovBackground
        `make_background`'s.
    """
    from ..poim import compute_poim

    if decomposition(model) == "score_only":
        return sampled_run_poim(model, data, options, progress)
    background = make_background(data, options)
    poim = compute_poim(
        model,
        min(options.max_order, data.length),
        background,
        memory_limit=options.memory_limit_gb * 1024**3,
        n_threads=options.threads,
        progress=progress,
    )
    return poim, background


#: a model that only scores: a position-free one (the CNN) has its POIM sampled
#: at the records' length (at most `SAMPLED_MAX_LENGTH`), one central window per
#: k-mer length standing for every position (``windows="centre"``), for k-mers
#: up to `SAMPLED_MAX_ORDER` with `SAMPLED_SAMPLES` draws: ``32 * sum_w 4**w``,
#: 43,648 records. Each k-mer then sits in a background as long as a record, so
#: it changes the letter composition as little as it does in a record (in
#: windows of 24 letters a 5-mer is a fifth of the window, and a network that
#: weighs GC content ranked GC-rich k-mers first). Other models: every window of
#: `SAMPLED_LENGTH` letters. The observed estimator (`observed_poim`) was tried
#: here: on NFE2 it found the same motif in a tenth of the time, but on the
#: planted grammar it blurred motif C (found: GACTCCCGAA, against the inserted
#: one's exact GAGTCAT), so the run keeps inserting (`bench_observed_poim.py`)
SAMPLED_MAX_LENGTH = 1000
SAMPLED_LENGTH = 24
SAMPLED_MAX_ORDER = 5
SAMPLED_SAMPLES = 32


def sampled_run_poim(
    model: object, data: LabeledData, options: RunOptions, progress: bool = False
) -> tuple[Poim, MarkovBackground]:
    """A run's POIM of a model that only scores: sampled, with standard errors.

    `poimkit.poim.score_only.sampled_score_only_poim` under the run's background,
    up to ``min(options.max_order, SAMPLED_MAX_ORDER)``, `SAMPLED_SAMPLES`
    draws per window, seeded by ``options.seed``: for a position-free model
    the central window of records of the run's length (`SAMPLED_MAX_LENGTH`
    at most), else every window of `SAMPLED_LENGTH` letters.

    Parameters
    ----------
    model : fitted model
        ``score_only`` (`poimkit.torch.CNNClassifier`).
    data : LabeledData
        The run's records (the length, the background's letters).
    options : RunOptions
        ``max_order``, the background, ``seed``.
    progress : bool, default=False
        A progress bar.

    Returns
    -------
    poim : Poim
    background : MarkovBackground
    """
    from ..background import MarkovBackground
    from ..poim.score_only import sampled_score_only_poim

    cap = SAMPLED_MAX_LENGTH if model.position_free else SAMPLED_LENGTH
    length = min(cap, data.length)
    if options.background == "uniform":
        background = MarkovBackground.uniform(length)
    else:
        background = MarkovBackground.fit_pooled(data.X, options.markov_order, length)
    poim = sampled_score_only_poim(
        model,
        min(options.max_order, SAMPLED_MAX_ORDER, length),
        background,
        n_samples=SAMPLED_SAMPLES,
        random_state=options.seed,
        progress=progress,
        windows="centre" if model.position_free else "all",
    )
    return poim, background


def make_background(data: LabeledData, options: RunOptions) -> MarkovBackground:
    """Uniform letters, or a Markov chain of order D fitted to all input sequences.

    Parameters
    ----------
    data : LabeledData
        The run's records: the chain is fitted to all of them, whatever their label.
    options : RunOptions
        ``background`` and ``markov_order``.
    """
    from ..background import MarkovBackground

    if options.background == "uniform":
        return MarkovBackground.uniform(data.length)
    if data.X.ndim == 2:
        return MarkovBackground.fit(data.X, order=options.markov_order)
    # records of any lengths: one homogeneous chain over all of them, for the
    # POIM length (position-free POIMs use it in equilibrium)
    return MarkovBackground.fit_pooled(data.X, options.markov_order, data.length)
