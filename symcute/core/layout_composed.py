"""The ComposedLayout overloads of the algebra, as CuTe's ``cute/layout_composed.hpp`` defines them.

For ``A o O o B`` (``c -> A(O + B(c))``, :class:`ComposedLayout`):

* the domain is ``B``'s: ``rank``, ``depth``, ``shape`` (and ``size``/``cosize``,
  methods of the type) read ``B``;
* operations that reshape the domain (divides, products, coalesce, filter,
  flatten, modes, ``tile_to_shape``) apply to ``B`` and keep ``A o O``
  (:func:`~symcute.core.composed.through_layout_b`);
* ``composition(A o O o B, T) = A o O o (B o T)`` for any tiler ``T``, and
  ``L o (A o O o B) = (L o A) o B`` when ``O == 0``;
* ``complement`` is ``B``'s; the inverses are ``right_inverse(B) o -O o right_inverse(A)``;
* ``upcast``/``downcast``/``recast_layout`` rescale each part;
* slicing moves the fixed part of the coordinate into the offset.

Where ``A`` is a swizzle, CuTe's ``swizzle_layout.hpp`` refines several of these
(the inverses, slicing): those rules are in ``swizzle_layout.py``, and the
overloads here hand over to them; the overloads CuTe defines only for
swizzles (``max_common_layout``, a swizzled product tiler) are registered there.  Every overload
is registered on its public operation (:mod:`symcute.core.dispatch`); call the
public operations (``coalesce(c)``), never these functions.
"""

from __future__ import annotations

from ..errors import LayoutError
from .coalesce import coalesce, filter
from .common import nullspace
from .complement import complement
from .composed import (
    ComposedLayout, SmemPtrFlag, UInt32, composition3, is_constant_zero, is_static_zero, through_layout_b,
)
from .composition import composition
from .divide import flat_divide, logical_divide, tiled_divide, zipped_divide
from .inverse import left_inverse, right_inverse
from .layout import (
    Layout, append, depth, domain_offset, flatten, group, rank, shape, slice_, slice_and_offset, take,
    underscore_as_zero, zip_layouts,
)
from .products import (
    blocked_product, flat_product, logical_product, raked_product, tile_to_shape, tiled_product, zipped_product,
)
from .recast import check_n, downcast, recast_layout, recast_ratio, upcast
from .swizzle import Swizzle
from .tiler import tile_unzip
from . import kinds, swizzle_layout as swizzled

# --- the domain is B's ---------------------------------------------------------------

rank.register(ComposedLayout)(lambda layout: layout.rank)
depth.register(ComposedLayout)(lambda layout: layout.depth)
shape.register(ComposedLayout)(lambda layout: layout.shape)

# --- operations on the domain: A o O o op(B, ...) --------------------------------------

for _op in (flatten, group, take, zip_layouts, tile_unzip, coalesce,
            logical_divide, zipped_divide, tiled_divide, flat_divide,
            logical_product, zipped_product, tiled_product, flat_product, blocked_product, raked_product,
            tile_to_shape):
    _op.register(ComposedLayout)(through_layout_b(_op))


@append.register(ComposedLayout)
def _(layout: ComposedLayout, x=None, n=None):
    """CuTe has only ``append<N>`` for a ComposedLayout (``A o O o append<N>(B, x)``).

    The plain call ``append(a, x)`` is CuTe's tuple overload, which wraps a
    non-tuple into the pair ``make_tuple(a, x)``.
    """
    if n is None:
        if x is None:
            raise LayoutError(f"append({layout}): a composed layout is appended to only as append<N> "
                              f"or with an element (the tuple overload append(a, x))")
        return (layout, x)
    return composition3(layout.outer, layout.offset, append.dispatch(layout.inner, x, n))


@filter.register(ComposedLayout)
def _(layout: ComposedLayout, profile=None):
    """``filter(A o O o B, profile) = A o O o filter(B, profile)``; CuTe has no one-argument form."""
    if profile is None:
        raise LayoutError(f"filter({layout}): a composed layout is filtered only with a target profile "
                          f"(no matching function for filter(ComposedLayout))")
    return composition3(layout.outer, layout.offset, filter.dispatch(layout.inner, profile))


# --- composition ---------------------------------------------------------------------

@composition.register(ComposedLayout)
def _(lhs: ComposedLayout, rhs):
    """``(A o O o B) o T = A o O o (B o T)`` for any tiler ``T``.

    @post result(c) == lhs(rhs(c)) where CuTe's rule for ``B o T`` is exact
    """
    return composition3(lhs.outer, lhs.offset, composition.dispatch(lhs.inner, rhs))


@composition.register(Layout, ComposedLayout)
def _(lhs: Layout, rhs: ComposedLayout):
    """``L o (A o O o B) = (L o A) o B``.

    @pre O == 0 ("Require offset == 0.")
    """
    if not is_static_zero(rhs.offset):
        raise LayoutError(f"composition({lhs}, {rhs}): Require offset == 0.")
    return composition.dispatch(composition.dispatch(lhs, rhs.outer), rhs.inner)


# --- complement, inverses, nullspace ---------------------------------------------------

@complement.register(ComposedLayout)
def _(layout: ComposedLayout, cotarget=None):
    """``complement(A o O o B, cotarget) = complement(B, cotarget)`` (default ``cosize(B)``)."""
    inner = layout.inner
    while isinstance(inner, ComposedLayout):
        inner = inner.inner
    return complement.dispatch(inner, inner.cosize() if cotarget is None else cotarget)


