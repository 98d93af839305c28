"""The seeded data of ``bench_gkm_scale.py`` (chunks of any size) and its oracle."""

from __future__ import annotations

import numpy as np
from gkm_scale_config import (
    BACKGROUND,
    CHUNK,
    IN_NEGATIVES,
    IN_POSITIVES,
    LENGTHS,
    PWM,
)


# --------------------------------------------------------------------------- #
# data
# --------------------------------------------------------------------------- #
def pwm_bits(pwm: np.ndarray = PWM) -> float:
    """Mean information content per column (bits, against uniform letters)."""
    return float(np.mean(2 + (pwm * np.log2(pwm)).sum(axis=1)))


def _chunk(seed: int, stream: int, index: int) -> tuple[list[str], list[str]]:
    """One seeded chunk: CHUNK positives and CHUNK negatives, in draw order."""
    from poimkit import decode
    from poimkit.background import MarkovBackground
    from poimkit.datasets import PlantedMotif, make_motif_data

    rng = np.random.default_rng(np.random.SeedSequence([seed, stream, index]))
    lengths = rng.integers(LENGTHS[0], LENGTHS[1] + 1, size=2 * CHUNK)
    y = np.r_[np.ones(CHUNK, dtype=np.int64), np.zeros(CHUNK, dtype=np.int64)]
    seqs: list[str] = [""] * (2 * CHUNK)
    m = PWM.shape[0]
    for length in np.unique(lengths):
        length = int(length)
        pos = np.flatnonzero((lengths == length) & (y == 1))
        neg = np.flatnonzero((lengths == length) & (y == 0))
        motif = PlantedMotif(
            PWM,
            (1, length - m + 1),
            mutation="none",
            reverse_complement=0.5,
            in_positives=IN_POSITIVES,
            in_negatives=IN_NEGATIVES,
        )
        background = MarkovBackground.from_letter_probabilities(BACKGROUND, length)
        X, _ = make_motif_data(
            len(pos), len(neg), length, [motif], background, random_state=rng
        )
        for row, s in zip(np.r_[pos, neg], decode(X), strict=True):
            seqs[row] = s
    return seqs[:CHUNK], seqs[CHUNK:]


def make_data(n: int, seed: int, stream: int) -> tuple[list[str], np.ndarray]:
    """Balanced set of n records: the first n // 2 + n - n // 2 of the chunks.

    Prefix-consistent: the records of a smaller n are among those of a larger
    one (same seed and stream). Rows are shuffled (seeded by n).
    """
    n_pos, n_neg = n - n // 2, n // 2
    pos: list[str] = []
    neg: list[str] = []
    index = 0
    while len(pos) < n_pos or len(neg) < n_neg:
        p, q = _chunk(seed, stream, index)
        pos += p
        neg += q
        index += 1
    seqs = pos[:n_pos] + neg[:n_neg]
    y = np.r_[np.ones(n_pos, dtype=np.int64), np.zeros(n_neg, dtype=np.int64)]
    order = np.random.default_rng([seed, stream, n]).permutation(n)
    return [seqs[i] for i in order], y[order]


def train_data(n: int, seed: int):
    return make_data(n, seed, 0)


def test_data(n: int, seed: int):
    return make_data(n, seed, 1)


def oracle_scores(seqs: list[str]) -> dict[str, np.ndarray]:
    """PWM scan (max log-odds) and log mean likelihood ratio, both strands."""
    from scipy.special import logsumexp

    m = PWM.shape[0]
    lod = np.log(PWM / BACKGROUND)  # (m, 4)
    lod_rc = lod[::-1, ::-1]  # the motif read on the other strand
    table = np.full((256,), 4, dtype=np.intp)
    for code, letter in enumerate(b"ACGT"):
        table[letter] = code
    width = max(len(s) for s in seqs)
    X = np.full((len(seqs), width), 4, dtype=np.intp)  # 4: padding
    for i, s in enumerate(seqs):
        X[i, : len(s)] = table[np.frombuffer(s.encode(), dtype=np.uint8)]
    windows = np.lib.stride_tricks.sliding_window_view(X, m, axis=1)
    cols = np.arange(m)
    out = []
    for table_ in (lod, lod_rc):
        padded = np.concatenate([table_, np.full((m, 1), -np.inf)], axis=1)
        out.append(padded[cols, windows].sum(axis=2))  # (n, W)
    both = np.concatenate(out, axis=1)
    n_windows = 2 * (np.array([len(s) for s in seqs]) - m + 1)
    return {
        "oracle_max": both.max(axis=1),
        "oracle_lr": logsumexp(both, axis=1) - np.log(n_windows),
    }
