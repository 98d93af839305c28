"""Numba kernels of the exact POIM engine (arrays in, preallocated arrays out).

Notation: a weighted feature is ``(k, i, Y, w)``: the k-mer with index Y at
0-based start i has weight w. A window is ``(j, l)``; ``z`` indexes its 4**l
k-mers. The background is a Markov chain of order D given by ``pi[t, s]``
(probability of the D-gram s at t) and ``trans[t - D, s, a]`` (probability of
letter a at t after the D-gram s). See `poimkit.poim.exact` for the maths.

A *difference pass* (``rel`` not empty, `poimkit.poim.burn_in`) accumulates
the terms of a second chain with the same transitions and D-gram marginals
``rel[t, s] pi[t, s]``, minus those of the chain given. They differ only
through the D-gram at the start of a string: a feature's ``Pr(y at i)`` gains
the factor ``rel[i, y[:D]]``, and a window ``j > i`` divides by ``rel[j,
z[:D]]``; windows ``j <= i`` and the right messages are the same for both.
"""

import numpy as np
from numba import njit, prange

from .._alphabet import extend, kmer_letter, push, sub_kmer
from .._config import NJIT, NJIT_PARALLEL


@njit(**NJIT)
def _prefix_probs(index, k, i, order, pi, trans, small, pp):
    """``pp[n] = Pr(X[i:i+n] = y[:n])`` for n = order..k (and pp[k] for k < order)."""
    if k < order:
        pp[k] = small[k, i, index]
        return
    pp[order] = pi[i, sub_kmer(index, k, 0, order)]
    state_mask = (1 << (2 * order)) - 1
    state = sub_kmer(index, k, 0, order)
    for t in range(order, k):
        a = kmer_letter(index, k, t)
        pp[t + 1] = pp[t] * trans[i + t - order, state, a]
        state = push(state, a, state_mask)


@njit(**NJIT)
def _suffix_probs(index, k, i, order, trans, sp):
    """``sp[n] = prod_{t=n..k-1} Pr(y_t | y[t-D:t])`` for n = order..k."""
    sp[k] = 1.0
    state_mask = (1 << (2 * order)) - 1
    for t in range(k - 1, order - 1, -1):
        state = sub_kmer(index, k, t - order, order) & state_mask if order else 0
        sp[t] = sp[t + 1] * trans[i + t - order, state, kmer_letter(index, k, t)]


@njit(**NJIT)
def feature_probs(index, k, i, order, pi, trans, small, pp, sp):
    """`_prefix_probs` of feature (k, i, y), and `_suffix_probs` where k >= D."""
    _prefix_probs(index, k, i, order, pi, trans, small, pp)
    if k >= order:
        _suffix_probs(index, k, i, order, trans, sp)


@njit(**NJIT)
def _string_prob(letters, n, p, order, pi, trans):
    """Pr(X[p:p+n] = letters[:n]) for n >= order."""
    state = 0
    for t in range(order):
        state = extend(state, letters[t])
    prob = pi[p, state]
    state_mask = (1 << (2 * order)) - 1
    for t in range(order, n):
        prob *= trans[p + t - order, state, letters[t]]
        state = push(state, letters[t], state_mask)
    return prob


@njit(**NJIT)
def _tail_given_state(index, k, first, i, prev, n_prev, order, trans):
    """prod_{t=first..k-1} Pr(y_t | D letters before), history seeded by ``prev``.

    ``prev`` holds the ``n_prev`` letters just before y's letter ``first``
    (those at positions before i come first).
    """
    state_mask = (1 << (2 * order)) - 1
    state = 0
    for t in range(n_prev):
        state = push(state, prev[t], state_mask)
    prob = 1.0
    for t in range(first, k):
        a = kmer_letter(index, k, t)
        prob *= trans[i + t - order, state, a]
        state = push(state, a, state_mask)
    return prob


@njit(**NJIT)
def _start_factor(rel, i, first):
    """1, or in a difference pass ``rel[i, first] - 1`` (D-gram ``first`` at i).

    ``Pr(y at i)`` of the second chain minus the first, per unit of the first.
    """
    if rel.shape[0] == 0:
        return 1.0
    return rel[i, first] - 1.0


@njit(**NJIT)
def _window_factor(rel, i, first, j, head):
    """1, or in a difference pass the factor of ``Pr(y at i | z at j)``, j > i.

    ``rel[i, first] / rel[j, head] - 1`` (``first``: the D-gram at i, ``head``:
    the window's first D letters), or 0 where ``rel[j, head] = 0``: such k-mers
    have probability zero under the second chain and get Q = 0.
    """
    if rel.shape[0] == 0:
        return 1.0
    if rel[j, head] == 0.0:
        return 0.0
    return rel[i, first] / rel[j, head] - 1.0


