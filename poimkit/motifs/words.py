"""Counted words: short k-mers each of whose occurrences moves a continuous target.

A site motif is held or not: a sequence's best window is what counts. Some
signals are counts instead: a short word (3-5 letters) that adds to the
target at every occurrence, as a nucleotide composition or a short repeat
does. A positional model's POIM spreads such a word thinly over every start,
so no positional peak shows it, but its position-free importance does
(`poimkit.poim.Poim.anywhere`: the mean of ``Q_k(z, j)`` over starts j; for a
position-free model, the POIM itself). `counted_words` finds them in three
steps, alongside `poimkit.motifs.continuous_targets`'s site motifs:

1. **Candidates.** For every order k in `WORD_ORDERS` the POIM holds, the
   `N_CANDIDATES` words of largest ``|anywhere_k|``, each counted on its own
   strand and on both (word and reverse complement). A word inside a site
   motif's consensus is not left out: the residual of step 2 says whether
   the motif's presence already explains it (a weak site motif built of a
   counted word's repeats would otherwise hide the word).
2. **Choice, in the discovery sequences.** The target's residual after a
   least-squares fit on the site motifs' presence; greedily the candidate
   whose count correlates most with the residual, while ``|r|`` is at least
   `MIN_WORD_R`, at most `MAX_WORDS` of them, the residual refitted after
   each (a word overlapping a chosen one explains nothing new).
3. **Evidence, in the held-out sequences.** Least squares of the target on
   the site motifs' presence and the chosen words' counts; each word's
   two-sided t-test of its coefficient, its effect the partial correlation
   ``t / sqrt(t^2 + df)``. Every candidate examined counts as a test of the
   caller's Benjamini-Hochberg family.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..alphabet import ALPHABET, kmer_index, kmer_string

if TYPE_CHECKING:
    from ..poim import Poim
    from .motif import Motif

#: orders of the candidate words
WORD_ORDERS = (3, 4, 5)
#: candidate words per order, by position-free importance
N_CANDIDATES = 20
#: smallest |correlation| of a word's count with the discovery residual, and
#: of its partial correlation with the held-out target (0.1: a word whose count
#: explains 1 % of what the site motifs leave)
MIN_WORD_R = 0.1
#: most words chosen
MAX_WORDS = 3
#: histogram entries (rows x 4^k) handled at once by `word_table`
CHUNK_LETTERS = 1 << 22


@dataclass
class WordTest:
    """A chosen word and its held-out evidence.

    Parameters
    ----------
    word : str
        The word over ``ACGT``.
    both_strands : bool
        Its reverse complement's occurrences are counted too.
    importance : float
        Its position-free POIM importance (summed over both strands' words
        when both are counted).
    counts : numpy.ndarray of int64, shape (n,)
        Occurrences in every sequence.
    p_value : float
        Two-sided t-test of its held-out coefficient.
    effect : float
        Partial correlation of its count with the held-out target.
    """

    word: str
    both_strands: bool
    importance: float
    counts: np.ndarray
    p_value: float
    effect: float


def reverse_word(word: str) -> str:
    """The reverse complement of a word over ``ACGT``.

    Parameters
    ----------
    word : str

    Returns
    -------
    str

    Examples
    --------
    >>> reverse_word("AATA")
    'TATT'
    """
    return word[::-1].translate(str.maketrans("ACGT", "TGCA"))


def word_counts(X: np.ndarray, word: str, both_strands: bool) -> np.ndarray:
    """Occurrences of a word (overlapping ones too) in every row of X.

    On both strands every occurrence of the word and of its reverse
    complement counts, so a palindrome counts twice, once per strand (as the
    motif model counts sites: `poimkit.motifs.features.motif_features`);
    windows reaching a code of 4 or more (padding) never match.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.
    word : str
        Over ``ACGT``.
    both_strands : bool
        Count the reverse complement's occurrences too.

    Returns
    -------
    numpy.ndarray of int64, shape (n,)

    Examples
    --------
    >>> from poimkit.alphabet import encode
    >>> word_counts(encode(["AATATT", "CCCCCC"]), "AATA", True).tolist()
    [2, 0]
    """
    return word_table(X, [(word, both_strands)])[:, 0]


def word_table(X: np.ndarray, words: list[tuple[str, bool]]) -> np.ndarray:
    """`word_counts` of many words of one length at once, shape (n, n_words).

    Every row's k-mer histogram (in row chunks of at most `CHUNK_LETTERS`
    entries) times a 0/1 matrix of which k-mers each word counts: one pass
    over the sequences, whatever the number of words.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.
    words : list of (str, bool)
        Words of one length k, each with whether both strands count.

    Returns
    -------
    numpy.ndarray of int64
    """
    k = len(words[0][0])
    which = np.zeros((4**k, len(words)), dtype=np.int64)
    for j, (word, both) in enumerate(words):
        which[kmer_index(word), j] += 1
        if both:
            which[kmer_index(reverse_word(word)), j] += 1
    n, length = X.shape
    out = np.zeros((n, len(words)), dtype=np.int64)
    if length < k:
        return out
    step = max(1, CHUNK_LETTERS // max(4**k, length))
    for lo in range(0, n, step):
        x = X[lo : lo + step].astype(np.int64)
        index = np.zeros((x.shape[0], length - k + 1), dtype=np.int64)
        valid = np.ones(index.shape, dtype=bool)
        for p in range(k):
            column = x[:, p : p + length - k + 1]
            index = index * 4 + np.minimum(column, 3)
            valid &= column < 4
        rows = np.broadcast_to(np.arange(x.shape[0])[:, None], index.shape)
        flat = rows[valid] * 4**k + index[valid]
        histogram = np.bincount(flat, minlength=x.shape[0] * 4**k)
        out[lo : lo + step] = histogram.reshape(x.shape[0], 4**k) @ which
    return out


def _candidates(poim: Poim) -> list[tuple[str, bool, float]]:
    """(word, both strands, importance) for step 1 of the module notes.

    Shortest words first (`word_motifs` counts them one length at a time).
    """
    out = {}
    for k in (k for k in WORD_ORDERS if k <= poim.max_order):
        value = poim.anywhere(k)
        for z in np.argsort(-np.abs(value), kind="stable")[:N_CANDIDATES]:
            word = kmer_string(int(z), k)
            twin = reverse_word(word)
            both = value[z] + (value[kmer_index(twin)] if twin != word else 0.0)
            out.setdefault((word, False), float(value[z]))
            key = (min(word, twin), True)
            out.setdefault(key, float(both))
    return sorted(((w, b, v) for (w, b), v in out.items()), key=lambda c: len(c[0]))


def _residual(t: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Least-squares residual of t on the columns of D and a constant."""
    A = np.column_stack([np.ones(t.size), D])
    coef, *_ = np.linalg.lstsq(A, t, rcond=None)
    return t - A @ coef


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    sa, sb = a.std(), b.std()
    if sa == 0 or sb == 0:
        return 0.0
    return float(np.mean((a - a.mean()) * (b - b.mean())) / (sa * sb))


