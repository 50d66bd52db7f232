"""symcute.core: CuTe's layout algebra on Python ints, with CuTe's names and semantics.

The single source of truth for values; it never imports SymPy.
"""

from .basis import ArithmeticTuple, ScaledBasis
from .coalesce import coalesce, filter, filter_zeros
from .code import to_cpp, to_dsl
from .common import max_common_layout, max_common_vector, nullspace
from .complement import complement
from .composed import ComposedLayout
from .composition import composition
from .fragment import make_fragment_like
from .integer import DynamicInt, is_static
from .divide import flat_divide, logical_divide, tiled_divide, zipped_divide
from .int_tuple import (
    ceil_div, compact_col_major, compact_row_major, compatible, congruent, crd2idx, elem_scale, idx2crd, inner_product,
    product, product_each, shape_div, weakly_congruent,
)
from .tuple_algorithms import (
    back, colex_less, elem_geq, elem_gtr, elem_leq, elem_less, flatten_to_tuple, fold, fold_first, front, lex_less,
    repeat, repeat_like, reverse, transform, transform_leaf, unwrap, wrap,
)
from .inverse import left_inverse, right_inverse
from .layout import (
    Layout, Underscore, _, append, coshape, cosize, depth, domain_offset, flatten, get, group, make_identity_layout,
    make_layout, make_layout_like, make_ordered_layout, prepend, rank, select, shape, size, slice_,
    slice_and_offset, stride, take, unflatten, zip_layouts,
)
from .numeric import sizeof_bits
from .parse import parse_int_tuple, parse_layout
from .products import (
    blocked_product, flat_product, logical_product, raked_product, tile_to_shape, tiled_product, zipped_product,
)
from .recast import downcast, recast_layout, upcast
from .swizzle import Swizzle, make_swizzle
from .swizzle_layout import get_nonswizzle_portion, get_swizzle_portion
from .tensor import (
    Tensor, dice, inner_partition, local_partition, local_tile, make_identity_tensor, make_tensor, outer_partition,
)
from . import layout_composed  # noqa: F401  (registers the ComposedLayout overloads, CuTe's layout_composed.hpp)

__all__ = [
    "ArithmeticTuple",
    "ScaledBasis",
    "coalesce",
    "filter",
    "filter_zeros",
    "to_cpp",
    "to_dsl",
    "max_common_layout",
    "max_common_vector",
    "nullspace",
    "complement",
    "ComposedLayout",
    "composition",
    "flat_divide",
    "logical_divide",
    "tiled_divide",
    "zipped_divide",
    "ceil_div",
    "compact_col_major",
    "compact_row_major",
    "crd2idx",
    "idx2crd",
    "product",
    "shape_div",
    "compatible",
    "congruent",
    "weakly_congruent",
    "elem_scale",
    "inner_product",
    "product_each",
    "back",
    "front",
    "colex_less",
    "lex_less",
    "elem_less",
    "elem_leq",
    "elem_gtr",
    "elem_geq",
    "flatten_to_tuple",
    "fold",
    "fold_first",
    "repeat",
    "repeat_like",
    "reverse",
    "transform",
    "transform_leaf",
    "wrap",
    "unwrap",
    "unflatten",
    "coshape",
    "left_inverse",
    "right_inverse",
    "Layout",
    "Underscore",
    "_",
    "append",
    "cosize",
    "depth",
    "flatten",
    "get",
    "group",
    "make_identity_layout",
    "make_layout",
    "make_layout_like",
    "make_ordered_layout",
    "prepend",
    "rank",
    "select",
    "shape",
    "size",
    "slice_",
    "slice_and_offset",
    "domain_offset",
    "stride",
    "take",
    "zip_layouts",
    "sizeof_bits",
    "parse_int_tuple",
    "parse_layout",
    "blocked_product",
    "flat_product",
    "logical_product",
    "raked_product",
    "tile_to_shape",
    "tiled_product",
    "zipped_product",
    "downcast",
    "recast_layout",
    "upcast",
    "Swizzle",
    "make_swizzle",
    "get_swizzle_portion",
    "get_nonswizzle_portion",
    "make_fragment_like",
    "DynamicInt",
    "is_static",
    "Tensor",
    "dice",
    "inner_partition",
    "outer_partition",
    "local_tile",
    "local_partition",
    "make_tensor",
    "make_identity_tensor",
]
