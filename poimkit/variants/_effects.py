"""Numba kernels of exact variant effects: changed k-mer entries, top changes.

An *entry* is one k-mer whose contribution differs between the reference and
the alternative sequence of a variant: its index on each side (-1: the k-mer
exists on one side only), its order, its start relative to the variant and the
change of its contribution. Every variant owns the slots
``base[r] .. base[r] + bound[r] - 1`` of the entry arrays; the kernels write
``fill[r]`` of them (`gkm_entries` takes the arrays as one tuple ``entries =
(base, fill, ref, alt, order, position, change)``). Entries whose
change is exactly 0 are left out, so the entries of a variant sum to its
score change.
"""

import numpy as np
from numba import njit, prange

from .._alphabet import extend, lookup
from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT)
def _key(x, start, k):
    """Index of the k-mer ``x[start:start + k]`` (first letter most significant)."""
    key = np.int64(0)
    for q in range(start, start + k):
        key = extend(key, np.int64(x[q]))
    return key


@njit(**NJIT_PARALLEL)
def differing_range(R: np.ndarray, A: np.ndarray, lo: np.ndarray, hi: np.ndarray):
    """First and last column where rows of R and A differ (-1, -1: none).

    Parameters
    ----------
    R, A : numpy.ndarray of uint8, shape (n, L)
        Reference and alternative windows.
    lo, hi : numpy.ndarray of int64, shape (n,)
        Output.
    """
    n, length = R.shape
    for r in prange(n):
        lo[r] = -1
        hi[r] = -1
        for p in range(length):
            if R[r, p] != A[r, p]:
                lo[r] = p
                break
        if lo[r] >= 0:
            for p in range(length - 1, -1, -1):
                if R[r, p] != A[r, p]:
                    hi[r] = p
                    break


@njit(**NJIT_PARALLEL)
def wd_order_entries(
    R,
    A,
    lo,
    hi,
    anchor,
    k,
    indptr,
    kmers,
    values,
    base,
    fill,
    e_ref,
    e_alt,
    e_k,
    e_pos,
    e_change,
):
    """Entries of order k of positional (WD-family) weights.

    Every start i whose k-mer overlaps the differing columns ``lo[r]..hi[r]``
    and differs between ``R[r]`` and ``A[r]`` gives ``w_k[i, alt] - w_k[i,
    ref]`` (left out when 0). Appends after the ``fill[r]`` entries already
    written and updates ``fill``.
    """
    n, length = R.shape
    for r in prange(n):
        if lo[r] < 0:
            continue
        c = base[r] + fill[r]
        first = max(0, lo[r] - k + 1)
        last = min(length - k, hi[r])
        for i in range(first, last + 1):
            kr = _key(R[r], i, k)
            ka = _key(A[r], i, k)
            if kr == ka:
                continue
            a = indptr[i]
            b = indptr[i + 1]
            change = lookup(kmers, values, a, b, ka) - lookup(kmers, values, a, b, kr)
            if change == 0.0:
                continue
            e_ref[c] = kr
            e_alt[c] = ka
            e_k[c] = k
            e_pos[c] = i - anchor[r]
            e_change[c] = change
            c += 1
        fill[r] = c - base[r]


@njit(**NJIT_PARALLEL)
def common_spans(rc, ro, ac, ao, lo, rhi, ahi):
    """Common prefix and suffix of every reference / alternative pair.

    ``lo[r]``: length of the common prefix; ``rhi[r]``, ``ahi[r]``: where the
    common suffix of the rest starts in the reference and the alternative.
    """
    for r in prange(ro.size - 1):
        nr = ro[r + 1] - ro[r]
        na = ao[r + 1] - ao[r]
        p = 0
        while p < nr and p < na and rc[ro[r] + p] == ac[ao[r] + p]:
            p += 1
        s = 0
        while (
            s < nr - p and s < na - p and rc[ro[r + 1] - 1 - s] == ac[ao[r + 1] - 1 - s]
        ):
            s += 1
        lo[r] = p
        rhi[r] = nr - s
        ahi[r] = na - s


@njit(**NJIT)
def _put(entries, c, kr, ka, pos, change):
    """Write entry c (its order is set by the caller) and return ``c + 1``."""
    _, _, e_ref, e_alt, _, e_pos, e_change = entries
    e_ref[c] = kr
    e_alt[c] = ka
    e_pos[c] = pos
    e_change[c] = change
    return c + 1


