"""Read CuTe's printed notation into a small syntax tree.

Contract: :func:`parse` accepts exactly what CuTe's ``print`` shows for static
values, with the static-integer underscores optional (``_4`` or ``4``):

* integers, negative included (``-1``; CuTe prints ``Int<-1>`` as ``_-1``);
* scaled bases ``V@a@b`` (CuTe's ``ScaledBasis<V,b,a>``: its ``print`` writes the
  mode indices innermost first, see :class:`Basis`);
* tuples ``(a,b,...)``, the 1-tuple ``(a)`` and the empty tuple ``()``;
* layouts ``SHAPE:STRIDE``;
* swizzles ``Sw<B,M,S>`` and composed layouts ``A o OFFSET o B`` (``B`` may be
  composed again, as in ``Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)``);
* tuples mixing layouts, integers and ``_`` (CuTe's ``Underscore``), i.e. tilers.

Precedence, loosest first: ``,`` then `` o `` then ``:``. So ``(4:1,8:2)`` is a
tuple of two layouts and ``(4,8):(1,2)`` one layout.

The reader is a hand-written tokenizer plus recursive descent; it never
evaluates text. Errors raise :class:`symcute.errors.ParseError` naming the
position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from symcute.errors import ParseError


class Dyn(int):
    """An integer written without ``_``, read by ``parse(..., mark_dynamic=True)``.

    CuTe prints static integers as ``_4`` and run-time ones as ``4``; this
    marker keeps that distinction for :func:`symcute.oracle.cpp.cpp_as_printed`.
    """

    def __repr__(self) -> str:
        return f"Dyn({int(self)})"


@dataclass(frozen=True)
class Basis:
    """A scaled basis element: ``value`` in the hierarchical mode ``modes``.

    ``modes`` is in CuTe's template order (outermost first), the reverse of the
    printed order: ``ScaledBasis<Int<2>,1,0>`` prints as ``2@0@1``.
    """

    value: int  # a Dyn when it was printed without "_"
    modes: tuple[int, ...]


@dataclass(frozen=True)
class Under:
    """CuTe's ``_`` (``Underscore``): "keep this mode" in a tiler."""


@dataclass(frozen=True)
class Tup:
    """A (possibly nested) tuple; its items are any :data:`Node`."""

    items: tuple["Node", ...]


@dataclass(frozen=True)
class Lay:
    """A layout ``shape:stride`` (congruence is CuTe's business, not ours)."""

    shape: "Node"
    stride: "Node"


@dataclass(frozen=True)
class Swz:
    """``Swizzle<B,M,S>``."""

    bits: int
    base: int
    shift: int


@dataclass(frozen=True)
class Composed:
    """``ComposedLayout<A,O,B>``: ``x -> outer(offset + inner(x))``."""

    outer: "Node"
    offset: "Node"
    inner: "Node"


Node = Union[int, Basis, Under, Tup, Lay, Swz, Composed]

