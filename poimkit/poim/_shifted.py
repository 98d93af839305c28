"""Numba kernels of the shift-convolved POIM engine (`poimkit.poim.shifted`).

Arrays in, preallocated arrays out; the per-feature helpers are those of
`poimkit.poim._exact`.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT_PARALLEL
from ._exact import _boundary_terms, feature_probs, feature_total


@njit(**NJIT_PARALLEL)
def convolve_rows(src: np.ndarray, h: np.ndarray, lo: int, dst: np.ndarray) -> None:
    """``dst[j] += sum_{s=-S..S} h[|s|] src[lo + j - s]`` for every row j of dst.

    Parameters
    ----------
    src : numpy.ndarray of float64, shape (n_src, m)
        Rows indexed in the padded coordinates; ``lo - S .. lo + n_dst - 1 + S``
        must be valid rows.
    h : numpy.ndarray of float64, shape (S + 1,)
        Shift weights, ``h[0]`` for the unshifted copy.
    lo : int
        Row of src that lines up with row 0 of dst.
    dst : numpy.ndarray of float64, shape (n_dst, m)
        Added to.
    """
    n_shift = h.shape[0] - 1
    m = dst.shape[1]
    for j in prange(dst.shape[0]):
        for s in range(-n_shift, n_shift + 1):
            c = h[abs(s)]
            row = lo + j - s
            for z in range(m):
                dst[j, z] += c * src[row, z]


@njit(**NJIT_PARALLEL)
def layer_terms(
    weights: tuple,
    positions: np.ndarray,
    order: int,
    length: int,
    chain: tuple,
    new_left: np.ndarray,
    new_right: np.ndarray,
    totals: np.ndarray,
) -> None:
    """Totals and chain messages of groups of features, one group per task.

    Group g holds, for every order k, the features starting at
    ``positions[g, k - 1]`` (none if negative). It adds ``w Pr(y at i)`` to
    ``totals[g]`` and the chain messages (`_exact._boundary_terms`) to
    ``new_left[g]`` and ``new_right[g]``.

    Parameters
    ----------
    weights : tuple of numba.typed.List
        ``(indptrs, kmers, values)``, CSR per order (as in
        `_exact.accumulate_features`).
    positions : numpy.ndarray of int64, shape (n_groups, max_k)
        Start of each group's features per order, or -1.
    order : int
        Order D of the chain.
    length : int
        Sequence length.
    chain : tuple of numpy.ndarray
        ``(pi, trans, small, rel)`` as in `_exact.accumulate_features`.
    new_left, new_right : numpy.ndarray of float64, shape (n_groups, length + 1, 4**D)
        Added to.
    totals : numpy.ndarray of float64, shape (n_groups,)
        Added to.
    """
    indptrs, kmers, values = weights
    pi, trans, small, rel = chain
    max_k = len(indptrs)
    for g in prange(positions.shape[0]):
        pp = np.zeros(max_k + order + 2)
        sp = np.zeros(max_k + order + 2)
        scratch = np.zeros(max_k + 2 * order + 2, dtype=np.int64)
        work = (pp, sp, scratch)
        for k in range(1, max_k + 1):
            i = positions[g, k - 1]
            if i < 0:
                continue
            indptr = indptrs[k - 1]
            kmer_k = kmers[k - 1]
            value_k = values[k - 1]
            for e_idx in range(indptr[i], indptr[i + 1]):
                index = kmer_k[e_idx]
                w = value_k[e_idx]
                feature_probs(index, k, i, order, pi, trans, small, pp, sp)
                totals[g] += w * feature_total(k, i, index, order, rel, pp)
                left_g = new_left[g]
                right_g = new_right[g]
                _boundary_terms(
                    k, i, index, w, order, length, chain, work, left_g, right_g
                )
