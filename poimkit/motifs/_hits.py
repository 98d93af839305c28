"""Numba kernels of `poimkit.motifs.hits`: every motif's hits in one stretch.

Parallel over motifs, so that one call scans a stretch with every motif: a
collection of 1,000 motifs over a short peak is one parallel region, not
1,000 (whose start-up, on a busy machine, cost more than the scan). Called by
`hits.PackedMotifs`, which checks the inputs.

The motifs are packed: ``tables[m, t, j, code]`` is motif ``m``'s log-odds
of ``code`` at column ``j`` on strand ``t`` (0: as given, 1: its reverse
complement's table; ``-inf`` for code 4, N), ``widths[m]`` its columns. A
window is a hit when its score, rounded to steps of ``grid``, is at least
``cuts[m]`` steps (the p-value threshold on the motif's exact score tail);
its p-value is then ``tails[starts[m] + step - lows[m]]``, clipped to the
motif's last entry ``starts[m + 1] - 1`` (`poimkit.motifs.scan.score_tail`).

A filter in integers decides which windows are scored in full. Every
log-odds is a whole number of grid steps, ``steps = rint(table / grid)``,
and a window's score, summed in floats, lies within 1e-10 steps of the sum
of its steps: so a window is a hit exactly when that integer sum is at least
the cut, and the filter, which drops a window only when its integer sum (or
an upper bound of it) falls below the cut less one step, lets every hit
through. It reads letters by their codes: ``wide_codes`` gives the code of
the `WIDE` (7) letters starting at every position (a letter past the end,
or N, reads as A: it is never read where it weighs). A motif's columns are
cut into wide blocks of at most seven (`wide_tables`): the seven with the
most information first, then the others by their information, and each
block has a table of the
summed steps of its letters' codes. Each motif, tile by tile of its stretch
(`TILE` positions):

1. one look-up a position: bit ``t`` of ``flags[code]`` (`wide_flags`) says
   whether the window of strand ``t`` whose first block reads ``code`` may
   reach the cut, its other columns at their best. Both strands read the
   same columns, so one code tells both. `LANES` positions are tested with
   one branch, and the positions flagged gathered without one;
2. for those, the second block (the most informative columns left) is
   added, without a branch, and the windows that may still reach the cut on
   either strand are gathered;
3. those are read on every block, and a window whose integer sum reaches
   the cut less one step is scored as before (`window_score`, the same
   float additions in the same order) and tested with `hit_step`, so the
   hits, their scores and p-values are those of the plain scan.

Windows holding N are never scored: the caller passes the stretch's runs of
letters without N (``segments``). One pass writes the hits; a motif with
more than the room given (a repeat) is counted, and the caller scans it
again with room for all.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL

#: letters read by one table look-up of the filter
WIDE = 7
#: codes of `WIDE` letters
WIDE_CODES = 4**WIDE
#: positions given the first test with one branch
LANES = 8
#: positions given the first test before the windows that pass it are read
TILE = 1024


@njit(**NJIT)
def window_score(codes, tables, m, width, s, strand):
    """Score of the window at ``s`` for motif ``m`` on one strand."""
    score = 0.0
    for j in range(width):
        score += tables[m, strand, j, codes[s + j]]
    return score


@njit(**NJIT)
def hit_step(score, grid, cut):
    """The score in grid steps if it reaches ``cut`` steps, else ``-inf``."""
    if score < cut * grid - 0.5 * grid:  # cannot round to ``cut`` steps
        return -np.inf
    step = np.rint(score / grid)
    return step if step >= cut else -np.inf


@njit(**NJIT)
def wide_codes(codes, out):
    """``out[i]``: the code of letters ``i .. i + 6``, ``sum (codes & 3) << 2d``.

    A letter past the end, and N, read as 0 (A).
    """
    n = codes.shape[0]
    for i in range(n):
        c = 0
        for d in range(WIDE):
            if i + d < n:
                c |= np.uint16(codes[i + d] & 3) << np.uint16(2 * d)
        out[i] = c


@njit(**NJIT)
def wide_tables(steps, widths, wide_at, wide_k, wlow, whigh, rest_a, rest_ab, tops):
    """The wide blocks of every motif strand, as tables of their codes.

    Block ``b`` of strand ``t`` covers columns ``wide_at[m, t, b]`` on, of
    ``wide_k[m, b]`` (at most `WIDE`; 0 for no block), and the blocks of a
    motif cut its columns; a `wide_codes` code ``c`` of its letters sums
    ``wlow[m, t, b, c & 255] + whigh[m, t, b, c >> 8]`` steps (the first four
    letters, then three; letters past its columns weigh 0). ``rest_a`` is the
    most the columns outside the first block add, ``rest_ab`` outside the
    first two, ``tops`` the best score.
    The arrays come zeroed.
    """
    for m in range(widths.shape[0]):
        for t in range(2):
            block = np.full(widths[m], 2)
            for b in range(wide_k.shape[1]):
                at = wide_at[m, t, b]
                k = wide_k[m, b]
                for d in range(k):
                    block[at + d] = min(b, 2)
                for c in range(256):
                    total = 0
                    for d in range(min(k, 4)):
                        total += steps[m, t, at + d, (c >> (2 * d)) & 3]
                    wlow[m, t, b, c] = total
                for c in range(64):
                    total = 0
                    for d in range(4, k):
                        total += steps[m, t, at + d, (c >> (2 * (d - 4))) & 3]
                    whigh[m, t, b, c] = total
            for j in range(widths[m]):
                top = steps[m, t, j, 0]
                for a in range(1, 4):
                    top = max(top, steps[m, t, j, a])
                tops[m, t] += top
                if block[j] > 0:
                    rest_a[m, t] += top
                if block[j] > 1:
                    rest_ab[m, t] += top


@njit(**NJIT_PARALLEL)
def wide_flags(wlow, whigh, rest_a, floors, flags):
    """The first test of every motif at its cut: ``flags[m, code]``.

    Bit ``t`` of ``flags[m, code]`` is set when a window of strand ``t`` whose
    first wide block (`wide_tables`) reads ``code`` may reach ``floors[m]``
    steps: its steps plus the most the other columns can add.
    """
    for m in prange(wlow.shape[0]):
        for t in range(2):
            need = floors[m] - rest_a[m, t]
            bit = np.uint8(1 << t)
            for h in range(64):
                for c in range(256):
                    if wlow[m, t, 0, c] + whigh[m, t, 0, h] >= need:
                        flags[m, h * 256 + c] |= bit


@njit(**NJIT)
def motif_hits(
    codes,
    wcodes,
    segments,
    tables,
    m,
    width,
    grid,
    cut,
    floor,
    lows,
    tails,
    starts,
    flags,
    wide_at,
    n_wide,
    wlow,
    whigh,
    rest_ab,
    buffer,
    survivors,
    at,
    minus,
    bits,
    pv,
):
    """Motif ``m``'s hits in ``codes``, the first ``at.size`` written; their number.

    ``flags`` is the motif's first test (`wide_flags`), ``wide_at``, ``wlow``
    and ``whigh`` its ``n_wide`` blocks and ``rest_ab`` the most the columns
    outside the first two add (`wide_tables`); ``floor`` is its cut in steps
    less one. ``buffer`` and ``survivors`` are scratch of `TILE`
    entries. Hits come in no set order.
    """
    cap = at.shape[0]
    found = 0
    plus, other = wide_at[0, 0], wide_at[1, 0]
    need0, need1 = floor - rest_ab[0], floor - rest_ab[1]
    for k in range(segments.shape[0]):
        low, high = segments[k, 0], segments[k, 1] - width  # window starts
        y = low + min(plus, other)
        end = high + max(plus, other) + 1
        while y < end:
            stop = min(y + TILE, end)
            # 1. the positions whose first block lets a window through
            n = 0
            z = y
            while z + LANES <= stop:
                seen = np.uint8(0)
                for v in range(LANES):
                    seen |= flags[wcodes[np.uint64(z + v)]]
                if seen:
                    for v in range(LANES):
                        buffer[n] = z + v
                        n += flags[wcodes[np.uint64(z + v)]] != 0
                z += LANES
            for rest in range(z, stop):
                buffer[n] = rest
                n += flags[wcodes[rest]] != 0
            # 2. of those, the windows that may still reach the floor once
            # the second block is read too
            kept = 0
            for i in range(n):
                z = buffer[i]
                s0, s1 = z - plus, z - other
                ok0 = (s0 >= low) & (s0 <= high)
                ok1 = (s1 >= low) & (s1 <= high)
                c = wcodes[z]
                c0 = wcodes[np.uint64(s0 + wide_at[0, 1] if ok0 else z)]
                c1 = wcodes[np.uint64(s1 + wide_at[1, 1] if ok1 else z)]
                t0 = wlow[0, 0, c & 255] + whigh[0, 0, c >> 8]
                t0 += wlow[0, 1, c0 & 255] + whigh[0, 1, c0 >> 8]
                t1 = wlow[1, 0, c & 255] + whigh[1, 0, c >> 8]
                t1 += wlow[1, 1, c1 & 255] + whigh[1, 1, c1 >> 8]
                strands = (ok0 & (t0 >= need0)) | ((ok1 & (t1 >= need1)) << 1)
                survivors[kept] = 4 * z + strands
                kept += strands != 0
            # 3. the windows left: every block read, then scored in full
            for i in range(kept):
                z = survivors[i] >> 2
                for strand in range(2):
                    if not (survivors[i] >> strand) & 1:
                        continue
                    s = z - wide_at[strand, 0]
                    total = 0
                    for b in range(n_wide):
                        c = wcodes[s + wide_at[strand, b]]
                        total += wlow[strand, b, c & 255] + whigh[strand, b, c >> 8]
                    if total < floor:
                        continue
                    score = window_score(codes, tables, m, width, s, strand)
                    step = hit_step(score, grid, cut)
                    if step == -np.inf:
                        continue
                    if found < cap:
                        index = min(starts[m] + int(step) - lows[m], starts[m + 1] - 1)
                        at[found] = s
                        minus[found] = strand == 1
                        bits[found] = score
                        pv[found] = tails[index]
                    found += 1
            y = stop
    return found


@njit(**NJIT_PARALLEL)
def scan_hits(
    codes,
    wcodes,
    segments,
    tables,
    widths,
    grid,
    cuts,
    floors,
    lows,
    tails,
    starts,
    flags,
    wide_at,
    n_wide,
    wlow,
    whigh,
    rest_ab,
    tops,
    todo,
    counts,
    at,
    minus,
    bits,
    pv,
):
    """Every motif's hits: ``counts[m]`` of them, the first ``cap`` in row ``m``.

    Motifs with ``todo[m]`` False are left alone; so is a motif whose best
    score on either strand cannot reach ``floors[m]``. ``at``, ``minus``,
    ``bits`` and ``pv`` have shape (n_motifs, cap): start, strand, score and
    p-value of each hit (`motif_hits`).
    """
    for m in prange(widths.shape[0]):
        if not todo[m]:
            continue
        if tops[m, 0] < floors[m] and tops[m, 1] < floors[m]:
            counts[m] = 0
            continue
        buffer = np.empty(TILE, dtype=np.int64)
        survivors = np.empty(TILE, dtype=np.int64)
        counts[m] = motif_hits(
            codes,
            wcodes,
            segments,
            tables,
            m,
            widths[m],
            grid,
            cuts[m],
            floors[m],
            lows,
            tails,
            starts,
            flags[m],
            wide_at[m],
            n_wide[m],
            wlow[m],
            whigh[m],
            rest_ab[m],
            buffer,
            survivors,
            at[m],
            minus[m],
            bits[m],
            pv[m],
        )
