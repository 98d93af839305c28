"""Numba kernels of `poimkit.motifs.hits`: every motif's hits in one stretch.

Parallel over motifs, so that one call scans a stretch with every motif: a
collection of 1,000 motifs over a short peak is one parallel region, not
1,000 (whose start-up, on a busy machine, cost more than the scan). Two
passes: `count_hits` counts each motif's hits, `fill_hits` writes them where
the caller's offsets say. Called by `hits.scan_genome`, which checks
the inputs.

The motifs are packed: ``tables[m, t, j, code]`` is motif ``m``'s log-odds
of ``code`` at column ``j`` on strand ``t`` (0: as given, 1: its reverse
complement's table; ``-inf`` for code 4, N), ``widths[m]`` its columns. A
window is a hit when its score, rounded to steps of ``grid``, is at least
``cuts[m]`` steps (the p-value threshold on the motif's exact score tail);
its p-value is then ``tails[starts[m] + step - lows[m]]``, clipped to the
motif's last entry ``starts[m + 1] - 1`` (`poimkit.motifs.scan.score_tail`).
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT)
def window_score(codes, tables, m, width, s, strand):
    """Score of the window at ``s`` for motif ``m`` on one strand."""
    score = 0.0
    for j in range(width):
        score += tables[m, strand, j, codes[s + j]]
    return score


@njit(**NJIT)
def hit_step(score, grid, cut):
    """The score in grid steps if it reaches ``cut`` steps, else ``-inf``.

    One test for both passes, so that `fill_hits` writes exactly the hits
    `count_hits` counted.
    """
    if score < cut * grid - 0.5 * grid:  # cannot round to ``cut`` steps
        return -np.inf
    step = np.rint(score / grid)
    return step if step >= cut else -np.inf


@njit(**NJIT_PARALLEL)
def count_hits(codes, tables, widths, grid, cuts, counts):
    """``counts[m]``: windows of ``codes`` (either strand) at or above the cut."""
    for m in prange(widths.shape[0]):
        width = widths[m]
        found = 0
        for s in range(codes.shape[0] - width + 1):
            for strand in range(2):
                score = window_score(codes, tables, m, width, s, strand)
                if hit_step(score, grid, cuts[m]) > -np.inf:
                    found += 1
        counts[m] = found


@njit(**NJIT_PARALLEL)
def fill_hits(
    codes, tables, widths, grid, cuts, lows, tails, starts, first, at, minus, bits, pv
):
    """Motif ``m``'s hits into rows ``first[m]`` on: start, strand, score, p-value.

    Within a motif, hits are in order of start, the given strand first.
    """
    for m in prange(widths.shape[0]):
        width = widths[m]
        row = first[m]
        for s in range(codes.shape[0] - width + 1):
            for strand in range(2):
                score = window_score(codes, tables, m, width, s, strand)
                step = hit_step(score, grid, cuts[m])
                if step == -np.inf:
                    continue
                index = min(starts[m] + int(step) - lows[m], starts[m + 1] - 1)
                at[row] = s
                minus[row] = strand == 1
                bits[row] = score
                pv[row] = tails[index]
                row += 1
