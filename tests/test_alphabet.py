import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from poimkit.alphabet import (
    MAX_KMER_LENGTH,
    decode,
    encode,
    kmer_index,
    kmer_indices,
    kmer_string,
    reverse_complement,
)
from poimkit.errors import InputError

from .naive import reverse_complement_text

kmers = st.text(alphabet="ACGT", min_size=1, max_size=MAX_KMER_LENGTH)


@given(kmers)
def test_kmer_string_inverts_kmer_index(z):
    index = kmer_index(z)
    assert 0 <= index < 4 ** len(z)
    assert kmer_string(index, len(z)) == z


@given(
    st.integers(1, MAX_KMER_LENGTH).flatmap(
        lambda k: st.tuples(st.just(k), st.integers(0, 4**k - 1))
    )
)
def test_kmer_index_inverts_kmer_string(k_and_index):
    k, index = k_and_index
    assert kmer_index(kmer_string(index, k)) == index


@given(
    st.integers(1, 12).flatmap(
        lambda k: st.tuples(
            st.text(alphabet="ACGT", min_size=k, max_size=k),
            st.text(alphabet="ACGT", min_size=k, max_size=k),
        )
    )
)
def test_index_order_is_lexicographic(pair):
    a, b = pair
    assert (kmer_index(a) < kmer_index(b)) == (a < b)
    assert (kmer_index(a) == kmer_index(b)) == (a == b)


def test_all_short_kmers_sorted():
    for k in (1, 2, 3):
        assert [kmer_string(i, k) for i in range(4**k)] == sorted(
            kmer_string(i, k) for i in range(4**k)
        )


@given(
    st.integers(1, 40).flatmap(
        lambda length: st.tuples(
            st.lists(
                st.text(alphabet="ACGT", min_size=length, max_size=length),
                min_size=1,
                max_size=5,
            ),
            st.integers(1, min(length, MAX_KMER_LENGTH)),
        )
    )
)
def test_kmer_indices_agree_with_kmer_index(seqs_and_k):
    seqs, k = seqs_and_k
    got = kmer_indices(encode(seqs), k)
    length = len(seqs[0])
    assert got.shape == (len(seqs), length - k + 1)
    assert got.dtype == np.int64
    for row, seq in enumerate(seqs):
        assert got[row].tolist() == [
            kmer_index(seq[i : i + k]) for i in range(length - k + 1)
        ]


@given(kmers)
def test_reverse_complement_involution_and_index_map(z):
    X = encode(z)
    rc = reverse_complement(X)
    assert decode(rc) == [reverse_complement_text(z)]
    np.testing.assert_array_equal(reverse_complement(rc), X)
    # index level: complement is 4**l - 1 - index, reversal reverses base-4 digits
    k = len(z)
    complement = 4**k - 1 - kmer_index(z)
    digits = [(complement // 4**p) % 4 for p in range(k)]  # least significant first
    reversed_index = sum(d * 4 ** (k - 1 - p) for p, d in enumerate(digits))
    assert kmer_index(reverse_complement_text(z)) == reversed_index


@given(
    st.integers(1, 30).flatmap(
        lambda length: st.tuples(
            st.lists(
                st.text(alphabet="ACGT", min_size=length, max_size=length),
                min_size=1,
                max_size=4,
            ),
            st.integers(1, length),
        )
    )
)
def test_reverse_complement_maps_window_indices(seqs_and_k):
    seqs, k = seqs_and_k
    X = encode(seqs)
    forward = kmer_indices(X, k)
    backward = kmer_indices(reverse_complement(X), k)[:, ::-1]
    for row in range(len(seqs)):
        assert backward[row].tolist() == [
            kmer_index(reverse_complement_text(kmer_string(int(i), k)))
            for i in forward[row]
        ]


@given(
    st.lists(st.text(alphabet="ACGT", min_size=7, max_size=7), min_size=1, max_size=6)
)
def test_encode_decode_round_trip(seqs):
    X = encode(seqs)
    assert X.dtype == np.uint8 and X.shape == (len(seqs), 7)
    assert decode(X) == seqs
    np.testing.assert_array_equal(encode(X), X)


def test_lowercase_and_u():
    np.testing.assert_array_equal(encode(["acgu", "ACGT", "AcGu"]), [[0, 1, 2, 3]] * 3)


@pytest.mark.parametrize(
    ("seq", "position", "letter"),
    [
        ("ACNT", 3, "N"),
        ("RACG", 1, "R"),
        ("ACG-", 4, "-"),
        ("AC GT", 3, " "),
        ("ACé", 3, "é"),
    ],
)
def test_bad_letter_names_record_and_position(seq, position, letter):
    with pytest.raises(InputError) as info:
        encode(["ACGTA"[: len(seq)], seq], ids=["good", "bad"])
    assert info.value.record == "bad"
    assert info.value.position == position
    assert f"record 'bad', position {position}" in str(info.value)
    assert repr(letter) in str(info.value)


def test_unequal_lengths_and_empty():
    with pytest.raises(InputError, match="record 'b'.*length 3"):
        encode(["ACGT", "ACG"], ids=["a", "b"])
    with pytest.raises(InputError, match="no sequences"):
        encode([])
    with pytest.raises(InputError, match="empty sequence"):
        encode([""])


def test_check_codes_rejects_bad_arrays():
    with pytest.raises(InputError, match="position 2"):
        encode(np.array([[0, 4]]))
    with pytest.raises(InputError, match="shape"):
        encode(np.array([0, 1]))


def test_kmer_string_range():
    with pytest.raises(InputError):
        kmer_string(16, 2)
    with pytest.raises(InputError):
        kmer_string(0, 0)
    with pytest.raises(InputError):
        kmer_index("A" * (MAX_KMER_LENGTH + 1))
