"""Dinucleotide shuffles that keep every dinucleotide count exactly.

A sequence ``s_0 ... s_{L-1}`` is a walk through the graph whose vertices are
the letters and whose edges are its ``L - 1`` dinucleotides ``s_i -> s_{i+1}``.
Every other walk that starts at ``s_0`` and uses each edge once (an Eulerian
path) spells a sequence with the same dinucleotide counts, the same first
letter and the same last letter, and every such sequence is one of those
walks. `dinucleotide_shuffle` draws one uniformly, as uShuffle does
(Altschul and Erickson 1985; Kandel et al. 1996; Jiang et al. 2008):

1. a random *last-exit tree*: for every letter but the last one, the edge by
   which the walk leaves it for the last time, drawn as a uniform random
   arborescence oriented towards the last letter (Wilson's random walk with
   last-exit loop erasure, each parallel edge counted on its own);
2. a uniformly random order of each letter's other out-edges, with the
   last-exit edge put at the end;
3. the walk from the first letter that always leaves by the next unused edge.

By the BEST theorem each labelled Eulerian path arises from exactly one
(tree, orders) pair, and each distinct sequence from the same number of
labelled paths (the product of the factorials of the dinucleotide counts), so
every sequence with those counts and end letters is equally likely.

Letters other than A, C, G, T (code 4, e.g. ``N``) stay where they are: each
maximal run of ``ACGT`` between them is shuffled on its own, which keeps the
counts of all dinucleotides, those touching an ``N`` included.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .._config import NJIT
from .._validation import as_rng, check_int
from ..errors import InputError

__all__ = ["dinucleotide_counts", "dinucleotide_shuffle", "shuffled_negatives"]

_OTHER = 4  # code of N and any letter that is not A, C, G or T


@njit(**NJIT)
def _shuffle_run(
    seq, a, b, out, edges, deg, pos, nxt, in_tree, rng
):  # pragma: no cover
    """Write a uniform Eulerian rearrangement of ``seq[a:b]`` (codes 0..3)."""
    n = b - a
    if n <= 2:
        for i in range(a, b):
            out[i] = seq[i]
        return
    for v in range(4):
        deg[v] = 0
        pos[v] = 0
        in_tree[v] = False
    for i in range(a, b - 1):
        u = seq[i]
        edges[u, deg[u]] = seq[i + 1]
        deg[u] += 1
    last = seq[b - 1]
    in_tree[last] = True
    # Wilson: walk at random until the tree is hit, remembering each letter's
    # last exit; the last exits from the start form a loop-erased branch
    for v in range(4):
        if deg[v] == 0 or in_tree[v]:
            continue
        u = v
        while not in_tree[u]:
            k = rng.integers(0, deg[u])
            nxt[u] = k
            u = edges[u, k]
        u = v
        while not in_tree[u]:
            in_tree[u] = True
            u = edges[u, nxt[u]]
    # the other out-edges in random order, the last-exit edge last
    for v in range(4):
        m = deg[v]
        if m == 0:
            continue
        if v != last:
            k = nxt[v]
            t = edges[v, k]
            edges[v, k] = edges[v, m - 1]
            edges[v, m - 1] = t
            m -= 1
        for j in range(m - 1, 0, -1):
            k = rng.integers(0, j + 1)
            t = edges[v, k]
            edges[v, k] = edges[v, j]
            edges[v, j] = t
    u = seq[a]
    out[a] = u
    for i in range(a + 1, b):
        w = edges[u, pos[u]]
        pos[u] += 1
        out[i] = w
        u = w


@njit(**NJIT)
def _shuffle_all(flat, offsets, copies, out, rng):  # pragma: no cover
    """Shuffle each sequence ``flat[offsets[i]:offsets[i+1]]`` ``copies`` times.

    Copy ``c`` of sequence ``i`` goes to ``out[copies * offsets[i] + c * L_i:]``
    with ``L_i`` its length; ``N`` (code 4) stays in place.
    """
    n = offsets.shape[0] - 1
    longest = 1
    for i in range(n):
        longest = max(longest, offsets[i + 1] - offsets[i])
    edges = np.empty((4, longest), dtype=np.uint8)
    deg = np.zeros(4, dtype=np.int64)
    pos = np.zeros(4, dtype=np.int64)
    nxt = np.zeros(4, dtype=np.int64)
    in_tree = np.zeros(4, dtype=np.bool_)
    for i in range(n):
        s = offsets[i]
        e = offsets[i + 1]
        length = e - s
        seq = flat[s:e]
        for c in range(copies):
            o = copies * s + c * length
            dest = out[o : o + length]
            a = 0
            while a < length:
                if seq[a] >= 4:
                    dest[a] = seq[a]
                    a += 1
                    continue
                b = a
                while b < length and seq[b] < 4:
                    b += 1
                _shuffle_run(seq, a, b, dest, edges, deg, pos, nxt, in_tree, rng)
                a = b


def _as_code_list(seqs: object, name: str) -> list[np.ndarray]:
    """Validate ``seqs`` (one 2-D array or a sequence of 1-D arrays) as code arrays."""
    if isinstance(seqs, np.ndarray) and seqs.ndim == 2:
        rows = list(seqs)
    elif isinstance(seqs, np.ndarray) or isinstance(seqs, str | bytes):
        raise InputError(
            f"{name} must be a 2-D code array or a list of 1-D code arrays, got "
            f"{type(seqs).__name__}"
            + (f" of shape {seqs.shape}" if isinstance(seqs, np.ndarray) else "")
        )
    elif isinstance(seqs, Sequence):
        rows = list(seqs)
    else:
        raise InputError(
            f"{name} must be a 2-D code array or a list of 1-D code arrays, got "
            f"{type(seqs).__name__}"
        )
    out = []
    for i, row in enumerate(rows):
        arr = np.asarray(row)
        if arr.ndim != 1 or not (
            np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_
        ):
            raise InputError(
                f"{name}[{i}] must be a 1-D integer code array, got "
                f"{arr.dtype} of shape {arr.shape}"
            )
        if arr.size and (arr.min() < 0 or arr.max() > _OTHER):
            bad = int(np.flatnonzero((arr < 0) | (arr > _OTHER))[0])
            raise InputError(
                f"{name}[{i}] has code {int(arr[bad])} at position {bad + 1}; "
                "codes must be 0..3 (A, C, G, T) or 4 (N)"
            )
        out.append(np.ascontiguousarray(arr, dtype=np.uint8))
    return out


def _shuffle_many(codes: list[np.ndarray], copies: int, rng: np.random.Generator):
    lengths = np.array([c.size for c in codes], dtype=np.int64)
    offsets = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = np.concatenate(codes) if codes else np.empty(0, dtype=np.uint8)
    out = np.empty(flat.size * copies, dtype=np.uint8)
    _shuffle_all(flat, offsets, copies, out, rng)
    starts = [
        (copies * offsets[i] + c * lengths[i], lengths[i])
        for i in range(len(codes))
        for c in range(copies)
    ]
    return [out[s : s + n] for s, n in starts]


def dinucleotide_shuffle(
    seq: np.ndarray, rng: int | np.random.Generator | None = None
) -> np.ndarray:
    """Shuffle one sequence keeping its dinucleotide counts and end letters.

    Parameters
    ----------
    seq : array of int, shape (L,)
        Letter codes ``A=0, C=1, G=2, T=3``; ``4`` (``N`` or any other letter)
        stays in place and each run of ``ACGT`` between such letters is
        shuffled on its own.
    rng : int, numpy Generator or None, optional
        The random source (a seed is turned into a Generator). Passing the
        same Generator on gives independent draws.

    Returns
    -------
    numpy.ndarray of uint8, shape (L,)
        A sequence drawn uniformly among those with the same count of each of
        the 16 dinucleotides in each ``ACGT`` run, the same first and last
        letter of each run, and the ``N`` in the same places.

    Raises
    ------
    InputError
        If ``seq`` is not a 1-D array of codes 0..4.

    Notes
    -----
    Altschul-Erickson shuffle by a random Eulerian path (module docstring);
    time O(L).

    References
    ----------
    Altschul SF, Erickson BW (1985). Significance of nucleotide sequence
    alignments. Mol Biol Evol 2:526-538. Jiang M, Anderson J, Gillespie J,
    Mayne M (2008). uShuffle: a useful tool for shuffling biological
    sequences while preserving the k-let counts. BMC Bioinformatics 9:192.

    Examples
    --------
    >>> import numpy as np
    >>> seq = np.array([0, 1, 2, 3, 0, 0, 1, 2, 2, 3], dtype=np.uint8)
    >>> out = dinucleotide_shuffle(seq, 7)
    >>> bool((dinucleotide_counts(out) == dinucleotide_counts(seq)).all())
    True
    >>> int(out[0]), int(out[-1])
    (0, 3)
    """
    (codes,) = _as_code_list([seq], "seq")
    return _shuffle_many([codes], 1, as_rng(rng, "rng"))[0]


def shuffled_negatives(
    seqs: Sequence[np.ndarray] | np.ndarray,
    *,
    per_positive: int = 1,
    seed: int | np.random.Generator | None = 0,
) -> list[np.ndarray]:
    """Dinucleotide-shuffled copies of the positives, to use as negatives.

    Parameters
    ----------
    seqs : list of 1-D code arrays, or 2-D code array
        The positives, codes ``0..3`` and ``4`` for ``N`` (kept in place).
    per_positive : int, optional
        Shuffled copies made of each positive (default 1).
    seed : int, numpy Generator or None, optional
        Seed of the random source (default 0: the same call gives the same
        negatives).

    Returns
    -------
    list of numpy.ndarray of uint8
        ``len(seqs) * per_positive`` sequences; entry ``i * per_positive + c``
        is copy ``c`` of positive ``i`` and has its length.

    Raises
    ------
    InputError
        If a sequence is not a 1-D code array with codes 0..4, or
        ``per_positive`` is not a positive integer.

    See Also
    --------
    dinucleotide_shuffle : one sequence.

    Examples
    --------
    >>> import numpy as np
    >>> pos = [np.array([0, 1, 2, 3, 0, 1], np.uint8), np.array([2, 2, 4, 0, 3])]
    >>> neg = shuffled_negatives(pos, per_positive=2, seed=1)
    >>> len(neg), [n.size for n in neg]
    (4, [6, 6, 5, 5])
    >>> neg[2].tolist()  # runs of one or two letters cannot change
    [2, 2, 4, 0, 3]
    """
    per_positive = check_int(per_positive, "per_positive", 1)
    codes = _as_code_list(seqs, "seqs")
    return _shuffle_many(codes, per_positive, as_rng(seed, "seed"))


def dinucleotide_counts(seq: np.ndarray) -> np.ndarray:
    """Count the dinucleotides of one code array, ``N`` (code 4) included.

    Parameters
    ----------
    seq : array of int, shape (L,)
        Codes 0..4.

    Returns
    -------
    numpy.ndarray of int64, shape (5, 5)
        Entry ``[a, b]`` counts the positions ``i`` with ``seq[i] = a`` and
        ``seq[i + 1] = b``.

    Examples
    --------
    >>> import numpy as np
    >>> dinucleotide_counts(np.array([0, 0, 1], np.uint8))[:2, :2].tolist()
    [[1, 1], [0, 0]]
    """
    (codes,) = _as_code_list([seq], "seq")
    pairs = codes[:-1].astype(np.int64) * 5 + codes[1:]
    return np.bincount(pairs, minlength=25).reshape(5, 5)
