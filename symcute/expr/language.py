"""A small, safe expression language mirroring CuTe calls (``symcute calc``, ``derive expr``).

Grammar (read by symcute's own reader; nothing is ever passed to an evaluator)::

    expr     := primary ('.' NAME '(' args ')')*             method call (allow-listed)
    primary  := NAME ['<' targs '>'] '(' args ')'            call: upcast<1024>(L), upcast(L, 1024)
              | NAME '<' targs '>' '{' '}'                   C++ value: Int<4>{}, Shape<_2,_4>{},
                                                            Layout<Shape<_2,_2>, Stride<_1,_2>>{}
              | INT ['{' '}'] [('*' | '+' | '-') INT ...]     integer (with products and sums)
              | '(' [expr (',' expr)*] ')' [':' strides]     tuple, or layout literal shape:stride
              | INT ':' strides                             rank-1 layout literal
              | 'Sw' '<' B ',' M ',' S '>' 'o' INT 'o' expr  swizzle-composed layout literal
              | layout 'o' INT 'o' expr                      composed layout literal, outer a layout
              | NAME                                         variable (--let), '_', or a type name
    args     := [arg (',' arg)*]
    arg      := expr | NAME '=' expr                         keyword argument (calls only): injective(L, domain=64)

Functions and methods come from :data:`symcute.expr.registry.REGISTRY` (filled by
this package's ``*_functions`` modules).  Template arguments are passed after the
call's own arguments, so ``upcast<1024>(L)`` and ``upcast(L, 1024)`` are the same call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.composed import ComposedLayout
from ..core.layout import Layout, _, format_int_tuple
from ..core.parse import Reader
from ..core.swizzle import Swizzle
from ..core.tensor import Tensor
from ..errors import LayoutError, LimitError, ParseError, SymcuteError
from .registry import REGISTRY

import contextvars
import re as _re

# ``symcute calc --cute-print``: layout literals are read as CuTe prints them (``_n`` static, a plain
# number a run-time int, core's DynamicInt), so pasted output keeps CuTe's run-time code paths
CUTE_NOTATION: contextvars.ContextVar = contextvars.ContextVar("symcute_cute_notation", default=False)
_MIXED_STATIC = _re.compile(r"(?<![A-Za-z0-9_@])_\d")
_PLAIN_INT = _re.compile(r"(?<![A-Za-z0-9_@])\d")


def functions() -> list[str]:
    """The names the language can call (``Name{}`` entries are C++ value constructors)."""
    return REGISTRY.names()


@dataclass(frozen=True)
class TypeName:
    """A bare C++ type or identifier in an expression (``half_t``, ``SM80_16x8x16_F16F16F16F16_TN``)."""
    name: str
    targs: tuple = ()

    def __str__(self) -> str:
        if self.targs:
            return f"{self.name}<{','.join(str(t) for t in self.targs)}>"
        return self.name


@dataclass(frozen=True)
class UnknownName(TypeName):
    """A bare identifier that is no variable and no known C++ type: a free identifier for the functions
    that take them (sub-axis names), a typo everywhere else (refused with a "did you mean")."""
    pos: int = -1


# templates whose C++ *value* needs braces: as a call argument ``Layout<...>`` alone is a type
_VALUE_TEMPLATES = frozenset({"Layout", "Shape", "Stride", "Step", "Coord", "Tile", "tuple", "Int", "C", "Swizzle",
                              "MMA_Atom", "Copy_Atom"})


@dataclass
class Expr:
    """A parsed expression: an AST of nested tuples, evaluated by :meth:`evaluate`."""
    text: str
    tree: Any
    variables: dict = field(default_factory=dict)

    def evaluate(self, variables: dict | None = None):
        env = dict(self.variables)
        env.update(variables or {})
        try:
            value = _eval(self.tree, env, 0, _Budget(self.text))
        except RecursionError:
            # the text is depth-limited by the reader, so a bound Python value nested thousands deep is the cause
            raise LayoutError(f"expression {self.text!r}: a bound value is nested too deeply to be a CuTe value") from None
        _check_value(value, self.text, env)
        return value


def _check_value(value, text: str, env: dict, depth: int = 0) -> None:
    """An expression's result is a value: a bare name or a C++ type is refused, never echoed back."""
    if isinstance(value, tuple) and depth < MAX_DEPTH:
        for x in value:
            _check_value(x, text, env, depth + 1)
    elif isinstance(value, UnknownName):
        raise unknown_name(value, text, env)
    elif isinstance(value, TypeName):
        raise LayoutError(("" if text.strip() == str(value) else f"{_clip(text)}: ") + f"{value} is a C++ type, not a value"
                          + (f" (its value is {value}{{}})" if REGISTRY.function(value.name + "{}") else ""))