@njit(**NJIT_PARALLEL)
def gkm_entries(ref, alt, spans, anchor, factors, f, l, entries):
    """Entries of a position-free l-mer model, ``s(x) = b + a(x) sum_w f[x_w]``.

    The windows of the reference and the alternative are matched through the
    common prefix (``[0, lo)``, same starts) and the aligned tails (reference
    from ``rhi``, alternative from ``ahi``, letter by letter, as long as both
    last). Windows touching the changed letters are paired by start; tail
    windows beyond the shorter tail are one-sided. A matched window changes
    only through the normalisation, ``(a_alt - a_ref) f[w]``. ``ref`` and
    ``alt`` are the ragged sequences ``(codes, offsets)``, ``spans`` the
    matched ``(lo, rhi, ahi)`` (`common_spans`), ``factors`` ``(a_ref,
    a_alt)``.
    """
    rc, ro = ref
    ac, ao = alt
    lo, rhi, ahi = spans
    a_ref, a_alt = factors
    base, fill = entries[0], entries[1]
    for r in prange(ro.size - 1):
        R = rc[ro[r] : ro[r + 1]]
        A = ac[ao[r] : ao[r + 1]]
        nr = R.size - l + 1
        na = A.size - l + 1
        ar = a_ref[r]
        aa = a_alt[r]
        rescaled = ar != aa
        c = base[r]
        at = anchor[r]
        if rescaled:  # common prefix windows
            for i in range(0, min(lo[r] - l + 1, nr, na)):
                key = _key(R, i, l)
                change = (aa - ar) * f[key]
                if change != 0.0:
                    c = _put(entries, c, key, key, i - at, change)
        last_r = min(rhi[r] - 1, nr - 1)
        last_a = min(ahi[r] - 1, na - 1)
        for i in range(max(0, lo[r] - l + 1), max(last_r, last_a) + 1):
            kr = _key(R, i, l) if i <= last_r else np.int64(-1)
            ka = _key(A, i, l) if i <= last_a else np.int64(-1)
            if kr == ka and not rescaled:
                continue
            change = 0.0
            if ka >= 0:
                change += aa * f[ka]
            if kr >= 0:
                change -= ar * f[kr]
            if change != 0.0:
                c = _put(entries, c, kr, ka, i - at, change)
        tail = min(R.size - rhi[r], A.size - ahi[r])
        for i in range(max(rhi[r], 0), nr):  # reference tail windows
            key = _key(R, i, l)
            if i - rhi[r] + l <= tail:  # matched by the alternative's tail
                change = (aa - ar) * f[key]
                if change != 0.0:
                    c = _put(entries, c, key, key, i - at, change)
            else:
                change = -ar * f[key]
                if change != 0.0:
                    c = _put(entries, c, key, -1, i - at, change)
        for i in range(max(ahi[r], 0), na):  # unmatched alternative tail windows
            if i - ahi[r] + l > tail:
                key = _key(A, i, l)
                change = aa * f[key]
                if change != 0.0:
                    c = _put(entries, c, -1, key, i - at, change)
        fill[r] = c - base[r]


@njit(**NJIT_PARALLEL)
def sum_and_top(base, fill, e_pos, e_change, effect, top):
    """Sum each variant's entries into ``effect``; the ``top`` largest |change|.

    ``top[r, t]`` is the entry index of the t-th largest ``|change|`` (ties:
    the smaller ``|position|``, then the earlier entry), -1 when the variant
    has fewer entries.
    """
    n, n_top = top.shape
    for r in prange(n):
        total = 0.0
        for j in range(base[r], base[r] + fill[r]):
            total += e_change[j]
        effect[r] = total
        for t in range(n_top):
            best = np.int64(-1)
            for j in range(base[r], base[r] + fill[r]):
                taken = False
                for u in range(t):
                    if top[r, u] == j:
                        taken = True
                        break
                if taken:
                    continue
                if best < 0:
                    best = j
                    continue
                a = abs(e_change[j])
                b = abs(e_change[best])
                if a > b or (a == b and abs(e_pos[j]) < abs(e_pos[best])):
                    best = j
            top[r, t] = best


@njit(**NJIT)
def wd_letter_contributions(x, k, indptr, kmers, values, out):
    """Add ``w_k[i, x[i:i+k]] / k`` to each of the k letters of every k-mer of x."""
    for i in range(x.size - k + 1):
        w = lookup(kmers, values, indptr[i], indptr[i + 1], _key(x, i, k))
        if w != 0.0:
            for q in range(i, i + k):
                out[q] += w / k


