"""The additive-model contract: how a model's score decomposes, declared once.

Every model poimkit explains declares one decomposition in its class
attribute ``decomposition``, and POIMs, variant effects, letter attributions
and scored windows dispatch on `decomposition` and nothing else:

``"positional"`` (`PositionalKmers`)
    Positional k-mer weights: ``s(x) = b + sum_k sum_i w_k[i, x[i:i+k]]``
    (the WD family, `poimkit.KmerWeights`).
``"lmer_table"`` (`LmerTable`)
    An l-mer table times a per-record factor: ``s(x) = b + a(x) sum_w
    f[x_w]`` over the l-mer windows w of x, the factor the length's
    (`poimkit.GkmSVC`) or the record's own (LS-GKM's normalised kernels:
    ``per_sequence_normalisation``).
``"score_only"`` (`ScoreOnly`)
    Scores only: motif models, stacks, LS-GKM's RBF kernels, CNNs and torch
    models; their POIMs are sampled and their variant effects scored.

`position_free` says where a model's k-mers count: anywhere (l-mer tables,
and score-only models that read every window alike) or at their place.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from .errors import InputError

__all__ = [
    "DECOMPOSITIONS",
    "LmerTable",
    "PositionalKmers",
    "ScoreOnly",
    "declares",
    "decomposition",
    "position_free",
]

#: the decompositions a model may declare
DECOMPOSITIONS = ("positional", "lmer_table", "score_only")


@runtime_checkable
class PositionalKmers(Protocol):
    """Positional k-mer weights (``decomposition = "positional"``).

    Attributes
    ----------
    convolves_shifts : bool
        Its POIMs may convolve unshifted weights (``shift_base_weights()``)
        over its shifts (a WDS kernel model), instead of expanding them.
    """

    decomposition: str
    convolves_shifts: bool

    def explicit_weights(self) -> Any:
        """The model as `poimkit.KmerWeights` (exact)."""


@runtime_checkable
class LmerTable(Protocol):
    """An l-mer table with a per-record factor (``decomposition = "lmer_table"``).

    Attributes
    ----------
    l : int
        The l-mer length.
    per_sequence_normalisation : bool
        The factor is each record's own (LS-GKM), not its length's.
    """

    decomposition: str
    l: int
    per_sequence_normalisation: bool

    def lmer_weights(self, length: int) -> np.ndarray:
        """The table ``f`` scaled for records of ``length``.

        Parameters
        ----------
        length : int
            The records' (typical) length.
        """


@runtime_checkable
class ScoreOnly(Protocol):
    """A model that only scores (``decomposition = "score_only"``)."""

    decomposition: str
    position_free: bool

    def decision_function(self, X: Any) -> np.ndarray:
        """Scores of records.

        Parameters
        ----------
        X : array-like
            Records (letter codes).
        """


def declares(model: object, kind: str) -> bool:
    """Whether ``model`` declares the decomposition ``kind`` (False for non-models).

    Parameters
    ----------
    model : object
        Anything.
    kind : str
        One of `DECOMPOSITIONS`.

    Returns
    -------
    bool

    Examples
    --------
    >>> from poimkit import GkmSVC
    >>> declares(GkmSVC(), "lmer_table"), declares(object(), "positional")
    (True, False)
    """
    return getattr(type(model), "decomposition", None) == kind


def decomposition(model: object) -> str:
    """What ``model``'s score decomposes into: one of `DECOMPOSITIONS`.

    Parameters
    ----------
    model : object
        A fitted poimkit model, an LS-GKM or torch model, or `KmerWeights`.

    Returns
    -------
    str

    Raises
    ------
    InputError
        For an object that declares none (not a model poimkit explains).

    Examples
    --------
    >>> from poimkit import GkmSVC, WDKernelSVC
    >>> decomposition(WDKernelSVC()), decomposition(GkmSVC())
    ('positional', 'lmer_table')
    """
    kind = next((k for k in DECOMPOSITIONS if declares(model, k)), None)
    if kind is None:
        raise InputError(
            f"{type(model).__name__} is not a model poimkit explains: it declares "
            "no decomposition (positional k-mer weights by explicit_weights(), an "
            "l-mer table, or score only; poimkit.additive)"
        )
    return kind


def position_free(model: object) -> bool:
    """Whether ``model``'s k-mers count anywhere (not at their place).

    Parameters
    ----------
    model : object
        As for `decomposition`.

    Returns
    -------
    bool
        True for l-mer tables; a score-only model's own declaration; False
        for positional weights.
    """
    kind = decomposition(model)
    if kind == "score_only":
        return bool(model.position_free)
    return kind == "lmer_table"
