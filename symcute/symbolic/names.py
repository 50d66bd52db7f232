"""Names of sub-axes: validation, default names, split-digit names, and a reader for name trees.

A *names tree* is a nested tuple of ``str`` congruent to a layout's shape
(``(("t0","t1","wm","wn"), (("v0","v1","v2"), ("_a","_b")))`` for the seed's
A layout).  Every name is a Python identifier that is not a keyword (the names
become SymPy symbols and the arguments of ``lambdify``'d functions), and the
names of one formula are unique.

Default names come from the mode path: ``x`` followed by the path joined with
``_`` -- ``x0_1`` is the leaf at mode path ``(0, 1)``, ``x2`` the leaf at
``(2,)``, and a rank-1 layout whose shape is a plain int has the single name
``x``.

Split digits: when an operation refines a digit ``n`` into finer digits, the
pieces are named ``n0, n1, ...`` from the least significant up, with an
underscore when ``n`` already ends in a digit (``t0`` -> ``t0_0, t0_1``;
``m`` -> ``m0, m1, m2``).  A name that would collide with another name of the
same formula gets further underscores (``m_0``, ``m__0``, ...).

Names are never given to an evaluator: they become ``sympy.Symbol(name)``
objects directly.
"""

from __future__ import annotations

import keyword
from typing import Iterable

from ..core import int_tuple as it
from ..core.kinds import kind_of
from ..errors import ParseError, SymcuteError

MAX_DEPTH = 100  # names trees nest like shapes; deeper input is refused before it is walked


def check_name(name, where: str = "names") -> str:
    """``name`` itself if it is a usable sub-axis name; a SymcuteError naming it otherwise."""
    if not isinstance(name, str):
        raise SymcuteError(f"{where}: sub-axis name {name!r} is not a string")
    if not name.isidentifier() or keyword.iskeyword(name) or not name.isascii():
        raise SymcuteError(f"{where}: sub-axis name {name!r} is not an ASCII identifier (letters, digits, '_')")
    return name


def check_names_tree(names, shape, where: str = "names") -> tuple:
    """Validate a names tree against ``shape``; return the flat tuple of leaf names.

    @pre names is congruent to shape (a str where shape has an int, a tuple of
         the same length where shape has a tuple); names are unique identifiers
    """
    if not _within_depth(names, MAX_DEPTH):
        raise SymcuteError(f"{where}: names nested deeper than {MAX_DEPTH} levels")
    if isinstance(names, list):
        names = _tuplify(names)
    if not _congruent(names, shape):
        raise SymcuteError(
            f"{where}: {format_names(names)} is not congruent to the shape {_fmt_shape(shape)} "
            f"(one name per mode, nested like the shape)")
    flat = tuple(_flatten(names))
    for n in flat:
        check_name(n, where)
    seen = set()
    for n in flat:
        if n in seen:
            raise SymcuteError(f"{where}: sub-axis name {n!r} is used twice in {format_names(names)}")
        seen.add(n)
    return flat


def default_names(shape, prefix: str = "x"):
    """Names tree congruent to ``shape``: ``prefix`` followed by the mode path joined with ``_``."""
    def go(s, path):
        if isinstance(s, tuple):
            return tuple(go(x, path + (i,)) for i, x in enumerate(s))
        return prefix + "_".join(str(i) for i in path)
    return go(shape, ())


def split_names(name: str, count: int, taken: Iterable[str] = ()) -> list[str]:
    """Names of the ``count`` pieces of digit ``name``, least significant first (see module doc)."""
    if count == 1:
        return [name]
    taken = set(taken) - {name}
    sep = "_" if name[-1].isdigit() else ""
    while True:
        out = [f"{name}{sep}{i}" for i in range(count)]
        if not taken.intersection(out):
            return out
        sep += "_"


def unique_name(name: str, taken: set) -> str:
    """``name``, or ``name`` with a numeric suffix, whichever is not in ``taken``."""
    if name not in taken:
        return name
    k = 1
    while f"{name}_{k}" in taken:
        k += 1
    return f"{name}_{k}"


def format_names(names) -> str:
    """A names tree in CuTe-like notation: ``((t0,t1),(v0,v1))``."""
    return it.format_int_tuple(names)


def parse_names(text: str):
    """Read a names tree such as ``((t0,t1,wm,wn),((v0,v1,v2),(a,b)))``.

    A small reader of identifiers, commas and parentheses; nothing reaches an
    evaluator.  A single identifier is a rank-1 tree.
    """
    if not isinstance(text, str):
        raise ParseError(f"names: expected text, got {kind_of(text)}")
    pos = 0
    depth_limit = MAX_DEPTH

    def skip():
        nonlocal pos
        while pos < len(text) and text[pos].isspace():
            pos += 1

    def fail(why):
        found = repr(text[pos]) if pos < len(text) else "end of input"
        raise ParseError(f"names: {why} at position {pos} (found {found}) in {text!r}")

    def item(depth):
        nonlocal pos
        if depth > depth_limit:
            fail(f"nesting deeper than {depth_limit} levels")
        skip()
        if pos < len(text) and text[pos] == "(":
            pos += 1
            items = [item(depth + 1)]
            skip()
            while pos < len(text) and text[pos] == ",":
                pos += 1
                items.append(item(depth + 1))
                skip()
            if pos >= len(text) or text[pos] != ")":
                fail("expected ',' or ')'")
            pos += 1
            return tuple(items)
        start = pos
        while pos < len(text) and (text[pos].isalnum() or text[pos] == "_"):
            pos += 1
        word = text[start:pos]
        if not word:
            fail("expected a name or '('")
        if not word.isidentifier() or not word.isascii() or keyword.iskeyword(word):
            pos = start
            fail(f"{word!r} is not an identifier")
        return word

    result = item(0)
    skip()
    if pos != len(text):
        fail("unexpected trailing input")
    return result


def _within_depth(x, limit: int) -> bool:
    """Whether ``x`` nests tuples/lists at most ``limit`` deep (checked before anything recurses over it)."""
    if isinstance(x, (list, tuple)):
        return limit > 0 and all(_within_depth(y, limit - 1) for y in x)
    return True


def _tuplify(x):
    return tuple(_tuplify(y) for y in x) if isinstance(x, (list, tuple)) else x


def _congruent(names, shape) -> bool:
    if isinstance(shape, tuple):
        return isinstance(names, tuple) and len(names) == len(shape) and all(
            _congruent(n, s) for n, s in zip(names, shape))
    return not isinstance(names, tuple)


def _flatten(names):
    if isinstance(names, tuple):
        for x in names:
            yield from _flatten(x)
    else:
        yield names


def _fmt_shape(shape) -> str:
    from ..core.layout import format_int_tuple
    return format_int_tuple(shape)


def leaf_paths(shape) -> list[tuple]:
    """Mode paths of the leaves of ``shape`` in flattened order."""
    out = []

    def go(s, path):
        if isinstance(s, tuple):
            for i, x in enumerate(s):
                go(x, path + (i,))
        else:
            out.append(path)
    go(shape, ())
    return out


def unflatten_names(flat: tuple, shape):
    """Fold a flat tuple of names into the nesting of ``shape``."""
    return it.unflatten(tuple(flat), shape)
