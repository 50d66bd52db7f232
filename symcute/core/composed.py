"""ComposedLayout ``A o O o B`` (CuTe's ``layout_composed.hpp``), used for swizzled layouts.

``(A o O o B)(c) = A(O + B(c))``: ``B`` is an ordinary layout that defines the
domain, ``O`` an offset, ``A`` a function on offsets (a Swizzle or a Layout).
Operations that reshape the domain apply to ``B`` only, as in CuTe; they are
built with :func:`composition3` (CuTe's three-argument ``composition``), which
drops an identity swizzle with a zero offset.  This module holds the type; its
overloads of the algebra are registered in ``layout_composed.py`` (CuTe's
``layout_composed.hpp``) and ``swizzle_layout.py`` (``swizzle_layout.hpp``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import kinds
from .layout import Layout, format_int_tuple, has_underscore, slice_
from .swizzle import Swizzle


@dataclass(frozen=True)
class SmemPtrFlag:
    """CuTe's ``smem_ptr_flag_bits<Bits>``: the offset 0 of an unset shared-memory pointer.

    GMMA's smem layout atoms carry it in place of the offset
    (``Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)``).  It is the integer 0
    everywhere, except that ``upcast<N>``/``downcast<N>`` of its composed layout
    rescale ``Bits`` and keep the swizzle, and that it never collapses an
    identity swizzle (it is not the type ``Int<0>``).
    """

    bits: int

    def __index__(self) -> int:
        return 0

    __int__ = __index__

    def __add__(self, other):
        return 0 + other

    __radd__ = __add__

    def __xor__(self, other):
        return 0 ^ other

    __rxor__ = __xor__

    def __neg__(self):
        return 0

    def __eq__(self, other):
        if isinstance(other, SmemPtrFlag):
            return self.bits == other.bits
        return other == 0 and not isinstance(other, bool)

    def __hash__(self) -> int:
        return hash(0)

    def __str__(self) -> str:
        return f"smem_ptr[{self.bits}b](unset)"


class UInt32(int):
    """A static ``uint32_t`` offset: CuTe's ``C<v>`` with an unsigned ``v``.

    Offsets turn unsigned where CuTe computes them with ``uint32_t`` constants
    (``upcast<N>``/``downcast<N>`` of an offset, the offsets of a sliced
    swizzle); arithmetic on them then wraps modulo 2^32, and such a zero is not
    the type ``Int<0>`` (it does not collapse an identity swizzle).
    """

    _MASK = 0xFFFFFFFF

    def __new__(cls, value: int):
        return super().__new__(cls, int(value) & cls._MASK)

    def __add__(self, other):
        return UInt32(int(self) + int(other))

    __radd__ = __add__

    def __sub__(self, other):
        return UInt32(int(self) - int(other))

    def __rsub__(self, other):
        return UInt32(int(other) - int(self))

    def __mul__(self, other):
        return UInt32(int(self) * int(other))

    __rmul__ = __mul__

    def __neg__(self):
        return UInt32(-int(self))

    def __xor__(self, other):
        return UInt32(int(self) ^ int(other))

    __rxor__ = __xor__

    def __and__(self, other):
        return UInt32(int(self) & int(other))

    __rand__ = __and__

    def __or__(self, other):
        return UInt32(int(self) | int(other))

    __ror__ = __or__

    def __repr__(self) -> str:
        return f"UInt32({int(self)})"

    __str__ = int.__repr__


class MixedBits(int):
    """CuTe's ``MixedBits<S, F>{d}`` (``swizzle.hpp``): a ``uint32_t`` whose bits in ``F`` are known only at
    run time (``d``, with ``d & ~F == 0``) and whose other bits are the static ``S``.

    The offset of a swizzled layout sliced at a run-time coordinate (``slice_and_offset`` when the
    swizzle cannot decay).  Its value is ``S | d``; it prints as CuTe prints it, ``M_S|(d&F)=value``.
    Build it with :func:`make_mixed_bits`, which returns a static int when no bit is run-time.
    """

    def __new__(cls, s: int, f: int, d: int):
        obj = super().__new__(cls, (s | d) & 0xFFFFFFFF)
        obj.static_bits, obj.flags, obj.dynamic_int = s & 0xFFFFFFFF, f & 0xFFFFFFFF, d & 0xFFFFFFFF
        return obj

    def __str__(self) -> str:
        return f"M_{self.static_bits}|({self.dynamic_int}&{self.flags})={int(self)}"

    __repr__ = __str__


def make_mixed_bits(s: int, d: int, f: int):
    """CuTe's ``make_mixed_bits(C<s>, d, C<f>)``: static bits take precedence; no run-time bit left is the int ``s``."""
    new_f = f & ~s & 0xFFFFFFFF
    if new_f == 0:
        return UInt32(s)
    return MixedBits(s, new_f, int(d) & new_f)


