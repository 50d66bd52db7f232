"""The Swizzle overloads of the algebra, and the swizzle rules of ComposedLayout (``cute/swizzle_layout.hpp``).

A swizzled layout is ``Sw<B,M,S> o O o L``.  The rules CuTe adds for swizzles:

* a layout on the *left* absorbs a swizzle by moving it through itself:
  ``L o Sw == Sw' o L`` with ``Sw' = make_swizzle<L(Y), L(Z)>`` (CuTe: "works in
  simple cases"; ``make_swizzle`` refuses the others at compile time);
* a swizzle is its own inverse; ``upcast``/``downcast`` rescale its bit fields;
* slicing ``Sw o O o L`` with an integer coordinate either keeps the swizzle
  (when the remaining layout hits both a Y bit and its Z bit) or decays to an
  ordinary layout with per-bit strides; either way an offset comes out;
* ``max_common_layout``/``max_common_vector`` are capped by the swizzle's ``M``
  low bits; a swizzled tiler of ``logical_product`` is carried through the product.

Each overload is registered on its public operation (:mod:`symcute.core.dispatch`);
the ComposedLayout overloads that hold for any ``A`` are in ``layout_composed.py``.
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it
from .common import max_common_layout, max_common_vector
from .composed import ComposedLayout, MixedBits, UInt32, composition3, is_static_zero, make_mixed_bits, mixed_xor
from .composition import composition
from .inverse import left_inverse, right_inverse
from .layout import Layout, Underscore, format_int_tuple, make_layout, slice_
from .products import logical_product
from .recast import check_n, downcast, recast_layout, recast_ratio, upcast
from .swizzle import Swizzle, compose_swizzles, downcast_swizzle, make_swizzle, upcast_swizzle
from .hook import note
from .integer import DynamicInt

_U32 = 0xFFFFFFFF


def _name(x) -> str:
    return format_int_tuple(x) if isinstance(x, tuple) else str(x)


# --- composition --------------------------------------------------------------

@composition.register(Swizzle)
def _(lhs: Swizzle, rhs):
    """``Sw o L = Sw o 0 o L`` (just ``L`` for ``Sw<0,M,S>``); ``Sw0 o Sw1`` merges them (@pre same shift)."""
    if isinstance(rhs, Swizzle):
        return compose_swizzles(lhs, rhs)
    if isinstance(rhs, Layout):
        return composition3(lhs, 0, rhs)
    raise LayoutError(f"composition({lhs}, {_name(rhs)}): no matching function (a Swizzle composes "
                      f"only with a Layout or a Swizzle on its right)")


@composition.register(Layout, Swizzle)
def _(layout: Layout, sw: Swizzle):
    """``L o Sw = make_swizzle<L(yyy_msk), L(zzz_msk)> o 0 o L``: the swizzle moves to the left of the layout.

    (CuTe: "works in simple cases"; ``make_swizzle`` refuses the others at compile time.)
    """
    active_y = _eval_index(layout, sw.yyy_msk, "composition")
    active_z = _eval_index(layout, sw.zzz_msk, "composition")
    try:
        new_sw = make_swizzle(active_y, active_z)
    except LayoutError as e:
        raise LayoutError(f"composition({layout}, {sw}): {e}") from None
    note(active_y=active_y, active_z=active_z, swizzle=new_sw)
    return composition3(new_sw, 0, layout)


def _eval_index(layout: Layout, idx: int, op: str) -> int:
    value = layout(idx)
    if not isinstance(value, int):
        raise LayoutError(f"{op}: {layout} maps {idx} to {value}, not an integer offset")
    return value


# --- inverses -----------------------------------------------------------------

@right_inverse.register(Swizzle)
def _(sw: Swizzle):
    """A swizzle is an involution: ``right_inverse(Sw) = Sw``."""
    return sw


@left_inverse.register(Swizzle)
def _(sw: Swizzle):
    """``left_inverse(Sw) = Sw``."""
    return sw


# --- slicing ------------------------------------------------------------------

def _all_underscore(c) -> bool:
    if isinstance(c, tuple):
        return all(_all_underscore(x) for x in c)
    return isinstance(c, Underscore)


def _dice(c, t):
    """CuTe's ``dice``: keep the elements of ``t`` paired with an integer of ``c``."""
    if isinstance(c, tuple):
        return _lift_dice_tuple(c, t)
    if isinstance(c, Underscore):
        return ()
    return t


def _lift_dice_tuple(c: tuple, t):
    if not isinstance(t, tuple) or len(c) != len(t):
        raise LayoutError(f"dice: Mismatched Ranks between {_name(c)} and {_name(t)}")
    out: tuple = ()
    for x, y in zip(c, t):
        if isinstance(x, tuple):
            out += _lift_dice_tuple(x, y)
        elif not isinstance(x, Underscore):
            out += (y,)
    return out


