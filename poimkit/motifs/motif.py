"""`Motif`: a PWM with a mean position and a positional spread."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..alphabet import ALPHABET
from ..errors import InputError

#: pseudo-sites used when a PWM is written as a count matrix (JASPAR, TRANSFAC)
COUNT_SCALE = 10_000


class PwmColumns:
    """The columns of a motif's ``pwm`` (shape (m, 4)): their number, consensus."""

    @property
    def length(self) -> int:
        """Number of columns m."""
        return self.pwm.shape[0]

    @property
    def consensus(self) -> str:
        """Most probable letter of each column (the first of equals)."""
        return "".join(ALPHABET[i] for i in self.pwm.argmax(axis=1))


@dataclass
class Motif(PwmColumns):
    """A sequence motif found in a model's POIMs.

    Parameters
    ----------
    pwm : array-like of float, shape (m, 4)
        Letter probabilities per motif column, columns A, C, G, T; rows sum to 1.
    position : float
        Mean start of the motif, **1-based** (as in figures and tables).
    spread : float
        Standard deviation of the start position; the fit's lower bound 0.3
        means a fixed position.
    importance : float
        The largest POIM value of a k-mer of the consensus (score units); for
        a ``counted`` word its position-free importance
        (`poimkit.poim.Poim.anywhere`).
    residual : float
        Relative residual of the motif-POIM fit, ``||Q - R||^2 / ||Q||^2`` over
        the fitted orders (0 is a perfect fit).
    name : str
        Identifier used in motif files.
    n_sites : int
        Sequences with a site (positives and negatives); 0 for a motif fitted
        to POIMs alone.
    frac_positive, frac_negative : float
        Share of the held-out positives, and of the negatives, with a site.
        For a continuous target: share of the held-out sequences with a
        target above, and below, their median that hold a site.
    p_value, q_value : float
        One-sided Fisher test that positives hold a site more often than
        negatives, and its Benjamini-Hochberg q-value over every seed
        examined (`poimkit.motifs.evidence`); NaN without sequences. For a
        continuous target the two-sided Mann-Whitney U test that holding a
        site shifts the target (`poimkit.motifs.evidence.shift_test`).
    effect : float
        Continuous target only (else NaN): rank-biserial correlation of
        holding a site with the target in the held-out sequences, in [-1, 1];
        negative for a motif that lowers the target. For a ``counted`` word
        the partial correlation of its count with the held-out target, and
        ``p_value`` the t-test of its coefficient (`poimkit.motifs.words`).
    median_shift : float
        Continuous target only (else NaN): median target of held-out
        sequences with a site minus that of those without (target units).
    e_value : float
        ``p_value`` times the number of seeds examined (MEME's E-value: the
        expected number of motifs this good by chance).
    label : int or None
        The class whose sequences carry the motif: 1 for the positives (the
        model rewards it), 0 for the negatives (the model penalises it; its
        ``importance`` is then negative and its test counts the other way
        round). None for a continuous target or a motif fitted to POIMs alone.
    sites : Sites or None
        The best site of each sequence holding one
        (`poimkit.motifs.scan.Sites`).
    counted : bool
        Every site counts, not only a sequence's best: a short word each of
        whose occurrences moves the target (`poimkit.motifs.words`); its
        motif-model feature is the number of sites.

    Raises
    ------
    InputError
        For a ``pwm`` that is not of shape (m, 4) with rows of probabilities.
    """

    pwm: np.ndarray
    position: float
    spread: float
    importance: float = 0.0
    residual: float = float("nan")
    name: str = "motif"
    n_sites: int = 0
    frac_positive: float = math.nan
    frac_negative: float = math.nan
    p_value: float = math.nan
    q_value: float = math.nan
    e_value: float = math.nan
    effect: float = math.nan
    median_shift: float = math.nan
    label: int | None = None
    sites: object = field(default=None, repr=False, compare=False)
    counted: bool = False

    def __post_init__(self) -> None:
        pwm = np.asarray(self.pwm, dtype=np.float64)
        if pwm.ndim != 2 or pwm.shape[1] != 4 or pwm.shape[0] < 1:
            raise InputError(f"pwm has shape {pwm.shape} but must have shape (m, 4)")
        if not np.isfinite(pwm).all() or (pwm < 0).any():
            raise InputError("pwm must hold finite, non-negative probabilities")
        if not np.allclose(pwm.sum(axis=1), 1.0, atol=1e-6):
            raise InputError("every pwm row must sum to 1")
        self.pwm = pwm

    @property
    def iupac(self) -> str:
        """Degenerate (IUPAC) consensus, Biopython's rules."""
        return str(self.to_biopython().degenerate_consensus)

    @property
    def information(self) -> np.ndarray:
        """Information content per column in bits, ``2 - H(column)``."""
        p = np.clip(self.pwm, 1e-300, 1.0)
        return 2.0 + (self.pwm * np.log2(p)).sum(axis=1)

    def to_biopython(self):
        """The motif as a `Bio.motifs.Motif` (counts per `COUNT_SCALE` sites)."""
        from Bio import motifs

        counts = {
            a: (self.pwm[:, i] * COUNT_SCALE).tolist() for i, a in enumerate(ALPHABET)
        }
        motif = motifs.Motif(alphabet=ALPHABET, counts=counts)
        motif.name = self.name
        motif.matrix_id = self.name
        return motif

    def __repr__(self) -> str:
        return (
            f"Motif({self.consensus!r}, position={self.position:.1f}, "
            f"spread={self.spread:.1f}, importance={self.importance:.3g}, "
            f"residual={self.residual:.3g})"
        )


def strongest_first(
    motifs: list[Motif],
    strength: Callable[[Motif], float],
    max_motifs: int | None = None,
) -> list[Motif]:
    """The motifs by decreasing ``strength``, named ``motif_1``, ``motif_2``, ...

    Parameters
    ----------
    motifs : list of Motif
        The motifs found; their names are set.
    strength : callable
        Motif -> float: larger ranks first (ties keep their order).
    max_motifs : int, optional
        Keep this many at the most; default all.

    Returns
    -------
    list of Motif

    Examples
    --------
    >>> a = Motif(np.eye(4)[[0, 1]], 3.0, 0.0, importance=1.0)
    >>> b = Motif(np.eye(4)[[2, 3]], 8.0, 0.0, importance=2.0)
    >>> ranked = strongest_first([a, b], lambda m: m.importance)
    >>> [(m.name, m.consensus) for m in ranked]
    [('motif_1', 'GT'), ('motif_2', 'AC')]
    """
    return named_in_order(sorted(motifs, key=lambda m: -strength(m))[:max_motifs])


def named_in_order(motifs: list[Motif]) -> list[Motif]:
    """The motifs as they are, named ``motif_1``, ``motif_2``, ... in order.

    Parameters
    ----------
    motifs : list of Motif
        Their names are set.

    Returns
    -------
    list of Motif
    """
    for i, motif in enumerate(motifs, start=1):
        motif.name = f"motif_{i}"
    return motifs
