"""Variant effects of a model that only scores: both sequences scored, no k-mer terms.

LS-GKM files of kernel types 3, 4 and 5 (`poimkit.svm.lsgkm_rbf`) are not sums
of l-mer weights; `ScoredEffects` is their engine for
`poimkit.variants.variant_effects`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from .result import Entries, VariantEffects

if TYPE_CHECKING:
    from ..svm.lsgkm_rbf import LsgkmKernelModel


class ScoredEffects:
    """Variant effects of a model that only scores: both sequences scored.

    LS-GKM's kernel types 3-5 (`LsgkmKernelModel`), the CNN family and torch
    models (`poimkit.torch`).

    The effect ``s(alt) - s(ref)`` is exact (LS-GKM's scores); there is no
    decomposition into k-mer changes (the ``top_*`` fields are empty) and no
    per-letter contributions.

    Parameters
    ----------
    model : object
        A model that only scores (``score_only``: LS-GKM -t 3, 4, 5, a CNN, a
        torch model), with ``decision_function`` and ``length_``.
    """

    decomposition = "score_only"
    position_free = True
    offsets = (0,)  # the model's own windows: no training placements

    def __init__(self, model: LsgkmKernelModel) -> None:
        self.model = model
        # the shortest record it scores (LS-GKM: its l; a CNN or torch model: 1)
        self.l = int(model.l)
        # a torch model declared to read one length scores windows of it
        self.position_free = bool(model.position_free)
        self.length = int(model.length_)

    def _effects(self, refs, alts, top: int, keep: bool):
        ref = self.model.decision_function(refs)
        alt = self.model.decision_function(alts)
        n = ref.size
        none = np.full((n, top), -1, dtype=np.int64)
        return VariantEffects(
            ref_score=ref,
            alt_score=alt,
            effect=alt - ref,
            top_ref=none,
            top_alt=none.copy(),
            top_order=np.zeros((n, top), dtype=np.int64),
            top_position=np.zeros((n, top), dtype=np.int64),
            top_change=np.full((n, top), np.nan),
            _entries=Entries.empty(np.zeros(n, np.int64)) if keep else None,
        )

    def run_flat(
        self,
        rc: np.ndarray,
        ro: np.ndarray,
        ac: np.ndarray,
        ao: np.ndarray,
        lo: np.ndarray,
        rhi: np.ndarray,
        ahi: np.ndarray,
        anchor: np.ndarray,
        top: int,
        keep: bool,
    ) -> VariantEffects:
        """Effects of ragged pairs (the matched spans are not needed).

        Parameters
        ----------
        rc, ro, ac, ao : numpy.ndarray
            Reference and alternative codes, concatenated, and their offsets.
        lo, rhi, ahi, anchor : numpy.ndarray
            The matched spans and anchors (unused: both sequences are scored).
        top : int
            k-mer changes kept per variant (none here).
        keep : bool
            Keep the (empty) decomposition.

        Returns
        -------
        VariantEffects
        """
        refs = [rc[ro[i] : ro[i + 1]] for i in range(ro.size - 1)]
        alts = [ac[ao[i] : ao[i + 1]] for i in range(ao.size - 1)]
        return self._effects(refs, alts, top, keep)

    def run(
        self,
        R: np.ndarray,
        A: np.ndarray,
        anchor: np.ndarray,
        top: int,
        keep: bool,
        spans: object = None,
    ) -> VariantEffects:
        """Effects of equal-length windows (n, L).

        Parameters
        ----------
        R, A : numpy.ndarray of uint8, shape (n, L)
            Reference and alternative windows.
        anchor : numpy.ndarray
            The variants' positions (unused).
        top : int
            k-mer changes kept per variant (none here).
        keep : bool
            Keep the (empty) decomposition.
        spans : optional
            Unused.

        Returns
        -------
        VariantEffects
        """
        return self._effects(R, A, top, keep)

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Refused: the score is not a sum over letters.

        Parameters
        ----------
        x : numpy.ndarray of uint8
            A sequence.

        Raises
        ------
        InputError
            Always.
        """
        raise InputError(
            f"{self.model.describe()}: no per-letter contributions (the score is "
            "not a sum of l-mer weights)"
        )


@dataclass
class TermEffects(VariantEffects):
    """`VariantEffects` of a motif model or stack: the change of every term.

    Attributes
    ----------
    names : list of str
        The terms (motifs; "model" for a stack's model score).
    term_change : numpy.ndarray of float64, shape (n, T)
        Every term's change; they sum to ``effect``.
    """

    names: list[str] = field(default_factory=list)
    term_change: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def top_strings(self) -> list[str]:
        """``NAME:CHANGE`` of the terms that changed, largest first, ``;``-joined.

        ``"."`` for a variant that changed no term.

        Returns
        -------
        list of str
        """
        out = []
        for row in self.term_change:
            order = np.argsort(-np.abs(row), kind="stable")
            kept = [f"{self.names[j]}:{row[j]:+.6g}" for j in order if row[j] != 0]
            out.append(";".join(kept) or ".")
        return out


class MotifEffects(ScoredEffects):
    """Variant effects of a motif model or stack, named by the motif that changed.

    Both sequences are scored; the effect splits exactly into the terms'
    changes (`TermEffects`), which ``top_kmers`` of ``poimkit variants``
    lists as ``motif:change``.

    Parameters
    ----------
    model : MotifClassifier, MotifRegressor or StackedModel
        A model with ``terms`` and ``term_names``.
    """

    def _effects(self, refs, alts, top: int, keep: bool):
        base = super()._effects(refs, alts, top, keep)
        change = self.model.terms(alts) - self.model.terms(refs)
        return TermEffects(
            **vars(base), names=self.model.term_names, term_change=change
        )
