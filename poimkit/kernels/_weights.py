"""Numba kernels of sparse positional k-mer weights.

Scoring, in-silico mutagenesis, and the expansion of a kernel expansion into
weights (exact k-mers, and their Hamming neighbourhoods for mismatches).
"""

import numpy as np
from numba import njit, prange

from .._alphabet import extend, lookup, push
from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT_PARALLEL)
def score_order(
    X: np.ndarray,
    k: int,
    indptr: np.ndarray,
    kmers: np.ndarray,
    values: np.ndarray,
    out: np.ndarray,
) -> None:
    """Add ``sum_i w_k[i, x[i:i+k]]`` to ``out`` for every row of X.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Integer-coded sequences.
    k : int
        The order.
    indptr, kmers, values : numpy.ndarray
        CSR weights of order k (see `poimkit.kernels.explicit.KmerWeights`).
    out : numpy.ndarray of float64, shape (n,)
        Scores, added to.
    """
    n, length = X.shape
    mask = (np.int64(1) << np.int64(2 * k)) - 1
    for r in prange(n):
        key = np.int64(0)
        total = 0.0
        for p in range(length):
            key = push(key, X[r, p], mask)
            start = p - k + 1
            if start >= 0 and indptr[start + 1] > indptr[start]:
                total += lookup(kmers, values, indptr[start], indptr[start + 1], key)
        out[r] += total


@njit(**NJIT_PARALLEL)
def expand_order(
    svt: np.ndarray,
    coef: np.ndarray,
    k: int,
    beta_k: float,
    counts: np.ndarray,
    kmers: np.ndarray,
    values: np.ndarray,
) -> None:
    """Order-k weights of a kernel expansion, one position per parallel task.

    ``svt`` holds the support vectors position-major (``svt[q, j]`` is letter
    q of support vector j). For start ``p``, their k-mers are
    sorted (stably) and equal ones merged: ``values[p, :counts[p]]`` holds
    ``sum_j beta_k coef_j`` over the support vectors j with that k-mer, in
    support-vector order, for the ascending keys ``kmers[p, :counts[p]]``.
    Weights that add up to exactly 0 are kept (the caller drops them).

    Parameters
    ----------
    svt : numpy.ndarray of uint8, shape (L, m)
        The support vectors, position-major.
    coef : numpy.ndarray of float64, shape (m,)
        Their coefficients.
    k : int
        The order.
    beta_k : float
        WD weight of order k.
    counts : numpy.ndarray of int64, shape (L - k + 1,)
        Output: distinct k-mers per start.
    kmers, values : numpy.ndarray, shape (L - k + 1, m)
        Output: the merged k-mers and weights per start.
    """
    length, m = svt.shape
    for p in prange(length - k + 1):
        keys = np.zeros(m, dtype=np.int64)
        for q in range(p, p + k):
            for j in range(m):
                keys[j] = extend(keys[j], np.int64(svt[q, j]))
        order = np.argsort(keys, kind="mergesort")
        c = 0
        for t in range(m):
            j = order[t]
            if c > 0 and kmers[p, c - 1] == keys[j]:
                values[p, c - 1] += beta_k * coef[j]
            else:
                kmers[p, c] = keys[j]
                values[p, c] = beta_k * coef[j]
                c += 1
        counts[p] = c


@njit(**NJIT_PARALLEL)
def ism_order(
    X: np.ndarray,
    k: int,
    indptr: np.ndarray,
    kmers: np.ndarray,
    values: np.ndarray,
    rows: np.ndarray,
    starts: np.ndarray,
    out: np.ndarray,
) -> None:
    """Add the order-k part of exact in-silico mutagenesis to ``out``.

    For window r (sequence ``X[rows[r]]``, columns ``starts[r] .. starts[r] + w - 1``
    with ``w = out.shape[1]``), ``out[r, c, a]`` gains
    ``sum_i w_k[i, y_i'] - w_k[i, y_i]`` over the k-mers ``y_i = x[i:i+k]``
    that cover position ``p = starts[r] + c``, where ``y_i'`` is ``y_i`` with
    the letter at ``p`` replaced by ``a`` (0 for the letter already there).

    Parameters
    ----------
    X, k, indptr, kmers, values
        As in `score_order`.
    rows, starts : numpy.ndarray of int64, shape (n_windows,)
        Sequence and first position of each window.
    out : numpy.ndarray of float64, shape (n_windows, width, 4)
        Score differences, added to.
    """
    n_win, width, _ = out.shape
    length = X.shape[1]
    for r in prange(n_win):
        s = starts[r]
        x = X[rows[r]]
        first = max(0, s - k + 1)
        last = min(length - k, s + width - 1)
        for i in range(first, last + 1):
            lo, hi = indptr[i], indptr[i + 1]
            if lo == hi:
                continue
            key = np.int64(0)
            for q in range(i, i + k):
                key = extend(key, np.int64(x[q]))
            base = lookup(kmers, values, lo, hi, key)
            for p in range(max(i, s), min(i + k, s + width)):
                shift = np.int64(2 * (k - 1 - (p - i)))
                cur = (key >> shift) & np.int64(3)
                for a in range(4):
                    if a != cur:
                        other = key + ((np.int64(a) - cur) << shift)
                        out[r, p - s, a] += lookup(kmers, values, lo, hi, other) - base


