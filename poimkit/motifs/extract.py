"""`extract_motifs`: from a POIM to a short list of positioned PWMs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike
from threadpoolctl import threadpool_limits

from .._validation import as_rng, check_int
from ..errors import InputError
from .discovery import (
    background_letters,
    codes_for,
    discover,
    importance,
    negated,
)
from .fit import MotifPoimFit, MotifShape
from .motif import Motif, named_in_order, strongest_first
from .seeds import find_seeds

if TYPE_CHECKING:
    from ..poim import Poim

#: edge columns whose letters move the motif's score less than this share of
#: its strongest column's are trimmed after the fit (`_column_effects`)
TRIM_FRACTION = 0.25
#: most seeds (`find_seeds`) screened for each motif: in effect all of them
#: (a strong motif alone can yield dozens, its k-mers with a few random letters,
#: and a weaker motif's seeds come last); screening one is cheap
MAX_SEEDS = 256
#: best-screened seeds fitted for each motif
N_CANDIDATES = 2
#: a motif's sites must be this many times as common in positives as in negatives
MIN_ENRICHMENT = 2.0
#: a fit replaces the one before it (a later-screened candidate the earlier
#: one, a perturbed restart the seed's own fit) only if it lowers the relative
#: residual by more than this: smaller gains are within the motif model's error
#: (a 6-long motif with positional spread was fitted 0.008 better by a 7-column
#: PWM with a soft extra column)
CLEARLY_BETTER = 0.01


def _column_effects(shape: MotifShape, background: np.ndarray) -> np.ndarray:
    """How much each column moves the motif's score.

    The coefficient of variation, under the background, of the column's factor
    ``(r_c / b)**gamma`` in the model (`poimkit.motifs.motif_poim`). Not the
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


