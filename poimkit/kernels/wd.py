"""Weighted-degree string kernels on integer-coded DNA.

Public functions: `wd_kernel` (WD, WD with shifts, WD with mismatches, each
optionally strand-symmetric), `wd_diagonal` and `wd_normalizer`. They validate
their input, pack the sequences into bitplanes (`poimkit.kernels._packing`)
and call the numba kernels of `poimkit.kernels._wd`, `poimkit.kernels._wds`
(shifts, and paired rows) and `poimkit.kernels._wdm` (mismatches).
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import numpy as np

from .._threads import check_threads, numba_threads
from .._validation import check_flag, check_int, check_mismatches, check_shift
from ..alphabet import check_codes
from ..alphabet import reverse_complement as rc_codes  # params use the name
from ..errors import InputError
from . import _packing
from ._wd import wd_gram
from ._wdm import wdm_gram, wdm_rows
from ._wds import wds_gram, wds_rows

__all__ = ["wd_diagonal", "wd_kernel", "wd_normalizer"]


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------


class _Kernel(NamedTuple):
    """Validated parameters of the kernel for sequences of one length."""

    length: int
    degree: int
    shift: int
    mismatches: int
    reverse_complement: bool

    @property
    def n_mis(self) -> int:
        """Mismatches that change the kernel (`effective_mismatches`)."""
        return effective_mismatches(self.mismatches, self.degree, self.length)

    @property
    def den(self) -> float:
        """``d (d + 1)``: the kernel is the integer count times ``2 / den``."""
        return float(self.degree * (self.degree + 1))


def _check_kernel(
    length: int, degree, shift, mismatches, reverse_complement
) -> _Kernel:
    degree = check_int(degree, "degree", 1)
    shift = check_shift(shift, length)
    mismatches = check_mismatches(mismatches, shift)
    reverse_complement = check_flag(reverse_complement, "reverse_complement")
    return _Kernel(length, degree, shift, mismatches, reverse_complement)


def _check_pair(X1, X2) -> tuple[np.ndarray, np.ndarray | None]:
    X1 = check_codes(X1, "X1")
    if X2 is None:
        return X1, None
    X2 = check_codes(X2, "X2")
    if X2.shape[1] != X1.shape[1]:
        raise InputError(
            f"X2 has sequences of length {X2.shape[1]} but X1 has length "
            f"{X1.shape[1]}; the positional kernel needs equal lengths"
        )
    return X1, X2


def _check_scale(scale) -> float | None:
    if scale is None:
        return None
    if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
        raise InputError(f"scale must be a positive number or None, got {scale!r}")
    if not (math.isfinite(scale) and scale > 0):
        raise InputError(f"scale must be positive and finite, got {scale}")
    return float(scale)


# --------------------------------------------------------------------------
# packing and constants
# --------------------------------------------------------------------------


def _pack(X: np.ndarray, shift: int) -> tuple[np.ndarray, np.ndarray]:
    """``(planes, lanes)``: bitplanes ``(n, 2, W)`` and shifted ``(n, B, 2, W, 8)``."""
    n, length = X.shape
    n_w = _packing.n_words(length)
    planes = np.zeros((n, 2, n_w), dtype=np.uint64)
    _packing.pack_planes(X, planes)
    lanes = np.zeros(
        (n, _packing.n_lane_blocks(shift), 2, n_w, _packing.LANES), dtype=np.uint64
    )
    if shift > 0:
        _packing.pack_shifted_lanes(planes, shift, lanes)
    return planes, lanes


def _tables(length: int, shift: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Valid-position masks ``(W,)``, lane masks and lane weights ``delta_s``."""
    n_w = _packing.n_words(length)
    n_blocks = _packing.n_lane_blocks(shift)
    valid = np.empty(n_w, dtype=np.uint64)
    _packing.valid_words(length, valid)
    lane_valid = np.empty((n_blocks, n_w, _packing.LANES), dtype=np.uint64)
    _packing.lane_valid(length, shift, lane_valid)
    weights = np.empty(n_blocks * _packing.LANES, dtype=np.float64)
    _packing.lane_weights(shift, weights)
    return valid, lane_valid, weights


