"""Parametric layouts: CuTe's algebra over run-time extents named by parameters, with side conditions.

::

    from symcute.symbolic import parametric as P
    M, K = P.params("M K", multiple_of={"M": 128, "K": 32})
    A = P.layout((M, K), (K, 1))                       # make_layout(make_shape(M, K), make_stride(K, _1))
    T = P.zipped_divide(A, (128, 32))                  # ((128,32),(M/128,K/32)):((K,1),(128*K,32))
    T.subs({"M": 256, "K": 64})                        # the core Layout CuTe computes for M=256, K=64

The operations follow CuTe's run-time-integer code paths (see ``algebra``);
facts CuTe's value depends on are proved from the side conditions or refused
with the missing condition named.
"""

from .conditions import FactVerdict, Param, Params, parse_declaration
from .registry import params
from .layout import ParamLayout, dynamic, layout, lift, parse
from .algebra import (
    blocked_product, coalesce, complement, composition, downcast, filter, flat_divide, flat_product,
    left_inverse, logical_divide, logical_product, make_layout, raked_product, right_inverse, tiled_divide,
    tiled_product, upcast, with_shape, zipped_divide, zipped_product,
)

__all__ = [
    "FactVerdict", "Param", "Params", "parse_declaration", "params", "ParamLayout", "dynamic", "layout",
    "lift", "parse", "blocked_product", "coalesce", "complement", "composition", "downcast", "filter",
    "flat_divide", "flat_product", "left_inverse", "logical_divide", "logical_product", "make_layout",
    "raked_product", "right_inverse", "tiled_divide", "tiled_product", "upcast", "with_shape", "zipped_divide",
    "zipped_product",
]
