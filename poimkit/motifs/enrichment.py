"""Known motifs enriched in the positives: which known factors, as SEA and HOMER say.

Every known motif (`poimkit.motifs.compare.known_motifs`: JASPAR offline or a
motif file) is scanned in the positives and in the negatives with the scanner
and site rule of the found motifs (`poimkit.motifs.sites`): log-odds against
the run's background letters with `poimkit.motifs.scan.PSEUDOCOUNT` sites
spread over them, and a threshold whose chance per window is
``SITE_FPR / windows`` (every start of every record, both strands), so that
about `poimkit.motifs.sites.SITE_FPR` of background records hold a chance
site. A record holds a site if its best window reaches the threshold. Each
motif's share of positives with a site is tested against the negatives' by a
one-sided Fisher exact test, and q-values are Benjamini-Hochberg over every
known motif tested.

A motif file's matrix of frequencies is read as `UNKNOWN_SITES` sites (MEME's
``nsites`` default); JASPAR's matrices carry their counts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .motif import Motif

#: letters per lookup of the scan (`block_tables`): 4**4 + 1 numbers a block
QMER = 4
#: sites a matrix of frequencies is read as when its count is unknown
UNKNOWN_SITES = 20
#: columns of ``known_motifs.tsv``
COLUMNS = (
    "id",
    "name",
    "positives",
    "negatives",
    "odds_ratio",
    "p_value",
    "q_value",
    "n_positive_sites",
    "n_negative_sites",
    "matches",
)


@dataclass(frozen=True)
class KnownEnrichment:
    """Known motifs with the shares of positives and negatives holding a site.

    Attributes
    ----------
    motifs : list of Motif
        The known motifs, most enriched first (by p-value, then odds ratio).
    n_positive_sites, n_negative_sites : numpy.ndarray of int64
        Positives and negatives with a site of each motif.
    n_positive, n_negative : int
        Positives and negatives scanned.
    p_values, q_values : numpy.ndarray of float64
        One-sided Fisher p-values and their Benjamini-Hochberg q-values.
    matches : list of list of str
        Per motif, the found motifs it matches (`mark_matches`; empty before).
    """

    motifs: list[Motif]
    n_positive_sites: np.ndarray
    n_negative_sites: np.ndarray
    n_positive: int
    n_negative: int
    p_values: np.ndarray
    q_values: np.ndarray
    matches: list[list[str]]

    def __len__(self) -> int:
        return len(self.motifs)

    @property
    def odds_ratios(self) -> np.ndarray:
        """Odds of a site in positives over negatives (Haldane's +0.5)."""
        return _odds(
            self.n_positive_sites,
            self.n_positive,
            self.n_negative_sites,
            self.n_negative,
        )

    def rows(self, top: int | None = None) -> list[dict]:
        """The table's rows as dicts of `COLUMNS`, the first ``top`` (all: None).

        Parameters
        ----------
        top : int, optional
            How many rows, most enriched first.
        """
        odds = self.odds_ratios
        out = []
        for i, motif in enumerate(self.motifs[:top]):
            matrix_id, _, name = motif.name.partition(" ")
            out.append(
                {
                    "id": matrix_id,
                    "name": name or matrix_id,
                    "positives": float(self.n_positive_sites[i] / self.n_positive),
                    "negatives": float(self.n_negative_sites[i] / self.n_negative),
                    "odds_ratio": float(odds[i]),
                    "p_value": float(self.p_values[i]),
                    "q_value": float(self.q_values[i]),
                    "n_positive_sites": int(self.n_positive_sites[i]),
                    "n_negative_sites": int(self.n_negative_sites[i]),
                    "matches": list(self.matches[i]),
                }
            )
        return out

    def n_enriched(self, q: float = 0.05) -> int:
        """How many known motifs are enriched at a q-value of at most ``q``.

        Parameters
        ----------
        q : float
            The false discovery rate.
        """
        return int((self.q_values <= q).sum())

    def write(self, path: str | os.PathLike) -> None:
        """Write the table as TSV (`COLUMNS`; shares as fractions), atomically.

        Parameters
        ----------
        path : str or path-like
            The file, conventionally ``known_motifs.tsv``.
        """
        from ..io.files import write_table

        rows = [
            (
                row["id"],
                row["name"],
                f"{row['positives']:.4f}",
                f"{row['negatives']:.4f}",
                f"{row['odds_ratio']:.4g}",
                f"{row['p_value']:.3g}",
                f"{row['q_value']:.3g}",
                row["n_positive_sites"],
                row["n_negative_sites"],
                ",".join(row["matches"]) or ".",
            )
            for row in self.rows()
        ]
        write_table(path, COLUMNS, rows)


def _odds(pos_sites, n_pos, neg_sites, n_neg) -> np.ndarray:
    """Odds ratio of a site in positives over negatives, Haldane's +0.5 in each cell."""
    a, b = pos_sites + 0.5, n_pos - pos_sites + 0.5
    c, d = neg_sites + 0.5, n_neg - neg_sites + 0.5
    return (a * d) / (b * c)


def fisher_greater(
    pos_sites: np.ndarray, n_pos: int, neg_sites: np.ndarray, n_neg: int
) -> np.ndarray:
    """One-sided Fisher p-values that positives hold a site more often, vectorised.

    The hypergeometric tail of `poimkit.motifs.evidence.enrichment_p_value`
    for many tables at once.

    Parameters
    ----------
    pos_sites, neg_sites : numpy.ndarray of int
        Positives and negatives with a site, per motif.
    n_pos, n_neg : int
        Positives and negatives.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> from poimkit.motifs.evidence import enrichment_p_value
    >>> p = fisher_greater(np.array([8, 0]), 10, np.array([1, 0]), 10)
    >>> bool(np.isclose(p[0], enrichment_p_value(8, 10, 1, 10))), float(p[1])
    (True, 1.0)
    """
    from scipy.stats import hypergeom

    pos_sites = np.asarray(pos_sites, dtype=np.int64)
    total = pos_sites + np.asarray(neg_sites, dtype=np.int64)
    p = hypergeom.sf(pos_sites - 1, n_pos + n_neg, total, n_pos)
    return np.clip(p, 0.0, 1.0)


def motif_counts(motif: Motif) -> np.ndarray:
    """A motif's letter counts: its frequencies times its sites.

    Parameters
    ----------
    motif : Motif
        A known motif; without a site count it stands for `UNKNOWN_SITES`.

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
    """
    sites = motif.n_sites if motif.n_sites > 0 else UNKNOWN_SITES
    return motif.pwm * float(sites)


def site_rule(
    motif: Motif,
    background: np.ndarray,
    X: np.ndarray,
    lengths: np.ndarray | None = None,
) -> tuple[np.ndarray, float, np.ndarray]:
    """A known motif's log-odds, site threshold and window starts in ``X``.

    Parameters
    ----------
    motif : Motif
        The known motif.
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities.
    X : numpy.ndarray of uint8, shape (n, L)
        The records, perhaps `poimkit.motifs.scan.padded`.
    lengths : numpy.ndarray of int64, optional
        `poimkit.motifs.scan.record_lengths` of X, if known.

    Returns
    -------
    log_odds : numpy.ndarray of float64, shape (m, 4)
    threshold : float
        Reached by chance in about `SITE_FPR` of background records.
    starts : numpy.ndarray of int64
        Every start of a window of the motif's width (empty if the records
        are shorter).
    """
    from .scan import log_odds, n_windows, score_threshold
    from .sites import SITE_FPR

    width = motif.pwm.shape[0]
    lods = log_odds(motif_counts(motif), background)
    starts = np.arange(max(X.shape[1] - width + 1, 0), dtype=np.int64)
    windows = 2.0 * n_windows(X, starts, width, lengths) if starts.size else 0.0
    p_site = SITE_FPR / windows if windows else SITE_FPR
    threshold, _ = score_threshold(lods, background, min(p_site, 1.0))
    return lods, threshold, starts


def qmer_codes(X: np.ndarray, q: int = QMER) -> np.ndarray:
    """The code of the q letters from each position of every record.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        The records (codes 0-3), perhaps `poimkit.motifs.scan.padded`.
    q : int
        Letters per code.

    Returns
    -------
    numpy.ndarray of uint16, shape (n, L)
        ``sum_d X[r, i + d] * 4**d``, or ``4**q`` where the q letters run past
        the end or hold N or padding.
    """
    from ._best_window import qmer_codes_kernel

    out = np.empty(X.shape, dtype=np.uint16)
    qmer_codes_kernel(np.ascontiguousarray(X, dtype=np.uint8), q, out)
    return out


def block_tables(lods: np.ndarray, q: int = QMER) -> tuple[np.ndarray, np.ndarray]:
    """A motif's log-odds as tables of q-letter blocks, for both strands.

    Blocks start at columns 0, q, 2q, ... and the last one at ``width - q``
    (overlapping the one before it, whose columns it leaves out), so that
    every block reads letters inside the window.

    Parameters
    ----------
    lods : numpy.ndarray of float, shape (m, 4)
        The log-odds, ``m >= q``.
    q : int
        Letters per block.

    Returns
    -------
    offsets : numpy.ndarray of int64, shape (b,)
        First column of each block.
    tables : numpy.ndarray of float64, shape (2, b, 4**q + 1)
        Summed log-odds of each block's new columns for every q-letter code,
        given strand and reverse complement; ``-inf`` for the code ``4**q``.

    Examples
    --------
    >>> lods = np.arange(20.0).reshape(5, 4)
    >>> offsets, tables = block_tables(lods, 4)
    >>> offsets.tolist(), float(tables[0, 1, 3 * 4**3])  # last column only: T
    ([0, 1], 19.0)
    """
    width = lods.shape[0]
    n_blocks = -(-width // q)
    offsets = np.array([q * b for b in range(n_blocks - 1)] + [width - q])
    letters = (np.arange(4**q)[None, :] // 4 ** np.arange(q)[:, None]) % 4
    tables = np.zeros((2, n_blocks, 4**q + 1))
    tables[:, :, -1] = -np.inf
    covered = np.zeros(width, dtype=bool)
    for b, first in enumerate(offsets):
        for d in range(q):
            if not covered[first + d]:
                tables[0, b, :-1] += lods[first + d, letters[d]]
                tables[1, b, :-1] += lods[::-1, ::-1][first + d, letters[d]]
        covered[first : first + q] = True
    return offsets.astype(np.int64), tables


def has_site(
    motif: Motif,
    background: np.ndarray,
    X: np.ndarray,
    codes: np.ndarray | None = None,
) -> np.ndarray:
    """Which records hold a site of ``motif`` on either strand (`site_rule`).

    Parameters
    ----------
    motif, background, X
        As `site_rule` takes them.
    codes : numpy.ndarray of uint16, optional
        `qmer_codes` of X (made here if not given; share them across motifs).

    Returns
    -------
    numpy.ndarray of bool, shape (n,)
        As `poimkit.motifs.scan.best_windows`' best score reaching the
        threshold, without finding the best window.
    """
    from .scan import record_lengths

    X = checked_codes(X)
    codes = qmer_codes(X) if codes is None else codes
    return _has_site(motif, background, X, codes, record_lengths(X))


def checked_codes(X: np.ndarray) -> np.ndarray:
    """X as contiguous uint8 letter codes, refusing any above the padding.

    Parameters
    ----------
    X : numpy.ndarray, shape (n, L)
        Letter codes 0-3, perhaps `poimkit.motifs.scan.padded`.
    """
    from .scan import PAD

    X = np.ascontiguousarray(X, dtype=np.uint8)
    if X.size and X.max() > PAD:
        raise ValueError(f"letter codes must be 0-3 or the padding {PAD}")
    return X


def _has_site(motif, background, X, codes, lengths) -> np.ndarray:
    """`has_site` on checked records with their q-letter codes and lengths."""
    from ._best_window import has_site_kernel
    from .scan import strand_tables

    lods, threshold, starts = site_rule(motif, background, X, lengths)
    out = np.zeros(X.shape[0], dtype=np.bool_)
    if not starts.size:
        return out
    if lods.shape[0] >= QMER:  # a few q-letter lookups per window
        offsets, tables = block_tables(lods)
    else:  # one letter at a time (the padding code is the N of one letter)
        codes, offsets = X, np.arange(lods.shape[0], dtype=np.int64)
        tables = strand_tables(lods)
    has_site_kernel(codes, starts.size, offsets, tables, threshold, out)
    return out


def known_enrichment(
    known: Sequence[Motif],
    X: np.ndarray,
    y: np.ndarray,
    background: np.ndarray,
    progress: Callable[[int], object] | None = None,
) -> KnownEnrichment:
    """Test every known motif for sites more often in positives than negatives.

    Parameters
    ----------
    known : sequence of Motif
        The known motifs (`poimkit.motifs.compare.known_motifs`).
    X : numpy.ndarray of uint8, shape (n, L)
        Positives and negatives, perhaps `poimkit.motifs.scan.padded`.
    y : numpy.ndarray of int, shape (n,)
        1 for a positive, 0 for a negative.
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities of the log-odds and thresholds.
    progress : callable, optional
        Called with 1 after each motif (e.g. a progress bar's ``update``).

    Returns
    -------
    KnownEnrichment
        Most enriched first; ``matches`` empty (see `mark_matches`).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 4, size=(200, 40)).astype(np.uint8)
    >>> X[:100, 10:17] = [3, 2, 0, 1, 3, 1, 0]  # TGACTCA in every positive
    >>> y = np.r_[np.ones(100), np.zeros(100)].astype(int)
    >>> ap1 = Motif(np.eye(4)[[3, 2, 0, 1, 3, 1, 0]], 0.0, 0.0, name="AP1 TGACTCA")
    >>> gata = Motif(np.eye(4)[[2, 0, 3, 0, 0]], 0.0, 0.0, name="GATA GATAA")
    >>> found = known_enrichment([gata, ap1], X, y, np.full(4, 0.25))
    >>> q = found.q_values
    >>> found.rows()[0]["id"], bool(q[0] < 1e-20), bool(q[1] > 0.05)
    ('AP1', True, True)
    """
    from .evidence import q_values
    from .scan import record_lengths

    X = checked_codes(X)
    y = np.asarray(y)
    positive = y == 1
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    pos_sites = np.zeros(len(known), dtype=np.int64)
    neg_sites = np.zeros(len(known), dtype=np.int64)
    codes, lengths = qmer_codes(X), record_lengths(X)  # shared by every motif
    for i, motif in enumerate(known):
        sites = _has_site(motif, background, X, codes, lengths)
        pos_sites[i] = int(sites[positive].sum())
        neg_sites[i] = int(sites[~positive].sum())
        if progress is not None:
            progress(1)
    p = fisher_greater(pos_sites, n_pos, neg_sites, n_neg)
    q = q_values(p)
    odds = _odds(pos_sites, n_pos, neg_sites, n_neg)
    order = np.lexsort((-odds, p))
    return KnownEnrichment(
        motifs=[known[i] for i in order],
        n_positive_sites=pos_sites[order],
        n_negative_sites=neg_sites[order],
        n_positive=n_pos,
        n_negative=n_neg,
        p_values=p[order],
        q_values=q[order],
        matches=[[] for _ in order],
    )


#: a known motif matches a found one at this Tomtom q-value (BH over the
#: known motifs) or below
MATCH_Q = 0.05


def mark_matches(
    enrichment: KnownEnrichment, found: Sequence[Motif], q: float = MATCH_Q
) -> KnownEnrichment:
    """The enrichment with each known motif's matching found motifs named.

    A found motif matches a known one when the Tomtom p-value of the pair,
    adjusted by Benjamini-Hochberg over every known motif the found one is
    compared with, is at most ``q`` (`poimkit.motifs.compare.tomtom_p_values`).

    Parameters
    ----------
    enrichment : KnownEnrichment
        The tested known motifs.
    found : sequence of Motif
        The motifs the run found.
    q : float, default=MATCH_Q
        Largest q-value of a match.

    Returns
    -------
    KnownEnrichment
    """
    from dataclasses import replace

    from .compare import tomtom_p_values
    from .evidence import q_values

    matches = [[] for _ in enrichment.motifs]
    for motif in found:
        p = tomtom_p_values(motif, enrichment.motifs)
        if not np.isfinite(p).all():
            continue
        for i in np.flatnonzero(q_values(p) <= q):
            matches[i].append(motif.name)
    return replace(enrichment, matches=matches)