@njit(**NJIT)
def lmer_letter_contributions(x, l, f, scale, out):
    """Add ``scale * f[x_w] / l`` to each letter of every l-mer window w of x."""
    for i in range(x.size - l + 1):
        w = scale * f[_key(x, i, l)]
        for q in range(i, i + l):
            out[q] += w / l


@njit(**NJIT_PARALLEL)
def snv_placements(flank, alt, k, indptr, kmers, values, out):
    """Add order k's change of every SNV at every placement of its window.

    Row r of ``flank`` holds the ``2 L - 1`` genome letters around an SNV (N
    or past a chromosome end: 4), the SNV at column ``L - 1``; placement c
    is the window ``flank[r, L - 1 - c : 2 L - 1 - c]``, where the SNV sits
    at column c. Every k-mer covering the SNV adds ``w_k[i, alt] - w_k[i,
    ref]`` at its column i in that window to ``out[r, c]`` (placements
    holding a 4 are the caller's to leave out).

    Parameters
    ----------
    flank : numpy.ndarray of uint8, shape (n, 2 L - 1)
    alt : numpy.ndarray of uint8, shape (n,)
        The alternative letters.
    k : int
        The order.
    indptr, kmers, values : numpy.ndarray
        Its CSR block of positional weights (`KmerWeights.order`).
    out : numpy.ndarray of float64, shape (n, L)
        Accumulated.
    """
    n, width = flank.shape
    length = (width + 1) // 2
    for r in prange(n):
        for g in range(length - k, length):
            bad = False
            kr = np.int64(0)
            ka = np.int64(0)
            for q in range(g, g + k):
                x = flank[r, q]
                if x > 3:
                    bad = True
                    break
                y = alt[r] if q == length - 1 else x
                kr = extend(kr, np.int64(x))
                ka = extend(ka, np.int64(y))
            if bad:
                continue
            for c in range(length):
                i = g - length + 1 + c
                if i < 0 or i > length - k:
                    continue
                a = indptr[i]
                b = indptr[i + 1]
                out[r, c] += lookup(kmers, values, a, b, ka) - lookup(
                    kmers, values, a, b, kr
                )


@njit(**NJIT_PARALLEL)
def centre_snv_effects(codes, lo, hi, row0, length, l, f, scale, out):
    """Every SNV's change in stretches of a chromosome, in the window centred on it.

    For a position-free model whose factor depends on the window's length
    only (``s(x) = b + a(L) sum_w f[x_w]``), the change of the SNV p -> c is
    ``a(L) sum_w (f[alt_w] - f[ref_w])`` over the l-mer windows w covering p
    inside its window ``[p - L // 2, p - L // 2 + L)``.

    Parameters
    ----------
    codes : numpy.ndarray of uint8
        The chromosome (N: 4).
    lo, hi : numpy.ndarray of int64
        The stretches ``[lo[i], hi[i])``.
    row0 : numpy.ndarray of int64
        Row of ``out`` of each stretch's first position.
    length : int
        The window's length L.
    l : int
        The model's l-mer length.
    f : numpy.ndarray of float64
        Its l-mer table.
    scale : float
        ``a(L)``.
    out : numpy.ndarray of float64, shape (n, 4)
        Row ``row0[i] + p - lo[i]``: the change to each letter at p; NaN for
        the reference letter itself, for an N, and where the window leaves
        the chromosome or holds an N.
    """
    half = length // 2
    for i in prange(lo.size):
        base = max(lo[i] - half, 0)
        top = min(hi[i] - half + length, codes.size)
        n_before = np.zeros(max(top - base, 0) + 1, dtype=np.int64)
        for x in range(base, top):
            n_before[x - base + 1] = n_before[x - base] + (codes[x] > 3)
        for p in range(lo[i], hi[i]):
            j = row0[i] + p - lo[i]
            r = codes[p]
            s = p - half
            bad = r > 3 or s < 0 or s + length > codes.size
            if not bad:
                bad = n_before[s + length - base] - n_before[s - base] > 0
            for c in range(4):
                out[j, c] = np.nan if bad or c == r else 0.0
            if bad:
                continue
            for w in range(max(s, p - l + 1), min(p, s + length - l) + 1):
                key = _key(codes, w, l)
                step = np.int64(1) << (2 * (l - 1 - (p - w)))
                held = f[key]
                for c in range(4):
                    if c != r:
                        out[j, c] += f[key + (c - np.int64(r)) * step] - held
            for c in range(4):
                if c != r:
                    out[j, c] *= scale
