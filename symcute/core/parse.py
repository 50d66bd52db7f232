"""Reader for CuTe notation: IntTuples, layouts and swizzle-composed layouts.

Accepts what CuTe's ``print`` shows, with or without the underscores of static
integers: ``((_4,_8),_2):((_1,_4),_32)``, basis strides ``1@0``, swizzled
layouts ``Sw<3,4,3> o 0 o (8,64):(64,1)``.  CuTe DSL's prints are read too:
its swizzle ``S<3,4,3>`` and its type strings ``!cute.layout<"(4,8):(1,4)">`` and
``!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">``; its ``?`` (a run-time
value in a type) is refused by name.  It is a small hand-written
recursive-descent reader with a nesting limit; no text ever reaches an evaluator.

Static and run-time integers: a text in CuTe's own notation (some integer
written ``_n``) is read as CuTe printed it: ``_n`` is static and a plain
number is a run-time integer (:class:`~symcute.core.integer.DynamicInt`), so
``(_2,1,_3):(3,_3,_1)`` keeps CuTe's run-time code paths.  A text without any
``_n`` is symcute's own notation: every integer is static (the default).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass

from ..errors import LayoutError, ParseError
from . import kinds
from .basis import ScaledBasis
from .composed import ComposedLayout
from .integer import DynamicInt
from .dispatch import member
from .layout import Layout, _
from .swizzle import Swizzle

MAX_NESTING = 100  # deeper than any real CuTe layout; protects the recursion below
MAX_TEXT = 100_000

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<int>-?_?-?[0-9]+)
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*(?:::[A-Za-z_][A-Za-z_0-9]*)*)
  | (?P<op>[()<>,:@.*+\-=\[\]{}"'])
""", re.VERBOSE)


