"""Where the data-parallel passes of `WDLinearSVC` run: this process or Dask.

Both backends hold the training sequences as a list of chunks (row blocks of
uint8 codes) and offer the two passes the solver needs:

* ``margins(v)`` -- ``<phi(x_i), v>`` for every sequence, in chunk order;
* ``gradient(c)`` -- ``sum_i c_i phi(x_i)``, computed per chunk into its own
  array; the chunk results are added in the fixed binary tree of `tree_sum`;

and, from the two, ``gram(u)`` -- ``K u = Phi Phi^T u`` (``K`` the kernel
matrix of the training sequences in the feature map, without the bias), which
the sequence-space L-BFGS of `poimkit.svm.linear.lbfgs` needs once per
iteration.

Inside a chunk the numbers do not depend on the number of threads (rows are
independent in ``margins``; in ``gradient`` each order owns its columns and
adds rows in order), and both backends add chunk results in the same tree. So
with the same chunks the local and the Dask backend return bitwise equal
arrays and the solver takes the same path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from numba import get_num_threads

from ..._threads import numba_threads
from . import _features
from .cache import build_cache, no_cache
from .layout import FeatureLayout


def _order_list(layout: FeatureLayout, cache: tuple, n_active: int) -> np.ndarray:
    """The orders dealt to the threads so that their costs balance.

    ``prange`` gives each thread an equal, contiguous part of the list. A
    cached order costs its items, any other its active rows times its
    occurrence rows; the orders are dealt by decreasing cost in a snake
    (1, 2, ..., T, T, ..., 1, ...) and each thread's orders listed in turn.
    """
    cstart, ptr = cache[0], cache[1]
    cost = []
    for k in range(1, layout.degree + 1):
        n_occ = (layout.length - k + 1) * (layout.shift + 1)
        e = cstart[k - 1]
        cost.append(ptr[e + n_occ - 1, -1] - ptr[e, 0] if e >= 0 else n_active * n_occ)
    n_threads = get_num_threads()
    parts: list[list[int]] = [[] for _ in range(n_threads)]
    for i, k in enumerate(np.argsort(cost, kind="stable")[::-1]):
        turn = i % (2 * n_threads)
        parts[min(turn, 2 * n_threads - 1 - turn)].append(int(k) + 1)
    return np.array([k for part in parts for k in part], dtype=np.int64)


def chunk_pass(
    X: np.ndarray,
    vec: np.ndarray,
    layout: FeatureLayout,
    gradient: bool,
    parallel: bool = True,
    row0: int | None = None,
    cache: tuple | None = None,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """One pass over the rows of a chunk: margins or gradient (B = 1).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        The chunk's sequences.
    vec : numpy.ndarray of float64
        Margins: the weights, shape (n_columns + 1,), bias last. Gradient: the
        coefficient of each sequence, shape (n,).
    layout : FeatureLayout
        The feature map.
    gradient : bool
        False: ``<phi(x), vec[:-1]> + vec[-1]`` for every row, shape (n,).
        True: ``sum_i vec_i phi(x_i)`` with the bias column last, shape
        (n_columns + 1,).
    parallel : bool, default=True
        Use numba's threads (False inside a Dask task).
    row0 : int, optional
        Index of the chunk's first row among the training sequences, whose
        private columns (``layout.private_norm``) are then included; None for
        other sequences.
    cache : tuple of numpy.ndarray, optional
        The chunk's item cache (`poimkit.svm.linear.cache.build_cache`); None
        looks every sparse feature up.
    out : numpy.ndarray of float64, shape (n_columns + 1,), optional
        Gradient only: the array to write the result into (its contents are
        overwritten); None allocates one.

    Returns
    -------
    numpy.ndarray of float64
    """
    X = np.ascontiguousarray(X)
    if cache is None:
        cache = no_cache(layout)
    private = row0 is not None and layout.n_private
    if private:
        lo = layout.private_offset + row0
        norm = layout.private_norm[row0 : row0 + X.shape[0]]
    if not gradient:
        out = np.empty(X.shape[0], dtype=np.float64)
        kernel = _features.margins_parallel if parallel else _features.margins_serial
        n_runs = get_num_threads() if parallel else 1
        kernel(X, vec, layout.fmap, out, n_runs, *cache)
        if private:
            out += vec[lo : lo + X.shape[0]] * norm
        return out
    if out is None:
        out = np.zeros(layout.n_columns + 1, dtype=np.float64)
    else:
        out.fill(0.0)
    kernel = _features.scatter_parallel if parallel else _features.scatter_serial
    orders = _order_list(layout, cache, int(np.count_nonzero(vec)))
    kernel(X, vec, orders, layout.fmap, out, *cache)
    if private:
        out[lo : lo + X.shape[0]] = vec * norm
    # added in index order, whatever the memory layout: numpy's sum adds in
    # another order for misaligned arrays, which Dask workers may receive
    out[-1] = _features.ordered_sum(vec)
    return out


def collision_stats(chunks: list[np.ndarray], layout: FeatureLayout) -> tuple[int, int]:
    """Occupied hashed buckets and those holding two or more distinct features.

    Parameters
    ----------
    chunks : list of numpy.ndarray of uint8
        The training sequences, chunk by chunk.
    layout : FeatureLayout
        The feature map.

    Returns
    -------
    occupied, shared : int
    """
    if layout.n_hashed_orders == 0:
        return 0, 0
    first = np.zeros(layout.n_columns, dtype=np.uint64)
    shared = np.zeros(layout.n_columns, dtype=np.bool_)
    hashed = np.arange(layout.n_exact + 1, layout.degree + 1, dtype=np.int64)
    for X in chunks:
        _features.mark_buckets(
            np.ascontiguousarray(X), hashed, layout.fmap, first, shared
        )
    return int(np.count_nonzero(first)), int(np.count_nonzero(shared))


class _Chunks:
    """What both backends hold: each chunk's first row and item cache."""

    bounds: np.ndarray
    caches: list

    def _budgets(self, budget: int) -> list[int]:
        """Each chunk's share of the cache budget, by its rows."""
        n = max(int(self.bounds[-1]), 1)
        return [
            budget * int(hi - lo) // n
            for lo, hi in zip(self.bounds[:-1], self.bounds[1:], strict=True)
        ]

    def _spans(self, chunks: list) -> zip:
        """``(chunk, first row, end row, cache)`` of every chunk, in order."""
        return zip(chunks, self.bounds[:-1], self.bounds[1:], self.caches, strict=True)

    def gram(self, u: np.ndarray) -> np.ndarray:
        """``K u = Phi Phi^T u`` (n,) of ``u`` (n,): a gradient pass, then margins."""
        phi_u = self.gradient(u)
        phi_u[-1] = 0.0  # the bias column is not part of the kernel
        out = self.margins(phi_u)
        self._release(phi_u)
        return out

    def _release(self, vec: np.ndarray) -> None:
        """Take back a vector from `gradient` that the caller no longer needs.

        Nothing to do here (Dask: every gradient arrives as a fresh array).
        """


