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
motif's p-value is the smaller of the two, doubled (Bonferroni);
Benjamini-Hochberg runs over every seed examined, of every source and sign
(a seed that made no motif counts as a test with p = 1): the model, and so
its POIM's seeds, saw the held-out half too, so its candidates alone would
understate the family. A motif is reported if its q-value is at most
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
    from .discovery import discover, importance, negated, shared_sites
    from .evidence import q_values, score_tests, shift_test
    from .scan import best_windows, motif_of_sites
    from .target_kmers import target_poim
    from .words import word_motifs

    anywhere = poim.position_free
    order = rng.permutation(t.size)
    half = t.size // 2
    discovery, held_out = np.sort(order[:half]), np.sort(order[half:])
    middle = np.median(t[discovery])
    found = []  # (SiteMotif, its sites in all sequences, the model's signed POIM)
    n_examined = 0
    above, below = t[discovery] > middle, t[discovery] < middle
    penalised = negated(poim)
    # seeds from the data too, where a weak model shows none (found anywhere;
    # a positional model's motif then gets the place of its sites)
    data = target_poim(
        X[discovery],
        t[discovery],
        min(poim.max_order, TARGET_ORDER),
        poim.metadata.get("model_reverse_complement") != "False",
    )
    sources = [(poim, poim), (penalised, penalised)]
    sources += [(data, poim), (negated(data), penalised)]
    for seeds, signed in sources:
        side, other = (above, below) if signed is poim else (below, above)
        # the other side is no evidence: the held-out half alone is
        motifs, n = discover(seeds, X[discovery[side]], progress, X[discovery[other]])
        n_examined += n
        for motif, _, _ in motifs:
            sites = motif.sites(X)
            if not any(
                shared_sites(sites, motif.length, s, m.length) for m, s, _ in found
            ):
                found.append((motif, sites, signed))
    has = np.zeros((len(found), t.size), dtype=bool)  # sequences with a site
    for row, (_, sites, _) in zip(has, found, strict=True):
        row[sites.rows] = True
    tests = [shift_test(t[held_out], h[held_out]) for h in has]
    X_held = X[held_out]
    scored = score_tests(
        t[held_out],
        [
            best_windows(X_held, m.allowed, m.allowed_rc, m.log_odds)[0]
            for m, _, _ in found
        ],
    )
    # every seed examined counts as a test (one that made no motif has p = 1):
    # the model's seeds come from a model that saw the held-out half too
    n_tests = max(n_examined, len(found))
    # too few held-out sequences with a site: untestable (p = 1), however
    # the few fall (and however a rare motif's best score echoes a common one)
    enough = min(MIN_CARRIERS, held_out.size // 4)
    p_values = [
        min(1.0, 2.0 * min(r.p_value, p_score)) if h[held_out].sum() >= enough else 1.0
        for r, (p_score, _), h in zip(tests, scored, has, strict=True)
    ]
    q = q_values(p_values + [1.0] * (n_tests - len(found)))[: len(found)]
    t_held = t[held_out]
    above = held_out[t_held > np.median(t_held)]
    below = held_out[t_held < np.median(t_held)]
    motifs, reported = [], []  # and whether each sequence holds a site of each
    for (candidate, sites, signed), h, test, (_, rho), pv, qv in zip(
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
