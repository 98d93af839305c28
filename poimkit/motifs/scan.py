"""Scanning sequences with a PWM: windows, log-odds scores and sites.

All on integer-coded sequences. A motif's log-odds (`log_odds`) are bits on
a grid of `SCORE_GRID`, so that `score_threshold` gives the exact lowest
score whose chance under the background is at most p; `scan` finds the best
window of each sequence on either strand that reaches it, as `Sites`, and
`site_counts` counts the letters of such sites read on the motif's strand
(`motif_of_sites`: the motif they report).

Records of different lengths are one array padded after each record's end
with `PAD` (`padded`); a window reaching into the padding is never a site,
and `n_windows` counts the windows that fit in the records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .motif import Motif

#: pseudocount (in sites) spread over the letters by their background share
PSEUDOCOUNT = 0.5
#: window letters scored at once (`window_scores`)
CHUNK_LETTERS = 1 << 22
#: log-odds are multiples of this many bits
SCORE_GRID = 0.01
#: code of the padding after a record's end (`padded`)
PAD = 4


def padded(seqs: list[np.ndarray]) -> np.ndarray:
    """Records of any lengths as one array, `PAD` after each record's end.

    Parameters
    ----------
    seqs : list of numpy.ndarray of uint8
        Letter codes (0..3) of each record.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, longest length)
        Row i holds record i from position 0; sites keep its coordinates.

    Examples
    --------
    >>> padded([np.array([0, 1, 2]), np.array([3])]).tolist()
    [[0, 1, 2], [3, 4, 4]]
    """
    X = np.full((len(seqs), max(x.size for x in seqs)), PAD, dtype=np.uint8)
    for row, x in zip(X, seqs, strict=True):
        row[: x.size] = x
    return X


def record_lengths(X: np.ndarray) -> np.ndarray:
    """Length of each record of a (possibly `padded`) array, shape (n,).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, `PAD` after a record's end.

    Returns
    -------
    numpy.ndarray of int64
    """
    return (X < PAD).sum(axis=1).astype(np.int64)


def n_windows(
    X: np.ndarray, starts: np.ndarray, width: int, lengths: np.ndarray | None = None
) -> float:
    """Mean number of windows per record: starts whose window fits in the record.

    The number of chances a record has to hold a site by chance; for records
    of one length, where every start fits, ``starts.size``.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `padded`.
    starts : numpy.ndarray of int
        0-based (leftmost) window starts, each at most ``L - width``.
    width : int
        Window length.
    lengths : numpy.ndarray of int64, optional
        `record_lengths` of X, if known (a scan of many motifs reads them
        once instead of once per motif).

    Returns
    -------
    float

    Examples
    --------
    >>> X = padded([np.zeros(6, np.uint8), np.zeros(3, np.uint8)])
    >>> n_windows(X, np.arange(4), 3)  # 4 windows in the first, 1 in the second
    2.5
    """
    if lengths is None:
        if not (X >= PAD).any():
            return float(starts.size)
        lengths = record_lengths(X)
    ends = np.sort(starts) + width
    return float(np.searchsorted(ends, lengths, side="right").mean())


@dataclass
class Sites:
    """Sites of a motif: the best window of each sequence that holds one.

    Parameters
    ----------
    rows : numpy.ndarray of int64
        Sequence (row) indices, ascending.
    starts : numpy.ndarray of int64
        0-based start of the site in its sequence.
    scores : numpy.ndarray of float64
        Log-odds score of the site (bits).
    strands : numpy.ndarray of int8, optional
        1 where the site reads as the motif, -1 where its reverse complement
        does (the start is then that of the reverse complement's first
        letter on the given strand, its leftmost position). Default: all 1.
    """

    rows: np.ndarray
    starts: np.ndarray
    scores: np.ndarray
    strands: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.strands is None:
            self.strands = np.ones(self.rows.size, dtype=np.int8)

    @property
    def on_both_strands(self) -> bool:
        """True if some site reads as the motif's reverse complement."""
        return bool((self.strands < 0).any())

    def take(self, keep: np.ndarray) -> Sites:
        """The sites selected by a mask or an index array.

        Parameters
        ----------
        keep : numpy.ndarray of bool or int
            Boolean mask over the sites, or their indices.

        Returns
        -------
        Sites
        """
        return Sites(
            self.rows[keep], self.starts[keep], self.scores[keep], self.strands[keep]
        )

    def merged(self, other: Sites) -> Sites:
        """These sites and those of ``other`` (the other strand), by row.

        Parameters
        ----------
        other : Sites
            Sites read on the other strand: their strands are flipped.

        Returns
        -------
        Sites
            Ordered by row (stable: these sites first within a row).
        """
        rows = np.concatenate([self.rows, other.rows])
        order = np.argsort(rows, kind="stable")
        return Sites(
            rows[order],
            np.concatenate([self.starts, other.starts])[order],
            np.concatenate([self.scores, other.scores])[order],
            np.concatenate([self.strands, -other.strands])[order],
        )


