"""`extract_motifs`: from a POIM to a short list of positioned PWMs."""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from .._validation import as_rng, check_int
from ..errors import InputError
from .fit import MotifPoimFit, MotifShape
from .motif import Motif
from .seeds import find_seeds

#: edge columns with less than this share of the motif's best column's
#: information content are trimmed after the fit
TRIM_FRACTION = 0.25


def _background_letters(poim) -> np.ndarray:
    from ..poim.engine import kmer_probability_table

    return kmer_probability_table(poim.background, 1).mean(axis=0)


def _trim(shape: MotifShape) -> MotifShape:
    pwm = shape.pwm
    info = 2.0 + (pwm * np.log2(np.clip(pwm, 1e-300, 1.0))).sum(axis=1)
    keep = np.flatnonzero(info >= TRIM_FRACTION * info.max())
    lo, hi = int(keep[0]), int(keep[-1]) + 1
    return MotifShape(
        shape.logits[lo:hi].copy(), shape.mu + lo, shape.sigma, shape.gamma
    )


def _perturbed(shape: MotifShape, rng: np.random.Generator) -> MotifShape:
    """A restart: logits, mean and spread jittered around the seed's."""
    return MotifShape(
        shape.logits + rng.normal(0, 0.5, shape.logits.shape),
        shape.mu + rng.normal(0, 1.0),
        shape.sigma * float(np.exp(rng.normal(0, 0.5))),
        shape.gamma,
    )


def _importance(poim, consensus: str) -> float:
    """Largest POIM value of a k-mer of the consensus (k = min(K, m)) anywhere."""
    from ..alphabet import kmer_index

    l = min(poim.max_order, len(consensus))
    q = poim.q(l)
    return float(
        max(
            q[:, kmer_index(consensus[o : o + l])].max()
            for o in range(len(consensus) - l + 1)
        )
    )


def extract_motifs(
    poim,
    max_motifs: int = 3,
    *,
    orders: list[int] | None = None,
    n_restarts: int = 3,
    min_gain: float = 0.05,
    pad: int = 0,
    random_state=0,
) -> list[Motif]:
    """Motifs (PWM, mean position, spread) that explain a POIM.

    Parameters
    ----------
    poim : Poim
        POIMs of a model, e.g. from `poimkit.compute_poim`.
    max_motifs : int
        Most motifs to report.
    orders : list of int, optional
        POIM orders the motifs are fitted to; default the three highest up to 5
        (higher orders cost 4x per order and, in our tests, fit spread motifs
        worse: their POIMs grow less than multiplicatively with the match).
    n_restarts : int
        Optimiser starts per motif (the seed itself, then perturbed copies).
    min_gain : float
        A motif is kept only if it lowers the relative residual by this much.
    pad : int
        Uniform columns added on each side of a seed before the fit; columns
        that stay uninformative are trimmed afterwards.
    random_state : int, Generator or None
        Seed of the restarts' perturbations.

    Returns
    -------
    list of Motif
        Strongest first.

    Notes
    -----
    Seeds come from the highest-order POIM and the peaks of the differential
    POIM (`poimkit.motifs.seeds`), strongest first. Each seed is fitted alone
    to what the motifs accepted so far leave unexplained and is kept if it
    lowers the residual by ``min_gain``; then all kept motifs are refitted
    jointly. The fit minimises
    ``sum_k ||Q_k - sum_g v_gk R_gk||^2 / sum_k ||Q_k||^2`` over PWMs, mean
    starts, spreads and tempers, where R is the POIM a positioned PWM induces
    (`poimkit.motifs.model`). A Markov background enters through its average
    letter probabilities.

    References
    ----------
    M. M.-C. Vidovic, N. Görnitz, K.-R. Müller, G. Rätsch and M. Kloft.
    Opening the black box: revealing interpretable sequence motifs in
    kernel-based learning algorithms. ECML PKDD 2015. SVM2Motif, PLoS ONE 2015.
    """
    max_motifs = check_int(max_motifs, "max_motifs", 1)
    n_restarts = check_int(n_restarts, "n_restarts", 1)
    top = poim.max_order
    if orders is None:
        highest = min(top, 5)
        orders = list(range(max(1, highest - 2), highest + 1))
    if not orders or any(not 1 <= k <= top for k in orders):
        raise InputError(
            f"orders must lie in 1..{top} (the POIM's orders), got {orders}"
        )
    fit = MotifPoimFit(
        {k: poim.q(k) for k in orders}, poim.length, _background_letters(poim)
    )
    # One BLAS thread: the fit's many small matrix products run far slower with
    # threads that contend with each other (and with numba's) on few cores.
    with threadpool_limits(1, user_api="blas"):
        accepted, loss = _fit_motifs(
            poim, fit, max_motifs, n_restarts, min_gain, pad, as_rng(random_state)
        )
    if not accepted:
        return []
    motifs = []
    for shape in accepted:
        motif = Motif(
            shape.pwm, position=shape.mu + 1.0, spread=shape.sigma, residual=loss
        )
        if set(motif.iupac) == {"N"}:  # no column prefers any letter: not a motif
            continue
        motif.importance = _importance(poim, motif.consensus)
        motifs.append(motif)
    motifs.sort(key=lambda m: -m.importance)
    for i, motif in enumerate(motifs, start=1):
        motif.name = f"motif_{i}"
    return motifs


def _fit_motifs(poim, fit, max_motifs, n_restarts, min_gain, pad, rng):
    """Accept seeds one by one, then refit all jointly; (shapes, loss)."""
    loss = 1.0
    accepted: list[MotifShape] = []
    for seed in find_seeds(poim, max_seeds=max_motifs + 3):
        if len(accepted) == max_motifs:
            break
        # fit the candidate alone to what the accepted motifs leave unexplained
        rest = fit.residual(accepted) if accepted else fit
        base = MotifShape.from_string(
            seed.string, seed.mean_start, max(seed.spread, 0.5), pad=pad
        )
        best = None
        for attempt in range(n_restarts):
            start = base if attempt == 0 else _perturbed(base, rng)
            shapes, value, _ = rest.fit([start])
            if best is None or value < best[1]:
                best = (shapes[0], value)
        if loss - best[1] >= min_gain:
            accepted, loss, _ = fit.fit([*accepted, best[0]])
    if accepted:
        accepted, loss, _ = fit.fit([_trim(s) for s in accepted])
    return accepted, loss
