"""The gapped k-mer (gkm) kernel of LS-GKM on DNA records of any lengths.

Two l-mers at Hamming distance d share ``h_d = C(l - d, k)`` gapped patterns
(l-mers with k informative positions), so the kernel of two records is

    K(x, x') = sum_{u in x, v in x'} h_{d(u, v)}
             = sum_{masks m} sum_{patterns p} c_m(x, p) c_m(x', p),

with ``c_m(x, p)`` the windows of x whose letters under mask m spell p (both
strands with ``reverse_complement``). `gkm_kernel` is the public function;
the helpers here turn records into the ragged strand arrays of the numba
kernels (`poimkit.kernels._gkm`) and serve `poimkit.svm.gkm.GkmSVC`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np
from numpy.typing import ArrayLike

from .._threads import numba_threads
from .._validation import check_flag, check_int
from ..alphabet import check_codes, encode
from ..errors import InputError
from . import _gkm

__all__ = ["gkm_kernel", "gkm_masks"]

#: bytes of the per-thread Gram accumulators above which fewer threads are used
GRAM_ACCUMULATOR_BYTES = 2 * 1024**3


def gkm_masks(l: int, k: int) -> np.ndarray:
    """Informative positions of every gapped pattern: shape ``(C(l, k), k)``.

    Parameters
    ----------
    l : int
        Word length.
    k : int
        Informative positions of a pattern.

    Returns
    -------
    numpy.ndarray of int64
        One row per mask, positions ascending, masks in lexicographic order.

    Examples
    --------
    >>> gkm_masks(3, 2).tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    return np.array(list(combinations(range(l), k)), dtype=np.int64).reshape(-1, k)


def as_sequences(X: ArrayLike, name: str = "X") -> list[np.ndarray]:
    """Letter codes of sequences of any lengths, one uint8 array each.

    Parameters
    ----------
    X : list of str, list of 1-D code arrays, or 2-D code array
        The sequences.
    name : str, default="X"
        The argument's name, for the messages.

    Returns
    -------
    list of numpy.ndarray of uint8
    """
    if isinstance(X, str):
        raise InputError(f"{name} must be a list of sequences, not a single string")
    if isinstance(X, np.ndarray) and X.ndim == 2:
        codes = check_codes(X, name)
        return list(codes)  # an object array of rows also passes below
    try:
        items = list(X)
    except TypeError:
        raise InputError(
            f"{name} must be a list of DNA strings or of letter-code arrays, got "
            f"{type(X).__name__}"
        ) from None
    if not items:
        raise InputError(f"{name} holds no sequences")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            out.append(encode([item])[0])
        else:
            row = np.asarray(item)
            if row.ndim != 1 or row.size == 0:
                raise InputError(
                    f"{name}[{i}] must be a non-empty 1-D array of letter codes, "
                    f"got shape {row.shape}"
                )
            out.append(check_codes(row.reshape(1, -1), f"{name}[{i}]")[0])
    return out


