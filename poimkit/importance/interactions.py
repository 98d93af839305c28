"""Motif interactions of any model: a spacing and orientation map, with its error.

For motifs A and B, background sequences x, a distance d (letters between
the end of A and the start of B) and orientations o (each motif as given,
``+``, or reverse-complemented, ``-``), the interaction is

    I(d, o) = E_x[f(x + A + B)] - E_x[f(x + A)] - E_x[f(x + B)] + E_x[f(x)],

where ``x + A`` is x with A written over it. The pair is centred in the
sequence, A left of B; ``x + A`` and ``x + B`` put each motif where it stands
in the pair. The same draws x serve all four terms (common random numbers),
so each draw gives one difference and the standard error is that of their
mean: a model in which A and B add up (any sum of per-letter weights, say)
gives I = 0 exactly. No interaction means I = 0 within its error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import as_rng, check_int
from ..alphabet import encode, reverse_complement
from ..errors import InputError

__all__ = ["InteractionMap", "motif_interactions"]

#: every orientation of the pair: A then B, each "+" (as given) or "-"
ORIENTATIONS = ("++", "+-", "-+", "--")


@dataclass(frozen=True)
class InteractionMap:
    """`motif_interactions`' result: I(d, o) with its error, and the single effects.

    Attributes
    ----------
    motif_a, motif_b : str
        The motifs as given (orientation ``+``).
    distances : numpy.ndarray of int, shape (D,)
        Letters between the end of A and the start of B.
    orientations : tuple of str
        Of A and of B, each ``+`` or ``-``.
    interaction, stderr : numpy.ndarray, shape (O, D)
        I(d, o) and its standard error.
    effect_a, effect_b, effect_pair : numpy.ndarray, shape (O, D)
        ``E[f(x + A)] - E[f(x)]``, the same of B and of both.
    baseline : float
        ``E[f(x)]``, the mean score of the background.
    n_samples : int
        Background sequences drawn.
    n_evaluations : int
        Records scored.
    """

    motif_a: str
    motif_b: str
    distances: np.ndarray
    orientations: tuple[str, ...]
    interaction: np.ndarray
    stderr: np.ndarray
    effect_a: np.ndarray
    effect_b: np.ndarray
    effect_pair: np.ndarray
    baseline: float
    n_samples: int
    n_evaluations: int

    def z(self) -> np.ndarray:
        """I / its standard error (0 where both are 0)."""
        return np.divide(
            self.interaction,
            self.stderr,
            out=np.zeros_like(self.interaction),
            where=self.stderr > 0,
        )

    def peak(self) -> dict:
        """The entry of largest |I|: orientation, distance, I, error and z.

        Returns
        -------
        dict
        """
        o, d = np.unravel_index(
            np.argmax(np.abs(self.interaction)), self.interaction.shape
        )
        return {
            "orientation": self.orientations[o],
            "distance": int(self.distances[d]),
            "interaction": float(self.interaction[o, d]),
            "stderr": float(self.stderr[o, d]),
            "z": float(self.z()[o, d]),
        }

    def rows(self) -> list[tuple]:
        """One row per orientation and distance, for a table.

        Returns
        -------
        list of tuple
            ``(orientation, distance, interaction, stderr, z, effect_a,
            effect_b, effect_pair)``.
        """
        z = self.z()
        return [
            (
                o,
                int(d),
                float(self.interaction[i, j]),
                float(self.stderr[i, j]),
                float(z[i, j]),
                float(self.effect_a[i, j]),
                float(self.effect_b[i, j]),
                float(self.effect_pair[i, j]),
            )
            for i, o in enumerate(self.orientations)
            for j, d in enumerate(self.distances)
        ]

    #: the columns of `rows`
    COLUMNS = (
        "orientation",
        "distance",
        "interaction",
        "stderr",
        "z",
        "effect_a",
        "effect_b",
        "effect_pair",
    )


def _motif_codes(motif: Any, name: str) -> np.ndarray:
    """A motif's letter codes: a DNA string, codes, or a `Motif` (its consensus)."""
    if hasattr(motif, "consensus"):
        motif = motif.consensus
    if isinstance(motif, str):
        if not motif or set(motif.upper()) - set("ACGT"):
            raise InputError(f"{name} must be letters A, C, G, T, got {motif!r}")
        return encode([motif.upper()])[0]
    codes = np.asarray(motif)
    if codes.ndim != 1 or codes.size == 0 or codes.min() < 0 or codes.max() > 3:
        raise InputError(f"{name} must be a DNA string or letter codes 0..3")
    return codes.astype(np.uint8)


def _oriented(codes: np.ndarray, sign: str) -> np.ndarray:
    return codes if sign == "+" else reverse_complement(codes[None, :])[0]


def placements(
    length: int, width_a: int, width_b: int, distance: int
) -> tuple[int, int]:
    """Starts of A and B for the pair centred in ``length`` letters.

    Parameters
    ----------
    length : int
        Sequence length.
    width_a, width_b : int
        The motifs' widths.
    distance : int
        Letters between them.

    Returns
    -------
    (int, int)

    Examples
    --------
    >>> placements(20, 4, 4, 2)
    (5, 11)
    """
    span = width_a + distance + width_b
    start = (length - span) // 2
    return start, start + width_a + distance


