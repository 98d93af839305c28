"""Evidence for a motif: are sites more common in positives than in negatives.

Null hypothesis of each motif: holding a site is independent of the label.
One-sided Fisher exact test on the 2 x 2 table (site or not, positive or
not) of sequences the motif was not counted from, Benjamini-Hochberg control
of the false discovery rate over every seed examined
(`poimkit.extract_motifs`).

For a continuous target the null hypothesis is that holding a site does not
shift the target: a two-sided Mann-Whitney U test of the targets of sequences
with a site against those without (`shift_test`), its effect size the
rank-biserial correlation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike


class ShiftTest(NamedTuple):
    """Does holding a site shift a continuous target (`shift_test`)."""

    #: two-sided Mann-Whitney U p-value
    p_value: float
    #: rank-biserial correlation, in [-1, 1]: positive if sequences with a
    #: site have the larger targets
    effect: float
    #: median target with a site minus median without (target units)
    median_shift: float


def enrichment_p_value(
    n_pos_site: int, n_pos: int, n_neg_site: int, n_neg: int
) -> float:
    """One-sided Fisher p-value that positives hold a site more often.

    Parameters
    ----------
    n_pos_site, n_pos : int
        Positives with a site, and all positives.
    n_neg_site, n_neg : int
        Negatives with a site, and all negatives.

    Returns
    -------
    float

    Examples
    --------
    >>> round(enrichment_p_value(8, 10, 1, 10), 4)
    0.0027
    >>> enrichment_p_value(0, 10, 0, 10)
    1.0
    """
    from scipy.stats import fisher_exact

    table = [[n_pos_site, n_pos - n_pos_site], [n_neg_site, n_neg - n_neg_site]]
    return float(fisher_exact(table, alternative="greater").pvalue)


def q_values(p_values: ArrayLike) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values) of a family of tests.

    Parameters
    ----------
    p_values : array-like of float
        The p-values of the family.

    Returns
    -------
    numpy.ndarray of float64
        One q-value per p-value, in the same order.

    Examples
    --------
    >>> q_values([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.04, 0.04]
    """
    p = np.asarray(p_values, dtype=np.float64)
    if p.size == 0:
        return p
    order = np.argsort(p)
    ranked = p[order] * p.size / np.arange(1, p.size + 1)
    q = np.minimum.accumulate(ranked[::-1])[::-1]
    out = np.empty_like(p)
    out[order] = np.minimum(q, 1.0)
    return out


def shift_test(targets: ArrayLike, has_site: ArrayLike) -> ShiftTest:
    """Two-sided rank test that sequences with a site have other targets.

    Mann-Whitney U of the targets with a site against those without. The
    effect size is the rank-biserial correlation ``2 U / (n1 n0) - 1`` (U of
    the sequences with a site, ties counting one half): the probability that
    a sequence with a site has the larger target, minus that it has the
    smaller one. With no sequence on one side: p = 1, effect 0, shift NaN.

    Parameters
    ----------
    targets : array-like of float, shape (n,)
        The target of every sequence.
    has_site : array-like of bool, shape (n,)
        True for the sequences holding a site.

    Returns
    -------
    ShiftTest
        ``(p_value, effect, median_shift)``.

    Examples
    --------
    >>> t = shift_test([5.0, 6, 7, 1, 2, 3], [True, True, True, False, False, False])
    >>> round(t.p_value, 3), t.effect, t.median_shift
    (0.1, 1.0, 4.0)
    >>> shift_test([1.0, 2, 3], [False, False, False])
    ShiftTest(p_value=1.0, effect=0.0, median_shift=nan)
    """
    from scipy.stats import mannwhitneyu

    t = np.asarray(targets, dtype=np.float64)
    has = np.asarray(has_site, dtype=bool)
    with_site, without = t[has], t[~has]
    if with_site.size == 0 or without.size == 0:
        return ShiftTest(1.0, 0.0, float("nan"))
    u, p = mannwhitneyu(with_site, without, alternative="two-sided")
    return ShiftTest(
        float(p),
        float(2.0 * u / (with_site.size * without.size) - 1.0),
        float(np.median(with_site) - np.median(without)),
    )


