"""The filtered scan kernel of ``poimkit scan`` equals a plain scan, hit for hit."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.motifs.hits import PackedMotifs
from poimkit.motifs.motif import Motif
from tests.naive import motif_hits_naive


def _motifs(rng, widths, sharp):
    motifs = []
    for i, width in enumerate(widths):
        pwm = rng.dirichlet(np.full(4, sharp), size=width)
        motifs.append(Motif(pwm, float("nan"), float("nan"), name=f"m{i}"))
    return motifs


def _letters(rng, n, n_rate, gc):
    codes = rng.choice(4, size=n, p=[(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2])
    codes = codes.astype(np.uint8)
    for _ in range(rng.poisson(n * n_rate)):  # runs of N of any length
        at = rng.integers(n)
        codes[at : at + rng.integers(1, 12)] = 4
    return codes


def _assert_same(packed, codes, cuts):
    chrom, start, motif, minus, bits, pv = packed.hits(codes, cuts, "c", 100)
    expected = motif_hits_naive(packed, codes, cuts)
    assert chrom == "c"
    assert start.tolist() == [s + 100 for s in expected[0]]
    assert motif.tolist() == expected[1]
    assert minus.tolist() == expected[2]
    assert bits.tolist() == expected[3]  # the same floats, bit for bit
    assert pv.tolist() == expected[4]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    widths=st.lists(st.integers(1, 24), min_size=1, max_size=6),
    n=st.integers(0, 400),
    n_rate=st.sampled_from([0.0, 0.01, 0.05]),
    sharp=st.sampled_from([0.1, 0.4, 2.0]),
    p=st.sampled_from([0.3, 0.05, 1e-3, 1e-4]),
    tie=st.booleans(),
)
def test_filtered_scan_equals_plain_scan(seed, widths, n, n_rate, sharp, p, tie):
    """Motifs of 1 to 24 columns, N runs, short stretches, a cut at a tail value."""
    rng = np.random.default_rng(seed)
    motifs = _motifs(rng, widths, sharp)
    background = rng.dirichlet(np.full(4, 8.0))
    codes = _letters(rng, n, n_rate, gc=rng.uniform(0.3, 0.6))
    packed = PackedMotifs.of(motifs, background)
    if tie:  # p equal to a tail value: windows scoring exactly the cut count
        tail = packed.tails[packed.starts[0] : packed.starts[1]]
        p = float(tail[np.searchsorted(-tail, -p)]) if (tail <= p).any() else p
    _assert_same(packed, codes, packed.cuts(p))


def test_a_repeat_with_more_hits_than_room_keeps_them_all():
    """Hits far beyond the chance expected (a repeat) take the second pass."""
    rng = np.random.default_rng(3)
    motifs = _motifs(rng, [8, 12, 5], 0.2)
    best = motifs[1].pwm.argmax(axis=1).astype(np.uint8)
    codes = np.concatenate([np.tile(best, 150), _letters(rng, 500, 0.01, 0.4)])
    packed = PackedMotifs.of(motifs, np.full(4, 0.25))
    cuts = packed.cuts(1e-4)
    _, _, motif, _, _, _ = packed.hits(codes, cuts, "c", 0)
    assert (motif == 1).sum() > 64 + 16 * 1e-4 * codes.size  # beyond the room
    _assert_same(packed, codes, cuts)


def test_cuts_no_window_reaches_give_no_hits():
    rng = np.random.default_rng(5)
    packed = PackedMotifs.of(_motifs(rng, [3, 6], 0.4), np.full(4, 0.25))
    cuts = packed.cuts(1e-9)  # beyond the best score of 3 or 6 columns
    assert np.isinf(cuts).all()
    assert packed.hits(_letters(rng, 300, 0.0, 0.4), cuts, "c", 0)[1].size == 0


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(1, 20),
    sharp=st.sampled_from([0.1, 0.5, 3.0]),
)
def test_score_tail_is_the_same_floats_as_numpy(seed, width, sharp):
    from poimkit.motifs.enrichment import motif_counts
    from poimkit.motifs.scan import log_odds, score_tail
    from tests.naive import score_tail_naive

    rng = np.random.default_rng(seed)
    (motif,) = _motifs(rng, [width], sharp)
    background = rng.dirichlet(np.full(4, 5.0))
    lods = log_odds(motif_counts(motif), background)
    low, tail = score_tail(lods, background)
    low_naive, tail_naive = score_tail_naive(lods, background)
    assert low == low_naive
    assert tail.tolist() == tail_naive.tolist()  # bit for bit
