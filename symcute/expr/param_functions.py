"""The expression language over parametric layouts (``symcute calc ... --param M:128``).

A declared parameter is a variable whose value is its SymPy symbol; a layout
literal with such leaves is a :class:`~symcute.symbolic.parametric.ParamLayout`;
a call with a parametric argument goes to the parametric operation of the same
CuTe name (CuTe's run-time-integer code path), and a name with no parametric
counterpart is refused with the list of those that have one.
"""

from __future__ import annotations

import sympy

from ..errors import LayoutError
from ..symbolic import parametric as P
from ..symbolic.parametric import tensor as PT

FUNCTIONS = {
    name: getattr(P, name) for name in (
        "coalesce", "filter", "composition", "complement", "logical_divide", "zipped_divide", "tiled_divide",
        "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
        "raked_product", "upcast", "downcast", "right_inverse", "left_inverse", "make_layout", "with_shape")
}
FUNCTIONS["local_tile"] = PT.local_tile
FUNCTIONS["size"] = lambda L: L.params.user(_expr(L.size()))
FUNCTIONS["cosize"] = lambda L: L.params.user(_expr(L.cosize()))
METHODS = {"with_shape": lambda L, *shape: P.with_shape(L, shape if len(shape) != 1 else shape[0]),
           "size": FUNCTIONS["size"], "cosize": FUNCTIONS["cosize"]}


def _expr(x):
    return sympy.Integer(x) if type(x) is int else x


def is_parametric(v) -> bool:
    if isinstance(v, (P.ParamLayout, PT.ParamTensor)):
        return True
    if isinstance(v, sympy.Basic):
        return bool(v.free_symbols)
    if isinstance(v, tuple):
        return any(is_parametric(x) for x in v)
    return False


def call(name: str, values: list):
    fn = FUNCTIONS.get(name)
    if fn is None:
        raise LayoutError(f"{name} is not available on parametric layouts; these are: {', '.join(sorted(FUNCTIONS))}")
    return fn(*values)


def method(name: str, target, values: list):
    fn = METHODS.get(name)
    if fn is None:
        raise LayoutError(f"parametric layouts have no method {name!r}; they have: {', '.join(sorted(METHODS))}")
    return fn(target, *values)


def arith(op: str, a, b):
    for v in (a, b):
        if isinstance(v, bool) or not isinstance(v, (int, sympy.Expr)):
            raise LayoutError(f"expected an integer or a parameter expression, got {v}")
    return a * b if op == "*" else a + b if op == "+" else a - b


def layout(shape, stride):
    return P.layout(shape, stride)