def extract_motifs(
    poim: Poim,
    max_motifs: int = 3,
    *,
    sequences: ArrayLike | Sequence[np.ndarray] | None = None,
    labels: ArrayLike | None = None,
    targets: ArrayLike | None = None,
    alpha: float = 0.05,
    orders: list[int] | None = None,
    n_restarts: int = 3,
    min_gain: float = 0.05,
    pad: int = 0,
    random_state: int | np.random.Generator | None = 0,
    progress: bool = False,
    min_enrichment: float = MIN_ENRICHMENT,
) -> list[Motif]:
    """Motifs (PWM, mean position, spread) behind a POIM.

    With ``sequences`` and ``labels`` (the recommended use) each motif is
    built from its sites, real occurrences where the model rewards it (the
    positives' motifs) or penalises it (the negatives' motifs, `Motif.label`
    0), and comes with evidence (`Motif.n_sites`, ``frac_positive``,
    ``frac_negative``, ``p_value``, ``q_value``); only motifs with
    ``q_value <= alpha`` are returned. Without them, PWMs are fitted to the
    POIMs alone (motifPOIM).

    Parameters
    ----------
    poim : Poim
        POIMs of a model, e.g. from `poimkit.compute_poim`.
    max_motifs : int
        Most motifs to report (with labels: of each class).
    sequences : array-like of uint8, shape (n, L), optional
        Integer-coded sequences (`poimkit.encode`), e.g. the training set. For
        the POIM of a position-free model they may have any lengths (a list
        of 1-D code arrays or of DNA strings, or a 1-D object array): each is
        searched at its full length, and site starts are positions in it.
    labels : array-like of shape (n,), optional
        1 (or True) for positives, 0 for negatives.
    targets : array-like of float, shape (n,), optional
        A continuous target per sequence instead of labels (the POIM of a
        regressor, `poimkit.WDKernelSVR` or `poimkit.GkmSVR`): motifs that
        raise or lower it, with a rank test's evidence
        (`poimkit.motifs.continuous_targets`: ``effect``, ``median_shift``).
    alpha : float
        False discovery rate: motifs with a larger q-value are dropped.
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
        Seed of the discovery/held-out split of the positives (with
        labels; of all sequences with targets), or of the restarts'
        perturbations (without sequences). A perturbed restart only
        replaces the unperturbed fit if it is clearly better
        (`CLEARLY_BETTER`), so the motifs do not hinge on it.
    progress : bool
        Show a progress bar on standard error (over the seeds tried, or the
        motifs fitted).
    min_enrichment : float, default `MIN_ENRICHMENT`
        With labels: how many times as common a motif's sites must be in its
        class's held-out sequences as in the other class's (>= 1). A motif
        that acts only beside a partner is enriched only as much as the pair
        is (a motif in 75 % of positives and 50 % of negatives: 1.5); lower
        it for such motifs (`poimkit.explain.attribution_poim`).

    Returns
    -------
    list of Motif
        Strongest first (with labels: the positives' motifs, then the
        negatives').

    Notes
    -----
    **With sequences** (`poimkit.motifs.sites`): the k-mers of the strongest POIM
    entries, of the strongest entry at every start and the strongest distinct
    k-mers are seeds (`poimkit.motifs.seeds.site_seeds`), taken in order of
    the score mass they explain (`poimkit.motifs.sites.seed_mass`). Each class
    is split at random into halves. The positives' *discovery* half gives each
    seed's sites and PWM; a seed that makes no motif there (a short, degenerate
    motif of a real factor) is refined against the negatives' discovery half
    (`poimkit.motifs.contrast`). The evidence is counted on the *held-out*
    positives and on the negatives the PWM never saw (all of them, or their
    held-out half for a motif refined against the other half). The
    negatives' motifs are found the same way from the negated POIM, the
    classes' roles swapped. A seed whose sites mostly coincide with those of a
    motif found before is dropped, or replaces it if it is longer and keeps
    `KEEP_SITES` of its sites. Null hypothesis: holding a site is independent of the
    label; one-sided Fisher test, Benjamini-Hochberg over every seed examined for
    both classes (a seed that made no motif counts as a test with p = 1). A motif
    is reported if its q-value is at most ``alpha`` and its sites are at least
    ``min_enrichment`` times as common in its class's held-out sequences as in the
    other class's (an effect size: with many sequences a tiny enrichment is
    significant, but no motif). For a positional model, a motif whose sites lie
    where a more significant motif of the other class has its own is only that
    motif's absence, and is not reported (`_absent_not_present`). The model itself did
    see all sequences, so on a model no better than chance the test can still pass:
    check the cross-validated AUC first (``poimkit run`` reports no motifs when its
    interval includes 0.5). ``position`` is the 1-based mean start of the sites in
    the positives that gather, chance matches set aside
    (`poimkit.motifs.site_place`), and ``spread`` their standard deviation; for the
    POIM of a position-free model (`poimkit.GkmSVC`) both are NaN: its motifs occur
    anywhere, and sites are sought at every start of every record, whatever its
    length.

    **Without sequences** (motifPOIM): seeds come from the highest-order POIM and
    the peaks of the differential POIM (`poimkit.motifs.seeds`). Motifs are added
    one at a time: every seed is screened, as it stands, against what the motifs
    accepted so far leave unexplained; the `N_CANDIDATES` most promising are fitted
    to it and the best fit that prefers some letter is kept if it lowers the
    residual by ``min_gain``, after which all kept motifs are refitted jointly. (A
    strong motif yields many seeds, its k-mers with a few random letters, so the
    strongest seeds need not include the second motif at all.) Edge columns that
    barely move a motif's score are trimmed and the motifs refitted once more. The
    fit minimises ``sum_k ||Q_k - sum_g v_gk R_gk||^2 / sum_k ||Q_k||^2`` over PWMs,
    mean starts, spreads and tempers, where R is the POIM a positioned PWM induces
    (`poimkit.motifs.motif_poim`). A Markov background enters through its average letter
    probabilities. The fitted mean start and spread are reported as ``position``
    and ``spread``, except for the POIM of a position-free model (`Poim.position_free`:
    `poimkit.GkmSVC`, an LS-GKM file), whose motifs get NaN as with sequences.

    References
    ----------
    M. M.-C. Vidovic, N. Görnitz, K.-R. Müller, G. Rätsch and M. Kloft.
    Opening the black box: revealing interpretable sequence motifs in
    kernel-based learning algorithms. ECML PKDD 2015. SVM2Motif, PLoS ONE 2015.
    """
    max_motifs = check_int(max_motifs, "max_motifs", 1)
    n_restarts = check_int(n_restarts, "n_restarts", 1)
    if labels is not None and targets is not None:
        raise InputError("give labels or targets, not both")
    if (sequences is None) != (labels is None and targets is None):
        raise InputError("give sequences and labels (or targets) together")
    if sequences is not None:
        if not 0 < alpha <= 1:
            raise InputError(f"alpha must lie in (0, 1], got {alpha!r}")
        if targets is not None:
            from .continuous_targets import check_targets, target_motifs

            X, t = check_targets(poim, sequences, targets)
            return target_motifs(
                poim, X, t, max_motifs, alpha, as_rng(random_state), progress
            )
        if not min_enrichment >= 1:
            raise InputError(
                f"min_enrichment must be 1 or more, got {min_enrichment!r}"
            )
        X, y = _check_labeled(poim, sequences, labels)
        return _site_motifs(
            poim,
            X,
            y,
            max_motifs,
            alpha,
            as_rng(random_state),
            progress,
            min_enrichment,
        )
    top = poim.max_order
    if orders is None:
        highest = min(top, 5)
        orders = list(range(max(1, highest - 2), highest + 1))
    if not orders or any(not 1 <= k <= top for k in orders):
        raise InputError(
            f"orders must lie in 1..{top} (the POIM's orders), got {orders}"
        )
    fit = MotifPoimFit(
        {k: poim.q(k) for k in orders}, poim.length, background_letters(poim.background)
    )
    # One BLAS thread: the fit's many small matrix products run far slower with
    # threads that contend with each other (and with numba's) on few cores.
    with threadpool_limits(1, user_api="blas"):
        accepted, loss = _fit_motifs(
            poim,
            fit,
            max_motifs,
            n_restarts,
            min_gain,
            pad,
            as_rng(random_state),
            progress,
        )
    if not accepted:
        return []
    motifs = []
    anywhere = poim.position_free  # its motifs occur anywhere: no place to report
    for shape in accepted:
        motif = Motif(
            shape.pwm,
            position=np.nan if anywhere else shape.mu + 1.0,
            spread=np.nan if anywhere else shape.sigma,
            residual=loss,
        )
        if set(motif.iupac) == {"N"}:  # no column prefers any letter: not a motif
            continue
        motif.importance = importance(poim, motif.consensus)
        motifs.append(motif)
    motifs = strongest_first(motifs, lambda m: m.importance)
    if anywhere and _strand_symmetric(poim):
        motifs = _one_per_strand(motifs)
    return motifs


