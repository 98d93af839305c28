"""Bit-level building blocks of the WD and WDS kernels.

Sequences are stored as two *bitplanes*: word ``w`` of plane 0 holds the low
bit of the codes at positions ``64 w .. 64 w + 63`` (bit ``j`` is position
``64 w + j``), plane 1 holds the high bit. Two sequences match at a position
exactly when both planes agree there, so the match mask of a pair is
``~((lo ^ lo') | (hi ^ hi'))`` restricted to the valid positions: one bit per
position, a few word operations per 64 positions. Padding positions are
masked out (they count as mismatches).

For the shifted comparisons of the WDS kernel, the planes of ``x[s:]`` for
``s = 1..S`` are stored side by side in *lanes*: ``lanes[r, blk, plane, w, j]``
holds shift ``s = 8 blk + j + 1`` (zero for ``s > S``), so that eight shifts
are compared at once with 8-lane vector operations (one AVX-512 register, two
AVX2 registers; LLVM splits the vectors on older CPUs).

The vector type ``U64x8`` and its operations are numba intrinsics that emit
plain LLVM vector instructions (``and``, ``xor``, ``shl``, ``llvm.ctpop``, ...):
numba keeps loop-carried values of this type in registers, which its
auto-vectoriser does not manage for arrays of eight words. Every operation
also has a NumPy definition, used when ``NUMBA_DISABLE_JIT=1`` (vectors are
then ``uint64`` arrays of length 8), which states what the intrinsic does.
"""

from __future__ import annotations

import inspect

import numpy as np
from llvmlite import ir
from numba import config, njit, types, uint64
from numba.core import cgutils
from numba.extending import intrinsic, models, register_model

from .._config import NJIT

LANES = 8
"""Number of 64-bit lanes of a vector, and of shifts handled per lane block."""

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_F64 = ir.DoubleType()
_VEC = ir.VectorType(_I64, LANES)
_FVEC = ir.VectorType(_F64, LANES)


# --------------------------------------------------------------------------
# NumPy definitions (reference semantics; used when NUMBA_DISABLE_JIT=1)
# --------------------------------------------------------------------------

_ONE = np.uint64(1)
_SIXTY_THREE = np.uint64(63)


def _py_popcount64(x):
    return np.uint64(int(x).bit_count())


def _py_v_load(arr, start):
    return arr.reshape(-1)[start : start + LANES].copy()


def _py_v_store(arr, start, v):
    arr.reshape(-1)[start : start + LANES] = v


def _py_v_splat(x):
    return np.full(LANES, x, dtype=np.uint64)


def _py_v_or(a, b):
    return a | b


def _py_v_add(a, b):
    return a + b


def _py_v_match(a_lo, a_hi, b_lo, b_hi, valid):
    return ~((a_lo ^ b_lo) | (a_hi ^ b_hi)) & valid


def _py_v_step(x, prev):
    return x & ((x << _ONE) | (prev >> _SIXTY_THREE))


def _py_v_popcount(x):
    return np.array([int(v).bit_count() for v in x], dtype=np.uint64)


def _py_v_any(x):
    return bool(np.any(x != 0))


def _py_v_weighted_sum(total, cum, mult, weights, start):
    values = (total + np.uint64(mult) * cum).astype(np.float64)
    values = values * weights[start : start + LANES]
    acc = values[0]
    for j in range(1, LANES):
        acc += values[j]
    return float(acc)


# --------------------------------------------------------------------------
# numba type and intrinsics
# --------------------------------------------------------------------------


class U64x8(types.Type):
    """numba type of a vector of eight ``uint64`` lanes (LLVM ``<8 x i64>``)."""

    def __init__(self):
        super().__init__(name="U64x8")


u64x8 = U64x8()


@register_model(U64x8)
class _U64x8Model(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, _VEC)