@dataclass(frozen=True)
class Token:
    kind: str   # 'int', 'name', 'op', 'end'
    text: str
    pos: int

    @property
    def value(self) -> int:
        try:
            return int(self.text.replace("_", ""))
        except ValueError:  # past sys.get_int_max_str_digits() digits Python refuses to read an int
            raise ParseError(f"integer literal of {len(self.text)} digits at position {self.pos} is too long "
                             f"(at most {sys.get_int_max_str_digits()} digits)") from None


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; an unknown character is a ParseError naming its position."""
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {kinds.kind_of(text)}")
    if len(text) > MAX_TEXT:
        raise ParseError(f"input of {len(text)} characters exceeds the limit of {MAX_TEXT}")
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ParseError(f"unexpected character {text[pos]!r} at position {pos} in {_clip(text)!r}")
        kind = m.lastgroup
        if kind != "ws":
            tok = m.group()
            if kind == "int":
                if tok.count("-") > 1 or tok.count("_") > 1:
                    raise ParseError(f"malformed integer {tok!r} at position {pos} in {_clip(text)!r}")
            tokens.append(Token(kind, tok, pos))
        pos = m.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


def _clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[:n] + "..."


class Reader:
    """A cursor over tokens with the primitives every symcute grammar needs."""

    def __init__(self, text: str, static_marks: bool = False):
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        self.nesting = 0
        # CuTe's notation: `_n` static, a plain integer leaf run-time (see the module docstring)
        self.static_marks = static_marks

    @property
    def peek(self) -> Token:
        return self.tokens[self.i]

    def peek_at(self, k: int) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def next(self) -> Token:
        tok = self.tokens[self.i]
        if tok.kind != "end":
            self.i += 1
        return tok

    def at(self, text: str) -> bool:
        t = self.peek
        return t.kind in ("op", "name") and t.text == text

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> Token:
        if not self.at(text):
            self.fail(f"expected {text!r}")
        return self.next()

    def fail(self, why: str):
        t = self.peek
        found = "end of input" if t.kind == "end" else repr(t.text)
        raise ParseError(f"{why} at position {t.pos} (found {found}) in {_clip(self.text)!r}")

    def enter(self):
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise ParseError(f"nesting deeper than {MAX_NESTING} levels in {_clip(self.text)!r}")

    def leave(self):
        self.nesting -= 1

    def done(self):
        if self.peek.kind != "end":
            self.fail("unexpected trailing input")

    # --- CuTe notation -------------------------------------------------------
    def int_leaf(self, allow_basis: bool = False):
        t = self.peek
        if t.kind != "int":
            self.fail("expected an integer")
        self.next()
        v = t.value
        if self.static_marks and "_" not in t.text:
            v = DynamicInt(v)
        if self.at("@"):
            if not allow_basis:
                self.fail("basis stride (v@m) not allowed here")
            modes = []
            while self.accept("@"):
                if len(modes) >= MAX_NESTING:  # E<m0,m1,...> nests one level per mode
                    self.fail(f"basis stride nested deeper than {MAX_NESTING} modes")
                m = self.peek
                if m.kind != "int" or m.value < 0:
                    self.fail("expected a mode index after '@'")
                self.next()
                modes.append(m.value)
            return ScaledBasis(v, tuple(reversed(modes)))
        return v

    def int_tuple(self, allow_basis: bool = False):
        """IntTuple := INT | '(' [IntTuple (',' IntTuple)*] ')'."""
        if self.accept("("):
            self.enter()
            items = []
            if not self.at(")"):
                items.append(self.int_tuple(allow_basis))
                while self.accept(","):
                    items.append(self.int_tuple(allow_basis))
            self.expect(")")
            self.leave()
            return tuple(items)
        return self.int_leaf(allow_basis)

    def at_layout_start(self) -> bool:
        return self.peek.kind == "int" or self.at("(") or self.at_swizzle()

    def at_swizzle(self) -> bool:
        """``Sw<`` (CuTe C++'s print) or ``S<`` (CuTe DSL's)."""
        return (self.at("Sw") or self.at("S")) and self.peek_at(1).text == "<"

    def layout(self):
        """Layout := Swizzle 'o' Offset 'o' Layout | Plain ['o' Offset 'o' Layout]; Plain := IntTuple [':' IntTuple].

        A plain layout before ``o`` is the outer function of a ComposedLayout, as CuTe prints
        ``composition(A, O, B)`` for any A (layout_composed.hpp: ``A o O o B``)."""
        if self.at_swizzle():
            self.next()
            self.expect("<")
            b = self._signed_int()
            self.expect(",")
            m = self._signed_int()
            self.expect(",")
            s = self._signed_int()
            self.expect(">")
            return self.composed_tail(Swizzle(b, m, s), required=True)
        shape = self.int_tuple()
        plain = Layout(shape, self.int_tuple(allow_basis=True)) if self.accept(":") else Layout(shape)
        return self.composed_tail(plain)

    def composed_tail(self, outer, required: bool = False):
        """``outer`` itself, or ``outer o Offset o Layout`` (a ComposedLayout) when ``o`` follows (it must
        after a swizzle: ``required``)."""
        if required:
            self.expect("o")
        elif not self.at("o"):
            return outer
        else:
            self.next()
        offset = self.int_tuple()
        self.expect("o")
        self.enter()
        inner = self.layout()
        self.leave()
        return ComposedLayout(outer, offset, inner)

    def value(self):
        """Value := '_' | Layout | '(' [Value (',' Value)*] ')' [':' IntTuple]: a tiler, coordinate or shape as printed."""
        if self.peek.kind == "name" and self.peek.text == "_":
            self.next()
            return _
        if self.at_swizzle():
            return self.layout()
        if self.accept("("):
            self.enter()
            items = []
            if not self.at(")"):
                items.append(self.value())
                while self.accept(","):
                    items.append(self.value())
            self.expect(")")
            self.leave()
            items = tuple(items)
            if self.accept(":"):
                return Layout(items, self.int_tuple(allow_basis=True))
            return items
        v = self.int_leaf(allow_basis=True)
        if isinstance(v, int) and self.accept(":"):
            return Layout(v, self.int_tuple(allow_basis=True))
        return v

    def _signed_int(self) -> int:
        t = self.peek
        if t.kind != "int":
            self.fail("expected an integer")
        self.next()
        return t.value


_DSL_TYPE = re.compile(r'\s*!cute\.(?:layout|composed_layout)<"(.*)">\s*', re.S)


# The plain notation of a static layout (digits, signs, parentheses, commas, one colon, blanks; `_` before
# a number) is read by the C JSON reader once parentheses become brackets: about 20x faster than the
# token reader for a TV layout.  Any text outside that alphabet, or that the JSON reader refuses, or
# that nests too deep, is read by the Reader below, which gives the positioned error messages.
_PLAIN_TEXT = re.compile(r"[0-9(),:\- \t\n]*\Z")
_STATIC_UNDERSCORE = re.compile(r"(?:(?<=[(,:\s])|^)_(?=[0-9])")
_TO_JSON = str.maketrans("()", "[]")
_STATIC_NUMBER = re.compile(r"(?:(?<=[(,:\s])|^)_-?[0-9]+")
_MARK = re.compile(r"(?:(?<=[(,:\s<])|^)_-?[0-9]")


def uses_static_marks(text: str) -> bool:
    """Whether ``text`` is in CuTe's own notation (some integer written ``_n``): then plain numbers are run-time."""
    return "_" in text and _MARK.search(text) is not None
