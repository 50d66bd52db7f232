"""The core layout algebra, registered in the expression language under CuTe's names.

Each entry adapts CuTe's C++ calling forms to a Python call: template
arguments arrive after the call's arguments (``get<1>(L)`` is ``get(L, 1)``),
so every CuTe spelling of a call maps onto one function.
"""

from __future__ import annotations

from ..core import int_tuple as it
from ..core.coalesce import coalesce, filter, filter_zeros
from ..core.common import max_common_layout, max_common_vector, nullspace
from ..core.complement import complement
from ..core.composed import ComposedLayout
from ..core.composition import composition
from ..core.divide import flat_divide, logical_divide, tiled_divide, zipped_divide
from ..core.fragment import make_fragment_like
from ..core.inverse import left_inverse, right_inverse
from ..core.tensor import (
    Tensor, dice, inner_partition, local_partition, local_tile, make_identity_tensor, outer_partition, recast,
)
from ..core.layout import (
    Layout, append, cosize, flatten, group, make_identity_layout, make_layout, make_layout_like,
    make_ordered_layout, prepend, select, take,
)
from ..core.products import (
    blocked_product, flat_product, logical_product, raked_product, tile_to_shape, tiled_product, zipped_product,
)
from ..core.numeric import known_types
from ..core.recast import downcast, recast_layout, upcast
from ..core.swizzle import Swizzle
from ..errors import LayoutError
from ..core.pointer import make_gmem_ptr, make_rmem_ptr, make_smem_ptr, make_tmem_ptr
from .language import TypeName
from .registry import REGISTRY, register_function, register_method


def _layout(x, fn: str) -> Layout:
    if isinstance(x, (Layout, ComposedLayout)):
        return x
    if isinstance(x, (int, tuple)) and not isinstance(x, bool):
        return Layout(x)  # CuTe functions taking a layout accept a shape as make_layout(shape)
    raise LayoutError(f"{fn}: expected a layout, got {x}")


def _swizzle_or_layout(x, fn: str | None):
    """CuTe's composition takes a Swizzle on either side (``composition(Swizzle<3,4,3>{}, L)``)."""
    if isinstance(x, Swizzle):
        return x
    return _layout(x, fn) if fn is not None else x


def _type(x) -> str | int:
    return str(x) if isinstance(x, TypeName) else x


def _mode(l, *path):
    return l[path] if path else l


def _make_layout(*args):
    args = [str(a) if isinstance(a, TypeName) else a for a in args]
    return make_layout(*args)


def _size(x, *path):
    if isinstance(x, (Layout, ComposedLayout)):
        return (x[path] if path else x).size()
    t = x
    for i in path:
        t = t[i]
    return it.product(t)


def _shape(x, *path):
    s = x.shape if isinstance(x, (Layout, ComposedLayout)) else x
    for i in path:
        s = s[i] if isinstance(s, tuple) else s
    return s


def _stride(x, *path):
    d = x.stride
    for i in path:
        d = d[i] if isinstance(d, tuple) else d
    return d


def _rank(x, *path):
    return _mode(x, *path).rank if isinstance(x, Layout) else it.rank(_shape(x, *path))


def _depth(x, *path):
    return _mode(x, *path).depth if isinstance(x, Layout) else it.depth(_shape(x, *path))


def _append(l, *rest):
    # append(L, x) | append<N>(L) | append<N>(L, x): the template N arrives last
    if len(rest) == 1 and isinstance(rest[0], int):
        return append(l, None, rest[0])
    if len(rest) == 2:
        return append(l, rest[0], rest[1])
    return append(l, *rest)


def _prepend(l, *rest):
    if len(rest) == 1 and isinstance(rest[0], int):
        return prepend(l, None, rest[0])
    if len(rest) == 2:
        return prepend(l, rest[0], rest[1])
    return prepend(l, *rest)


def _tuple(*xs):
    return tuple(xs)


def _with_shape(l, *shape):
    return l.with_shape(*shape)


