"""Numba helpers that visit a row of features: one order k >= D, one start i.

A row's features write, window by window, into one window's tables at a time,
and their prefix (or suffix) probabilities grow by one transition per window;
their chain messages are summed per D-gram and sent through the chain once
per row. The chain's transitions are the same at every position. Used by the
difference pass (`poimkit.poim._burn_in`) and the end layers of the shift
convolution (`poimkit.poim._shifted`). Window j is written at row ``j - row0`` of
``tables`` and ``out``; the notation is that of `poimkit.poim._exact`.
"""

from numba import njit

from .._alphabet import kmer_letter, push, sub_kmer
from .._config import NJIT
from ._exact import region_add


@njit(**NJIT)
def longest_row(indptrs):
    """Most features in one row (order k, start i) of the CSR ``indptrs``.

    ``indptrs[k - 1]`` holds the row pointers of order k; the result sizes
    the ``run`` and ``sfx`` buffers of `row_after` and `row_before`.
    """
    longest = 0
    for k in range(1, len(indptrs) + 1):
        indptr = indptrs[k - 1]
        for i in range(indptr.shape[0] - 1):
            longest = max(longest, indptr[i + 1] - indptr[i])
    return longest


@njit(**NJIT)
def row_after(
    k,
    i_lo,
    lo,
    hi,
    kmer,
    value,
    scales,
    l,
    order,
    step,
    factors,
    windows,
    row0,
    j_end,
    run,
    sfx,
):
    """Terms of the row's features ``lo:hi`` for the windows that start inside them.

    The features (order k >= D) are moved to the starts ``i = i_lo + q`` with
    the weights ``scales[q] * value[lo:hi]``; the windows ``i < j < j_end``
    are visited. The chain is homogeneous with the transitions ``step[s,
    a]``. Each term is the engine's ``w Pr(y at i | z at j)``
    (`_exact.add_feature`) with its factor ``pi[i, y[:D]] / pi[j, z[:D]]``
    (the D-gram marginals) replaced by ``c = p_start[i, y[:D]] x_window[j,
    z[:D]] - r_start[i, y[:D]] y_window[j, z[:D]]``, ``factors = (p_start,
    x_window, r_start, y_window)``: ``(pi, 1 / pi, 0, 0)`` gives the terms
    under one chain, and a difference pass the difference of two chains'
    terms (`_burn_in`).

    ``run[f]`` holds ``w Pr(y[:m + D] at i | y[:D] at i)`` while the window
    ``j = i + m`` moves right, and ``w Pr(y at i | y[:D] at i)`` on return;
    ``sfx[t, f]`` (at least k + 1 rows) gets ``prod_{u=t..k-1} Pr(y_u |
    y[u-D:u])`` for ``t > l``.
    """
    p_start, x_window, r_start, y_window = factors
    offsets, tables, out = windows
    n = hi - lo
    state_mask = (1 << (2 * order)) - 1
    for f in range(n):
        y = kmer[lo + f]
        run[f] = value[lo + f]
        sfx[k, f] = 1.0
        for t in range(k - 1, l, -1):
            sfx[t, f] = (
                sfx[t + 1, f]
                * step[sub_kmer(y, k, t - order, order), kmer_letter(y, k, t)]
            )
    for m in range(1, k + 1):
        o = k - m
        if o >= order:  # the prefix gains the letter before z[:D]
            t = m + order - 1
            for f in range(n):
                y = kmer[lo + f]
                run[f] *= step[sub_kmer(y, k, t - order, order), kmer_letter(y, k, t)]
        if o == 0:  # D = 0: the last letter, and no window
            break
        for q in range(scales.shape[0]):
            i = i_lo + q
            j = i + m
            if j >= j_end:
                break
            for f in range(n):
                y = kmer[lo + f]
                a = sub_kmer(y, k, 0, order)
                if o >= order:
                    head = sub_kmer(y, k, m, order)
                    c = (
                        p_start[i, a] * x_window[j, head]
                        - r_start[i, a] * y_window[j, head]
                    )
                    w = scales[q] * run[f] * c
                    if o >= l:  # the window inside the feature
                        out[j - row0, sub_kmer(y, k, m, l)] += w * sfx[m + l, f]
                    else:  # the feature ends inside the window
                        region_add(
                            j - row0,
                            0,
                            o,
                            sub_kmer(y, k, m, o),
                            w,
                            l,
                            offsets,
                            tables,
                            out,
                        )
                    continue
                # z[:D] runs past the feature's end: its last letters are free
                n_free = order - o
                for v in range(1 << (2 * n_free)):
                    prob = scales[q] * run[f]
                    state = sub_kmer(y, k, k - order, order)
                    for u in range(n_free):
                        letter = (v >> (2 * (n_free - 1 - u))) & 3
                        prob *= step[state, letter]
                        state = push(state, letter, state_mask)
                    head = (sub_kmer(y, k, m, o) << (2 * n_free)) | v
                    c = (
                        p_start[i, a] * x_window[j, head]
                        - r_start[i, a] * y_window[j, head]
                    )
                    region_add(
                        j - row0, 0, order, head, prob * c, l, offsets, tables, out
                    )


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
                i + e - order, sub_kmer(y, k, e - order, order), kmer_letter(y, k, e)
            ]
            if write:
                w = run[f]
                region_add(
                    j - row0, l - e, l, sub_kmer(y, k, 0, e), w, l, offsets, tables, out
                )
    # the windows inside the feature, then those whose last D letters start
    # before it (the chain state at their end holds free letters)
    for e in range(max(l, j_start + l - i), k):
        j = i + e - l
        for f in range(n):
            y = kmer[lo + f]
            z = sub_kmer(y, k, e - l, l)
            pz = zprob[j, z]
            if pz > 0.0:
                out[j - row0, z] += run[f] * pi[i, sub_kmer(y, k, 0, order)] / pz
    for e in range(max(1, j_start + l - i), min(order, k)):
        j = i + e - l
        n_free = order - e
        for f in range(n):
            y = kmer[lo + f]
            for u in range(1 << (2 * n_free)):
                state = (u << (2 * e)) | sub_kmer(y, k, 0, e)
                prob = run[f]
                for t in range(e, order):
                    a = kmer_letter(y, k, t)
                    prob *= trans[i + t - order, state, a]
                    state = push(state, a, state_mask)
                pattern = (u << (2 * e)) | sub_kmer(y, k, 0, e)
                region_add(
                    j - row0, l - order, l, pattern, prob, l, offsets, tables, out
                )


@njit(**NJIT)
def word_prob(prob, state, word, at, order, trans, state_mask):
    """``prob * Pr(X[at:at+D] = word | D-gram state before)`` (D = ``order``)."""
    for t in range(order):
        a = (word >> (2 * (order - 1 - t))) & 3
        prob *= trans[at + t - order, state, a]
        state = push(state, a, state_mask)
    return prob


@njit(**NJIT)
def messages(at, order, trans, sums, out, left):
    """Send the per-D-gram ``sums`` through the chain's D letters at ``at``.

    ``left``: ``out[at, s] += sum_g sums[g] Pr(X[at:at+D] = s | D-gram g
    before)``, ``sums`` by the features' last D-gram (the left messages);
    otherwise ``out[at, s] += sum_a sums[a] Pr(X[at:at+D] = a | X[at-D:at] =
    s)``, ``sums`` by the features' first D-gram (the right messages).
    ``sums`` is reset to 0.
    """
    n_states = sums.shape[0]
    state_mask = n_states - 1
    for g in range(n_states):
        if sums[g] == 0.0:
            continue
        for s in range(n_states):
            before, word = (g, s) if left else (s, g)
            out[at, s] += word_prob(sums[g], before, word, at, order, trans, state_mask)
        sums[g] = 0.0
