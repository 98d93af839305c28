"""A motif's features: its best PWM site score where it may lie, per sequence.

For a motif with PWM log-odds P (width w) and allowed placements A, the
feature of a sequence x is s(x) = max over a in A of sum_j P[j, x_{a+j}]
(`motif_features`), the inputs of `poimkit.motifs.model`. A positional motif
(finite ``position``) may start within `SPREADS` standard deviations of its
mean start, on its own strand; a position-free one anywhere (`placements`);
both strands where its sites lie on both (`reads_both_strands`). Log-odds are
against the background letters, with `PSEUDO_SITES` sites of pseudocount
spread by them and a share of background letters mixed in (`motif_log_odds`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .motif import Motif

#: a positional motif's starts: its mean start +- this many SDs (at least 1 letter)
SPREADS = 3.0
#: pseudocount, in sites, added to a PWM's letters by their background share
PSEUDO_SITES = 1.0
#: sites a PWM counts as when its motif has none recorded (a PWM from a file)
DEFAULT_SITES = 100
#: fewest recorded sites from which `localised` places a position-free motif
MIN_LOCAL_SITES = 10
#: a ``counted`` motif's sites: windows scoring at least this share of its
#: best possible score (a word's exact occurrences, for a one-hot PWM)
COUNT_SHARE = 0.75


def motif_log_odds(
    motif: Motif, background: np.ndarray, smoothing: float = 0.0
) -> np.ndarray:
    """Log-odds (bits) of a motif's PWM against the background letters.

    Parameters
    ----------
    motif : Motif
        Its ``pwm`` and ``n_sites`` (`DEFAULT_SITES` if 0).
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities.
    smoothing : float
        Share of background letters mixed into every column, in [0, 1).

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
    """
    n = motif.n_sites or DEFAULT_SITES
    freq = (motif.pwm * n + PSEUDO_SITES * background) / (n + PSEUDO_SITES)
    freq = (1.0 - smoothing) * freq + smoothing * background
    return np.log2(freq / background)


def reads_both_strands(motif: Motif) -> bool:
    """True if a motif's sites lie on both strands.

    Without recorded sites (a motif from a file): True if it is position-free.

    Parameters
    ----------
    motif : Motif

    Returns
    -------
    bool
    """
    if motif.sites is not None:
        return bool(motif.sites.on_both_strands)
    return bool(np.isnan(motif.position))


def localised(motif: Motif, length: int) -> Motif | None:
    """A position-free motif placed where its sites lie, if they cluster.

    Parameters
    ----------
    motif : Motif
        A motif with recorded ``sites`` (at least `MIN_LOCAL_SITES`).
    length : int
        The sequences' one length.

    Returns
    -------
    Motif or None
        The motif with ``position`` its sites' mean start (1-based) and
        ``spread`` their SD (at least 0.5); None if it is positional
        already, ``counted``, has too few sites, or its sites' range of
        +- `SPREADS` SDs would not be narrower than the whole sequence.
    """
    from dataclasses import replace

    sites = motif.sites
    if not np.isnan(motif.position) or sites is None or motif.counted:
        return None
    if sites.starts.size < MIN_LOCAL_SITES:
        return None
    spread = max(float(np.std(sites.starts)), 0.5)
    if 2 * SPREADS * spread >= length - motif.length:
        return None
    return replace(motif, position=float(np.mean(sites.starts)) + 1.0, spread=spread)


def narrowed(motif: Motif, factor: float) -> Motif:
    """A positional motif with its spread times ``factor`` (others unchanged).

    Parameters
    ----------
    motif : Motif
    factor : float
        In (0, 1]: how much of the spread is kept.

    Returns
    -------
    Motif
    """
    from dataclasses import replace

    if np.isnan(motif.position):
        return motif
    return replace(motif, spread=float(motif.spread) * factor)


def placements(
    motif: Motif, length: int, both_strands: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Allowed starts of a motif in sequences of ``length``: given strand, other.

    Parameters
    ----------
    motif : Motif
        A positional motif (finite ``position``: 1-based mean start, with
        ``spread``) or a position-free one (NaN position).
    length : int
        The longest sequence's length.
    both_strands : bool
        Read the motif's reverse complement too (`reads_both_strands`).

    Returns
    -------
    allowed, allowed_rc : numpy.ndarray of int64
        0-based (leftmost) starts read on the given strand and as the
        reverse complement (empty for a motif read on one strand).
    """
    last = length - motif.length
    allowed = np.arange(max(last + 1, 0), dtype=np.int64)
    if not np.isnan(motif.position):
        half = max(SPREADS * float(motif.spread), 1.0)
        centre = float(motif.position) - 1.0
        allowed = allowed[(allowed >= centre - half) & (allowed <= centre + half)]
    return allowed, allowed if both_strands else allowed[:0]