def windows(X: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """Letter codes of the windows ``X[:, s:s+width]``, shape (n, n_starts, width).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes.
    starts : numpy.ndarray of int
        0-based window starts, each at most ``L - width``.
    width : int
        Window length.

    Returns
    -------
    numpy.ndarray, shape (n, n_starts, width)
    """
    return X[:, starts[:, None] + np.arange(width)]


def window_scores(
    X: np.ndarray, starts: np.ndarray, log_odds: np.ndarray
) -> np.ndarray:
    """Summed log-odds of every window, shape (n, n_starts).

    In row chunks of at most `CHUNK_LETTERS` window letters, so memory stays
    small for long sequences with many allowed starts.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `padded`.
    starts : numpy.ndarray of int
        0-based window starts.
    log_odds : numpy.ndarray of float, shape (m, 4)
        Score of each letter at each motif column.

    Returns
    -------
    numpy.ndarray of float64, shape (n, n_starts)
        ``-inf`` for windows reaching past a record's end.
    """
    width = log_odds.shape[0]
    # a window reaching into the padding scores -inf: it is never a site
    table = np.hstack([log_odds, np.full((width, 1), -np.inf)])
    out = np.empty((X.shape[0], starts.size))
    cols = np.arange(width)
    step = max(1, CHUNK_LETTERS // max(1, starts.size * width))
    for lo in range(0, X.shape[0], step):
        codes = windows(X[lo : lo + step], starts, width)
        out[lo : lo + step] = table[cols, codes].sum(axis=-1)
    return out


def letter_counts(codes: np.ndarray) -> np.ndarray:
    """Counts of A, C, G, T per column of aligned sites ``(n, m)`` -> ``(m, 4)``.

    Parameters
    ----------
    codes : numpy.ndarray of int, shape (n, m)
        Letters of n aligned sites; other values (4: outside the sequence)
        are not counted.

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
    """
    return (codes[:, :, None] == np.arange(4)).sum(axis=0).astype(np.float64)


def site_counts(X: np.ndarray, sites: Sites, width: int) -> np.ndarray:
    """Letter counts of the aligned sites, read on the motif's strand, (width, 4).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        The sequences the sites are in.
    sites : Sites
        Sites of a motif of ``width`` columns.
    width : int
        Number of motif columns.

    Returns
    -------
    numpy.ndarray of float64, shape (width, 4)
    """
    codes = oriented(
        X, sites.rows, sites.starts, sites.strands, width, np.arange(width)
    )
    return letter_counts(codes)


def motif_of_sites(
    X: np.ndarray, sites: Sites, width: int, anywhere: bool, /, **stats
) -> Motif:
    """The reported motif of found sites: their PWM, place and spread.

    The place and spread are those of the sites that gather, chance matches
    set aside (`poimkit.motifs.site_place.site_place`).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        The sequences the sites are in.
    sites : Sites
        Every site of the motif, read on the motif's strand.
    width : int
        Number of motif columns.
    anywhere : bool
        Position-free model: no position or spread (NaN).
    **stats
        The other `Motif` fields (test figures; ``sites`` may be another set).

    Returns
    -------
    Motif
    """
    from .motif import Motif
    from .site_place import site_place

    counts = site_counts(X, sites, width)
    place, spread = np.nan, np.nan
    if not anywhere:
        place, spread = site_place(sites.starts, X.shape[1] - width + 1)
    return Motif(
        counts / counts.sum(axis=1, keepdims=True),
        position=place + 1.0,
        spread=spread,
        n_sites=int(sites.rows.size),
        **stats,
    )


def log_odds(counts: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Bits of the pseudocounted frequencies over the background letters.

    Rounded to `SCORE_GRID`, so that window scores are exact multiples of it
    and `score_threshold` holds exactly for them.

    Parameters
    ----------
    counts : numpy.ndarray of float, shape (m, 4)
        Letter counts per motif column.
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities; `PSEUDOCOUNT` sites are spread
        over the letters by these shares.

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
    """
    n = counts.sum(axis=1, keepdims=True)
    freq = (counts + PSEUDOCOUNT * background) / (n + PSEUDOCOUNT)
    return np.round(np.log2(freq / background) / SCORE_GRID) * SCORE_GRID


def score_threshold(
    log_odds_: np.ndarray, background: np.ndarray, p: float
) -> tuple[float, float]:
    """Lowest score whose chance of being reached under the background is <= p.

    The exact distribution of the summed log-odds of a background window
    (independent letters) for log-odds on the grid of `SCORE_GRID` bits (as
    `log_odds` gives them); capped at the best score (the consensus alone)
    when even that is more likely than p.

    Parameters
    ----------
    log_odds_ : numpy.ndarray of float, shape (m, 4)
        Log-odds on the grid of `SCORE_GRID`.
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities.
    p : float
        Largest chance of a background window reaching the threshold.

    Returns
    -------
    threshold : float
    chance : float
        The chance of reaching it (above p only where capped).
    """
    low, tail = score_tail(log_odds_, background)
    ok = np.flatnonzero(tail <= p)
    i = ok[0] if ok.size else tail.size - 1
    return (low + i) * SCORE_GRID - 1e-9, float(tail[i])


def score_tail(log_odds_: np.ndarray, background: np.ndarray) -> tuple[int, np.ndarray]:
    """The exact upper tail of a background window's score, on the score grid.

    Parameters
    ----------
    log_odds_ : numpy.ndarray of float, shape (m, 4)
        Log-odds on the grid of `SCORE_GRID`.
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities (independent letters).

    Returns
    -------
    low : int
        The lowest score, in grid steps.
    tail : numpy.ndarray of float64
        ``tail[i]``: the chance that a window scores at least ``low + i``
        grid steps.

    Examples
    --------
    >>> low, tail = score_tail(np.array([[1.0, 0, 0, 0]]), np.full(4, 0.25))
    >>> low, float(tail[0]), float(tail[100])
    (0, 1.0, 0.25)
    """
    from ._scan import score_distribution

    ints = np.rint(log_odds_ / SCORE_GRID).astype(np.int64)
    low = ints.min(axis=1)
    span = ints - low[:, None]
    dist = np.zeros(int(span.max(axis=1).sum()) + 1)
    score_distribution(span, np.ascontiguousarray(background, dtype=float), dist)
    return int(low.sum()), np.cumsum(dist[::-1])[::-1]


def strand_tables(log_odds_: np.ndarray) -> np.ndarray:
    """The log-odds for both strands, with ``-inf`` for the codes of N and padding.

    Parameters
    ----------
    log_odds_ : numpy.ndarray of float, shape (m, 4)
        The motif's log-odds.

    Returns
    -------
    numpy.ndarray of float64, shape (2, m, 5)
        ``[0]`` the motif's, ``[1]`` its reverse complement's; column 4
        (N in a genome, `PAD` in padded records) is ``-inf``.

    Examples
    --------
    >>> t = strand_tables(np.array([[1.0, 2.0, 3.0, 4.0]]))
    >>> t[1, 0].tolist()
    [4.0, 3.0, 2.0, 1.0, -inf]
    """
    tables = np.full((2, log_odds_.shape[0], PAD + 1), -np.inf)
    tables[0, :, :4] = log_odds_
    tables[1, :, :4] = log_odds_[::-1, ::-1]
    return tables


def best_windows(
    X: np.ndarray,
    allowed: np.ndarray,
    allowed_rc: np.ndarray,
    log_odds_: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The best window of every row, on either strand, and its score.

    A window read as the reverse complement is scored with the reversed and
    complemented log-odds; ties go to the given strand, and a window reaching
    into the padding never counts.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `padded`.
    allowed, allowed_rc : numpy.ndarray of int
        0-based (leftmost) starts of windows read on the given strand, and as
        the reverse complement.
    log_odds_ : numpy.ndarray of float, shape (m, 4)
        The motif's log-odds.

    Returns
    -------
    score : numpy.ndarray of float64, shape (n,)
        The best window's score; ``-inf`` for a row without a window.
    best : numpy.ndarray of int64, shape (n,)
        Its index in ``starts``: below ``allowed.size`` on the given strand.
    starts : numpy.ndarray of int64
        ``allowed`` then ``allowed_rc``.
    """
    from ._best_window import best_window_kernel

    lods = np.ascontiguousarray(log_odds_, dtype=np.float64)
    starts = np.concatenate([allowed, allowed_rc]).astype(np.int64)
    if starts.size and (starts.min() < 0 or starts.max() + lods.shape[0] > X.shape[1]):
        raise ValueError("a window start lies outside the sequences")
    tables = np.stack([lods, np.ascontiguousarray(lods[::-1, ::-1])])
    score = np.empty(X.shape[0])
    best = np.empty(X.shape[0], dtype=np.int64)
    best_window_kernel(
        np.ascontiguousarray(X, dtype=np.uint8),
        starts,
        allowed.size,
        tables,
        score,
        best,
    )
    return score, best, starts


def scan(
    X: np.ndarray,
    allowed: np.ndarray,
    allowed_rc: np.ndarray,
    log_odds_: np.ndarray,
    threshold: float,
) -> Sites:
    """The best window of each row, on either strand, scoring at least threshold.

    A window read as the reverse complement is scored with the reversed and
    complemented log-odds; ties go to the given strand.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes.
    allowed : numpy.ndarray of int
        0-based starts of windows read on the given strand.
    allowed_rc : numpy.ndarray of int
        0-based (leftmost) starts of windows read as the reverse complement.
    log_odds_ : numpy.ndarray of float, shape (m, 4)
        The motif's log-odds.
    threshold : float
        Lowest score of a site.

    Returns
    -------
    Sites
    """
    top, best, starts = best_windows(X, allowed, allowed_rc, log_odds_)
    return sites_above(top, best, starts, allowed.size, threshold)


def sites_above(
    top: np.ndarray,
    best: np.ndarray,
    starts: np.ndarray,
    n_forward: int,
    threshold: float,
) -> Sites:
    """The best windows (`best_windows`) that score at least threshold, as Sites.

    Parameters
    ----------
    top, best, starts : numpy.ndarray
        `best_windows`' score, window index and starts.
    n_forward : int
        How many of ``starts`` are read on the given strand (the first ones).
    threshold : float
        Lowest score of a site.

    Returns
    -------
    Sites
    """
    rows = np.flatnonzero(top >= threshold)
    strands = np.where(best[rows] < n_forward, 1, -1).astype(np.int8)
    return Sites(rows, starts[best[rows]], top[rows], strands)


def oriented(
    X: np.ndarray,
    rows: np.ndarray,
    starts: np.ndarray,
    strands: np.ndarray,
    width: int,
    columns: np.ndarray,
) -> np.ndarray:
    """Letters of motif columns at sites, read on each site's strand.

    A site on strand -1 with leftmost start s reads column c at position
    ``s + width - 1 - c``, complemented.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes.
    rows, starts, strands : numpy.ndarray
        The sites, as in `Sites`.
    width : int
        Number of motif columns.
    columns : numpy.ndarray of int
        Offsets from the motif's first column; they may lie outside
        ``0..width-1`` (flanks).

    Returns
    -------
    numpy.ndarray of int64, shape (n_sites, len(columns))
        Letter codes; 4 outside the sequence (and in its padding).
    """
    pos = np.where(
        strands[:, None] > 0,
        starts[:, None] + columns,
        starts[:, None] + width - 1 - columns,
    )
    inside = (pos >= 0) & (pos < X.shape[1])
    letters = X[rows[:, None], np.clip(pos, 0, X.shape[1] - 1)].astype(np.int64)
    inside &= letters < PAD
    letters = np.where(strands[:, None] > 0, letters, 3 - letters)
    return np.where(inside, letters, 4)
