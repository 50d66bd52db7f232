"""Reading symcute's environment variables: each value checked, a bad one a one-line SymcuteError.

A variable is read where its module is first imported (as ``SYMCUTE_EXHAUSTIVE_LIMIT`` is), so a bad
value stops the command that loads it with an error naming the variable, the value and what it takes --
never a ``ValueError`` from ``float()`` (``SYMCUTE_ISL_SECONDS=abc`` broke every command that loaded the
expression language), and never a silently different meaning (``SYMCUTE_EXACT=no`` turned nothing off, ``SYMCUTE_ORACLE_JOBS=abc``
was ignored, ``SYMCUTE_ORACLE_CACHE=nein`` left the cache on).
"""

from __future__ import annotations

import math
import os

from .errors import SymcuteError

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def flag(name: str, default: bool) -> bool:
    """The boolean variable ``name`` (1/true/yes/on or 0/false/no/off, any case); ``default`` when unset or empty."""
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise SymcuteError(f"{name}={text[:40]!r} is not a switch (one of {', '.join(_TRUE + _FALSE)})")


def seconds(name: str, default: float, most: float = 86400.0) -> float:
    """The variable ``name`` as a number of seconds in (0, most]; ``default`` when unset or empty."""
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    try:
        if len(text) > 40 or not text.strip().isascii():
            raise ValueError
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 < value <= most):
        raise SymcuteError(f"{name}={text[:40]!r} is not a number of seconds in (0, {most:g}]")
    return value


def count(name: str, default: int | None, most: int) -> int | None:
    """The variable ``name`` as a whole number in [1, most] (ASCII digits); ``default`` when unset or empty."""
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    word = text.strip()
    if not (word.isascii() and word.isdigit()) or len(word) > 12 or not 1 <= int(word) <= most:
        raise SymcuteError(f"{name}={text[:40]!r} is not a whole number in [1, {most}]")
    return int(word)


__all__ = ["count", "flag", "seconds"]