def strands(
    seqs: list[np.ndarray], reverse_complement: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ragged rows of the sequences (and their reverse complements).

    Parameters
    ----------
    seqs : list of numpy.ndarray of uint8
        The sequences.
    reverse_complement : bool
        Add each sequence's reverse complement as the row after it.

    Returns
    -------
    codes : numpy.ndarray of uint8
    offsets : numpy.ndarray of int64, shape (n_rows + 1,)
    row_seq : numpy.ndarray of int64, shape (n_rows,)
    """
    rows = []
    for x in seqs:
        rows.append(x)
        if reverse_complement:
            rows.append((3 - x)[::-1])
    lengths = np.fromiter((r.size for r in rows), dtype=np.int64, count=len(rows))
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    codes = np.concatenate(rows).astype(np.uint8) if rows else np.zeros(0, np.uint8)
    per = 2 if reverse_complement else 1
    row_seq = np.repeat(np.arange(len(seqs), dtype=np.int64), per)
    return codes, offsets, row_seq


def check_long_enough(seqs: list[np.ndarray], l: int, name: str = "X") -> None:
    """Refuse sequences shorter than one l-mer, naming the first.

    Parameters
    ----------
    seqs : list of numpy.ndarray
        The sequences to check.
    l : int
        The l-mer length every sequence must reach.
    name : str
        What the sequences are called in the message.
    """
    short = [i for i, x in enumerate(seqs) if x.size < l]
    if short:
        i = short[0]
        raise InputError(
            f"{name}[{i}] has length {seqs[i].size}, shorter than the l-mer length "
            f"l = {l} ({len(short)} sequence(s) are); drop them or lower l"
        )


def gkm_kernel(
    X: ArrayLike,
    l: int = 11,
    k: int = 7,
    reverse_complement: bool = True,
    n_threads: int | None = None,
) -> np.ndarray:
    """Un-normalised gapped k-mer kernel matrix of sequences of any lengths.

    Parameters
    ----------
    X : list of str, list of code arrays, or 2-D code array
        Sequences of any lengths, each at least ``l`` letters.
    l, k : int
        l-mer length and informative positions (1 <= k <= l <= 20).
    reverse_complement : bool
        Count the patterns of both strands.
    n_threads : int, optional
        Threads for the kernel (None: numba's default).

    Returns
    -------
    numpy.ndarray of float64, shape (n, n)
        ``K[a, b] = sum_m sum_p c_m(x_a, p) c_m(x_b, p)``; equivalently
        ``sum_{u in x_a, v in x_b} C(l - d(u, v), k)`` over l-mer pairs (of
        both strands of each sequence with ``reverse_complement``).

    Examples
    --------
    >>> gkm_kernel(["ACGT", "ACGA"], l=3, k=2, reverse_complement=False).tolist()
    [[6.0, 4.0], [4.0, 6.0]]
    """
    check_lk(l, k)
    check_flag(reverse_complement, "reverse_complement")
    seqs = as_sequences(X)
    check_long_enough(seqs, l)
    return gram_matrix(seqs, l, k, reverse_complement, n_threads)


def check_lk(l: int, k: int) -> None:
    """Refuse an l-mer length or informative positions out of range.

    Parameters
    ----------
    l, k : int
        ``1 <= k <= l <= 20``.
    """
    check_int(l, "l", 1, 20)
    check_int(k, "k", 1, l)


def gram_matrix(
    seqs: list[np.ndarray],
    l: int,
    k: int,
    reverse_complement: bool,
    n_threads: int | None,
) -> np.ndarray:
    """`gkm_kernel` of checked sequences (the numba kernel's driver).

    Parameters
    ----------
    seqs : list of numpy.ndarray
        Sequences of at least ``l`` codes each (`check_long_enough`), any lengths.
    l, k, reverse_complement, n_threads
        As in `gkm_kernel`.

    Returns
    -------
    numpy.ndarray of float64, shape (n, n)
    """
    import numba

    codes, offsets, row_seq = strands(seqs, reverse_complement)
    n = len(seqs)
    masks, weight = gram_masks(l, k, reverse_complement)
    with numba_threads(n_threads):
        tasks = min(numba.get_num_threads(), masks.shape[0])
        tasks = max(1, min(tasks, GRAM_ACCUMULATOR_BYTES // max(8 * n * n, 1)))
        acc = np.zeros((tasks, n, n))
        _gkm.gkm_gram(codes, offsets, row_seq, masks, weight, l, acc)
    K = acc.sum(axis=0) if tasks > 1 else acc[0]
    upper = np.triu(K)
    return upper + np.triu(K, 1).T


def gram_masks(
    l: int, k: int, reverse_complement: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Masks the Gram matrix needs, with their multiplicity.

    With both strands counted, the pattern counts of the mirrored mask
    ``l - 1 - m`` are those of m with every pattern reverse-complemented, so
    both give the same inner products: one of each mirrored pair is computed,
    twice weighted (halving the work).

    Parameters
    ----------
    l, k, reverse_complement
        As in `gkm_kernel`.

    Returns
    -------
    masks : numpy.ndarray of int64, shape (n_masks, k)
    weight : numpy.ndarray of float64, shape (n_masks,)
    """
    masks = gkm_masks(l, k)
    if not reverse_complement:
        return masks, np.ones(masks.shape[0])
    mirror = np.sort(l - 1 - masks, axis=1)
    keep, weight = [], []
    for m, (mask, other) in enumerate(zip(masks, mirror, strict=True)):
        if tuple(mask) <= tuple(other):
            keep.append(m)
            weight.append(1.0 if tuple(mask) == tuple(other) else 2.0)
    return np.ascontiguousarray(masks[keep]), np.array(weight)


def typical_length(seqs: list) -> int:
    """The median length of the sequences (rounded down): the POIM length.

    Parameters
    ----------
    seqs : list of str or of numpy.ndarray
        The sequences.

    Returns
    -------
    int

    Examples
    --------
    >>> typical_length(["ACGT", "ACGTAC", "ACGTACGT", "AC"])
    5
    """
    return int(np.median([len(x) for x in seqs]))


def windows(seqs: list[np.ndarray], l: int) -> np.ndarray:
    """Number of l-mer windows of each sequence (one strand).

    Parameters
    ----------
    seqs : list of numpy.ndarray
        The sequences.
    l : int
        Window length.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
        ``len(x) - l + 1`` per sequence.
    """
    return np.array([x.size - l + 1 for x in seqs], dtype=np.float64)


@lru_cache(maxsize=2)
def letter_weights(l: int) -> np.ndarray:
    """Non-zero letters (two-bit groups) of every index below ``4**l`` (cached).

    For two l-mers u and v, ``letter_weights(l)[u ^ v]`` is their Hamming
    distance.

    Parameters
    ----------
    l : int
        Word length.

    Returns
    -------
    numpy.ndarray of int8, shape (4**l,)

    Examples
    --------
    >>> letter_weights(2).tolist()[:6]
    [0, 1, 1, 1, 1, 2]
    """
    s = np.arange(4**l, dtype=np.int64)
    w = np.zeros(s.size, dtype=np.int8)
    for _ in range(l):
        w += (s & 3) != 0
        s >>= 2
    return w


@lru_cache(maxsize=2)
def hamming_eigenvalues(l: int, k: int) -> np.ndarray:
    """``C(l - w, k - w) / 4**k`` per Walsh index (w: its non-zero letters).

    The kernel of two l-mers, ``h(u, v) = C(l - d(u, v), k)``, depends on
    ``u XOR v`` only (a letter read as two bits), so the unnormalised
    Walsh-Hadamard transform H diagonalises it: ``h c = H (lambda H c)`` for
    every vector c over the l-mers. With ``delta(a, b) = sum_s
    (-1)**popcount(s & (a ^ b)) / 4`` per letter, ``h(u, v) = sum_{|S| = k}
    prod_{p in S} delta(u_p, v_p)`` has the coefficient ``4**-k`` times the
    number of masks S holding every letter where s is non-zero.

    Parameters
    ----------
    l, k : int
        Word length and informative positions.

    Returns
    -------
    numpy.ndarray of float64, shape (4**l,)
    """
    table = np.array(
        [comb(l - i, k - i) if i <= k else 0 for i in range(l + 1)], dtype=np.float64
    )
    return table[letter_weights(l)] / 4.0**k


def self_kernel(
    seqs: list[np.ndarray],
    l: int,
    k: int,
    reverse_complement: bool,
    n_threads: int | None = None,
) -> np.ndarray:
    """``K(x, x)`` of every sequence: the diagonal of `gkm_kernel` without the matrix.

    Parameters
    ----------
    seqs : list of numpy.ndarray
        Sequences of at least ``l`` codes.
    l, k, reverse_complement, n_threads
        As in `gkm_kernel`.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)

    Examples
    --------
    >>> self_kernel([encode(["ACGT"])[0]], 3, 2, False).tolist()
    [6.0]
    """
    codes, offsets, _ = strands(seqs, False)
    h = np.array([comb(l - d, k) for d in range(l + 1)], dtype=np.float64)
    out = np.empty(len(seqs))
    with numba_threads(n_threads):
        _gkm.gkm_self_kernel(codes, offsets, l, bool(reverse_complement), h, out)
    return out
