"""The algebra of swizzle-composed layouts (``cute/swizzle_layout.hpp``, ``cute/layout_composed.hpp``).

A swizzled layout is ``Sw<B,M,S> o O o L``.  CuTe's rules, reproduced here:

* operations on the *domain* (divides, products, coalesce, flatten, modes,
  ``with_shape``, composition with a tiler on the right) apply to ``L`` and keep
  ``Sw o O`` (:func:`symcute.core.composed.through_layout_b`);
* a layout on the *left* absorbs a swizzle by moving it through itself:
  ``L o Sw == Sw' o L`` with ``Sw' = make_swizzle<L(Y), L(Z)>`` (CuTe: "works in
  simple cases"; ``make_swizzle`` refuses the others at compile time);
* inverses invert ``L`` and pass the swizzle (its own inverse) back to the left;
* slicing with an integer coordinate either keeps the swizzle (when the
  remaining layout hits both a Y bit and its Z bit) or decays to an ordinary
  layout with per-bit strides; either way an offset comes out.
"""

from __future__ import annotations

import functools

from ..errors import LayoutError
from . import int_tuple as it
from .composed import ComposedLayout, SmemPtrFlag, UInt32, composition3, is_constant_zero, is_static_zero
from .layout import Layout, Underscore, format_int_tuple, slice_
from .swizzle import Swizzle, compose_swizzles, downcast_swizzle, make_swizzle, upcast_swizzle
from .hook import traced, note

_U32 = 0xFFFFFFFF


def _is_swizzled(x) -> bool:
    return isinstance(x, (Swizzle, ComposedLayout))


def _name(x) -> str:
    return format_int_tuple(x) if isinstance(x, tuple) else str(x)


# --- composition --------------------------------------------------------------

def _compose(lhs, rhs):
    if _is_swizzled(lhs) or _is_swizzled(rhs):
        return composition_composed(lhs, rhs)
    from .composition import composition
    return composition(lhs, rhs)


def composition_composed(lhs, rhs):
    """CuTe's ``composition`` when a Swizzle or a ComposedLayout takes part.

    * ``(A o O o B) o T = A o O o (B o T)`` for any tiler ``T``;
    * ``L o (A o O o B) = (L o A) o B``; @pre O == 0 ("Require offset == 0.");
    * ``L o Sw = make_swizzle<L(yyy_msk), L(zzz_msk)> o 0 o L``;
    * ``Sw o L = Sw o 0 o L`` (just ``L`` when ``Sw`` is ``Sw<0,M,S>``);
    * ``Sw0 o Sw1`` merges them (@pre same shift).
    @post result(c) == lhs(rhs(c)) where CuTe's rule is exact (see the module docstring)
    """
    if isinstance(lhs, ComposedLayout):
        return composition3(lhs.outer, lhs.offset, _compose(lhs.inner, rhs))
    if isinstance(lhs, Swizzle):
        if isinstance(rhs, Swizzle):
            return compose_swizzles(lhs, rhs)
        if isinstance(rhs, Layout):
            return composition3(lhs, 0, rhs)
        raise LayoutError(f"composition({lhs}, {_name(rhs)}): no matching function (a Swizzle composes "
                          f"only with a Layout or a Swizzle on its right)")
    if isinstance(lhs, Layout):
        if isinstance(rhs, Swizzle):
            return _layout_o_swizzle(lhs, rhs)
        if isinstance(rhs, ComposedLayout):
            if not is_static_zero(rhs.offset):
                raise LayoutError(f"composition({lhs}, {rhs}): Require offset == 0.")
            return _compose(_compose(lhs, rhs.outer), rhs.inner)
    from .composition import composition
    return composition(lhs, rhs)


def _layout_o_swizzle(layout: Layout, sw: Swizzle):
    """``composition(Layout, Swizzle)``: push the swizzle to the left of the layout."""
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

def right_inverse_composed(layout):
    """CuTe's ``right_inverse`` of a swizzle or a composed layout.

    ``right_inverse(Sw) = Sw``; ``right_inverse(Sw o 0 o L) = right_inverse(L) o Sw``
    (composed, which moves the swizzle left); with an offset, or for a general
    ``A o O o B``: ``right_inverse(B) o -O o right_inverse(A)``.
    @post layout(result(i)) == i for 0 <= i < size(result), where CuTe's rule is exact
    """
    return _inverse(layout, "right_inverse")