def unknown_name(name: UnknownName, text: str, env: dict) -> ParseError:
    """The error for an identifier that is no variable, function or known type."""
    where = f" at position {name.pos}" if name.pos >= 0 else ""
    if REGISTRY.function(name.name) is not None:
        return ParseError(f"{name.name!r}{where} in {_clip(text)} is a function; call it: {name.name}(...)")
    hint = REGISTRY.suggest(name.name, env)
    bound = f"; variables: {', '.join(sorted(env)[:8])}" if env and not hint else ""
    return ParseError(f"unknown name {name.name!r}{where} in {_clip(text)}{hint or bound}")


MAX_DEPTH = 100


def parse_expr_text(text: str) -> Expr:
    """Parse ``text`` into an :class:`Expr` (raises ParseError with the position on bad input)."""
    r = Reader(text)
    if r.peek.kind == "end":
        raise ParseError("empty expression")
    tree = _expr(r)
    r.done()
    return Expr(text, tree)


def evaluate(text: str, variables: dict | None = None):
    """Parse and evaluate ``text``; ``variables`` binds names (values or expression strings, in order:
    a string may use the names bound before it, as ``--let B='right_inverse(A)'`` after ``--let A=...``)."""
    from ..core import budget
    with budget.limited():  # text is untrusted: what it computes is metered (the caller's budget, if one is open)
        env = {}
        for k, v in (variables or {}).items():
            env[k] = parse_expr_text(v).evaluate(env) if isinstance(v, str) else _bound_value(k, v, 0)
        return parse_expr_text(text).evaluate(env)


_NOT_VALUES = (bool, float, complex, str, bytes, dict, set, frozenset, type(None))


def _bound_value(name: str, v, depth: int):
    """A Python value bound to ``name``: lists read as tuples; no leaf that no CuTe value has (bool, float, ...)."""
    if isinstance(v, (list, tuple)):
        if depth >= MAX_DEPTH:
            raise LayoutError(f"variable {name}: the bound value is nested deeper than {MAX_DEPTH} levels")
        return tuple(_bound_value(name, x, depth + 1) for x in v)
    if isinstance(v, _NOT_VALUES):
        raise LayoutError(f"variable {name}: a {type(v).__name__} is not a value of the expression language "
                          f"(ints, tuples, layouts and the values its functions return are)")
    return v


# --- reader -------------------------------------------------------------------------

def _expr(r: Reader):
    r.enter()
    node = _primary(r)
    while r.at("."):
        r.next()
        name = r.next()
        if name.kind != "name":
            r.fail("expected a method name after '.'")
        r.expect("(")
        args = _args(r, ")")
        node = ("method", name.text, node, args, name.pos)
    r.leave()
    return node


def _args(r: Reader, close: str, keywords: bool = False) -> list:
    """The arguments up to ``close``; with ``keywords``, ``NAME=expr`` gives a ("keyword", NAME, expr) node
    (after the positional ones, each name once)."""
    args, named = [], set()

    def one():
        if keywords and r.peek.kind == "name" and r.peek_at(1).text == "=":
            name = r.next()
            r.next()
            if name.text.startswith("_"):
                r.fail(f"keyword argument {name.text!r}: keywords do not start with '_'")
            if name.text in named:
                r.fail(f"keyword argument {name.text!r} given twice")
            named.add(name.text)
            args.append(("keyword", name.text, _expr(r)))
        elif named:
            r.fail("a positional argument after a keyword argument")
        else:
            args.append(_expr(r))
    if not r.accept(close):
        one()
        while r.accept(","):
            one()
        r.expect(close)
    return args