@njit(**NJIT)
def _letters_index(letters, n):
    """Index of the n-mer ``letters[:n]``."""
    index = 0
    for t in range(n):
        index = extend(index, letters[t])
    return index


@njit(**NJIT)
def region_add(j, a, b, pattern, value, l, offsets, tables, out):
    """Add ``value`` for the letters ``pattern`` on the sub-window ``[a, b)`` of j.

    The whole window ``[0, l)`` goes straight into ``out[j]``; smaller
    sub-windows go into the region tables, expanded later by `expand_windows`.
    """
    if a == 0 and b == l:
        out[j, pattern] += value
    else:
        tables[j, offsets[a, b] + pattern] += value


@njit(**NJIT)
def add_feature(k, i, index, w, j_lo, j_hi, l, order, chain, windows, work, row0):
    """Add one feature's ``w Pr(y at i | z at j)`` for the windows it overlaps.

    Windows ``j_lo <= j < j_hi`` are visited, window j written at row ``j -
    row0`` of ``tables`` and ``out``. The value depends on z only
    through the letters of a sub-window ``[a, b)`` (the overlap, widened by the
    chain order where the chain state at an edge holds letters of z that the
    feature does not fix). ``chain``, ``windows`` and ``work`` are the tuples
    of `accumulate_features`; in a difference pass, ``j_lo > i``.
    """
    pi, trans, _, rel = chain
    zprob, offsets, tables, out = windows
    pp, sp, scratch = work
    first = sub_kmer(index, k, 0, order) if k >= order else 0  # the D-gram at i
    for j in range(j_lo, j_hi):
        a = max(i, j) - j
        b = min(i + k, j + l) - j
        o = b - a
        if i >= j and i + k <= j + l:  # feature inside the window
            region_add(j - row0, a, b, index, w, l, offsets, tables, out)
        elif i <= j and i + k >= j + l:  # window inside the feature
            z = sub_kmer(index, k, j - i, l)
            pz = zprob[j, z]
            if pz > 0.0:
                head = z >> (2 * (l - order))
                factor = _window_factor(rel, i, first, j, head)
                out[j - row0, z] += w * pp[k] / pz * factor
        elif i > j:  # feature runs past the window's right end
            if o >= order:
                region_add(
                    j - row0,
                    a,
                    l,
                    sub_kmer(index, k, 0, o),
                    w * sp[o],
                    l,
                    offsets,
                    tables,
                    out,
                )
            else:  # the chain state at the window's end includes free letters
                where = (j - row0, l, offsets, tables, out)
                _free_tail(k, i, index, w, o, order, trans, scratch, where)
        else:  # feature starts before the window and ends inside it
            m = j - i
            if o >= order:
                head = sub_kmer(index, k, m, order)
                pz = pi[j, head] if order else 1.0
                if pz > 0.0:
                    factor = _window_factor(rel, i, first, j, head)
                    region_add(
                        j - row0,
                        0,
                        o,
                        sub_kmer(index, k, m, o),
                        w * pp[m + order] / pz * factor,
                        l,
                        offsets,
                        tables,
                        out,
                    )
            else:  # the chain state at the window's start includes free letters
                where = (j - row0, l, offsets, tables, out)
                _free_head(k, i, j, index, w, o, order, chain, scratch, where)


@njit(inline="always", **NJIT)
def _free_tail(k, i, index, w, o, order, trans, scratch, where):
    """`add_feature`'s feature past a window's end by ``o < D`` letters.

    The chain state at the window's end holds ``D - o`` letters before the
    feature's that it does not fix: each of them is a pattern of its own.
    ``where = (row, l, offsets, tables, out)`` as `region_add` takes them.
    """
    row, l, offsets, tables, out = where
    n_free = order - o
    for u in range(1 << (2 * n_free)):
        for t in range(n_free):
            scratch[t] = (u >> (2 * (n_free - 1 - t))) & 3
        for t in range(o):
            scratch[n_free + t] = kmer_letter(index, k, t)
        value = _tail_given_state(index, k, o, i, scratch, order, order, trans)
        pattern = (u << (2 * o)) | sub_kmer(index, k, 0, o)
        region_add(row, l - order, l, pattern, w * value, l, offsets, tables, out)


