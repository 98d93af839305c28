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
def qmer_codes_kernel(X, q, out):
    """The code of the q letters from each position of each row of X.

    ``out[r, i]`` is ``sum_d X[r, i + d] * 4**d`` over ``d < q``, or ``4**q``
    where the q letters run past the row's end or hold a code above 3 (N,
    padding).
    """
    n, length = X.shape
    bad = 4**q
    for r in prange(n):
        for i in range(length):
            code = 0
            ok = i + q <= length
            if ok:
                for d in range(q - 1, -1, -1):
                    x = X[r, i + d]
                    if x > 3:
                        ok = False
                        break
                    code = code * 4 + x
            out[r, i] = code if ok else bad


@njit(**NJIT_PARALLEL)
def has_site_kernel(codes, n_starts, offsets, tables, threshold, out):
    """Whether a window of each row scores at least ``threshold``, either strand.

    A window at ``s`` scores ``sum_b tables[t, b, codes[r, s + offsets[b]]]``
    for the given strand (t = 0) and the reverse complement's table (t = 1):
    each block b reads the q-letter code (`qmer_codes_kernel`) at its offset,
    whose table holds the summed log-odds of the block's columns (``-inf``
    for the code of N or padding).
    """
    n_blocks = offsets.shape[0]
    for r in prange(codes.shape[0]):
        top = -np.inf
        for s in range(n_starts):
            given = 0.0
            other = 0.0
            for b in range(n_blocks):
                code = codes[r, s + offsets[b]]
                given += tables[0, b, code]
                other += tables[1, b, code]
            top = max(top, given, other)
        out[r] = top >= threshold