_TABLE = {
    "make_layout": _make_layout,
    "make_shape": _tuple, "make_stride": _tuple, "make_tile": _tuple, "make_coord": _tuple,
    "make_step": _tuple, "make_tuple": _tuple,
    "make_ordered_layout": make_ordered_layout,
    "make_layout_like": make_layout_like,
    "make_identity_layout": make_identity_layout,
    "coalesce": lambda l, *p: coalesce(_layout(l, "coalesce"), *p),
    "filter": lambda l, *p: filter(_layout(l, "filter"), *p),
    "filter_zeros": lambda l, *p: filter_zeros(_layout(l, "filter_zeros"), *p),
    "composition": lambda a, b: composition(_swizzle_or_layout(a, "composition"), _swizzle_or_layout(b, None)),
    "complement": lambda l, *c: complement(_layout(l, "complement"), *c),
    "right_inverse": lambda l: right_inverse(_layout(l, "right_inverse")),
    "left_inverse": lambda l: left_inverse(_layout(l, "left_inverse")),
    "upcast": lambda l, n: upcast(_layout(l, "upcast"), n),
    "downcast": lambda l, n: downcast(_layout(l, "downcast"), n),
    "recast_layout": lambda l, old, new: recast_layout(_layout(l, "recast_layout"), _type(old), _type(new)),
    "logical_divide": logical_divide, "zipped_divide": zipped_divide,
    "tiled_divide": tiled_divide, "flat_divide": flat_divide,
    "logical_product": logical_product, "zipped_product": zipped_product,
    "tiled_product": tiled_product, "flat_product": flat_product,
    "blocked_product": blocked_product, "raked_product": raked_product,
    "tile_to_shape": lambda l, s, *o: tile_to_shape(_layout(l, "tile_to_shape"), s, *(_type(x) for x in o)),
    "max_common_layout": max_common_layout, "max_common_vector": max_common_vector,
    "nullspace": nullspace,
    "size": _size, "cosize": lambda l, *p: cosize(_mode(l, *p)),
    "rank": _rank, "depth": _depth, "shape": _shape, "stride": _stride,
    "get": _mode, "layout": _mode,
    "select": lambda l, *m: select(l, *m),
    "take": lambda l, b, e: take(l, b, e),
    "group": lambda l, b, e: group(l, b, e),
    "flatten": flatten,
    "append": _append, "prepend": _prepend,
    "product": it.product,
    "product_each": it.product_each,
    "ceil_div": it.ceil_div, "shape_div": it.shape_div,
}

for _name, _fn in _TABLE.items():
    register_function(_name, _fn, identifiers=_name in ("recast_layout", "make_layout"))  # value types, LayoutRight

for _cls in (Layout, ComposedLayout):
    register_method(_cls, "with_shape", _with_shape)

    register_method(_cls, "compose", lambda l, *o: l.compose(*o))
    register_method(_cls, "tile", lambda l, *o: l.tile(*o))

def _pointer(maker, name: str):
    """``make_smem_ptr<T>(offset = 0[, Swizzle])`` and the others: a typed pointer at ``offset`` elements
    from address 0 (C++ spells it ``make_smem_ptr((T*)nullptr + offset)``)."""
    def fn(*args):
        types = [a for a in args if isinstance(a, TypeName)]
        rest = [a for a in args if not isinstance(a, TypeName)]
        swizzles = [a for a in rest if isinstance(a, Swizzle)]
        offsets = [a for a in rest if not isinstance(a, Swizzle)]
        if len(types) != 1 or len(offsets) > 1 or (swizzles and name != "make_smem_ptr") or len(swizzles) > 1:
            raise LayoutError(f"{name}: expected {name}<T>(offset){' or ' + name + '<T>(offset, Swizzle<B,M,S>{})' if name == 'make_smem_ptr' else ''}, "
                              f"got {len(types)} value types and {len(rest)} arguments")
        off = offsets[0] if offsets else 0
        if isinstance(off, bool) or not isinstance(off, int):
            raise LayoutError(f"{name}<{types[0]}>: the offset {off!r} is not an integer")
        if swizzles:
            return maker(str(types[0]), off, swizzles[0])
        return maker(str(types[0]), off)
    return fn


for _name, _maker in {"make_gmem_ptr": make_gmem_ptr, "make_smem_ptr": make_smem_ptr, "make_rmem_ptr": make_rmem_ptr,
                      "make_tmem_ptr": make_tmem_ptr}.items():
    register_function(_name, _pointer(_maker, _name), identifiers=True)
register_function("recast", lambda t, new: recast(t, _type(new)), identifiers=True)

# tensors: partitions return them, as CuTe's do (a layout and where it starts)
for _name, _fn in {"local_tile": local_tile, "local_partition": local_partition, "inner_partition": inner_partition,
                   "outer_partition": outer_partition, "dice": dice, "make_identity_tensor": make_identity_tensor,
                   "make_fragment_like": make_fragment_like}.items():
    register_function(_name, _fn)
register_method(Tensor, "layout", lambda t: t.layout())
register_method(Tensor, "data", lambda t: t.data())
register_method(Tensor, "shape", lambda t: t.shape)
register_method(Tensor, "size", lambda t: t.size())


def _value_type(name: str) -> bool:
    """``cute::half_t``, ``cutlass::half_t``, ``std::int32_t``: a value type under a namespace."""
    for prefix in ("cute::", "cutlass::", "std::"):
        if name.startswith(prefix):
            return _value_type(name[len(prefix):])
    return name in _VALUE_TYPES


_VALUE_TYPES = frozenset(known_types()) | {"complex"}
# the value types (sizeof_bits), the templates of C++ values, and make_layout's major-ness tags
REGISTRY.register_type_names(
    _VALUE_TYPES | {"Shape", "Stride", "Step", "Coord", "Tile", "tuple", "Int", "C", "Layout", "Swizzle",
                    "Underscore", "LayoutLeft", "LayoutRight", "GenColMajor", "GenRowMajor"}, test=_value_type)
