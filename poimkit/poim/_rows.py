"""Numba helpers that visit a row of features: one order k >= D, one start i.

A row's features write, window by window, into one window's tables at a time,
and their prefix (or suffix) probabilities grow by one transition per window;
their chain messages are summed per D-gram and sent through the chain once
per row. Used by the difference pass (`poimkit.poim._burn_in`) and the end
layers of the shift convolution (`poimkit.poim._shifted`). Window j is
written at row ``j - row0`` of ``tables`` and ``out``; the notation is that of
`poimkit.poim._exact`.
"""

from numba import njit

from .._config import NJIT
from ._exact import _letter, _region_add, _sub, _window_factor


@njit(**NJIT)
def row_after(
    k, i, lo, hi, kmer, value, scale, l, order, chain, windows, row0, j_end, run
):
    """Terms of the row's features ``lo:hi`` for the windows ``i < j < j_end``.

    The windows that start inside the features (k >= D). Their weights are
    ``scale * value[lo:hi]``; in a difference pass (``rel`` not empty) each
    term carries `_exact._window_factor`. ``run[f]`` holds ``w Pr(y[:m + D]
    at i)`` while the window ``j = i + m`` moves right, and ``w Pr(y at i)``
    (under ``chain``) on return.
    """
    pi, trans, _, rel = chain
    zprob, offsets, tables, out = windows
    n = hi - lo
    state_mask = (1 << (2 * order)) - 1
    for f in range(n):
        run[f] = scale * value[lo + f] * pi[i, _sub(kmer[lo + f], k, 0, order)]
    for m in range(1, k - order + 1):  # window i + m starts with y[m:m + D]
        j = i + m
        o = k - m
        write = 0 < o < l and j < j_end  # the feature ends inside the window
        t = m + order - 1  # the letter that the prefix gains
        for f in range(n):
            y = kmer[lo + f]
            run[f] *= trans[i + t - order, _sub(y, k, m - 1, order), _letter(y, k, t)]
            head = _sub(y, k, m, order)
            if write and pi[j, head] > 0.0:
                factor = _window_factor(rel, i, _sub(y, k, 0, order), j, head)
                w = run[f] / pi[j, head] * factor
                _region_add(
                    j - row0, 0, o, _sub(y, k, m, o), w, l, offsets, tables, out
                )
    # run[f] = w Pr(y at i): the windows inside the feature, then the windows
    # whose first D letters run past its end
    for m in range(1, min(k - l, j_end - 1 - i) + 1):
        j = i + m
        for f in range(n):
            y = kmer[lo + f]
            z = _sub(y, k, m, l)
            pz = zprob[j, z]
            if pz > 0.0:
                factor = _window_factor(
                    rel, i, _sub(y, k, 0, order), j, z >> (2 * (l - order))
                )
                out[j - row0, z] += run[f] / pz * factor
    for m in range(max(1, k - order + 1), min(k, j_end - i)):
        j = i + m
        o = k - m
        n_free = order - o
        for f in range(n):
            y = kmer[lo + f]
            first = _sub(y, k, 0, order)
            for v in range(1 << (2 * n_free)):
                prob = run[f]
                state = _sub(y, k, k - order, order)
                for u in range(n_free):
                    a = (v >> (2 * (n_free - 1 - u))) & 3
                    prob *= trans[i + k + u - order, state, a]
                    state = ((state << 2) | a) & state_mask
                head = (_sub(y, k, m, o) << (2 * n_free)) | v
                if pi[j, head] > 0.0:
                    factor = _window_factor(rel, i, first, j, head)
                    w = prob / pi[j, head] * factor
                    _region_add(j - row0, 0, order, head, w, l, offsets, tables, out)


@njit(**NJIT)
def row_before(k, i, lo, hi, kmer, value, l, order, chain, windows, row0, j_start, run):
    """Terms of the row's features ``lo:hi`` for the windows that end inside them.

    The windows ``j >= j_start`` with ``i < j + l < i + k`` (k >= D), weights
    ``value[lo:hi]``, no difference pass. ``run[f]`` holds ``w prod_{t=e..k-1}
    Pr(y_t | y[t-D:t])`` while the window's end ``i + e`` moves left, and ``w
    Pr(y[D:] at i + D | y[:D] at i)`` on return.
    """
    pi, trans, _, _ = chain
    zprob, offsets, tables, out = windows
    n = hi - lo
    state_mask = (1 << (2 * order)) - 1
    for f in range(n):
        run[f] = value[lo + f]
    for e in range(k - 1, order - 1, -1):  # window i + e - l ends after y[e - 1]
        j = i + e - l
        write = 0 < e < l and j >= j_start  # the feature runs past its end
        for f in range(n):
            y = kmer[lo + f]
            run[f] *= trans[
                i + e - order, _sub(y, k, e - order, order), _letter(y, k, e)
            ]
            if write:
                w = run[f]
                _region_add(
                    j - row0, l - e, l, _sub(y, k, 0, e), w, l, offsets, tables, out
                )
    # the windows inside the feature, then those whose last D letters start
    # before it (the chain state at their end holds free letters)
    for e in range(max(l, j_start + l - i), k):
        j = i + e - l
        for f in range(n):
            y = kmer[lo + f]
            z = _sub(y, k, e - l, l)
            pz = zprob[j, z]
            if pz > 0.0:
                out[j - row0, z] += run[f] * pi[i, _sub(y, k, 0, order)] / pz
    for e in range(max(1, j_start + l - i), min(order, k)):
        j = i + e - l
        n_free = order - e
        for f in range(n):
            y = kmer[lo + f]
            for u in range(1 << (2 * n_free)):
                state = (u << (2 * e)) | _sub(y, k, 0, e)
                prob = run[f]
                for t in range(e, order):
                    a = _letter(y, k, t)
                    prob *= trans[i + t - order, state, a]
                    state = ((state << 2) | a) & state_mask
                pattern = (u << (2 * e)) | _sub(y, k, 0, e)
                _region_add(
                    j - row0, l - order, l, pattern, prob, l, offsets, tables, out
                )


@njit(**NJIT)
def left_messages(end, order, trans, left, new_left):
    """``new_left[end, s] += sum_g left[g] Pr(X[end:end+D] = s | D-gram g before)``.

    ``left`` (by the features' last D-gram) is reset to 0.
    """
    n_states = left.shape[0]
    state_mask = n_states - 1
    for g in range(n_states):
        if left[g] == 0.0:
            continue
        for s in range(n_states):
            prob = left[g]
            state = g
            for t in range(order):
                a = (s >> (2 * (order - 1 - t))) & 3
                prob *= trans[end + t - order, state, a]
                state = ((state << 2) | a) & state_mask
            new_left[end, s] += prob
        left[g] = 0.0


@njit(**NJIT)
def right_messages(i, order, trans, right, new_right):
    """``new_right[i, s] += sum_a right[a] Pr(X[i:i+D] = a | X[i-D:i] = s)``.

    ``right`` (by the features' first D-gram) is reset to 0.
    """
    n_states = right.shape[0]
    state_mask = n_states - 1
    for a in range(n_states):
        if right[a] == 0.0:
            continue
        for s in range(n_states):
            prob = right[a]
            state = s
            for t in range(order):
                letter = (a >> (2 * (order - 1 - t))) & 3
                prob *= trans[i + t - order, state, letter]
                state = ((state << 2) | letter) & state_mask
            new_right[i, s] += prob
        right[a] = 0.0