def _diagonal_count(length: int, degree: int) -> int:
    """Integer WD count of a sequence with itself: sum (d-k+1)(L-k+1)."""
    return sum(
        (degree - k + 1) * (length - k + 1) for k in range(1, min(degree, length) + 1)
    )


def effective_mismatches(mismatches: int, degree: int, length: int) -> int:
    """Largest number of mismatches any k-mer can have: ``min(m, min(d, L) - 1)``.

    A k-mer pair counts only while it keeps one matching letter, so a larger
    `mismatches` changes nothing.

    Parameters
    ----------
    mismatches : int
        Mismatches ``m`` of the kernel.
    degree : int
        Largest k-mer length ``d``.
    length : int
        Sequence length ``L``.

    Returns
    -------
    int

    Examples
    --------
    >>> effective_mismatches(5, 3, 100), effective_mismatches(1, 20, 100)
    (2, 1)
    """
    return min(mismatches, max(min(degree, length) - 1, 0))


def mismatch_ratio(k: int, j: int) -> float:
    """``mu_{k,j} = 1 / (C(k, j) 3**j)`` (see `poimkit.kernels._wdm`).

    Parameters
    ----------
    k : int
        k-mer length.
    j : int
        Hamming distance, ``0 <= j <= k``.

    Returns
    -------
    float

    Examples
    --------
    >>> mismatch_ratio(2, 1) == 1 / 6
    True
    """
    return 1.0 / (math.comb(k, j) * 3.0**j)


def _mismatch_table(degree: int, n_mis: int) -> np.ndarray:
    """``table[k, j] = (d - k + 1) mu_{k,j}`` for ``1 <= j <= min(m, k - 1)``."""
    table = np.zeros((degree + 1, n_mis + 1), dtype=np.float64)
    for k in range(2, degree + 1):
        for j in range(1, min(n_mis, k - 1) + 1):
            table[k, j] = (degree - k + 1) * mismatch_ratio(k, j)
    return table


def _gram(
    X1: np.ndarray, X2: np.ndarray, symmetric: bool, kern: _Kernel, factor: tuple
) -> np.ndarray:
    """``k(X1[a], X2[b]) * num / den`` in units of ``2 / (d (d + 1))``.

    ``factor`` is ``(num, den)``. ``symmetric`` promises ``k(X1[a], X2[b]) =
    k(X1[b], X2[a])``: true for ``X2 is X1`` and for ``X1 = rc(X2)``, since
    ``k(rc(x), x') = k(x, rc(x'))``.
    """
    out = np.empty((X1.shape[0], X2.shape[0]), dtype=np.float64)
    if kern.n_mis > 0:
        table = _mismatch_table(kern.degree, kern.n_mis)
        wdm_gram(X1, X2, kern.degree, table, symmetric, factor, out)
        return out
    side1 = _pack(X1, kern.shift)
    side2 = side1 if X2 is X1 else _pack(X2, kern.shift)
    tables = _tables(kern.length, kern.shift)
    if kern.shift == 0:
        planes1, planes2, valid = side1[0], side2[0], tables[0]
        wd_gram(planes1, planes2, valid, kern.degree, symmetric, factor, out)
    else:
        wds_gram(side1, side2, tables, kern.degree, symmetric, factor, out)
    return out


def _rows(X1: np.ndarray, X2: np.ndarray, kern: _Kernel) -> np.ndarray:
    """Unnormalised ``k(X1[r], X2[r])`` of paired rows."""
    out = np.empty(X1.shape[0], dtype=np.float64)
    if kern.n_mis > 0:
        table = _mismatch_table(kern.degree, kern.n_mis)
        wdm_rows(X1, X2, kern.degree, table, (2.0, kern.den), out)
        return out
    side2 = _pack(X2, kern.shift)
    side1 = side2 if X1 is X2 else _pack(X1, kern.shift)
    tables = _tables(kern.length, kern.shift)
    wds_rows(side1, side2, tables, kern.degree, (2.0, kern.den), out)
    return out


def _diagonal(X: np.ndarray, kern: _Kernel) -> np.ndarray:
    if kern.shift == 0:  # with or without mismatches: every k-mer matches itself
        count = _diagonal_count(kern.length, kern.degree)
        out = np.full(X.shape[0], float(count) * 2.0 / kern.den)
    else:  # no mismatches with shifts
        out = _rows(X, X, kern)
    if kern.reverse_complement:
        out += _rows(rc_codes(X), X, kern)
    return out