def _inverse(op, layout: ComposedLayout):
    """``op(A o O o B) = op(B) o -O o op(A)``; for a swizzle ``A`` and ``O == 0``, ``op(B) o A``.

    (The second is ``swizzle_layout.hpp``'s; composing moves the swizzle to the left.)
    """
    a, o, b = layout.outer, layout.offset, layout.inner
    if isinstance(a, Swizzle) and is_constant_zero(o):
        return composition.dispatch(op.dispatch(b), a)
    inverse_b = op.dispatch(b)
    if isinstance(o, SmemPtrFlag):   # right_inverse(T) of an offset is -T; the flag has no inverse
        raise LayoutError(f"{op.__name__}({layout}): no matching function for the offset {o}")
    return composition3(inverse_b, -o, op.dispatch(a))


@right_inverse.register(ComposedLayout)
def _(layout: ComposedLayout):
    """@post layout(result(i)) == i for 0 <= i < size(result), where CuTe's rule is exact"""
    return _inverse(right_inverse, layout)


@left_inverse.register(ComposedLayout)
def _(layout: ComposedLayout):
    """@post result(layout(i)) == i for 0 <= i < size(layout), where CuTe's rule is exact"""
    return _inverse(left_inverse, layout)


@nullspace.register(ComposedLayout)
def _(layout: ComposedLayout) -> Layout:
    """``1:0`` ("Do not attempt for general ComposedLayouts")."""
    return Layout(1, 0)


# --- slicing ---------------------------------------------------------------------------

@slice_and_offset.register(ComposedLayout)
def _(coord, layout: ComposedLayout):
    """``slice_and_offset(coord, A o O o B) = (A o (O + B(coord)) o slice(coord, B), 0)``.

    For a swizzle ``A`` the fixed part's bits split between the offset and the
    swizzle (``swizzle_layout.hpp``): :func:`swizzle_layout.slice_and_offset_swizzled`.
    """
    kinds.coordinate("slice_and_offset", (coord, layout), 0)
    a, o, b = layout.outer, layout.offset, layout.inner
    if isinstance(a, Swizzle):
        return swizzled.slice_and_offset_swizzled(coord, layout)
    if isinstance(b, ComposedLayout):
        sliced, off = slice_and_offset.dispatch(coord, b)
    else:
        sliced, off = slice_(coord, b), b(underscore_as_zero(coord))
    return ComposedLayout(a, o + off, sliced), 0


@slice_.register(ComposedLayout)
def _(coord, layout: ComposedLayout):
    """``slice(coord, A o O o B)``: the layout part of ``slice_and_offset`` (the offset is dropped)."""
    return slice_and_offset.dispatch(coord, layout)[0]


@domain_offset.register(ComposedLayout)
def _(coord, layout: ComposedLayout):
    """``domain_offset(coord, A o O o B) = (A o (O + B(coord)) o B, 0)``."""
    return ComposedLayout(layout.outer, layout.offset + layout.inner(coord), layout.inner), 0


# --- upcast, downcast, recast ----------------------------------------------------------

@upcast.register(ComposedLayout)
def _(layout: ComposedLayout, n: int):
    """``upcast<N>(A o O o B) = upcast<N>(A) o O/N o upcast<N>(B)``.

    With the smem_ptr flag as offset (GMMA atoms) the swizzle is kept and the
    flag's bit width multiplied by N (``pointer_flagged.hpp``).  Offsets become unsigned.
    @pre N is a power of two (for a swizzle); O % N == 0 (as uint32_t)
    """
    check_n(n, "upcast")
    deferred: list = []
    result = _upcast_parts(layout, n, deferred)
    if deferred:
        raise LayoutError(deferred[0])
    return result


def _upcast_parts(layout, n: int, deferred: list):
    if not isinstance(layout, ComposedLayout):
        return upcast.dispatch(layout, n)   # a Swizzle's or a Layout's upcast
    a, o, b = layout.outer, layout.offset, layout.inner
    if isinstance(o, SmemPtrFlag):
        return ComposedLayout(a, SmemPtrFlag(o.bits * n), _upcast_parts(b, n, deferred))
    outer = _upcast_parts(a, n, deferred)
    offset = _offset_upcast(o, n, layout, deferred)
    return composition3(outer, offset, _upcast_parts(b, n, deferred))


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


@downcast.register(ComposedLayout)
def _(layout: ComposedLayout, n: int):
    """``downcast<N>(A o O o B) = downcast<N>(A) o O*N o downcast<N>(B)`` (the smem_ptr flag: bits / N)."""
    check_n(n, "downcast")
    a, o, b = layout.outer, layout.offset, layout.inner
    if isinstance(o, SmemPtrFlag):
        return ComposedLayout(a, SmemPtrFlag(o.bits // n), downcast.dispatch(b, n))
    return composition3(downcast.dispatch(a, n), UInt32(int(o) * n), downcast.dispatch(b, n))


@recast_layout.register(ComposedLayout)
def _(layout: ComposedLayout, old_type, new_type):
    """``recast_layout<Old, New>``: ``upcast<num>`` then ``downcast<den>`` of the reduced width ratio."""
    num, den = recast_ratio(old_type, new_type)
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast.dispatch(layout, den)
    if den == 1:
        return upcast.dispatch(layout, num)
    deferred: list = []
    result = downcast.dispatch(_upcast_parts(layout, num, deferred), den)
    if deferred:
        raise LayoutError(deferred[0])
    return result
