"""How a derivation stores values: their kind and exact text, and how it reads them back.

Layouts, ints and tuples round-trip through their CuTe notation (read back by
symcute's own reader).  Other values (formulas, proofs, TiledMMAs) are kept as
the JSON or text they give; a re-imported derivation holds that text.
"""

from __future__ import annotations

from ..core.composed import ComposedLayout
from ..core.layout import Layout, Underscore, format_int_tuple


def describe(obj) -> dict:
    if isinstance(obj, (Layout, ComposedLayout)):
        return {"kind": "layout", "text": str(obj)}
    if isinstance(obj, bool):
        return {"kind": "text", "text": str(obj)}
    if isinstance(obj, int):
        return {"kind": "int", "text": str(obj)}
    if isinstance(obj, tuple):
        return {"kind": "tuple", "text": format_int_tuple(obj)}
    if isinstance(obj, Underscore):
        return {"kind": "tuple", "text": "_"}
    if isinstance(obj, str):
        return {"kind": "text", "text": obj}
    to_json = getattr(obj, "to_json", None)
    if callable(to_json):
        return {"kind": type(obj).__name__, "text": to_json()}
    return {"kind": type(obj).__name__, "text": str(obj)}


def from_description(kind: str, text: str):
    """The value a description holds, read with CuTe-notation readers only (never the expression language).

    @pre text came from a file: it is read, not run (a document cannot make the reader compute)
    """
    from ..core.parse import parse_layout, parse_value
    if kind == "layout":
        return parse_layout(text)
    if kind == "int":
        from ..core.parse import Reader
        r = Reader(text)
        v = r.int_leaf()
        r.done()
        return v
    if kind == "tuple":
        return parse_value(text)
    if kind == "text":
        return text
    from ..errors import SymcuteError
    from .. import jsonread
    try:
        return jsonread.loads(text, f"a {kind} value")
    except SymcuteError:
        return text


__all__ = ["describe", "from_description", "format_int_tuple"]
