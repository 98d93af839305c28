"""What every poimkit model says about itself, with the defaults.

Each model class of poimkit (the kernel SVMs and the CNN, motif models and
stacks, LS-GKM files, torch scorers, `poimkit.KmerWeights`) derives from
`SequenceModel` and overrides what it declares. Code that takes a model reads
these attributes and calls these methods; it does not probe for them. How a
model's score decomposes (``decomposition``, ``position_free``,
``convolves_shifts``, ``per_sequence_normalisation``) is read through
`poimkit.additive`.

A model from outside poimkit (a scikit-learn pipeline handed to the sampled
POIMs) says only its length, which `declared_length` reads.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["SequenceModel", "declared_length"]


class SequenceModel:
    """The declarations every poimkit model carries (class attributes).

    Attributes
    ----------
    decomposition : str
        What the score decomposes into (`poimkit.additive.DECOMPOSITIONS`);
        default ``"score_only"``.
    position_free : bool
        Its k-mers count anywhere: it scores records of any length.
    convolves_shifts : bool
        A WDS model whose POIM convolves the shifts instead of expanding them.
    per_sequence_normalisation : bool
        An l-mer table whose factor is each record's own (LS-GKM's kernels).
    fits_groups : bool
        ``fit`` takes ``groups`` and ``progress`` (the CNN's early stopping on
        held-out chromosomes).
    shares_gram : bool
        Candidates may be fitted on one raw kernel matrix of the records
        (``_raw_kernel``, ``_fit_gram``, ``_decision_gram``, ``_gram_pays``;
        on moved copies also ``_checked_training``: the WD kernel SVMs).
    names_terms : bool
        Its score is a sum of named terms (``terms``, ``term_names``): variant
        effects are split by motif.
    recorded_params : tuple of str
        The parameters a POIM's metadata records (as ``model_<name>``).
    l : int
        The shortest record it scores (the one declaration without a default:
        a dataclass field of that name would inherit it).
    length_ : int or None
        The length of its training records (None: not said).
    classes_ : numpy.ndarray or None
        A classifier's labels (None: no labels; scores only).
    calibration_ : tuple of float or None
        A classifier's Platt scaling (`poimkit.svm.calibration`), if any.
    reverse_complement : bool
        Both strands scored alike.
    n_threads : int or None
        Numba threads its kernels use (None: numba's setting).
    training_offsets_ : tuple of int
        The placements of its training records in a longer window (WD on
        moved copies); ``(0,)``: none.
    """

    decomposition: ClassVar[str] = "score_only"
    position_free: ClassVar[bool] = False
    convolves_shifts: ClassVar[bool] = False
    per_sequence_normalisation: ClassVar[bool] = False
    fits_groups: ClassVar[bool] = False
    shares_gram: ClassVar[bool] = False
    names_terms: ClassVar[bool] = False
    recorded_params: ClassVar[tuple[str, ...]] = ()
    l: int  # noqa: E741 (set by each model: a dataclass field takes no default here)
    length_: int | None = None
    classes_: np.ndarray | None = None
    calibration_: tuple[float, float] | None = None
    reverse_complement: bool = False
    n_threads: int | None = None
    training_offsets_: tuple[int, ...] = (0,)

    def scores(self, X: ArrayLike) -> np.ndarray:
        """The score: a classifier's decision values, a regressor's predictions.

        Parameters
        ----------
        X : array-like
            Records as the model takes them.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        return np.asarray(self.decision_function(X), dtype=np.float64)  # type: ignore[attr-defined]

    def size(self) -> dict[str, int | None]:
        """The fitted model's size, for a run's summary.

        Returns
        -------
        dict
            ``n_support_vectors`` (a kernel SVM's), or None with
            ``n_parameters`` (a network's).
        """
        return {"n_support_vectors": None, "n_parameters": None}

    def recorded(self) -> dict[str, str]:
        """``model_<name>``: value, of each of `recorded_params`, as text.

        Returns
        -------
        dict of str to str
        """
        return {
            f"model_{name}": str(getattr(self, name)) for name in self.recorded_params
        }


def declared_length(
    model: Any, says: tuple[str, ...] = ("length_", "n_features_in_")
) -> int | None:
    """The record length a model says it reads, if it says one.

    A poimkit model's ``length_``; a scikit-learn estimator's
    ``n_features_in_``; None for a model that reads any length or says none.

    Parameters
    ----------
    model : object
        Any fitted model (a poimkit one, or a foreign one on letter codes).
    says : tuple of str, default=("length_", "n_features_in_")
        The attributes read, first found first.

    Returns
    -------
    int or None
    """
    for attr in says:
        value = getattr(model, attr, None)
        if isinstance(value, Integral) and not isinstance(value, bool):
            return int(value)
    return None
