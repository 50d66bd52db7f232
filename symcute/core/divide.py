"""Divides: logical_divide and its zipped / tiled / flat rearrangements (``cute/layout.hpp``).

``logical_divide(L, T) = composition(L, make_layout(T, complement(T, shape(coalesce(L)))))``:
mode 0 of the result walks one tile, mode 1 walks the tiles.
"""

from __future__ import annotations

from ..errors import LayoutError
from .complement import complement
from .composition import composition
from .coalesce import coalesce
from .composed import ComposedLayout
from .dispatch import member, operation
from .layout import Layout, slice_, _
from .tiler import by_mode, tile_unzip


@operation("logical_divide")
def logical_divide(layout: Layout, tiler) -> Layout:
    """CuTe's ``logical_divide(layout, tiler)``: ``((tile), (rest))`` for a layout tiler.

    A tiler tuple divides mode by mode (extra modes of ``layout`` are kept);
    an int ``n`` means the tile ``n:1``; ``_`` keeps the mode.
    @post rank(result) == 2 for a layout tiler, and result(c) == layout(c') on the same domain
    """
    if isinstance(tiler, Layout):
        if not isinstance(layout, Layout):
            raise LayoutError(f"logical_divide: {layout!r} is not a layout")
        rest = complement(tiler, coalesce(layout).shape)
        # make_layout(tiler, rest), both layouts (an untraced concatenation)
        return composition(layout, Layout._make((tiler._shape, rest._shape), (tiler._stride, rest._stride)))
    return by_mode(layout, tiler, logical_divide, "logical_divide")


@operation("zipped_divide")
def zipped_divide(layout: Layout, tiler) -> Layout:
    """``((TILE_0, TILE_1, ...), (REST_0, REST_1, ..., extra modes))``."""
    return tile_unzip(logical_divide(layout, tiler), tiler)


@operation("tiled_divide")
def tiled_divide(layout: Layout, tiler) -> Layout:
    """``((TILE_0, TILE_1, ...), REST_0, REST_1, ...)``: zipped_divide with mode 1 unpacked."""
    return _unpack_rest(zipped_divide(layout, tiler))


@operation("flat_divide")
def flat_divide(layout: Layout, tiler) -> Layout:
    """``(TILE_0, TILE_1, ..., REST_0, REST_1, ...)``: zipped_divide with both modes unpacked."""
    result = zipped_divide(layout, tiler)
    return slice_((_repeat(result[0].rank), _repeat(result[1].rank)), result)


@member(Layout, ComposedLayout)
def tile(self, *tilers):
    """CuTe's ``Layout::tile``: ``tiled_divide(*this, tilers)``."""
    return tiled_divide(self, tilers[0] if len(tilers) == 1 else tuple(tilers))


def _unpack_rest(result: Layout) -> Layout:
    """CuTe's ``result(_, repeat<rank<1>(result)>(_))`` for a zipped ``((tiles), (rests))``: mode 1 unpacked.

    (Mode 1 of rank 1 stays one mode, a 1-tuple included: ``repeat<1>(_)`` is ``_`` itself.)
    """
    if type(result) is not Layout:  # a swizzled product: the slice goes through its ComposedLayout overload
        return slice_((_, _repeat(result[1].rank)), result)
    tiles, rests = result._shape
    tile_strides, rest_strides = result._stride
    if type(rests) is tuple and len(rests) != 1:
        return Layout._make((tiles,) + rests, (tile_strides,) + rest_strides)
    return Layout._make((tiles, rests), (tile_strides, rest_strides))


def _repeat(n: int):
    """CuTe's ``repeat<N>(_)``: ``_`` itself for N == 1."""
    return _ if n == 1 else (_,) * n
