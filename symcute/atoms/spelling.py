"""Read the C++ spelling of an atom: ``SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K, GMMA::Major::K>``.

Users paste names from their kernels, so the reader ignores whitespace, a
``cute::`` prefix, trailing ``{}`` and the wrappers ``MMA_Atom<...>``,
``MMA_Traits<...>``, ``Copy_Atom<..., T>`` and ``Copy_Traits<...>``.  A spelling
is read into a :class:`Spelled` tree (identifier plus template arguments); no
text reaches an evaluator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError

_TOKEN = re.compile(r"\s*(?:(?P<name>(?:::)?[A-Za-z_][A-Za-z_0-9]*(?:\s*::\s*[A-Za-z_][A-Za-z_0-9]*)*)"
                    r"|(?P<int>[0-9]+)|(?P<op>[<>,{}]))")
MAX_TEXT = 2000
MAX_NESTING = 20


@dataclass(frozen=True)
class Spelled:
    """An identifier with its template arguments (each a Spelled or an int)."""
    name: str
    args: tuple = ()
    has_args: bool = False

    def __str__(self) -> str:
        if not self.has_args:
            return self.name
        return self.name + "<" + ",".join(str(a) for a in self.args) + ">"


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ParseError(f"unexpected character {text[pos:].lstrip()[:1]!r} in atom name {text!r}")
        kind = m.lastgroup
        out.append((kind, re.sub(r"\s+", "", m.group(kind))))
        pos = m.end()
    return out


def read_spelling(text: str) -> Spelled:
    """Parse ``text`` as ``NAME [<ARG, ...>] [{}]`` (nested); raises ParseError naming the input."""
    if not isinstance(text, str):
        raise ParseError(f"an atom name must be text, got {text!r}")
    if len(text) > MAX_TEXT:
        raise ParseError(f"atom name of {len(text)} characters exceeds the limit of {MAX_TEXT}")
    toks = _tokens(text)
    if not toks:
        raise ParseError("empty atom name")
    pos = 0

    def fail(what: str):
        raise ParseError(f"atom name {text!r}: {what}")

    def item(depth: int):
        nonlocal pos
        if depth > MAX_NESTING:
            fail("template arguments nested too deeply")
        if pos >= len(toks):
            fail("unexpected end")
        kind, tok = toks[pos]
        if kind == "int":
            pos += 1
            return int(tok)
        if kind != "name":
            fail(f"expected a name, found {tok!r}")
        pos += 1
        name = tok[2:] if tok.startswith("::") else tok
        args, has_args = [], False
        if pos < len(toks) and toks[pos] == ("op", "<"):
            pos += 1
            has_args = True
            if pos < len(toks) and toks[pos] == ("op", ">"):
                pos += 1
            else:
                while True:
                    args.append(item(depth + 1))
                    if pos < len(toks) and toks[pos] == ("op", ","):
                        pos += 1
                        continue
                    if pos < len(toks) and toks[pos] == ("op", ">"):
                        pos += 1
                        break
                    fail("expected ',' or '>' in template arguments")
        if pos < len(toks) and toks[pos] == ("op", "{"):
            if pos + 1 < len(toks) and toks[pos + 1] == ("op", "}"):
                pos += 2
            else:
                fail("expected '{}'")
        return Spelled(name, tuple(args), has_args)

    result = item(0)
    if pos != len(toks):
        fail(f"unexpected {toks[pos][1]!r} after the name")
    if isinstance(result, int):
        fail("expected a name, not a number")
    return result


def strip_namespace(name: str, prefixes=("cute::", "cutlass::")) -> str:
    changed = True
    while changed:
        changed = False
        for p in prefixes:
            if name.startswith(p):
                name, changed = name[len(p):], True
    return name


def last_component(name: str) -> str:
    """``cute::SM90::GMMA::Major::K`` -> ``K``."""
    return name.rsplit("::", 1)[-1]


def type_name(x) -> str:
    """A value type argument as CuTe code spells it, without namespaces: ``cutlass::half_t`` -> ``half_t``."""
    if isinstance(x, int):
        raise ParseError(f"expected a type name, got the number {x}")
    if isinstance(x, str):
        return strip_namespace(re.sub(r"\s+", "", x), ("cute::", "cutlass::", "std::"))
    name = strip_namespace(x.name, ("cute::", "cutlass::", "std::"))
    if x.has_args:
        return name + "<" + ",".join(type_name(a) if not isinstance(a, int) else str(a) for a in x.args) + ">"
    return name