def _chosen(counts: np.ndarray, t: np.ndarray, has: np.ndarray) -> list[int]:
    """Step 2 of the module notes: candidate rows of ``counts`` chosen greedily."""
    chosen: list[int] = []
    while len(chosen) < MAX_WORDS:
        r = _residual(t, np.column_stack([has, counts[chosen].T]))
        corr = np.array([abs(_correlation(c, r)) for c in counts])
        corr[chosen] = 0.0
        best = int(np.argmax(corr)) if corr.size else -1
        if best < 0 or corr[best] < MIN_WORD_R:
            break
        chosen.append(best)
    return chosen


def _tests(t: np.ndarray, has: np.ndarray, counts: np.ndarray) -> list[tuple]:
    """Step 3: (p-value, partial correlation) of each row of ``counts``."""
    from scipy.stats import t as student

    A = np.column_stack([np.ones(t.size), has, counts.T]).astype(np.float64)
    coef, *_ = np.linalg.lstsq(A, t, rcond=None)
    df = t.size - np.linalg.matrix_rank(A)
    if df <= 0:
        return [(1.0, 0.0)] * counts.shape[0]
    sigma2 = float(np.sum((t - A @ coef) ** 2)) / df
    cov = sigma2 * np.linalg.pinv(A.T @ A)
    out = []
    for j in range(A.shape[1] - counts.shape[0], A.shape[1]):
        se = float(np.sqrt(max(cov[j, j], 0.0)))
        if se == 0.0:
            out.append((1.0, 0.0))
            continue
        stat = coef[j] / se
        p = float(2.0 * student.sf(abs(stat), df))
        out.append((p, float(stat / np.hypot(stat, np.sqrt(df)))))
    return out


