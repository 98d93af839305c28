"""Degenerate motifs by contrast: a seed's PWM refined on one class against the other.

`poimkit.motifs.sites.site_motif` builds a motif from the sites of a POIM seed
in one class alone, testing each column against the background letters. That
is exact and sharp for a long or strong motif, but the short, degenerate
motifs of real factors (a homeodomain's ``TAAT``, SOX's ``ACAAT``, half sites)
do not stand out of the background column by column: a 7-mer seed matches few
sequences exactly, its chance matches are as common as its true sites, and
real backgrounds are not uniform. Their sites only stand out of the *other*
class. `contrast_motif` refines a seed's PWM in the way HOMER does:

1. The seed's letters get probability `SEED_PROBABILITY` (the others share the
   rest), flanked by `FLANK_PAD` neutral columns on each side; log-odds are
   taken against the contrast sequences' own letters (so composition is
   never a motif column).
2. Each round scores the best window of every sequence of both sets (allowed
   starts as the seed's, both strands for a strand-symmetric model), chooses
   the threshold with the smallest one-sided hypergeometric p-value of
   "the class holds a site more often than the contrast", among those that
   give at most `MAX_CONTRAST_SITES` of the contrast sequences a site (a looser
   threshold captures composition, not a site), and refits the PWM to the
   class's sites; it stops when the sites no longer change (at most
   `MAX_ROUNDS`).
3. Edge columns with less than `poimkit.motifs.sites.MIN_BITS` at the final
   sites are trimmed and the threshold chosen again. A motif needs
   `poimkit.motifs.sites.MIN_COLUMNS` columns, `poimkit.motifs.sites.MIN_SITES`
   sites, and must still be its seed: at most a third of the seed's kept
   columns may have changed their letter (a refinement that wandered off to
   another word or to composition is not this seed's motif).

The threshold is chosen on the sequences the PWM is fitted to, so the
evidence for the motif must be counted on sequences of both classes it never
saw (`poimkit.motifs.extract`).
"""

from __future__ import annotations

import numpy as np

from ..alphabet import ALPHABET
from .scan import PAD, best_windows, log_odds, site_counts, sites_above
from .sites import MIN_BITS, MIN_COLUMNS, MIN_SITES, SiteMotif, column_bits

#: neutral columns added on each side of the seed before the refinement
FLANK_PAD = 2
#: probability of the seed's letter in its column at the start
SEED_PROBABILITY = 0.7
#: most rounds of scoring and refitting
MAX_ROUNDS = 10
#: largest share of contrast sequences a site threshold may give a site
MAX_CONTRAST_SITES = 0.05
#: shortest seed refined (shorter ones are too unspecific to anchor a motif)
MIN_SEED = 6


def letter_frequencies(X: np.ndarray) -> np.ndarray:
    """Frequencies of A, C, G, T in X (padding not counted), shape (4,).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.

    Returns
    -------
    numpy.ndarray of float64
    """
    counts = np.bincount(X[X < PAD].ravel(), minlength=4)[:4].astype(np.float64)
    return (counts + 1.0) / (counts.sum() + 4.0)


def contrast_threshold(scores: np.ndarray, contrast: np.ndarray) -> float | None:
    """The site threshold that best separates the class from the contrast.

    Over every distinct score, the one whose sites (scores at least it) are
    most significantly more common in ``scores``' sequences (one-sided
    hypergeometric tail), among those giving at most `MAX_CONTRAST_SITES`
    of the contrast sequences and at least `MIN_SITES` of the class's a site.

    Parameters
    ----------
    scores, contrast : numpy.ndarray of float, shape (n,) and (n_contrast,)
        Best window score of each sequence of the class and of the contrast.

    Returns
    -------
    float or None
        The threshold (just below the chosen score), or None if no score
        qualifies.

    Examples
    --------
    >>> s = np.array([5.0] * 10 + [1.0] * 10)
    >>> c = np.array([1.0] * 20)
    >>> contrast_threshold(s, c)
    4.999999999
    """
    from ._hypergeom import log_upper_tail

    both = np.concatenate([scores, contrast])
    is_class = np.concatenate([np.ones(scores.size), np.zeros(contrast.size)])
    order = np.argsort(-both, kind="stable")
    both, is_class = both[order], is_class[order]
    in_class = np.cumsum(is_class)
    taken = np.arange(1, both.size + 1)
    in_contrast = taken - in_class
    distinct = np.append(both[1:] != both[:-1], True) & np.isfinite(both)
    ok = (
        distinct
        & (in_class >= MIN_SITES)
        & (in_contrast <= MAX_CONTRAST_SITES * contrast.size)
    )
    candidates = np.flatnonzero(ok)
    if candidates.size == 0:
        return None
    log_p = log_upper_tail(  # log P(sites in the class >= those seen)
        in_class[candidates].astype(np.int64),
        both.size,
        scores.size,
        taken[candidates].astype(np.int64),
    )
    return float(both[candidates[np.argmin(log_p)]]) - 1e-9


