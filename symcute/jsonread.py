"""Reading JSON that symcute did not just write: limits first, then a schema, then use.

Every reader of a document from a file or from the caller (derivations,
formulas, proofs, hwcheck results, manifests and evidence, user atoms) goes
through :func:`loads` (or :func:`load_lines` for JSON Lines) and
:func:`validate`, so a malformed document is one :class:`SymcuteError` that
names the source, the position (line and column for text that is not JSON, a
JSON path such as ``$.graph.nodes[3].id`` for a value of the wrong shape) and
the expected shape -- never a ``KeyError`` or ``TypeError`` from the code that
would have used it.

Limits, checked before the document is built (Python's own parser recurses
once per nesting level and converts every integer, however long):

* ``MAX_JSON_CHARS``: the text's length;
* ``MAX_JSON_DEPTH``: nesting of arrays and objects;
* ``MAX_JSON_INT_DIGITS``: digits of one integer (4,300, the limit of
  symcute's text readers, so whatever symcute writes reads back);
* floats must be finite (``1e400``, ``NaN`` and ``Infinity`` are refused).

Schemas are JSON Schema (draft 2020-12) dictionaries kept next to each reader;
``jsonschema`` checks them (imported on first use: reading JSON is never on a
hot path).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Iterator

from .errors import SymcuteError

MAX_JSON_CHARS = 64 * 2**20
MAX_JSON_DEPTH = 64
MAX_JSON_INT_DIGITS = 4300

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _int(digits: str) -> int:
    n = len(digits.lstrip("-"))
    if n > MAX_JSON_INT_DIGITS:
        raise _Refused(f"an integer of {n} digits (at most {MAX_JSON_INT_DIGITS})")
    return int(digits)


def _float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise _Refused(f"the number {text[:40]} is not a finite float")
    return x


def _constant(name: str):
    raise _Refused(f"{name} is not a JSON number")


class _Refused(Exception):
    pass


def _depth_error(text: str) -> str | None:
    """Where the nesting first exceeds MAX_JSON_DEPTH (strings skipped), as a message; None if it does not."""
    depth = 0
    for m in _TOKENS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                return f"line {line} column {col}: nested deeper than {MAX_JSON_DEPTH} levels"
        elif tok in "]}":
            depth -= 1
    return None


def loads(text, source: str) -> Any:
    """The JSON value of ``text`` (str or bytes) from ``source`` (a file name, or what the text is).

    @post the value nests at most MAX_JSON_DEPTH levels, every int has at most
          MAX_JSON_INT_DIGITS digits and every float is finite
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SymcuteError(f"{source}: not UTF-8 text (byte {e.start})") from None
    if not isinstance(text, str):
        raise SymcuteError(f"{source}: expected JSON text, got {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise SymcuteError(f"{source}: {len(text)} characters exceed the limit of {MAX_JSON_CHARS}")
    deep = _depth_error(text)
    if deep:
        raise SymcuteError(f"{source}: {deep}")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise SymcuteError(f"{source}: not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except _Refused as e:
        raise SymcuteError(f"{source}: {e}") from None
    except RecursionError:  # deeper than Python allows despite the scan (a very small recursion limit)
        raise SymcuteError(f"{source}: nested too deeply") from None


def load_lines(text: str, source: str) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of JSON Lines text; errors name the line."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, loads(line, f"{source} line {number}")


def checked(value, schema: dict, source: str):
    """``value`` itself if it has the shape ``schema`` describes; else a SymcuteError naming where and what."""
    validator = _validator(schema)
    error = _best(validator.iter_errors(value))
    if error is not None:
        raise SymcuteError(f"{source}: {describe(error)}")
    return value


def describe(error) -> str:
    """One line for a jsonschema ValidationError: the JSON path, what is there, what was expected."""
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    expected = None
    if isinstance(error.schema, dict):
        if error.validator == "required":
            expected = "an object with " + ", ".join(map(str, error.validator_value))
        else:
            expected = _expected(error.schema)
    found = _clip(error.message)
    return f"at {path}: {found}" + (f" (expected {expected})" if expected else "")


def _expected(schema: dict) -> str | None:
    if "description" in schema:
        return schema["description"]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(x) for x in schema["enum"])
    t = schema.get("type")
    if t:
        return t if isinstance(t, str) else " or ".join(t)
    return None


def _clip(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[:n] + "..."


def _best(errors):
    from jsonschema.exceptions import best_match
    return best_match(errors)


_VALIDATORS: dict = {}


def _validator(schema: dict):
    key = id(schema)
    v = _VALIDATORS.get(key)
    if v is None or v[0] is not schema:
        v = _VALIDATORS[key] = (schema, _validator_class()(schema))
    return v[1]


def _validator_class():
    """Draft 2020-12, except that an integer is a JSON integer: JSON Schema counts 4.0 as one, symcute does not."""
    global _CLASS
    if _CLASS is None:
        from jsonschema import Draft202012Validator, validators
        checker = Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", lambda _checker, x: type(x) is int)
        _CLASS = validators.extend(Draft202012Validator, type_checker=checker)
    return _CLASS


_CLASS = None


def read(text, schema: dict, source: str):
    """:func:`loads` then :func:`checked`: the validated JSON value of ``text``."""
    return checked(loads(text, source), schema, source)


__all__ = ["MAX_JSON_CHARS", "MAX_JSON_DEPTH", "MAX_JSON_INT_DIGITS", "checked", "describe", "load_lines",
           "loads", "read"]
