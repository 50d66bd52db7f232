"""max_common_layout, max_common_vector and nullspace (``cute/layout.hpp``)."""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it
from .coalesce import coalesce
from .composition import composition
from .inverse import right_inverse
from .dispatch import operation
from .layout import Layout, format_int_tuple, refuse_arithmetic_strides
from .integer import is_static


def _static_unit_front(common: Layout) -> bool:
    """``is_static<shape<0>(common)> && is_constant<1, stride<0>(common)>``: a static contiguous front mode."""
    front = common[0]
    return front.stride == 1 and type(front.stride) is int and is_static(front.shape)


def _name(x) -> str:
    return format_int_tuple(x) if isinstance(x, tuple) else str(x)


def _common(a: Layout, b: Layout):
    inv_b = right_inverse(b)
    common = coalesce(composition(a, inv_b))
    return inv_b, common


@operation("max_common_layout")
def max_common_layout(a: Layout, b: Layout) -> Layout:
    """The layout R of the most contiguous elements on which ``a`` and ``b`` agree.

    @post a(R(i)) == i and b(R(i)) == i for all 0 <= i < size(R)
    (A swizzled side: ``swizzle_layout.py``.)
    """
    if type(a) is not Layout or type(b) is not Layout:
        raise LayoutError(f"max_common_layout({_name(a)}, {_name(b)}): no matching function "
                          f"(one swizzled composed layout and one Layout are required)")
    inv_b, common = _common(a, b)
    if _static_unit_front(common):
        return composition(inv_b, common[0])
    return Layout(1, 0)


@operation("max_common_vector")
def max_common_vector(a: Layout, b: Layout) -> int:
    """The largest N such that ``a`` and ``b`` map the first N indices of ``b``'s order alike (an int >= 1).

    (Swizzled sides: ``swizzle_layout.py``.)
    """
    if type(a) is not Layout or type(b) is not Layout:
        raise LayoutError(f"max_common_vector({_name(a)}, {_name(b)}): no matching function "
                          f"(swizzled composed layouts and Layouts are required)")
    _, common = _common(a, b)
    if _static_unit_front(common):
        return common[0].shape
    return 1


@operation("nullspace")
def nullspace(layout: Layout) -> Layout:
    """The kernel of ``layout``: the compact coordinates of its stride-0 modes.

    @post layout(result(i)) == 0 for all i < size(result)
    @post size(result) == size(layout) / size(filter(layout))
    """
    refuse_arithmetic_strides("nullspace", layout)
    if not isinstance(layout, Layout):
        raise LayoutError(f"nullspace: {layout!r} is not a layout")
    flat_shape = it.flatten_to_tuple(layout.shape)
    flat_stride = it.flatten_to_tuple(layout.stride)
    idx = [i for i, d in enumerate(flat_stride) if d == 0 and type(d) is int]   # is_constant<0>: static zeros
    if not idx:
        return Layout(1, 0)
    rstride = it.compact_col_major(flat_shape)
    return Layout._make(it.unwrap(tuple(flat_shape[i] for i in idx)), it.unwrap(tuple(rstride[i] for i in idx)))
