"""Motifs from sites: real occurrences in the sequences, where the model values them.

A POIM seed (a k-mer and where the model rewards it) becomes a motif in three
steps, all on integer-coded sequences:

1. **Where.** The seed's POIM profile ``Q(z, j)`` over starts j says where the
   model rewards the seed; the starts with at least `ALLOWED_FRACTION` of its
   peak are the motif's *allowed starts*. A position-free model
   (`poimkit.GkmSVC`) rewards a seed anywhere: every start of every record,
   which may have any lengths (`poimkit.motifs.scan.padded`).
2. **Which columns.** Windows at allowed starts that match the seed (up to
   `tolerated` mismatches) in the discovery positives are the first sites. A
   column belongs to the motif if its letters at sites chosen *without
   looking at it* differ from the background: at least `MIN_BITS` bits of
   relative entropy and a G-test p-value below `COLUMN_P`. Seed columns are
   tested leaving each one out of the match; flanking columns (up to `FLANK`
   on each side) are tested at the first sites, which never looked at them.
3. **The PWM.** The kept columns' letter frequencies (at those sites that did
   not look at them) give log-odds; every
   allowed window scoring at least the threshold whose background p-value is
   ``SITE_FPR / n_allowed`` (``n_allowed`` the mean number of allowed windows
   per record, `poimkit.motifs.scan.n_windows`; so that at most about 5 % of background
   sequences hold a site by chance) is a site, read on either strand (the
   reverse complement only if it holds `STRAND_ENRICHMENT` times the sites
   expected by chance: much of aligned DNA, splice sites or promoters, is
   read on one strand), and the PWM is refitted to the best site of each
   sequence, `REFITS` times. Edge columns with less than `MIN_BITS` at the
   final sites are trimmed; a motif needs `MIN_COLUMNS` columns.

The PWM is the letter frequencies of its sites, so it is as sharp as they are.
Scanning (windows, log-odds, thresholds, `Sites`) is `poimkit.motifs.scan`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..alphabet import ALPHABET
from .motif import PwmColumns
from .scan import (
    PAD,
    Sites,
    letter_counts,
    log_odds,
    n_windows,
    oriented,
    record_lengths,
    scan,
    score_threshold,
    site_counts,
    windows,
)
from .scan import SCORE_GRID as SCORE_GRID  # site scores and thresholds lie on it

if TYPE_CHECKING:
    from ..poim import Poim

#: allowed starts: POIM profile of the seed at least this share of its peak
ALLOWED_FRACTION = 0.1
#: flanking columns tested on each side of a seed
FLANK = 6
#: a motif column differs from the background by at least this many bits
MIN_BITS = 0.3
#: ... and its G-test against the background letters has a p-value below this
COLUMN_P = 0.01
#: expected share of background sequences with a chance site
SITE_FPR = 0.05
#: expected chance matches of a seed (first sites) per background sequence
FIRST_RATE = 0.1
#: fewest shared columns of a motif and its other-strand twin
MIN_TWIN_OVERLAP = 5
#: fewest columns of a motif
MIN_COLUMNS = 4
#: rescans with a refitted PWM after the first sites' PWM
REFITS = 2
#: the other strand is scanned if it holds this many times the chance sites
STRAND_ENRICHMENT = 3.0
#: a motif whose chance sites exceed this share of background sequences is
#: not specific (its threshold is capped at the consensus: `score_threshold`)
MAX_CHANCE = 2 * SITE_FPR
#: profile noise multiple the allowed starts must exceed in `site_motif`'s
#: second try (`allowed_starts`)
NOISE_Z = 4.0
#: fewest first sites (in the discovery positives) a seed needs
MIN_SITES = 8


@dataclass
class SiteMotif(PwmColumns):
    """A motif defined by its sites: PWM, log-odds, threshold, where it may start.

    Parameters
    ----------
    pwm : numpy.ndarray of shape (m, 4)
        Letter frequencies of the sites (rows sum to 1).
    log_odds : numpy.ndarray of shape (m, 4)
        Bits of ``(count + pseudocount share) / background`` per letter.
    threshold : float
        Lowest log-odds score of a site.
    allowed : numpy.ndarray of int64
        0-based starts a site read on the given strand may have.
    allowed_rc : numpy.ndarray of int64
        0-based (leftmost) starts a site read as the reverse complement may
        have: the same places, seen from the other strand.
    twin : SiteMotif or None
        The same motif found on the other strand (its PWM is this one's
        reverse complement), whose sites count as this motif's with strand -1.
    twin_shift : int
        This motif's column aligned with the first column of the twin's
        reverse complement (`reverse_shift`).

    Notes
    -----
    Starts are positions in the records: for records of different lengths,
    ``X`` is `poimkit.motifs.scan.padded` and a window past a record's end is
    never a site.
    """

    pwm: np.ndarray
    log_odds: np.ndarray
    threshold: float
    allowed: np.ndarray
    allowed_rc: np.ndarray
    twin: SiteMotif | None = None
    twin_shift: int = 0

    @classmethod
    def of_counts(
        cls,
        counts: np.ndarray,
        log_odds: np.ndarray,
        threshold: float,
        allowed: np.ndarray,
        allowed_rc: np.ndarray,
    ) -> SiteMotif:
        """The motif of its sites' letter counts (its PWM: their frequencies).

        Parameters
        ----------
        counts : numpy.ndarray of shape (m, 4)
            Letter counts of the sites.
        log_odds, threshold, allowed, allowed_rc
            As the class takes them.

        Returns
        -------
        SiteMotif
        """
        pwm = counts / counts.sum(axis=1, keepdims=True)
        return cls(pwm, log_odds, threshold, allowed, allowed_rc)

    def sites(self, X: np.ndarray) -> Sites:
        """The best site of each sequence of X that holds one, either strand.

        Parameters
        ----------
        X : numpy.ndarray of uint8, shape (n, L)
            Letter codes (`poimkit.motifs.scan.padded` records too).

        Returns
        -------
        Sites
            With the twin's sites (if any) in this motif's frame.
        """
        sites = scan(X, self.allowed, self.allowed_rc, self.log_odds, self.threshold)
        if self.twin is None:
            return sites
        # the twin's sites in this motif's frame: the twin's reverse
        # complement's column i is this motif's column shift + i. A twin site
        # at t read on the given strand puts that column at t + w - 1 - i (this
        # motif is read as its reverse complement there, from t + w + shift -
        # length); one read as the twin's reverse complement puts it at t + i
        # (this motif on the given strand, from t - shift).
        twin = self.twin.sites(X)
        w, shift = self.twin.length, self.twin_shift
        starts = np.where(
            twin.strands > 0, twin.starts + w + shift - self.length, twin.starts - shift
        )
        ends = record_lengths(X)[twin.rows]
        inside = (starts >= 0) & (starts + self.length <= ends)
        twin.starts = starts
        return sites.merged(twin.take(inside))

    def reverse_shift(self, other: SiteMotif) -> int | None:
        """Offset at which this motif's consensus is the other's reverse complement.

        The column of this motif aligned with the first column of the other's
        reverse complement, or None if they do not match.

        They match if, at some offset, they share all but one column of the
        longer motif and at least `MIN_TWIN_OVERLAP` columns, with at most one
        mismatch.

        Parameters
        ----------
        other : SiteMotif
            The motif found on the other strand, perhaps.

        Returns
        -------
        int or None
        """
        mine = self.pwm.argmax(axis=1)
        theirs = 3 - other.pwm.argmax(axis=1)[::-1]
        need = max(max(mine.size, theirs.size) - 1, MIN_TWIN_OVERLAP)
        for shift in range(-theirs.size + 1, mine.size):
            a = mine[max(0, shift) : shift + theirs.size]
            b = theirs[max(0, -shift) : max(0, -shift) + a.size]
            if a.size >= need and (a != b).sum() <= 1:
                return shift
        return None


def tolerated(seed: str, n_allowed: int, background: np.ndarray) -> int:
    """Mismatches a first site may have against the seed.

    The most, up to a third of the seed, for which a background sequence
    holds a match at one of ``n_allowed`` starts less than `FIRST_RATE` times
    on average (letters drawn from ``background``).

    Parameters
    ----------
    seed : str
        The seed k-mer over ``ACGT``.
    n_allowed : float
        Number of starts a match may have (per sequence, on average).
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities.

    Returns
    -------
    int
    """
    p_wrong = 1.0 - background[[ALPHABET.index(c) for c in seed]]
    dist = np.ones(1)  # distribution of the number of mismatches
    for p in p_wrong:
        dist = np.append(dist * (1 - p), 0.0) + np.append(0.0, dist * p)
    within = np.cumsum(dist) * n_allowed
    ok = np.flatnonzero(within[: len(seed) // 3 + 1] <= FIRST_RATE)
    return int(ok[-1]) if ok.size else 0


def _profile(poim, seed: str) -> tuple[np.ndarray, int]:
    """POIM values of the seed over starts, and the offset of the piece used.

    The seed's K-long piece (K the POIM's highest order) with the largest
    value, for a seed longer than K; the profile is over that piece's starts.
    """
    from ..alphabet import kmer_index

    l = min(len(seed), poim.max_order)
    q = poim.q(l)
    pieces = [(q[:, kmer_index(seed[o : o + l])], o) for o in range(len(seed) - l + 1)]
    return max(pieces, key=lambda p: p[0].max())


def allowed_starts(
    poim: Poim, seed: str, above_noise: bool = False, length: int | None = None
) -> np.ndarray:
    """0-based starts where the model rewards the seed (see the module notes).

    For a seed longer than the POIM's highest order K, the profile is that of
    its K-long piece with the largest POIM value, moved to the seed's start.
    With ``above_noise`` the profile must also exceed `NOISE_Z` times the
    root mean square of its negative values (the profile's noise where the
    model does not reward the seed): in long sequences a model trained on
    few of them rewards the seed a little at many chance places.

    Parameters
    ----------
    poim : Poim
        POIMs of the model.
    seed : str
        The seed k-mer over ``ACGT``.
    above_noise : bool
        Also require the profile to stand out of its noise.
    length : int, optional
        Length of the sequences scanned (the longest record); for a
        position-free POIM every start in it if the seed's profile is positive
        somewhere (``above_noise`` is then ignored). Default: the POIM's length.

    Returns
    -------
    numpy.ndarray of int64
    """
    m = len(seed)
    profile, offset = _profile(poim, seed)
    if poim.position_free:
        fits = poim.length if length is None else length
        return np.arange(fits - m + 1 if profile.max() > 0 else 0, dtype=np.int64)
    floor = max(ALLOWED_FRACTION * profile.max(), 0.0)
    if above_noise:
        below = profile[profile < 0]
        floor = max(floor, NOISE_Z * np.sqrt(np.mean(below**2)) if below.size else 0)
    peaks = np.flatnonzero((profile >= floor) & (profile > 0))
    starts = peaks - offset
    return starts[(starts >= 0) & (starts + m <= poim.length)].astype(np.int64)


def seed_mass(X: np.ndarray, poim: Poim, seed: str) -> float:
    """Score mass a seed explains in X: exact occurrences times POIM value.

    The sequences of X holding the seed exactly (either strand) at an allowed
    start, times the seed's largest POIM value. A chimera of a motif's two orientations
    (which an additive model can rank first where a motif sits on both
    strands) occurs in no sequence and ranks last.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.
    poim : Poim
        POIMs of the model.
    seed : str
        The seed k-mer over ``ACGT``.

    Returns
    -------
    float
    """
    allowed = allowed_starts(poim, seed, length=X.shape[1])
    if allowed.size == 0:
        return 0.0
    holds = occurrences(X, seed, allowed).rows.size
    profile, _ = _profile(poim, seed)
    return float(holds * profile.max())


def occurrences(X: np.ndarray, seed: str, allowed: np.ndarray) -> Sites:
    """The first exact occurrence of the seed in each row, either strand.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.
    seed : str
        A k-mer over ``ACGT``.
    allowed : numpy.ndarray of int64
        0-based starts it may have (on either strand).

    Returns
    -------
    Sites
        Score 0; strand -1 where the row holds the reverse complement.
    """
    codes = windows(X, allowed, len(seed))
    target = np.array([ALPHABET.index(c) for c in seed], dtype=codes.dtype)
    forward = (codes == target).all(axis=-1)
    match = forward | (codes == 3 - target[::-1]).all(axis=-1)
    rows = np.flatnonzero(match.any(axis=1))
    first = match[rows].argmax(axis=1)
    strands = np.where(forward[rows, first], 1, -1).astype(np.int8)
    return Sites(rows, allowed[first], np.zeros(rows.size), strands)


def column_bits(counts: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Relative entropy (bits) of each column's letter frequencies to the background.

    Parameters
    ----------
    counts : numpy.ndarray of float, shape (..., 4)
        Letter counts per column.
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities.

    Returns
    -------
    numpy.ndarray of float64, shape (...)
    """
    n = counts.sum(axis=-1, keepdims=True)
    freq = counts / np.maximum(n, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(freq > 0, freq * np.log2(freq / background), 0.0)
    return terms.sum(axis=-1)


def column_differs(counts: np.ndarray, background: np.ndarray) -> np.ndarray:
    """True for columns whose letters differ from the background (module notes).

    G-test: ``G = 2 n KL`` (natural log) against chi-squared with 3 degrees of
    freedom, and at least `MIN_BITS` bits of relative entropy.

    Parameters
    ----------
    counts, background : numpy.ndarray
        As in `column_bits`.

    Returns
    -------
    numpy.ndarray of bool, shape (...)
    """
    from scipy.stats import chi2

    bits = column_bits(counts, background)
    g = 2.0 * counts.sum(axis=-1) * bits * np.log(2.0)
    return (bits >= MIN_BITS) & (chi2.sf(g, 3) <= COLUMN_P)


def _columns(
    X: np.ndarray, seed: str, allowed: np.ndarray, background: np.ndarray
) -> tuple[int, int, np.ndarray] | None:
    """Columns of the motif relative to the seed, and their letter counts.

    ``(lo, hi, counts)``: ``lo`` (<= 0) and ``hi`` (>= len(seed)) bound the
    motif's columns in seed coordinates; ``counts[c - lo]`` are the letters
    of column c at sites chosen without looking at it (shape (hi - lo, 4)),
    so that a seed column's counts are not all the seed's letter. None when
    the seed has too few sites or no column that differs from the
    background.
    """
    m = len(seed)
    target = np.array([ALPHABET.index(c) for c in seed], dtype=X.dtype)
    codes = windows(X, allowed, m)  # on the seed's strand: its orientation
    wrong = codes != target
    n_wrong = wrong.sum(axis=-1)
    # a window past a record's end: more mismatches than any match tolerates
    n_wrong[(codes >= PAD).any(axis=-1)] = 2 * m
    n_allowed = n_windows(X, allowed, m)
    # best (fewest mismatches) window per sequence, then the first sites
    best = n_wrong.argmin(axis=1)
    fewest = n_wrong[np.arange(len(X)), best]
    rows = np.flatnonzero(fewest <= tolerated(seed, n_allowed, background))
    if rows.size < MIN_SITES:
        return None
    first = Sites(rows, allowed[best[rows]], fewest[rows].astype(float))
    # seed columns: leave each out of the match
    counts = {}
    for c in range(m):
        t_rest = tolerated(seed[:c] + seed[c + 1 :], n_allowed, background)
        rest = n_wrong - wrong[:, :, c]
        b = rest.argmin(axis=1)
        r = np.flatnonzero(rest[np.arange(len(X)), b] <= t_rest)
        if r.size >= MIN_SITES:
            counts[c] = letter_counts(codes[r, b[r], c][:, None])[0]
    keep = [c for c, n in counts.items() if column_differs(n[None], background)[0]]
    if not keep:
        return None
    lo, hi = min(keep), max(keep) + 1

    # flanks: tested at the first sites, which did not look at them
    def flank_ok(offset: int) -> bool:
        letters = oriented(
            X, first.rows, first.starts, first.strands, m, np.array([offset])
        )
        counts[offset] = letter_counts(letters)[0]
        if (letters < 4).sum() < MIN_SITES:
            return False
        return bool(column_differs(counts[offset][None], background)[0])

    if lo == 0:
        lo = _extend(flank_ok, -1, -1)
    if hi == m:
        hi = _extend(flank_ok, m, +1) + 1
    # a seed column without enough sites of its own: its first sites' letters
    for c in range(lo, hi):
        if c not in counts:
            letters = oriented(
                X, first.rows, first.starts, first.strands, m, np.array([c])
            )
            counts[c] = letter_counts(letters)[0]
    return lo, hi, np.array([counts[c] for c in range(lo, hi)])


def _both_strands(hits: Sites, chance: float) -> bool:
    """True if the reverse-complement sites are `STRAND_ENRICHMENT` x chance.

    ``chance`` is the expected number of chance sites on that strand. At
    least `MIN_SITES` are needed too; a palindrome's sites all count as the
    given strand's (ties), so it is scanned on one strand.
    """
    n_rc = int((hits.strands < 0).sum())
    return n_rc >= max(MIN_SITES, STRAND_ENRICHMENT * chance)


def _extend(ok, first: int, step: int) -> int:
    """Outermost passing flank offset (or the edge before ``first``).

    Walks outward from ``first`` by ``step`` for up to `FLANK` columns and
    stops after two failing columns in a row.
    """
    edge = first - step
    misses = 0
    for i in range(FLANK):
        offset = first + step * i
        if ok(offset):
            edge, misses = offset, 0
        else:
            misses += 1
            if misses == 2:
                break
    return edge


def site_motif(
    X: np.ndarray,
    poim: Poim,
    seed: str,
    background: np.ndarray,
    both_strands: bool = False,
) -> SiteMotif | None:
    """The motif behind a POIM seed, from the sequences X (discovery positives).

    Allowed starts as `allowed_starts` gives them; if the motif found there
    is not specific (background sequences would hold a chance site more than
    `MAX_CHANCE` of the time: too short a motif for so many starts), again at
    the starts that stand out of the profile's noise (for a position-free
    POIM there is no second try: every start is allowed). None when neither gives
    a specific motif with `MIN_SITES` sites and `MIN_COLUMNS` columns. With
    ``both_strands`` (a strand-symmetric model, which rewards a site and its
    reverse complement alike) both strands are always scanned; otherwise the
    other strand only if it holds `STRAND_ENRICHMENT` x the chance sites.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        The discovery positives' letter codes; for a position-free POIM
        perhaps records of any lengths, `poimkit.motifs.scan.padded`.
    poim : Poim
        POIMs of the model.
    seed : str
        The seed k-mer over ``ACGT``.
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities.
    both_strands : bool
        Always scan both strands.

    Returns
    -------
    SiteMotif or None
    """
    anywhere = poim.position_free
    for above_noise in (False,) if anywhere else (False, True):
        seed_allowed = allowed_starts(poim, seed, above_noise, X.shape[1])
        motif = _site_motif_at(
            X, seed, seed_allowed, background, both_strands, anywhere
        )
        if motif is not None:
            return motif
    return None


def _site_motif_at(
    X: np.ndarray,
    seed: str,
    seed_allowed: np.ndarray,
    background: np.ndarray,
    both_strands: bool,
    anywhere: bool = False,
) -> SiteMotif | None:
    """`site_motif` at the given allowed starts of the seed.

    With ``anywhere`` (a position-free model) the trimmed motif may start
    anywhere too, not only where its columns lay in the untrimmed one.
    """
    if seed_allowed.size == 0:
        return None
    found = _columns(X, seed, seed_allowed, background)
    if found is None:
        return None
    lo, hi, counts = found
    m, width = len(seed), hi - lo
    if width < MIN_COLUMNS:
        return None
    # the motif's leftmost start: seed start + lo on the given strand, and
    # seed start + m - hi read as the reverse complement
    length = X.shape[1]

    def fitting(starts: np.ndarray) -> np.ndarray:
        return starts[(starts >= 0) & (starts + width <= length)]

    allowed, allowed_rc = fitting(seed_allowed + lo), fitting(seed_allowed + m - hi)
    if allowed.size == 0:
        return None
    p_site = SITE_FPR / (n_windows(X, allowed, width) + n_windows(X, allowed_rc, width))
    for refit in range(REFITS):
        lods = log_odds(counts, background)
        threshold, _ = score_threshold(lods, background, p_site)
        hits = scan(X, allowed, allowed_rc, lods, threshold)
        if (
            refit == 0
            and not both_strands
            and not _both_strands(
                hits, len(X) * n_windows(X, allowed_rc, width) * p_site
            )
        ):
            # the other strand holds no more sites than chance: scan one strand
            allowed_rc = allowed_rc[:0]
            p_site = SITE_FPR / n_windows(X, allowed, width)
            threshold, _ = score_threshold(lods, background, p_site)
            hits = scan(X, allowed, allowed_rc, lods, threshold)
        if hits.rows.size < MIN_SITES:
            return None
        counts = site_counts(X, hits, width)
    # edge columns the final sites do not support (first sites chosen through
    # a seed's chance letters can favour a flank) are trimmed
    strong = np.flatnonzero(column_bits(counts, background) >= MIN_BITS)
    if strong.size == 0 or strong[-1] + 1 - strong[0] < MIN_COLUMNS:
        return None
    left, right = int(strong[0]), int(strong[-1]) + 1
    counts = counts[left:right]
    allowed, allowed_rc = allowed + left, allowed_rc + (width - right)
    if anywhere:
        allowed = np.arange(length - (right - left) + 1, dtype=np.int64)
        allowed_rc = allowed if allowed_rc.size else allowed[:0]
    width = right - left
    lods = log_odds(counts, background)
    threshold, chance = score_threshold(lods, background, p_site)
    n_allowed = n_windows(X, allowed, width) + n_windows(X, allowed_rc, width)
    if chance * n_allowed > MAX_CHANCE:
        return None
    return SiteMotif.of_counts(counts, lods, threshold, allowed, allowed_rc)
