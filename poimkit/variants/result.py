"""The result of `poimkit.variants.variant_effects`: effects and their k-mer changes.

`VariantEffects` holds every variant's scores, effect and largest k-mer changes
(`KmerChange`); `Entries` the full decomposition kept for the plots; the
engines of `poimkit.variants.effects` (and `poimkit.variants.scored`) fill them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..errors import InputError


class KmerChange(NamedTuple):
    """One k-mer whose contribution changes with a variant.

    Attributes
    ----------
    ref, alt : str
        The k-mer in the reference and in the alternative sequence (``"-"``:
        none on that side, for a window that exists on one side only).
    position : int
        0-based start of the k-mer minus the variant's position (negative:
        starts to its left).
    change : float
        Contribution in alt minus contribution in ref.
    """

    ref: str
    alt: str
    position: int
    change: float

    def __str__(self) -> str:
        return f"{self.ref}>{self.alt}@{self.position}:{self.change:.4g}"


@dataclass
class Entries:
    """Changed k-mer entries of a batch: variant r owns ``base[r]:base[r]+fill[r]``."""

    base: np.ndarray
    fill: np.ndarray
    ref: np.ndarray
    alt: np.ndarray
    order: np.ndarray
    position: np.ndarray
    change: np.ndarray

    @classmethod
    def empty(cls, bound: np.ndarray) -> Entries:
        """Room for ``bound[r]`` entries of every variant r, none filled.

        Parameters
        ----------
        bound : numpy.ndarray of int64, shape (n,)
            The most entries each variant can have.

        Returns
        -------
        Entries
        """
        base = np.zeros(bound.size, dtype=np.int64)
        np.cumsum(bound[:-1], out=base[1:])
        total = int(bound.sum())
        return cls(
            base,
            np.zeros(bound.size, dtype=np.int64),
            np.empty(total, np.int64),
            np.empty(total, np.int64),
            np.empty(total, np.int64),
            np.empty(total, np.int64),
            np.empty(total, np.float64),
        )

    def changes(self, r: int) -> list[KmerChange]:
        """The entries of variant r, by position then order.

        Parameters
        ----------
        r : int
            The variant's row in the batch.

        Returns
        -------
        list of KmerChange
        """
        from ..alphabet import kmer_string

        sl = slice(int(self.base[r]), int(self.base[r] + self.fill[r]))
        out = []
        for kr, ka, k, p, c in zip(
            self.ref[sl],
            self.alt[sl],
            self.order[sl],
            self.position[sl],
            self.change[sl],
            strict=True,
        ):
            ref = kmer_string(int(kr), int(k)) if kr >= 0 else "-"
            alt = kmer_string(int(ka), int(k)) if ka >= 0 else "-"
            out.append(KmerChange(ref, alt, int(p), float(c)))
        out.sort(key=lambda e: (e.position, len(e.ref), len(e.alt)))
        return out


@dataclass
class VariantEffects:
    """Exact score changes of variants and the k-mer changes behind them.

    Attributes
    ----------
    ref_score, alt_score : numpy.ndarray of float64, shape (n,)
        Scores of the reference and alternative sequences.
    effect : numpy.ndarray of float64, shape (n,)
        ``alt_score - ref_score``: the sum of all k-mer changes of the variant
        (`changes`), equal to ``model.decision_function(alt) -
        model.decision_function(ref)`` up to floating-point rounding.
    top_ref, top_alt : numpy.ndarray of int64, shape (n, top)
        k-mer indices (see `poimkit.kmer_index`) of the largest changes by
        absolute value, largest first; -1 for none on that side or no entry.
    top_order, top_position : numpy.ndarray of int64, shape (n, top)
        Their lengths and starts relative to the variant.
    top_change : numpy.ndarray of float64, shape (n, top)
        Their changes (NaN where a variant has fewer changes).
    """

    ref_score: np.ndarray
    alt_score: np.ndarray
    effect: np.ndarray
    top_ref: np.ndarray
    top_alt: np.ndarray
    top_order: np.ndarray
    top_position: np.ndarray
    top_change: np.ndarray
    _entries: Entries | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return int(self.effect.size)

    def changes(self, i: int) -> list[KmerChange]:
        """Every k-mer change of variant i (the full, exact decomposition).

        Parameters
        ----------
        i : int
            The variant.

        Returns
        -------
        list of KmerChange
            By position, then k-mer length; their ``change`` values sum to
            ``effect[i]``.
        """
        if self._entries is None:
            raise InputError("these effects were computed without their decomposition")
        if not 0 <= i < len(self):
            raise InputError(f"variant {i} is out of range 0..{len(self) - 1}")
        return self._entries.changes(i)

    def top_changes(self, i: int) -> list[KmerChange]:
        """The largest changes of variant i by absolute value, largest first.

        Parameters
        ----------
        i : int
            The variant's index.
        """
        from ..alphabet import kmer_string

        out = []
        for t in range(self.top_change.shape[1]):
            k = int(self.top_order[i, t])
            if k <= 0:
                break
            kr, ka = int(self.top_ref[i, t]), int(self.top_alt[i, t])
            out.append(
                KmerChange(
                    kmer_string(kr, k) if kr >= 0 else "-",
                    kmer_string(ka, k) if ka >= 0 else "-",
                    int(self.top_position[i, t]),
                    float(self.top_change[i, t]),
                )
            )
        return out

    def top_strings(self) -> list[str]:
        """The top changes of every variant as ``REF>ALT@POS:CHANGE;...`` text.

        ``"."`` for a variant without changes. Vectorised: the k-mer strings
        of all variants are made by numpy at once.

        Returns
        -------
        list of str
        """
        return format_top(
            self.top_ref,
            self.top_alt,
            self.top_order,
            self.top_position,
            self.top_change,
        )


def format_top(
    top_ref: np.ndarray,
    top_alt: np.ndarray,
    top_order: np.ndarray,
    top_position: np.ndarray,
    top_change: np.ndarray,
) -> list[str]:
    """``REF>ALT@POS:CHANGE`` of each top change, joined by ``;`` per variant.

    Parameters
    ----------
    top_ref, top_alt : numpy.ndarray of int64, shape (n, top)
        k-mer indices in ref and alt (-1: none on that side).
    top_order, top_position : numpy.ndarray of int64, shape (n, top)
        k-mer lengths (0: no change in that slot) and starts relative to the variant.
    top_change : numpy.ndarray of float64, shape (n, top)
        The changes.
    """
    n, n_top = top_change.shape
    if n == 0:
        return []
    present = top_order > 0
    cells = np.full((n, n_top), "", dtype=object)
    for t in range(n_top):
        rows = np.flatnonzero(present[:, t])
        if rows.size == 0:
            continue
        ref = kmer_strings(top_ref[rows, t], top_order[rows, t])
        alt = kmer_strings(top_alt[rows, t], top_order[rows, t])
        pos = top_position[rows, t].tolist()
        change = top_change[rows, t].tolist()
        cells[rows, t] = [
            f"{a}>{b}@{p}:{c:.4g}"
            for a, b, p, c in zip(ref, alt, pos, change, strict=True)
        ]
    if n_top == 1:
        out = cells[:, 0].tolist()
    else:
        out = [";".join(filter(None, row)) for row in cells.tolist()]
    return [s or "." for s in out]


def kmer_strings(index: np.ndarray, order: np.ndarray) -> list[str]:
    """Letters of many k-mers at once (``"-"`` for index -1), numpy-vectorised.

    Parameters
    ----------
    index : numpy.ndarray of int
        k-mer indices (-1: none).
    order : numpy.ndarray of int
        Their lengths.

    Examples
    --------
    >>> kmer_strings(np.array([9156, -1, 3]), np.array([7, 2, 2]))
    ['GATTACA', '-', 'AT']
    """
    index = np.asarray(index, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    if index.size == 0:
        return []
    width = int(order.max())
    # letter j (from the left) of a k-mer of length k is bits 2 (k - 1 - j)
    shift = 2 * (order[:, None] - 1 - np.arange(width)[None, :])
    letters = np.frombuffer(b"ACGT", dtype=np.uint8)[
        (np.maximum(index, 0)[:, None] >> np.maximum(shift, 0)) & 3
    ]
    letters[shift < 0] = 0  # past the end of shorter k-mers: NUL is dropped
    text = letters.view(f"S{width}").ravel().astype(str).tolist()
    if (index < 0).any():
        for i in np.flatnonzero(index < 0).tolist():
            text[i] = "-"
    return text