def _int_expr(r: Reader):
    """INT ['{}'] with * + - between integers (for template arguments like 128*8)."""
    def term():
        t = r.next()
        if t.kind == "name":   # 4*K: a variable (an int bound by --let, or a --param name)
            return ("name", t.text, t.pos)
        if t.kind != "int":
            r.fail("expected an integer")
        if r.accept("{"):
            r.expect("}")
        return ("int", t.value)
    node = term()
    while (r.at("*") or r.at("+") or (r.at("-") and r.peek_at(1).kind == "int")) and (
            r.peek_at(1).kind == "int" or (r.peek_at(1).kind == "name" and r.peek_at(2).text != "(")):
        op = r.next().text
        node = ("arith", op, node, term())
    return node


def _primary(r: Reader):
    t = r.peek
    if t.kind == "int":
        start = t.pos
        node = _int_expr(r)
        if r.at(":"):
            r.next()
            return _composed(r, _cute_notation(r, start, ("layout", node, _stride_tuple(r))))
        return node
    if t.kind == "name" and t.text == "Sw" and r.peek_at(1).text == "<":
        return ("literal", r.layout())
    if r.at("("):
        start = t.pos
        r.next()
        items = _args(r, ")")
        node = ("tuple", items)
        if r.at(":"):
            r.next()
            node = ("layout", node, _stride_tuple(r))
            return _composed(r, _cute_notation(r, start, node))
        return node
    if t.kind == "name":
        r.next()
        name = t.text
        targs = None
        if r.at("<"):
            r.next()
            targs = _args(r, ">")
        if r.at("("):
            r.next()
            return ("call", name, targs or [], _args(r, ")", keywords=True), t.pos)
        if r.at("{"):
            r.next()
            r.expect("}")
            return ("value", name, targs or [], t.pos)
        if targs is not None:
            return ("typename", name, targs, t.pos)
        return ("name", name, t.pos)
    r.fail("expected an expression")


def _composed(r: Reader, outer):
    """``outer``, or the ComposedLayout literal ``outer o OFFSET o LAYOUT`` (CuTe's print of a composition
    whose outer function is a layout; the API's ComposedLayout(A, O, B) with A a layout)."""
    if not (r.at("o") and (r.peek_at(1).kind == "int" or r.peek_at(1).text == "(")):
        return outer
    r.next()
    offset = r.int_tuple()
    r.expect("o")
    return ("composed", outer, offset, r.layout())


def _stride_tuple(r: Reader):
    if _names_ahead(r):   # strides over --param names (K, 4*K): an expression tree, evaluated as one
        return _param_stride(r)
    return ("literal_stride", r.int_tuple(allow_basis=True))


def _cute_notation(r: Reader, start: int, node):
    """Under ``--cute-print``, a literal in CuTe's print notation with run-time ints (``(_2,1,_3):(3,_3,_1)``)."""
    if not CUTE_NOTATION.get():
        return node
    text = r.text[start:r.peek.pos].strip()
    if "@" in text or not (_MIXED_STATIC.search(text) and _PLAIN_INT.search(_MIXED_STATIC.sub("", text))):
        return node
    return ("cute_layout", text, node)


def _names_ahead(r: Reader) -> bool:
    """Whether the stride starting here names a variable (its tokens up to the balancing ')' or one leaf)."""
    depth, k = 0, 0
    while True:
        t = r.peek_at(k)
        if t.kind == "end":
            return False
        if t.kind == "name" and not (t.text == "_" or r.peek_at(k + 1).text == "@"):
            return True
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth <= 0:
                return False
        elif t.text == "," and depth == 0:
            return False
        k += 1


def _param_stride(r: Reader, depth: int = 0):
    if depth > MAX_DEPTH:
        r.fail(f"nested deeper than {MAX_DEPTH} levels")
    if r.accept("("):
        items = [_param_stride(r, depth + 1)]
        while r.accept(","):
            items.append(_param_stride(r, depth + 1))
        r.expect(")")
        return ("tuple", items)
    node = _stride_term(r)
    while r.at("*") or r.at("+"):
        op = r.next().text
        node = ("arith", op, node, _stride_term(r))
    return node


def _stride_term(r: Reader):
    t = r.next()
    if t.kind == "int":
        return ("int", t.value)
    if t.kind == "name":
        return ("name", t.text, t.pos)
    r.fail("expected an integer or a name in a stride")