def _normalizer(X: np.ndarray, kern: _Kernel) -> float:
    if kern.shift == 0 and not kern.reverse_complement:
        return float(_diagonal_count(kern.length, kern.degree)) * 2.0 / kern.den
    return float(np.mean(_diagonal(X, kern)))


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------


def wd_kernel(
    X1: np.ndarray,
    X2: np.ndarray | None = None,
    degree: int = 20,
    shift: int = 0,
    normalize: bool = False,
    scale: float | None = None,
    n_threads: int | None = None,
    mismatches: int = 0,
    reverse_complement: bool = False,
) -> np.ndarray:
    r"""Weighted-degree string kernel matrix (WD, WDS, mismatches, both strands).

    The plain WD kernel, with shifts (WDS) or with mismatches, each optionally
    strand-symmetric.

    Parameters
    ----------
    X1 : array-like of int, shape (n1, L)
        Integer-coded sequences (A=0, C=1, G=2, T=3).
    X2 : array-like of int, shape (n2, L), optional
        Second set of sequences, of the same length ``L``. ``None`` computes
        ``X1`` against itself (only half of the pairs are computed).
    degree : int, default=20
        Largest k-mer length ``d >= 1``; it may exceed ``L``.
    shift : int, default=0
        Largest shift ``S`` with ``0 <= S < L``; 0 is the plain WD kernel.
    normalize : bool, default=False
        Divide the matrix by the constant ``wd_normalizer(X_train, degree,
        shift, mismatches, reverse_complement)``, where the training side
        ``X_train`` is ``X2``, or ``X1`` if ``X2`` is None. See Notes.
    scale : float, optional
        Divide the matrix by this positive constant instead (whatever
        `normalize` says). Pass the value of `wd_normalizer` on the training
        sequences to scale prediction kernels like the training kernel.
    n_threads : int, optional
        Number of numba threads for this call; the previous setting is
        restored afterwards. Default: numba's current setting.
    mismatches : int, default=0
        Largest number ``m`` of mismatches of a counted k-mer pair (Shogun's
        WD ``max_mismatch``); see Notes. Needs ``shift=0``: WDS with
        mismatches is refused (an `InputError`), as in Shogun. Values above
        ``min(d, L) - 1`` act like ``min(d, L) - 1``.
    reverse_complement : bool, default=False
        Strand-symmetric kernel ``k(x, x') + k(rc(x), x')`` with
        ``rc(x)[i] = 3 - x[L - 1 - i]``; works with shifts and mismatches.

    Returns
    -------
    numpy.ndarray of float64, shape (n1, n2)
        ``K[a, b] = k(X1[a], X2[b])``; symmetric when ``X2`` is None.

    Raises
    ------
    InputError
        For arrays that are not 2-D integer codes 0..3, unequal lengths, a
        `degree`, `shift`, `scale`, `mismatches` or `n_threads` out of range,
        or ``mismatches > 0`` with ``shift > 0``.

    See Also
    --------
    wd_diagonal : ``k(x, x)`` per sequence.
    wd_normalizer : the constant used by ``normalize=True``.

    Notes
    -----
    With :math:`\beta_k = 2(d-k+1)/(d(d+1))` and
    :math:`\delta_s = 1/(2(s+1))`, the WD kernel is

    .. math::

        k(x, x') = \sum_{k=1}^{d} \beta_k \sum_{i=0}^{L-k}
                   I(x[i:i+k] = x'[i:i+k])

    (terms with :math:`k > L` vanish), and the WDS kernel adds

    .. math::

        \sum_{k=1}^{d} \beta_k \sum_{s=1}^{S} \delta_s \sum_{i=0}^{L-k-s}
        \left[ I(x[i+s:i+s+k] = x'[i:i+k]) + I(x[i:i+k] = x'[i+s:i+s+k]) \right].

    Both are linear in positional k-mer indicators, so a kernel machine on
    them has exact explicit weights (and exact POIMs). Normalisation keeps
    that: it divides by one constant. For ``shift=0`` every sequence has the
    same :math:`k(x, x) = \sum_{k \le \min(d, L)} \beta_k (L - k + 1)`, so the
    constant equals :math:`\sqrt{k(x, x) k(x', x')}` and this *is* cosine
    normalisation; the diagonal of the normalised matrix is exactly 1. For
    ``shift > 0``, :math:`k(x, x)` depends on ``x``; a per-pair cosine
    normalisation would make the score non-linear in the k-mer indicators,
    so the matrix is divided by the mean of :math:`k(x, x)` over the training
    side instead.

    The matrix is computed from bitplane match masks: the number of matching
    k-mers of a pair is the popcount of ``m & m << 1 & ... & m << (k-1)`` and
    is accumulated in exact integers (see `poimkit.kernels._wd`).

    With mismatches, a k-mer pair at Hamming distance :math:`j` adds
    :math:`\beta_k \mu_{k,j}` with :math:`\mu_{k,0} = 1`,
    :math:`\mu_{k,j} = 1 / (\binom{k}{j} 3^j)` for
    :math:`1 \le j \le \min(m, k - 1)` and 0 otherwise:

    .. math::

        k(x, x') = \sum_{k=1}^{d} \beta_k \sum_{i=0}^{L-k}
                   \mu_{k, H(x[i:i+k], x'[i:i+k])}.

    These are Shogun's weights: each neighbour at distance :math:`j` gets an
    equal share of the Hamming sphere (:math:`\binom{k}{j} 3^j` k-mers), a
    k-mer never matches one it shares no letter with (so k-mers with
    :math:`k \le m` allow :math:`k - 1` mismatches), and the kernel stays
    positive semi-definite (the unweighted count of k-mers with at most
    :math:`m` mismatches is not). Every sequence keeps
    :math:`k(x, x)` of the plain WD kernel, so normalisation is the same
    constant. The score of a kernel machine stays linear in positional k-mer
    indicators: a support-vector k-mer gives :math:`\mu_{k,j}` of its weight
    to every k-mer at distance :math:`j \le m` at the same start.

    The strand-symmetric kernel adds :math:`k(rc(x), x') = k(x, rc(x'))`: it
    is symmetric and positive semi-definite, and linear in the indicators of
    ``x`` (the weight of k-mer ``y`` at start ``i`` gains that of ``rc(y)``
    at start ``L - i - |y|``). Its diagonal varies with ``x``, so
    ``normalize=True`` divides by the mean training diagonal, as for WDS.

    References
    ----------
    .. [1] S. Sonnenburg, G. Raetsch, C. Schaefer, "Learning interpretable SVMs
       for biological sequence classification", RECOMB 2005, LNBI 3500,
       389-407.
    .. [2] G. Raetsch, S. Sonnenburg, B. Schoelkopf, "RASE: recognition of
       alternatively spliced exons in C. elegans", Bioinformatics 21
       (Suppl. 1), i369-i377 (2005).
    .. [3] S. Sonnenburg et al., "The SHOGUN machine learning toolbox", JMLR
       11, 1799-1802 (2010): ``CWeightedDegreeStringKernel`` (``max_mismatch``).

    Examples
    --------
    >>> X = np.array([[0, 1, 2, 3], [0, 1, 2, 0]])
    >>> wd_kernel(X, degree=2).round(4).tolist()
    [[3.6667, 2.6667], [2.6667, 3.6667]]
    >>> wd_kernel(X, degree=2, normalize=True).round(4).tolist()
    [[1.0, 0.7273], [0.7273, 1.0]]
    >>> Y = np.array([[0, 1, 2, 3], [1, 2, 3, 0]])  # ACGT, CGTA
    >>> wd_kernel(Y, degree=2).round(4).tolist()
    [[3.6667, 0.0], [0.0, 3.6667]]
    >>> wd_kernel(Y, degree=2, shift=1).round(4).tolist()
    [[3.6667, 0.6667], [0.6667, 3.6667]]
    >>> wd_kernel(Y, degree=2, mismatches=1).round(4).tolist()
    [[3.6667, 0.0], [0.0, 3.6667]]
    >>> Z = np.array([[0, 1, 2, 3], [0, 1, 2, 1]])  # ACGT, ACGC
    >>> wd_kernel(Z, degree=2, mismatches=1).round(4).tolist()
    [[3.6667, 2.7222], [2.7222, 3.6667]]
    >>> W = np.array([[0, 0, 1, 1], [2, 2, 3, 3]])  # AACC, GGTT = rc(AACC)
    >>> wd_kernel(W, degree=2, reverse_complement=True).round(4).tolist()
    [[3.6667, 3.6667], [3.6667, 3.6667]]
    """
    X1, X2 = _check_pair(X1, X2)
    kern = _check_kernel(X1.shape[1], degree, shift, mismatches, reverse_complement)
    scale = _check_scale(scale)
    n_threads = check_threads(n_threads)
    train = X1 if X2 is None else X2
    symmetric = X2 is None

    with numba_threads(n_threads):
        num, den = 2.0, kern.den
        if scale is not None:
            den *= scale
        elif normalize and kern.shift == 0 and not kern.reverse_complement:
            num, den = 1.0, float(_diagonal_count(kern.length, kern.degree))
        elif normalize:
            den *= _normalizer(train, kern)

        out = _gram(X1, train, symmetric, kern, (num, den))
        if kern.reverse_complement:
            # k(rc(x_a), x'_b) = k(rc(x'_b), x_a): still symmetric for X2 None
            out += _gram(rc_codes(X1), train, symmetric, kern, (num, den))
    return out


