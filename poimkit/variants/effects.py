"""Exact variant effects of explainable models, decomposed into k-mer changes.

Every poimkit model is linear in k-mer indicators (`poimkit.KmerWeights` for
the positional WD family, one weight per l-mer window for the position-free
`poimkit.GkmSVC`), so the score change of a variant, ``s(alt) - s(ref)``, is a
sum over the k-mers whose contribution changes. `variant_effects` computes
that sum from the explicit weights, without model calls, and keeps the
changes that move the score most.

Positional models (`WDKernelSVC`, `WDLinearSVC`; reverse-complement strands
are already folded into their weights): ref and alt have the model's length
L, and the changes are the k-mers at the same start whose weight differs,
``w_k[i, alt[i:i+k]] - w_k[i, ref[i:i+k]]``, over the starts whose k-mer
covers a differing letter.

Position-free models (`GkmSVC`, ``s(x) = b + a(|x|) sum_w f[x_w]`` over the
l-mer windows w of x, both strands folded into f): the windows of ref and alt
are matched through their common prefix and their common (aligned) tail; only
the windows touching the changed letters differ, and for ref and alt of one
length that is the whole effect (deltaSVM's sum, times ``a``). They are paired
by start: ``a f[alt_w] - a f[ref_w]``. Sequences of different lengths have
different normalisations ``a``: every matched window then changes too, by
``(a(|alt|) - a(|ref|)) f[w]``, and unpaired windows count on their side
alone; the decomposition stays exact.

LS-GKM models (`poimkit.svm.lsgkm.LsgkmModel`) have ``a(x) = 1 / sqrt(K(x,
x))`` per sequence: the same decomposition with each sequence's own factor,
exact for the real (normalised) score; since ``a(ref) != a(alt)`` for most
variants, every matched window carries its share ``(a(alt) - a(ref)) f[w]``
of the normalisation term.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._threads import numba_threads
from ..additive import decomposition
from ..errors import InputError
from . import _effects
from .result import Entries, VariantEffects

#: chunk of variants scored at once by the command (memory of the windows)
CHUNK = 32768


# --------------------------------------------------------------------- engines
class _Positional:
    """Effects from positional k-mer weights (the WD family)."""

    decomposition = "positional"
    position_free = False

    def __init__(self, weights, offsets: tuple[int, ...] = (0,)) -> None:
        self.weights = weights
        self.length = int(weights.length)
        #: the model's training placements (`poimkit.variants.placement`)
        self.offsets = tuple(offsets)

    def run(self, R, A, anchor, top, keep, spans=None, scores=True) -> VariantEffects:
        """Equal-length windows ``R[r] -> A[r]`` (n, L); ``spans`` is not needed.

        k-mers are compared at each start, so the matched spans (of
        `_PositionFree.run`) are not used. ``scores=False``: the effects
        alone, the windows not scored (``ref_score`` and ``alt_score`` NaN;
        the effects are the same: they are sums of the changed k-mers'
        weights).
        """
        n = R.shape[0]
        lo = np.empty(n, np.int64)
        hi = np.empty(n, np.int64)
        _effects.differing_range(R, A, lo, hi)
        K = self.weights.max_order
        L = self.length
        k = np.arange(1, K + 1)[None, :]
        first = np.maximum(0, lo[:, None] - k + 1)
        last = np.minimum(L - k, hi[:, None])
        bound = np.where(lo[:, None] >= 0, np.maximum(last - first + 1, 0), 0).sum(1)
        e = Entries.empty(bound)
        for order in range(1, K + 1):
            _effects.wd_order_entries(
                R,
                A,
                lo,
                hi,
                anchor,
                order,
                *self.weights.order(order),
                *_arrays(e),
            )
        if scores:
            ref_score = self.weights.decision_function(R)
        else:
            ref_score = np.full(n, np.nan)
        return _finish(ref_score, e, top, keep)

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Per-letter contributions of window x: k-mer weights spread over letters."""
        out = np.zeros(x.size)
        for k in range(1, self.weights.max_order + 1):
            _effects.wd_letter_contributions(x, k, *self.weights.order(k), out)
        return out


