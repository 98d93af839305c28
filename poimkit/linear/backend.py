"""Where the data-parallel passes of `WDLinearSVC` run: this process or Dask.

Both backends hold the training sequences as a list of chunks (row blocks of
uint8 codes) and offer the two passes the solver needs:

* ``margins(v)`` -- ``<phi(x_i), v>`` for every sequence, in chunk order;
* ``gradient(c)`` -- ``sum_i c_i phi(x_i)``, computed per chunk into its own
  array and added in chunk order.

Inside a chunk the numbers do not depend on the number of threads (rows are
independent in ``margins``; in ``gradient`` each order owns its columns and
adds rows in order). So with the same chunks the local and the Dask backend
return bitwise equal arrays and the solver takes the same path.
"""

from __future__ import annotations

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
    out[-1] = c.sum()
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
        """``sum_i c_i phi(x_i)`` added chunk by chunk."""
        total = np.zeros(self.layout.n_columns + 1)
        with numba_threads(self.n_threads):
            for X, lo, hi in zip(
                self.chunks, self.bounds[:-1], self.bounds[1:], strict=True
            ):
                total += chunk_gradient(X, c[lo:hi], self.layout)
        return total

    def close(self) -> None:
        """Nothing to release."""


class DaskBackend:
    """The same passes as tasks on a ``dask.distributed`` cluster.

    The chunks are scattered once and stay on the workers; each pass sends the
    vector (broadcast) and gathers one result per chunk. Kernels run
    single-threaded inside a task (one task per worker thread).
    """

    def __init__(self, client, chunks, layout: FeatureLayout) -> None:
        self.client = client
        self.layout = layout
        self.bounds = np.cumsum([0] + [len(X) for X in chunks])
        self.futures = [client.scatter(np.ascontiguousarray(X)) for X in chunks]
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
        """Per-chunk gradients computed on the workers, added here in chunk order."""
        tasks = [
            self.client.submit(
                chunk_gradient, X, c[lo:hi], self.layout_future, False, pure=False
            )
            for X, lo, hi in zip(
                self.futures, self.bounds[:-1], self.bounds[1:], strict=True
            )
        ]
        total = np.zeros(self.layout.n_columns + 1)
        for part in self.client.gather(tasks):  # gather keeps the task order
            total += part
        return total

    def close(self) -> None:
        """Drop the chunks from the cluster."""
        self.client.cancel(self.futures + [self.layout_future])
