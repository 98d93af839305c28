"""LS-GKM's l-mer kernels: the mismatch tables of ``-t 0/1/2`` and their eigenvalues.

Two l-mers that differ in m letters have the kernel ``T[m]`` (`mismatch_table`:
the gapped k-mer count of ``-t 0`` or the estimated l-mer filters of ``-t 1``
and ``-t 2``, Ghandi et al. 2014); `table_eigenvalues` diagonalises the
l-mer-by-l-mer matrix ``T[d(u, v)]`` by the Walsh-Hadamard transform. The
window-weighted kernels of ``-t 3/4/5`` run in the numba twin `_lsgkm`. Used by
`poimkit.svm.lsgkm` and `poimkit.svm.lsgkm_rbf`.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..errors import InputError
from .gkm import letter_weights

__all__ = ["MAX_L", "mismatch_table", "table_eigenvalues"]

#: largest l of a model (its l-mer table has 4**l numbers); LS-GKM's own limit
MAX_L = 12


def mismatch_table(kernel_type: int, l: int, k: int, d: int = 3) -> np.ndarray:
    """``T[m]``: the kernel of two l-mers that differ in m letters (m = 0..l).

    Parameters
    ----------
    kernel_type : {0, 1, 2}
        LS-GKM's ``-t``: 0 gkm, 1 estimated l-mer (full filter), 2 estimated
        l-mer (truncated filter).
    l, k : int
        Word length and informative positions.
    d : int, default=3
        Most mismatches counted by types 1 and 2 (entries above are 0).

    Returns
    -------
    numpy.ndarray of float64, shape (l + 1,)

    Examples
    --------
    >>> mismatch_table(0, 4, 2).tolist()
    [6.0, 3.0, 1.0, 0.0, 0.0]
    """
    if kernel_type == 0:
        return np.array([comb(l - m, k) for m in range(l + 1)], dtype=np.float64)
    if kernel_type not in (1, 2):
        raise InputError(f"kernel type must be 0, 1 or 2, got {kernel_type}")
    return _estimated_table(l, k, d, truncate=kernel_type == 2)


def _estimated_table(l: int, k: int, d: int, truncate: bool) -> np.ndarray:
    """LS-GKM's estimated l-mer kernel (Ghandi et al. 2014, eqs. for ``-t 1/2``).

    The gapped k-mer filter of an l-mer pair at m mismatches is ``w[m] =
    sum_i p_i C(l - m, k - i) C(m, i)`` with ``p_i`` the probability weights
    of a k-mer with i mismatches; truncating drops the filter from its first
    negligible entry (below 1e-50) on. The kernel of two l-mers at m
    mismatches is the filter's autocorrelation over the l-mers around them:
    ``sum_{m1, m2} w[m1] w[m2] N(m; m1, m2)``, N counting the l-mers at
    distances m1 and m2 from two l-mers at distance m (alphabet of 4).
    """
    b = 4
    prev = [[1.0] * (k + 1) for _ in range(k + 1)]
    cur = [[1.0] * (k + 1) for _ in range(k + 1)]
    for i_l in range(1, l + 1):
        for i_k in range(1, k + 1):
            cur[i_k][0] = prev[i_k][0] + (b - 1) * prev[i_k - 1][0]
            for j in range(1, i_k + 1):
                cur[i_k][j] = cur[i_k - 1][j - 1] * (i_k - i_l) / i_k
        cur, prev = prev, cur
    norm = comb(l, k) * b**l
    p = [prev[k][i] / norm for i in range(k + 1)]
    w = [
        sum(
            p[i] * comb(l - m, k - i) * comb(m, i)
            for i in range(min(m, k) + 1)
            if l - m >= k - i
        )
        for m in range(l + 1)
    ]
    if truncate:
        first = next((m for m in range(l + 1) if w[m] < 1e-50), l + 1)
        w = [w[m] if m < first else 0.0 for m in range(l + 1)]
    table = np.zeros(l + 1)
    for m in range(l + 1):
        total = 0.0
        for m1 in range(l + 1):
            for m2 in range(l + 1):
                if w[m1] == 0.0 or w[m2] == 0.0:
                    continue
                for t in range(m + 1):  # t: mismatched letters where both differ
                    r = m1 + m2 - 2 * t - l + m
                    if r < 0 or m1 - t > l - m or r > m1 - t:
                        continue
                    n = (
                        comb(m, t)
                        * comb(l - m, m1 - t)
                        * comb(m1 - t, r)
                        * (b - 1) ** t
                        * (b - 2) ** r
                    )
                    total += n * w[m1] * w[m2]
        table[l - m] = total
    if d < l:
        table[d + 1 :] = 0.0
    return table


def table_eigenvalues(table: np.ndarray, l: int) -> np.ndarray:
    """Walsh-Hadamard eigenvalues of ``h(u, v) = table[d(u, v)]``, divided by ``4**l``.

    ``h`` depends on ``u XOR v`` only (a letter read as two bits), so with the
    unnormalised transform H, ``h c = H (lambda H c)`` for every vector c over
    the l-mers, ``lambda(s) = sum_m table[m] K_m(w(s)) / 4**l``: ``K_m`` the
    Krawtchouk polynomial of the alphabet of 4 and w(s) the non-zero letters
    of s.

    Parameters
    ----------
    table : numpy.ndarray of float64, shape (l + 1,)
    l : int

    Returns
    -------
    numpy.ndarray of float64, shape (4**l,)
    """
    per_weight = np.zeros(l + 1)
    for w in range(l + 1):
        for m in range(l + 1):
            kraw = sum(
                (-1) ** j * 3 ** (m - j) * comb(w, j) * comb(l - w, m - j)
                for j in range(min(w, m) + 1)
            )
            per_weight[w] += table[m] * kraw
    return per_weight[letter_weights(l)] / 4.0**l