# --- evaluation ------------------------------------------------------------------------

MAX_INTEGER_BITS = 1 << 18


class _Budget:
    """The integer bits one evaluation may read: every literal and every use of a variable is charged.

    symcute's ints are exact and unbounded, so without this a short text (a product over
    16,000 uses of one 1000-digit variable) would run for hours; no CuTe program comes near
    (its ints are 64-bit).  ``MAX_INTEGER_BITS`` is the configurable limit.
    """

    __slots__ = ("text", "left", "_by_name")

    def __init__(self, text: str):
        self.text, self.left, self._by_name = text, MAX_INTEGER_BITS, {}

    def charge(self, value, name: str | None = None):
        if name is not None:
            bits = self._by_name.get(name)
            if bits is None:
                bits = self._by_name[name] = _bits(value)
        else:
            bits = _bits(value)
        self.left -= bits
        if self.left < 0:
            raise LimitError(f"expression {_clip(self.text)}: its integers (each literal and each use of a variable) "
                             f"total more than {MAX_INTEGER_BITS} bits, which exceeds the limit "
                             f"(symcute.expr.language.MAX_INTEGER_BITS); CuTe's integers are 64-bit")
        return value


def _bits(v) -> int:
    if type(v) is int:
        return v.bit_length()
    if isinstance(v, tuple):
        return sum(_bits(x) for x in v)
    if isinstance(v, Layout):
        return _bits(v.shape) + _bits(v.stride)
    return 0  # atoms, formulas, swizzles: built from bounded data


def _clip(text: str, n: int = 80) -> str:
    return repr(text) if len(text) <= n else repr(text[:n]) + f"... ({len(text)} characters)"


