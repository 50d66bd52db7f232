"""Turn CuTe notation into C++ that builds the same value in real CuTe.

Contract: for every text ``t`` that :func:`symcute.oracle.notation.parse`
accepts, ``print(<cpp_value(t)>)`` in CuTe prints ``t`` back (static-int
underscores aside, and up to spaces: CuTe writes ``(a,b)`` and `` o ``).

* :func:`cpp_value` / :func:`cpp_type`: the fully *static* value (every
  integer a ``cute::C<...>`` type), so CuTe checks its preconditions at
  compile time, as in its unit tests: ``Type{}`` / ``Type``;
* :func:`cpp_dynamic`: the same value with run-time integers
  (``cute::make_layout(cute::make_tuple(4,8), ...)``);
* :func:`cpp_as_printed`: static where the text says ``_4``, dynamic where it
  says ``4``, exactly as CuTe's ``print`` distinguishes them, so pasting
  CuTe's output (underscores kept) rebuilds the very same C++ types;
* :func:`cpp_call`: ``cute::op(arg, ...)`` from notation arguments.

Swizzle parameters and scaled-basis modes are template arguments and always
static; :func:`cpp_dynamic` also keeps a composed layout's offset static,
because CuTe's swizzle algebra asserts a static zero offset.

Integers that do not fit ``int`` become ``cute::C<int64_t{...}>`` (or
``uint64_t`` above ``INT64_MAX``); CuTe prints those with ``%ld``/``%lu``,
so the digits round-trip unchanged. Booleans are not accepted.
"""

from __future__ import annotations

import re
from typing import Callable

from symcute.errors import ParseError
from symcute.oracle.notation import Basis, Composed, Dyn, Lay, Node, Swz, Tup, Under, parse

_INT32 = (-(2**31) + 1, 2**31 - 1)  # -2**31 itself would need a cast inside Int<>
_INT64 = (-(2**63) + 1, 2**63 - 1)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def cpp_type(text: str | Node) -> str:
    """The C++ type of the static CuTe value written ``text`` (or an already parsed node)."""
    node = parse(text) if isinstance(text, str) else text
    return _type(node, role="tuple")


def cpp_value(text: str | Node) -> str:
    """A C++ expression (``Type{}``) of the static CuTe value written ``text``."""
    return cpp_type(text) + "{}"


def cpp_dynamic(text: str | Node) -> str:
    """A C++ expression building ``text`` with dynamic (run-time) integers."""
    node = parse(text) if isinstance(text, str) else text
    return _expr(node, lambda value: False)


def cpp_as_printed(text: str) -> str:
    """A C++ expression with ``_N`` static and ``N`` dynamic, as CuTe's ``print`` marks them."""
    return _expr(parse(text, mark_dynamic=True), lambda value: not isinstance(value, Dyn))


def cpp_call(function: str, *args: str | Node, dynamic: bool = False) -> str:
    """``cute::function(arg1, arg2, ...)`` with each argument converted from CuTe notation.

    ``cpp_call("complement", "(2,2):(1,2)", "16")`` builds the call CuTe's own
    unit tests make. ``function`` must be a plain identifier (it is pasted into
    C++); arguments are static values unless ``dynamic``.
    """
    if not _IDENTIFIER.fullmatch(function):
        raise ValueError(f"not a C++ function name: {function!r}")
    convert = cpp_dynamic if dynamic else cpp_value
    return f"cute::{function}(" + ", ".join(convert(arg) for arg in args) + ")"


def _static_int(value: int) -> str:
    value = int(value)
    if _INT32[0] <= value <= _INT32[1]:
        return f"cute::Int<{value}>"
    if _INT64[0] <= value <= _INT64[1]:
        return f"cute::C<int64_t{{{value}}}>"
    if 0 <= value < 2**64:
        return f"cute::C<uint64_t{{{value}ull}}>"
    raise ParseError(f"integer {value} does not fit a 64-bit C++ integer")


def _dynamic_int(value: int) -> tuple[str, str]:
    """(C++ type, C++ literal) of a run-time integer."""
    value = int(value)
    if _INT32[0] <= value <= _INT32[1]:
        return "int", str(value)
    if _INT64[0] <= value <= _INT64[1]:
        return "int64_t", f"int64_t{{{value}}}"
    if 0 <= value < 2**64:
        return "uint64_t", f"uint64_t{{{value}ull}}"
    raise ParseError(f"integer {value} does not fit a 64-bit C++ integer")


# Only readability: CuTe's Shape, Stride and Tile are all cute::tuple.
_TUPLE_ALIAS = {"shape": "cute::Shape", "stride": "cute::Stride", "tuple": "cute::tuple"}


def _type(node: Node, role: str) -> str:
    if isinstance(node, bool):
        raise ParseError("booleans are not CuTe notation")
    if isinstance(node, int):
        return _static_int(node)
    if isinstance(node, Basis):
        modes = "".join(f",{m}" for m in node.modes)
        return f"cute::ScaledBasis<{_static_int(node.value)}{modes}>"
    if isinstance(node, Under):
        return "cute::Underscore"
    if isinstance(node, Tup):
        items = ",".join(_type(item, role) for item in node.items)
        return f"{_TUPLE_ALIAS[role]}<{items}>"
    if isinstance(node, Lay):
        return f"cute::Layout<{_type(node.shape, 'shape')},{_type(node.stride, 'stride')}>"
    if isinstance(node, Swz):
        return f"cute::Swizzle<{node.bits},{node.base},{node.shift}>"
    if isinstance(node, Composed):
        parts = (_type(node.outer, "tuple"), _type(node.offset, "tuple"), _type(node.inner, "tuple"))
        return "cute::ComposedLayout<" + ",".join(parts) + ">"
    raise TypeError(f"not a CuTe notation node: {node!r}")


def _expr(node: Node, is_static: Callable[[int], bool], offset: bool = False) -> str:
    """An expression; integers for which ``is_static`` is false are run-time values."""
    if isinstance(node, bool):
        raise ParseError("booleans are not CuTe notation")
    if isinstance(node, int):
        if is_static(node) or (offset and not isinstance(node, Dyn)):
            return _static_int(node) + "{}"
        return _dynamic_int(node)[1]
    if isinstance(node, Basis):
        modes = "".join(f",{m}" for m in node.modes)
        if is_static(node.value):
            return f"cute::ScaledBasis<{_static_int(node.value)}{modes}>{{}}"
        kind, literal = _dynamic_int(node.value)
        return f"cute::ScaledBasis<{kind}{modes}>{{{literal}}}"
    if isinstance(node, Under):
        return "cute::_"
    if isinstance(node, Tup):
        return "cute::make_tuple(" + ",".join(_expr(item, is_static, offset) for item in node.items) + ")"
    if isinstance(node, Lay):
        return f"cute::make_layout({_expr(node.shape, is_static)},{_expr(node.stride, is_static)})"
    if isinstance(node, Swz):
        return _type(node, "tuple") + "{}"
    if isinstance(node, Composed):
        parts = (_expr(node.outer, is_static), _expr(node.offset, is_static, offset=True), _expr(node.inner, is_static))
        return "cute::make_composed_layout(" + ",".join(parts) + ")"
    raise TypeError(f"not a CuTe notation node: {node!r}")