@njit(inline="always", **NJIT)
def _free_head(k, i, j, index, w, o, order, chain, scratch, where):
    """`add_feature`'s feature ending ``o < D`` letters into the window at j.

    The chain state at the window's start holds ``D - o`` letters after the
    feature's that it does not fix: each of them is a pattern of its own.
    ``where = (row, l, offsets, tables, out)`` as `region_add` takes them.
    """
    pi, trans, _, rel = chain
    row, l, offsets, tables, out = where
    m = j - i
    n_free = order - o
    for t in range(k):
        scratch[t] = kmer_letter(index, k, t)
    for v in range(1 << (2 * n_free)):
        for t in range(n_free):
            scratch[k + t] = (v >> (2 * (n_free - 1 - t))) & 3
        head = (sub_kmer(index, k, m, o) << (2 * n_free)) | v
        pz = pi[j, head]
        if pz > 0.0:
            value = _string_prob(scratch, m + order, i, order, pi, trans)
            start = _letters_index(scratch, order)
            value *= _window_factor(rel, i, start, j, head)
            region_add(row, 0, order, head, w * value / pz, l, offsets, tables, out)


@njit(inline="always", **NJIT)
def feature_work(max_k, order):
    """One thread's scratch ``(pp, sp, scratch)`` for orders up to ``max_k``.

    ``pp`` and ``sp`` take a feature's prefix and suffix probabilities
    (`feature_probs`), ``scratch`` the letters of a chain state
    (`add_feature`, `boundary_terms`): the ``work`` tuple they share.
    """
    pp = np.zeros(max_k + order + 2)
    sp = np.zeros(max_k + order + 2)
    scratch = np.zeros(max_k + 2 * order + 2, dtype=np.int64)
    return pp, sp, scratch


@njit(**NJIT)
def feature_total(k, i, index, order, rel, pp):
    """``Pr(y at i)`` (`feature_probs` done), or its difference in a difference pass.

    For k < D, ``pp[k]`` is read from ``small``, which a difference pass fills
    with the difference itself.
    """
    if k < order or rel.shape[0] == 0:
        return pp[k]
    return pp[k] * _start_factor(rel, i, sub_kmer(index, k, 0, order))


@njit(**NJIT)
def boundary_terms(k, i, index, w, order, length, chain, work, new_left, new_right):
    """Chain messages of one feature for the windows it does not overlap.

    ``new_left[i + k, s] += w Pr(y at i, X[i+k:i+k+D] = s)`` and
    ``new_right[i, s] += w Pr(y at i | X[i-D:i] = s)``; in a difference pass
    the difference of the left message (the right one is the same).
    """
    pi, trans, _, rel = chain
    pp, sp, scratch = work
    n_states = 1 << (2 * order)
    state_mask = n_states - 1
    end = i + k
    if end <= length - order:
        if k >= order:
            tail = sub_kmer(index, k, k - order, order) if order else 0
            w_start = w * _start_factor(rel, i, sub_kmer(index, k, 0, order))
            for s in range(n_states):
                state = tail
                prob = pp[k]
                for t in range(order):
                    a = (s >> (2 * (order - 1 - t))) & 3
                    prob *= trans[end + t - order, state, a]
                    state = push(state, a, state_mask)
                new_left[end, s] += w_start * prob
        else:
            for t in range(k):
                scratch[t] = kmer_letter(index, k, t)
            for s in range(n_states):
                for t in range(order):
                    scratch[k + t] = (s >> (2 * (order - 1 - t))) & 3
                start = _start_factor(rel, i, _letters_index(scratch, order))
                new_left[end, s] += (
                    w * _string_prob(scratch, k + order, i, order, pi, trans) * start
                )
    if i >= order and rel.shape[0] == 0:
        rest = sp[order] if k > order else 1.0
        first = min(order, k)
        for s in range(n_states):
            head = 1.0
            state = s
            for t in range(first):
                a = kmer_letter(index, k, t)
                head *= trans[i + t - order, state, a]
                state = push(state, a, state_mask)
            new_right[i, s] += w * head * rest


