"""Byte addresses of a (thread, value) access over a shared- or global-memory layout.

A thread's address is ``smem_layout(tv_layout(t, v))`` times the element size.
This module evaluates that composition for every (t, v) at once with numpy,
by the same rule as ``Layout.__call__`` (``crd2idx(idx2crd(i, shape), shape,
stride)``: the flat modes in order, the last one unreduced) and
``Swizzle.__call__``; tests compare it with core's evaluation.

Two kinds of swizzled layouts exist in CuTe and are kept apart:

* ``Sw<B,M,S> o k o L`` with an integer offset: the swizzle acts on element
  offsets (CUTLASS's SM80 ``composition(Swizzle<3,3,3>{}, Layout<...>{})``);
* ``Sw<B,M,S> o smem_ptr[b](unset) o L`` (GMMA's layout atoms): a tensor of
  it moves the swizzle onto the pointer, which ``swizzle_ptr::apply_swizzle``
  applies to the *byte* address (``cute/pointer_swizzle.hpp``).  The smem
  base is assumed aligned to the swizzle's period, as CUTLASS requires.
"""

from __future__ import annotations

import numpy as np

from ..core import ComposedLayout, Layout, Swizzle
from ..core import int_tuple as it
from ..core.composed import SmemPtrFlag
from ..errors import LayoutError


def _layout_eval(layout: Layout, idx: np.ndarray) -> np.ndarray:
    shape, stride = layout.shape, layout.stride
    fs, fd = it.flatten_to_tuple(shape), it.flatten_to_tuple(stride)
    if not all(type(d) is int for d in fd):
        raise LayoutError(f"memory analysis: layout {layout} has basis strides, not memory offsets")
    total = np.zeros_like(idx)
    rest = idx
    for s, d in zip(fs[:-1], fd[:-1]):
        if s == 1:
            continue
        if s > 0 and s & (s - 1) == 0:   # floor divmod by a power of two (negative indices included)
            r, rest = rest & (s - 1), rest >> (s.bit_length() - 1)
        else:
            rest, r = np.divmod(rest, s)
        if d:
            total += r * d
    return total + rest * fd[-1]


def _swizzle_eval(sw: Swizzle, x: np.ndarray) -> np.ndarray:
    y = x & sw.yyy_msk
    return x ^ (y >> sw.shift if sw.shift >= 0 else y << -sw.shift)


def _function_eval(f, x: np.ndarray) -> np.ndarray:
    if isinstance(f, Swizzle):
        return _swizzle_eval(f, x)
    if isinstance(f, Layout):
        return _layout_eval(f, x)
    if isinstance(f, ComposedLayout):
        return element_offsets(f, x)
    raise LayoutError(f"memory analysis: cannot evaluate {f!r} as a function on offsets")


def element_offsets(layout, idx: np.ndarray) -> np.ndarray:
    """``layout(i)`` for every ``i`` of ``idx`` (the smem_ptr flag counts as the offset 0)."""
    if isinstance(layout, Layout):
        return _layout_eval(layout, idx)
    if isinstance(layout, ComposedLayout):
        inner = _function_eval(layout.inner, idx)
        return _function_eval(layout.outer, int(layout.offset) + inner)
    raise LayoutError(f"memory analysis: expected a Layout or a swizzled ComposedLayout, got {layout!r}")


def _pointer_swizzle(layout):
    """``(swizzle, inner)`` when ``layout`` is ``Sw o smem_ptr[b] o inner`` (the swizzle is on bytes)."""
    if isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag) \
            and isinstance(layout.outer, Swizzle):
        return layout.outer, layout.inner
    return None


def bit_addresses(layout, value_bits: int, idx: np.ndarray) -> np.ndarray:
    """Bit address of element ``idx`` (tile index) under ``layout`` with elements of ``value_bits``.

    A plain or element-swizzled layout gives ``layout(i) * value_bits``; a
    pointer-swizzled layout swizzles the byte address of each whole byte (a
    sub-byte element keeps its bit offset inside its byte).
    """
    ps = _pointer_swizzle(layout)
    if ps is None:
        return element_offsets(layout, idx) * value_bits
    sw, inner = ps
    bits = element_offsets(inner, idx) * value_bits
    byte, sub = np.divmod(bits, 8)
    return _swizzle_eval(sw, byte) * 8 + sub