def _eval(node, env: dict, depth: int, budget: _Budget):
    if depth > MAX_DEPTH:
        raise ParseError(f"expression nested deeper than {MAX_DEPTH} levels")
    kind = node[0]
    ev = lambda n: _eval(n, env, depth + 1, budget)  # noqa: E731
    if kind == "int":
        return budget.charge(node[1])
    if kind == "arith":
        a, b = ev(node[2]), ev(node[3])
        if _parametric(a) or _parametric(b):
            from . import param_functions
            return param_functions.arith(node[1], a, b)
        _no_unknown_names([a, b], env, budget.text)
        a, b = _as_int(a), _as_int(b)
        return budget.charge(a * b if node[1] == "*" else a + b if node[1] == "+" else a - b)
    if kind == "literal":
        return node[1]
    if kind == "literal_stride":
        return budget.charge(node[1])
    if kind == "tuple":
        return tuple(ev(x) for x in node[1])
    if kind == "composed":
        return ComposedLayout(ev(node[1]), budget.charge(node[2]), node[3])
    if kind == "cute_layout":   # CuTe's own notation: core keeps its static and run-time integers apart
        return budget.charge(Layout.parse(node[1]))
    if kind == "layout":
        shape, stride = ev(node[1]), ev(node[2])
        if _parametric(shape) or _parametric(stride):
            from . import param_functions
            return param_functions.layout(shape, stride)
        _no_unknown_names([shape, stride], env, budget.text)
        return Layout(_as_int_tuple(shape, "shape"), stride)
    if kind == "name":
        name = node[1]
        if name == "_":
            return _
        if name in env:
            return budget.charge(env[name], name)
        if REGISTRY.is_type_name(name):
            return TypeName(name)
        return UnknownName(name, (), node[2])
    if kind == "typename":
        targs = tuple(ev(a) for a in node[2])
        return TypeName(node[1], targs) if REGISTRY.is_type_name(node[1]) else UnknownName(node[1], targs, node[3])
    if kind == "value":
        return _cpp_value(node[1], [ev(a) for a in node[2]], node[3])
    if kind == "call":
        name, targs, args, pos = node[1], node[2], node[3], node[4]
        keywords = {a[1]: a[2] for a in args if a[0] == "keyword"}
        args = [a for a in args if a[0] != "keyword"]
        if keywords and name in env and not targs:
            raise ParseError(f"{name!r} at position {pos} is a variable: a layout takes no keyword arguments "
                             f"({', '.join(sorted(keywords))}=...)")
        if name in env and not targs:
            target = env[name]
            values = [ev(a) for a in args]
            if isinstance(target, (Layout, ComposedLayout, Tensor)):
                return target(*values)
            raise LayoutError(f"{name} is a {type(target).__name__}, not a function or a layout")
        fn = REGISTRY.function(name)
        if fn is None and name == "local_tile":   # only on parametric tensors (core has no Tensor)
            from . import param_functions
            values = [ev(a) for a in args] + [ev(a) for a in targs]
            if any(_parametric(v) for v in values):
                return param_functions.call(name, values)
        if fn is None and not args and not keywords and (name in _VALUE_TEMPLATES or REGISTRY.is_type_name(name)
                                                         or REGISTRY.function(name + "{}") is not None):
            # C++ value-initialisation: Swizzle<3,3,3>() and SM80_16x8x16_F16F16F16F16_TN() are the values
            # Swizzle<3,3,3>{} and SM80_16x8x16_F16F16F16F16_TN{}
            return _cpp_value(name, [ev(a) for a in targs], pos)
        if fn is None and name in _VALUE_TEMPLATES:
            raise ParseError(f"{name!r} at position {pos} is a C++ value, written {name}<...>{{}} "
                             f"(template arguments in <>, then {{}}), not called with ()")
        if fn is None and REGISTRY.function(name + "{}") is not None:
            raise ParseError(f"{name!r} at position {pos} is a C++ value, written {name}{{}}, not called with ()")
        if fn is None:
            raise ParseError(f"unknown function {name!r} at position {pos}{REGISTRY.suggest(name, env)}")
        for a in list(args) + list(keywords.values()):
            _not_a_type(a)
        values = [ev(a) for a in args] + [ev(a) for a in targs]
        named = {k: ev(a) for k, a in keywords.items()}
        if any(_parametric(v) for v in values) and not named:
            from . import param_functions
            return param_functions.call(name, values)
        if name not in REGISTRY.takes_identifiers:
            _no_unknown_names(values + list(named.values()), env, budget.text)
        return _apply(name, fn, values, named)
    if kind == "method":
        for a in node[3]:
            _not_a_type(a)
        name, target, args = node[1], ev(node[2]), [ev(a) for a in node[3]]
        _no_unknown_names([target] + args, env, budget.text)
        if _parametric(target):
            from . import param_functions
            return param_functions.method(name, target, args)
        fn = REGISTRY.method(type(target), name)
        if fn is not None:
            return _apply(f".{name}", fn, [target] + args)
        hint = REGISTRY.suggest_method(type(target), name)
        raise ParseError(f"{type(target).__name__} has no method {name!r} (position {node[4]}){hint}")
    raise ParseError(f"cannot evaluate {kind}")


def _parametric(v) -> bool:
    """A value over declared parameters (``--param``): only then is the parametric module loaded."""
    if isinstance(v, tuple):
        return any(_parametric(x) for x in v)
    return type(v).__module__.startswith(("sympy", "symcute.symbolic.parametric"))


def _not_a_type(node) -> None:
    """``size(Layout<Shape<_4,_8>>)``: a value template without ``{}`` is a type, which no function takes."""
    if node[0] == "typename" and node[1] in _VALUE_TEMPLATES:
        raise LayoutError(f"{node[1]}<...> without {{}} is a C++ type, not a value: write {node[1]}<...>{{}}")


def _no_unknown_names(values, env: dict, text: str, depth: int = 0) -> None:
    for v in values:
        if isinstance(v, UnknownName):
            raise unknown_name(v, text, env)
        if isinstance(v, tuple) and depth < MAX_DEPTH:
            _no_unknown_names(v, env, text, depth + 1)


def _apply(name: str, fn: Callable, values: list, named: dict | None = None):
    try:
        return fn(*values, **(named or {}))
    except SymcuteError:
        raise
    except (TypeError, ValueError, AttributeError, IndexError, KeyError, ZeroDivisionError) as e:
        # a wrong argument count or type: report it as the user's input, not a crash
        args = ", ".join([format_int_tuple(v) for v in values] +
                         [f"{k}={format_int_tuple(v)}" for k, v in (named or {}).items()])
        raise LayoutError(f"{name}({args}) is not a valid call: {_why_invalid(e)}") from None