def _as_tuples(x):
    return tuple([_as_tuples(y) for y in x]) if type(x) is list else x


def _plain_layout(text: str):
    """The Layout of a plain ``shape:stride`` text, or ``None`` where the Reader must decide."""
    if "_" in text:
        if any(c.isdigit() for c in _STATIC_NUMBER.sub("", text)):
            return None   # CuTe's notation with run-time integers: the Reader keeps them apart
        text = _STATIC_UNDERSCORE.sub("", text)
    if len(text) > MAX_TEXT or not _PLAIN_TEXT.match(text):
        return None
    parts = text.translate(_TO_JSON).split(":")
    if len(parts) != 2:
        return None
    try:
        # the alphabet leaves JSON nothing but integers and arrays; the constructor checks the rest
        return Layout(_as_tuples(json.loads(parts[0])), _as_tuples(json.loads(parts[1])))
    except (ValueError, RecursionError, LayoutError):
        return None   # the Reader reads it again and reports the error with its position


def parse_layout(text: str):
    """Parse a (possibly swizzle-composed) layout in CuTe notation (C++ or CuTe DSL print, see the module doc)."""
    if type(text) is str:
        fast = _plain_layout(text)
        if fast is not None:
            return fast
    if isinstance(text, str):
        m = _DSL_TYPE.fullmatch(text)
        if m:
            text = m.group(1)
        if "?" in text:
            raise ParseError(f"{_clip(text)!r} has a run-time value '?' at position {text.index('?')} (CuTe DSL "
                             f"prints dynamic values so); symcute reads static layouts: print the values at run "
                             f"time (cute.printf) and pass those")
    r = Reader(text, isinstance(text, str) and uses_static_marks(text))
    if r.peek.kind == "end":
        raise ParseError("empty layout text")
    result = r.layout()
    r.done()
    return result


def parse_value(text: str):
    """Parse a printed value: a layout, an IntTuple, ``_``, or a tuple of these (``(4:1,_,(2,2))``)."""
    r = Reader(text, isinstance(text, str) and uses_static_marks(text))
    if r.peek.kind == "end":
        raise ParseError("empty value text")
    result = r.value()
    r.done()
    return result


@member(Layout, name="parse", static=True)
def parse_plain_layout(text: str) -> Layout:
    """``Layout.parse``: read CuTe notation (``((_4,_8),_2):((_1,_4),_32)``, underscores optional).

    Where the text marks static integers (``_n``), its plain numbers are run-time integers, as in
    CuTe's print: ``Layout.parse("(_2,1,_3):(3,_3,_1)").cute_str()`` gives the same text back.

    A swizzled text (``Sw<...> o ...``) is refused: :func:`parse_layout` reads those.
    """
    result = parse_layout(text)
    if not isinstance(result, Layout):
        raise LayoutError(f"{text!r} is a composed (swizzled) layout; use parse_layout()")
    return result


def parse_int_tuple(text: str):
    """Parse an IntTuple such as ``(32,16)`` or ``((2,2),4)`` (``(_32,16)``: 16 is run-time)."""
    r = Reader(text, isinstance(text, str) and uses_static_marks(text))
    result = r.int_tuple()
    r.done()
    return result