def _seed_log_odds(seed: str, background: np.ndarray) -> np.ndarray:
    """Log-odds of the seed's start PWM, neutral flanks included."""
    width = len(seed) + 2 * FLANK_PAD
    freq = np.tile(background, (width, 1))
    for i, letter in enumerate(seed):
        column = np.full(4, (1.0 - SEED_PROBABILITY) / 3)
        column[ALPHABET.index(letter)] = SEED_PROBABILITY
        freq[FLANK_PAD + i] = column
    return np.log2(freq / background)


def _scored(X, X_contrast, allowed, allowed_rc, lods):
    """Best windows of X (`best_windows`) and the threshold against the contrast."""
    top, best, starts = best_windows(X, allowed, allowed_rc, lods)
    other, _, _ = best_windows(X_contrast, allowed, allowed_rc, lods)
    return top, best, starts, contrast_threshold(top, other)


def _fit(X, X_contrast, allowed, allowed_rc, lods, background):
    """Rounds of scoring and refitting: the final sites' letter counts, or None."""
    width = lods.shape[0]
    previous = counts = None
    for _ in range(MAX_ROUNDS):
        top, best, starts, threshold = _scored(X, X_contrast, allowed, allowed_rc, lods)
        if threshold is None:
            return None
        sites = sites_above(top, best, starts, allowed.size, threshold)
        key = (sites.rows.tobytes(), sites.starts.tobytes(), sites.strands.tobytes())
        if key == previous:
            break
        previous = key
        counts = site_counts(X, sites, width)
        lods = log_odds(counts, background)
    return counts


def _starts(seed_allowed, width, pad, length, both_strands, anywhere):
    """Allowed starts of a motif of ``width`` columns ``pad`` left of the seed."""
    if anywhere:
        allowed = np.arange(length - width + 1, dtype=np.int64)
    else:
        allowed = seed_allowed - pad
        allowed = allowed[(allowed >= 0) & (allowed + width <= length)]
    return allowed, allowed if both_strands else allowed[:0]


def contrast_motif(
    X: np.ndarray,
    X_contrast: np.ndarray,
    seed: str,
    seed_allowed: np.ndarray,
    both_strands: bool,
    anywhere: bool,
) -> SiteMotif | None:
    """The degenerate motif behind a seed, refined against contrast sequences.

    See the module notes.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        The class's discovery sequences (perhaps `poimkit.motifs.scan.padded`).
    X_contrast : numpy.ndarray of uint8, shape (n_contrast, L)
        The other class's discovery sequences, padded to the same width.
    seed : str
        The seed k-mer over ``ACGT``.
    seed_allowed : numpy.ndarray of int64
        0-based starts where the model rewards the seed
        (`poimkit.motifs.sites.allowed_starts`); ignored with ``anywhere``.
    both_strands : bool
        Scan both strands (a strand-symmetric model).
    anywhere : bool
        A position-free model: the motif may start anywhere.

    Returns
    -------
    SiteMotif or None
        Its log-odds are against the contrast sequences' letters.
    """
    if len(seed) < MIN_SEED or X.shape[1] != X_contrast.shape[1]:
        return None
    background = letter_frequencies(X_contrast)
    length = X.shape[1]
    lods = _seed_log_odds(seed, background)
    allowed, allowed_rc = _starts(
        seed_allowed, lods.shape[0], FLANK_PAD, length, both_strands, anywhere
    )
    if allowed.size == 0:
        return None
    counts = _fit(X, X_contrast, allowed, allowed_rc, lods, background)
    if counts is None:
        return None
    strong = np.flatnonzero(column_bits(counts, background) >= MIN_BITS)
    if strong.size == 0 or strong[-1] + 1 - strong[0] < MIN_COLUMNS:
        return None
    lo, hi = int(strong[0]), int(strong[-1]) + 1
    if not _still_the_seed(counts[lo:hi], seed, FLANK_PAD - lo):
        return None
    counts = counts[lo:hi]
    lods = log_odds(counts, background)
    allowed, allowed_rc = _starts(
        seed_allowed, hi - lo, FLANK_PAD - lo, length, both_strands, anywhere
    )
    if allowed.size == 0:
        return None
    threshold = _scored(X, X_contrast, allowed, allowed_rc, lods)[-1]
    if threshold is None:
        return None
    return SiteMotif.of_counts(counts, lods, threshold, allowed, allowed_rc)


def _still_the_seed(counts: np.ndarray, seed: str, offset: int) -> bool:
    """True if the motif's consensus keeps the seed's letters (module notes).

    ``offset`` is the motif column of ``seed[0]``; seed columns trimmed away
    are not compared.
    """
    consensus = counts.argmax(axis=1)
    kept = [
        (offset + i, ALPHABET.index(letter))
        for i, letter in enumerate(seed)
        if 0 <= offset + i < consensus.size
    ]
    if len(kept) < MIN_COLUMNS:
        return False
    changed = sum(int(consensus[c] != letter) for c, letter in kept)
    return changed <= len(kept) // 3
