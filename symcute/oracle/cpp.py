"""Turn CuTe notation into C++ that builds the same value in real CuTe.

Contract: for every text ``t`` that :func:`symcute.oracle.notation.parse`
accepts, ``print(<cpp_value(t)>)`` in CuTe prints ``t`` back (static-int
underscores aside, and up to CuTe's own spacing ``" o "``). The value is fully
static: every integer is a ``cute::C<...>`` type, so CuTe checks its
preconditions at compile time, as in its unit tests.

* :func:`cpp_type` gives the C++ type (``cute::Layout<cute::Shape<...>,...>``);
* :func:`cpp_value` gives an expression, the type followed by ``{}``;
* :func:`cpp_dynamic` gives the same value with run-time (dynamic) integers
  (``cute::make_layout(cute::make_shape(4,8), ...)``); swizzle parameters and
  scaled-basis modes stay static because CuTe has no dynamic form for them.

Integers that do not fit ``int`` become ``cute::C<int64_t{...}>`` (or
``uint64_t`` above ``INT64_MAX``); CuTe's ``print`` shows those with ``%ld`` /
``%lu``, so the digits round-trip unchanged.
"""

from __future__ import annotations

import re

from symcute.errors import ParseError
from symcute.oracle.notation import Basis, Composed, Lay, Node, Swz, Tup, Under, parse

_INT32 = (-(2**31) + 1, 2**31 - 1)  # -2**31 itself would need a cast inside Int<>
_INT64 = (-(2**63) + 1, 2**63 - 1)


def cpp_type(text: str | Node) -> str:
    """The C++ type of the static CuTe value written ``text`` (or an already parsed node)."""
    node = parse(text) if isinstance(text, str) else text
    return _type(node, role="tuple")


def cpp_value(text: str | Node) -> str:
    """A C++ expression (``Type{}``) of the static CuTe value written ``text``."""
    return cpp_type(text) + "{}"


def cpp_dynamic(text: str | Node) -> str:
    """A C++ expression building ``text`` with dynamic (run-time ``int``/``int64_t``) integers."""
    node = parse(text) if isinstance(text, str) else text
    return _dynamic(node)


def _static_int(value: int) -> str:
    if _INT32[0] <= value <= _INT32[1]:
        return f"cute::Int<{value}>"
    if _INT64[0] <= value <= _INT64[1]:
        return f"cute::C<int64_t{{{value}}}>"
    if 0 <= value < 2**64:
        return f"cute::C<uint64_t{{{value}ull}}>"
    raise ParseError(f"integer {value} does not fit a 64-bit C++ integer")


def _dynamic_int(value: int) -> str:
    if _INT32[0] <= value <= _INT32[1]:
        return str(value)
    if _INT64[0] <= value <= _INT64[1]:
        return f"int64_t{{{value}}}"
    if 0 <= value < 2**64:
        return f"uint64_t{{{value}ull}}"
    raise ParseError(f"integer {value} does not fit a 64-bit C++ integer")


# The alias only documents intent (CuTe's Shape, Stride, Tile are all cute::tuple).
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


def _dynamic(node: Node) -> str:
    if isinstance(node, bool):
        raise ParseError("booleans are not CuTe notation")
    if isinstance(node, int):
        return _dynamic_int(node)
    if isinstance(node, Basis):
        modes = "".join(f",{m}" for m in node.modes)
        value = _dynamic_int(node.value)
        kind = "int" if _INT32[0] <= node.value <= _INT32[1] else "int64_t"
        return f"cute::ScaledBasis<{kind}{modes}>{{{value}}}"
    if isinstance(node, Under):
        return "cute::_"
    if isinstance(node, Tup):
        return "cute::make_tuple(" + ",".join(_dynamic(item) for item in node.items) + ")"
    if isinstance(node, Lay):
        return f"cute::make_layout({_dynamic(node.shape)},{_dynamic(node.stride)})"
    if isinstance(node, Swz):
        return _type(node, "tuple") + "{}"
    if isinstance(node, Composed):
        return f"cute::make_composed_layout({_dynamic(node.outer)},{_dynamic(node.offset)},{_dynamic(node.inner)})"
    raise TypeError(f"not a CuTe notation node: {node!r}")


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


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
