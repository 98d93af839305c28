"""Motifs of a regressor's POIM, with evidence suited to a continuous target.

`extract_motifs` with ``targets`` instead of ``labels``. All sequences are
split at random into a *discovery* half and a *held-out* half. A regressor
rewards a motif that raises the target (positive POIM values) and penalises
one that lowers it (negative values), so sites are sought twice, with the
classification path's machinery (`poimkit.motifs.discovery.discover`): for
the POIM as it is, in the discovery sequences whose target lies above their
median, and for the negated POIM, in those below it (as the classification
path looks for sites in each class), a seed that makes no site motif being
refined against the discovery sequences on the other side
(`poimkit.motifs.contrast`). Seeds also come from the data
(`poimkit.motifs.target_kmers.target_poim`: k-mers whose records' targets lie
above or below the mean, on the discovery half; their sites are sought
anywhere, and a positional model's motif gets the place of its sites), so
that a weak model does not hide a motif the targets show. The evidence is
counted on the held-out half only, which the PWMs never saw, by two tests:
the two-sided Mann-Whitney U test that holding a site shifts the target, its
effect size the rank-biserial correlation (`poimkit.motifs.evidence.shift_test`), and
Spearman's correlation of each sequence's best site score with the target
(`poimkit.motifs.evidence.score_test`), which needs no site threshold and so
still sees a degenerate site common enough that most sequences hold a match
by chance; each motif's score is tested against what the motifs with stronger
scores leave of the target (`poimkit.motifs.evidence.score_tests`), as a motif
sharing letters with a stronger one scores high where that one sits. A
motif's p-value is the smaller of the two, doubled (Bonferroni).

The motifs come in two families, each tested at half the level ``alpha``
(Bonferroni again). The data's motifs depend on the discovery half
alone, so they are tested in a fixed sequence (Maurer, Hothorn and Lehmacher
1995): in the order of their score correlation on the discovery half, each
at ``alpha / 2`` until the first that fails; the sequence controls the
family-wise error without a correction for the number of seeds, so a weak
common site that only the data show is not lost among a hundred seeds that
made nothing. The model's motifs (those no data seed found) come from a model
that saw the held-out half too, so Benjamini-Hochberg runs over every seed of
the model examined (a seed that made no motif counts as a test with p = 1).
A motif is reported if its adjusted p-value (its ``q_value``) is at most
``alpha``, its sites are in at least `MIN_CARRIERS` held-out sequences, and
its rank-biserial correlation is at least `MIN_EFFECT` or its score
correlation at least `MIN_CORRELATION` in absolute value.

Short words each of whose occurrences moves the target are counted, not held
(`poimkit.motifs.words`): chosen on the discovery half for what the reported
site motifs leave of the target, tested on the held-out half (a family of
tests of their own), and reported as position-free ``counted`` motifs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InputError
from .motif import Motif, strongest_first

if TYPE_CHECKING:
    from ..poim import Poim

#: smallest |rank-biserial correlation| of a reported motif: with many
#: sequences a tiny shift of the target is significant, but no motif (0.2:
#: a sequence with a site has the larger target 60 % of the time, not 50 %)
MIN_EFFECT = 0.2
#: smallest |Spearman correlation| of the best site score with the target of a
#: reported motif (0.1: a tenth of the target's ranks follow the score)
MIN_CORRELATION = 0.1
#: fewest sequences with a target motif evidence needs
MIN_SEQUENCES = 8
#: fewest held-out sequences with a site for a motif to be tested (at most a
#: quarter of the held-out half): three sequences that happen to have low
#: targets are no motif, nor is a rare motif whose best score, read in every
#: sequence, echoes the sites of a common one
MIN_CARRIERS = 10
#: longest k-mers of the seeds read off the data (`target_poim`)
TARGET_ORDER = 6


def check_targets(
    poim: Poim, sequences: ArrayLike | Sequence[np.ndarray], targets: ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    """Sequences as one code array and their finite float targets, checked.

    Parameters
    ----------
    poim : Poim
        POIMs of the model.
    sequences : array-like or sequence of code arrays or strings
        As `poimkit.extract_motifs` takes them.
    targets : array-like of float, shape (n,)
        One target per sequence.

    Returns
    -------
    X : numpy.ndarray of uint8, shape (n, L)
    t : numpy.ndarray of float64, shape (n,)
    """
    from .discovery import codes_for

    X = codes_for(poim, sequences)
    try:
        t = np.asarray(targets, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("targets must be numbers") from None
    if t.shape != (X.shape[0],):
        raise InputError(
            f"targets has shape {t.shape} but must have shape ({X.shape[0]},), "
            "one per sequence"
        )
    if not np.isfinite(t).all():
        raise InputError("targets must be finite numbers")
    if t.size < MIN_SEQUENCES:
        raise InputError(
            f"motif evidence needs at least {MIN_SEQUENCES} sequences, got {t.size}"
        )
    return X, t


def target_motifs(
    poim: Poim,
    X: np.ndarray,
    t: np.ndarray,
    max_motifs: int,
    alpha: float,
    rng: np.random.Generator,
    progress: bool = False,
) -> list[Motif]:
    """Motifs that shift a continuous target (the module notes).

    Parameters
    ----------
    poim : Poim
        POIMs of a regressor.
    X : numpy.ndarray of uint8, shape (n, L)
        Checked sequences (`check_targets`).
    t : numpy.ndarray of float64, shape (n,)
        Their targets.
    max_motifs : int
        Most motifs to report.
    alpha : float
        False discovery rate.
    rng : numpy.random.Generator
        Draws the discovery/held-out split.
    progress : bool
        Progress bars over the seeds.

    Returns
    -------
    list of Motif
        Strongest (largest |effect|) first, with ``effect``, ``median_shift``,
        ``p_value``, ``q_value``, ``e_value`` and ``frac_positive`` /
        ``frac_negative`` (held-out sequences above / below the median target
        holding a site).
    """
    from .discovery import importance
    from .evidence import score_test, score_tests, shift_test
    from .scan import best_windows, motif_of_sites
    from .words import word_motifs

    anywhere = poim.position_free
    order = rng.permutation(t.size)
    half = t.size // 2
    discovery, held_out = np.sort(order[:half]), np.sort(order[half:])
    found, n_examined, n_model = _candidates(poim, X, t, discovery, progress)
    has = np.zeros((len(found), t.size), dtype=bool)  # sequences with a site
    for row, (_, sites, _, _) in zip(has, found, strict=True):
        row[sites.rows] = True
    tests = [shift_test(t[held_out], h[held_out]) for h in has]
    best = [best_windows(X, m.allowed, m.allowed_rc, m.log_odds)[0] for m, *_ in found]
    scored = score_tests(t[held_out], [b[held_out] for b in best])
    # too few held-out sequences with a site: untestable (p = 1), however
    # the few fall (and however a rare motif's best score echoes a common one)
    enough = min(MIN_CARRIERS, held_out.size // 4)
    p_values = np.array(
        [
            min(1.0, 2.0 * min(r.p_value, p_score))
            if h[held_out].sum() >= enough
            else 1.0
            for r, (p_score, _), h in zip(tests, scored, has, strict=True)
        ]
    )
    from_data = np.array([f[3] for f in found], dtype=bool)
    # the order of the fixed sequence: each motif's correlation on the discovery half
    strength = [abs(score_test(t[discovery], b[discovery])[1]) for b in best]
    q = adjusted_p_values(p_values, from_data, strength, n_model)
    t_held = t[held_out]
    above = held_out[t_held > np.median(t_held)]
    below = held_out[t_held < np.median(t_held)]
    motifs, reported = [], []  # and whether each sequence holds a site of each
    n_tests = max(n_examined, len(found))
    for (candidate, sites, signed, _), h, test, (_, rho), pv, qv in zip(
        found, has, tests, scored, p_values, q, strict=True
    ):
        if qv > alpha or (abs(test.effect) < MIN_EFFECT and abs(rho) < MIN_CORRELATION):
            continue
        # the reported PWM: every site, on the motif's strand
        motif = motif_of_sites(
            X,
            sites,
            candidate.length,
            anywhere,
            frac_positive=float(h[above].mean()) if above.size else np.nan,
            frac_negative=float(h[below].mean()) if below.size else np.nan,
            p_value=float(pv),
            q_value=float(qv),
            e_value=float(pv) * n_tests,
            effect=test.effect,
            median_shift=test.median_shift,
            sites=sites,
        )
        # the POIM value of the consensus, negative for a penalised motif
        sign = 1.0 if signed is poim else -1.0
        motif.importance = sign * importance(signed, motif.consensus)
        motifs.append(motif)
        reported.append(h)
    # words counted, for what the reported site motifs leave of the target
    has_sites = np.array(reported, dtype=bool).reshape(len(reported), t.size).T
    motifs += word_motifs(poim, X, t, (discovery, held_out), has_sites, alpha)
    return strongest_first(motifs, lambda m: abs(m.effect), max_motifs)


def _candidates(
    poim: Poim, X: np.ndarray, t: np.ndarray, discovery: np.ndarray, progress: bool
) -> tuple[list, int, int]:
    """The candidate motifs of the discovery half: the data's first, then the model's.

    Parameters
    ----------
    poim : Poim
        POIMs of the regressor.
    X : numpy.ndarray of uint8, shape (n, L)
    t : numpy.ndarray of float64, shape (n,)
    discovery : numpy.ndarray of int
        The discovery half.
    progress : bool

    Returns
    -------
    found : list of (SiteMotif, Sites, Poim, bool)
        Each motif, its sites in ``X``, the model's POIM it rewards (``poim``
        or its negation) and whether the data's seeds made it (a motif of the
        model's seeds whose sites those of a data motif share is dropped).
    n_examined : int
        Seeds examined, of every source.
    n_model : int
        Seeds of the model's POIM examined.
    """
    from .discovery import discover, negated, shared_sites
    from .target_kmers import target_poim

    middle = np.median(t[discovery])
    above, below = t[discovery] > middle, t[discovery] < middle
    penalised = negated(poim)
    # seeds from the data, where a weak model shows none (found anywhere; a
    # positional model's motif then gets the place of its sites)
    data = target_poim(
        X[discovery],
        t[discovery],
        min(poim.max_order, TARGET_ORDER),
        poim.metadata.get("model_reverse_complement") != "False",
    )
    sources = [(data, poim, True), (negated(data), penalised, True)]
    sources += [(poim, poim, False), (penalised, penalised, False)]
    found, n_examined, n_model = [], 0, 0
    for seeds, signed, from_data in sources:
        side, other = (above, below) if signed is poim else (below, above)
        # the other side is no evidence: the held-out half alone is
        motifs, n = discover(seeds, X[discovery[side]], progress, X[discovery[other]])
        n_examined += n
        n_model += 0 if from_data else n
        for motif, _, _ in motifs:
            sites = motif.sites(X)
            if not any(
                shared_sites(sites, motif.length, s, m.length) for m, s, _, _ in found
            ):
                found.append((motif, sites, signed, from_data))
    return found, n_examined, n_model


def adjusted_p_values(
    p_values: ArrayLike, from_data: ArrayLike, strength: ArrayLike, n_model: int
) -> np.ndarray:
    """Adjusted p-values of the data's and the model's motifs (the module notes).

    The data's motifs: a fixed sequence in decreasing ``strength``, each
    adjusted p-value the largest p-value so far; the model's: Benjamini-Hochberg
    q-values over ``n_model`` tests (the motifs' p-values, 1 for the rest).
    Each family at half the level: both doubled (and at most 1).

    Parameters
    ----------
    p_values : array-like of float, shape (n,)
        Each motif's held-out p-value.
    from_data : array-like of bool, shape (n,)
        Whether the data's seeds made it.
    strength : array-like of float, shape (n,)
        The order of the data's motifs (largest first), decided without the
        held-out half.
    n_model : int
        The model's seeds examined.

    Returns
    -------
    numpy.ndarray of float, shape (n,)

    Examples
    --------
    The data's motifs pass one by one until the first that fails; the
    model's share a Benjamini-Hochberg correction over its 100 seeds:

    >>> adjusted_p_values([0.001, 0.02, 0.3, 0.004, 0.0001],
    ...                   [True, True, True, True, False],
    ...                   [0.5, 0.3, 0.2, 0.1, 0.0], 100).round(4).tolist()
    [0.002, 0.04, 0.6, 0.6, 0.02]
    """
    from .evidence import q_values

    p = np.asarray(p_values, dtype=np.float64)
    data = np.asarray(from_data, dtype=bool)
    out = np.ones(p.size)
    rows = np.flatnonzero(data)
    chain = rows[
        np.argsort(-np.asarray(strength, dtype=np.float64)[rows], kind="stable")
    ]
    out[chain] = np.maximum.accumulate(p[chain])
    model = np.flatnonzero(~data)
    if model.size:
        padded = np.r_[p[model], np.ones(max(n_model - model.size, 0))]
        out[model] = q_values(padded)[: model.size]
    return np.minimum(1.0, 2.0 * out)