def _element_pointer(context, builder, arrty, arr, idxty, idx, vecty):
    """Pointer to ``arr.flat[idx]`` (C-contiguous array) cast to ``vecty*``."""
    data = context.make_array(arrty)(context, builder, arr).data
    i = context.cast(builder, idx, idxty, types.intp)
    return builder.bitcast(builder.gep(data, [i]), vecty.as_pointer())


def _splat(builder, value, vecty):
    vec = builder.insert_element(
        ir.Constant(vecty, ir.Undefined), value, ir.Constant(_I32, 0)
    )
    zeros = ir.Constant(ir.VectorType(_I32, LANES), [0] * LANES)
    return builder.shuffle_vector(vec, vec, zeros)


def _llvm_intrinsic(builder, name, ret, args):
    fnty = ir.FunctionType(ret, [a.type for a in args])
    return builder.call(
        cgutils.get_or_insert_function(builder.module, fnty, name), list(args)
    )


def _vectors(*args):
    return all(a == u64x8 for a in args)


def _check_array(arr, dtype):
    return isinstance(arr, types.Array) and arr.dtype == dtype and arr.layout == "C"


def _on_uint64(result):
    """A decorator: the intrinsic of ``emit(builder, x)``, x an integer as uint64.

    The intrinsic returns the numba type ``result``.
    """

    def make(emit):
        def typer(typingctx, x):
            if not isinstance(x, types.Integer):
                return None

            def codegen(context, builder, sig, args):
                val = context.cast(builder, args[0], sig.args[0], types.uint64)
                return emit(builder, val)

            return result(x), codegen

        typer.__name__ = typer.__qualname__ = emit.__name__
        return intrinsic(typer)

    return make


@_on_uint64(types.uint64)
def _ctpop64(builder, x):
    return _llvm_intrinsic(builder, "llvm.ctpop.i64", _I64, [x])