def _idx2crd(idx, shape):
    """CuTe's two-argument ``idx2crd``: tuple coordinates split per mode, ints colexicographically."""
    if isinstance(idx, tuple):
        if not isinstance(shape, tuple) or len(idx) != len(shape):
            raise LayoutError(f"idx2crd: Mismatched Ranks between {_name(idx)} and {_name(shape)}")
        return tuple(_idx2crd(i, s) for i, s in zip(idx, shape))
    return it.idx2crd(idx, shape)


def _to_mixed_bits(shape, stride, coord):
    """CuTe's ``to_mixed_bits``: the xor over the modes of ``make_mixed_bits(_0, c*d, (s-1)*d)`` (uint32): a
    static int, or a :class:`MixedBits` whose run-time bits are those of ``(s-1)*d`` where ``c*d`` is run-time."""
    if isinstance(shape, tuple) and isinstance(stride, tuple) and isinstance(coord, tuple):
        if not len(shape) == len(stride) == len(coord):
            raise LayoutError("to_mixed_bits: Mismatched ranks")
        acc = UInt32(0)
        for s, d, c in zip(shape, stride, coord):
            acc = mixed_xor(acc, _to_mixed_bits(s, d, c))
        return acc
    if isinstance(shape, tuple) or isinstance(stride, tuple) or isinstance(coord, tuple):
        raise LayoutError("to_mixed_bits: Either Shape, Stride, and Coord must be all tuples, or they must be all "
                          "integral")
    if not isinstance(stride, int):
        raise LayoutError(f"to_mixed_bits: stride {stride} is not an integer")
    sd = shape * stride
    if sd != 0 and sd & (sd - 1) != 0:
        raise LayoutError(f"to_mixed_bits: Requires pow2 shape*stride. (shape {shape} * stride {stride})")
    f = ((shape - 1) * stride) & _U32
    cd = coord * stride
    if not isinstance(cd, DynamicInt):
        return UInt32(int(cd) & f)
    return make_mixed_bits(0, int(cd), f)


def _runtime_bits(x) -> int:
    """The run-time bits of an offset: a MixedBits' flags, every bit of a run-time int, none of a static one."""
    if isinstance(x, MixedBits):
        return x.flags
    return _U32 if isinstance(x, DynamicInt) else 0


def _swizzle_u32(sw: Swizzle, x: int) -> int:
    """``Swizzle::apply`` on a ``uint32_t`` offset (the masks convert to unsigned)."""
    y = x & sw.yyy_msk & _U32
    return (x ^ (y >> sw.shift if sw.shift >= 0 else y << -sw.shift)) & _U32


def _swizzle_strides(z_is_lower: bool, z: int, y: int, offset: int, bits: int, mask: int = 0) -> tuple:
    """CuTe's ``detail::make_swizzle_strides``: the stride of each swizzled bit once ``offset`` is fixed.

    ``mask``: the run-time bits of ``offset``; where the tested bit is one of them CuTe's
    ``conditional_return`` chooses at run time, so the stride is a run-time int.
    """
    def pick(bit: int, a: int, b: int):
        v = a if offset & bit == 0 else b
        return DynamicInt(v) if mask & bit else v
    if z_is_lower:
        return tuple(pick(y << i, z << i, -(z << i)) for i in range(bits))
    return tuple(pick(z << i, (y + z) << i, (y - z) << i) for i in range(bits))


def _swizzle_projections(sw: Swizzle):
    """CuTe's ``swizzle_anti_zy`` and ``swizzle_only_zy`` layouts (built from ``sw = make_layout(...)``)."""
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    shape = (1 << m, 1 << b, 1 << (s - b), 1 << b, 1)
    full = Layout(shape)
    d = full.stride
    anti = Layout(shape, (d[0], 0, d[2], 0, full.size()))
    only = Layout(shape, (0, d[1], 0, d[3], 0))
    return anti, only