def left_inverse_composed(layout):
    """CuTe's ``left_inverse`` of a swizzle or a composed layout (same rules as ``right_inverse``).

    @post result(layout(i)) == i for 0 <= i < size(layout), where CuTe's rule is exact
    """
    return _inverse(layout, "left_inverse")


def _inverse(layout, op: str):
    if isinstance(layout, Swizzle):
        return layout
    if not isinstance(layout, ComposedLayout):
        return _inverse_of(layout, op)
    a, o, b = layout.outer, layout.offset, layout.inner
    if isinstance(a, Swizzle) and is_constant_zero(o):
        return _compose(_inverse_of(b, op), a)
    return composition3(_inverse_of(b, op), _negate_offset(o, layout, op), _inverse_of(a, op))


def _negate_offset(offset, layout, op: str):
    """``right_inverse(T)``/``left_inverse(T)`` of an integral offset: ``-T`` (wrapping if unsigned)."""
    if isinstance(offset, SmemPtrFlag):
        raise LayoutError(f"{op}({layout}): no matching function for the offset {offset}")
    return -offset


def _inverse_of(x, op: str):
    if _is_swizzled(x):
        return _inverse(x, op)
    from .inverse import left_inverse, right_inverse
    return right_inverse(x) if op == "right_inverse" else left_inverse(x)


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


def _underscore_as_zero(c):
    """CuTe's Underscore is an ``Int<0>``: a slice coordinate evaluates with 0 for ``_``."""
    if isinstance(c, tuple):
        return tuple(_underscore_as_zero(x) for x in c)
    return 0 if isinstance(c, Underscore) else c


def _idx2crd(idx, shape):
    """CuTe's two-argument ``idx2crd``: tuple coordinates split per mode, ints colexicographically."""
    if isinstance(idx, tuple):
        if not isinstance(shape, tuple) or len(idx) != len(shape):
            raise LayoutError(f"idx2crd: Mismatched Ranks between {_name(idx)} and {_name(shape)}")
        return tuple(_idx2crd(i, s) for i, s in zip(idx, shape))
    return it.idx2crd(idx, shape)


def _to_mixed_bits(shape, stride, coord) -> int:
    """CuTe's ``to_mixed_bits`` for static values: xor over the modes of ``(c*d) & ((s-1)*d)``, as uint32."""
    if isinstance(shape, tuple) and isinstance(stride, tuple) and isinstance(coord, tuple):
        if not len(shape) == len(stride) == len(coord):
            raise LayoutError("to_mixed_bits: Mismatched ranks")
        acc = 0
        for s, d, c in zip(shape, stride, coord):
            acc ^= _to_mixed_bits(s, d, c)
        return acc
    if isinstance(shape, tuple) or isinstance(stride, tuple) or isinstance(coord, tuple):
        raise LayoutError("to_mixed_bits: Either Shape, Stride, and Coord must be all tuples, or they must be all "
                          "integral")
    if not isinstance(stride, int):
        raise LayoutError(f"to_mixed_bits: stride {stride} is not an integer")
    sd = shape * stride
    if sd != 0 and sd & (sd - 1) != 0:
        raise LayoutError(f"to_mixed_bits: Requires pow2 shape*stride. (shape {shape} * stride {stride})")
    return (coord * stride) & (((shape - 1) * stride) & _U32)


def _swizzle_u32(sw: Swizzle, x: int) -> int:
    """``Swizzle::apply`` on a ``uint32_t`` offset (the masks convert to unsigned)."""
    y = x & sw.yyy_msk & _U32
    return (x ^ (y >> sw.shift if sw.shift >= 0 else y << -sw.shift)) & _U32


def _swizzle_strides(z_is_lower: bool, z: int, y: int, offset: int, bits: int) -> tuple:
    """CuTe's ``detail::make_swizzle_strides``: the stride of each swizzled bit once ``offset`` is fixed."""
    if z_is_lower:
        return tuple(z << i if offset & (y << i) == 0 else -(z << i) for i in range(bits))
    return tuple((y + z) << i if offset & (z << i) == 0 else (y - z) << i for i in range(bits))


