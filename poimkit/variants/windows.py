"""The windows a model sees around variants of a genome.

Every model scores a window of ``L`` letters with the variant's first REF
letter at position ``c = L // 2`` (0-based): ``L`` is the length a positional
(WD-family) model was trained on, and for a position-free `GkmSVC` its
training length ``length_`` (an SNV changes only the ``2 l - 1`` letters
around it, but the scores are those of the whole window).

The reference window is ``genome[p - c : p - c + L]`` for the 0-based
position ``p`` of POS. The alternative window keeps the reference window's
start and length: left flank ``genome[p - c : p]``, the ALT allele, then the
genome after the REF allele, cut to ``L`` letters. A deletion thus pulls
letters from beyond the reference window's end, an insertion pushes letters
out of it.

Skipped, and counted by reason, rather than padded (padding would invent
sequence): variants whose windows would run past a chromosome end, windows
holding N (or any letter other than ACGT) in ref or alt, and alleles longer
than the half window ``L - c``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..genome.reference import text_codes
from ..genome.vcf import N_CODE

PAST_END = "window past a chromosome end"
HAS_N = "N in the window"
TOO_LONG = "allele longer than half the window"


@dataclass
class Windows:
    """Reference and alternative windows of variants, and their matched spans.

    Attributes
    ----------
    rows : numpy.ndarray of int64
        The variants (rows of the input table) that have windows.
    R, A : numpy.ndarray of uint8, shape (n, L)
        Reference and alternative windows.
    anchor : numpy.ndarray of int64
        Column of the variant's first REF letter (``L // 2``).
    lo, rhi, ahi : numpy.ndarray of int64
        The alleles' differing letters: ``R[lo:rhi]`` became ``A[lo:ahi]``
        (common leading and trailing allele letters trimmed); after them ref
        and alt continue with the same letters.
    """

    rows: np.ndarray
    R: np.ndarray
    A: np.ndarray
    anchor: np.ndarray
    lo: np.ndarray
    rhi: np.ndarray
    ahi: np.ndarray


def _trim(ref: str, alt: str) -> tuple[int, int]:
    """Common leading letters of two alleles, then common trailing ones."""
    lead = 0
    while lead < min(len(ref), len(alt)) and ref[lead] == alt[lead]:
        lead += 1
    trail = 0
    while trail < min(len(ref), len(alt)) - lead and ref[-1 - trail] == alt[-1 - trail]:
        trail += 1
    return lead, trail


def genome_windows(
    codes: np.ndarray,
    pos: np.ndarray,
    refs: list[str],
    alts: list[str],
    rows: np.ndarray,
    length: int,
    column: np.ndarray | None = None,
) -> tuple[Windows, dict[str, int]]:
    """Windows of length ``length`` around variants of one chromosome.

    Parameters
    ----------
    codes : numpy.ndarray of uint8
        The chromosome (genome codes, N = 4).
    pos : numpy.ndarray of int64
        0-based position of each variant's first REF letter.
    refs, alts : list of str
        The alleles (REF already checked against the genome).
    rows : numpy.ndarray of int64
        The variants' rows in their table (carried into the result).
    length : int
        Window length L.
    column : numpy.ndarray of int64, optional
        Each variant's column in its window (default ``L // 2``; e.g. its
        place in a peak's training window, `poimkit.variants.placement`).

    Returns
    -------
    windows : Windows
        The variants that have windows, in the given order.
    skipped : dict of str to int
        The others, by reason (see the module notes).

    Examples
    --------
    >>> genome = text_codes("ACGTACGTAC")
    >>> w, skipped = genome_windows(genome, np.array([4, 5, 0]), ["A", "CG", "A"],
    ...                             ["T", "C", "G"], np.arange(3), 5)
    >>> w.R.tolist(), w.A.tolist(), skipped
    ([[2, 3, 0, 1, 2], [3, 0, 1, 2, 3]], [[2, 3, 3, 1, 2], [3, 0, 1, 3, 0]], \
{'window past a chromosome end': 1})
    """
    pos = np.asarray(pos, dtype=np.int64)
    cols = np.full(pos.size, length // 2, dtype=np.int64)
    if column is not None:
        cols = np.asarray(column, dtype=np.int64)
    n_ref = np.fromiter((len(a) for a in refs), np.int64, len(refs))
    n_alt = np.fromiter((len(a) for a in alts), np.int64, len(alts))
    start = pos - cols
    too_long = np.maximum(n_ref, n_alt) > length - cols
    past = (start < 0) | (start + length + np.maximum(n_ref - n_alt, 0) > codes.size)
    past &= ~too_long
    keep = ~(too_long | past)
    idx = np.flatnonzero(keep)
    R = codes[start[idx, None] + np.arange(length)[None, :]]
    A = R.copy()
    c = cols[idx]
    lo = c.copy()
    rhi = lo + 1
    ahi = lo + 1
    snv = (n_ref[idx] == 1) & (n_alt[idx] == 1)
    if snv.any():
        at = np.flatnonzero(snv)
        A[at, c[at]] = text_codes("".join(alts[i] for i in idx[snv]))
        same = A[at, c[at]] == R[at, c[at]]
        lo[at[same]] += 1  # REF == ALT: nothing differs
    for j in np.flatnonzero(~snv):
        i = idx[j]
        p, s = pos[i], start[i]
        alt = text_codes(alts[i])
        tail = codes[p + n_ref[i] : p + n_ref[i] + length - c[j] - n_alt[i]]
        A[j] = np.concatenate([codes[s:p], alt, tail])
        lead, trail = _trim(refs[i], alts[i])
        lo[j] = c[j] + lead
        rhi[j] = c[j] + n_ref[i] - trail
        ahi[j] = c[j] + n_alt[i] - trail
    has_n = (R == N_CODE).any(1) | (A == N_CODE).any(1)
    good = ~has_n
    skipped = {
        TOO_LONG: int(too_long.sum()),
        PAST_END: int(past.sum()),
        HAS_N: int(has_n.sum()),
    }
    windows = Windows(
        rows=np.asarray(rows, dtype=np.int64)[idx[good]],
        R=np.ascontiguousarray(R[good]),
        A=np.ascontiguousarray(A[good]),
        anchor=c[good],
        lo=lo[good],
        rhi=rhi[good],
        ahi=ahi[good],
    )
    return windows, {k: v for k, v in skipped.items() if v}
