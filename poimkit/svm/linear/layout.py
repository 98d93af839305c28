"""Column layout of the explicit WD / WDS feature map used by `WDLinearSVC`.

The feature map ``phi`` satisfies ``<phi(x), phi(x')> = k(x, x') / scale``,
the kernel of `poimkit.WDKernelSVC` (same ``beta_k``, ``delta_s`` and
normalisation), when no order is hashed.

WD (``S = 0``): one column per order ``k``, start ``p`` and k-mer ``y``,
value ``sqrt(beta_k / scale)`` when ``x[p:p+k] = y``.

WDS (``S > 0``): per order, the kernel is ``sum_y u_y(x)^T M u_y(x')`` with
``u_y`` the 0/1 vector of starts where ``y`` occurs and ``M`` the banded
Toeplitz matrix ``M[p, p] = 1``, ``M[p, p +- s] = delta_s`` (``s <= S``).
With the banded Cholesky factor ``M = A A^T`` (bandwidth S, so still sparse),
``phi_k = sqrt(beta_k / scale) A^T u_y`` reproduces it exactly: an occurrence
at ``p`` feeds the S + 1 columns ``r = p - S .. p`` with factors ``A[p, r]``.

Orders whose table ``(L - k + 1) * 4**k`` has at most ``exact_size`` entries
are indexed densely (column ``offset + r * 4**k + y``). Higher orders are
*sparse*: only the features present in the training data get a column, looked
up in an open-addressing table per (order, position) (`poimkit.svm.linear.table`;
exact, as the L2 solution is 0 on every other feature). Orders whose sparse
table would exceed the memory budget are hashed (signed feature hashing,
Weinberger et al. 2009) into ``2**hash_bits`` columns per (order, position):
k-mers that share a bucket share its weight (up to a sign), so a model with
hashed orders is a linear model on that hashed map, not on the positional k-mer
indicators. Columns: dense orders, then sparse, then hashed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...errors import InputError
from ...kernels.explicit import shift_weights, wd_beta
from .table import PresentKeys, build_table

DEFAULT_EXACT_SIZE = 2**20
# 2**10 float64 = 8 KiB per (order, position): the region a pass works on stays
# in the L1 cache (12 bits took 2.4x as long for the same AUC; see WDLinearSVC)
DEFAULT_HASH_BITS = 10


class FeatureMap(NamedTuple):
    """The feature map as the numba kernels take it (`FeatureLayout.fmap`).

    Numba reads the fields by name (``fmap.coef``), in a tuple it compiles
    like any other.

    Attributes
    ----------
    degree, shift : int
        Order count ``min(degree, L)`` and WDS shift S.
    n_dense, n_exact : int
        Orders ``1..n_dense`` are indexed densely, ``n_dense+1..n_exact``
        sparsely (both exact), the rest hashed.
    offsets : numpy.ndarray of int64, shape (degree,)
        First column of each order's region.
    strides : numpy.ndarray of int64, shape (degree,)
        Columns per position: ``4**k`` (dense), ``2**hash_bits`` (hashed) or 0
        (sparse).
    salt : numpy.ndarray of uint64, shape (degree, L)
        Per ``(k, r)`` random salt of the hash (from ``random_state``).
    mask : numpy.uint64
        ``2**hash_bits - 1``.
    coef : numpy.ndarray of float64, shape (degree,)
        ``sqrt(beta_k / scale)``.
    band : numpy.ndarray of float64, shape (degree, L, S + 1)
        ``band[k-1, p, j] = A_k[p, p - j]`` (Cholesky factor of ``M_k``).
    tstart, tmask, cbase : numpy.ndarray of int64, shape (degree, L)
        Per sparse (order, position): start and capacity - 1 of its region of
        ``tkeys`` and its first column (see `poimkit.svm.linear.table.build_table`).
    tkeys : numpy.ndarray of uint64
        The lookup tables' keys (``y + 1``; 0 = empty).
    tidx : numpy.ndarray of int32
        Column of each key within its region.
    """

    degree: int
    shift: int
    n_dense: int
    n_exact: int
    offsets: np.ndarray
    strides: np.ndarray
    salt: np.ndarray
    mask: np.uint64
    coef: np.ndarray
    band: np.ndarray
    tstart: np.ndarray
    tmask: np.ndarray
    cbase: np.ndarray
    tkeys: np.ndarray
    tidx: np.ndarray


@dataclass(frozen=True)
class FeatureLayout:
    """Where every feature ``(k, r, y)`` lives in the weight vector.

    The fields of its `FeatureMap` read through (``layout.degree`` is
    ``layout.fmap.degree``).

    Attributes
    ----------
    length : int
        Sequence length L.
    fmap : FeatureMap
        The feature map (orders, columns, hash, shift band, sparse tables).
    n_columns : int
        Length of the weight vector without the bias column.
    present : PresentKeys or None
        The keys of the sparse orders (None: no sparse order).
    private_norm : numpy.ndarray of float64, shape (n,) or (0,)
        While training: the norm of each training sequence's private features
        (`poimkit.svm.linear.table`), the value of its own column
        ``private_offset + i``; empty in a fitted model.
    private_offset : int
        First private column (after the hashed orders).
    """

    length: int
    fmap: FeatureMap
    n_columns: int
    present: PresentKeys | None
    private_norm: np.ndarray
    private_offset: int

    def __getattr__(self, name: str):
        """A field of the feature map (``degree``, ``offsets``, ``coef``, ...)."""
        if name in FeatureMap._fields:
            return getattr(self.fmap, name)
        raise AttributeError(f"FeatureLayout has no attribute {name!r}")

    @property
    def n_sparse_columns(self) -> int:
        """Columns of the sparse orders (present keys)."""
        return 0 if self.present is None else self.present.n_keys

    @property
    def n_private(self) -> int:
        """Private columns (one per training sequence; 0 in a fitted model)."""
        return int(self.private_norm.shape[0])

    @property
    def n_hashed_orders(self) -> int:
        """Number of hashed orders."""
        return self.degree - self.n_exact


def n_exact_orders(length: int, degree: int, exact_size: int) -> int:
    """Largest K such that every order k <= K has ``(L-k+1) * 4**k <= exact_size``.

    Parameters
    ----------
    length : int
        Sequence length L.
    degree : int
        The WD degree: K is at most this.
    exact_size : int
        Largest table of one exact order.

    Returns
    -------
    int

    Examples
    --------
    >>> n_exact_orders(141, 20, 2**20), n_exact_orders(10, 3, 2**20)
    (6, 3)
    """
    n = 0
    for k in range(1, degree + 1):
        if (length - k + 1) * 4**k > exact_size:
            break
        n = k
    return n


def shift_band(n_pos: int, shift: int) -> np.ndarray:
    """Banded lower Cholesky factor of the WDS shift matrix ``M`` (n_pos x n_pos).

    Parameters
    ----------
    n_pos : int
        Positions of an order, ``L - k + 1``.
    shift : int
        The WDS shift S.

    Returns
    -------
    numpy.ndarray of float64, shape (n_pos, S + 1)
        ``B[p, j] = A[p, p - j]`` for the factor ``A`` of ``M = A A^T``.

    Examples
    --------
    >>> B = shift_band(4, 1)
    >>> A = np.zeros((4, 4))
    >>> for p in range(4):
    ...     for j in range(min(1, p) + 1):
    ...         A[p, p - j] = B[p, j]
    >>> M = np.eye(4) + 0.25 * (np.eye(4, k=1) + np.eye(4, k=-1))
    >>> bool(np.allclose(A @ A.T, M))
    True
    """
    delta = shift_weights(shift)
    band = np.zeros((n_pos, shift + 1))
    # banded Cholesky, row by row: A[p, r] for r = p-S..p
    full = {}
    for p in range(n_pos):
        for r in range(max(0, p - shift), p + 1):
            m = 1.0 if r == p else delta[p - r - 1]
            acc = m - sum(
                full[p, c] * full[r, c]
                for c in range(max(0, p - shift), r)
                if (r, c) in full
            )
            if r == p:
                if acc <= 0.0:
                    raise ValueError("WDS shift matrix is not positive definite")
                full[p, p] = np.sqrt(acc)
            else:
                full[p, r] = acc / full[r, r]
            band[p, p - r] = full[p, r]
    return band


def exact_size_for(length: int, degree: int, max_columns: int = 2**25) -> int:
    """The ``exact_size`` that indexes every order of the model exactly.

    Parameters
    ----------
    length : int
        Sequence length L.
    degree : int
        The WD degree.
    max_columns : int, default=2**25
        Largest number of exact weights accepted.

    Returns
    -------
    int
        The largest table of one order: ``max_k (L - k + 1) 4**k``.

    Raises
    ------
    InputError
        If the exact tables would exceed ``max_columns`` columns (8 bytes each
        per weight vector), naming the largest degree that fits.

    Examples
    --------
    >>> exact_size_for(141, 8) == 134 * 4**8
    True
    """
    sizes = [(length - k + 1) * 4**k for k in range(1, min(degree, length) + 1)]
    if sum(sizes) > max_columns:
        raise InputError(
            f"exact k-mer tables for degree {degree} on length {length} need "
            f"{sum(sizes):.3g} weights (more than {max_columns}); the linear "
            "solver's explicit weights and POIMs need them: use degree <= "
            f"{largest_exact_degree(length, max_columns)}"
        )
    return max(sizes)


def largest_exact_degree(length: int, max_columns: int = 2**25) -> int:
    """The largest degree whose k-mer tables all fit in ``max_columns`` weights.

    Parameters
    ----------
    length : int
        Sequence length L.
    max_columns : int, default=2**25
        Largest number of exact weights accepted.

    Returns
    -------
    int
        At least 1.

    Examples
    --------
    >>> largest_exact_degree(141), largest_exact_degree(30)
    (8, 10)
    """
    total, degree = 0, 0
    while degree < length:
        total += (length - degree) * 4 ** (degree + 1)
        if total > max_columns:
            break
        degree += 1
    return max(degree, 1)


def make_layout(
    length: int,
    degree: int,
    shift: int,
    scale: float,
    *,
    exact_size: int = DEFAULT_EXACT_SIZE,
    hash_bits: int = DEFAULT_HASH_BITS,
    seed: int = 0,
    present: PresentKeys | None = None,
    lookup: bool = True,
) -> FeatureLayout:
    """Build the `FeatureLayout` of a WD / WDS feature map.

    Parameters
    ----------
    length, degree, shift : int
        Sequence length, WD degree and WDS shift.
    scale : float
        Kernel normaliser (``poimkit.kernels.wd.wd_normalizer``; 1 if not normalised).
    exact_size : int
        Largest exact table ``(L - k + 1) * 4**k`` per order.
    hash_bits : int
        A hashed order gets ``2**hash_bits`` columns per position.
    seed : int
        Seed of the hash salts.
    present : PresentKeys, optional
        Keys of the sparse orders, which follow the dense ones
        (`poimkit.svm.linear.table.collect_present_keys`); None: the orders
        above the dense ones are hashed.
    lookup : bool, default=True
        Build the lookup tables of the sparse orders. False: the columns only
        (enough for the explicit weights), which the passes cannot use.

    Returns
    -------
    FeatureLayout
    """
    beta = wd_beta(degree)  # beta_k uses the user's degree even when L < degree
    degree = min(degree, length)
    n_dense = n_exact_orders(length, degree, exact_size)
    n_exact = n_dense
    if present is not None and present.n_orders:
        if present.first_order != n_dense + 1:
            raise ValueError("the sparse orders must follow the dense ones")
        n_exact = n_dense + present.n_orders
    else:
        present = None
    strides = np.array(
        [
            4**k if k <= n_dense else 0 if k <= n_exact else 2**hash_bits
            for k in range(1, degree + 1)
        ],
        dtype=np.int64,
    )
    sizes = [(length - k + 1) * int(strides[k - 1]) for k in range(1, degree + 1)]
    for o in range(0 if present is None else present.n_orders):
        sizes[n_dense + o] = int(present.counts[o].sum())
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    private_norm = np.zeros(0)
    if present is not None and present.private_norm is not None:
        private_norm = np.ascontiguousarray(present.private_norm, dtype=np.float64)
    if present is None or not lookup:
        empty = np.zeros((degree, length), dtype=np.int64)
        arrays = (empty, empty, empty, np.zeros(2, np.uint64), np.zeros(2, np.int32))
    else:
        arrays = build_table(present, degree, length, int(offsets[n_dense]))[:5]
    table = dict(
        zip(("tstart", "tmask", "cbase", "tkeys", "tidx"), arrays, strict=True)
    )
    rng = np.random.default_rng(seed)
    salt = rng.integers(0, 2**63, size=(degree, length), dtype=np.uint64)
    salt ^= rng.integers(0, 2, size=(degree, length), dtype=np.uint64) << np.uint64(63)
    coef = np.sqrt(beta[:degree] / scale)
    band = np.zeros((degree, length, shift + 1))
    for k in range(1, degree + 1):
        band[k - 1, : length - k + 1] = shift_band(length - k + 1, shift)
    fmap = FeatureMap(
        degree=degree,
        shift=shift,
        n_dense=n_dense,
        n_exact=n_exact,
        offsets=offsets,
        strides=strides,
        salt=salt,
        mask=np.uint64(2**hash_bits - 1),
        coef=coef,
        band=band,
        **table,
    )
    return FeatureLayout(
        length=length,
        fmap=fmap,
        n_columns=int(sum(sizes)) + private_norm.shape[0],
        present=present,
        private_norm=private_norm,
        private_offset=int(sum(sizes)),
    )


def order_columns(
    length: int, degree: int, exact_size: int, hash_bits: int
) -> tuple[int, int, list[int]]:
    """Dense orders, their columns, and the columns of each order if hashed.

    Parameters
    ----------
    length, degree : int
        Sequence length and WD degree.
    exact_size, hash_bits : int
        As in `make_layout`.

    Returns
    -------
    n_dense : int
        Orders indexed densely.
    dense_columns : int
        Their columns.
    hashed_columns : list of int
        ``(L - k + 1) * 2**hash_bits`` for k = 1..min(degree, L).

    Examples
    --------
    >>> n_dense, cols, hashed = order_columns(10, 3, 2**20, 4)
    >>> n_dense, cols, hashed
    (3, 696, [160, 144, 128])
    """
    degree = min(degree, length)
    n_dense = n_exact_orders(length, degree, exact_size)
    dense = sum((length - k + 1) * 4**k for k in range(1, n_dense + 1))
    hashed = [(length - k + 1) * 2**hash_bits for k in range(1, degree + 1)]
    return n_dense, dense, hashed