def _swizzle_projections(sw: Swizzle):
    """CuTe's ``swizzle_anti_zy`` and ``swizzle_only_zy`` layouts (built from ``sw = make_layout(...)``)."""
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    shape = (1 << m, 1 << b, 1 << (s - b), 1 << b, 1)
    full = Layout(shape)
    d = full.stride
    anti = Layout(shape, (d[0], 0, d[2], 0, full.size()))
    only = Layout(shape, (0, d[1], 0, d[3], 0))
    return anti, only


@traced("slice_and_offset")
def slice_and_offset_composed(coord, layout: ComposedLayout):
    """CuTe's ``slice_and_offset(coord, A o O o B)``: the sliced layout and the offset it leaves.

    For a swizzle ``A`` (``swizzle_layout.hpp``): an all-``_`` coordinate just
    slices ``B``.  Otherwise the diced part of ``B`` contributes its Y/Z bits to
    the offset; if the remaining layout hits a Y bit and its Z bit the result is
    ``A o O' o slice(coord, B)``, else the swizzle decays into an ordinary layout
    whose per-bit strides depend on ``O'`` (offsets are ``uint32_t``, as in CuTe).
    For a general ``A``: ``(A o (O + B(coord)) o slice(coord, B), 0)``.
    """
    if not isinstance(layout, ComposedLayout):
        raise LayoutError(f"slice_and_offset: {layout!r} is not a composed layout")
    a, o, b = layout.outer, layout.offset, layout.inner
    if not isinstance(a, Swizzle):
        if isinstance(b, ComposedLayout):
            sliced, off = slice_and_offset_composed(coord, b)
        else:
            sliced, off = slice_(coord, b), b(_underscore_as_zero(coord))
        return ComposedLayout(a, o + off, sliced), 0
    if _all_underscore(coord):
        return composition3(a, o, _slice_any(coord, b)), 0
    if not isinstance(b, Layout):
        _slice_any(coord, b)  # CuTe slices B first: its errors come first
        raise LayoutError(f"slice_and_offset({_name(coord)}, {layout}): Mismatched Ranks: CuTe cannot dice "
                          f"the composed layout {b} (no tuple_size for a ComposedLayout), so a swizzle over a "
                          f"composed layout is sliced only with an all-_ coordinate")

    anti, only = _swizzle_projections(a)
    sliced = slice_(coord, b)
    diced = Layout(_dice(coord, b.shape), _dice(coord, b.stride))
    diced_coord = _dice(coord, coord)
    diced_anti = _compose(anti, diced)
    diced_only = _compose(only, diced)
    offset_only_zy = UInt32(int(o) ^ _to_mixed_bits(diced_only.shape, diced_only.stride,
                                                   _idx2crd(diced_coord, diced_only.shape)))
    offset_anti_zy = diced_anti(diced_coord)
    sliced_only = _compose(only, sliced)
    active = sliced_only(sliced_only.size() - 1)
    hits_y_and_z = active & ~a(active) != 0
    note(offset_only_zy=offset_only_zy, offset_anti_zy=offset_anti_zy, active_bits=active, decays=not hits_y_and_z)
    if hits_y_and_z:
        return ComposedLayout(a, offset_only_zy, sliced), offset_anti_zy

    z = a.zzz_msk & -a.zzz_msk
    y = a.yyy_msk & -a.yyy_msk
    m, s = a.base, abs(a.shift)
    stride_lo = _swizzle_strides(z < y, z, y, offset_only_zy, a.bits)
    stride_hi = _swizzle_strides(z > y, z, y, offset_only_zy, a.bits)
    swizzle_layout = Layout((1 << m, (2,) * a.bits, 1 << (s - a.bits), (2,) * a.bits, 1),
                            (1, stride_lo, 1 << (m + a.bits), stride_hi, 1 << (m + a.bits + s)))
    return _compose(swizzle_layout, sliced), UInt32(_swizzle_u32(a, offset_only_zy) + offset_anti_zy)


def _slice_any(coord, layout):
    if isinstance(layout, ComposedLayout):
        return slice_composed(coord, layout)
    return slice_(coord, layout)