class _PositionFree:
    """Effects from an l-mer table and each record's factor (`GkmSVC`, LS-GKM)."""

    decomposition = "lmer_table"
    position_free = True
    offsets = (0,)  # read anywhere: no training placements

    def __init__(self, model) -> None:
        from ..svm.gkm import MAX_LMER_TABLE

        if model.l > MAX_LMER_TABLE:
            raise InputError(
                f"variant effects need the model's l-mer table (l <= "
                f"{MAX_LMER_TABLE}); this GkmSVC has l = {model.l}"
            )
        self.model = model
        self.l = int(model.l)
        self.table = model.lmer_table()
        self.bias = float(model.intercept_)
        self.length = int(model.length_)

    def factors(self, codes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """``a(x)`` of the ragged sequences ``codes[offsets[i]:offsets[i + 1]]``."""
        return self.model.record_factors(codes, offsets)

    def run_flat(
        self, rc, ro, ac, ao, lo, rhi, ahi, anchor, top: int, keep: bool
    ) -> VariantEffects:
        """Effects of ragged pairs and their matched spans (`_effects.gkm_entries`)."""
        from ..kernels import _gkm

        l = self.l
        n_ref = np.diff(ro)
        n_alt = np.diff(ao)
        a_ref = self.factors(rc, ro)
        a_alt = self.factors(ac, ao)
        changed = np.maximum(rhi - lo + l - 1, 0) + np.maximum(ahi - lo + l - 1, 0)
        tails = np.abs((n_ref - rhi) - (n_alt - ahi))
        bound = changed + tails + np.where(a_ref != a_alt, n_ref - l + 1, 0)
        e = Entries.empty(bound.astype(np.int64))
        e.order[:] = l
        _effects.gkm_entries(
            (rc, ro),
            (ac, ao),
            (lo, rhi, ahi),
            anchor,
            (a_ref, a_alt),
            self.table,
            l,
            _arrays(e),
        )
        raw = np.empty(n_ref.size)
        _gkm.lmer_score_rows(rc, ro, l, self.table, raw)
        return _finish(raw * a_ref + self.bias, e, top, keep)

    def run(self, R, A, anchor, top, keep, spans=None) -> VariantEffects:
        """Equal-length windows (n, L); ``spans``: (lo, rhi, ahi) or found here."""
        n, L = R.shape
        off = np.arange(n + 1, dtype=np.int64) * L
        rc, ac = R.reshape(-1), A.reshape(-1)
        if spans is None:
            spans = _spans(rc, off, ac, off)
        return self.run_flat(rc, off, ac, off, *spans, anchor, top, keep)

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Per-letter contributions: ``a f[w]`` spread over the letters of w."""
        out = np.zeros(x.size)
        scale = float(self.factors(x, np.array([0, x.size]))[0])
        _effects.lmer_letter_contributions(x, self.l, self.table, scale, out)
        return out


def _spans(rc, ro, ac, ao):
    n = ro.size - 1
    lo, rhi, ahi = (np.empty(n, np.int64) for _ in range(3))
    _effects.common_spans(rc, ro, ac, ao, lo, rhi, ahi)
    return lo, rhi, ahi


def _arrays(e: Entries) -> tuple:
    """The entry arrays as the kernels take them (`poimkit.variants._effects`)."""
    return e.base, e.fill, e.ref, e.alt, e.order, e.position, e.change


def _finish(ref_score, e: Entries, top: int, keep: bool) -> VariantEffects:
    n = ref_score.size
    effect = np.empty(n)
    best = np.full((n, top), -1, dtype=np.int64)
    _effects.sum_and_top(e.base, e.fill, e.position, e.change, effect, best)
    has = best >= 0
    pick = np.where(has, best, 0)

    def take(a, missing):
        if a.size == 0:
            return np.full(best.shape, missing, dtype=a.dtype)
        return np.where(has, a[pick], missing)

    return VariantEffects(
        ref_score=ref_score,
        alt_score=ref_score + effect,
        effect=effect,
        top_ref=take(e.ref, -1),
        top_alt=take(e.alt, -1),
        top_order=take(e.order, 0),
        top_position=take(e.position, 0),
        top_change=take(e.change, np.nan),
        _entries=e if keep else None,
    )


def effect_engine(model: object) -> _Positional | _PositionFree:
    """The effect engine of a fitted model (explicit weights built once).

    Parameters
    ----------
    model : WDKernelSVC, WDLinearSVC, GkmSVC, KmerWeights, or a motif model or stack

    Returns
    -------
    object
        With ``position_free``, ``length`` (the model's window length),
        ``run(R, A, anchor, top, keep)`` and ``contributions(x)``.

    Raises
    ------
    InputError
        For a model without exact explicit weights (hashed `WDLinearSVC`
        orders, a `GkmSVC` with l above 12) or that is not fitted.
    """
    from ..contract import SequenceModel, declared_length
    from ..kernels.explicit import KmerWeights

    if isinstance(model, KmerWeights):
        return _Positional(model)
    fitted = isinstance(model, SequenceModel) and declared_length(model, ("length_",))
    if not fitted:
        raise InputError(
            f"variant effects need a fitted poimkit model, got {type(model).__name__}"
        )
    kind = decomposition(model)
    if kind == "score_only":  # LS-GKM -t 3/4/5, a CNN: scores only
        from .scored import MotifEffects, ScoredEffects

        # a motif model or stack: effects named by motif
        return MotifEffects(model) if model.names_terms else ScoredEffects(model)
    if kind == "lmer_table":  # gkm, LS-GKM: the factor is the model's
        return _PositionFree(model)
    return _Positional(model.explicit_weights(), model.training_offsets_)


def check_top(top: int) -> int:
    """``top`` checked: a non-negative integer.

    Parameters
    ----------
    top : int
        How many k-mer changes to keep per variant.

    Returns
    -------
    int
    """
    if isinstance(top, bool) or not isinstance(top, int | np.integer) or top < 0:
        raise InputError(f"top must be a non-negative integer, got {top!r}")
    return int(top)


def variant_effects(
    model: object,
    ref: ArrayLike,
    alt: ArrayLike,
    *,
    top: int = 3,
    at: ArrayLike | None = None,
    n_threads: int | None = None,
) -> VariantEffects:
    """Exact score changes ``s(alt) - s(ref)`` and their k-mer decomposition.

    Parameters
    ----------
    model : WDKernelSVC, WDLinearSVC, GkmSVC, LsgkmModel or KmerWeights
        A fitted model (an LS-GKM file's `LsgkmModel`: exact for its
        normalised score, see the module notes).
    ref, alt : str, list of str or of code arrays, or 2-D code arrays
        One reference and one alternative sequence per variant. Positional
        models need the model's length for both; `GkmSVC` takes any lengths
        of at least l (ref and alt may differ in length: indels).
    top : int, default=3
        Largest k-mer changes kept per variant (by absolute value).
    at : array-like of int, optional
        0-based position of each variant in its ref sequence: k-mer positions
        are given relative to it. Default: the first letter where ref and alt
        differ.
    n_threads : int, optional
        Threads of the numba kernels (default: numba's).

    Returns
    -------
    VariantEffects
        Scores, effects, top changes, and every change through
        ``VariantEffects.changes(i)``.

    Raises
    ------
    InputError
        For unequal numbers of ref and alt sequences, wrong lengths, letters
        other than ACGT, or a model without exact explicit weights.

    Notes
    -----
    Exact from the explicit weights, no model calls: positional models compare
    the k-mers at each start, position-free ones the l-mer windows touching
    the changed letters (matched through the common prefix and suffix; with
    different lengths the normalisation changes every window, see the module
    notes). Reverse-complement strands are folded into the weights.

    Examples
    --------
    >>> from poimkit.kernels.explicit import KmerWeights
    >>> w = KmerWeights.from_tables([np.array([[0, 2.0, 0, 0]] * 3)], bias=1.0)
    >>> fx = variant_effects(w, ["AAA"], ["ACA"])
    >>> fx.effect.tolist(), [str(c) for c in fx.changes(0)]
    ([2.0], ['A>C@0:2'])
    >>> variant_effects(w, "AAA", "ACA").effect.tolist()  # one pair as strings
    [2.0]
    """
    from ..kernels.gkm import as_sequences

    top = check_top(top)
    engine = effect_engine(model)
    refs = as_sequences([ref] if isinstance(ref, str) else ref, "ref")
    alts = as_sequences([alt] if isinstance(alt, str) else alt, "alt")
    if len(refs) != len(alts):
        raise InputError(
            f"ref has {len(refs)} sequences but alt has {len(alts)}; give one "
            "pair per variant"
        )
    if not engine.position_free:
        L = engine.length
        for name, seqs in (("ref", refs), ("alt", alts)):
            for i, x in enumerate(seqs):
                if x.size != L:
                    raise InputError(
                        f"{name}[{i}] has length {x.size} but the model scores "
                        f"windows of length {L}"
                    )
    else:
        for name, seqs in (("ref", refs), ("alt", alts)):
            for i, x in enumerate(seqs):
                if x.size < engine.l:
                    raise InputError(
                        f"{name}[{i}] has length {x.size}, shorter than the model's "
                        f"l = {engine.l}"
                    )
    with numba_threads(n_threads):
        return pair_effects(engine, refs, alts, at, top, keep=True)


def pair_effects(
    engine: _Positional | _PositionFree,
    refs: list[np.ndarray],
    alts: list[np.ndarray],
    at: np.ndarray | None,
    top: int,
    keep: bool,
) -> VariantEffects:
    """`variant_effects` of validated code arrays (lengths already checked).

    Parameters
    ----------
    engine : object
        `effect_engine` of the model.
    refs, alts : list of numpy.ndarray of uint8
        Code arrays, one pair per variant.
    at : numpy.ndarray of int or None
        Position of each variant in its sequences (default: the first difference).
    top : int
        Changes kept per variant.
    keep : bool
        Keep every change (`VariantEffects.changes`), not only the top ones.
    """
    n = len(refs)
    if not engine.position_free:
        R = np.ascontiguousarray(np.stack(refs))
        A = np.ascontiguousarray(np.stack(alts))
        anchor = _anchor(at, n, lambda: _first_difference(R, A))
        return engine.run(R, A, anchor, top, keep)
    rc, ro = _ragged(refs)
    ac, ao = _ragged(alts)
    lo, rhi, ahi = _spans(rc, ro, ac, ao)
    anchor = _anchor(at, n, lambda: lo)
    return engine.run_flat(rc, ro, ac, ao, lo, rhi, ahi, anchor, top, keep)


def _ragged(seqs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum([x.size for x in seqs], out=offsets[1:])
    return np.ascontiguousarray(np.concatenate(seqs), dtype=np.uint8), offsets


def _first_difference(R: np.ndarray, A: np.ndarray) -> np.ndarray:
    diff = R != A
    return np.where(diff.any(1), diff.argmax(1), 0).astype(np.int64)


def _anchor(at, n: int, default) -> np.ndarray:
    if at is None:
        return np.ascontiguousarray(default(), dtype=np.int64)
    anchor = np.asarray(at)
    if anchor.shape != (n,) or anchor.dtype.kind not in "iu":
        raise InputError(f"at must be {n} integer positions, got shape {anchor.shape}")
    return anchor.astype(np.int64)
