"""Motifs from sites: real occurrences in the sequences, where the model values them.

A POIM seed (a k-mer and where the model rewards it) becomes a motif in three
steps, all on integer-coded sequences:

1. **Where.** The seed's POIM profile ``Q(z, j)`` over starts j says where the
   model rewards the seed; the starts with at least `ALLOWED_FRACTION` of its
   peak are the motif's *allowed starts* (all starts for a motif the model
   rewards anywhere).
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
   ``SITE_FPR / n_allowed`` (so that at most about 5 % of background
   sequences hold a site by chance) is a site, read on either strand (the
   reverse complement only if it holds `STRAND_ENRICHMENT` times the sites
   expected by chance: much of aligned DNA, splice sites or promoters, is
   read on one strand), and the PWM is refitted to the best site of each
   sequence, `REFITS` times. Edge columns with less than `MIN_BITS` at the
   final sites are trimmed; a motif needs `MIN_COLUMNS` columns.

The PWM is the letter frequencies of its sites, so it is as sharp as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..alphabet import ALPHABET

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
#: pseudocount (in sites) spread over the letters by their background share
PSEUDOCOUNT = 0.5
#: expected chance matches of a seed (first sites) per background sequence
FIRST_RATE = 0.1
#: window letters scored at once (`window_scores`)
CHUNK_LETTERS = 1 << 22
#: fewest shared columns of a motif and its other-strand twin
MIN_TWIN_OVERLAP = 5
#: fewest columns of a motif
MIN_COLUMNS = 4
#: log-odds are multiples of this many bits
SCORE_GRID = 0.01
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
class SiteMotif:
    """A motif defined by its sites: PWM, log-odds, threshold, where it may start.

    Attributes
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
    """

    pwm: np.ndarray
    log_odds: np.ndarray
    threshold: float
    allowed: np.ndarray
    allowed_rc: np.ndarray
    twin: SiteMotif | None = None
    twin_shift: int = 0

    @property
    def length(self) -> int:
        """Number of columns m."""
        return self.pwm.shape[0]

    @property
    def consensus(self) -> str:
        """Most frequent letter of each column."""
        return "".join(ALPHABET[i] for i in self.pwm.argmax(axis=1))

    def sites(self, X: np.ndarray) -> Sites:
        """The best site of each sequence of X that holds one, either strand."""
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
        inside = (starts >= 0) & (starts + self.length <= X.shape[1])
        twin.starts = starts
        return sites.merged(twin.take(inside))

    def reverse_shift(self, other: SiteMotif) -> int | None:
        """Offset at which this motif's consensus is the other's reverse complement.

        The column of this motif aligned with the first column of the other's
        reverse complement, or None if they do not match.

        They match if, at some offset, they share all but one column of the
        longer motif and at least `MIN_TWIN_OVERLAP` columns, with at most one
        mismatch.
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
    """
    p_wrong = 1.0 - background[[ALPHABET.index(c) for c in seed]]
    dist = np.ones(1)  # distribution of the number of mismatches
    for p in p_wrong:
        dist = np.append(dist * (1 - p), 0.0) + np.append(0.0, dist * p)
    within = np.cumsum(dist) * n_allowed
    ok = np.flatnonzero(within[: len(seed) // 3 + 1] <= FIRST_RATE)
    return int(ok[-1]) if ok.size else 0


def windows(X: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """Letter codes of the windows ``X[:, s:s+width]``, shape (n, n_starts, width)."""
    return X[:, starts[:, None] + np.arange(width)]


def window_scores(X: np.ndarray, starts: np.ndarray, log_odds: np.ndarray):
    """Summed log-odds of every window, shape (n, n_starts).

    In row chunks of at most `CHUNK_LETTERS` window letters, so memory stays
    small for long sequences with many allowed starts.
    """
    width = log_odds.shape[0]
    out = np.empty((X.shape[0], starts.size))
    cols = np.arange(width)
    step = max(1, CHUNK_LETTERS // max(1, starts.size * width))
    for lo in range(0, X.shape[0], step):
        codes = windows(X[lo : lo + step], starts, width)
        out[lo : lo + step] = log_odds[cols, codes].sum(axis=-1)
    return out


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


def allowed_starts(poim, seed: str, above_noise: bool = False) -> np.ndarray:
    """0-based starts where the model rewards the seed (see the module notes).

    For a seed longer than the POIM's highest order K, the profile is that of
    its K-long piece with the largest POIM value, moved to the seed's start.
    With ``above_noise`` the profile must also exceed `NOISE_Z` times the
    root mean square of its negative values (the profile's noise where the
    model does not reward the seed): in long sequences a model trained on
    few of them rewards the seed a little at many chance places.
    """
    m = len(seed)
    profile, offset = _profile(poim, seed)
    floor = max(ALLOWED_FRACTION * profile.max(), 0.0)
    if above_noise:
        below = profile[profile < 0]
        floor = max(floor, NOISE_Z * np.sqrt(np.mean(below**2)) if below.size else 0)
    peaks = np.flatnonzero((profile >= floor) & (profile > 0))
    starts = peaks - offset
    return starts[(starts >= 0) & (starts + m <= poim.length)].astype(np.int64)


def seed_mass(X: np.ndarray, poim, seed: str) -> float:
    """Score mass a seed explains in X: exact occurrences times POIM value.

    The sequences of X holding the seed exactly (either strand) at an allowed
    start, times the seed's largest POIM value. A chimera of a motif's two orientations
    (which an additive model can rank first where a motif sits on both
    strands) occurs in no sequence and ranks last.
    """
    allowed = allowed_starts(poim, seed)
    if allowed.size == 0:
        return 0.0
    codes = windows(X, allowed, len(seed))
    target = np.array([ALPHABET.index(c) for c in seed], dtype=codes.dtype)
    holds = (
        ((codes == target).all(axis=-1) | (codes == 3 - target[::-1]).all(axis=-1))
        .any(axis=1)
        .sum()
    )
    profile, _ = _profile(poim, seed)
    return float(holds * profile.max())


def column_bits(counts: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Relative entropy (bits) of each column's letter frequencies to the background."""
    n = counts.sum(axis=-1, keepdims=True)
    freq = counts / np.maximum(n, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(freq > 0, freq * np.log2(freq / background), 0.0)
    return terms.sum(axis=-1)


def column_differs(counts: np.ndarray, background: np.ndarray) -> np.ndarray:
    """True for columns whose letters differ from the background (module notes).

    G-test: ``G = 2 n KL`` (natural log) against chi-squared with 3 degrees of
    freedom, and at least `MIN_BITS` bits of relative entropy.
    """
    from scipy.stats import chi2

    bits = column_bits(counts, background)
    g = 2.0 * counts.sum(axis=-1) * bits * np.log(2.0)
    return (bits >= MIN_BITS) & (chi2.sf(g, 3) <= COLUMN_P)


def letter_counts(codes: np.ndarray) -> np.ndarray:
    """Counts of A, C, G, T per column of aligned sites ``(n, m)`` -> ``(m, 4)``."""
    return (codes[:, :, None] == np.arange(4)).sum(axis=0).astype(np.float64)


def site_counts(X: np.ndarray, sites: Sites, width: int) -> np.ndarray:
    """Letter counts of the aligned sites, read on the motif's strand, (width, 4)."""
    codes = oriented(
        X, sites.rows, sites.starts, sites.strands, width, np.arange(width)
    )
    return letter_counts(codes)


def log_odds(counts: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Bits of the pseudocounted frequencies over the background letters.

    Rounded to `SCORE_GRID`, so that window scores are exact multiples of it
    and `score_threshold` holds exactly for them.
    """
    n = counts.sum(axis=1, keepdims=True)
    freq = (counts + PSEUDOCOUNT * background) / (n + PSEUDOCOUNT)
    return np.round(np.log2(freq / background) / SCORE_GRID) * SCORE_GRID


def score_threshold(
    log_odds_: np.ndarray, background: np.ndarray, p: float
) -> tuple[float, float]:
    """Lowest score whose chance of being reached under the background is <= p.

    Returns the threshold and that chance (above p only where capped).

    The exact distribution of the summed log-odds of a background window
    (independent letters) for log-odds on the grid of `SCORE_GRID` bits (as
    `log_odds` gives them); capped at the best score (the consensus alone)
    when even that is more likely than p.
    """
    scale = 1.0 / SCORE_GRID
    ints = np.rint(log_odds_ * scale).astype(np.int64)
    low = ints.min(axis=1)
    span = ints - low[:, None]
    dist = np.ones(1)
    for row, pr in zip(span, np.broadcast_to(background, span.shape), strict=True):
        new = np.zeros(dist.size + row.max())
        for a in range(4):
            new[row[a] : row[a] + dist.size] += pr[a] * dist
        dist = new
    tail = np.cumsum(dist[::-1])[::-1]  # P(score >= low.sum() + i)
    ok = np.flatnonzero(tail <= p)
    i = ok[0] if ok.size else dist.size - 1
    return (low.sum() + i) / scale - 1e-9, float(tail[i])


@dataclass
class Sites:
    """Sites of a motif: the best window of each sequence that holds one.

    Attributes
    ----------
    rows : numpy.ndarray of int64
        Sequence (row) indices, ascending.
    starts : numpy.ndarray of int64
        0-based start of the site in its sequence.
    scores : numpy.ndarray of float64
        Log-odds score of the site (bits).
    strands : numpy.ndarray of int8
        1 where the site reads as the motif, -1 where its reverse complement
        does (the start is then that of the reverse complement's first
        letter on the given strand, its leftmost position).
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
        """The sites selected by the boolean mask or index array ``keep``."""
        return Sites(
            self.rows[keep], self.starts[keep], self.scores[keep], self.strands[keep]
        )

    def merged(self, other: Sites) -> Sites:
        """These sites and those of ``other`` (the other strand), by row."""
        rows = np.concatenate([self.rows, other.rows])
        order = np.argsort(rows, kind="stable")
        return Sites(
            rows[order],
            np.concatenate([self.starts, other.starts])[order],
            np.concatenate([self.scores, other.scores])[order],
            np.concatenate([self.strands, -other.strands])[order],
        )


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
    """
    starts = np.concatenate([allowed, allowed_rc])
    scores = np.concatenate(
        [
            window_scores(X, allowed, log_odds_),
            window_scores(X, allowed_rc, log_odds_[::-1, ::-1]),
        ],
        axis=1,
    )
    best = scores.argmax(axis=1)
    top = scores[np.arange(scores.shape[0]), best]
    rows = np.flatnonzero(top >= threshold)
    strands = np.where(best[rows] < allowed.size, 1, -1).astype(np.int8)
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

    ``columns`` are offsets from the motif's first column (they may lie
    outside ``0..width-1``: flanks); a site on strand -1 with leftmost start
    s reads column c at position ``s + width - 1 - c``, complemented. Letters
    outside the sequence are 4. Shape (n_sites, len(columns)).
    """
    pos = np.where(
        strands[:, None] > 0,
        starts[:, None] + columns,
        starts[:, None] + width - 1 - columns,
    )
    inside = (pos >= 0) & (pos < X.shape[1])
    letters = X[rows[:, None], np.clip(pos, 0, X.shape[1] - 1)].astype(np.int64)
    letters = np.where(strands[:, None] > 0, letters, 3 - letters)
    return np.where(inside, letters, 4)


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
    # best (fewest mismatches) window per sequence, then the first sites
    best = n_wrong.argmin(axis=1)
    fewest = n_wrong[np.arange(len(X)), best]
    rows = np.flatnonzero(fewest <= tolerated(seed, allowed.size, background))
    if rows.size < MIN_SITES:
        return None
    first = Sites(rows, allowed[best[rows]], fewest[rows].astype(float))
    # seed columns: leave each out of the match
    counts = {}
    for c in range(m):
        t_rest = tolerated(seed[:c] + seed[c + 1 :], allowed.size, background)
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
    X: np.ndarray, poim, seed: str, background: np.ndarray, both_strands: bool = False
) -> SiteMotif | None:
    """The motif behind a POIM seed, from the sequences X (discovery positives).

    Allowed starts as `allowed_starts` gives them; if the motif found there
    is not specific (background sequences would hold a chance site more than
    `MAX_CHANCE` of the time: too short a motif for so many starts), again at
    the starts that stand out of the profile's noise. None when neither gives
    a specific motif with `MIN_SITES` sites and `MIN_COLUMNS` columns. With
    ``both_strands`` (a strand-symmetric model, which rewards a site and its
    reverse complement alike) both strands are always scanned; otherwise the
    other strand only if it holds `STRAND_ENRICHMENT` x the chance sites.
    """
    for above_noise in (False, True):
        seed_allowed = allowed_starts(poim, seed, above_noise)
        motif = _site_motif_at(X, seed, seed_allowed, background, both_strands)
        if motif is not None:
            return motif
    return None


def _site_motif_at(
    X: np.ndarray,
    seed: str,
    seed_allowed: np.ndarray,
    background: np.ndarray,
    both_strands: bool,
) -> SiteMotif | None:
    """`site_motif` at the given allowed starts of the seed."""
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
    p_site = SITE_FPR / (allowed.size + allowed_rc.size)
    for refit in range(REFITS):
        lods = log_odds(counts, background)
        threshold, _ = score_threshold(lods, background, p_site)
        hits = scan(X, allowed, allowed_rc, lods, threshold)
        if (
            refit == 0
            and not both_strands
            and not _both_strands(hits, len(X) * allowed_rc.size * p_site)
        ):
            # the other strand holds no more sites than chance: scan one strand
            allowed_rc = allowed_rc[:0]
            p_site = SITE_FPR / allowed.size
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
    lods = log_odds(counts, background)
    threshold, chance = score_threshold(lods, background, p_site)
    if chance * (allowed.size + allowed_rc.size) > MAX_CHANCE:
        return None
    return SiteMotif(
        counts / counts.sum(axis=1, keepdims=True),
        lods,
        threshold,
        allowed,
        allowed_rc,
    )