def wd_diagonal(
    X: np.ndarray,
    degree: int = 20,
    shift: int = 0,
    mismatches: int = 0,
    reverse_complement: bool = False,
) -> np.ndarray:
    """Unnormalised kernel value ``k(x, x)`` of every sequence.

    Parameters
    ----------
    X : array-like of int, shape (n, L)
        Integer-coded sequences.
    degree : int, default=20
    shift : int, default=0
    mismatches : int, default=0
    reverse_complement : bool, default=False
        As in `wd_kernel`.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
        Equal to the diagonal of ``wd_kernel(X, degree=degree, shift=shift,
        mismatches=mismatches, reverse_complement=reverse_complement)``. For
        ``shift=0`` without reverse complement all entries are
        ``sum_{k <= min(d, L)} beta_k (L-k+1)``, whatever `mismatches`.

    Examples
    --------
    >>> X = np.array([[0, 1, 2, 3], [0, 0, 0, 0]])
    >>> wd_diagonal(X, degree=2).round(4).tolist()
    [3.6667, 3.6667]
    >>> wd_diagonal(X, degree=2, shift=1).round(4).tolist()
    [3.6667, 5.0]
    >>> # ACGT is its own reverse complement; rc(AAAA) = TTTT shares nothing
    >>> wd_diagonal(X, degree=2, reverse_complement=True).round(4).tolist()
    [7.3333, 3.6667]
    """
    X = check_codes(X, "X")
    kern = _check_kernel(X.shape[1], degree, shift, mismatches, reverse_complement)
    return _diagonal(X, kern)