@njit(**NJIT)
def _next_combination(idx, j, k):
    """Advance ``idx[:j]`` to the next j-subset of ``0..k-1``; False after the last."""
    t = j - 1
    while t >= 0 and idx[t] == k - j + t:
        t -= 1
    if t < 0:
        return False
    idx[t] += 1
    for u in range(t + 1, j):
        idx[u] = idx[u - 1] + 1
    return True


@njit(**NJIT)
def mismatch_neighbours(
    key: int,
    k: int,
    ratio: np.ndarray,
    value: float,
    idx: np.ndarray,
    sub: np.ndarray,
    out_kmers: np.ndarray,
    out_values: np.ndarray,
    c: int,
) -> int:
    """Write every k-mer within distance ``m = ratio.size - 1`` of ``key``.

    The k-mer at distance ``j`` gets ``value * ratio[j]``; entries go to
    ``out_kmers[c:]`` / ``out_values[c:]`` (``sum_j C(k, j) 3**j`` of them, key
    itself first).

    Parameters
    ----------
    key : int
        Index of the k-mer.
    k : int
        Its length.
    ratio : numpy.ndarray of float64, shape (m + 1,)
        ``mu_{k,j}`` per distance ``j``.
    value : float
        Its weight.
    idx, sub : numpy.ndarray of int64, shape (m,)
        Scratch.
    out_kmers, out_values : numpy.ndarray
        Where the neighbours are written.
    c : int
        First entry to write.

    Returns
    -------
    int
        The index after the last entry written.
    """
    out_kmers[c] = key
    out_values[c] = value
    c += 1
    for j in range(1, ratio.shape[0]):
        v = value * ratio[j]
        for u in range(j):
            idx[u] = u
        more = True
        while more:  # each set of j positions ...
            for u in range(j):
                sub[u] = 0
            while True:  # ... and each of the 3**j substitutions there
                z = key
                for u in range(j):
                    bit = np.int64(2 * (k - 1 - idx[u]))
                    cur = (key >> bit) & np.int64(3)
                    z += (((cur + 1 + sub[u]) & np.int64(3)) - cur) << bit
                out_kmers[c] = z
                out_values[c] = v
                c += 1
                u = 0
                while u < j:
                    sub[u] += 1
                    if sub[u] < 3:
                        break
                    sub[u] = 0
                    u += 1
                if u == j:
                    break
            more = _next_combination(idx, j, k)
    return c


@njit(**NJIT_PARALLEL)
def expand_mismatch_order(
    indptr: np.ndarray,
    kmers: np.ndarray,
    values: np.ndarray,
    k: int,
    ratio: np.ndarray,
    offsets: np.ndarray,
    out_kmers: np.ndarray,
    out_values: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Spread order-k weights over their Hamming neighbourhoods, per position.

    Entry ``(p, y, w)`` (start p, k-mer y, weight w; CSR ``indptr``/``kmers``/
    ``values``) gives ``w * ratio[j]`` to every k-mer at distance ``j <=
    ratio.size - 1`` at the same start. Position p writes its raw entries to
    ``out_*[offsets[p]:offsets[p+1]]``, sorts them by k-mer and adds equal ones;
    the merged entries (ascending k-mers) are left at the start of that slice,
    ``counts[p]`` of them. Weights that add up to exactly 0 are kept.

    Parameters
    ----------
    indptr, kmers, values : numpy.ndarray
        CSR weights of order k.
    k : int
        The order.
    ratio : numpy.ndarray of float64
        As in `mismatch_neighbours`.
    offsets : numpy.ndarray of int64, shape (n_pos + 1,)
        Slice of the output of each position.
    out_kmers, out_values : numpy.ndarray
        Output entries.
    counts : numpy.ndarray of int64, shape (n_pos,)
        Output: merged entries per position.
    """
    n_pos = indptr.shape[0] - 1
    n_mis = ratio.shape[0] - 1
    for p in prange(n_pos):
        idx = np.empty(max(n_mis, 1), dtype=np.int64)
        sub = np.empty(max(n_mis, 1), dtype=np.int64)
        start = offsets[p]
        c = start
        for e in range(indptr[p], indptr[p + 1]):
            c = mismatch_neighbours(
                kmers[e], k, ratio, values[e], idx, sub, out_kmers, out_values, c
            )
        order = np.argsort(out_kmers[start:c], kind="mergesort")
        keys = out_kmers[start:c][order]
        vals = out_values[start:c][order]
        n = 0
        for t in range(keys.shape[0]):
            if n > 0 and out_kmers[start + n - 1] == keys[t]:
                out_values[start + n - 1] += vals[t]
            else:
                out_kmers[start + n] = keys[t]
                out_values[start + n] = vals[t]
                n += 1
        counts[p] = n
