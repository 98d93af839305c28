"""Evidence for a motif: are sites more common in positives than in negatives.

Null hypothesis of each motif: holding a site is independent of the label.
One-sided Fisher exact test on the 2 x 2 table (site or not, positive or
not) of sequences the motif was not counted from, Benjamini-Hochberg control
of the false discovery rate over every seed examined
(`poimkit.extract_motifs`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


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
