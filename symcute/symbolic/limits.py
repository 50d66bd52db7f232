"""Configurable limits of the symbolic layer.

``EXHAUSTIVE_LIMIT``: the largest domain (number of inputs, or of values for a
surjectivity check) that the prover enumerates when no refinement argument
applies; beyond it the verdict is "unknown".  Default ``2**24``; the
environment variable ``SYMCUTE_EXHAUSTIVE_LIMIT`` or :func:`set_exhaustive_limit`
changes it, and every prover function takes ``limit=`` for one call.
"""

from __future__ import annotations

import os

from ..errors import LimitError, SymcuteError


def _from_env() -> int:
    text = os.environ.get("SYMCUTE_EXHAUSTIVE_LIMIT", "")
    if not text:
        return 1 << 24
    # ASCII digits only, as `prove --limit` takes them: int() would also read '٣' (3) and ' -1 '
    if not (text.isascii() and text.isdigit()) or len(text) > 30:
        raise SymcuteError(f"SYMCUTE_EXHAUSTIVE_LIMIT={text[:40]!r} is not a non-negative integer "
                           f"(ASCII digits, as prove --limit takes)")
    return int(text)


EXHAUSTIVE_LIMIT = _from_env()

# Domains up to this many inputs are enumerated before any solver is asked: numpy evaluates them in a few
# milliseconds (docs/performance.md, "Enumeration vs plain numpy"), less than one Z3 query costs to build,
# while a query the solvers find hard spends their whole budget first.  A work bound (the inputs), not a
# time, so a claim gets the same method on any machine.  It is the independent checker's default
# re-enumeration bound (symcute.check.BOUND): every certificate of this path is re-checked by default.
ENUMERATE_BEFORE_SOLVERS = 1 << 16
HOW_TO_CHANGE = "symcute.symbolic.limits.EXHAUSTIVE_LIMIT, env SYMCUTE_EXHAUSTIVE_LIMIT, prove --limit"


def set_exhaustive_limit(n: int) -> int:
    """Set the enumeration limit; returns the previous one."""
    global EXHAUSTIVE_LIMIT
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise SymcuteError(f"exhaustive limit must be a non-negative integer, got {n!r}")
    old, EXHAUSTIVE_LIMIT = EXHAUSTIVE_LIMIT, n
    return old


def exhaustive_limit(limit: int | None = None) -> int:
    """The limit of one call: ``limit`` (validated) or the configured one."""
    if limit is None:
        return EXHAUSTIVE_LIMIT
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise SymcuteError(f"exhaustive limit must be a non-negative integer, got {limit!r}")
    return limit


def check_enumerable(n: int, what: str, limit: int | None = None) -> None:
    """Raise LimitError when enumerating ``n`` items would pass the limit."""
    lim = exhaustive_limit(limit)
    if n > lim:
        raise LimitError(f"{what}: enumerating {_pow2(n)} items exceeds the exhaustive limit {_pow2(lim)} "
                         f"({HOW_TO_CHANGE})")


def _pow2(n: int) -> str:
    if n > 0 and n & (n - 1) == 0 and n >= 1024:
        return f"2^{n.bit_length() - 1}"
    return str(n)
