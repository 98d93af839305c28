"""One training, as `poimkit train` and `poimkit run` do it (`train_model`).

The cross-validation (nested when parameters are selected) and the final fit
on all sequences, over a `RunPlan` made once (`make_plan`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from .copy_fits import CopyFits
from .crossval import (
    NO_CV,
    cross_validate,
    plan_folds,
    record_chromosomes,
    train_final,
)
from .data import LabeledData
from .families import keep_family
from .options import FIXED_DEFAULTS, RunOptions
from .plan import RunPlan

#: the step that cross-validates ``kernel="auto"``'s CNN beside the SVM
CNN_STEP = "CNN cross-validation"


@dataclass
class TrainedModel:
    """What `train_model` returns.

    Attributes
    ----------
    model : fitted estimator
        The final model, fitted on all sequences.
    chosen : dict
        Its parameters (`train_final`).
    selection : dict or None
        The selection (`cross_validate`), None if nothing was selected.
    cv : dict
        `cross_validate`'s result, `NO_CV` without cross-validation.
    plan : RunPlan
        The plan it was trained by: the CNN's (``plan.contender``) if
        ``kernel="auto"`` compared it and kept it (`poimkit.run.families`).
    """

    model: Any
    chosen: dict
    selection: dict | None
    cv: dict
    plan: RunPlan


def train_model(
    data: LabeledData,
    plan: RunPlan,
    *,
    progress: bool | str = False,
    fit_params: dict | None = None,
    on_cv: Callable[[dict], None] | None = None,
    step: Callable[[str], AbstractContextManager] | None = None,
    motif_model: bool = False,
) -> TrainedModel:
    """Cross-validate (if ``plan.options.cv``), then fit the final model.

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
    cv = NO_CV
    # the folds and the final model share copies' kernels; a CNN stops early
    # on held-out chromosomes where the folds go by chromosome
    fits = CopyFits(data, record_chromosomes(data, plan.options), progress is True)
    if plan.options.cv:
        split = plan_folds(data, plan.options, inner=plan.selects)
        with step("cross-validation"):
            cv = cross_validate(
                data,
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
                    data,
                    plan.contender,
                    progress,
                    motif_model=motif_model,
                    fits=CopyFits(data, fits.groups, fits.progress),
                    split=split,
                )
            cv = keep_family(cv, deep, data.y, plan.options.kernel)
            if cv["families_compared"]["chosen"] == "cnn":
                plan, fit_params = plan.contender, None  # fit_params: the SVM's
        if on_cv is not None:
            on_cv(cv)
    with step("training"):
        model, chosen, selection = train_final(
            data, plan, cv["selection"], fit_params=fit_params, fits=fits
        )
        family = selection["family"] if selection is not None else plan.options.kernel
        on_copies = data.trains_copies(family)
        # the inner CV's calibration is of models trained without the copies
        calibrate_final(model, data.y, cv, None if on_copies else selection)
        if on_copies:
            model.training_offsets_ = data.copies.offsets
    return TrainedModel(model, chosen, selection, cv, plan)


def calibrate_final(
    model: Any, y: np.ndarray, cv: dict, selection: dict | None
) -> None:
    """Give the final classifier its Platt scaling (`poimkit.svm.calibration`).

    Fitted on the cross-validation's out-of-fold scores (models like it,
    trained without the scored sequences); without a cross-validation, on the
    inner held-out scores of the selection on all sequences; else none (its
    labels are then its score's sign).

    Parameters
    ----------
    model : fitted classifier
        With ``calibrate`` (`poimkit.svm._base.WDClassifierBase`); others
        are left alone.
    y : numpy.ndarray
        The labels.
    cv : dict
        `cross_validate`'s result (``out_of_fold_scores``).
    selection : dict or None
        `selection_summary` of the final choice (``calibration``).
    """
    if not hasattr(model, "calibrate"):
        return
    if cv.get("out_of_fold_scores") is not None:
        model.calibrate(cv["out_of_fold_scores"], y)
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
    if options.solver == "linear" and options.kernel != "gkm":
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