def motif_interactions(
    model: Any,
    motif_a: Any,
    motif_b: Any,
    length: int | None = None,
    *,
    distances: Iterable[int] = range(0, 21),
    orientations: Sequence[str] = ORIENTATIONS,
    background: Any = None,
    n_samples: int = 256,
    random_state: np.random.Generator | int | None = None,
) -> InteractionMap:
    """The interaction map of two motifs in a model (see the module).

    Parameters
    ----------
    model : object
        With ``decision_function`` on letter codes of shape (n, L).
    motif_a, motif_b : str, array of codes, or Motif
        The motifs (a `Motif` by its consensus).
    length : int, optional
        Sequence length L (default: the background's, else ``model.length_``).
    distances : iterable of int, default 0..20
        Letters between the end of A and the start of B.
    orientations : sequence of str, default all four
        Each of ``"++"``, ``"+-"``, ``"-+"``, ``"--"`` (A's sign, then B's).
    background : MarkovBackground, optional
        Where x is drawn from (default uniform letters).
    n_samples : int, default 256
        Background sequences (at least 2).
    random_state : int or numpy.random.Generator, optional

    Returns
    -------
    InteractionMap

    Notes
    -----
    Scores ``n_samples * (1 + 3 D O)`` records for D distances and O
    orientations, one model call per orientation and distance.

    Examples
    --------
    >>> import re
    >>> def score(X):  # 1 where CCC follows AAA after exactly 2 letters
    ...     text = ["".join("ACGT"[c] for c in x) for x in X]
    ...     return np.array([float(bool(re.search("AAA..CCC", t))) for t in text])
    >>> class Model:
    ...     decision_function = staticmethod(score)
    >>> found = motif_interactions(Model(), "AAA", "CCC", 20, distances=[1, 2, 3],
    ...                            orientations=["++"], n_samples=50,
    ...                            random_state=0)
    >>> found.peak()["distance"]
    2
    """
    from ..background import MarkovBackground

    a = _motif_codes(motif_a, "motif_a")
    b = _motif_codes(motif_b, "motif_b")
    if length is None:
        length = getattr(background, "length", None) or getattr(model, "length_", None)
    if length is None:
        raise InputError("give the sequence length: the model does not say it")
    length = check_int(length, "length", 1)
    n_samples = check_int(n_samples, "n_samples", 2)
    distances = np.array(sorted(set(int(d) for d in distances)), dtype=np.int64)
    orientations = tuple(orientations)
    if not orientations or set(orientations) - set(ORIENTATIONS):
        raise InputError(f"orientations must be among {ORIENTATIONS}")
    if distances.size == 0 or distances[0] < 0:
        raise InputError("distances must be one or more integers >= 0")
    widest = length - a.size - b.size
    if distances[-1] > widest:
        raise InputError(
            f"distance {distances[-1]} does not fit: motifs of {a.size} and "
            f"{b.size} letters in {length} leave at most {widest} between them"
        )
    background = background or MarkovBackground.uniform(length)
    if background.length != length:
        raise InputError(f"the background has length {background.length}, not {length}")
    x = background.sample(n_samples, random_state=as_rng(random_state))
    base = np.asarray(model.decision_function(x), dtype=np.float64)
    shape = (len(orientations), distances.size)
    found = {k: np.zeros(shape) for k in ("i", "se", "a", "b", "ab")}
    for i, signs in enumerate(orientations):
        site_a, site_b = _oriented(a, signs[0]), _oriented(b, signs[1])
        for j, d in enumerate(distances):
            start_a, start_b = placements(length, a.size, b.size, int(d))
            with_a, with_b = x.copy(), x.copy()
            with_a[:, start_a : start_a + a.size] = site_a
            with_b[:, start_b : start_b + b.size] = site_b
            pair = with_a.copy()
            pair[:, start_b : start_b + b.size] = site_b
            s = np.asarray(
                model.decision_function(np.concatenate([with_a, with_b, pair])),
                dtype=np.float64,
            ).reshape(3, n_samples)
            diff = s[2] - s[0] - s[1] + base
            found["i"][i, j] = diff.mean()
            found["se"][i, j] = diff.std(ddof=1) / np.sqrt(n_samples)
            found["a"][i, j] = (s[0] - base).mean()
            found["b"][i, j] = (s[1] - base).mean()
            found["ab"][i, j] = (s[2] - base).mean()
    return InteractionMap(
        motif_a=_decoded(a),
        motif_b=_decoded(b),
        distances=distances,
        orientations=orientations,
        interaction=found["i"],
        stderr=found["se"],
        effect_a=found["a"],
        effect_b=found["b"],
        effect_pair=found["ab"],
        baseline=float(base.mean()),
        n_samples=n_samples,
        n_evaluations=n_samples * (1 + 3 * distances.size * len(orientations)),
    )


def _decoded(codes: np.ndarray) -> str:
    return "".join("ACGT"[c] for c in codes)
