"""Numba kernels of the position-free POIM engine (`poimkit.poim.position_free`).

Strings are indexed relative to the conditioned k-mer z at ``[0, m)``; the
chain is stationary of order D with D-gram distribution ``pi`` and
transition matrix ``trans[s, a]`` (state index: first letter most
significant, next state ``(4 s + a) mod 4**D``).
"""

import numpy as np
from numba import njit, prange

from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT)
def _chain_probability(letters, a, b, order, pi, trans):
    """Pr(X[a:b] = letters[a:b]) for a stationary chain (b - a >= order)."""
    state = np.int64(0)
    for p in range(a, a + order):
        state = state * 4 + letters[p]
    prob = pi[state]
    n_states = pi.size
    for p in range(a + order, b):
        prob *= trans[state, letters[p]]
        state = (state * 4 + letters[p]) % n_states
    return prob


@njit(**NJIT)
def _state_before(letters, p, order):
    """D-gram index of ``letters[p - D:p]``."""
    state = np.int64(0)
    for q in range(p - order, p):
        state = state * 4 + letters[q]
    return state


@njit(**NJIT_PARALLEL)
def overlap_tables(f, l, m, order, pi, trans, offsets, spans, out):
    """``E[f(X[o:o+l]) | X[0:m] = z]`` for the windows overlapping z.

    For offset ``offsets[i] = o`` the expectation depends on z only through
    the letters ``z[ja:jb]`` with ``(ja, jb) = spans[i]`` (the overlap, widened
    to z's first or last D letters where the window reaches past z, because
    the chain state there holds them). It is accumulated into
    ``out[i, :4**(jb - ja)]`` by enumerating every string over the union of
    the window and ``[ja, jb)``: the window's letters beyond z are weighted
    by their conditional probability given z (left: ``Pr(X[o:D]) /
    Pr(X[0:D])``; right: the transitions after z).
    """
    for i in prange(offsets.size):
        o = offsets[i]
        ja = spans[i, 0]
        jb = spans[i, 1]
        u0 = min(o, ja)
        u1 = max(o + l, jb)
        n_u = u1 - u0
        letters = np.zeros(n_u, dtype=np.int64)
        left = o < 0
        right = o + l > m
        for c in range(np.int64(1) << np.int64(2 * n_u)):
            for q in range(n_u):
                letters[q] = (c >> np.int64(2 * (n_u - 1 - q))) & np.int64(3)
            w = np.int64(0)
            for q in range(o - u0, o - u0 + l):
                w = w * 4 + letters[q]
            prob = 1.0
            if left:  # letters o..-1 given z: Pr(X[o:D]) / Pr(X[0:D])
                prob = _chain_probability(
                    letters, o - u0, order - u0, order, pi, trans
                ) / _chain_probability(letters, -u0, order - u0, order, pi, trans)
            if right:  # letters m..o+l-1 after z
                n_states = pi.size
                state = _state_before(letters, m - u0, order)
                for q in range(m - u0, o + l - u0):
                    prob *= trans[state, letters[q]]
                    state = (state * 4 + letters[q]) % n_states
            j = np.int64(0)
            for q in range(ja - u0, jb - u0):
                j = j * 4 + letters[q]
            out[i, j] += f[w] * prob


@njit(**NJIT)
def outside_terms(f, l, order, pi, trans, before, after):
    """Sums over all l-mers u of ``f[u]`` times chain probabilities.

    ``before[h] = sum_u f[u] Pr(X[D:D+l] = u | X[0:D] = h)`` (a window right
    after the state h) and ``after[h] = sum_u f[u] Pr(X[0:l] = u, last D
    letters = h)``. Returns ``E[f(window)] = sum_h pi[h] before[h]``.
    """
    n_states = pi.size
    letters = np.zeros(l, dtype=np.int64)
    mean = 0.0
    for u in range(f.size):
        for q in range(l):
            letters[q] = (u >> np.int64(2 * (l - 1 - q))) & np.int64(3)
        value = f[u]
        p_u = _chain_probability(letters, 0, l, order, pi, trans)
        mean += value * p_u
        after[_state_before(letters, l, order)] += value * p_u
        for h in range(n_states):
            prob = 1.0
            state = h
            for q in range(l):
                prob *= trans[state, letters[q]]
                state = (state * 4 + letters[q]) % n_states
            before[h] += value * prob
    return mean