def word_motifs(
    poim: Poim,
    X: np.ndarray,
    t: np.ndarray,
    halves: tuple[np.ndarray, np.ndarray],
    has: np.ndarray,
    alpha: float,
) -> list[Motif]:
    """Counted words of a regressor's POIM that pass their test (module notes).

    Parameters
    ----------
    poim : Poim
        POIMs of a regressor.
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes of every sequence.
    t : numpy.ndarray of float64, shape (n,)
        Their targets.
    halves : (numpy.ndarray, numpy.ndarray) of int
        Row indices of the discovery and the held-out half.
    has : numpy.ndarray of bool, shape (n, M)
        Which sequences hold a site of each of the M reported site motifs.
    alpha : float
        False discovery rate, over every candidate examined.

    Returns
    -------
    list of Motif
        ``counted`` motifs (`word_motif`) with q-value at most ``alpha`` and
        ``|effect|`` at least `MIN_WORD_R`, in order of choice.
    """
    from .evidence import q_values

    discovery, held_out = halves
    candidates = _candidates(poim)
    if not candidates:
        return []
    counts = np.vstack(
        [
            word_table(X, [(w, b) for w, b, _ in candidates if len(w) == k]).T
            for k in sorted({len(w) for w, _, _ in candidates})
        ]
    )
    chosen = _chosen(counts[:, discovery], t[discovery], has[discovery])
    tests = _tests(t[held_out], has[held_out], counts[chosen][:, held_out])
    p_values = [p for p, _ in tests]
    q = q_values(p_values + [1.0] * (len(candidates) - len(chosen)))
    motifs = []
    for i, (p, effect), qv in zip(chosen, tests, q, strict=False):
        if qv > alpha or abs(effect) < MIN_WORD_R:
            continue
        test = WordTest(*candidates[i], counts[i], p, effect)
        stats = {"q_value": float(qv), "e_value": p * len(candidates)}
        motifs.append(word_motif(X, test, held_out, t, **stats))
    return motifs


def word_motif(
    X: np.ndarray, test: WordTest, held_out: np.ndarray, t: np.ndarray, **stats
) -> Motif:
    """The reported motif of a counted word: its one-hot PWM and its sites.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes of every sequence.
    test : WordTest
        The word and its evidence.
    held_out : numpy.ndarray of int
        Rows of the held-out half.
    t : numpy.ndarray of float64, shape (n,)
        The targets.
    **stats
        Other `Motif` fields (``q_value``, ``e_value``).

    Returns
    -------
    Motif
        Position-free and ``counted``; ``sites`` the first occurrence of each
        sequence holding one; ``frac_positive`` / ``frac_negative`` the share
        of held-out sequences above / below their median target holding one,
        ``median_shift`` the median held-out target with one minus without.
    """
    from .motif import Motif
    from .scan import scan

    pwm = np.eye(4)[[ALPHABET.index(a) for a in test.word]]
    allowed = np.arange(max(X.shape[1] - pwm.shape[0] + 1, 0), dtype=np.int64)
    sites = scan(
        X,
        allowed,
        allowed if test.both_strands else allowed[:0],
        np.where(pwm > 0, 1.0, -100.0),
        pwm.shape[0] - 0.5,
    )
    has = test.counts > 0
    t_held, has_held = t[held_out], has[held_out]
    middle = np.median(t_held)
    above, below = has_held[t_held > middle], has_held[t_held < middle]
    shift = (
        float(np.median(t_held[has_held]) - np.median(t_held[~has_held]))
        if has_held.any() and not has_held.all()
        else float("nan")
    )
    return Motif(
        pwm,
        float("nan"),
        float("nan"),
        importance=test.importance,
        n_sites=int(has.sum()),
        frac_positive=float(above.mean()) if above.size else float("nan"),
        frac_negative=float(below.mean()) if below.size else float("nan"),
        p_value=test.p_value,
        effect=test.effect,
        median_shift=shift,
        sites=sites,
        counted=True,
        **stats,
    )