class LocalBackend(_Chunks):
    """Passes over in-memory or memory-mapped chunks in this process.

    Parameters
    ----------
    chunks : list of numpy.ndarray of uint8
        Row blocks of the training sequences (arrays or memory maps).
    layout : FeatureLayout
        Feature map of the model.
    n_threads : int, optional
        numba threads for the passes.
    cache_budget : int, default=0
        Bytes the chunks' item caches may take (`poimkit.svm.linear.cache`).
    items : list, optional
        Ready-made items of the lowest sparse orders: ``items[o][c]`` for
        order o on chunk c (`poimkit.svm.linear.table.collect_present_keys`);
        taken over (the entries are set to None as each chunk's cache is
        made).
    """

    def __init__(
        self,
        chunks: list[np.ndarray],
        layout: FeatureLayout,
        n_threads: int | None = None,
        cache_budget: int = 0,
        items: list | None = None,
    ) -> None:
        self.chunks = chunks
        self.layout = layout
        self.n_threads = n_threads
        self.bounds = np.cumsum([0] + [len(X) for X in chunks])
        # vectors of n_columns + 1 entries for gradient passes to write into:
        # a fresh array of 10^7 entries costs more in page faults than a pass
        # adds to it
        self._spare: list[np.ndarray] = []
        items = items or []
        self.caches = []
        with numba_threads(n_threads):
            for c, (X, budget) in enumerate(
                zip(chunks, self._budgets(cache_budget), strict=True)
            ):
                orders = [order[c] for order in items]
                for order in items:
                    order[c] = None
                self.caches.append(build_cache(X, layout, budget, orders))

    def margins(self, v: np.ndarray) -> np.ndarray:
        """Margins of every sequence, chunk after chunk.

        Parameters
        ----------
        v : numpy.ndarray of float64, shape (n_columns + 1,)
            Weights, bias last.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        with numba_threads(self.n_threads):
            return np.concatenate(
                [
                    chunk_pass(X, v, self.layout, False, row0=int(lo), cache=cache)
                    for X, lo, _, cache in self._spans(self.chunks)
                ]
            )

    def gradient(self, c: np.ndarray) -> np.ndarray:
        """``sum_i c_i phi(x_i)``: chunk results added by `tree_sum`.

        Parameters
        ----------
        c : numpy.ndarray of float64, shape (n,)
            Coefficient of each sequence.

        Returns
        -------
        numpy.ndarray of float64, shape (n_columns + 1,)
            The caller's own array (not used by the backend again).
        """

        def part(X, lo, hi, cache):
            out = self._spare.pop() if self._spare else None
            return chunk_pass(X, c[lo:hi], self.layout, True, True, lo, cache, out)

        def add(a, b):
            np.add(a, b, out=a)
            self._release(b)
            return a

        with numba_threads(self.n_threads):
            return tree_sum(
                (
                    part(X, int(lo), hi, cache)
                    for X, lo, hi, cache in self._spans(self.chunks)
                ),
                add,
            )

    def _release(self, vec: np.ndarray) -> None:
        """Keep ``vec`` for the next gradient pass to write into."""
        self._spare.append(vec)

    def close(self) -> None:
        """Drop the kept gradient vectors."""
        self._spare.clear()


class DaskBackend(_Chunks):
    """The same passes as tasks on a ``dask.distributed`` cluster.

    The chunks are scattered once, in contiguous runs per worker, and stay
    there; each pass broadcasts the vector and runs one task per chunk
    (kernels single-threaded inside a task, one task per worker thread).
    Gradients are added on the workers in the tree of `tree_sum`, so mostly
    where their chunks live, and only the total comes back.

    Parameters
    ----------
    client : dask.distributed.Client
        The cluster.
    chunks, layout, cache_budget
        As in `LocalBackend`; the chunks are copied to the workers, which
        build and keep their item caches.
    """

    def __init__(
        self,
        client: object,
        chunks: list[np.ndarray],
        layout: FeatureLayout,
        cache_budget: int = 0,
    ) -> None:
        self.client = client
        self.layout = layout
        self.bounds = np.cumsum([0] + [len(X) for X in chunks])
        workers = sorted(client.scheduler_info()["workers"])
        self.futures = [
            client.scatter(
                np.ascontiguousarray(X),
                workers=[workers[i * len(workers) // len(chunks)]],
            )
            for i, X in enumerate(chunks)
        ]
        self.layout_future = client.scatter(layout, broadcast=True)
        self.caches = [
            client.submit(build_cache, X, self.layout_future, budget, pure=False)
            for X, budget in zip(self.futures, self._budgets(cache_budget), strict=True)
        ]

    def margins(self, v: np.ndarray) -> np.ndarray:
        """Margins of every sequence, gathered in chunk order.

        Parameters
        ----------
        v : numpy.ndarray of float64, shape (n_columns + 1,)
            Weights, bias last; broadcast to the workers.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        vf = self.client.scatter(v, broadcast=True)
        tasks = [
            self.client.submit(
                chunk_pass,
                *(X, vf, self.layout_future, False, False, int(lo), cache),
                pure=False,
            )
            for X, lo, _, cache in self._spans(self.futures)
        ]
        out = np.concatenate(self.client.gather(tasks))
        self.client.cancel([vf])
        return out

    def gradient(self, c: np.ndarray) -> np.ndarray:
        """Per-chunk gradients added on the workers by `tree_sum`.

        Parameters
        ----------
        c : numpy.ndarray of float64, shape (n,)
            Coefficient of each sequence; each task gets its chunk's part.

        Returns
        -------
        numpy.ndarray of float64, shape (n_columns + 1,)
        """
        parts = (
            self.client.submit(
                chunk_pass,
                *(X, c[lo:hi], self.layout_future, True, False, int(lo), cache),
                pure=False,
            )
            for X, lo, hi, cache in self._spans(self.futures)
        )
        total = tree_sum(
            parts, lambda a, b: self.client.submit(np.add, a, b, pure=False)
        )
        return np.array(total.result())  # a fresh (aligned) copy for the solver

    def close(self) -> None:
        """Drop the chunks from the cluster."""
        self.client.cancel(self.futures + self.caches + [self.layout_future])


def tree_sum(
    parts: Iterable[object], add: Callable[[object, object], object]
) -> object:
    """Add ``parts`` in a fixed binary tree: that of a binary counter.

    Every part is pushed as a leaf, and the two latest subtrees are merged
    (``add(earlier, later)``) while they have the same number of leaves; the
    rest is merged from the right. The tree depends only on the number of
    parts, so any two backends that use it add in the same order (bitwise
    equal sums); at most log2(n) partial sums are held at a time.

    Parameters
    ----------
    parts : iterable
        The terms, in order (at least one).
    add : callable
        ``add(a, b)`` returns the sum of two terms or partial sums.

    Returns
    -------
    object
        The total.

    Examples
    --------
    >>> tree_sum(["a", "b", "c", "d", "e"], lambda x, y: f"({x}+{y})")
    '(((a+b)+(c+d))+e)'
    """
    stack: list[tuple[int, object]] = []
    for part in parts:
        size, value = 1, part
        while stack and stack[-1][0] == size:
            earlier_size, earlier = stack.pop()
            size, value = size + earlier_size, add(earlier, value)
        stack.append((size, value))
    _, total = stack.pop()
    while stack:
        _, earlier = stack.pop()
        total = add(earlier, total)
    return total
