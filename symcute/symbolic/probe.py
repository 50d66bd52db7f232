"""Refutations by probing: a claim evaluated with core at a few cheap inputs before a solver is asked.

A wrong claim about a layout is nearly always wrong at a *structured* input: a
digit of the domain at 1 (a wrong stride shows there), a digit at its
extent-1 (a wrong extent, a carry), a power of two of the index (a wrong bit,
a swizzle), or a place value ``c*w`` of a digit (two strides in a ratio below
an extent collide there).  :func:`refute` evaluates the question's terms with
core at those inputs (plus a few seeded pseudo-random ones) and returns the
witness in the shape the exact back-ends return it (``exact.decide``), so a
refutation costs O(probes * modes) whatever the domain's size (a wrong inverse
of a 2^40 bijection: microseconds) and no solver runs.

Sound by construction: a probe only ever *refutes*, and only with inputs whose
values core computed (the prover re-evaluates the witness once more before it
answers).  When no probe refutes, nothing is concluded and the solvers decide as
before, so no true claim's verdict can change.  ``SYMCUTE_PROBE=0`` (or
``set_enabled(False)``) turns probing off, to measure the solver path alone.
"""

from __future__ import annotations

import random

from .. import environment
from ..core import int_tuple as it
from ..core.composed import ComposedLayout
from ..core.layout import Layout
from ..errors import SymcuteError
from .formula import Formula
from .linear import Compose, evaluate
from .swizzled import SwizzledFormula

ENABLED = environment.flag("SYMCUTE_PROBE", True)

# At most this many probe inputs per term: O(modes) of them are structured, and past 256 modes (the exact
# back-ends' own bound) a probe still costs O(modes) per evaluation, so the total stays bounded by the input.
MAX_PROBES = 512
RANDOM_PROBES = 8


def set_enabled(flag: bool) -> bool:
    """Turn probing on or off; returns the previous setting."""
    global ENABLED
    old, ENABLED = ENABLED, bool(flag)
    return old


def _domain_modes(term) -> list[tuple[int, int]]:
    """``(extent, weight)`` of each flat mode of the term's inputs (its innermost layout), extent > 1."""
    t = term
    while True:
        if isinstance(t, Compose):
            t = t.inner
        elif isinstance(t, (Formula, SwizzledFormula)):
            t = t.layout
        elif isinstance(t, ComposedLayout):
            t = t.inner
        else:
            break
    if not isinstance(t, Layout):
        return []   # a bare swizzle: its inputs are the integers, the powers of two cover its bits
    out, w = [], 1
    for e in it.flatten_to_tuple(t.shape):
        e = abs(e)
        if e > 1:
            out.append((e, w))
        w *= max(e, 1)
    return out


def inputs(terms, n: int, start: int = 0) -> list[int]:
    """The probe inputs in ``[start, n)``, most telling first, no repeats, at most :data:`MAX_PROBES`.

    Each digit of the terms' domains at 1 and at its extent-1 (the others 0), the index's powers of two,
    the place values ``c*w`` (``c`` a power of two below the extent), ``n - 1`` and a few seeded
    pseudo-random inputs."""
    modes = []
    for t in terms:
        modes += [m for m in _domain_modes(t) if m not in modes]
    cands = [start]
    cands += [w for _e, w in modes]
    cands += [(e - 1) * w for e, w in modes]
    cands += [1 << b for b in range(max(n - 1, 0).bit_length())]
    cands += [c * w for e, w in modes for c in _powers(e)]
    cands += [n - 1, n // 2]
    rng = random.Random(n * 1000003 + start)
    cands += [rng.randrange(start, n) for _ in range(RANDOM_PROBES)] if n > start else []
    seen, out = set(), []
    for q in cands:
        if start <= q < n and q not in seen:
            seen.add(q)
            out.append(q)
            if len(out) >= MAX_PROBES:
                break
    return out


def _powers(e: int) -> list[int]:
    """2, 4, ... below ``e`` and ``e // 2`` (1 and ``e - 1`` are probed already)."""
    out = [1 << b for b in range(1, (e - 1).bit_length()) if (1 << b) < e - 1]
    return out + ([e // 2] if e // 2 > 1 and e // 2 not in out else [])


def _value(term, x: int):
    """Core's value, or None where core refuses the input (a probe never turns an error into a verdict)."""
    try:
        return evaluate(term, x)
    except (SymcuteError, ArithmeticError):
        return None


def refute(question: str, args: tuple):
    """A witness refuting ``question`` on ``args`` (as ``exact.decide`` takes them) found by probing, with a
    line saying where: ``(witness, evidence)``; or None (nothing is concluded).

    Witnesses: ``equal(lhs, rhs, n)``: an index ``q``; ``injective(L, n)``: a pair ``(x, y)``, ``x < y``;
    ``inside(L, size, n)``: an index ``x``; ``disjoint(a, na, b, nb[, a_from])``: a pair ``(x, y)`` with
    ``a(x) == b(y)``; ``increasing(L, n)``: an index ``i`` with ``L(i-1) >= L(i)``.  Other questions (every
    value hit, containment) cannot be refuted at finitely many inputs: None."""
    if not ENABLED:
        return None
    found = _FINDERS[question](*args) if question in _FINDERS else None
    if found is None:
        return None
    witness, tried = found
    return witness, f"probe: refuted with core at input {witness} ({tried} probe inputs tried, no solver asked)"


def _equal(lhs, rhs, n: int):
    qs = inputs((lhs, rhs), n)
    for k, q in enumerate(qs):
        a, b = _value(lhs, q), _value(rhs, q)
        if a is not None and b is not None and a != b:
            return q, k + 1
    return None


def _injective(term, n: int):
    seen = {}
    qs = inputs((term,), n)
    for k, q in enumerate(qs):
        v = _value(term, q)
        if v is None:
            continue
        if v in seen:
            return (min(q, seen[v]), max(q, seen[v])), k + 1
        seen[v] = q
    return None


def _inside(term, size: int, n: int):
    qs = inputs((term,), size)
    for k, q in enumerate(qs):
        v = _value(term, q)
        if v is not None and not 0 <= v < n:
            return q, k + 1
    return None


def _disjoint(a, na: int, b, nb: int, a_from: int = 0):
    vb = {}
    qb = inputs((b,), nb)
    for y in qb:
        v = _value(b, y)
        if v is not None:
            vb.setdefault(v, y)
    qa = inputs((a,), na, a_from)
    for k, x in enumerate(qa):
        v = _value(a, x)
        if v is not None and v in vb:
            return (x, vb[v]), len(qb) + k + 1
    return None


def _increasing(term, n: int):
    qs = inputs((term,), n, 1)
    for k, i in enumerate(qs):
        a, b = _value(term, i - 1), _value(term, i)
        if a is not None and b is not None and a >= b:
            return i, k + 1
    return None


_FINDERS = {"equal": _equal, "injective": _injective, "inside": _inside, "disjoint": _disjoint,
            "increasing": _increasing}