def score_test(targets: ArrayLike, scores: ArrayLike) -> tuple[float, float]:
    """Two-sided test that the best site score goes with the target.

    Spearman's rank correlation of each sequence's best window score (its
    strongest match, however weak) with its target. Unlike `shift_test` it
    needs no threshold: a degenerate motif common enough that most sequences
    hold a match by chance still ranks the planted sites above the chance
    ones.

    Parameters
    ----------
    targets : array-like of float, shape (n,)
    scores : array-like of float, shape (n,)
        The best score of every sequence (``-inf``: no window).

    Returns
    -------
    p_value : float
        1 where either side is constant.
    correlation : float
        Spearman's rho (0 where either side is constant).

    Examples
    --------
    >>> t = [1.0, 2, 3, 4, 5, 6, 7, 8]
    >>> p, rho = score_test(t, [0.1, 0.3, 0.2, 0.5, 0.4, 0.7, 0.6, 0.9])
    >>> round(rho, 3), p < 0.01
    (0.929, True)
    >>> score_test([1.0, 2, 3], [0.5, 0.5, 0.5])
    (1.0, 0.0)
    """
    from scipy.stats import spearmanr

    t = np.asarray(targets, dtype=np.float64)
    s = _scored(np.asarray(scores, dtype=np.float64).reshape(1, -1))[0]
    if np.ptp(t) == 0 or np.ptp(s) == 0:
        return 1.0, 0.0
    result = spearmanr(s, t)
    return float(result.pvalue), float(result.statistic)


def score_tests(targets: ArrayLike, scores: ArrayLike) -> list[tuple[float, float]]:
    """`score_test` of each motif for what the motifs stronger than it leave.

    A motif that shares letters with a stronger one scores higher wherever
    the stronger one sits, so its best score goes with the target too. The
    motifs are taken strongest first (by their own `score_test`); each is
    tested against the target's residual after a least-squares fit on the
    best scores of the motifs before it, so a partial copy of a stronger
    motif has nothing left to explain.

    Parameters
    ----------
    targets : array-like of float, shape (n,)
    scores : array-like of float, shape (n_motifs, n)
        The best score of every sequence for each motif.

    Returns
    -------
    list of (p_value, correlation)
        One per motif, in the given order.

    Examples
    --------
    A motif and a half copy of it (its score a noisy echo of the first's):
    alone, each goes with the target; after the first, the copy does not.

    >>> rng = np.random.default_rng(0)
    >>> first = rng.normal(size=400)
    >>> copy = first + rng.normal(size=400)
    >>> t = first + rng.normal(size=400)
    >>> [score_test(t, s)[0] < 1e-6 for s in (first, copy)]
    [True, True]
    >>> [p < 0.01 for p, _ in score_tests(t, [first, copy])]
    [True, False]
    """
    t = np.asarray(targets, dtype=np.float64)
    S = _scored(np.asarray(scores, dtype=np.float64).reshape(-1, t.size))
    alone = [score_test(t, s) for s in S]
    order = np.argsort([p for p, _ in alone], kind="stable")
    tests = list(alone)
    for rank, j in enumerate(order[1:], start=1):
        design = np.column_stack([np.ones(t.size), S[order[:rank]].T])
        fit, *_ = np.linalg.lstsq(design, t, rcond=None)
        tests[j] = score_test(t - design @ fit, S[j])
    return tests


def _scored(S: np.ndarray) -> np.ndarray:
    """Each row's scores, a sequence without a window (``-inf``) below the rest.

    The row's lowest finite score minus 1 (-1 for a row with none), so that
    ranks and least-squares fits see it as the weakest match.
    """
    finite = np.isfinite(S)
    floor = np.min(np.where(finite, S, np.inf), axis=1, keepdims=True)
    floor = np.where(np.isfinite(floor), floor, 0.0) - 1.0
    return np.where(finite, S, floor)
