"""Products: logical_product and its zipped / tiled / flat / blocked / raked forms, tile_to_shape.

``logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))``:
mode 0 is the block ``A``, mode 1 repeats it with ``B``'s arrangement.
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it, kinds
from .complement import complement
from .composition import composition
from .dispatch import operation
from .layout import MAJOR_TAGS, Layout, make_layout, make_ordered_layout, slice_, append, cosize, zip_layouts
from .tiler import by_mode, tile_unzip
from .divide import _repeat, _unpack_rest


@operation("logical_product")
def logical_product(block: Layout, tiler) -> Layout:
    """CuTe's ``logical_product(block, tiler)``: ``(block, tiler-arranged repeats)``.

    @post rank(result) == 2 for a layout tiler; result[0] == block
    (``logical_product(Layout, Sw o 0 o T)`` is registered in ``swizzle_layout.py``.)
    """
    if isinstance(tiler, Layout):
        if not isinstance(block, Layout):
            raise LayoutError(f"logical_product: {block!r} is not a layout")
        rest = complement(block, block.size() * cosize(tiler))
        repeats = composition(rest, tiler)
        if type(repeats) is Layout:  # make_layout(block, repeats) of two layouts: an untraced concatenation
            return Layout._make((block._shape, repeats._shape), (block._stride, repeats._stride))
        return make_layout(block, repeats)
    return by_mode(block, tiler, logical_product, "logical_product")


@operation("zipped_product")
def zipped_product(block: Layout, tiler) -> Layout:
    return tile_unzip(logical_product(block, tiler), tiler)


@operation("tiled_product")
def tiled_product(block: Layout, tiler) -> Layout:
    return _unpack_rest(zipped_product(block, tiler))


@operation("flat_product")
def flat_product(block: Layout, tiler) -> Layout:
    result = zipped_product(block, tiler)
    return slice_((_repeat(result[0].rank), _repeat(result[1].rank)), result)


def _rank_matched_product(block: Layout, tiler: Layout, name: str):
    if not isinstance(block, Layout) or not isinstance(tiler, Layout):
        raise LayoutError(f"{name} takes two layouts")
    r = max(block.rank, tiler.rank)
    return logical_product(append(block, n=r), append(tiler, n=r))


@operation("blocked_product")
def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Reproduce ``block`` over ``tiler``, block-major: mode i is ``(block_i, tiler_i)``.

    @post rank(result) == max(rank(block), rank(tiler))
    """
    result = _rank_matched_product(block, tiler, "blocked_product")
    return zip_layouts(result[0], result[1])


@operation("raked_product")
def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Reproduce ``block`` over ``tiler`` interleaved: mode i is ``(tiler_i, block_i)``."""
    result = _rank_matched_product(block, tiler, "raked_product")
    return zip_layouts(result[1], result[0])


def evenly_divides(shape, tiler) -> bool:
    """CuTe's ``evenly_divides``: the tiler's shape divides ``shape`` mode by mode."""
    if isinstance(tiler, tuple):
        if len(tiler) > it.rank(shape):
            return False
        return all(evenly_divides(s, t) for s, t in zip(it.wrap(shape), tiler))
    return it.product(shape) == it.product(tiler) * it.product(it.ceil_div(shape, tiler))


@operation("tile_to_shape")
def tile_to_shape(block: Layout, trg_shape, ord_shape=None) -> Layout:
    """Repeat ``block`` until it has shape ``trg_shape`` (modes tiled in ``ord_shape`` order).

    @pre rank(block) <= rank(trg_shape); each block mode divides the target mode
    @post compatible(trg_shape, shape(result))
    """
    args = (block, trg_shape) if ord_shape is None else (block, trg_shape, ord_shape)
    kinds.layout_like("tile_to_shape", args, 0)
    kinds.int_tuple("tile_to_shape", args, 1)
    if not isinstance(ord_shape, str):
        kinds.int_tuple("tile_to_shape", args, 2)
    if block.rank > it.rank(trg_shape):
        raise LayoutError(f"tile_to_shape({block}, {trg_shape}): Rank of layout must be <= rank of target shape.")
    r = it.rank(trg_shape)
    padded = append(block, n=r)
    block_shape = it.product_each(padded.shape)
    target_shape = it.product_each(trg_shape)
    if not evenly_divides(target_shape, block_shape):
        raise LayoutError(
            f"tile_to_shape: block shape does not divide the target shape ({block} into {trg_shape}).")
    product_shape = it.ceil_div(target_shape, block_shape)
    major = MAJOR_TAGS.get(ord_shape) if isinstance(ord_shape, str) else None
    if ord_shape is None or major == "LayoutLeft":
        order = Layout(product_shape)
    elif major == "LayoutRight":
        order = make_layout(product_shape, "LayoutRight")
    else:
        order = make_ordered_layout(product_shape, ord_shape)
    return blocked_product(padded, order)
