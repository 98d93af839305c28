"""One training, as `poimkit train` and `poimkit run` do it (`train_model`).

The cross-validation (nested when parameters are selected) and the final fit
on all sequences, over a `RunPlan` made once (`make_plan`); `train_classifier`
is the job of ``poimkit train``: read, train, save.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from .copy_fits import CopyFits
from .crossval import (
    cross_validate,
    plan_folds,
    record_chromosomes,
    train_final,
)
from .data import LabeledData, run_sample, sample_description, sample_text
from .families import keep_family
from .options import FIXED_DEFAULTS, RunOptions
from .plan import RunPlan, TrainedModel
from .registry import family_of
from .results import CVResult

if TYPE_CHECKING:
    from .genome import PeakSource

#: the step that cross-validates ``kernel="auto"``'s CNN beside the SVM
CNN_STEP = "CNN cross-validation"


def train_model(
    data: LabeledData,
    plan: RunPlan,
    *,
    progress: bool | str = False,
    fit_params: dict | None = None,
    on_cv: Callable[[CVResult], None] | None = None,
    step: Callable[[str], AbstractContextManager] | None = None,
    motif_model: bool = False,
) -> TrainedModel:
    """Cross-validate (if ``plan.options.cv``), then fit the final model.

    With more records than ``plan.options.cv_sample`` the cross-validation
    runs on a stratified sample of that many (`run_sample`; the result's
    ``sample``), and the final model, with the family and parameters chosen
    there, trains on every record.

    Parameters
    ----------
    data : LabeledData
        The labeled sequences.
    plan : RunPlan
        `make_plan` of ``data``.
    progress : bool or "lines"
        As in `cross_validate`.
    fit_params : dict, optional
        Passed to every ``fit`` (e.g. ``client`` of `WDLinearSVC`).
    on_cv : callable, optional
        Called with the cross-validation's result before the final fit.
    step : callable, optional
        ``step(name)`` is a context manager around each step,
        "cross-validation", `CNN_STEP` (with ``plan.contender``) and
        "training" (e.g. a timer).
    motif_model : bool
        As in `cross_validate`: the folds' motif models' out-of-fold scores.

    Returns
    -------
    TrainedModel
    """
    step = step or (lambda name: nullcontext())
    cv = CVResult.none()
    sample = run_sample(data, plan.options)
    # the folds and the final model share copies' kernels; a CNN stops early
    # on held-out chromosomes where the folds go by chromosome
    fits = _fits(sample, plan.options, progress)
    if plan.options.cv:
        split = plan_folds(sample, plan.options, inner=plan.selects)
        with step("cross-validation"):
            cv = cross_validate(
                sample,
                plan,
                progress,
                fit_params=fit_params,
                motif_model=motif_model,
                fits=fits,
                split=split,
            )
        if plan.contender is not None:
            with step(CNN_STEP):
                deep = cross_validate(
                    sample,
                    plan.contender,
                    progress,
                    motif_model=motif_model,
                    fits=CopyFits(sample, fits.groups, fits.progress),
                    split=split,
                )
            cv, deep_kept = keep_family(cv, deep, sample.y, plan.options.kernel)
            if deep_kept:
                plan, fit_params = plan.contender, None  # fit_params: the SVM's
        if on_cv is not None:
            on_cv(cv)
    if sample is not data:  # the final model's fits share nothing with the folds'
        fits = _fits(data, plan.options, progress)
    with step("training"):
        model, chosen, selection = train_final(
            data, plan, cv.selection, fit_params=fit_params, fits=fits
        )
        family = selection["family"] if selection is not None else plan.options.kernel
        on_copies = data.trains_copies(family)
        # the inner CV's calibration is of models trained without the copies
        calibrate_final(model, sample.y, cv, None if on_copies else selection)
        if on_copies:
            model.training_offsets_ = data.copies.offsets
    return TrainedModel(model, chosen, selection, cv, plan, sample)


def _fits(data: LabeledData, options: RunOptions, progress: bool | str) -> CopyFits:
    """`CopyFits` of ``data``: a CNN stops early on held-out chromosomes."""
    return CopyFits(data, record_chromosomes(data, options), progress is True)


def calibrate_final(
    model: Any, y: np.ndarray, cv: CVResult, selection: dict | None
) -> None:
    """Give the final classifier its Platt scaling (`poimkit.svm.calibration`).

    Fitted on the cross-validation's out-of-fold scores (models like it,
    trained without the scored sequences); without a cross-validation, on the
    inner held-out scores of the selection on all sequences; else none (its
    labels are then its score's sign).

    Parameters
    ----------
    model : fitted classifier
        A family's classifier (`poimkit.svm._base.WDClassifierBase`: every
        registered family's, `poimkit.run.registry`).
    y : numpy.ndarray
        The labels.
    cv : CVResult
        `cross_validate`'s result (its out-of-fold ``scores``).
    selection : dict or None
        `selection_summary` of the final choice (``calibration``).
    """
    if cv.scores is not None:
        model.calibrate(cv.scores, y)
    elif selection is not None and selection.get("calibration") is not None:
        model.calibration_ = tuple(selection["calibration"])


def linear_template(options: RunOptions, linear: dict, client: Any = None):
    """The WD linear solver's model of ``poimkit train``, or None for the others.

    Parameters
    ----------
    options : RunOptions
        The settings (checked by `RunOptions.check_model`).
    linear : dict
        `WDLinearSVC` options given (``loss``, ``chunk_size``, ``verbose``).
    client : object, optional
        A Dask client (``--dask``): the linear solver only.

    Returns
    -------
    WDLinearSVC or None
        With the parameters checked, before any reading; None unless the
        WD kernel's linear solver is asked for.

    Raises
    ------
    InputError
        For linear-solver options without it.
    """
    if options.solver == "linear" and family_of(options).streams:
        from ..svm import make_model

        params = {
            k: FIXED_DEFAULTS[k] if v is None else v for k, v in options.fixed().items()
        }
        model = make_model(
            options.solver, n_threads=options.threads, **params, **linear
        )
        model._check_params()  # e.g. --chunk-size 0: refused before any reading
        return model
    given = [k for k in linear if k != "verbose"]
    given += ["dask"] if client is not None else []
    if given:
        raise InputError(
            f"{', '.join(sorted(given))} apply to the WD kernel's linear solver "
            "only (--solver linear, not with --kernel gkm)"
        )
    return None


def train_classifier(
    path: str | os.PathLike,
    *,
    pos: str | None = None,
    neg: str | None = None,
    fasta: str | None = None,
    labels: str | None = None,
    peaks: PeakSource | None = None,
    options: RunOptions | None = None,
    linear: dict | None = None,
    client: Any = None,
    progress: bool = False,
    on_cv: Callable[[CVResult], None] | None = None,
) -> TrainedModel | None:
    """Cross-validate a classifier, train it on all records and save it.

    The library job of ``poimkit train`` (beside `train_regression`): the
    records of ``pos``/``neg``, ``fasta``/``labels`` or ``peaks`` are read,
    planned (`make_plan`) and trained (`train_model`) as ``poimkit run``
    does; the WD linear solver without CV or selection streams ``pos`` and
    ``neg`` from disk instead. Steps are reported through `poimkit._messages`.

    Parameters
    ----------
    path : str or path-like
        The model file to write (a peak run's negatives beside it).
    pos, neg, fasta, labels : str, optional
        Labeled FASTA input (`poimkit.run.data.read_input`).
    peaks : PeakSource, optional
        Peaks in a genome instead.
    options : RunOptions, optional
        The model's and the CV's options, and how records are read.
    linear : dict, optional
        Options of the WD linear solver (``loss``, ``chunk_size``, ``verbose``).
    client : dask.distributed.Client, optional
        Trains the WD linear solver on a Dask cluster.
    progress : bool, default=False
        Progress bars on standard error.
    on_cv : callable, optional
        Called with the cross-validation's figures before the final fit.

    Returns
    -------
    TrainedModel or None
        None when the linear solver streamed the files (no CV, no selection).
    """
    from .._messages import inform
    from ..io.outdir import check_writable
    from .data import read_input, reading_options
    from .options import check_cv
    from .plan import make_plan

    options = options or RunOptions()
    options.check_model()
    check_cv(options.cv)
    check_writable(path)
    model = linear_template(options, linear or {}, client)
    fit_params = {} if client is None else {"client": client}
    if peaks is not None:
        peaks.check(options)
    if model is not None and pos is not None and not (options.cv or options.selects):
        inform("streaming the FASTA files into the linear solver")
        model.fit((pos, neg), **fit_params, **reading_options(options))
        _save(model, path)
        return None
    made = None
    if peaks is None:
        data = read_input(pos, neg, fasta, labels, options)
    else:
        from .genome import read_peak_input

        made = read_peak_input(peaks, options, progress)
        data = made.data
        if data.copies is not None:
            inform(_copies_line(data.copies.offsets))
    plan = make_plan(data, options, model)
    inform(_read_line(data))
    trained = train_model(
        data, plan, progress=progress, fit_params=fit_params, on_cv=on_cv
    )
    described = sample_description(trained.sample, data)
    if described is not None and options.cv:
        inform(sample_text(described, "cross-validated"))
    if trained.selection is not None:
        from .summary import chosen_text

        chosen = chosen_text(trained.chosen, trained.selection)
        inform(f"chosen by inner CV: {chosen}")
    _save(trained.model, path)
    if made is not None and made.write_negatives(Path(path), beside=True):
        inform(f"negatives written beside it: {made.negatives_path}")
    return trained


def _read_line(data: LabeledData) -> str:
    """``read 1000 sequences of length 200 (500 positive)``."""
    lengths = sorted({len(x) for x in data.X})
    shown = lengths[0] if len(lengths) == 1 else f"{lengths[0]}-{lengths[-1]}"
    n_pos = int(data.y.sum())
    return f"read {data.y.size} sequences of length {shown} ({n_pos} positive)"


def _copies_line(offsets: tuple[int, ...]) -> str:
    """What a WD model on peaks trains on (`poimkit.run.data.MovedCopies`)."""
    moved = ", ".join(f"{o:+d}" for o in offsets[1:])
    return (
        f"a WD model trains on {len(offsets)} copies of every window: as cut and "
        f"moved by {moved} letters (--jitter)"
    )


def _save(model: Any, path: str | os.PathLike) -> None:
    """Write the model to ``path`` and say so."""
    from .._messages import inform

    model.save(path)
    n_support = model.size()["n_support_vectors"]
    if n_support is not None:
        what = f"model with {n_support} support vectors"
    else:
        what = f"{model.describe()}, trained for {len(model.log_.valid_loss)} epochs,"
    inform(f"{what} written to {path}")
