"""How CuTe applies a tiler (a layout, an int, ``_`` or a tuple of those) mode by mode.

Shared by the divides and products: ``transform_layout`` keeps the modes of the
layout that the tiler does not reach, and ``tile_unzip``/``zip2_by`` gathers the
rank-2 results at the tiler's leaves into ``((tiles...), (rests..., extra...))``.
"""

from __future__ import annotations

from ..errors import LayoutError
from .dispatch import operation
from .layout import Layout, Underscore, format_int_tuple


def is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def by_mode(layout: Layout, tiler, op, name: str) -> Layout:
    """Apply ``op`` to a non-layout tiler the way CuTe's divides and products do."""
    if not isinstance(layout, Layout):
        raise LayoutError(f"{name}: {layout!r} is not a layout")
    if isinstance(tiler, tuple):
        if len(tiler) > layout.rank:
            raise LayoutError(
                f"{name}: Too many modes in tiler: {len(tiler)} modes for layout {layout} of rank {layout.rank}")
        modes = layout.modes()
        out = [op(modes[i], t) for i, t in enumerate(tiler)] + modes[len(tiler):]
        for i, m in enumerate(out):
            if not isinstance(m, Layout):   # a ComposedLayout from a swizzled tiler mode
                raise LayoutError(f"{name}: mode {i} of the tiler {format_int_tuple(tiler)} gives {m}, no Layout; "
                                  f"CuTe's transform_layout makes one layout of the modes (make_layout of layouts)")
        return Layout._make(tuple(m.shape for m in out), tuple(m.stride for m in out))
    if isinstance(tiler, Underscore):
        return layout
    if is_int(tiler):
        return op(layout, Layout(tiler))
    raise LayoutError(f"{name}: tiler {tiler!r} is not a layout, an int, _ or a tuple of those")


def zip2_by(t, guide):
    """CuTe's ``zip2_by``: ``((A,a),((B,b),(C,c)),d)`` by ``(X,(X,X))`` -> ``((A,(B,C)),(a,(b,c),d))``."""
    if isinstance(guide, tuple):
        if not isinstance(t, tuple) or len(t) < len(guide):
            raise LayoutError(f"zip2_by: Mismatched ranks, {format_int_tuple(t)} by a tiler of {len(guide)} modes")
        split = [zip2_by(t[i], g) for i, g in enumerate(guide)]
        return (tuple(s[0] for s in split), tuple(s[1] for s in split) + t[len(guide):])
    if not isinstance(t, tuple) or len(t) != 2:
        raise LayoutError(f"zip2_by: Mismatched ranks, {format_int_tuple(t)} is not a rank-2 (tile, rest) pair")
    return t


@operation()
def tile_unzip(layout: Layout, tiler) -> Layout:
    """CuTe's ``tile_unzip``: the rank-2 results at the tiler's leaves as ``((tiles...), (rests..., extra...))``."""
    return Layout._make(zip2_by(layout.shape, tiler), zip2_by(layout.stride, tiler))