@intrinsic
def _v_load(typingctx, arr, start):
    if not (_check_array(arr, types.uint64) and isinstance(start, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        ptr = _element_pointer(
            context, builder, sig.args[0], args[0], sig.args[1], args[1], _VEC
        )
        return builder.load(ptr, align=8)

    return u64x8(arr, start), codegen


@intrinsic
def _v_store(typingctx, arr, start, v):
    if not (
        _check_array(arr, types.uint64)
        and isinstance(start, types.Integer)
        and v == u64x8
    ):
        return None

    def codegen(context, builder, sig, args):
        ptr = _element_pointer(
            context, builder, sig.args[0], args[0], sig.args[1], args[1], _VEC
        )
        builder.store(args[2], ptr, align=8)
        return context.get_dummy_value()

    return types.none(arr, start, v), codegen


@_on_uint64(u64x8)
def _v_splat(builder, x):
    return _splat(builder, x, _VEC)


def _lanewise(emit):
    """The intrinsic of a lane-wise operation on vectors: ``emit(builder, *vectors)``.

    Typed for the ``U64x8`` arguments that ``emit`` takes after the builder,
    returning a ``U64x8``.
    """
    vectors = list(inspect.signature(emit).parameters.values())[1:]

    def typer(typingctx, *args):
        if not _vectors(*args):
            return None

        def codegen(context, builder, sig, args):
            return emit(builder, *args)

        return u64x8(*args), codegen

    # numba reads the arguments from the signature: emit's, after typingctx
    ctx = inspect.Parameter("typingctx", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    typer.__signature__ = inspect.Signature([ctx, *vectors])
    typer.__name__ = typer.__qualname__ = emit.__name__
    return intrinsic(typer)


@_lanewise
def _v_or(builder, a, b):
    return builder.or_(a, b)


@_lanewise
def _v_add(builder, a, b):
    return builder.add(a, b)


@_lanewise
def _v_match(builder, a_lo, a_hi, b_lo, b_hi, valid):
    lo = builder.xor(a_lo, b_lo)
    hi = builder.xor(a_hi, b_hi)
    return builder.and_(builder.not_(builder.or_(lo, hi)), valid)


@_lanewise
def _v_step(builder, x, prev):
    one = ir.Constant(_VEC, [1] * LANES)
    top = ir.Constant(_VEC, [63] * LANES)
    shifted = builder.or_(builder.shl(x, one), builder.lshr(prev, top))
    return builder.and_(x, shifted)


@_lanewise
def _v_popcount(builder, x):
    return _llvm_intrinsic(builder, "llvm.ctpop.v8i64", _VEC, [x])


@intrinsic
def _v_any(typingctx, x):
    if not _vectors(x):
        return None

    def codegen(context, builder, sig, args):
        red = _llvm_intrinsic(builder, "llvm.vector.reduce.or.v8i64", _I64, [args[0]])
        return builder.icmp_unsigned("!=", red, ir.Constant(_I64, 0))

    return types.boolean(u64x8), codegen


@intrinsic
def _v_weighted_sum(typingctx, total, cum, mult, weights, start):
    if not (
        _vectors(total, cum)
        and _check_array(weights, types.float64)
        and isinstance(mult, types.Integer)
        and isinstance(start, types.Integer)
    ):
        return None

    def codegen(context, builder, sig, args):
        m = context.cast(builder, args[2], sig.args[2], types.uint64)
        counts = builder.add(args[0], builder.mul(args[1], _splat(builder, m, _VEC)))
        ptr = _element_pointer(
            context, builder, sig.args[3], args[3], sig.args[4], args[4], _FVEC
        )
        values = builder.fmul(builder.uitofp(counts, _FVEC), builder.load(ptr, align=8))
        acc = builder.extract_element(values, ir.Constant(_I32, 0))
        for j in range(1, LANES):  # left to right, as the NumPy definition
            value = builder.extract_element(values, ir.Constant(_I32, j))
            acc = builder.fadd(acc, value)
        return acc

    return types.float64(u64x8, u64x8, mult, weights, start), codegen


if config.DISABLE_JIT:  # pragma: no cover - exercised by the no-JIT coverage run
    popcount64 = _py_popcount64
    v_load, v_store, v_splat = _py_v_load, _py_v_store, _py_v_splat
    v_or, v_add, v_match, v_step = _py_v_or, _py_v_add, _py_v_match, _py_v_step
    v_popcount, v_any, v_weighted_sum = _py_v_popcount, _py_v_any, _py_v_weighted_sum
else:
    popcount64 = _ctpop64
    """Number of set bits of a 64-bit integer (``llvm.ctpop``)."""
    v_load = _v_load
    """``arr.flat[start : start + 8]`` of a C-contiguous uint64 array, as a vector."""
    v_store = _v_store
    """``arr.flat[start : start + 8] = v``."""
    v_splat = _v_splat
    """Vector with ``x`` in every lane."""
    v_or = _v_or
    """Lane-wise ``a | b``."""
    v_add = _v_add
    """Lane-wise ``a + b`` (modulo 2**64)."""
    v_match = _v_match
    """Lane-wise match mask ``~((a_lo ^ b_lo) | (a_hi ^ b_hi)) & valid``."""
    v_step = _v_step
    """Lane-wise ``x & ((x << 1) | (prev >> 63))``: ``M_{k+1}`` from ``M_k``.

    Keeps the bits whose previous position is also set; ``prev`` is the
    previous word (its top bit is the position before bit 0 of ``x``).
    """
    v_popcount = _v_popcount
    """Lane-wise number of set bits."""
    v_any = _v_any
    """True if any bit of any lane is set."""
    v_weighted_sum = _v_weighted_sum
    """``sum_j weights[start + j] * float(total_j + mult * cum_j)``, left to right."""


# --------------------------------------------------------------------------
# packing kernels
# --------------------------------------------------------------------------


def n_words(length: int) -> int:
    """Return the number of 64-bit words that hold ``length`` positions."""
    return (length + 63) // 64


def n_lane_blocks(shift: int) -> int:
    """Return the number of 8-lane blocks that hold shifts ``1..shift``."""
    return (shift + LANES - 1) // LANES


@njit(**NJIT)
def valid_word(length, w):
    """Bits set at the positions ``p < length`` of word ``w`` (``p = 64 w + j``)."""
    nbits = length - 64 * w
    if nbits >= 64:
        return ~uint64(0)
    if nbits <= 0:
        return uint64(0)
    return (uint64(1) << uint64(nbits)) - uint64(1)


@njit(**NJIT)
def valid_words(length, out):
    """Fill ``out[w]`` with the valid-position mask of word ``w``."""
    for w in range(out.shape[0]):
        out[w] = valid_word(length, w)


@njit(**NJIT)
def pack_planes(X, planes):
    """Pack codes into bitplanes.

    Serial: packing is O(n L), negligible next to the O(n^2 L) kernels.
    ``planes[r, 0, w]`` gets the low bits and ``planes[r, 1, w]`` the high bits
    of ``X[r, 64 w : 64 w + 64]``; ``planes`` has shape ``(n, 2, W)`` and must
    be zero-filled.
    """
    n, length = X.shape
    for r in range(n):
        for p in range(length):
            code = X[r, p]
            w = p >> 6
            bit = uint64(p & 63)
            planes[r, 0, w] |= uint64(code & 1) << bit
            planes[r, 1, w] |= uint64(code >> 1) << bit


@njit(**NJIT)
def _shifted_word(planes, r, plane, w, s):
    """Word ``w`` of the bitplane of ``x[s:]`` (bit ``j`` = position 64 w + j + s)."""
    n_w = planes.shape[2]
    q = w + (s >> 6)
    r_bits = uint64(s & 63)
    if q >= n_w:
        return uint64(0)
    word = planes[r, plane, q] >> r_bits
    if r_bits != 0 and q + 1 < n_w:
        word |= planes[r, plane, q + 1] << (uint64(64) - r_bits)
    return word


@njit(**NJIT)
def pack_shifted_lanes(planes, shift, lanes):
    """Store the bitplanes of ``x[s:]`` for ``s = 1..shift`` in 8-lane blocks.

    ``lanes[r, blk, plane, w, j]`` is word ``w`` of ``plane`` of ``x[s:]`` with
    ``s = 8 blk + j + 1``, or 0 when ``s > shift``. ``lanes`` has shape
    ``(n, n_blocks, 2, W, 8)``. Bits at positions ``>= L - s`` are zero (the
    padding of ``planes`` is zero), but they are also masked by `lane_valid`.
    """
    n = planes.shape[0]
    n_w = planes.shape[2]
    n_blocks = lanes.shape[1]
    for r in range(n):
        for blk in range(n_blocks):
            for j in range(LANES):
                s = blk * LANES + j + 1
                for plane in range(2):
                    for w in range(n_w):
                        word = uint64(0)
                        if s <= shift:
                            word = _shifted_word(planes, r, plane, w, s)
                        lanes[r, blk, plane, w, j] = word


@njit(**NJIT)
def lane_valid(length, shift, out):
    """``out[blk, w, j]``: valid-position mask of length ``length - s``.

    ``s = 8 blk + j + 1``; lanes with ``s > shift`` get 0, so padding lanes
    never match. ``out`` has shape ``(n_blocks, W, 8)``.
    """
    n_blocks, n_w = out.shape[0], out.shape[1]
    for blk in range(n_blocks):
        for j in range(LANES):
            s = blk * LANES + j + 1
            for w in range(n_w):
                out[blk, w, j] = valid_word(length - s, w) if s <= shift else uint64(0)


@njit(**NJIT)
def lane_weights(shift, out):
    """Fill ``out[8 blk + j]`` with ``1 / (2 (s + 1))``, ``s = 8 blk + j + 1``.

    Lanes with ``s > shift`` get weight 0.
    """
    for c in range(out.shape[0]):
        s = c + 1
        out[c] = 1.0 / (2.0 * (s + 1)) if s <= shift else 0.0
