"""What the sampling estimators of POIMs share.

`poimkit.poim.sampled` (every k-mer inserted) and `poimkit.poim.observed`
(background draws scored once) resolve the background, check their sizes,
score sequences in batches and show a progress bar alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_int
from ..background import MarkovBackground, check_background
from ..contract import declared_length
from ..errors import InputError
from ..importance.score_functions import ScoreFunction

__all__ = [
    "PARAMETERS",
    "check_sizes",
    "progress_bar",
    "resolve_background",
    "score_in_batches",
]

#: the docs of the parameters every sampling estimator takes (`fill_doc`)
PARAMETERS = {
    "model": """
model : object or callable
    Anything `poimkit.poim.sampled.as_score_function` accepts: a model with
    ``decision_function``, ``predict_proba`` or ``predict`` taking uint8
    codes of shape (n, L), or such a callable.
""",
    "max_order": """
max_order : int
    Largest k-mer length K, 1..L.
""",
    "background": """
background : MarkovBackground, optional
    Distribution of sequences (order D = 0..3). Default: uniform order 0
    for the model's ``length_`` or ``n_features_in_``.
""",
    "progress": """
progress : bool, default False
    Show a tqdm progress bar on standard error.
""",
}


def resolve_background(
    model: Any, background: MarkovBackground | None, length: int | None = None
) -> MarkovBackground:
    """The background to use: given, or uniform for the model's length.

    Parameters
    ----------
    model : object
        The model (its ``length_`` or ``n_features_in_`` give the length).
    background : MarkovBackground or None
        Checked against the model's length when given.
    length : int, optional
        The length when the model does not say it.

    Returns
    -------
    MarkovBackground
    """
    if background is not None:
        return check_background(background, declared_length(model, ("length_",)))
    if length is None:
        length = declared_length(model)
    if length is None:
        raise InputError(
            "background is required for a model without length_ or n_features_in_ "
            "(the sequence length is unknown); pass e.g. "
            "MarkovBackground.uniform(L) or MarkovBackground.fit(X, order=...)"
        )
    return MarkovBackground.uniform(length)


def check_sizes(
    max_order: Any, n_samples: Any, batch_size: Any, length: int
) -> tuple[int, int, int]:
    """``max_order`` in 1..L, ``n_samples >= 2``, ``batch_size >= 1``, as ints.

    Parameters
    ----------
    max_order, n_samples, batch_size : int
        As a sampling estimator takes them.
    length : int
        The sequence length L.

    Returns
    -------
    (int, int, int)

    Raises
    ------
    InputError
        For a value out of range or not an integer.
    """
    return (
        check_int(max_order, "max_order", 1, length),
        check_int(n_samples, "n_samples", 2),
        check_int(batch_size, "batch_size", 1),
    )


def score_in_batches(
    score: ScoreFunction, X: np.ndarray, batch_size: int, bar: Any = None
) -> np.ndarray:
    """The scores of the rows of X, ``batch_size`` rows per call.

    Parameters
    ----------
    score : callable
        `as_score_function`'s function.
    X : numpy.ndarray of uint8, shape (n, L)
        The sequences.
    batch_size : int
        Rows per call.
    bar : tqdm.tqdm, optional
        Advanced by the rows scored.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
    """
    out = np.empty(X.shape[0])
    for a in range(0, X.shape[0], batch_size):
        b = min(a + batch_size, X.shape[0])
        out[a:b] = score(X[a:b])
        if bar is not None:
            bar.update(b - a)
    return out


def progress_bar(total: int, enabled: bool, desc: str) -> Any:
    """A tqdm bar over ``total`` sequences on standard error, or None.

    Parameters
    ----------
    total : int
        Sequences to score.
    enabled : bool
        False: no bar (None).
    desc : str
        The bar's label.

    Returns
    -------
    tqdm.tqdm or None
    """
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="seq", unit_scale=True, desc=desc)
