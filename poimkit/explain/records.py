"""Attributions and scores of records, by the road that fits the model.

Exact per-letter attributions for k-mer models
(`poimkit.explain.attributions.letter_attributions`), in-silico mutagenesis
for models that only score (`poimkit.explain.ism.ism_attributions`):
`explain_records` is what ``poimkit explain`` calls.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..additive import decomposition
from .attributions import Attributions, letter_attributions
from .ism import ism_attributions


def explain_records(
    model: object, sequences: np.ndarray | Sequence[np.ndarray]
) -> tuple[Attributions, np.ndarray, str]:
    """Attributions and scores of records: exact for k-mer models, else by ISM.

    Parameters
    ----------
    model : object
        A k-mer model (`letter_attributions`), or one that only scores
        (``score_only``: a CNN, a torch model, a motif model, an LS-GKM RBF
        model), explained by in-silico mutagenesis
        (`poimkit.explain.ism.ism_attributions`).
    sequences : numpy.ndarray or sequence of numpy.ndarray
        The records.

    Returns
    -------
    attributions : Attributions
    scores : numpy.ndarray of float64
        The model's score of every record.
    method : str
        ``"exact"`` or ``"in-silico mutagenesis"``.
    """
    if decomposition(model) == "score_only":
        found = ism_attributions(model, sequences)
        scores = np.asarray(model.decision_function(sequences), dtype=np.float64)
        return found, scores, "in-silico mutagenesis"
    found = letter_attributions(model, sequences)
    intercept = float(np.ravel(model.intercept_)[0])
    return found, found.contributions.sum(axis=1) + intercept, "exact"
