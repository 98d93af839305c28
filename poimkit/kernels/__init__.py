"""Weighted-degree string kernels on integer-coded DNA.

Public functions: `wd_kernel` (WD and WD with shifts), `wd_diagonal` and
`wd_normalizer`. They validate their input, pack the sequences into bitplanes
(`poimkit.kernels._packing`) and call the numba kernels of
`poimkit.kernels.wd` and `poimkit.kernels.wds`.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._threads import check_threads, numba_threads
from .._validation import check_int
from ..alphabet import check_codes
from ..errors import InputError
from . import _packing
from .wd import wd_gram
from .wds import wds_diagonal, wds_gram

__all__ = ["wd_diagonal", "wd_kernel", "wd_normalizer"]


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------


def _check_shift(shift, length: int) -> int:
    shift = check_int(shift, "shift", 0)
    if shift >= length:
        raise InputError(
            f"shift must be smaller than the sequence length L = {length}, got "
            f"{shift}; a shift s compares x[s:] with x'[:L-s]"
        )
    return shift


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
    """Bitplanes ``(n, 2, W)`` and shifted lanes ``(n, n_blocks, 2, W, 8)``."""
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


def _diagonal(X: np.ndarray, degree: int, shift: int) -> np.ndarray:
    n, length = X.shape
    den = float(degree * (degree + 1))
    if shift == 0:
        return np.full(n, float(_diagonal_count(length, degree)) * 2.0 / den)
    planes, lanes = _pack(X, shift)
    valid, lane_valid, weights = _tables(length, shift)
    out = np.empty(n, dtype=np.float64)
    wds_diagonal(planes, lanes, valid, lane_valid, weights, degree, 2.0, den, out)
    return out


def _normalizer(X: np.ndarray, degree: int, shift: int) -> float:
    if shift == 0:
        count = _diagonal_count(X.shape[1], degree)
        return float(count) * 2.0 / float(degree * (degree + 1))
    return float(np.mean(_diagonal(X, degree, shift)))


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
) -> np.ndarray:
    r"""Weighted-degree string kernel matrix, optionally with shifts (WDS).

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
        shift)``, where the training side ``X_train`` is ``X2``, or ``X1`` if
        ``X2`` is None. See Notes.
    scale : float, optional
        Divide the matrix by this positive constant instead (whatever
        `normalize` says). Pass the value of `wd_normalizer` on the training
        sequences to scale prediction kernels like the training kernel.
    n_threads : int, optional
        Number of numba threads for this call; the previous setting is
        restored afterwards. Default: numba's current setting.

    Returns
    -------
    numpy.ndarray of float64, shape (n1, n2)
        ``K[a, b] = k(X1[a], X2[b])``; symmetric when ``X2`` is None.

    Raises
    ------
    InputError
        For arrays that are not 2-D integer codes 0..3, unequal lengths, or
        a `degree`, `shift`, `scale` or `n_threads` out of range.

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
    is accumulated in exact integers (see `poimkit.kernels.wd`).

    References
    ----------
    .. [1] S. Sonnenburg, G. Raetsch, C. Schaefer, "Learning interpretable SVMs
       for biological sequence classification", RECOMB 2005, LNBI 3500,
       389-407.
    .. [2] G. Raetsch, S. Sonnenburg, B. Schoelkopf, "RASE: recognition of
       alternatively spliced exons in C. elegans", Bioinformatics 21
       (Suppl. 1), i369-i377 (2005).

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
    """
    X1, X2 = _check_pair(X1, X2)
    length = X1.shape[1]
    degree = check_int(degree, "degree", 1)
    shift = _check_shift(shift, length)
    scale = _check_scale(scale)
    n_threads = check_threads(n_threads)
    train = X1 if X2 is None else X2
    symmetric = X2 is None

    with numba_threads(n_threads):
        num, den = 2.0, float(degree * (degree + 1))
        if scale is not None:
            den *= scale
        elif normalize and shift == 0:
            num, den = 1.0, float(_diagonal_count(length, degree))
        elif normalize:
            den *= _normalizer(train, degree, shift)

        planes1, lanes1 = _pack(X1, shift)
        planes2, lanes2 = (planes1, lanes1) if symmetric else _pack(X2, shift)
        out = np.empty((X1.shape[0], train.shape[0]), dtype=np.float64)
        valid, lane_valid, weights = _tables(length, shift)
        if shift == 0:
            wd_gram(planes1, planes2, valid, degree, symmetric, num, den, out)
        else:
            wds_gram(
                planes1,
                lanes1,
                planes2,
                lanes2,
                valid,
                lane_valid,
                weights,
                degree,
                symmetric,
                num,
                den,
                out,
            )
    return out


def wd_diagonal(X: np.ndarray, degree: int = 20, shift: int = 0) -> np.ndarray:
    """Unnormalised kernel value ``k(x, x)`` of every sequence.

    Parameters
    ----------
    X : array-like of int, shape (n, L)
        Integer-coded sequences.
    degree : int, default=20
    shift : int, default=0
        As in `wd_kernel`.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
        Equal to the diagonal of ``wd_kernel(X, degree=degree, shift=shift)``.
        For ``shift=0`` all entries are ``sum_{k <= min(d, L)} beta_k (L-k+1)``.

    Examples
    --------
    >>> X = np.array([[0, 1, 2, 3], [0, 0, 0, 0]])
    >>> wd_diagonal(X, degree=2).round(4).tolist()
    [3.6667, 3.6667]
    >>> wd_diagonal(X, degree=2, shift=1).round(4).tolist()
    [3.6667, 5.0]
    """
    X = check_codes(X, "X")
    degree = check_int(degree, "degree", 1)
    shift = _check_shift(shift, X.shape[1])
    return _diagonal(X, degree, shift)


def wd_normalizer(X: np.ndarray, degree: int = 20, shift: int = 0) -> float:
    """Constant that ``wd_kernel(..., normalize=True)`` divides by.

    Parameters
    ----------
    X : array-like of int, shape (n, L)
        The training sequences (the ``X2`` side of `wd_kernel`, or ``X1`` when
        ``X2`` is None).
    degree : int, default=20
    shift : int, default=0
        As in `wd_kernel`.

    Returns
    -------
    float
        ``sum_{k <= min(d, L)} beta_k (L - k + 1)`` for ``shift=0`` (the
        diagonal, the same for every sequence); the mean of `wd_diagonal`
        over ``X`` for ``shift > 0``. Store it at training time and pass it
        as ``scale=`` to `wd_kernel` at prediction time.

    Examples
    --------
    >>> X = np.array([[0, 1, 2, 3], [0, 0, 0, 0]])
    >>> round(wd_normalizer(X, degree=2), 4)
    3.6667
    >>> round(wd_normalizer(X, degree=2, shift=1), 4)
    4.3333
    """
    X = check_codes(X, "X")
    degree = check_int(degree, "degree", 1)
    shift = _check_shift(shift, X.shape[1])
    return _normalizer(X, degree, shift)
