"""complement(layout, cotarget): the layout that fills the codomain ``layout`` leaves free.

CuTe (``cute/layout.hpp``) filters the layout, then repeatedly takes the mode of
smallest stride: the gap ``min_stride / last_stride`` becomes a new mode.  A
layout whose strides do not nest (two modes hitting the same offsets) is
refused: "Non-injective Layout detected in complement".
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it
from .coalesce import _bw_coalesce, _filter_flat
from .layout import Layout, cosize, format_int_tuple
from ..trace.hook import note, recording, traced


@traced("complement")
def complement(layout: Layout, cotarget=None) -> Layout:
    """CuTe's ``complement(layout, cotarget)``; ``cotarget`` defaults to ``cosize(filter(layout))``.

    @post size(result) >= cotarget / size(filter(layout))
    @post result is ordered: result(i-1) < result(i) for 1 <= i < size(result)
    @post result(i) != layout(j) for all i >= 1, j < size(layout) (disjoint images)
    @pre  layout is injective on the modes it keeps (strides nest)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"complement: {layout!r} is not a layout")
    filtered = _filter_flat(layout)
    if cotarget is None:
        cotarget = cosize(filtered)
    elif isinstance(cotarget, Layout):
        cotarget = cotarget.shape
    shape, stride = filtered.shape, filtered.stride
    if not isinstance(stride, tuple) and stride == 0:
        return Layout(_coalesce_shape(cotarget))
    shape, stride = it.wrap(shape), it.wrap(stride)
    for d in stride:
        if not isinstance(d, int):
            raise LayoutError(f"complement({layout}): basis strides are not supported")
    shape, stride = list(shape), list(stride)
    result_shape: list = []
    result_stride: list = [1]
    order = []
    for _i in range(len(shape) - 1):
        min_stride = min(stride)
        k = stride.index(min_stride)
        new_shape = it.cdiv(min_stride, result_stride[-1])
        if new_shape == 0:
            raise LayoutError(
                f"complement({layout}): Non-injective Layout detected in complement "
                f"(stride {min_stride} is smaller than the extent {result_stride[-1]} already covered)")
        order.append((shape[k], min_stride))
        result_shape.append(new_shape)
        result_stride.append(min_stride * shape[k])
        del shape[k], stride[k]
    new_shape = it.cdiv(stride[0], result_stride[-1])
    if new_shape == 0:
        raise LayoutError(
            f"complement({layout}): Non-injective Layout detected in complement "
            f"(stride {stride[0]} is smaller than the extent {result_stride[-1]} already covered)")
    order.append((shape[0], stride[0]))
    result_shape.append(new_shape)
    new_stride = stride[0] * shape[0]
    rest_shape = _coalesce_shape(it.ceil_div(cotarget, new_stride))
    rest_stride = it.compact_col_major(rest_shape, new_stride)
    if recording() is not None:  # building the details costs; only when a derivation asks
        note(filtered=filtered, sorted_modes=order, gaps=list(zip(result_shape, result_stride)),
             rest=(rest_shape, rest_stride))
    # CuTe coalesces ((result_shape), rest_shape); rest is one mode here, so the flat list is direct
    return _bw_coalesce(tuple(result_shape) + (rest_shape,), tuple(result_stride) + (rest_stride,),
                        rest_shape, rest_stride)


def _coalesce_shape(shape):
    """CuTe's ``coalesce(Shape)`` on a static shape: the product, as one mode."""
    return it.product(shape)