def motif_features(
    X: np.ndarray,
    motifs: Sequence[Motif],
    background: np.ndarray,
    both_strands: Sequence[bool] | None = None,
    smoothing: float = 0.0,
) -> np.ndarray:
    """Best site score of every motif in every sequence, shape (n, M).

    A ``counted`` motif's column is instead its number of sites: allowed
    windows (on each strand read) scoring at least `COUNT_SHARE` of its best
    possible score.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.
    motifs : sequence of Motif
        The motifs (`placements`, `motif_log_odds`).
    background : numpy.ndarray of float, shape (4,)
        Background letters of the log-odds.
    both_strands : sequence of bool, optional
        Per motif, read its reverse complement too; default
        `reads_both_strands` of each.
    smoothing : float
        Of `motif_log_odds`.

    Returns
    -------
    numpy.ndarray of float64
        A sequence with no allowed window scores the motif's lowest possible
        score.
    """
    from .scan import best_windows

    if both_strands is None:
        both_strands = [reads_both_strands(m) for m in motifs]
    out = np.empty((X.shape[0], len(motifs)))
    for j, (motif, both) in enumerate(zip(motifs, both_strands, strict=True)):
        lods = motif_log_odds(motif, background, smoothing)
        allowed, allowed_rc = placements(motif, X.shape[1], both)
        if motif.counted:
            out[:, j] = site_count(X, allowed, allowed_rc, lods)
            continue
        score, _, _ = best_windows(X, allowed, allowed_rc, lods)
        out[:, j] = np.where(np.isfinite(score), score, lods.min(axis=1).sum())
    return out


def site_count(
    X: np.ndarray, allowed: np.ndarray, allowed_rc: np.ndarray, lods: np.ndarray
) -> np.ndarray:
    """Windows scoring at least `COUNT_SHARE` of the best possible, per row.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.
    allowed, allowed_rc : numpy.ndarray of int64
        Starts read on the given strand and as the reverse complement.
    lods : numpy.ndarray of float, shape (m, 4)
        The motif's log-odds.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
    """
    from .scan import window_scores

    least = COUNT_SHARE * lods.max(axis=1).sum()
    count = (window_scores(X, allowed, lods) >= least).sum(axis=1)
    if allowed_rc.size:
        rc = np.ascontiguousarray(lods[::-1, ::-1])
        count += (window_scores(X, allowed_rc, rc) >= least).sum(axis=1)
    return count.astype(np.float64)


def best_possible(
    motifs: Sequence[Motif], background: np.ndarray, smoothing: float = 0.0
) -> np.ndarray:
    """Each motif's highest window score (its consensus), shape (M,).

    Parameters
    ----------
    motifs : sequence of Motif
    background : numpy.ndarray of float, shape (4,)
    smoothing : float
        Of `motif_log_odds`.

    Returns
    -------
    numpy.ndarray of float64
    """
    return np.array(
        [motif_log_odds(m, background, smoothing).max(axis=1).sum() for m in motifs]
    )


def site_probability(scores: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """The chance that a window of log-odds ``scores`` (bits) is a site.

    ``1 / (1 + 2^(threshold - score))``: the posterior of "site" against
    "background" for a window whose log2 likelihood ratio is the score, with
    prior odds ``2^-threshold`` (the threshold is where it reaches 1/2).

    Parameters
    ----------
    scores : numpy.ndarray of float, shape (n, M)
        Best window scores (`motif_features`).
    threshold : numpy.ndarray of float, shape (M,)
        Per motif, in bits.

    Returns
    -------
    numpy.ndarray of float64, shape (n, M)

    Examples
    --------
    >>> site_probability(np.array([[3.0, 0.0]]), np.array([3.0, 1.0])).tolist()
    [[0.5, 0.3333333333333333]]
    """
    return 1.0 / (1.0 + np.exp2(np.clip(threshold - scores, -60.0, 60.0)))
