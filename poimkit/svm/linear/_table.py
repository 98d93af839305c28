"""Numba kernels of the exact sparse k-mer table of `WDLinearSVC`, and the hash.

Pure functions on arrays; the wrappers are in `poimkit.svm.linear.keys`. Every
sparse (order k, feature position r) owns one open-addressing hash table with
linear probing: a region ``keys[start : start + mask + 1]`` of uint64 keys
``y + 1`` (0 marks an empty slot; ``y < 4**k`` with ``k <= 31``, so the key is
exact, never a hash) and, in the same slots, the k-mer's column within the
region (``idx``). The capacity is a power of two at least twice the number of
keys, so a probe always ends at an empty slot.
"""

import numpy as np
from numba import njit, prange

from ..._config import NJIT, NJIT_PARALLEL

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(**NJIT)
def mix64(z):
    """splitmix64 finaliser: a bijection of uint64 that scrambles every bit."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(**NJIT)
def probe_insert(keys, start, mask, key):
    """``(slot, new)``: the slot of ``key`` in the region, inserted if absent."""
    h = mix64(key) & mask
    while True:
        s = keys[start + np.int64(h)]
        if s == key:
            return start + np.int64(h), False
        if s == np.uint64(0):
            keys[start + np.int64(h)] = key
            return start + np.int64(h), True
        h = (h + np.uint64(1)) & mask


@njit(**NJIT)
def probe_find(keys, idx, start, mask, key):
    """Column of ``key`` within its region, or -1 if it is not in the table."""
    h = mix64(key) & mask
    while True:
        s = keys[start + np.int64(h)]
        if s == key:
            return np.int64(idx[start + np.int64(h)])
        if s == np.uint64(0):
            return np.int64(-1)
        h = (h + np.uint64(1)) & mask


@njit(**NJIT_PARALLEL)
def order_keys(X, k, out):
    """``out[p, i] = kmer index of X[i, p:p+k] + 1`` (position-major)."""
    n, length = X.shape
    kmask = (np.uint64(1) << np.uint64(2 * k)) - np.uint64(1)
    for i in prange(n):
        key = np.uint64(0)
        for q in range(length):
            key = ((key << np.uint64(2)) | np.uint64(X[i, q])) & kmask
            if q >= k - 1:
                out[q - k + 1, i] = key + np.uint64(1)


@njit(**NJIT_PARALLEL)
def collect(kp, r0, row0, shift, factors, cand, table, owner, value, slots, mask):
    """Insert the keys of the feature positions ``r0 .. r0 + len(table) - 1``.

    ``kp`` holds the keys of one order (`order_keys`) of the rows ``row0 ..``;
    an occurrence at ``p`` feeds the features ``r = p - j``, ``j = 0..shift``,
    with factor ``factors[p, j]``, so row ``r - r0`` of ``table`` receives the
    keys at ``p = r .. r + shift``. ``owner`` is the one sequence that has the
    feature (-1 once a second one has it) and ``value`` its feature value in
    that sequence. Only occurrences with ``cand[p, row]`` are inserted (the
    others are known to be private, `shared_occurrences`); for WD (shift 0)
    ``slots[r - r0, row]`` gets the slot of each inserted one.
    """
    n_pos, n = kp.shape
    for t in prange(table.shape[0]):
        r = r0 + t
        for p in range(r, min(r + shift + 1, n_pos)):
            f = factors[p, p - r]
            for i in range(n):
                row = row0 + i
                if not cand[p, row]:
                    continue
                slot, new = probe_insert(table[t], 0, mask, kp[p, i])
                if shift == 0:
                    slots[t, row] = slot
                if new:
                    owner[t, slot] = row
                    value[t, slot] = f
                elif owner[t, slot] == row:
                    value[t, slot] += f
                else:
                    owner[t, slot] = -1


@njit(**NJIT_PARALLEL)
def shared_occurrences(cand, r0, owner, slots, shared):
    """``shared[r0 + t, i]``: occurrence i of WD position r0 + t has a shared key.

    From the collection (`collect`) of that position, before `split_shared`.
    """
    for t in prange(owner.shape[0]):
        for i in range(shared.shape[1]):
            shared[r0 + t, i] = cand[r0 + t, i] and owner[t, slots[t, i]] < 0


@njit(**NJIT)
def add_private(cand, f2, private_sq):
    """Add ``f2[p]`` to row i's ``private_sq`` for every ``not cand[p, i]``.

    The WD occurrences that `collect` skipped: their keys are private. Returns
    their number.
    """
    n_private = 0
    for p in range(cand.shape[0]):
        for i in range(cand.shape[1]):
            if not cand[p, i]:
                private_sq[i] += f2[p]
                n_private += 1
    return n_private


@njit(**NJIT)
def split_shared(table, owner, value, count, keys, private_sq):
    """Sort the collected keys (`collect`) into shared and private.

    Row r of ``table`` gets ``count[r]``, its shared keys (two or more
    sequences) are appended to ``keys`` row after row, and each private
    key's value squared is added to its owner's ``private_sq``. Returns the
    number of shared and of private keys. ``keys`` may be the flat view of
    ``table`` itself (a key is written at or before where it was read).
    """
    n_shared = 0
    n_private = 0
    for r in range(table.shape[0]):
        c = 0
        for slot in range(table.shape[1]):
            if table[r, slot] == np.uint64(0):
                continue
            if owner[r, slot] < 0:
                keys[n_shared] = table[r, slot]
                n_shared += 1
                c += 1
            else:
                private_sq[owner[r, slot]] += value[r, slot] ** 2
                n_private += 1
        count[r] = c
    return n_shared, n_private


@njit(**NJIT_PARALLEL)
def private_entries(
    X, rows, k, shift, factors, fmap, known, absent, out_r, out_key, out_row, out_val
):
    """The features of ``X[rows]`` of order k that are not in the table.

    For the a-th row: ``(r, y + 1, a, factor)`` per occurrence feeding a
    feature ``(k, r, y)`` absent from the sparse table (a private feature of
    that training sequence), row after row. The rows are looked up in
    parallel, each into its own segment of the outputs (which hold
    ``(L - k + 1) * (shift + 1)`` entries per row), then packed in order.
    ``absent[a, e]`` records, for the occurrence at p feeding ``r = p - j``
    (``e = p * (S + 1) + j``), whether its feature is absent. ``known``: the
    same of order k - 1, or no columns; a feature whose prefix ``(k - 1, r,
    y[:-1])`` (for WD also suffix ``(k - 1, r + 1, y[1:])``) is absent is
    absent too, without a lookup. Returns the number of entries written.
    """
    tstart, tmask, tkeys, tidx = fmap[10], fmap[11], fmap[13], fmap[14]
    n_pos = X.shape[1] - k + 1
    seg = n_pos * (shift + 1)
    kmask = (np.uint64(1) << np.uint64(2 * k)) - np.uint64(1)
    used = np.zeros(rows.shape[0], dtype=np.int64)
    for a in prange(rows.shape[0]):
        x = X[rows[a]]
        kk = np.empty(n_pos, dtype=np.uint64)
        key = np.uint64(0)
        for q in range(X.shape[1]):
            key = ((key << np.uint64(2)) | np.uint64(x[q])) & kmask
            if q >= k - 1:
                kk[q - k + 1] = key + np.uint64(1)
        t = a * seg
        for r in range(n_pos):
            start, mask = tstart[k - 1, r], np.uint64(tmask[k - 1, r])
            for p in range(r, min(r + shift + 1, n_pos)):
                e = p * (shift + 1) + p - r
                gone = known.shape[1] > 0 and (
                    known[a, e] or (shift == 0 and known[a, p + 1])
                )
                if not gone:
                    gone = probe_find(tkeys, tidx, start, mask, kk[p]) < 0
                absent[a, e] = gone
                if not gone:
                    continue
                out_r[t] = r
                out_key[t] = kk[p]
                out_val[t] = factors[p, p - r]
                t += 1
        used[a] = t - a * seg
    t = 0
    for a in range(rows.shape[0]):  # pack (an entry moves to or before its slot)
        for u in range(a * seg, a * seg + used[a]):
            out_r[t], out_key[t], out_row[t], out_val[t] = (
                out_r[u],
                out_key[u],
                a,
                out_val[u],
            )
            t += 1
    return t


@njit(**NJIT_PARALLEL)
def merge_regions(count, keys, weights, r, key, val, out_count, out_keys, out_w):
    """Each region's keys and weights followed by the added ``(r, key, val)``.

    ``keys`` and ``weights`` hold ``count[r]`` entries per region, region
    after region; the added entries come in any order and keep it within a
    region (a counting sort). The regions are copied, and the added entries
    placed, in parallel: the added entries are cut into segments, and each
    segment's entries of a region go after those of the segments before.
    """
    n_reg, n_add = count.shape[0], r.shape[0]
    n_seg = 8
    per_seg = np.zeros((n_seg, n_reg), dtype=np.int64)
    for g in prange(n_seg):
        for t in range(g * n_add // n_seg, (g + 1) * n_add // n_seg):
            per_seg[g, r[t]] += 1
    src = np.empty(n_reg, dtype=np.int64)
    at = np.empty((n_seg, n_reg), dtype=np.int64)  # next free slot
    s_at, d_at = 0, 0
    for q in range(n_reg):
        src[q] = s_at
        out_count[q] = count[q] + per_seg[:, q].sum()
        nxt = d_at + count[q]
        for g in range(n_seg):
            at[g, q] = nxt
            nxt += per_seg[g, q]
        s_at += count[q]
        d_at += out_count[q]
    for q in prange(n_reg):
        d = at[0, q] - count[q]
        for c in range(count[q]):
            out_keys[d + c] = keys[src[q] + c]
            out_w[d + c] = weights[src[q] + c]
    for g in prange(n_seg):
        for t in range(g * n_add // n_seg, (g + 1) * n_add // n_seg):
            q = r[t]
            out_keys[at[g, q]] = key[t]
            out_w[at[g, q]] = val[t]
            at[g, q] += 1


@njit(**NJIT_PARALLEL)
def fill_regions(present, counts, starts, masks, keys, idx):
    """Insert each region's keys (in column order) into the final tables.

    Regions are disjoint, so they are filled in parallel.
    """
    first = np.cumsum(counts) - counts
    for r in prange(counts.shape[0]):
        for c in range(counts[r]):
            key = present[first[r] + c]
            slot, _ = probe_insert(keys, starts[r], np.uint64(masks[r]), key)
            idx[slot] = c
