"""`kernels.explicit.sum_duplicates` against a dictionary sum."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from poimkit.kernels.explicit import sum_duplicates


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 40),
    n_pos=st.integers(1, 6),
    key_bits=st.sampled_from([2, 10, 40, 62, 64]),  # 62 and 64: lexsort's way
    seed=st.integers(0, 2**31),
)
def test_sum_duplicates_sorts_and_adds_equal_keys(n, n_pos, key_bits, seed):
    rng = np.random.default_rng(seed)
    pos = rng.integers(0, n_pos, n)
    kmers = rng.integers(0, 2**63, 4, dtype=np.uint64) >> np.uint64(64 - key_bits)
    kmer = rng.choice(kmers, n)  # few distinct k-mers: many duplicates
    val = rng.normal(size=n)
    want: dict = {}
    for p, k, v in zip(pos.tolist(), kmer.tolist(), val.tolist(), strict=True):
        want[(p, k)] = want.get((p, k), 0.0) + v
    got_pos, got_kmer, got_val = sum_duplicates(pos, kmer, val)
    keys = sorted(want)
    assert_array_equal(got_pos, [p for p, _ in keys])
    assert_array_equal(got_kmer, np.array([k for _, k in keys], dtype=np.uint64))
    assert_allclose(got_val, [want[key] for key in keys], rtol=1e-12, atol=1e-12)
