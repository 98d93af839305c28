"""The exact sparse table of `WDLinearSVC`: the positional k-mers of the training data.

With L2 regularisation the optimal weights are a combination of the training
feature vectors (representer theorem), so a feature ``(k, r, y)`` that no
training sequence has keeps the weight 0. Indexing exactly the features present
in the training data therefore loses nothing, however large ``4**k`` is.

Long k-mers are mostly *private*: only one training sequence has them. The
optimal weights of sequence i's private features are proportional to their
values in ``phi(x_i)`` (a component orthogonal to them changes no training
score and only adds to ``||w||^2``), so while training they are one column per
sequence, of value ``s_i = ||phi_private(x_i)||``, and the table holds only the
*shared* features (two or more sequences): about ``4**k (1 - e^-l (1 + l))``
per position for ``l = n / 4**k``, a few per position for the longest k-mers
instead of n. This is exact; `poimkit.svm.linear.private_kmers` writes the private
features of the sequences with weight into the table after training.

A first pass (`collect_present_keys`) collects the features, order by order
and chunk by chunk, until the memory of training would exceed the budget
(`memory_budget`, `MEMORY_FRACTION` of the RAM); the orders that do not fit
are hashed as before (see `poimkit.svm.linear.layout`). `build_table` turns
the keys into the open-addressing tables that the numba passes look features
up in (`poimkit.svm.linear._table`). A key absent from the table (a k-mer seen
first at prediction) has weight 0, as in the L2 solution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._machine import physical_memory
from . import _table
from .items import concat_items, items_of_columns

#: share of the RAM that training on the exact sparse table may take
MEMORY_FRACTION = 0.25
#: weight-sized float64 vectors budgeted for training: what a primal L-BFGS of
#: 10 pairs would hold; the sequence-space solver holds a few of them
VECTOR_COPIES = 25
#: bytes of one table slot: the uint64 key and the int32 column
SLOT_BYTES = 12


def memory_budget() -> int:
    """Bytes that training on the exact sparse table may take.

    Returns
    -------
    int
        `MEMORY_FRACTION` (25 %) of the physical RAM (8 GiB assumed if the
        system does not say).
    """
    return int(MEMORY_FRACTION * physical_memory())


def capacities(counts: np.ndarray) -> np.ndarray:
    """Slots of each region: the power of two at least ``max(2, 2 * count)``.

    Parameters
    ----------
    counts : numpy.ndarray of int64
        Keys per region.

    Returns
    -------
    numpy.ndarray of int64

    Examples
    --------
    >>> capacities(np.array([0, 1, 3, 4])).tolist()
    [2, 2, 8, 8]
    """
    need = np.maximum(2 * np.asarray(counts, dtype=np.int64), 2)
    return (1 << np.ceil(np.log2(need)).astype(np.int64)).astype(np.int64)


@dataclass(frozen=True)
class PresentKeys:
    """The k-mer keys of the sparse orders, region by region, in column order.

    Attributes
    ----------
    first_order : int
        The first sparse order; orders ``first_order .. first_order +
        len(counts) - 1`` are sparse.
    counts : list of numpy.ndarray of int64
        ``counts[o][r]``: keys of feature position r of the o-th sparse order.
    keys : list of numpy.ndarray of uint64
        ``keys[o]``: their ``kmer index + 1``, region after region.
    private_norm : numpy.ndarray of float64, shape (n,), optional
        While training: the features of the sparse orders that only one
        training sequence has are not in the table; ``private_norm[i]`` is
        the norm of sequence i's private features (see the module docstring).
        None in a fitted model (every feature with a weight is in the table).
    n_private : int
        Private features of the training data (0 in a fitted model).
    """

    first_order: int
    counts: list
    keys: list
    private_norm: np.ndarray | None = None
    n_private: int = 0

    @property
    def n_keys(self) -> int:
        """Keys over every sparse order."""
        return int(sum(int(c.sum()) for c in self.counts))

    @property
    def n_orders(self) -> int:
        """Number of sparse orders."""
        return len(self.counts)

    def table_bytes(self) -> int:
        """Bytes of the lookup tables `build_table` makes."""
        return int(sum(capacities(c).sum() for c in self.counts)) * SLOT_BYTES


def collect_present_keys(
    chunks: list[np.ndarray],
    degree: int,
    shift: int,
    first_order: int,
    fixed_columns: int,
    budget: int,
    factors: np.ndarray | None = None,
    items: list | None = None,
) -> PresentKeys:
    """Collect the features ``(k, r, y)`` of the training data, order by order.

    Features that two or more training sequences share go into the table;
    the private ones (of one sequence) only add to that sequence's
    ``private_norm``.

    Parameters
    ----------
    chunks : list of numpy.ndarray of uint8, shape (n_i, L)
        The training sequences, chunk by chunk (read once per order, or a few
        times if one order's collection table would be large).
    degree, shift : int
        Orders ``1..degree`` (already at most L) and the WDS shift S.
    first_order : int
        The first order to index sparsely (those below are dense).
    fixed_columns : int
        Columns of the dense orders.
    budget : int
        Bytes that training may take: `VECTOR_COPIES` float64 vectors of
        every dense, shared and private column plus the lookup tables (see
        `estimate_train_bytes`). Collection stops at the first order that
        would exceed it; that order and the higher ones are hashed (as many
        columns as ``sparse=False``).
    factors : numpy.ndarray of float64, shape (degree, L, S + 1), optional
        ``factors[k-1, p, j]``: value that an occurrence at p gives feature
        ``(k, p - j, y)`` (`FeatureLayout.coef` times `FeatureLayout.band`);
        default 1 for ``j = 0``.
    items : list, optional
        WD only: receives, for each sparse order from the lowest up, the item
        cache of that order on every chunk (`poimkit.svm.linear.cache`), made
        from the collection's own slots instead of a second lookup of every
        occurrence; the orders stop where the items would take more than the
        budget leaves.

    Returns
    -------
    PresentKeys
        The sparse orders that fit (possibly none) and the private norms.
    """
    n = sum(X.shape[0] for X in chunks)
    length = chunks[0].shape[1]
    if factors is None:
        factors = np.zeros((degree, length, shift + 1))
        factors[:, :, 0] = 1.0
    counts, keys = [], []
    private_sq = np.zeros(n)
    n_private = 0
    columns = fixed_columns + n  # the private columns, one per sequence
    table = 0
    scratch_limit = max(budget // 4, 1)
    # WD: cand[p, i] is False once the (k-1)-mer at p or p + 1 of sequence i
    # is private, so its k-mer at p is private too, and is not collected
    cand = np.ones((length - first_order + 1, n), dtype=np.bool_)
    bounds = np.cumsum([0] + [X.shape[0] for X in chunks])
    building = items is not None and shift == 0
    item_bytes = 0
    for k in range(first_order, degree + 1):
        n_pos = length - k + 1
        bound = min(4**k, n * (shift + 1))
        if shift == 0:  # at most the candidates of a position
            bound = min(bound, int(cand.sum(axis=1).max()))
        cap = int(capacities(np.array([bound]))[0])
        # one position's collection table: key, owner (and WDS value) per
        # slot; WD also the slot of every sequence's occurrence
        per_position = cap * (20 if shift else 12) + (0 if shift else 4 * n)
        if per_position > scratch_limit:
            break
        batch = max(1, min(n_pos, scratch_limit // per_position))
        order_sq = np.zeros(n)
        fk = np.ascontiguousarray(factors[k - 1, :n_pos])
        order_private = _table.add_private(cand[:n_pos], fk[:, 0] ** 2, order_sq)
        count = np.zeros(n_pos, dtype=np.int64)
        shared_keys = []
        shared = np.zeros((n_pos, n) if shift == 0 else (0, 0), dtype=np.bool_)
        pieces: list[list] = [[] for _ in chunks]  # items per chunk, per batch
        for r0 in range(0, n_pos, batch):
            r1 = min(n_pos, r0 + batch)
            found, n_priv, slots = _collect_batch(
                chunks,
                k,
                (r0, r1, building),
                cap,
                shift,
                fk,
                cand,
                (count, order_sq, shared),
            )
            shared_keys.append(found)  # region after region
            order_private += n_priv
            if building:
                for part, a, b in zip(pieces, bounds[:-1], bounds[1:], strict=True):
                    part.append(items_of_columns(slots[:, a:b], count[r0:r1]))
            del slots
        need = VECTOR_COPIES * 8 * (columns + int(count.sum()))
        need += table + int(capacities(count).sum()) * SLOT_BYTES
        if need > budget:
            break
        columns += int(count.sum())
        table += int(capacities(count).sum()) * SLOT_BYTES
        counts.append(count)
        keys.append(np.concatenate(shared_keys))
        private_sq += order_sq
        n_private += order_private
        if building:
            order_items = [concat_items(part) for part in pieces]
            item_bytes += sum(a.nbytes for part in order_items for a in part)
            building = item_bytes <= budget - need
            if building:
                items.append(order_items)
        del pieces
        if shift == 0:  # a k-mer's two (k-1)-mers: at p and p + 1
            cand = shared[:-1] & shared[1:]
    if not counts:
        return PresentKeys(first_order=first_order, counts=[], keys=[])
    return PresentKeys(
        first_order=first_order,
        counts=counts,
        keys=keys,
        private_norm=np.sqrt(private_sq),
        n_private=n_private,
    )


def _collect_batch(chunks, k: int, span: tuple, cap: int, shift: int, fk, cand, out):
    """The shared k-mers at positions ``r0 <= p < r1`` of every chunk.

    Collects each position's k-mers into a table of ``cap`` slots, counts the
    shared ones in ``out = (count, order_sq, shared)`` (the private ones'
    squared norms into ``order_sq``; WD: which occurrences are shared) and
    returns ``(keys, n_private, slots)``: the shared keys, region after
    region, the private count and, when ``building`` the items (WD), every
    occurrence's column slot. ``span = (r0, r1, building)``.
    """
    r0, r1, building = span
    count, order_sq, shared = out
    n = cand.shape[1]
    n_pos = fk.shape[0]
    rows = np.zeros((r1 - r0, cap), dtype=np.uint64)
    owner = np.zeros((r1 - r0, cap), dtype=np.int32)
    value = np.zeros((r1 - r0, cap if shift else 0))
    slots = np.zeros((r1 - r0, n if shift == 0 else 0), dtype=np.int32)
    row0 = 0
    for X in chunks:
        kp = np.empty((n_pos, X.shape[0]), dtype=np.uint64)
        _table.order_keys(np.ascontiguousarray(X, dtype=np.uint8), k, kp)
        _table.collect(
            *(kp, r0, row0, shift, fk, cand, rows, owner, value, slots),
            np.uint64(cap - 1),
        )
        row0 += X.shape[0]
    if shift == 0:
        _table.shared_occurrences(cand, r0, owner, slots, shared)
    flat = rows.reshape(-1)  # the shared keys are gathered in place
    n_shared, n_priv = _table.split_shared(
        rows, owner, value, fk[r0:r1, 0], count[r0:r1], flat, order_sq
    )
    if building:
        _table.slot_columns(owner, r0, shared, slots)
    return flat[:n_shared].copy(), n_priv, slots


def build_table(present: PresentKeys, degree: int, length: int, first_column: int):
    """The lookup arrays of the sparse orders (see `poimkit.svm.linear._table`).

    Parameters
    ----------
    present : PresentKeys
        The keys.
    degree, length : int
        Shape of the per-(order, position) arrays.
    first_column : int
        Column of the first key (after the dense orders).

    Returns
    -------
    tstart, tmask, cbase : numpy.ndarray of int64, shape (degree, length)
        Region start in ``tkeys``, capacity - 1 and first column of each
        region of a sparse order (zeros elsewhere).
    tkeys : numpy.ndarray of uint64
    tidx : numpy.ndarray of int32
    n_columns : int
        Columns of the sparse orders.
    """
    tstart = np.zeros((degree, length), dtype=np.int64)
    tmask = np.zeros((degree, length), dtype=np.int64)
    cbase = np.zeros((degree, length), dtype=np.int64)
    caps = [capacities(c) for c in present.counts]
    total = int(sum(int(c.sum()) for c in caps))
    tkeys = np.zeros(total, dtype=np.uint64)
    tidx = np.zeros(total, dtype=np.int32)
    slot, column = 0, first_column
    for o, (count, cap) in enumerate(zip(present.counts, caps, strict=True)):
        k = present.first_order + o
        n_pos = count.shape[0]
        starts = slot + np.concatenate([[0], np.cumsum(cap)[:-1]]).astype(np.int64)
        tstart[k - 1, :n_pos] = starts
        tmask[k - 1, :n_pos] = cap - 1
        cbase[k - 1, :n_pos] = column + np.concatenate([[0], np.cumsum(count)[:-1]])
        _table.fill_regions(
            np.ascontiguousarray(present.keys[o], dtype=np.uint64),
            count,
            starts,
            cap - 1,
            tkeys,
            tidx,
        )
        slot += int(cap.sum())
        column += int(count.sum())
    return tstart, tmask, cbase, tkeys, tidx, column - first_column


def expected_shared(n: int, n_kmers: int) -> float:
    """Expected k-mers that two or more of ``n`` uniform random draws share.

    Parameters
    ----------
    n : int
        Draws (sequences times ``S + 1`` for WDS).
    n_kmers : int
        ``4**k``.

    Returns
    -------
    float
        ``m (1 - e^-lam (1 + lam))`` with ``m = n_kmers``, ``lam = n / m``.

    Examples
    --------
    >>> round(expected_shared(10**4, 4**10), 1), round(expected_shared(10**6, 4), 1)
    (47.4, 4.0)
    """
    lam = n / n_kmers
    return float(n_kmers * -np.expm1(-lam) - n * np.exp(-lam))


def estimate_train_bytes(
    n: int,
    length: int,
    degree: int,
    shift: int = 0,
    exact_size: int = 2**20,
    margin: float = 1.5,
) -> int:
    """Estimated training memory of an exact model (no order hashed).

    The table holds the k-mers that two or more training sequences share
    (the private ones take one column per sequence, see
    `poimkit.svm.linear.private_kmers`): ``margin`` times their expected number
    for uniform random sequences (`expected_shared`; repeats and motifs add
    shared k-mers), at most ``min(4**k, n (S + 1) / 2)`` per position.

    Parameters
    ----------
    n, length : int
        Number of training sequences and their length.
    degree, shift : int
        WD degree and WDS shift.
    exact_size : int, default=2**20
        As in `WDLinearSVC` (orders with a smaller full table are dense).
    margin : float, default=1.5
        Factor on the expected shared k-mers.

    Returns
    -------
    int
        Bytes: `VECTOR_COPIES` float64 vectors per column plus the lookup
        tables; compare with `memory_budget`. `WDLinearSVC` checks the real
        need order by order while it collects the keys.

    Examples
    --------
    >>> columns = 20 * 4 + 19 * 16 + 18 * 64  # every order dense
    >>> estimate_train_bytes(10, 20, 3) == VECTOR_COPIES * 8 * columns
    True
    """
    columns, slots, sparse = 0, 0, False
    for k in range(1, min(degree, length) + 1):
        n_pos = length - k + 1
        if n_pos * 4**k <= exact_size and not sparse:
            columns += n_pos * 4**k
            continue
        if not sparse:
            columns += n  # the private columns
            sparse = True
        draws = n * (shift + 1)
        shared = min(margin * expected_shared(draws, 4**k), 4**k, draws / 2)
        columns += int(n_pos * shared)
        slots += n_pos * int(capacities(np.array([int(shared)]))[0])
    return VECTOR_COPIES * 8 * columns + SLOT_BYTES * slots


def largest_fitting_degree(
    n: int, length: int, max_degree: int, shift: int = 0, budget: int | None = None
) -> int:
    """The largest degree up to ``max_degree`` whose exact model fits the budget.

    Parameters
    ----------
    n, length : int
        Number of training sequences and their length.
    max_degree : int
        The degree wanted.
    shift : int, default=0
        WDS shift.
    budget : int, optional
        Bytes (default `memory_budget`).

    Returns
    -------
    int
        At least 1 (`estimate_train_bytes` at most ``budget``, or 1).

    Examples
    --------
    >>> largest_fitting_degree(10**6, 141, 20, budget=6 * 2**30)
    8
    """
    budget = memory_budget() if budget is None else budget
    degree = 1
    for d in range(2, max_degree + 1):
        if estimate_train_bytes(n, length, d, shift) > budget:
            break
        degree = d
    return degree
