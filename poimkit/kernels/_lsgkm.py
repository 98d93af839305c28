"""Numba kernels of LS-GKM's window-weighted l-mer kernels (``-t 3/4/5``).

Every sequence travels as its l-mer windows: ``keys`` (the l-mer index of
each forward window), ``rkeys`` (that of its reverse complement) and
``weights`` (LS-GKM's integer weight of the window, 1 for ``-t 3``), window
``a`` of sequence i at ``woff[i] + a``; the kernels take the four arrays as
one tuple ``(keys, rkeys, weights, woff)``. The raw kernel of x and y is

    K(x, y) = sum_{a in x} sum_{b in y} w_a w_b (T[d(x_a, y_b)] + T[d(x_a, rc y_b)])

(without the second term when the model has ``norc 1``), d the number of
letters where two l-mers differ and T the mismatch table (zero above d).
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL
from . import _gkm


@njit(**NJIT_PARALLEL)
def window_keys(
    codes: np.ndarray,
    offsets: np.ndarray,
    l: int,
    woff: np.ndarray,
    keys: np.ndarray,
    rkeys: np.ndarray,
) -> None:
    """l-mer indices of every forward window and of its reverse complement.

    Parameters
    ----------
    codes, offsets
        Ragged sequences (forward strand only), each at least l letters.
    l : int
        Window length.
    woff : numpy.ndarray of int64, shape (n + 1,)
        Window offsets: sequence i's windows are ``woff[i]:woff[i + 1]``.
    keys, rkeys : numpy.ndarray of int64, shape (woff[-1],)
        Filled.
    """
    for i in prange(offsets.size - 1):
        lo = woff[i]
        hi = woff[i + 1]
        _gkm.window_keys(
            codes, offsets[i], offsets[i + 1], l, keys[lo:hi], rkeys[lo:hi]
        )


@njit(**NJIT)
def _pair(x, i, y, j, both, table):
    """``K(x_i, y_j)`` of the windows ``x`` and ``y`` (module docstring)."""
    xk, _, xw, xo = x
    yk, yr, yw, yo = y
    total = 0.0
    for a in range(xo[i], xo[i + 1]):
        u = xk[a]
        s = 0.0
        for b in range(yo[j], yo[j + 1]):
            t = table[_gkm.letter_distance(u, yk[b])]
            if both:
                t += table[_gkm.letter_distance(u, yr[b])]
            s += yw[b] * t
        total += xw[a] * s
    return total


@njit(**NJIT_PARALLEL)
def cross_kernel(
    x: tuple, y: tuple, both: bool, table: np.ndarray, out: np.ndarray
) -> None:
    """``out[i, j] = K(x_i, y_j)``, the raw weighted kernel (module docstring).

    Parameters
    ----------
    x, y : tuple of numpy.ndarray
        The windows of the x and y sequences, ``(keys, rkeys, weights,
        woff)`` (module docstring; the x's ``rkeys`` are not read).
    both : bool
        Count the reverse complements of the y's.
    table : numpy.ndarray of float64, shape (l + 1,)
    out : numpy.ndarray of float64, shape (n_x, n_y)
    """
    for i in prange(x[3].size - 1):
        for j in range(y[3].size - 1):
            out[i, j] = _pair(x, i, y, j, both, table)


@njit(**NJIT_PARALLEL)
def self_kernel(windows: tuple, both: bool, table: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = K(x_i, x_i)`` (LS-GKM's ``sqnorm`` squared).

    Parameters
    ----------
    windows : tuple of numpy.ndarray
        ``(keys, rkeys, weights, woff)``; the rest as in `cross_kernel`.
    """
    for i in prange(windows[3].size - 1):
        out[i] = _pair(windows, i, windows, i, both, table)
