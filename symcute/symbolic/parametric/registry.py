"""The latest declaration of each parameter name, so ``layout((M, K), (K, 1))`` finds its side conditions."""

from __future__ import annotations

from ...errors import SymcuteError
from .conditions import Param, Params
from . import conditions

_LATEST: dict[str, Param] = {}


def params(names, multiple_of=None, at_least=None, at_most=None) -> Params:
    """Declare parameters (see :func:`conditions.params`); a later declaration of a name replaces it."""
    p = conditions.params(names, multiple_of=multiple_of, at_least=at_least, at_most=at_most)
    for q in p.params:
        _LATEST[q.name] = q
    return p


def params_of(symbols) -> Params:
    out = []
    for s in sorted(symbols, key=str):
        q = _LATEST.get(str(s))
        if q is None or q.symbol != s:
            raise SymcuteError(f"{s} is not a declared parameter: declare it with params({str(s)!r}, ...)")
        out.append(q)
    return Params(tuple(out))