def slice_and_offset_swizzled(coord, layout: ComposedLayout):
    """CuTe's ``slice_and_offset(coord, Sw o O o B)`` (``swizzle_layout.hpp``): the sliced layout and its offset.

    An all-``_`` coordinate just slices ``B``.  Otherwise the diced part of ``B``
    contributes its Y/Z bits to the offset; if the remaining layout hits a Y bit
    and its Z bit the result is ``Sw o O' o slice(coord, B)``, else the swizzle
    decays into an ordinary layout whose per-bit strides depend on ``O'``
    (offsets are ``uint32_t``, as in CuTe).  Reached through the public
    ``slice_and_offset``/``slice`` (their ComposedLayout overload, ``layout_composed.py``).
    """
    a, o, b = layout.outer, layout.offset, layout.inner
    if _all_underscore(coord):
        return composition3(a, o, slice_.dispatch(coord, b)), 0
    if not isinstance(b, Layout):
        slice_.dispatch(coord, b)  # CuTe slices B first: its errors come first
        raise LayoutError(f"slice_and_offset({_name(coord)}, {layout}): Mismatched Ranks: CuTe cannot dice "
                          f"the composed layout {b} (no tuple_size for a ComposedLayout), so a swizzle over a "
                          f"composed layout is sliced only with an all-_ coordinate")

    anti, only = _swizzle_projections(a)
    sliced = slice_(coord, b)
    diced = Layout(_dice(coord, b.shape), _dice(coord, b.stride))
    diced_coord = _dice(coord, coord)
    diced_anti = composition(anti, diced)
    diced_only = composition(only, diced)
    mixed = _to_mixed_bits(diced_only.shape, diced_only.stride, _idx2crd(diced_coord, diced_only.shape))
    if _runtime_bits(o) == _U32:   # a run-time int offset: CuTe's ^ gives a run-time uint32_t
        offset_only_zy = DynamicInt((int(o) ^ int(mixed)) & _U32)
    else:
        offset_only_zy = mixed_xor(o, mixed)
    mixed_mask = _runtime_bits(offset_only_zy)
    offset_anti_zy = diced_anti(diced_coord)
    sliced_only = composition(only, sliced)
    active = sliced_only(sliced_only.size() - 1)
    hits_y_and_z = active & ~a(active) != 0
    note(offset_only_zy=offset_only_zy, offset_anti_zy=offset_anti_zy, active_bits=active, decays=not hits_y_and_z)
    if hits_y_and_z:
        return ComposedLayout(a, offset_only_zy, sliced), offset_anti_zy

    z = a.zzz_msk & -a.zzz_msk
    y = a.yyy_msk & -a.yyy_msk
    m, s = a.base, abs(a.shift)
    stride_lo = _swizzle_strides(z < y, z, y, offset_only_zy, a.bits, mixed_mask)
    stride_hi = _swizzle_strides(z > y, z, y, offset_only_zy, a.bits, mixed_mask)
    swizzle_layout = Layout((1 << m, (2,) * a.bits, 1 << (s - a.bits), (2,) * a.bits, 1),
                            (1, stride_lo, 1 << (m + a.bits), stride_hi, 1 << (m + a.bits + s)))
    return composition(swizzle_layout, sliced), UInt32(_swizzle_u32(a, offset_only_zy) + offset_anti_zy)


# --- upcast, downcast, recast -------------------------------------------------

@upcast.register(Swizzle)
def _(sw: Swizzle, n: int):
    """``upcast<N>(Sw<B,M,S>)``: the bit fields move down by log2(N) (@pre N is a power of two)."""
    check_n(n, "upcast")
    return upcast_swizzle(sw, n)


@downcast.register(Swizzle)
def _(sw: Swizzle, n: int):
    """``downcast<N>(Sw<B,M,S>)``: the bit fields move up by log2(N)."""
    check_n(n, "downcast")
    return downcast_swizzle(sw, n)


@recast_layout.register(Swizzle)
def _(sw: Swizzle, old_type, new_type):
    """A swizzle recasts only by a whole factor: a pure upcast or downcast (CuTe's mixed branch does not compile)."""
    num, den = recast_ratio(old_type, new_type)
    if num == 1 and den == 1:
        return sw
    if num == 1:
        return downcast_swizzle(sw, den)
    if den == 1:
        return upcast_swizzle(sw, num)
    raise LayoutError(f"recast_layout<{old_type},{new_type}>({sw}): a swizzle recasts only by a "
                      f"whole factor (CuTe's mixed branch does not compile)")


# --- common layouts and vectors -------------------------------------------------

def _swizzled_and_layout(a, b):
    if isinstance(a, ComposedLayout) and isinstance(a.outer, Swizzle) and isinstance(b, Layout):
        return a, b
    if isinstance(b, ComposedLayout) and isinstance(b.outer, Swizzle) and isinstance(a, Layout):
        return b, a
    return None