def mixed_xor(a, b):
    """CuTe's ``operator^`` of static ints and MixedBits (``swizzle.hpp``'s truth tables)."""
    if not isinstance(a, MixedBits) and not isinstance(b, MixedBits):
        return UInt32(int(a) ^ int(b))
    if not isinstance(a, MixedBits):
        a, b = b, a
    s0, f0, d0 = a.static_bits, a.flags, a.dynamic_int
    if isinstance(b, MixedBits):
        s1, f1, d1 = b.static_bits, b.flags, b.dynamic_int
        return make_mixed_bits((~s0 & s1 & ~f0) | (s0 & ~s1 & ~f1), (s0 | d0) ^ (s1 | d1), f0 | f1)
    s1 = int(b) & 0xFFFFFFFF
    return make_mixed_bits((~s0 & s1 & ~f0) | (s0 & ~s1), (s0 | d0) ^ s1, f0)


def is_static_zero(offset) -> bool:
    """``offset == Int<0>{}`` holds statically (an int or unsigned 0, or the smem_ptr flag)."""
    return isinstance(offset, SmemPtrFlag) or (isinstance(offset, int) and not isinstance(offset, bool) and offset == 0)


def is_constant_zero(offset) -> bool:
    """CuTe's ``is_constant<0, Offset>``: a ``C<0>`` (the smem_ptr flag, a derived type, is not one)."""
    return isinstance(offset, int) and not isinstance(offset, bool) and offset == 0


@dataclass(frozen=True)
class ComposedLayout:
    """CuTe's ``ComposedLayout<LayoutA, Offset, LayoutB>``: ``c -> A(O + B(c))``.

    Its domain is ``B``'s: shape, size, rank, depth and cosize are ``B``'s
    (CuTe's ``cosize(ComposedLayout)`` is ``cosize(layout_b)`` too); it has no stride.
    Member functions that are operations (``with_shape``, ``compose``, ``tile``)
    are defined next to those operations, as for :class:`Layout`.
    """

    outer: Any      # Swizzle | Layout | ComposedLayout  (CuTe's layout_a)
    offset: Any     # int | SmemPtrFlag
    inner: Any      # Layout | ComposedLayout            (CuTe's layout_b)

    @property
    def layout_a(self):
        return self.outer

    @property
    def layout_b(self):
        return self.inner

    @property
    def shape(self):
        return self.inner.shape

    @property
    def rank(self) -> int:
        return self.inner.rank

    @property
    def depth(self) -> int:
        return self.inner.depth

    def size(self) -> int:
        return self.inner.size()

    def cosize(self):
        return self.inner.cosize()

    def __len__(self) -> int:
        return self.rank

    def __getitem__(self, i):
        """Mode access (CuTe's ``layout<I...>``/``get<I>``): ``A o O o B[i]``."""
        return composition3(self.outer, self.offset, self.inner[i])

    def modes(self) -> list:
        return [self[i] for i in range(self.rank)]

    def __call__(self, *coord):
        """Evaluate ``A(O + B(c))``; a coordinate with ``_`` slices (CuTe's ``slice(c, *this)``)."""
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if has_underscore(c):
            return slice_(c, self)
        return self.outer(self.offset + self.inner(c))

    def __str__(self) -> str:
        return f"{self.outer} o {format_int_tuple(self.offset)} o {self.inner}"

    def __repr__(self) -> str:
        return f"ComposedLayout({str(self)!r})"


def make_composed_layout(layout_a, offset, layout_b) -> ComposedLayout:
    """CuTe's ``make_composed_layout``: the plain constructor (no simplification)."""
    return ComposedLayout(layout_a, offset, layout_b)


def composition3(layout_a, offset, layout_b):
    """CuTe's three-argument ``composition(A, O, B)``: ``A o O o B``.

    CuTe overloads it for ``Swizzle<0,M,S>``, the static offset ``Int<0>`` and a
    plain ``Layout``: the identity swizzle is dropped and ``B`` returned.  (The
    smem_ptr flag is a different type and keeps the composed form.)
    """
    if (isinstance(layout_a, Swizzle) and layout_a.bits == 0 and type(offset) is int and offset == 0
            and isinstance(layout_b, Layout)):
        return layout_b
    return ComposedLayout(layout_a, offset, layout_b)


def through_layout_b(op):
    """CuTe's ComposedLayout overload of ``op``: ``A o O o op(B, ...)``, to register as ``op``'s overload.

    ``layout_composed.hpp`` defines the domain-reshaping operations (divides,
    products, coalesce, flatten, ...) of a ComposedLayout this way: they apply to
    ``layout_b`` and keep ``layout_a`` and the offset.  ``op(B, ...)`` runs
    unrecorded (``op.dispatch``): the public call is the derivation's one step.
    """
    inner_op = op.dispatch

    def overload(layout, *args, **kwargs):
        return composition3(layout.outer, layout.offset, inner_op(layout.inner, *args, **kwargs))
    overload.__name__ = overload.__qualname__ = f"{op.__name__}_of_layout_b"
    overload.__doc__ = f"CuTe's ``{op.__name__}(A o O o B, ...)`` = ``A o O o {op.__name__}(B, ...)``."
    return overload


kinds.register("ComposedLayout", ComposedLayout)
