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
the cut, and the filter, which drops a window only when an upper bound of
that sum falls below the cut less one step, lets every hit through. It
reads letters by their codes: ``wide_codes`` gives the code of the `WIDE`
(7) letters starting at every position, ``block_codes`` of the `BLOCK` (4)
letters; a letter past the end, or N, reads as A in a code, and is never
read where it weighs. Each motif, tile by tile of its stretch (`TILE`
positions):

1. one look-up a position: bit ``t`` of ``flags[code]`` (`wide_flags`) says
   whether the window of strand ``t`` whose seven most informative columns
   (its first wide block, `wide_tables`) read ``code`` may reach the cut,
   its other columns at their best. Both strands read the same columns, so
   one code tells both. The positions flagged are gathered without a branch;
2. for those, the second wide block (the most informative columns left, up
   to seven) is added, again without a branch, and the windows that may
   still reach the cut are gathered;
3. those are read block of four by block of four (`block_tables`, the
   blocks with the most information first, `passes`) and dropped as soon
   as their bound falls below the cut; a window left is scored as before
   (`window_score`, the same float additions in the same order) and tested
   with `hit_step`, so the hits, their scores and p-values are those of the
   plain scan.

Windows holding N are never scored: the caller passes the stretch's runs of
letters without N (``segments``). One pass writes the hits; a motif with
more than the room given (a repeat) is counted, and the caller scans it
again with room for all.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL

#: letters read by one table look-up of the filter
BLOCK = 4
#: codes of `BLOCK` letters
CODES = 4**BLOCK
#: letters read by the first, wide test
WIDE = 7
#: codes of `WIDE` letters
WIDE_CODES = 4**WIDE
#: positions given the wide test before the windows that pass it are read
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
def block_codes(codes, out):
    """``out[i]``: the code of letters ``i .. i + 3``, ``sum (codes & 3) << 2d``.

    A letter past the end, and N, read as 0: the filter never reads them in
    a column that weighs.
    """
    n = codes.shape[0]
    full = max(n - BLOCK + 1, 0)
    for i in range(full):
        out[i] = (
            (codes[i] & 3)
            | ((codes[i + 1] & 3) << 2)
            | ((codes[i + 2] & 3) << 4)
            | ((codes[i + 3] & 3) << 6)
        )
    for i in range(full, n):
        c = 0
        for d in range(BLOCK):
            if i + d < n:
                c |= (codes[i + d] & 3) << (2 * d)
        out[i] = c


@njit(**NJIT)
def block_tables(steps, widths, itab, offsets, rest, tops):
    """Each motif strand's block tables, in the order the filter reads them.

    ``steps[m, t, j, a]`` are the log-odds in grid steps. Block ``k`` covers
    columns ``4k .. min(4k + 4, width) - 1`` and reads the four letters from
    ``offsets = min(4k, max(width - 4, 0))``; ``itab[m, t, g, code]`` sums
    the steps of block ``g``'s columns (in reading order: most information,
    the largest of each column less its mean, first). ``rest[m, t, g]`` is the
    most the blocks after ``g`` can add, ``tops[m, t]`` the best score. The
    arrays come zeroed, so the blocks past a motif's own read as 0.
    """
    for m in range(widths.shape[0]):
        width = widths[m]
        n_blocks = (width + BLOCK - 1) // BLOCK
        for t in range(2):
            gain = np.empty(n_blocks)
            for k in range(n_blocks):
                gain[k] = 0.0
                for j in range(BLOCK * k, min(BLOCK * k + BLOCK, width)):
                    top = steps[m, t, j, 0]
                    for a in range(1, 4):
                        top = max(top, steps[m, t, j, a])
                    mean = 0.0
                    for a in range(4):
                        mean += steps[m, t, j, a]
                    gain[k] += top - mean / 4
            order = np.argsort(-gain, kind="mergesort")
            for g in range(n_blocks):
                k = order[g]
                at = min(BLOCK * k, max(width - BLOCK, 0))
                offsets[m, t, g] = at
                for code in range(CODES):
                    total = 0
                    for j in range(BLOCK * k, min(BLOCK * k + BLOCK, width)):
                        total += steps[m, t, j, (code >> (2 * (j - at))) & 3]
                    itab[m, t, g, code] = total
            left = 0
            for g in range(itab.shape[2] - 1, -1, -1):
                rest[m, t, g] = left
                left += itab[m, t, g].max()
            tops[m, t] = left


@njit(**NJIT)
def passes(qcodes, s, itab, offsets, rest, n_blocks, floor):
    """Whether the window at ``s`` may reach ``floor`` steps on one strand.

    Its steps so far plus the most its blocks left can add, after each block.
    """
    total = 0
    for g in range(n_blocks):
        total += itab[g, qcodes[s + offsets[g]]]
        if total + rest[g] < floor:
            return False
    return True


