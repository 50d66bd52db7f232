"""Spell a value as code to paste into a kernel: CuTe C++ (:func:`to_cpp`) and CuTe DSL (:func:`to_dsl`).

C++: static integers ``Int<4>{}``, tuples ``make_shape(...)`` / ``make_stride(...)``
(nested as the value nests), layouts ``make_layout(shape, stride)``, bases
``E<0,1>{}`` (times ``Int<v>{}`` when scaled), swizzles ``Swizzle<3,4,3>{}``,
composed layouts ``make_composed_layout(A, offset, B)``.  Compiled with CuTe's
headers and printed, the spelling prints the value it came from
(tests/differential: the round trip through g++).

CuTe DSL: ``cute.make_layout((4,8), stride=(1,4))`` with Python tuples (the 1-tuple
written ``(4,)``), ``cute.make_swizzle(3,4,3)``,
``cute.make_composed_layout(sw, 0, layout)``.  Its print is the same text as
C++'s except the swizzle (``S<3,4,3>``), which :func:`symcute.core.parse.parse_layout`
reads back.  Basis strides have no ``make_layout`` spelling in the DSL, and its
``make_composed_layout`` takes only an affine inner layout: both are refused.
"""

from __future__ import annotations

from ..errors import LayoutError
from .basis import ScaledBasis
from .composed import ComposedLayout, SmemPtrFlag
from .layout import Layout, Underscore
from .swizzle import Swizzle


def to_cpp(x) -> str:
    """CuTe C++ for a layout, composed layout, swizzle or IntTuple (static integers throughout)."""
    if isinstance(x, Layout):
        return f"make_layout({_cpp_tuple(x.shape, 'make_shape')}, {_cpp_tuple(x.stride, 'make_stride')})"
    if isinstance(x, ComposedLayout):
        return f"make_composed_layout({to_cpp(x.outer)}, {_cpp_offset(x.offset)}, {to_cpp(x.inner)})"
    if isinstance(x, Swizzle):
        return f"Swizzle<{x.bits},{x.base},{x.shift}>{{}}"
    if isinstance(x, (int, tuple, ScaledBasis)) and not isinstance(x, bool):
        return _cpp_tuple(x, "make_tuple")
    raise LayoutError(f"to_cpp: {x!r} is not a layout, swizzle or integer tuple")


def to_dsl(x) -> str:
    """CuTe DSL (``import cutlass.cute as cute``) for a layout, composed layout, swizzle or IntTuple."""
    if isinstance(x, Layout):
        shape, stride = _dsl_tuple(x.shape), _dsl_tuple(x.stride)
        return f"cute.make_layout({shape}, stride={stride})"
    if isinstance(x, ComposedLayout):
        if isinstance(x.offset, SmemPtrFlag):
            raise LayoutError(f"to_dsl: {x} carries an unset smem pointer flag, which CuTe DSL has no literal for")
        if isinstance(x.inner, ComposedLayout):  # its make_composed_layout raises TypeError (CuTe DSL 4.8)
            raise LayoutError(f"to_dsl: {x}: CuTe DSL's make_composed_layout takes an affine inner layout, "
                              f"not the composed {x.inner}")
        return f"cute.make_composed_layout({to_dsl(x.outer)}, {_dsl_tuple(x.offset)}, {to_dsl(x.inner)})"
    if isinstance(x, Swizzle):
        return f"cute.make_swizzle({x.bits},{x.base},{x.shift})"
    if isinstance(x, (int, tuple)) and not isinstance(x, bool):
        return _dsl_tuple(x)
    raise LayoutError(f"to_dsl: {x!r} is not a layout, swizzle or integer tuple")


def _cpp_tuple(t, maker: str) -> str:
    if isinstance(t, tuple):
        return f"{maker}({', '.join(_cpp_tuple(x, maker) for x in t)})"
    if isinstance(t, ScaledBasis):
        e = f"E<{','.join(str(m) for m in t.modes)}>{{}}"
        return e if t.value == 1 else f"{e} * Int<{t.value}>{{}}"
    if isinstance(t, Underscore):
        return "_"
    if isinstance(t, int) and not isinstance(t, bool):
        return f"Int<{t}>{{}}"
    raise LayoutError(f"to_cpp: {t!r} is not an integer, basis or tuple")


def _cpp_offset(offset) -> str:
    if isinstance(offset, SmemPtrFlag):
        return f"smem_ptr_flag_bits<{offset.bits}>{{}}"
    return _cpp_tuple(offset, "make_tuple")


def _dsl_tuple(t) -> str:
    if isinstance(t, tuple):
        inner = ",".join(_dsl_tuple(x) for x in t)
        return f"({inner},)" if len(t) == 1 else f"({inner})"
    if isinstance(t, ScaledBasis):
        raise LayoutError(f"to_dsl: the basis stride {t} has no CuTe DSL literal (make an identity layout with "
                          f"cute.make_identity_layout)")
    if isinstance(t, int) and not isinstance(t, bool):
        return str(int(t))
    raise LayoutError(f"to_dsl: {t!r} is not an integer or tuple")
