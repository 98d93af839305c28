"""Where the data-parallel passes of `WDLinearSVC` run: this process or Dask.

Both backends hold the training sequences as a list of chunks (row blocks of
uint8 codes) and offer the two passes the solver needs:

* ``margins(v)`` -- ``<phi(x_i), v>`` for every sequence, in chunk order;
* ``gradient(c)`` -- ``sum_i c_i phi(x_i)``, computed per chunk into its own
  array; the chunk results are added in the fixed binary tree of `tree_sum`.

Inside a chunk the numbers do not depend on the number of threads (rows are
independent in ``margins``; in ``gradient`` each order owns its columns and
adds rows in order), and both backends add chunk results in the same tree. So
with the same chunks the local and the Dask backend return bitwise equal
arrays and the solver takes the same path.
"""

from __future__ import annotations

import math

import numpy as np

from .._threads import numba_threads
from . import _kernels
from .layout import FeatureLayout


def _order_list(layout: FeatureLayout) -> np.ndarray:
    """Orders interleaved (1, d, 2, d-1, ...) so that prange halves balance."""
    ks = list(range(1, layout.degree + 1))
    out = []
    while ks:
        out.append(ks.pop(0))
        if ks:
            out.append(ks.pop())
    return np.array(out, dtype=np.int64)


def chunk_margins(X, v, layout: FeatureLayout, parallel: bool = True) -> np.ndarray:
    """``<phi(x), v[:-1]> + B v[-1]`` for the rows of one chunk (B = 1)."""
    out = np.empty(X.shape[0], dtype=np.float64)
    kernel = _kernels.margins_parallel if parallel else _kernels.margins_serial
    kernel(np.ascontiguousarray(X), v, layout.fmap, out)
    return out


def chunk_gradient(X, c, layout: FeatureLayout, parallel: bool = True) -> np.ndarray:
    """``sum_i c_i phi(x_i)`` of one chunk, bias column last (B = 1)."""
    out = np.zeros(layout.n_columns + 1, dtype=np.float64)
    kernel = _kernels.scatter_parallel if parallel else _kernels.scatter_serial
    kernel(np.ascontiguousarray(X), c, _order_list(layout), layout.fmap, out)
    # fsum is exact, so independent of memory layout: numpy's sum adds in
    # another order for misaligned arrays, which Dask workers may receive
    out[-1] = math.fsum(c)
    return out


def collision_stats(chunks, layout: FeatureLayout) -> tuple[int, int]:
    """Occupied hashed buckets and those holding two or more distinct features."""
    if layout.n_hashed_orders == 0:
        return 0, 0
    first = np.zeros(layout.n_columns, dtype=np.uint64)
    shared = np.zeros(layout.n_columns, dtype=np.bool_)
    hashed = np.arange(layout.n_exact + 1, layout.degree + 1, dtype=np.int64)
    for X in chunks:
        _kernels.mark_buckets(
            np.ascontiguousarray(X), hashed, layout.fmap, first, shared
        )
    return int(np.count_nonzero(first)), int(np.count_nonzero(shared))


class LocalBackend:
    """Passes over in-memory or memory-mapped chunks in this process."""

    def __init__(self, chunks, layout: FeatureLayout, n_threads=None) -> None:
        self.chunks = chunks
        self.layout = layout
        self.n_threads = n_threads
        self.bounds = np.cumsum([0] + [len(X) for X in chunks])

    def margins(self, v: np.ndarray) -> np.ndarray:
        """Margins of every sequence, chunk after chunk."""
        with numba_threads(self.n_threads):
            return np.concatenate(
                [chunk_margins(X, v, self.layout) for X in self.chunks]
            )

    def gradient(self, c: np.ndarray) -> np.ndarray:
        """``sum_i c_i phi(x_i)``: chunk results added by `tree_sum`."""
        with numba_threads(self.n_threads):
            return tree_sum(
                (
                    chunk_gradient(X, c[lo:hi], self.layout)
                    for X, lo, hi in zip(
                        self.chunks, self.bounds[:-1], self.bounds[1:], strict=True
                    )
                ),
                np.add,
            )

    def close(self) -> None:
        """Nothing to release."""


class DaskBackend:
    """The same passes as tasks on a ``dask.distributed`` cluster.

    The chunks are scattered once, in contiguous runs per worker, and stay
    there; each pass broadcasts the vector and runs one task per chunk
    (kernels single-threaded inside a task, one task per worker thread).
    Gradients are added on the workers in the tree of `tree_sum`, so mostly
    where their chunks live, and only the total comes back.
    """

    def __init__(self, client, chunks, layout: FeatureLayout) -> None:
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

    def margins(self, v: np.ndarray) -> np.ndarray:
        """Margins of every sequence, gathered in chunk order."""
        vf = self.client.scatter(v, broadcast=True)
        tasks = [
            self.client.submit(
                chunk_margins, X, vf, self.layout_future, False, pure=False
            )
            for X in self.futures
        ]
        out = np.concatenate(self.client.gather(tasks))
        self.client.cancel([vf])
        return out

    def gradient(self, c: np.ndarray) -> np.ndarray:
        """Per-chunk gradients added on the workers by `tree_sum`."""
        parts = (
            self.client.submit(
                chunk_gradient, X, c[lo:hi], self.layout_future, False, pure=False
            )
            for X, lo, hi in zip(
                self.futures, self.bounds[:-1], self.bounds[1:], strict=True
            )
        )
        total = tree_sum(
            parts, lambda a, b: self.client.submit(np.add, a, b, pure=False)
        )
        return np.array(total.result())  # a fresh (aligned) copy for the solver

    def close(self) -> None:
        """Drop the chunks from the cluster."""
        self.client.cancel(self.futures + [self.layout_future])


def tree_sum(parts, add):
    """Add ``parts`` in a fixed binary tree: that of a binary counter.

    Every part is pushed as a leaf, and the two latest subtrees are merged
    (``add(earlier, later)``) while they have the same number of leaves; the
    rest is merged from the right. The tree depends only on the number of
    parts, so any two backends that use it add in the same order (bitwise
    equal sums); at most log2(n) partial sums are held at a time.

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