def slice_composed(coord, layout: ComposedLayout):
    """CuTe's ``slice(coord, A o O o B)``: the layout part of ``slice_and_offset`` (the offset is dropped)."""
    return slice_and_offset_composed(coord, layout)[0]


def domain_offset_composed(coord, layout: ComposedLayout):
    """CuTe's ``domain_offset``: ``(A o (O + B(coord)) o B, 0)``."""
    return ComposedLayout(layout.outer, layout.offset + layout.inner(coord), layout.inner), 0


# --- upcast, downcast, recast -------------------------------------------------

def _offset_upcast(offset, n: int, layout, deferred: list) -> UInt32:
    """``upcast<N>(offset)`` = ``safe_div(offset, C<N>)`` with ``N`` a ``uint32_t``: unsigned arithmetic.

    ``safe_div``'s static_assert sits in a function with a declared return type,
    which g++ instantiates at the end of the program: its failure is reported
    after any other, so it is collected in ``deferred`` and raised last.
    """
    u = int(offset) & 0xFFFFFFFF
    if u % n != 0:
        deferred.append(f"upcast<{n}>({layout}): Static safe_div requires t % u == 0 "
                        f"(offset {offset} as uint32_t)")
    return UInt32(u // n)


@traced("upcast")
def upcast_composed(layout, n: int):
    """CuTe's ``upcast<N>`` of a swizzle or a composed layout.

    ``upcast<N>(A o O o B) = upcast<N>(A) o O/N o upcast<N>(B)``; with the
    smem_ptr flag as offset (GMMA atoms) the swizzle is kept and the flag's bit
    width multiplied by N (``pointer_flagged.hpp``).  Offsets become unsigned.
    @pre N is a power of two (for a swizzle); O % N == 0 (as uint32_t)
    """
    deferred: list = []
    result = _upcast(layout, n, deferred)
    if deferred:
        raise LayoutError(deferred[0])
    return result


def _upcast(layout, n: int, deferred: list):
    if isinstance(layout, Swizzle):
        return upcast_swizzle(layout, n)
    if not isinstance(layout, ComposedLayout):
        from .recast import upcast
        return upcast(layout, n)
    a, o, b = layout.outer, layout.offset, layout.inner
    if isinstance(o, SmemPtrFlag):
        return ComposedLayout(a, SmemPtrFlag(o.bits * n), _upcast(b, n, deferred))
    outer = _upcast(a, n, deferred)
    offset = _offset_upcast(o, n, layout, deferred)
    return composition3(outer, offset, _upcast(b, n, deferred))


@traced("downcast")
def downcast_composed(layout, n: int):
    """CuTe's ``downcast<N>`` of a swizzle or a composed layout: ``downcast<N>`` of each part (``O*N``)."""
    if isinstance(layout, Swizzle):
        return downcast_swizzle(layout, n)
    if not isinstance(layout, ComposedLayout):
        from .recast import downcast
        return downcast(layout, n)
    a, o, b = layout.outer, layout.offset, layout.inner
    if isinstance(o, SmemPtrFlag):
        return ComposedLayout(a, SmemPtrFlag(o.bits // n), downcast_composed(b, n))
    return composition3(downcast_composed(a, n), UInt32(int(o) * n), downcast_composed(b, n))


@traced("recast_layout")
def recast_layout_composed(layout, old_type, new_type):
    """CuTe's ``recast_layout<Old, New>`` of a swizzle or a composed layout (ratio num/den of the widths).

    A swizzle alone supports only a pure upcast or downcast (CuTe's mixed branch does not compile).
    """
    from .recast import recast_ratio
    num, den = recast_ratio(old_type, new_type)
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast_composed(layout, den)
    if den == 1:
        return upcast_composed(layout, num)
    if isinstance(layout, Swizzle):
        raise LayoutError(f"recast_layout<{old_type},{new_type}>({layout}): a swizzle recasts only by a "
                          f"whole factor (CuTe's mixed branch does not compile)")
    deferred: list = []
    result = downcast_composed(_upcast(layout, num, deferred), den)
    if deferred:
        raise LayoutError(deferred[0])
    return result


# --- common layouts and vectors -------------------------------------------------

def _swizzled_and_layout(a, b):
    if isinstance(a, ComposedLayout) and isinstance(a.outer, Swizzle) and isinstance(b, Layout):
        return a, b
    if isinstance(b, ComposedLayout) and isinstance(b.outer, Swizzle) and isinstance(a, Layout):
        return b, a
    return None


@traced("max_common_layout")
def max_common_layout_composed(a, b):
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
    common = _max_common_layout_any(sw_layout.inner, other)
    base = 1 << sw_layout.outer.base
    if base < common.size():
        return _compose(common, base)
    return common


def _max_common_layout_any(a, b):
    if isinstance(a, ComposedLayout):
        return max_common_layout_composed(a, b)
    from .common import max_common_layout
    return max_common_layout(a, b)


def _max_common_vector_any(a, b) -> int:
    if isinstance(a, ComposedLayout) or isinstance(b, ComposedLayout):
        return max_common_vector_composed(a, b)
    from .common import max_common_vector
    return max_common_vector(a, b)


@traced("max_common_vector")
def max_common_vector_composed(a, b) -> int:
    """CuTe's ``max_common_vector`` with swizzled layouts.

    One swizzled side: ``min(max_common_vector(L, other), 1 << M)``.  Both
    swizzled: ``max_common_vector(L0, L1)``, capped by ``1 << M0`` and
    ``1 << M1`` unless the two swizzles are equal.
    """
    pair = _swizzled_and_layout(a, b)
    if pair is not None:
        sw_layout, other = pair
        return min(_max_common_vector_any(sw_layout.inner, other), 1 << sw_layout.outer.base)
    if (isinstance(a, ComposedLayout) and isinstance(a.outer, Swizzle)
            and isinstance(b, ComposedLayout) and isinstance(b.outer, Swizzle)):
        vec = _max_common_vector_any(a.inner, b.inner)
        if a.outer == b.outer:
            return vec
        return min(vec, 1 << a.outer.base, 1 << b.outer.base)
    raise LayoutError(f"max_common_vector({_name(a)}, {_name(b)}): no matching function "
                      f"(swizzled composed layouts and Layouts are required)")


# --- products with a swizzled tiler ---------------------------------------------

@traced("logical_product")
def logical_product_swizzled_tiler(layout: Layout, tiler: ComposedLayout):
    """CuTe's ``logical_product(Layout, Sw o 0 o T)``: ``Sw' o 0 o logical_product(layout, T)``.

    The swizzle's active Y and Z bits (those ``T`` reaches) are carried through
    ``T`` and the new layout to build ``Sw'`` (``swizzle_layout.hpp``).
    @pre the tiler's offset is 0 ("Require Swizzle offset == 0.")
    """
    from .products import logical_product
    sw, inner = tiler.outer, tiler.inner
    if not isinstance(sw, Swizzle) or not isinstance(inner, Layout):
        raise LayoutError(f"logical_product({layout}, {tiler}): the tiler must be a swizzle over a Layout")
    if not is_static_zero(tiler.offset):
        raise LayoutError(f"logical_product({layout}, {tiler}): Require Swizzle offset == 0.")
    new_layout = logical_product(layout, inner)
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    only_zy = Layout((1 << m, 1 << b, 1 << (s - b), 1 << b, 1), (0, 1 << m, 0, 1 << (m + s), 0))
    layout_only_zy = _compose(only_zy, inner)
    active = layout_only_zy(layout_only_zy.size() - 1)
    new_z = new_layout((0, inner(active & sw.zzz_msk)))
    new_y = new_layout((0, inner(active & sw.yyy_msk)))
    try:
        new_sw = make_swizzle(new_y, new_z)
    except LayoutError as e:
        raise LayoutError(f"logical_product({layout}, {tiler}): {e}") from None
    note(active_bits=active, new_active_y=new_y, new_active_z=new_z, swizzle=new_sw)
    return composition3(new_sw, 0, new_layout)


# --- the rest of CuTe's ComposedLayout interface ----------------------------------

def make_layout_swizzle(sw: Swizzle):
    """CuTe's ``make_layout(Swizzle<B,M,S>)``: ``Sw o 0 o (M+B+|S|):1``.

    (CuTe uses the bit count ``M+B+|S|`` as the extent, not ``2^(M+B+|S|)``; reproduced as is.)
    """
    return composition3(sw, 0, Layout(sw.base + sw.bits + abs(sw.shift), 1))


def complement_composed(layout: ComposedLayout, cotarget=None):
    """CuTe's ``complement(A o O o B, cotarget)`` = ``complement(B, cotarget)`` (default ``cosize(B)``)."""
    from .complement import complement
    inner = layout.inner
    while isinstance(inner, ComposedLayout):
        inner = inner.inner
    return complement(inner, inner.cosize() if cotarget is None else cotarget)


def nullspace_composed(layout: ComposedLayout) -> Layout:
    """CuTe's ``nullspace`` of a ComposedLayout: ``1:0`` ("Do not attempt for general ComposedLayouts")."""
    return Layout(1, 0)


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


def _on_b(name: str):
    """The core operation ``name`` with CuTe's ComposedLayout overload (``A o O o op(B, ...)``)."""
    def op(layout, *args):
        if not isinstance(layout, ComposedLayout):
            raise LayoutError(f"{name}: {layout!r} is not a composed layout")
        return composition3(layout.outer, layout.offset, _core_op(name, layout.inner, *args))
    op.__name__ = f"{name}_composed"
    op.__doc__ = f"CuTe's ``{name}(A o O o B, ...)`` = ``A o O o {name}(B, ...)`` (``layout_composed.hpp``)."
    return op


def _core_op(name: str, layout, *args):
    if isinstance(layout, ComposedLayout):
        return _ON_B[name](layout, *args)
    return _core_functions()[name](layout, *args)


@functools.cache
def _core_functions() -> dict:
    from .coalesce import coalesce, filter
    from .divide import flat_divide, logical_divide, tiled_divide, zipped_divide
    from .layout import append, flatten, group, take, zip_layouts
    from .products import (blocked_product, flat_product, logical_product, raked_product, tile_to_shape,
                           tiled_product, zipped_product)
    from .tiler import tile_unzip
    return {
        "coalesce": coalesce, "filter": _filter_with_profile(filter),
        "flatten": flatten, "append": append, "group": group, "take": take, "zip": zip_layouts,
        "logical_divide": logical_divide, "zipped_divide": zipped_divide, "tiled_divide": tiled_divide,
        "flat_divide": flat_divide, "tile_unzip": tile_unzip,
        "logical_product": logical_product, "zipped_product": zipped_product,
        "tiled_product": tiled_product, "flat_product": flat_product,
        "blocked_product": blocked_product, "raked_product": raked_product,
        "tile_to_shape": tile_to_shape,
    }


def _filter_with_profile(filter_fn):
    def f(layout, *args):
        if not args:
            raise LayoutError(f"filter({layout}): a composed layout is filtered only with a target profile "
                              f"(no matching function for filter(ComposedLayout))")
        return filter_fn(layout, *args)
    return f


_ON_B = {name: _on_b(name) for name in (
    "coalesce", "filter", "flatten", "append", "group", "take", "zip",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "tile_unzip",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "tile_to_shape")}

coalesce_composed = _ON_B["coalesce"]
filter_composed = _ON_B["filter"]
flatten_composed = _ON_B["flatten"]
append_composed = _ON_B["append"]
group_composed = _ON_B["group"]
take_composed = _ON_B["take"]
zip_composed = _ON_B["zip"]
logical_divide_composed = _ON_B["logical_divide"]
zipped_divide_composed = _ON_B["zipped_divide"]
tiled_divide_composed = _ON_B["tiled_divide"]
flat_divide_composed = _ON_B["flat_divide"]
tile_unzip_composed = _ON_B["tile_unzip"]
logical_product_composed = _ON_B["logical_product"]
zipped_product_composed = _ON_B["zipped_product"]
tiled_product_composed = _ON_B["tiled_product"]
flat_product_composed = _ON_B["flat_product"]
blocked_product_composed = _ON_B["blocked_product"]
raked_product_composed = _ON_B["raked_product"]
tile_to_shape_composed = _ON_B["tile_to_shape"]
