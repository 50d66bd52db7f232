"""upcast, downcast and recast_layout: change the granularity of a layout's codomain.

``upcast<N>`` (``cute/layout.hpp``) treats N consecutive offsets as one: per
mode, ``shape' = ceil_div(shape, ceil_div(N, |stride|))`` and
``stride' = sign(stride) * ceil_div(|stride|, N)``; static strides must divide
N or be divided by it ("Divisibility condition").  ``downcast<N>`` splits each
offset into N: stride-1 modes grow N times, other strides scale by N.
"""

from __future__ import annotations

from math import gcd
from typing import NamedTuple

from ..errors import LayoutError
from . import int_tuple as it
from .layout import Layout, has_empty_mode
from .numeric import sizeof_bits
from .dispatch import operation
from .hook import note, recording
from .integer import DynamicInt


def _require_no_empty_mode(layout: Layout, op: str) -> None:
    # CuTe transforms mode by mode and rebuilds each tuple with make_layout(...): of none, it does not compile
    if has_empty_mode(layout._shape):
        raise LayoutError(f"{op}({layout}): the layout has an empty mode (), and CuTe cannot make a layout "
                          f"of no modes (make_layout())")


def check_n(n, op: str):
    """@pre N is a positive integer (CuTe's ``upcast<N>``/``downcast<N>`` take a static positive N)."""
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise LayoutError(f"{op} requires a positive integer N, got {n!r}")


class UpcastMode(NamedTuple):
    """One flat mode through ``upcast<N>``: what CuTe computes for it (a derivation records one per mode)."""
    shape: int
    stride: int
    per_group: int | None     # ceil_div(N, |stride|): positions per group of N; None for stride 0 and run-time
    new_shape: int            # ceil_div(shape, per_group)
    new_stride: int           # sign(stride) * ceil_div(|stride|, N)


def upcast_mode(s: int, d: int, n: int) -> UpcastMode:
    """CuTe's ``upcast<N>`` arithmetic on one mode ``s:d`` with a static stride (stride 0 stays).

    @pre d is a Python int (the Divisibility condition is the caller's: :func:`upcast` checks it)
    """
    if d == 0:
        return UpcastMode(s, d, None, s, d)
    per_group = it.ceil_div(n, abs(d))
    return UpcastMode(s, d, per_group, it.ceil_div(s, per_group), it.signum(d) * it.ceil_div(abs(d), n))


def upcast_modes(layout: Layout, n: int) -> tuple:
    """The :class:`UpcastMode` of every flat mode of ``upcast<N>(layout)``, in flat order (the same checks)."""
    return tuple(_upcast(layout, n)[2])


@operation("upcast")
def upcast(layout: Layout, n: int) -> Layout:
    """CuTe's ``upcast<N>(layout)``.

    @pre every static non-zero stride d satisfies d % N == 0 or N % d == 0
    @result per mode: (ceil_div(s, ceil_div(N, |d|)) : sign(d) * ceil_div(|d|, N)); stride-0 modes unchanged;
            a run-time stride d gives (s : d / N), unchecked, as in CuTe
    """
    shape, stride, steps = _upcast(layout, n)
    if recording() is not None:  # building the details costs; only when a derivation asks
        note(n=n, modes=steps)
    return Layout._make(shape, stride)


def _upcast(layout: Layout, n: int):
    check_n(n, "upcast")
    if not isinstance(layout, Layout):
        raise LayoutError(f"upcast<{n}>: {layout!r} is not a layout")
    _require_no_empty_mode(layout, f"upcast<{n}>")
    steps = []

    def go(s, d):
        if isinstance(s, tuple):
            pairs = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        if not isinstance(d, int):
            raise LayoutError(f"upcast<{n}>({layout}): basis strides are not supported")
        if type(d) is DynamicInt:
            # CuTe: "Assume dynamic strides are larger than N and divisible" (its assert is commented
            # out): the extent stays, the stride is safe_div(stride, N), C++'s truncating division
            new_d = it.cdiv(d, n)
            steps.append(UpcastMode(s, d, None, s, new_d))
            return s, new_d
        if d != 0 and it.cmod(d, n) != 0 and it.cmod(n, d) != 0:
            raise LayoutError(
                f"upcast<{n}>({layout}): Divisibility condition violated: "
                f"stride {d} and N = {n} do not divide one another")
        mode = upcast_mode(s, d, n)
        steps.append(mode)
        return mode.new_shape, mode.new_stride

    shape, stride = go(layout.shape, layout.stride)
    return shape, stride, steps


def has_int1(stride) -> bool:
    """CuTe's ``has_int1``: some stride is a static 1 (a run-time 1 does not count)."""
    return any(d == 1 and type(d) is int for d in it.flatten_to_tuple(stride))


@operation("downcast")
def downcast(layout: Layout, n: int) -> Layout:
    """CuTe's ``downcast<N>(layout)``.

    @pre some stride is 1 ("Downcast requires adjacent elements")
    @result stride +-1 modes: (s*N : d); other modes: (s : d*N)
    """
    check_n(n, "downcast")
    if not isinstance(layout, Layout):
        raise LayoutError(f"downcast<{n}>: {layout!r} is not a layout")
    if not has_int1(layout.stride):
        raise LayoutError(f"downcast<{n}>({layout}): Downcast requires adjacent elements (a stride-1 mode)")
    _require_no_empty_mode(layout, f"downcast<{n}>")
    steps = []

    def go(s, d):
        if isinstance(s, tuple):
            pairs = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        if d in (1, -1) and type(d) is int:   # is_constant<1> / is_constant<-1>
            steps.append((s, d, s * n, d))
            return s * n, d
        steps.append((s, d, s, d * n))
        return s, d * n

    shape, stride = go(layout.shape, layout.stride)
    if recording() is not None:  # building the details costs; only when a derivation asks
        note(n=n, modes=steps)
    return Layout._make(shape, stride)


def recast_ratio(old_type, new_type) -> tuple[int, int]:
    """bits(new)/bits(old) reduced to (num, den), as CuTe's ``recast_layout`` computes its ``scale``."""
    new_bits, old_bits = sizeof_bits(new_type), sizeof_bits(old_type)
    g = gcd(new_bits, old_bits)
    return new_bits // g, old_bits // g


@operation("recast_layout")
def recast_layout(layout: Layout, old_type, new_type) -> Layout:
    """CuTe's ``recast_layout<OldType, NewType>``: the same bytes seen as ``new_type`` elements.

    Types are names (``"half_t"``, ``"uint32_t"``) or bit widths.
    With scale = bits(new)/bits(old) reduced to num/den: upcast<num> then downcast<den>.
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"recast_layout<{old_type},{new_type}>: {layout!r} is not a layout")
    num, den = recast_ratio(old_type, new_type)
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast(layout, den)
    if den == 1:
        return upcast(layout, num)
    return downcast(upcast(layout, num), den)
