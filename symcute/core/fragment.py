"""Register fragments: CuTe's ``make_fragment_like`` (``cute/layout.hpp``, ``cute/tensor_impl.hpp``)."""

from __future__ import annotations

from . import int_tuple as it
from .integer import is_static
from .layout import Layout, _, make_layout, make_ordered_layout
from .composed import ComposedLayout
from .products import tiled_product
from .swizzle import Swizzle
from .tensor import Tensor, make_register_tensor


def repeat_underscore(n: int):
    """CuTe's ``repeat<N>(_)``: ``_`` itself when N == 1, else a tuple of N ``_``."""
    return _ if n == 1 else (_,) * n


def _filter_zeros(stride, shape):
    """CuTe's ``filter_zeros(stride, shape)``: the extents of stride-0 modes become 1."""
    if isinstance(stride, tuple):
        return tuple(_filter_zeros(d, s) for d, s in zip(stride, shape))
    return it.repeat_like(shape, 1) if stride == 0 and type(stride) is int else shape   # static zeros only


def make_fragment_like(layout, value_type=None):
    """CuTe's ``make_fragment_like(layout)`` for a static layout (a shape: ``make_layout(shape)``; a
    Tensor: a fresh tensor of the fragment layout of its layout, ``make_tensor<T>`` with the tensor's
    value type or ``value_type``; a swizzled ``Sw o O o L``: that of ``L``, as ``swizzle_layout.hpp``).
    With ``value_type`` the result is the owning register tensor ``make_fragment_like<T>(layout)``.

    @result rank > 1: ``tiled_product(make_layout(shape<0>, compact_col_major(filter_zeros(stride<0>, shape<0>))),
            make_ordered_layout(shape<1..R>, stride<1..R>))``: mode 0 compact column-major
            (stride-0 modes stay stride 0), the other modes compact in the order of their strides;
            rank 1, or a shape with a run-time extent (CuTe: ``R > 1 && is_static<Shape>``): ``make_layout(shape)``.
    """
    if isinstance(layout, Tensor):
        vt = value_type or layout.value_type
        frg = make_fragment_like(layout.layout())
        return make_register_tensor(frg, vt) if vt is not None else Tensor(frg)
    if value_type is not None:
        return make_register_tensor(make_fragment_like(layout), value_type)
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return make_fragment_like(layout.inner)
    if not isinstance(layout, Layout):
        return make_layout(layout)
    if layout.rank <= 1 or not is_static(layout.shape):
        return make_layout(layout.shape)
    s0, d0 = layout.shape[0], layout.stride[0]
    block = Layout(s0, it.compact_col_major(_filter_zeros(d0, s0)))
    rest = make_ordered_layout(layout.shape[1:], layout.stride[1:])
    return tiled_product(block, rest)
