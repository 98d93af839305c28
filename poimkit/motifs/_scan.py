"""Numba kernel of `poimkit.motifs.scan`: the exact score distribution of a window.

Called by `scan.score_tail`, which checks the inputs.
"""

from numba import njit

from .._config import NJIT


@njit(**NJIT)
def score_distribution(span, background, dist):
    """The chance of every score of a background window, from its lowest.

    ``span[j, a]`` is letter ``a``'s steps at column ``j`` above the column's
    lowest; ``dist`` (zeroed, ``span.sum of row maxima + 1`` long) receives
    the chance of each summed score. Column by column, each letter's share
    added in order of letter: the operations of the NumPy loop it replaces,
    so the chances are the same floats.
    """
    size = 1
    dist[0] = 1.0
    new = dist.copy()
    for j in range(span.shape[0]):
        top = 0
        for a in range(4):
            top = max(top, span[j, a])
        for i in range(size + top):
            new[i] = 0.0
        for a in range(4):
            shift = span[j, a]
            share = background[a]
            for i in range(size):
                new[shift + i] += share * dist[i]
        size += top
        for i in range(size):
            dist[i] = new[i]
