"""Explicit positional k-mer weights of a weighted-degree model.

A WD or WDS kernel SVM is linear in positional k-mer indicators:

    s(x) = b + sum_{k, i, y} w_k[i, y] * I(x[i:i+k] = y)

`KmerWeights` holds ``w`` sparsely, one CSR-like block per order ``k``:
row ``i`` (0-based start position) lists the indices of the k-mers that have a
weight there (sorted ascending) and their values. Only k-mers present in
support vectors (shifted by up to S positions for WDS) appear, so the size
grows with ``n_support * L * degree * (2S + 1)`` and never with ``4**degree``.
With ``m`` mismatches every such k-mer spreads to its ``sum_{j <= m} C(k, j)
3**j`` Hamming neighbours (capped by ``4**k`` per position); the reverse
complement at most doubles the size.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_length, check_mismatches
from ..alphabet import check_codes, reverse_complement_kmers
from ..errors import InputError
from ._weights import expand_mismatch_order, expand_order, ism_order, score_order
from .wd import effective_mismatches, mismatch_ratio

DEFAULT_MEMORY_LIMIT = 4 * 2**30
"""Bytes that `KmerWeights.from_support_vectors` may use with mismatches."""


def wd_beta(degree: int) -> np.ndarray:
    """WD order weights ``beta_k = 2 (d - k + 1) / (d (d + 1))`` for k = 1..d.

    Parameters
    ----------
    degree : int
        The WD degree d, the longest k-mer compared.

    Returns
    -------
    numpy.ndarray of float64, shape (d,)

    Examples
    --------
    >>> wd_beta(3).tolist() == [3 / 6, 2 / 6, 1 / 6]
    True
    """
    k = np.arange(1, degree + 1, dtype=np.float64)
    return 2.0 * (degree - k + 1) / (degree * (degree + 1))


def shift_weights(shift: int) -> np.ndarray:
    """WDS shift weights ``delta_s = 1 / (2 (s + 1))`` for s = 1..S.

    Parameters
    ----------
    shift : int
        The largest shift S (0: none).

    Returns
    -------
    numpy.ndarray of float64, shape (S,)

    Examples
    --------
    >>> shift_weights(2).tolist()
    [0.25, 0.16666666666666666]
    """
    return 1.0 / (2.0 * (np.arange(1, shift + 1, dtype=np.float64) + 1.0))


@dataclass
class KmerWeights:
    """Sparse positional k-mer weights ``w_k[i, y]`` plus a bias.

    Attributes
    ----------
    length : int
        Sequence length L.
    bias : float
        Constant term b of the score.
    indptr : list of numpy.ndarray
        ``indptr[k - 1]`` has shape ``(L - k + 2,)``: the entries of start
        position ``i`` are ``indptr[k-1][i]:indptr[k-1][i+1]``.
    kmers : list of numpy.ndarray
        ``kmers[k - 1]`` (int64): k-mer indices (see `poimkit.kmer_index`),
        ascending within each position.
    values : list of numpy.ndarray
        ``values[k - 1]`` (float64): the weights.
    """

    length: int
    bias: float
    indptr: list[np.ndarray] = field(default_factory=list)
    kmers: list[np.ndarray] = field(default_factory=list)
    values: list[np.ndarray] = field(default_factory=list)

    #: the additive-model contract (`poimkit.additive`): positional weights
    decomposition = "positional"
    position_free = False
    convolves_shifts = False  # the weights are expanded already

    def explicit_weights(self) -> KmerWeights:
        """Itself: the weights are explicit (`poimkit.additive.PositionalKmers`)."""
        return self

    def recorded(self) -> dict[str, str]:
        """No model parameters for a POIM's metadata (`poimkit.contract`)."""
        return {}

    @property
    def max_order(self) -> int:
        """Largest k-mer length with a weight block."""
        return len(self.values)

    @property
    def nnz(self) -> int:
        """Number of stored weights over all orders."""
        return int(sum(v.size for v in self.values))

    def order(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(indptr, kmers, values)`` of order k.

        Parameters
        ----------
        k : int
            The order, ``1 <= k <= max_order``.

        Returns
        -------
        indptr, kmers, values : numpy.ndarray
            The CSR block of order k (see the class docstring).
        """
        if not 1 <= k <= self.max_order:
            raise InputError(f"order must be in 1..{self.max_order}, got {k}")
        return self.indptr[k - 1], self.kmers[k - 1], self.values[k - 1]

    def append_order(
        self, indptr: np.ndarray, kmers: np.ndarray, values: np.ndarray
    ) -> None:
        """Add the CSR block of the next order ``k = max_order + 1`` (see `order`).

        Parameters
        ----------
        indptr : numpy.ndarray of int, shape (L - k + 2,)
            Row pointers: the entries of start ``i`` are ``indptr[i]:indptr[i + 1]``.
        kmers : numpy.ndarray of int
            k-mer indices, ascending within each start.
        values : numpy.ndarray of float
            The weights.
        """
        self.indptr.append(np.ascontiguousarray(indptr, dtype=np.int64))
        self.kmers.append(np.ascontiguousarray(kmers, dtype=np.int64))
        self.values.append(np.ascontiguousarray(values, dtype=np.float64))

    def append_entries(
        self, positions: np.ndarray, kmers: np.ndarray, values: np.ndarray
    ) -> None:
        """Add the next order from its entries ``(i, y, w)``, sorted by (i, y).

        Parameters
        ----------
        positions : numpy.ndarray of int
            0-based start i of each entry, ascending, in ``0..L-k``.
        kmers : numpy.ndarray of int
            k-mer index y of each entry, ascending within a start.
        values : numpy.ndarray of float
            Weight w of each entry.

        Examples
        --------
        >>> w = KmerWeights(length=3, bias=0.0)
        >>> w.append_entries(np.array([0, 2]), np.array([1, 3]), np.array([0.5, 2.0]))
        >>> w.order(1)[0].tolist(), w.decision_function(np.array([[1, 0, 3]])).tolist()
        ([0, 1, 1, 2], [2.5])
        """
        n_pos = self.length - self.max_order
        indptr = np.searchsorted(positions, np.arange(n_pos + 1))
        self.append_order(indptr, kmers, values)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """Score integer-coded sequences with the explicit weights.

        Parameters
        ----------
        X : numpy.ndarray of uint8, shape (n, L)
            Integer-coded sequences of the weights' length.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        X = check_length(check_codes(X), self.length, "the weights are for length")
        scores = np.full(X.shape[0], self.bias, dtype=np.float64)
        for k in range(1, self.max_order + 1):
            score_order(X, k, *self.order(k), scores)
        return scores

    def mutagenesis(
        self,
        X: np.ndarray,
        rows: np.ndarray | None = None,
        starts: np.ndarray | None = None,
        width: int | None = None,
    ) -> np.ndarray:
        """Exact in-silico mutagenesis (ISM) from the weights, no model calls.

        Parameters
        ----------
        X : numpy.ndarray of uint8, shape (n, L)
            Integer-coded sequences of the weights' length.
        rows : numpy.ndarray of int, shape (n_windows,), optional
            Sequence of each window; default every row of X once.
        starts : numpy.ndarray of int, shape (n_windows,), optional
            0-based first position of each window; default 0.
        width : int, optional
            Window width; default L (whole sequences).

        Returns
        -------
        numpy.ndarray of float64, shape (n_windows, width, 4)
            ``out[r, c, a] = s(x with x[p] = a) - s(x)`` for ``x = X[rows[r]]``
            and ``p = starts[r] + c``; 0 where ``a`` is the letter already at p.

        Notes
        -----
        Changing ``x[p]`` changes only the k-mers that cover p, so the score
        difference is the sum over those k-mers of the weight of the mutated
        k-mer minus the weight of the present one: ``sum_k k * 3`` look-ups per
        position, exact to rounding (tested against scoring mutated sequences).

        Examples
        --------
        >>> w = KmerWeights.from_tables([np.array([[0, 2.0, 0, 0]])], bias=1.0)
        >>> w.mutagenesis(np.array([[0]]))[0, 0].tolist()
        [0.0, 2.0, 0.0, 0.0]
        """
        X = check_length(check_codes(X), self.length, "the weights are for length")
        width = self.length if width is None else int(width)
        rows = np.arange(X.shape[0]) if rows is None else np.asarray(rows)
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        starts = (
            np.zeros(rows.size, dtype=np.int64)
            if starts is None
            else np.ascontiguousarray(starts, dtype=np.int64)
        )
        if starts.shape != rows.shape:
            raise InputError(
                f"starts has shape {starts.shape} but rows has shape {rows.shape}"
            )
        if rows.size and (
            rows.min() < 0
            or rows.max() >= X.shape[0]
            or starts.min() < 0
            or starts.max() + width > self.length
            or width < 1
        ):
            raise InputError(
                f"windows must lie inside X (rows 0..{X.shape[0] - 1}, starts "
                f"0..{self.length - width} for width {width})"
            )
        out = np.zeros((rows.size, width, 4), dtype=np.float64)
        for k in range(1, self.max_order + 1):
            ism_order(X, k, *self.order(k), rows, starts, out)
        return out

    @classmethod
    def from_support_vectors(
        cls,
        support_vectors: np.ndarray,
        coef: np.ndarray,
        bias: float,
        degree: int,
        shift: int = 0,
        mismatches: int = 0,
        reverse_complement: bool = False,
        memory_limit: float = DEFAULT_MEMORY_LIMIT,
    ) -> KmerWeights:
        """Expand a kernel expansion ``b + sum_j coef_j k(x_j, x)`` into weights.

        Parameters
        ----------
        support_vectors : numpy.ndarray of uint8, shape (m, L)
            The support vectors ``x_j``.
        coef : numpy.ndarray of float64, shape (m,)
            Dual coefficients times labels, already divided by any kernel scale.
        bias : float
            The bias b.
        degree : int
            WD degree d.
        shift : int
            WDS maximal shift S (0 for WD).
        mismatches : int, default=0
            Mismatches m of the kernel (see `poimkit.wd_kernel`); needs
            ``shift=0``.
        reverse_complement : bool, default=False
            The kernel is strand-symmetric, ``k(x, x') + k(rc(x), x')``.
        memory_limit : float, default 4 GiB
            With ``mismatches > 0``: raise an `InputError`, before expanding,
            if the estimated size (`mismatch_weight_size`) exceeds this many
            bytes.

        Notes
        -----
        With ``c_k(y, p) = beta_k sum_j coef_j I(x_j[p:p+k] = y)`` the weight of
        ``(y, p)`` is ``c_k(y, p) + sum_{s=1..S} delta_s (c_k(y, p - s) +
        c_k(y, p + s))``, where the shifted terms exist only while both k-mers
        lie inside the sequence. With mismatches (S = 0) it is
        ``sum_{z : H(z, y) <= min(m, k-1)} mu_{k, H(z, y)} c_k(z, p)`` with
        ``mu_{k,j} = 1 / (C(k, j) 3**j)``: each weight is spread over the
        Hamming neighbours of its k-mer, ``sum_{j <= m} C(k, j) 3**j`` of them.
        With the reverse complement, ``w_k(y, p)`` then gains
        ``w_k(rc(y), L - p - k)``. This is exact: it reproduces the kernel
        expansion up to floating-point rounding.

        Returns
        -------
        KmerWeights
        """
        sv = check_codes(support_vectors, "support_vectors")
        coef = np.asarray(coef, dtype=np.float64).ravel()
        if coef.shape[0] != sv.shape[0]:
            raise InputError(
                f"coef has {coef.shape[0]} entries but there are {sv.shape[0]} "
                "support vectors"
            )
        length = sv.shape[1]
        check_mismatches(mismatches, shift)
        n_mis = effective_mismatches(mismatches, degree, length)
        if n_mis > 0:
            n_entries, n_bytes = mismatch_weight_size(
                sv.shape[0], length, degree, mismatches, reverse_complement
            )
            if n_bytes > memory_limit:
                k_max = min(degree, length)
                spread = _n_neighbours(k_max, min(n_mis, k_max - 1))
                raise InputError(
                    f"explicit weights with mismatches={mismatches} would need "
                    f"about {n_bytes / 2**30:.2f} GiB (up to {n_entries:,} "
                    f"weights: each support-vector k-mer spreads to its "
                    f"sum_j C(k, j) 3**j Hamming neighbours, {spread:,} for "
                    f"k = {k_max}), more than memory_limit = "
                    f"{memory_limit / 2**30:.2f} GiB; lower degree or "
                    "mismatches, or raise memory_limit"
                )
        weights = cls(length=length, bias=float(bias))
        beta = wd_beta(degree)
        delta = shift_weights(shift)
        svt = np.ascontiguousarray(sv.T)  # position-major for the kernel
        m = sv.shape[0]
        for k in range(1, min(degree, length) + 1):
            n_pos = length - k + 1
            counts = np.zeros(n_pos, dtype=np.int64)
            kmers = np.empty((n_pos, m), dtype=np.int64)
            vals = np.empty((n_pos, m), dtype=np.float64)
            expand_order(svt, coef, k, beta[k - 1], counts, kmers, vals)
            filled = np.arange(m) < counts[:, None]  # row-major: by (p, k-mer)
            base = (np.repeat(np.arange(n_pos), counts), kmers[filled], vals[filled])
            del kmers, vals, filled
            parts = [base]
            b_pos, b_kmer, b_val = base
            for s, d_s in enumerate(delta, start=1):
                right = b_pos + s < n_pos  # c(y, p) feeds position p + s
                left = b_pos - s >= 0  # and position p - s
                parts.append((b_pos[right] + s, b_kmer[right], d_s * b_val[right]))
                parts.append((b_pos[left] - s, b_kmer[left], d_s * b_val[left]))
            if len(parts) > 1:
                b_pos, b_kmer, b_val = sum_duplicates(
                    *(np.concatenate(a) for a in zip(*parts, strict=True))
                )
            if min(n_mis, k - 1) > 0:
                keep = b_val != 0.0
                b_pos, b_kmer, b_val = _spread_mismatches(
                    b_pos[keep], b_kmer[keep], b_val[keep], n_pos, k, min(n_mis, k - 1)
                )
            if reverse_complement:  # w(y, p) += w(rc(y), n_pos - 1 - p)
                b_pos, b_kmer, b_val = sum_duplicates(
                    np.concatenate([b_pos, n_pos - 1 - b_pos]),
                    np.concatenate([b_kmer, reverse_complement_kmers(b_kmer, k)]),
                    np.concatenate([b_val, b_val]),
                )
            keep = b_val != 0.0
            weights.append_entries(b_pos[keep], b_kmer[keep], b_val[keep])
        return weights

    @classmethod
    def from_tables(cls, tables: list[np.ndarray], bias: float) -> KmerWeights:
        """Weights from dense tables: ``tables[k-1][p, y]`` for orders k = 1..K.

        Zero entries are left out.

        Parameters
        ----------
        tables : list of numpy.ndarray
            Table k has shape ``(L - k + 1, 4**k)``.
        bias : float
            The bias b.

        Returns
        -------
        KmerWeights

        Examples
        --------
        >>> w = KmerWeights.from_tables([np.array([[0, 2.0, 0, 0]])], bias=1.0)
        >>> w.nnz, w.decision_function(np.array([[1], [0]])).tolist()
        (1, [3.0, 1.0])
        """
        length = tables[0].shape[0] if tables else 0
        weights = cls(length=length, bias=float(bias))
        for k, table in enumerate(tables, start=1):
            if table.shape != (length - k + 1, 4**k):
                raise InputError(
                    f"table of order {k} has shape {table.shape}, expected "
                    f"{(length - k + 1, 4**k)}"
                )
            pos, kmer = np.nonzero(table)  # row-major: by (position, k-mer)
            weights.append_entries(pos, kmer, table[pos, kmer])
        return weights

    def to_arrays(self, prefix: str = "w") -> dict[str, np.ndarray]:
        """Flat dictionary of arrays for `numpy.savez`.

        Parameters
        ----------
        prefix : str, default="w"
            Start of every key (several weights can share a file).

        Returns
        -------
        dict of str to numpy.ndarray
        """
        out = {f"{prefix}_length": np.int64(self.length), f"{prefix}_bias": self.bias}
        out[f"{prefix}_max_order"] = np.int64(self.max_order)
        for k in range(1, self.max_order + 1):
            indptr, kmers, values = self.order(k)
            out[f"{prefix}_indptr_{k}"] = indptr
            out[f"{prefix}_kmers_{k}"] = kmers
            out[f"{prefix}_values_{k}"] = values
        return out

    @classmethod
    def from_arrays(
        cls, arrays: Mapping[str, np.ndarray], prefix: str = "w"
    ) -> KmerWeights:
        """Inverse of `to_arrays`; validates shapes.

        Parameters
        ----------
        arrays : mapping of str to numpy.ndarray
            What `to_arrays` wrote (e.g. an opened ``.npz`` file).
        prefix : str, default="w"
            As given to `to_arrays`.

        Returns
        -------
        KmerWeights

        Raises
        ------
        InputError
            If the arrays of an order are inconsistent.
        """
        length = int(arrays[f"{prefix}_length"])
        weights = cls(length=length, bias=float(arrays[f"{prefix}_bias"]))
        for k in range(1, int(arrays[f"{prefix}_max_order"]) + 1):
            indptr = np.asarray(arrays[f"{prefix}_indptr_{k}"], dtype=np.int64)
            kmers = np.asarray(arrays[f"{prefix}_kmers_{k}"], dtype=np.int64)
            values = np.asarray(arrays[f"{prefix}_values_{k}"], dtype=np.float64)
            if (
                indptr.shape != (length - k + 2,)
                or kmers.shape != values.shape
                or indptr[0] != 0
                or indptr[-1] != kmers.size
                or np.any(np.diff(indptr) < 0)
                or (kmers.size and (kmers.min() < 0 or kmers.max() >= 4**k))
            ):
                raise InputError(f"weights of order {k} are inconsistent")
            weights.append_order(indptr, kmers, values)
        return weights


def _n_neighbours(k: int, n_mis: int) -> int:
    """k-mers within Hamming distance ``n_mis`` of one k-mer (itself included)."""
    return sum(math.comb(k, j) * 3**j for j in range(n_mis + 1))


def mismatch_weight_size(
    n_support: int,
    length: int,
    degree: int,
    mismatches: int,
    reverse_complement: bool = False,
) -> tuple[int, int]:
    """Upper bound on the explicit weights of a WD model with mismatches.

    Parameters
    ----------
    n_support : int
        Number of support vectors.
    length, degree, mismatches : int
        Sequence length L, degree d and mismatches m.
    reverse_complement : bool, default=False
        The kernel is strand-symmetric.

    Returns
    -------
    n_weights : int
        At most ``sum_k (L - k + 1) min(min(n_SV, 4**k) N_k, 4**k)`` stored
        weights (twice that, capped by ``4**k`` per position, with the
        reverse complement), ``N_k = sum_{j <= min(m, k-1)} C(k, j) 3**j``.
    n_bytes : int
        16 bytes per stored weight plus the largest per-order scratch buffer
        of the expansion (16 bytes per raw neighbour).

    Examples
    --------
    >>> mismatch_weight_size(100, 50, 8, 0)[0] == sum(
    ...     (50 - k + 1) * min(100, 4**k) for k in range(1, 9))
    True
    >>> mismatch_weight_size(100, 50, 8, 2)[0] > 100 * 43 * (1 + 24 + 252)
    True
    """
    n_mis = effective_mismatches(mismatches, degree, length)
    stored = 0
    peak_raw = 0
    for k in range(1, min(degree, length) + 1):
        n_pos = length - k + 1
        raw = n_pos * min(n_support, 4**k) * _n_neighbours(k, min(n_mis, k - 1))
        merged = min(raw, n_pos * 4**k)
        stored += min(2 * merged, n_pos * 4**k) if reverse_complement else merged
        peak_raw = max(peak_raw, raw)
    return stored, 16 * (stored + peak_raw)


def _spread_mismatches(
    pos: np.ndarray, kmer: np.ndarray, val: np.ndarray, n_pos: int, k: int, n_mis: int
):
    """Give each weight ``(p, y, w)`` to every z with ``H(z, y) = j <= n_mis``.

    ``pos``/``kmer`` are sorted by (position, k-mer). Returns the merged
    entries, sorted the same way.
    """
    ratio = np.array([mismatch_ratio(k, j) for j in range(n_mis + 1)])
    indptr = np.searchsorted(pos, np.arange(n_pos + 1)).astype(np.int64)
    offsets = indptr * _n_neighbours(k, n_mis)
    out_kmers = np.empty(int(offsets[-1]), dtype=np.int64)
    out_values = np.empty(int(offsets[-1]), dtype=np.float64)
    counts = np.zeros(n_pos, dtype=np.int64)
    expand_mismatch_order(
        indptr,
        np.ascontiguousarray(kmer, dtype=np.int64),
        np.ascontiguousarray(val, dtype=np.float64),
        k,
        ratio,
        offsets,
        out_kmers,
        out_values,
        counts,
    )
    first = np.cumsum(counts) - counts  # index of each position's first entry
    take = np.repeat(offsets[:-1] - first, counts) + np.arange(int(counts.sum()))
    return np.repeat(np.arange(n_pos), counts), out_kmers[take], out_values[take]


def sum_duplicates(
    pos: np.ndarray, kmer: np.ndarray, val: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort entries by (position, k-mer) and add the values of equal keys.

    Parameters
    ----------
    pos, kmer : numpy.ndarray of int
        Position and k-mer key of each entry.
    val : numpy.ndarray of float64
        Value of each entry.

    Returns
    -------
    pos, kmer, val : numpy.ndarray
        One entry per distinct (position, k-mer), sorted; equal keys keep
        their input order while they are added.
    """
    if pos.size == 0:
        return pos, kmer, val
    bits = int(kmer.max()).bit_length()
    if min(pos.min(), kmer.min()) >= 0 and int(pos.max()).bit_length() + bits < 63:
        # one int64 key: a stable argsort of it is lexsort's order, 5x as fast;
        # equal keys are equal (position, k-mer) pairs, so the sorted keys
        # alone find the first of each (the pairs are read there only)
        key = np.left_shift(pos, bits, dtype=np.int64)
        key |= kmer.astype(np.int64, copy=False)
        order = np.argsort(key, kind="stable")
        key = key[order]
        new = np.empty(pos.size, dtype=bool)
        new[0] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
    else:
        order = np.lexsort((kmer, pos))
        sorted_pos, sorted_kmer = pos[order], kmer[order]
        new = np.empty(pos.size, dtype=bool)
        new[0] = True
        new[1:] = (sorted_pos[1:] != sorted_pos[:-1]) | (
            sorted_kmer[1:] != sorted_kmer[:-1]
        )
    starts = np.flatnonzero(new)
    first = order[starts]
    return pos[first], kmer[first], np.add.reduceat(val[order], starts)
