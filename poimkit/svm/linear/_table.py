"""Numba kernels of the exact sparse k-mer table of `WDLinearSVC`, and the hash.

Pure functions on arrays; the wrappers are in `poimkit.svm.linear.table`. Every
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


@njit(**NJIT)
def _row_keys(x, k, kk):
    """``kk[p]`` = key (k-mer index + 1) of ``x[p:p+k]``."""
    kmask = (np.uint64(1) << np.uint64(2 * k)) - np.uint64(1)
    key = np.uint64(0)
    for q in range(x.shape[0]):
        key = ((key << np.uint64(2)) | np.uint64(x[q])) & kmask
        if q >= k - 1:
            kk[q - k + 1] = key + np.uint64(1)


@njit(**NJIT_PARALLEL)
def order_keys(X, k, out):
    """``out[p, i] = kmer index of X[i, p:p+k] + 1`` (position-major)."""
    for i in prange(X.shape[0]):
        _row_keys(X[i], k, out[:, i])


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
    ``slots[r - r0, row]`` gets the slot of each inserted one, and ``value``
    has no columns: a sequence feeds a WD feature once, with the factor of
    its position, so the collection touches two arrays per key, not three.
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
                    if shift:
                        value[t, slot] = f
                elif owner[t, slot] == row:  # WDS only
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


@njit(**NJIT_PARALLEL)
def slot_columns(owner, r0, shared, slots):
    """Turn the WD collection's slots into columns within the final regions.

    After `split_shared`: a shared key's column is its rank among the shared
    slots of its row of the collection table (the order `split_shared` lists
    them in). ``slots[t, i]`` becomes the column of occurrence i's key at
    position ``r0 + t``, or -1 if that key is private; ``owner`` is
    overwritten.
    """
    for t in prange(owner.shape[0]):
        c = 0
        for slot in range(owner.shape[1]):
            if owner[t, slot] < 0:
                owner[t, slot] = c
                c += 1
        for i in range(slots.shape[1]):
            slots[t, i] = owner[t, slots[t, i]] if shared[r0 + t, i] else -1


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
def split_shared(table, owner, value, f, count, keys, private_sq):
    """Sort the collected keys (`collect`) into shared and private.

    Row r of ``table`` gets ``count[r]``, its shared keys (two or more
    sequences) are appended to ``keys`` row after row, and each private
    key's value squared is added to its owner's ``private_sq`` (``value``,
    or for WD, where it has no columns, the factor ``f[r]`` of the row).
    Returns the number of shared and of private keys. ``keys`` may be the
    flat view of ``table`` itself (a key is written at or before where it was
    read).
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
                v = value[r, slot] if value.shape[1] else f[r]
                private_sq[owner[r, slot]] += v * v
                n_private += 1
        count[r] = c
    return n_shared, n_private


@njit(**NJIT)
def _first_of_key(kk, r, p):
    """Whether ``kk[p]`` is not among ``kk[r:p]`` (its first occurrence feeding r)."""
    for q in range(r, p):
        if kk[q] == kk[p]:
            return False
    return True


@njit(**NJIT_PARALLEL)
def private_counts(X, rows, k, shift, fmap, known, absent, seg_counts):
    """Which features of ``X[rows]`` of order k are absent from the table.

    ``absent[a, e]`` (a-th row, occurrence at p feeding ``r = p - j``, ``e =
    p * (S + 1) + j``): whether feature ``(k, r, y)`` is absent, i.e. private
    to that training sequence. ``known``: the same of order k - 1, or no
    columns; a feature whose prefix ``(k - 1, r, y[:-1])`` (for WD also
    suffix ``(k - 1, r + 1, y[1:])``) is absent is absent too, without a
    lookup. ``seg_counts[g, r]``: the private features of region r in the g-th
    of ``len(seg_counts)`` equal segments of the rows (a feature that several
    occurrences of a row feed counts once).
    """
    tstart, tmask, tkeys, tidx = fmap.tstart, fmap.tmask, fmap.tkeys, fmap.tidx
    n_pos = X.shape[1] - k + 1
    n_seg, m = seg_counts.shape[0], rows.shape[0]
    for g in prange(n_seg):
        kk = np.empty(n_pos, dtype=np.uint64)
        for a in range(g * m // n_seg, (g + 1) * m // n_seg):
            _row_keys(X[rows[a]], k, kk)
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
                    if gone and _first_of_key(kk, r, p):
                        seg_counts[g, r] += 1


@njit(**NJIT_PARALLEL)
def place_regions(count, keys, weights, seg_counts, out_count, out_keys, out_w):
    """Copy each region's keys and weights, leaving room for the private ones.

    ``keys`` and ``weights`` hold ``count[r]`` entries per region, region after
    region; region r of the outputs gets them, then ``seg_counts[:, r].sum()``
    free entries, segment after segment. Returns ``at[g, r]``, where segment
    g's first private entry of region r goes (`write_private`).
    """
    n_seg, n_reg = seg_counts.shape
    at = np.empty((n_seg, n_reg), dtype=np.int64)
    src = np.empty(n_reg, dtype=np.int64)
    dst = np.empty(n_reg, dtype=np.int64)
    s_at, d_at = 0, 0
    for r in range(n_reg):
        src[r], dst[r] = s_at, d_at
        nxt = d_at + count[r]
        for g in range(n_seg):
            at[g, r] = nxt
            nxt += seg_counts[g, r]
        out_count[r] = nxt - d_at
        s_at += count[r]
        d_at = nxt
    for r in prange(n_reg):
        for c in range(count[r]):
            out_keys[dst[r] + c] = keys[src[r] + c]
            out_w[dst[r] + c] = weights[src[r] + c]
    return at


@njit(**NJIT_PARALLEL)
def write_private(X, rows, k, shift, factors, scale, absent, at, out_keys, out_w):
    """Write the private features found by `private_counts` with their weights.

    The a-th row's private feature ``(k, r, y)`` gets ``scale[a]`` times its
    value (``factors[p, p - r]`` summed over the row's occurrences of y
    feeding r), at ``at[g, r]`` for its segment g (advanced), row after row.
    """
    n_pos = X.shape[1] - k + 1
    n_seg, m = at.shape[0], rows.shape[0]
    for g in prange(n_seg):
        kk = np.empty(n_pos, dtype=np.uint64)
        for a in range(g * m // n_seg, (g + 1) * m // n_seg):
            _row_keys(X[rows[a]], k, kk)
            for r in range(n_pos):
                end = min(r + shift + 1, n_pos)
                for p in range(r, end):
                    if not absent[a, p * (shift + 1) + p - r]:
                        continue
                    if not _first_of_key(kk, r, p):
                        continue
                    value = factors[p, p - r]
                    for q in range(p + 1, end):
                        if kk[q] == kk[p]:
                            value += factors[q, q - r]
                    out_keys[at[g, r]] = kk[p]
                    out_w[at[g, r]] = value * scale[a]
                    at[g, r] += 1


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
