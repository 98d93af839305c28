"""Numba kernels of the shift-convolved POIM engine (`poimkit.poim.shifted`).

Arrays in, preallocated arrays out; the per-feature helpers are those of
`poimkit.poim._exact`.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT_PARALLEL
from ._exact import _boundary_terms, _prefix_probs, _suffix_probs


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
def feature_terms(
    weights: tuple,
    pos_bounds: np.ndarray,
    order: int,
    length: int,
    chain: tuple,
    factor: np.ndarray,
    with_messages: bool,
    new_left: np.ndarray,
    new_right: np.ndarray,
    totals: np.ndarray,
) -> None:
    """Totals and chain messages of features, one block of start positions per task.

    Block b takes the features starting at ``pos_bounds[b]:pos_bounds[b + 1]``
    and adds ``factor[k - 1, i] w Pr(y at i)`` to ``totals[b]`` and, if
    ``with_messages``, its chain messages (`_exact._boundary_terms`) to
    ``new_left[b]`` and ``new_right[b]``.

    Parameters
    ----------
    weights : tuple of numba.typed.List
        ``(indptrs, kmers, values)``, CSR per order (as in
        `_exact.accumulate_features`).
    pos_bounds : numpy.ndarray of int64, shape (n_blocks + 1,)
        First start position of each block, then ``length``.
    order : int
        Order D of the chain.
    length : int
        Sequence length.
    chain : tuple of numpy.ndarray
        ``(pi, trans, small)`` as in `_exact.accumulate_features`.
    factor : numpy.ndarray of float64, shape (max_k, length)
        Multiplier of each feature's ``w Pr(y at i)`` in the totals.
    with_messages : bool
        Whether to add the chain messages.
    new_left, new_right : numpy.ndarray of float64, shape (n_blocks, length + 1, 4**D)
        Added to.
    totals : numpy.ndarray of float64, shape (n_blocks,)
        Added to.
    """
    indptrs, kmers, values = weights
    pi, trans, small = chain
    max_k = len(indptrs)
    for b in prange(pos_bounds.shape[0] - 1):
        pp = np.zeros(max_k + order + 2)
        sp = np.zeros(max_k + order + 2)
        scratch = np.zeros(max_k + 2 * order + 2, dtype=np.int64)
        work = (pp, sp, scratch)
        for k in range(1, max_k + 1):
            indptr = indptrs[k - 1]
            kmer_k = kmers[k - 1]
            value_k = values[k - 1]
            for i in range(pos_bounds[b], min(pos_bounds[b + 1], length - k + 1)):
                for e_idx in range(indptr[i], indptr[i + 1]):
                    index = kmer_k[e_idx]
                    w = value_k[e_idx]
                    _prefix_probs(index, k, i, order, pi, trans, small, pp)
                    if k >= order:
                        _suffix_probs(index, k, i, order, trans, sp)
                    totals[b] += factor[k - 1, i] * w * pp[k]
                    if with_messages:
                        _boundary_terms(
                            k,
                            i,
                            index,
                            w,
                            order,
                            length,
                            chain,
                            work,
                            new_left[b],
                            new_right[b],
                        )
