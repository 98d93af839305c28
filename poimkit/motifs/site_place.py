"""Where a positional motif's sites gather, with its chance sites set aside.

A motif's sites are its planted (or bound) copies and the matches that occur
by chance anywhere in a sequence. The chance ones are few for a long motif,
but a short one (six letters, or a degenerate site) matches by chance in
many sequences, and their starts, spread evenly over the sequence, pull the
mean start towards the middle and widen the spread: a 6-letter site planted
at 67 +- 2 read as 63.7 +- 14.6. `site_place` fits the starts as a mixture of
a normal distribution (the sites that gather) and a uniform one over every
start (chance), by expectation-maximisation, and reports the normal part.
"""

from __future__ import annotations

import numpy as np

#: narrowest spread reported (letters): one start, with rounding
MIN_SPREAD = 0.5
#: fewest sites fitted as a mixture (fewer: their plain mean and SD)
MIN_SITES = 10
#: EM stops when the mean moves less than this (letters), or at `MAX_STEPS`
TOLERANCE = 1e-4
MAX_STEPS = 200
#: width (letters) of the bins whose fullest one starts the fit
START_BIN = 5
#: the mixture's log-likelihood must beat chance alone by this many log(n)
#: (BIC's 1.5 for three parameters, doubled)
EVIDENCE = 3.0


def site_place(starts: np.ndarray, n_starts: int) -> tuple[float, float]:
    """Mean start and spread of the sites that gather (0-based starts).

    Parameters
    ----------
    starts : numpy.ndarray of int
        Every site's start.
    n_starts : int
        The number of possible starts (sequence length - width + 1): the
        chance sites are uniform over them.

    Returns
    -------
    mean : float
        Mean start of the normal part (the plain mean if fewer than
        `MIN_SITES` sites, or if they do not gather more than chance would;
        NaN without sites).
    spread : float
        Its standard deviation, at least `MIN_SPREAD`.

    Examples
    --------
    Sites at 60-62 in half of the sequences and chance matches anywhere in
    0-94:

    >>> rng = np.random.default_rng(0)
    >>> starts = np.r_[rng.integers(60, 63, 300), rng.integers(0, 95, 300)]
    >>> round(float(starts.mean()), 1)
    54.7
    >>> [round(v, 1) for v in site_place(starts, 95)]
    [61.1, 0.9]
    """
    x = np.asarray(starts, dtype=np.float64)
    if x.size == 0:
        return np.nan, np.nan
    plain = float(x.mean()), max(float(x.std()), MIN_SPREAD)
    if x.size < MIN_SITES or n_starts < 2:
        return plain
    bins = np.bincount((x // START_BIN).astype(np.int64))
    mean = (np.argmax(bins) + 0.5) * START_BIN
    spread, share, chance = float(START_BIN), 0.5, 1.0 / n_starts
    for _ in range(MAX_STEPS):
        normal = share * _density(x, mean, spread)
        r = normal / (normal + (1.0 - share) * chance)
        weight = r.sum()
        if weight < 2:
            return plain
        moved = mean
        mean = float((r * x).sum() / weight)
        spread = max(float(np.sqrt((r * (x - mean) ** 2).sum() / weight)), MIN_SPREAD)
        share = min(weight / x.size, 1.0 - 1e-9)
        if abs(mean - moved) < TOLERANCE:
            break
    mixture = np.log(share * _density(x, mean, spread) + (1.0 - share) * chance).sum()
    # the normal part must be worth its three parameters against chance alone
    if mixture - x.size * np.log(chance) < EVIDENCE * np.log(x.size):
        return plain
    return mean, spread


def _density(x: np.ndarray, mean: float, spread: float) -> np.ndarray:
    """The normal density at ``x``."""
    z = (x - mean) / spread
    return np.exp(-0.5 * z * z) / (spread * np.sqrt(2.0 * np.pi))
