"""The numba writers of table text: integers and ``%g`` floats as Python writes them."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.variants._text import pack, put_general, put_int, table_lines


def _general(x: float, digits: int) -> str:
    buf = np.zeros(40, np.uint8)
    return bytes(buf[: put_general(buf, 0, x, digits)]).decode()


@settings(max_examples=400, deadline=None)
@given(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([1, 4, 6]),
)
def test_general_floats_read_back_as_python_writes_them(x, digits):
    mine = _general(x, digits)
    python = format(x, f".{digits}g")
    if x == 0:
        assert mine == "0"
        return
    if mine != python:  # only a float within 1e-9 of a decimal tie may differ
        exponent = math.floor(math.log10(abs(x)))
        unit = 10.0 ** (exponent - digits + 1)
        assert abs(abs(x) / unit % 1 - 0.5) < 1e-6, (x, mine, python)
        assert abs(float(mine) - float(python)) <= unit * 1.000001
    else:
        assert mine == python


def test_general_floats_fixed_and_scientific():
    cases = [1.0, 0.5, 123456.5, 1e-5, 0.0001, 1e16, -2.5e-300, 1.25e-7, 99999.95]
    for x in cases:
        assert _general(x, 6) == format(x, ".6g")
    assert _general(float("nan"), 6) == "nan"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**62))
def test_integers(v):
    buf = np.zeros(24, np.uint8)
    assert bytes(buf[: put_int(buf, 0, v)]).decode() == str(v)


def test_table_lines_are_the_formatted_rows():
    head = np.frombuffer(b"chr7\t", np.uint8)
    pos = np.array([1, 123456789])
    pair = np.array([list(b"\tA\tC\t"), list(b"\tG\tT\t")], np.uint8)
    effect = np.array([-0.0532226123, 3.5e-9])
    z = np.array([np.nan, 12.3456])
    tested = np.zeros((2, 12), np.uint8)
    tested[0, :5] = list(b"NA\tNA")
    tested[1, :11] = list(b"1e-05\t0.003")
    size = np.array([5, 11])
    k = np.array([0, 1])
    slots = np.empty((2, 80), np.uint8)
    text = pack(slots, table_lines(head, pos, pair, effect, z, tested, size, k, slots))
    assert bytes(text).decode() == (
        "chr7\t1\tA\tC\t-0.0532226\tNA\tNA\tNA\n"
        "chr7\t123456789\tG\tT\t3.5e-09\t12.35\t1e-05\t0.003\n"
    )
