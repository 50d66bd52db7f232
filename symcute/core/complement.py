"""complement(layout, cotarget): the layout that fills the codomain ``layout`` leaves free.

CuTe (``cute/layout.hpp``) filters the layout, then repeatedly takes the mode of
smallest stride: the gap ``min_stride / last_stride`` becomes a new mode.  A
layout whose strides do not nest (two modes hitting the same offsets) is
refused: "Non-injective Layout detected in complement".
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it, kinds
from .coalesce import _bw_coalesce, _filter_flat, coalesce_shape
from .budget import OPEN as _OPEN, current as _budget
from .layout import Layout, cosize
from .dispatch import operation
from .hook import note, recording
from .integer import DynamicInt


@operation("complement")
def complement(layout: Layout, cotarget=None) -> Layout:
    """CuTe's ``complement(layout, cotarget)``; ``cotarget`` defaults to ``cosize(filter(layout))``.

    @post size(result) >= cotarget / size(filter(layout))
    @post result is ordered: result(i-1) < result(i) for 1 <= i < size(result)
    @post result(i) != layout(j) for all i >= 1, j < size(layout) (disjoint images)
    @pre  layout is injective on the modes it keeps (strides nest)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"complement: {layout!r} is not a layout")
    filtered = _filter_flat(layout, "complement")
    if cotarget is None:
        cotarget = _cosize_flat(filtered)
    elif type(cotarget) is not int:
        if isinstance(cotarget, Layout):
            cotarget = cotarget.shape
        if cotarget == ():
            raise LayoutError(f"complement({layout}, ()): the cotarget has no modes (CuTe: Index out of range)")
        if not _is_int_tuple(cotarget):
            raise LayoutError(f"complement({layout}, {cotarget!r}): the cotarget must be an integer or a shape")
    shape, stride = filtered._shape, filtered._stride
    if not isinstance(stride, tuple) and stride == 0 and type(stride) is int:   # is_constant<0, Stride>
        return Layout(coalesce_shape(cotarget))
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    run_time = False
    for d in stride:
        if type(d) is not int:
            if not it.is_int(d):
                raise LayoutError(f"complement({layout}): basis strides are not supported")
            run_time = True
    if run_time and len(stride) != 1:
        raise LayoutError(f"complement({layout}): Dynamic-stride complement only for rank-1 layouts "
                          f"(CuTe static_asserts static strides when the filtered layout has several modes)")
    # CuTe repeatedly takes the first mode of minimal stride: that is a stable sort by stride
    order = sorted(range(len(stride)), key=stride.__getitem__) if len(stride) > 1 else (0,)
    result_shape: list = []
    result_stride: list = [1]   # result_stride[-1] is the extent covered so far
    for k in order:
        d = stride[k]
        covered = result_stride[-1]
        if d == covered and type(d) is int and type(covered) is int:
            new_shape = 1   # no gap (a compact layout's modes): the quotient without a long division
        else:
            new_shape = d // covered if d >= 0 and covered > 0 else it.cdiv(d, covered)
            if new_shape == 0 and type(new_shape) is int:   # a run-time 0 is not detected (CuTe: static_assert)
                raise LayoutError(
                    f"complement({layout}): Non-injective Layout detected in complement "
                    f"(stride {d} is smaller than the extent {covered} already covered)")
        result_shape.append(new_shape)
        result_stride.append(d * shape[k])
    new_stride = result_stride.pop()
    if type(cotarget) is int and type(new_stride) is int and cotarget >= 0 and new_stride > 0 \
            and (not _OPEN[0] or _budget.get() is None):
        # static ints, the common signs, no budget metering the strides: ceil_div and the
        # compact stride of one static mode inline (what the general line below computes)
        rest_shape = (cotarget + new_stride - 1) // new_stride
        rest_stride = 0 if rest_shape == 1 else new_stride
    else:
        rest_shape = coalesce_shape(it.ceil_div(cotarget, new_stride))
        rest_stride = it.compact_col_major(rest_shape, new_stride)
    if type(rest_shape) is tuple:   # static and run-time extents do not coalesce: several rest modes
        flat_s = tuple(result_shape) + rest_shape
        flat_d = tuple(result_stride) + rest_stride
        return _bw_coalesce(flat_s, flat_d, flat_s[-1], flat_d[-1])
    if recording() is not None:  # building the details costs; only when a derivation asks
        note(filtered=filtered, sorted_modes=[(shape[k], stride[k]) for k in order],
             gaps=list(zip(result_shape, result_stride)), rest=(rest_shape, rest_stride))
    # CuTe coalesces ((result_shape), rest_shape); rest is one mode here, so the flat list is direct
    return _bw_coalesce(tuple(result_shape) + (rest_shape,), tuple(result_stride) + (rest_stride,),
                        rest_shape, rest_stride)


def _cosize_flat(filtered: Layout):
    """``cosize`` of a layout of depth <= 1 (a filtered one), static int strides inline."""
    shape, stride = filtered._shape, filtered._stride
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    total = 1
    for s, d in zip(shape, stride):
        if type(d) is not int:
            return cosize(filtered)  # run-time strides, and the error for basis strides
        total += (s - 1) * (d if d >= 0 else -d)
    return total


def _is_int_tuple(t) -> bool:
    if type(t) is tuple:
        return all(_is_int_tuple(x) for x in t)
    return it.is_int(t)


def _ceil_div_by_layout(target, tiler: Layout):
    """CuTe's ``ceil_div(Target, Layout tiler)`` (layout.hpp, for grid sizes): ``shape(complement(tiler,
    shape(target)))``, the number of tiles along each mode."""
    if kinds.is_kind(target, "Layout") or kinds.is_kind(target, "ComposedLayout") or kinds.is_kind(target, "Tensor"):
        target = target.shape
    kinds.int_tuple("ceil_div", (target, tiler), 0)
    return complement(tiler, target).shape


it.layout_ceil_div = _ceil_div_by_layout
