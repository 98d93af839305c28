"""`extract_motifs`: from a POIM to a short list of positioned PWMs."""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from .._validation import as_rng, check_int
from ..errors import InputError
from .fit import MotifPoimFit, MotifShape
from .motif import Motif
from .seeds import find_seeds

#: edge columns whose letters move the motif's score less than this share of
#: its strongest column's are trimmed after the fit (`_column_effects`)
TRIM_FRACTION = 0.25
#: most seeds (`find_seeds`) screened for each motif: in effect all of them
#: (a strong motif alone can yield dozens, its k-mers with a few random letters,
#: and a weaker motif's seeds come last); screening one costs about a millisecond
MAX_SEEDS = 256
#: best-screened seeds fitted for each motif
N_CANDIDATES = 2
#: a fit replaces the one before it (a later-screened candidate the earlier
#: one, a perturbed restart the seed's own fit) only if it lowers the relative
#: residual by more than this: smaller gains are within the motif model's error
#: (a 6-long motif with positional spread was fitted 0.008 better by a 7-column
#: PWM with a soft extra column)
CLEARLY_BETTER = 0.01


def _background_letters(poim) -> np.ndarray:
    from ..poim.engine import kmer_probability_table

    return kmer_probability_table(poim.background, 1).mean(axis=0)


def _column_effects(shape: MotifShape, background: np.ndarray) -> np.ndarray:
    """How much each column moves the motif's score.

    The coefficient of variation, under the background, of the column's factor
    ``(r_c / b)**gamma`` in the model (`poimkit.motifs.model`). Not the
    information content: that is quadratic in the log-odds of a soft column,
    and a small temper (an additive score) leaves every column soft, so the
    information of a column that matters to the fit can look negligible.
    """
    factor = (shape.pwm / background) ** shape.gamma
    mean = factor @ background
    std = np.sqrt(((factor - mean[:, None]) ** 2) @ background)
    return std / mean


def _trim(shape: MotifShape, background: np.ndarray) -> MotifShape:
    """The shape without edge columns that barely move its score."""
    effect = _column_effects(shape, background)
    keep = np.flatnonzero(effect >= TRIM_FRACTION * effect.max())
    lo, hi = int(keep[0]), int(keep[-1]) + 1
    if (lo, hi) == (0, len(effect)):
        return shape
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
        Optimiser starts per motif from the chosen seed: the seed itself, then
        perturbed copies (the best-screened seeds always start unperturbed).
    min_gain : float
        A motif is kept only if it lowers the relative residual by this much.
    pad : int
        Uniform columns added on each side of a seed before the fit; columns
        that stay uninformative are trimmed afterwards.
    random_state : int, Generator or None
        Seed of the restarts' perturbations. A perturbed restart only replaces
        the unperturbed fit if it is clearly better (`CLEARLY_BETTER`), so
        the motifs do not hinge on it.

    Returns
    -------
    list of Motif
        Strongest first.

    Notes
    -----
    Seeds come from the highest-order POIM and the peaks of the differential
    POIM (`poimkit.motifs.seeds`). Motifs are added one at a time: every seed
    is screened, as it stands, against what the motifs accepted so far leave
    unexplained; the `N_CANDIDATES` most promising are fitted to it and the
    best fit that prefers some letter is kept if it lowers the residual by
    ``min_gain``, after which all kept motifs are refitted jointly. (A strong
    motif yields many seeds, its k-mers with a few random letters, so the
    strongest seeds need not include the second motif at all.) Edge columns
    that barely move a motif's score are trimmed and the motifs refitted once
    more. The fit minimises
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


def _informative(shape: MotifShape) -> bool:
    """True if some column prefers a letter (the IUPAC consensus is not all N).

    A fit that prefers none is no motif (`extract_motifs` drops it), so it must
    not take a motif's place: the fit can explain much of a POIM with a flat,
    weakly tempered PWM.
    """
    motif = Motif(shape.pwm, position=shape.mu + 1.0, spread=shape.sigma)
    return set(motif.iupac) != {"N"}


def _fit_motifs(poim, fit, max_motifs, n_restarts, min_gain, pad, rng):
    """Add motifs one by one from the most promising seeds; (shapes, loss).

    Deterministic but for perturbed restarts that are clearly better than the
    unperturbed fits.
    """
    pool = [
        MotifShape.from_string(
            seed.string, seed.mean_start, max(seed.spread, 0.5), pad=pad
        )
        for seed in find_seeds(poim, max_seeds=MAX_SEEDS)
    ]
    loss = 1.0
    accepted: list[MotifShape] = []
    while len(accepted) < max_motifs and pool:
        rest = fit.residual(accepted) if accepted else fit
        # screen every seed as it stands (scales in closed form, no optimiser)
        screened = [rest.evaluate([s], gradient=False)[0] for s in pool]
        order = [int(i) for i in np.argsort(screened, kind="stable")]
        best = None  # (value, pool index, shape)
        for i in order[:N_CANDIDATES]:
            shapes, value, _ = rest.fit([pool[i]])
            if _informative(shapes[0]) and (
                best is None or value < best[0] - CLEARLY_BETTER
            ):
                best = (value, i, shapes[0])
        if best is None:
            break
        value, i, shape = best
        for _ in range(n_restarts - 1):
            shapes, v, _ = rest.fit([_perturbed(pool[i], rng)])
            if v < value - CLEARLY_BETTER and _informative(shapes[0]):
                value, shape = v, shapes[0]
        if loss - value < min_gain:
            break
        del pool[i]
        accepted, loss, _ = fit.fit([*accepted, shape])
    trimmed = [_trim(s, fit.background) for s in accepted]
    if any(t is not s for t, s in zip(trimmed, accepted, strict=True)):
        accepted, loss, _ = fit.fit(trimmed)
    return accepted, loss