@njit(**NJIT_PARALLEL)
def accumulate_features(
    weights: tuple,
    block_bounds: np.ndarray,
    b_lo: int,
    b_hi: int,
    l: int,
    order: int,
    length: int,
    chain: tuple,
    windows: tuple,
    messages: tuple,
) -> None:
    """Scatter every weighted feature into the windows' tables, one block per task.

    Block b owns windows ``block_bounds[b]:block_bounds[b + 1]`` (only it
    writes their ``tables`` and ``out`` rows) and the features starting there
    (it alone writes their chain messages into ``new_left[b]``,
    ``new_right[b]`` and ``totals[b]``). One call does blocks ``b_lo:b_hi``
    (several calls: a progress bar between them).

    Parameters
    ----------
    weights : tuple of numba.typed.List
        ``(indptrs, kmers, values)``: ``indptrs[k - 1]``, ``kmers[k - 1]``,
        ``values[k - 1]`` are the CSR weights of order k (rows: start
        positions).
    block_bounds : numpy.ndarray of int64, shape (n_blocks + 1,)
        First window of each block, then the number of windows.
    b_lo, b_hi : int
        Blocks of this call.
    l : int
        Window length (the POIM order).
    order : int
        Order D of the background chain.
    length : int
        Sequence length L.
    chain : tuple of numpy.ndarray
        ``(pi, trans, small, rel)``: D-gram probabilities ``pi[t, s]``,
        transitions ``trans[t - D, s, a]``, ``small[k, i, y] = Pr(y at i)`` for
        k < D, and ``rel`` (empty here; for difference passes see the module
        doc and `poimkit.poim._burn_in`).
    windows : tuple of numpy.ndarray
        ``(zprob, offsets, tables, out)``: ``Pr(z at j)``, region offsets of
        the sub-windows, their tables, and the whole-window output.
    messages : tuple of numpy.ndarray
        ``(new_left, new_right, totals)`` per block (see `boundary_terms`).
    """
    indptrs, kmers, values = weights
    pi, trans, small, rel = chain
    new_left, new_right, totals = messages
    n_blocks = block_bounds.shape[0] - 1
    max_k = len(indptrs)
    for b in prange(b_lo, b_hi):
        jb0 = block_bounds[b]
        jb1 = block_bounds[b + 1]
        last = b == n_blocks - 1
        work = feature_work(max_k, order)
        pp, sp, _ = work
        left_b = new_left[b]
        right_b = new_right[b]
        for k in range(1, max_k + 1):
            indptr = indptrs[k - 1]
            kmer_k = kmers[k - 1]
            value_k = values[k - 1]
            i_lo = max(0, jb0 - k + 1)
            i_hi = length - k if last else min(length - k, jb1 + l - 2)
            for i in range(i_lo, i_hi + 1):
                owner = i >= jb0 and (i < jb1 or last)
                j_lo = max(jb0, i - l + 1)
                j_hi = min(jb1, i + k)
                if not owner and j_lo >= j_hi:
                    continue
                for e_idx in range(indptr[i], indptr[i + 1]):
                    index = kmer_k[e_idx]
                    w = value_k[e_idx]
                    feature_probs(index, k, i, order, pi, trans, small, pp, sp)
                    add_feature(
                        k, i, index, w, j_lo, j_hi, l, order, chain, windows, work, 0
                    )
                    if owner:
                        totals[b] += w * feature_total(k, i, index, order, rel, pp)
                        boundary_terms(
                            k, i, index, w, order, length, chain, work, left_b, right_b
                        )


@njit(**NJIT)
def chain_messages(new_left, new_right, order, length, trans, left, right):
    """Propagate features through the chain.

    ``left[e, s]``: sum over features ending at or before e of
    ``w Pr(y at i, X[e:e+D] = s)``; ``right[e, s]``: sum over features starting
    at or after e of ``w Pr(y at i | X[e-D:e] = s)``.
    """
    n_states = 1 << (2 * order)
    state_mask = n_states - 1
    left[0, :] = new_left[0, :]
    for e in range(length - order):
        for s in range(n_states):
            left[e + 1, s] = new_left[e + 1, s]
        for s in range(n_states):
            if left[e, s] != 0.0:
                for a in range(4):
                    left[e + 1, push(s, a, state_mask)] += left[e, s] * trans[e, s, a]
    right[length, :] = 0.0
    for e in range(length - 1, order - 1, -1):
        for s in range(n_states):
            acc = new_right[e, s]
            for a in range(4):
                acc += trans[e - order, s, a] * right[e + 1, push(s, a, state_mask)]
            right[e, s] = acc


@njit(**NJIT_PARALLEL)
def expand_windows(tables, offsets, l, order, pi, left, right, total, zprob, out):
    """Finish ``out[j, z]`` = Q_l(z, j): add the region tables and chain messages.

    On entry ``out`` holds the whole-window contributions; k-mers of
    probability zero get Q = 0.
    """
    n_windows = out.shape[0]
    n_z = out.shape[1]
    for j in prange(n_windows):
        for z in range(n_z):
            if zprob[j, z] == 0.0:
                out[j, z] = 0.0
                continue
            acc = out[j, z] - total
            for a in range(l):
                for b in range(a + 1, l + 1):
                    if a == 0 and b == l:
                        continue
                    width_mask = (1 << (2 * (b - a))) - 1
                    acc += tables[
                        j, offsets[a, b] + ((z >> (2 * (l - b))) & width_mask)
                    ]
            head = z >> (2 * (l - order)) if order else 0
            tail = z & ((1 << (2 * order)) - 1)
            p_head = pi[j, head]
            if p_head > 0.0:
                acc += left[j, head] / p_head
            acc += right[j + l, tail]
            out[j, z] = acc