@njit(**NJIT)
def motif_hits(
    codes,
    wcodes,
    qcodes,
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
    wlow,
    whigh,
    rest_ab,
    itab,
    offsets,
    rest,
    buffer,
    survivors,
    at,
    minus,
    bits,
    pv,
):
    """Motif ``m``'s hits in ``codes``, the first ``at.size`` written; their number.

    ``flags`` is the motif's wide test (`wide_flags`), ``wide_at``, ``wlow``,
    ``whigh`` and ``rest_ab`` its two wide blocks (`wide_tables`), ``itab``,
    ``offsets`` and ``rest`` its blocks of four (`block_tables`); ``floor``
    is its cut in steps less one. ``buffer`` and ``survivors`` are scratch of
    `TILE` entries. Hits come in no set order.
    """
    n_blocks = (width + BLOCK - 1) // BLOCK
    cap = at.shape[0]
    found = 0
    plus, other = wide_at[0, 0], wide_at[1, 0]
    second0, second1 = wide_at[0, 1], wide_at[1, 1]
    need0, need1 = floor - rest_ab[0], floor - rest_ab[1]
    la0, ha0, lb0, hb0 = wlow[0, 0], whigh[0, 0], wlow[0, 1], whigh[0, 1]
    la1, ha1, lb1, hb1 = wlow[1, 0], whigh[1, 0], wlow[1, 1], whigh[1, 1]
    for k in range(segments.shape[0]):
        low, high = segments[k, 0], segments[k, 1] - width  # window starts
        y = low + min(plus, other)
        end = high + max(plus, other) + 1
        while y < end:
            stop = min(y + TILE, end)
            # 1. the positions whose first wide block lets a window through
            n = 0
            for z in range(y, stop):
                buffer[n] = z
                n += flags[wcodes[z]] != 0
            # 2. of those, the windows both wide blocks let through
            kept = 0
            for i in range(n):
                z = buffer[i]
                s0, s1 = z - plus, z - other
                ok0 = (s0 >= low) & (s0 <= high)
                ok1 = (s1 >= low) & (s1 <= high)
                c = wcodes[z]
                c0 = wcodes[s0 + second0 if ok0 else z]
                c1 = wcodes[s1 + second1 if ok1 else z]
                t0 = la0[c & 255] + ha0[c >> 8] + lb0[c0 & 255] + hb0[c0 >> 8]
                t1 = la1[c & 255] + ha1[c >> 8] + lb1[c1 & 255] + hb1[c1 >> 8]
                survivors[kept] = z
                kept += (ok0 & (t0 >= need0)) | (ok1 & (t1 >= need1))
            # 3. the windows left, block by block, then scored in full
            for i in range(kept):
                z = survivors[i]
                for strand in range(2):
                    s = z - wide_at[strand, 0]
                    if s < low or s > high:
                        continue
                    if not passes(
                        qcodes,
                        s,
                        itab[strand],
                        offsets[strand],
                        rest[strand],
                        n_blocks,
                        floor,
                    ):
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
    qcodes,
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
    wlow,
    whigh,
    rest_ab,
    itab,
    offsets,
    rest,
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
            qcodes,
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
            wlow[m],
            whigh[m],
            rest_ab[m],
            itab[m],
            offsets[m],
            rest[m],
            buffer,
            survivors,
            at[m],
            minus[m],
            bits[m],
            pv[m],
        )


@njit(**NJIT)
def wide_codes(codes, out):
    """``out[i]``: the code of letters ``i .. i + 6``, ``sum (codes & 3) << 2d``.

    As `block_codes`, with `WIDE` letters.
    """
    n = codes.shape[0]
    for i in range(n):
        c = 0
        for d in range(WIDE):
            if i + d < n:
                c |= np.uint16(codes[i + d] & 3) << np.uint16(2 * d)
        out[i] = c


@njit(**NJIT)
def wide_tables(steps, widths, wide_at, wide_k, wlow, whigh, rest_a, rest_ab):
    """The two wide blocks of every motif strand, as tables of their codes.

    Block ``b`` of strand ``t`` covers columns ``wide_at[m, t, b]`` on, of
    ``wide_k[m, b]`` (at most `WIDE`; 0 for no block); a `wide_codes` code
    ``c`` of its letters sums ``wlow[m, t, b, c & 255] + whigh[m, t, b, c >> 8]``
    steps (the first four letters, then three; letters past its columns weigh
    0). ``rest_a`` is the most the columns outside the first block can add,
    ``rest_ab`` outside both. The arrays come zeroed.
    """
    for m in range(widths.shape[0]):
        for t in range(2):
            inside = np.zeros(widths[m], dtype=np.int64)
            for b in range(2):
                at = wide_at[m, t, b]
                k = wide_k[m, b]
                for d in range(k):
                    inside[at + d] = b + 1
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
                if inside[j] != 1:
                    rest_a[m, t] += top
                if inside[j] == 0:
                    rest_ab[m, t] += top


@njit(**NJIT_PARALLEL)
def wide_flags(wlow, whigh, rest_a, floors, flags):
    """The first wide test of every motif at its cut: ``flags[m, code]``.

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