def wd_normalizer(
    X: np.ndarray,
    degree: int = 20,
    shift: int = 0,
    mismatches: int = 0,
    reverse_complement: bool = False,
) -> float:
    """Constant that ``wd_kernel(..., normalize=True)`` divides by.

    Parameters
    ----------
    X : array-like of int, shape (n, L)
        The training sequences (the ``X2`` side of `wd_kernel`, or ``X1`` when
        ``X2`` is None).
    degree, shift, mismatches, reverse_complement
        As in `wd_kernel` (defaults 20, 0, 0 and False).

    Returns
    -------
    float
        ``sum_{k <= min(d, L)} beta_k (L - k + 1)`` for ``shift=0`` without
        reverse complement (the diagonal, the same for every sequence, with
        or without mismatches); the mean of `wd_diagonal` over ``X`` for
        ``shift > 0`` or ``reverse_complement=True``. Store it at training
        time and pass it as ``scale=`` to `wd_kernel` at prediction time.

    Examples
    --------
    >>> X = np.array([[0, 1, 2, 3], [0, 0, 0, 0]])
    >>> round(wd_normalizer(X, degree=2), 4)
    3.6667
    >>> round(wd_normalizer(X, degree=2, shift=1), 4)
    4.3333
    """
    X = check_codes(X, "X")
    kern = _check_kernel(X.shape[1], degree, shift, mismatches, reverse_complement)
    return _normalizer(X, kern)
