"""Numba kernel: the best-scoring window of every row, on either strand.

Called by `poimkit.motifs.scan.best_windows`, which checks its inputs.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT_PARALLEL


@njit(**NJIT_PARALLEL)
def best_window_kernel(X, starts, n_forward, tables, score, best):
    """Best window of each row of X: its score and its index in ``starts``.

    Window ``i`` of row r starts at ``starts[i]`` and is scored with
    ``tables[0]`` for ``i < n_forward`` (the given strand) and ``tables[1]``
    after (the reverse complement's table). A window reaching a letter code
    of 4 or more (padding) is never best; ties go to the first window, so to
    the given strand. Rows with no window keep ``score = -inf`` and
    ``best = -1``.
    """
    width = tables.shape[1]
    for r in prange(X.shape[0]):
        top = -np.inf
        where = -1
        for i in range(starts.shape[0]):
            table = tables[0] if i < n_forward else tables[1]
            s = starts[i]
            acc = 0.0
            for c in range(width):
                code = X[r, s + c]
                if code >= 4:
                    acc = -np.inf
                    break
                acc += table[c, code]
            if acc > top:
                top = acc
                where = i
        score[r] = top
        best[r] = where


@njit(**NJIT_PARALLEL)
def has_site_kernel(X, n_starts, tables, threshold, out):
    """Whether a window of each row of X scores at least ``threshold``.

    Window ``s`` (``s < n_starts``) is scored with ``tables[0]`` (the given
    strand) and with ``tables[1]`` (the reverse complement's table); each
    table has a fifth column for the padding code 4, ``-inf``, so a window
    reaching into the padding never counts. The windows of a row are summed
    column by column (a loop over the starts that the compiler vectorises).
    """
    width = tables.shape[1]
    for r in prange(X.shape[0]):
        given = np.zeros(n_starts)
        other = np.zeros(n_starts)
        for c in range(width):
            t0 = tables[0, c]
            t1 = tables[1, c]
            for s in range(n_starts):
                code = X[r, s + c]
                given[s] += t0[code]
                other[s] += t1[code]
        top = -np.inf
        for s in range(n_starts):
            top = max(top, given[s], other[s])
        out[r] = top >= threshold


@njit(**NJIT_PARALLEL)
def strand_scores_kernel(codes, tables, out):
    """Score of every window of ``codes`` on both strands.

    ``out[t, s]`` is the window at ``s`` scored with ``tables[t]`` (0: the
    given strand, 1: the reverse complement's table); the tables' fifth
    column, ``-inf``, scores a window holding N (code 4).
    """
    width = tables.shape[1]
    for s in prange(out.shape[1]):
        given = 0.0
        other = 0.0
        for c in range(width):
            code = codes[s + c]
            given += tables[0, c, code]
            other += tables[1, c, code]
        out[0, s] = given
        out[1, s] = other