#: a motif at least this alike to a stronger one's reverse complement is it
_SAME_ON_THE_OTHER_STRAND = 0.9


def _strand_symmetric(poim: Poim) -> bool:
    """Whether the POIM gives a k-mer and its reverse complement one value.

    A model that scores a record and its reverse complement alike (LS-GKM's,
    `poimkit.GkmSVC` with ``reverse_complement``) has
    ``Q(z, j) = Q(rc(z), L - k - j)``; motifPOIM then fits a motif and its
    reverse complement as two.
    """
    from ..alphabet import reverse_complement_kmers

    k = poim.max_order
    q = poim.q(k)
    rc = reverse_complement_kmers(np.arange(q.shape[1]), k)
    scale = float(np.abs(q).max()) or 1.0
    return bool(np.allclose(q, q[::-1, rc], rtol=0.0, atol=1e-9 * scale))


def _one_per_strand(motifs: list[Motif]) -> list[Motif]:
    """The motifs without those that are a stronger one on the other strand."""
    kept: list[Motif] = []
    for motif in motifs:
        if not any(_other_strand(motif, other) for other in kept):
            kept.append(motif)
    return kept


def _other_strand(a: Motif, b: Motif) -> bool:
    """Whether ``a`` is ``b`` read on the other strand (over the shorter one)."""
    from .compare import match_motifs

    query, target = (a, b) if a.length <= b.length else (b, a)
    [best] = match_motifs(query, [target], top=1)
    return best.strand == "-" and best.score >= _SAME_ON_THE_OTHER_STRAND