# One token per match; the order of alternatives matters ("Sw<" before names).
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<int>_?-?[0-9]+)
      | (?P<sw>Sw<)
      | (?P<o>o)(?![A-Za-z0-9_])
      | (?P<under>_)(?![A-Za-z0-9_])
      | (?P<punct>[(),:@<>])
    )""",
    re.VERBOSE,
)


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ParseError(f"cannot read CuTe notation {text!r} at position {pos}: {text[pos:pos + 10]!r}")
        kind = m.lastgroup
        value = m.group(kind)
        tokens.append((kind if kind != "punct" else value, value, m.start(kind)))
        pos = m.end()
    tokens.append(("end", "", len(text)))
    return tokens


class _Reader:
    def __init__(self, text: str, mark_dynamic: bool = False):
        self.text = text
        self.mark_dynamic = mark_dynamic
        self.tokens = _tokenize(text)
        self.i = 0

    def peek(self) -> str:
        return self.tokens[self.i][0]

    def take(self, kind: str) -> str:
        k, value, pos = self.tokens[self.i]
        if k != kind:
            shown = value or "end of text"
            raise ParseError(f"in CuTe notation {self.text!r}: expected {kind!r} at position {pos}, found {shown!r}")
        self.i += 1
        return value

    def integer(self) -> int:
        return int(self.take("int").lstrip("_"))

    def value(self) -> int:
        """An integer value (not a swizzle or mode parameter): maybe marked dynamic."""
        token = self.take("int")
        number = int(token.lstrip("_"))
        return Dyn(number) if self.mark_dynamic and not token.startswith("_") else number

    # item := composed ; composed := layout ('o' offset 'o' composed)?
    def item(self) -> Node:
        first = self.layout()
        if self.peek() != "o":
            return first
        self.take("o")
        offset = self.layout()
        self.take("o")
        return Composed(first, offset, self.item())

    def layout(self) -> Node:
        first = self.atom()
        if self.peek() != ":":
            return first
        self.take(":")
        return Lay(first, self.atom())

    def atom(self) -> Node:
        kind = self.peek()
        if kind == "int":
            value = self.value()
            if self.peek() != "@":
                return value
            printed = []
            while self.peek() == "@":
                self.take("@")
                printed.append(self.integer())
            return Basis(value, tuple(reversed(printed)))
        if kind == "under":
            self.take("under")
            return Under()
        if kind == "sw":
            self.take("sw")
            bits = self.integer()
            self.take(",")
            base = self.integer()
            self.take(",")
            shift = self.integer()
            self.take(">")
            return Swz(bits, base, shift)
        if kind == "(":
            self.take("(")
            items = []
            if self.peek() != ")":
                items.append(self.item())
                while self.peek() == ",":
                    self.take(",")
                    items.append(self.item())
            self.take(")")
            return Tup(tuple(items))
        _, value, pos = self.tokens[self.i]
        raise ParseError(f"in CuTe notation {self.text!r}: unexpected {value or 'end of text'!r} at position {pos}")


def parse(text: str, mark_dynamic: bool = False) -> Node:
    """Parse one value in CuTe notation; see the module docstring for the grammar.

    With ``mark_dynamic``, integers written without ``_`` come back as
    :class:`Dyn` (CuTe prints dynamic integers so); otherwise all are plain ints.
    """
    reader = _Reader(text, mark_dynamic)
    node = reader.item()
    reader.take("end")
    _check(node, text)
    return node


def _check(node: Node, text: str) -> None:
    """Reject shapes of things CuTe cannot print (a layout inside a shape, ...)."""
    if isinstance(node, Lay):
        for part in (node.shape, node.stride):
            if not _is_int_tuple(part):
                raise ParseError(f"in CuTe notation {text!r}: a layout's shape and stride must be integer tuples")
    elif isinstance(node, Tup):
        for item in node.items:
            _check(item, text)
    elif isinstance(node, Composed):
        for part in (node.outer, node.inner):
            if not isinstance(part, (Lay, Swz, Composed)):
                raise ParseError(f"in CuTe notation {text!r}: both sides of ' o ' must be layouts or swizzles")
            _check(part, text)
        if not _is_int_tuple(node.offset):
            raise ParseError(f"in CuTe notation {text!r}: a composed layout's offset must be an integer tuple")


def _is_int_tuple(node: Node) -> bool:
    if isinstance(node, (int, Basis)):
        return True
    return isinstance(node, Tup) and all(_is_int_tuple(item) for item in node.items)


def to_text(node: Node) -> str:
    """Print a node back in CuTe notation without underscores (inverse of :func:`parse`)."""
    if isinstance(node, bool):  # bool is an int; CuTe prints C<true> as _1
        return str(int(node))
    if isinstance(node, int):
        return str(node)
    if isinstance(node, Basis):
        return str(node.value) + "".join(f"@{m}" for m in reversed(node.modes))
    if isinstance(node, Under):
        return "_"
    if isinstance(node, Tup):
        return "(" + ",".join(to_text(item) for item in node.items) + ")"
    if isinstance(node, Lay):
        return f"{to_text(node.shape)}:{to_text(node.stride)}"
    if isinstance(node, Swz):
        return f"Sw<{node.bits},{node.base},{node.shift}>"
    if isinstance(node, Composed):
        return f"{to_text(node.outer)} o {to_text(node.offset)} o {to_text(node.inner)}"
    raise TypeError(f"not a CuTe notation node: {node!r}")
