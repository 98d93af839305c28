"""Sampled POIMs of a model that only scores, said so in their metadata.

The one door through which ``poimkit poim`` and ``poimkit run`` sample a
model file (an LS-GKM file of kernel type 3-5, a motif model or stack, a CNN,
a TorchScript module): either estimator, `poimkit.poim.sampled.sampled_poim`
(every k-mer inserted) or `poimkit.poim.observed.observed_poim` (background
draws scored once), and the model's parameters in the metadata.
"""

from __future__ import annotations

from typing import Any

from ..background import MarkovBackground
from ..errors import InputError
from .observed import observed_poim
from .result import Poim
from .sampled import sampled_poim

__all__ = ["ESTIMATORS", "sampled_score_only_poim"]

#: the sampling estimators, by name
ESTIMATORS = {"inserted": sampled_poim, "observed": observed_poim}


def sampled_score_only_poim(
    model: Any,
    max_order: int,
    background: MarkovBackground | None = None,
    estimator: str = "inserted",
    **options: Any,
) -> Poim:
    """Sampled POIMs of a model that only scores, said so.

    `poimkit.poim.sampled.sampled_poim` (or
    `poimkit.poim.observed.observed_poim`) of the model's exact score, with
    metadata ``method = "sampled"``, ``exact = "no: ..."`` and the model's
    parameters: an LS-GKM file of kernel type 3, 4 or 5, or a motif model or
    stack of ``poimkit run`` (``score_only``). ``model`` is the model's class,
    or ``"position-free"`` for a model that scores any length
    (``position_free``, with the class in ``model_class``), as for
    `poimkit.compute_poim` of a gkm model: `Poim.position_free`.

    Parameters
    ----------
    model : object
        A model that only scores (``score_only``), with ``describe()``,
        ``decision_function`` and ``length_``.
    max_order : int
        Largest k-mer length K.
    background : MarkovBackground, optional
        Default: uniform order 0 for ``model.length_``.
    estimator : {"inserted", "observed"}, default "inserted"
        Every k-mer inserted into each draw (``n_samples`` per window), or
        ``n_samples`` background draws scored once (the MFI paper's own).
    **options
        Passed to the estimator: ``n_samples``, ``random_state``,
        ``progress``, ``windows``...

    Returns
    -------
    Poim
        Estimates with standard errors (``Poim.stderr``).
    """
    if estimator not in ESTIMATORS:
        raise InputError(
            f"estimator must be one of {', '.join(ESTIMATORS)}, got {estimator!r}"
        )
    if background is None:
        background = MarkovBackground.uniform(model.length_)
    # the bound method: any background length is scored
    poim = ESTIMATORS[estimator](
        model.decision_function, max_order, background, **options
    )
    n_samples = poim.metadata["n_samples"]
    poim.metadata["model"] = type(model).__name__
    if model.position_free:  # as `compute_poim` marks gkm's
        poim.metadata["model"] = "position-free"
        poim.metadata["model_class"] = type(model).__name__
    poim.metadata["exact"] = (
        f"no: Monte Carlo estimates ({n_samples} samples "
        f"{'in all' if estimator == 'observed' else 'per window'}, standard "
        f"errors in stderr); {model.describe()} is not a sum of k-mer weights"
    )
    poim.metadata.update(model.recorded())
    poim.metadata["model_reverse_complement"] = str(model.reverse_complement)
    return poim
