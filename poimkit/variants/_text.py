"""Numba kernels that write table lines as bytes: integers and ``%g`` floats.

Python formats about a million lines a second; a table of every SNV of 10^5
peaks has 6·10^7. `table_lines` writes a block of lines in parallel into
fixed-width slots, then packs them. `put_general` writes a float as
``format(x, f".{digits}g")`` does (fixed notation for exponents -4 to
``digits - 1``, else ``d.dddde±XX``; trailing zeros dropped); its digits are
those of the float rounded to ``digits`` significant digits, up to one unit in
the last digit where the float lies within 10^-9 of a tie.
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT)
def put_int(buf, at, value):
    """Write the non-negative integer ``value`` at ``buf[at]``; return the end."""
    if value == 0:
        buf[at] = 48
        return at + 1
    n = 0
    v = value
    while v > 0:
        n += 1
        v //= 10
    for i in range(n - 1, -1, -1):
        buf[at + i] = 48 + value % 10
        value //= 10
    return at + n


@njit(**NJIT)
def _scaled(x, p):
    """``rint(x / 10^p)`` (in two steps below 10^-300, where 10^p underflows)."""
    if p < -300:
        return int(np.rint(x * 1e300 / 10.0 ** (p + 300)))
    return int(np.rint(x / 10.0**p))


@njit(**NJIT)
def _digits(x, digits):
    """``(m, e)``: x ~ m * 10^(e - digits + 1), m of exactly ``digits`` digits."""
    e = int(np.floor(np.log10(x)))
    top = 10**digits
    m = _scaled(x, e - digits + 1)
    if m >= top:  # log10 rounded down too little, or rounding carried
        e += 1
        m = _scaled(x, e - digits + 1)
    elif m < top // 10:
        e -= 1
        m = _scaled(x, e - digits + 1)
    if m >= top:
        m //= 10
        e += 1
    return m, e


@njit(**NJIT)
def put_general(buf, at, x, digits):
    """Write x as ``%.{digits}g`` at ``buf[at]``; return the end."""
    if x != x:
        buf[at], buf[at + 1], buf[at + 2] = 110, 97, 110  # nan
        return at + 3
    if x < 0:
        buf[at] = 45
        at += 1
        x = -x
    if x == 0.0:
        buf[at] = 48
        return at + 1
    if x == np.inf:
        buf[at], buf[at + 1], buf[at + 2] = 105, 110, 102  # inf
        return at + 3
    m, e = _digits(x, digits)
    kept = digits
    while kept > 1 and m % 10 == 0:  # trailing zeros dropped
        m //= 10
        kept -= 1
    text = np.empty(digits, np.uint8)
    for i in range(kept - 1, -1, -1):
        text[i] = 48 + m % 10
        m //= 10
    if -4 <= e < digits:  # fixed notation
        if e < 0:
            buf[at], buf[at + 1] = 48, 46  # "0."
            at += 2
            for _ in range(-e - 1):
                buf[at] = 48
                at += 1
            for i in range(kept):
                buf[at] = text[i]
                at += 1
            return at
        for i in range(max(kept, e + 1)):
            if i == e + 1:
                buf[at] = 46  # "."
                at += 1
            buf[at] = text[i] if i < kept else 48
            at += 1
        return at
    buf[at] = text[0]
    at += 1
    if kept > 1:
        buf[at] = 46
        at += 1
        for i in range(1, kept):
            buf[at] = text[i]
            at += 1
    buf[at] = 101  # "e"
    buf[at + 1] = 45 if e < 0 else 43
    at += 2
    e = abs(e)
    if e < 10:
        buf[at] = 48
        at += 1
    return put_int(buf, at, e)


@njit(**NJIT_PARALLEL)
def table_lines(head, pos, pair, effect, z, tested, tested_len, k, slots):
    """One line per row into ``slots``; return their lengths.

    Row r: ``head`` (the chromosome and a tab), ``pos[r]``, ``pair[r]``
    (tab, REF, tab, ALT, tab: 5 bytes), ``effect[r]`` (6 digits), a tab,
    ``z[r]`` (4 digits; NaN: ``NA``), a tab, ``tested[k[r]]`` (its first
    ``tested_len[k[r]]`` bytes: p and q) and a newline.

    Parameters
    ----------
    head : numpy.ndarray of uint8
    pos : numpy.ndarray of int64
    pair : numpy.ndarray of uint8, shape (n, 5)
    effect, z : numpy.ndarray of float64
    tested : numpy.ndarray of uint8, shape (m, w)
    tested_len : numpy.ndarray of int64, shape (m,)
    k : numpy.ndarray of int64
        Row of ``tested`` of each line.
    slots : numpy.ndarray of uint8, shape (n, width)
        Each row wide enough for its line.

    Returns
    -------
    numpy.ndarray of int64
    """
    n = pos.size
    size = np.empty(n, np.int64)
    for r in prange(n):
        line = slots[r]
        at = 0
        for b in head:
            line[at] = b
            at += 1
        at = put_int(line, at, pos[r])
        for b in pair[r]:
            line[at] = b
            at += 1
        at = put_general(line, at, effect[r], 6)
        line[at] = 9
        at += 1
        if z[r] != z[r]:  # no null
            line[at], line[at + 1] = 78, 65  # NA
            at += 2
        else:
            at = put_general(line, at, z[r], 4)
        line[at] = 9
        at += 1
        for i in range(tested_len[k[r]]):
            line[at] = tested[k[r], i]
            at += 1
        line[at] = 10
        size[r] = at + 1
    return size


@njit(**NJIT)
def pack(slots, size):
    """The lines of ``slots`` one after another, as one byte array."""
    out = np.empty(size.sum(), np.uint8)
    at = 0
    for r in range(size.size):
        out[at : at + size[r]] = slots[r, : size[r]]
        at += size[r]
    return out
