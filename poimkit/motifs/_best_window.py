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