def _why_invalid(e: Exception) -> str:
    """The user's mistake in words of the call, never Python's own message (``tuple index out of range``,
    ``'int' object has no attribute 'rank'``, ``<lambda>() takes 1 positional argument``: issue 31)."""
    text = str(e)
    bad_key = _re.search(r"unexpected keyword argument '(\w+)'", text) if isinstance(e, TypeError) else None
    if bad_key:   # the user's own word, which the message may quote
        return f"unexpected keyword argument {bad_key.group(1)!r}"
    if isinstance(e, TypeError) and _re.search(r"positional argument|required (positional|keyword)|"
                                              r"unexpected keyword|takes no arguments", text):
        return "the number of arguments is not one this function takes"
    if isinstance(e, IndexError):
        return "an index or a mode is outside the argument's rank"
    if isinstance(e, ZeroDivisionError):
        return "it divides by zero"
    if isinstance(e, ValueError):
        return "an argument's value is outside what this function accepts"
    return "an argument is not of a kind this function takes"


def _as_int(v) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LayoutError(f"expected an integer, got {format_int_tuple(v)}")
    return v


def _as_int_tuple(v, what: str):
    if isinstance(v, tuple):
        return tuple(_as_int_tuple(x, what) for x in v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise LayoutError(f"layout {what} must be integers, got {format_int_tuple(v)}")
    return v


_TUPLE_TYPES = ("Shape", "Stride", "Step", "Coord", "Tile", "tuple")


def _type_value(t):
    """A template argument such as ``Shape<_2,_2>`` (no braces) used as a value inside another type."""
    if isinstance(t, TypeName) and t.name in _TUPLE_TYPES:
        return tuple(_type_value(x) for x in t.targs)
    if isinstance(t, TypeName) and t.name in ("Int", "C") and len(t.targs) == 1:
        return _as_int(t.targs[0])
    if isinstance(t, TypeName) and t.name == "Layout":
        return _cpp_value("Layout", list(t.targs), -1)
    return t


def _cpp_value(name: str, targs: list, pos: int):
    """C++ value syntax: ``Int<4>{}``, ``_4{}``, ``Shape<...>{}``, ``Layout<Shape, Stride>{}``.

    A template given the wrong number of arguments (``Int<4,5>{}``, ``Swizzle<3,4,3,1>{}``,
    ``Layout<>{}``) does not compile in C++ and is refused here; so is a name no one registered.
    """
    at = f" (position {pos})" if pos >= 0 else ""
    if name in ("Int", "C"):
        if len(targs) != 1:
            raise LayoutError(f"{name}<{_targs_text(targs)}>{{}}{at}: {name} takes one integer, got {len(targs)}")
        return _as_int(targs[0])
    targs = [_type_value(t) for t in targs]
    if name in _TUPLE_TYPES:
        return tuple(targs)
    if name == "Layout":
        if len(targs) not in (1, 2):
            raise LayoutError(f"Layout<{_targs_text(targs)}>{{}}{at}: Layout takes a Shape and an optional Stride, "
                              f"got {len(targs)} template arguments")
        return Layout(_as_int_tuple(targs[0], "shape"), targs[1] if len(targs) == 2 else None)
    if name == "Swizzle":
        if len(targs) != 3:
            raise LayoutError(f"Swizzle<{_targs_text(targs)}>{{}}{at}: Swizzle takes three integers <B,M,S>, "
                              f"got {len(targs)}")
        return Swizzle(*(_as_int(t) for t in targs))
    if name == "Underscore":
        return _
    fn = REGISTRY.function(name + "{}")
    if fn is not None:  # higher layers register constructible types, e.g. an MMA atom's tag
        return _apply(f"{name}{{}}", fn, targs)
    if REGISTRY.is_type_name(name):
        return TypeName(name, tuple(targs))
    # unknown: the function it is passed to names it (an atom lookup with its own did-you-mean), or the
    # value check refuses it
    return UnknownName(name, tuple(targs), pos)


def _targs_text(targs) -> str:
    return ",".join(format_int_tuple(t) for t in targs)