def _check_labeled(poim, sequences, labels) -> tuple[np.ndarray, np.ndarray]:
    """Sequences as one code array (records of any lengths `padded`), labels."""
    y = np.asarray(labels)
    X = codes_for(poim, sequences)
    if y.shape != (X.shape[0],):
        raise InputError(
            f"labels has shape {y.shape} but must have shape ({X.shape[0]},), "
            "one per sequence"
        )
    if not np.isin(y, (0, 1)).all():
        raise InputError("labels must be 0 (negative) or 1 (positive)")
    y = y.astype(bool)
    if y.sum() < 2 or (~y).sum() < 1:
        raise InputError(
            f"motif evidence needs at least 2 positive and 1 negative sequences, "
            f"got {int(y.sum())} and {int((~y).sum())}"
        )
    return X, y


def _halves(
    y: np.ndarray, rng: np.random.Generator
) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Each class split at random into a discovery and a held-out half.

    The positives are drawn first (as when only they were split).
    """
    halves = {}
    for label in (1, 0):
        members = rng.permutation(np.flatnonzero(y == label))
        half = members.size // 2
        halves[label] = (np.sort(members[:half]), np.sort(members[half:]))
    return halves


def _site_motifs(
    poim, X, y, max_motifs, alpha, rng, progress, min_enrichment=MIN_ENRICHMENT
) -> list[Motif]:
    """Motifs of both classes from the sites of POIM seeds, with evidence.

    See `extract_motifs`: the positives' motifs from the POIM, the negatives'
    from the negated POIM (what the model penalises), each counted the other
    way round.
    """
    from .evidence import enrichment_p_value, q_values
    from .scan import motif_of_sites

    anywhere = poim.position_free
    halves = _halves(y, rng)
    found = []  # (label, SiteMotif, refined against the other class, signed POIM)
    n_examined = 0
    for label, signed in ((1, poim), (0, negated(poim))):
        own, other = halves[label][0], halves[1 - label][0]
        if own.size == 0:
            continue
        motifs, n = discover(signed, X[own], progress, X[other] if other.size else None)
        n_examined += n
        found += [(label, m, contrast, signed) for m, _, contrast in motifs]
    if not found:
        return []
    tests = []  # (sites, carriers, others)
    for label, candidate, contrast, _ in found:
        carriers = halves[label][1]
        # the other class's sequences the motif never saw
        others = halves[1 - label][1] if contrast else np.flatnonzero(y != label)
        tests.append((candidate.sites(X), carriers, others))
    has = np.zeros((len(found), y.size), dtype=bool)  # sequences with a site
    for row, (sites, _, _) in zip(has, tests, strict=True):
        row[sites.rows] = True
    p_values = [
        enrichment_p_value(
            int(h[carriers].sum()), carriers.size, int(h[others].sum()), others.size
        )
        for h, (_, carriers, others) in zip(has, tests, strict=True)
    ]
    if not anywhere:
        p_values = _absent_not_present(found, tests, y, p_values)
    # every seed examined counts as a test (one that made no motif has p = 1):
    # the survivors were selected, so they alone would understate the family
    n_tests = max(n_examined, len(found))
    q = q_values(p_values + [1.0] * (n_tests - len(found)))[: len(found)]
    by_class: dict[int, list[Motif]] = {1: [], 0: []}
    for (label, candidate, _, signed), (sites, carriers, others), h, p, qv in zip(
        found, tests, has, p_values, q, strict=True
    ):
        frac_carriers = float(h[carriers].mean())
        frac_others = float(h[others].mean()) if others.size else 0.0
        if qv > alpha or frac_carriers < min_enrichment * frac_others:
            continue
        fractions = (frac_carriers, frac_others)[:: 1 if label else -1]
        # the reported PWM: every site in the class, on the motif's strand
        motif = motif_of_sites(
            X,
            sites.take(y[sites.rows] == label),
            candidate.length,
            anywhere,
            frac_positive=fractions[0],
            frac_negative=fractions[1],
            p_value=p,
            q_value=float(qv),
            e_value=p * n_tests,
            label=label,
            sites=sites,
        )
        sign = 1.0 if label else -1.0
        motif.importance = sign * importance(signed, motif.consensus)
        by_class[label].append(motif)
    strongest = [
        strongest_first(by_class[label], lambda m: abs(m.importance), max_motifs)
        for label in (1, 0)
    ]
    return named_in_order(strongest[0] + strongest[1])


def _absent_not_present(found, tests, y, p_values) -> list[float]:
    """P-values with 1 for a motif that is only the absence of another.

    A positional model that rewards motif A at some place penalises every
    other word there: the other class holds them "more often" only because
    A takes their place in A's class. So a candidate whose sites lie where a
    more significant candidate of the other class has its own (their central
    starts, +- 2 SD, overlap) is no motif of its own, and its p-value
    becomes 1. (A position-free model rewards a motif anywhere; a motif
    there leaves the rest of the sequence as it is.)
    """
    regions = []
    for (label, candidate, _, _), (sites, _, _) in zip(found, tests, strict=True):
        starts = sites.starts[y[sites.rows] == label]
        if starts.size == 0:
            regions.append((0.0, 0.0))
            continue
        middle, spread = float(np.mean(starts)), float(np.std(starts))
        regions.append((middle - 2 * spread, middle + 2 * spread + candidate.length))
    out = list(p_values)
    kept: list[int] = []
    for i in np.argsort(p_values, kind="stable"):
        if any(
            found[k][0] != found[i][0]
            and regions[k][0] < regions[i][1]
            and regions[i][0] < regions[k][1]
            for k in kept
        ):
            out[i] = 1.0
        else:
            kept.append(int(i))
    return out


def _informative(shape: MotifShape) -> bool:
    """True if some column prefers a letter (the IUPAC consensus is not all N).

    A fit that prefers none is no motif (`extract_motifs` drops it), so it must
    not take a motif's place: the fit can explain much of a POIM with a flat,
    weakly tempered PWM.
    """
    motif = Motif(shape.pwm, position=shape.mu + 1.0, spread=shape.sigma)
    return set(motif.iupac) != {"N"}


def _fit_motifs(poim, fit, max_motifs, n_restarts, min_gain, pad, rng, progress):
    """Add motifs one by one from the most promising seeds; (shapes, loss).

    Deterministic but for perturbed restarts that are clearly better than the
    unperturbed fits.
    """
    from tqdm.auto import tqdm

    pool = [
        MotifShape.from_string(
            seed.string, seed.mean_start, max(seed.spread, 0.5), pad=pad
        )
        for seed in find_seeds(poim, max_seeds=MAX_SEEDS)
    ]
    loss = 1.0
    accepted: list[MotifShape] = []
    bar = tqdm(total=max_motifs, desc="motifs", unit="motif", disable=not progress)
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
        bar.update()
    bar.close()
    trimmed = [_trim(s, fit.background) for s in accepted]
    if any(t is not s for t, s in zip(trimmed, accepted, strict=True)):
        accepted, loss, _ = fit.fit(trimmed)
    return accepted, loss