def _max_common_layout(a, b):
    """CuTe's ``max_common_layout`` with one swizzled layout ``Sw<B,M,S> o O o L``.

    The common layout of ``L`` and the other layout, truncated to ``1 << M``
    elements (the swizzle keeps the low M bits).
    @pre exactly one side is a swizzled composed layout, the other a Layout
    """
    pair = _swizzled_and_layout(a, b)
    if pair is None:
        raise LayoutError(f"max_common_layout({_name(a)}, {_name(b)}): no matching function "
                          f"(one swizzled composed layout and one Layout are required)")
    sw_layout, other = pair
    common = max_common_layout.dispatch(sw_layout.inner, other)
    base = 1 << sw_layout.outer.base
    if base < common.size():
        return composition(common, base)
    return common


def _max_common_vector(a, b) -> int:
    """CuTe's ``max_common_vector`` with swizzled layouts.

    One swizzled side: ``min(max_common_vector(L, other), 1 << M)``.  Both
    swizzled: ``max_common_vector(L0, L1)``, capped by ``1 << M0`` and
    ``1 << M1`` unless the two swizzles are equal.
    """
    pair = _swizzled_and_layout(a, b)
    if pair is not None:
        sw_layout, other = pair
        return min(max_common_vector.dispatch(sw_layout.inner, other), 1 << sw_layout.outer.base)
    if (isinstance(a, ComposedLayout) and isinstance(a.outer, Swizzle)
            and isinstance(b, ComposedLayout) and isinstance(b.outer, Swizzle)):
        vec = max_common_vector.dispatch(a.inner, b.inner)
        if a.outer == b.outer:
            return vec
        return min(vec, 1 << a.outer.base, 1 << b.outer.base)
    raise LayoutError(f"max_common_vector({_name(a)}, {_name(b)}): no matching function "
                      f"(swizzled composed layouts and Layouts are required)")


for _pair in ((ComposedLayout, Layout), (Layout, ComposedLayout), (ComposedLayout, ComposedLayout)):
    max_common_layout.register(*_pair)(_max_common_layout)
    max_common_vector.register(*_pair)(_max_common_vector)


# --- products with a swizzled tiler ---------------------------------------------

@logical_product.register(Layout, ComposedLayout)
def _(layout: Layout, tiler: ComposedLayout):
    """CuTe's ``logical_product(Layout, Sw o 0 o T)``: ``Sw' o 0 o logical_product(layout, T)``.

    The swizzle's active Y and Z bits (those ``T`` reaches) are carried through
    ``T`` and the new layout to build ``Sw'`` (``swizzle_layout.hpp``).
    @pre the tiler's offset is 0 ("Require Swizzle offset == 0.")
    """
    sw, inner = tiler.outer, tiler.inner
    if not isinstance(sw, Swizzle) or not isinstance(inner, Layout):
        raise LayoutError(f"logical_product({layout}, {tiler}): the tiler must be a swizzle over a Layout")
    if not is_static_zero(tiler.offset):
        raise LayoutError(f"logical_product({layout}, {tiler}): Require Swizzle offset == 0.")
    new_layout = logical_product.dispatch(layout, inner)
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    only_zy = Layout((1 << m, 1 << b, 1 << (s - b), 1 << b, 1), (0, 1 << m, 0, 1 << (m + s), 0))
    layout_only_zy = composition(only_zy, inner)
    active = layout_only_zy(layout_only_zy.size() - 1)
    new_z = new_layout((0, inner(active & sw.zzz_msk)))
    new_y = new_layout((0, inner(active & sw.yyy_msk)))
    try:
        new_sw = make_swizzle(new_y, new_z)
    except LayoutError as e:
        raise LayoutError(f"logical_product({layout}, {tiler}): {e}") from None
    note(active_bits=active, new_active_y=new_y, new_active_z=new_z, swizzle=new_sw)
    return composition3(new_sw, 0, new_layout)


# --- the rest of CuTe's swizzle interface --------------------------------------

@make_layout.register(Swizzle)
def _(sw: Swizzle):
    """CuTe's ``make_layout(Swizzle<B,M,S>)``: ``Sw o 0 o (M+B+|S|):1``.

    (CuTe uses the bit count ``M+B+|S|`` as the extent, not ``2^(M+B+|S|)``; reproduced as is.)
    """
    return composition3(sw, 0, Layout(sw.base + sw.bits + abs(sw.shift), 1))


def get_swizzle_portion(layout):
    """The swizzle of ``Sw o O o B``; ``Sw<0,4,3>`` (the identity) for a plain Layout."""
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return layout.outer
    if isinstance(layout, Layout):
        return Swizzle(0, 4, 3)
    raise LayoutError(f"get_swizzle_portion: {layout!r} is not a layout")


def get_nonswizzle_portion(layout):
    """``B`` of ``Sw o O o B``; the layout itself for a plain Layout."""
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return layout.inner
    if isinstance(layout, Layout):
        return layout
    raise LayoutError(f"get_nonswizzle_portion: {layout!r} is not a layout")
