"""CuTe's algorithms on (hierarchical) tuples: ``cute/algorithm/tuple_algorithms.hpp`` and the comparisons
of ``cute/int_tuple.hpp``, on plain Python ints and tuples.

CuTe's ``is_tuple`` holds for an ``ArithmeticTuple`` (``arithmetic_tuple.hpp``), so every function here
reads one as the tuple of its elements (:func:`as_tuple`), and returns what CuTe's ``make_tuple`` builds:
a plain tuple.  Anything else (an int, a ScaledBasis, a layout) is a non-tuple, as ``is_tuple`` has it.
CuTe's template arguments (``take<B,E>``, ``select<I...>``, ``append<N>``) are plain ints here; what
CuTe's ``static_assert``\\ s or its failing ``get<I>`` refuse raises a :class:`LayoutError` naming the call.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import LayoutError
from .basis import ArithmeticTuple, ScaledBasis
from .kinds import kind_of
from .int_text import format_int_tuple

MAX_RANK = 1 << 16  # append<N>/prepend<N>/repeat<N> build N modes; beyond this N is a typo, not a tuple


def as_tuple(x) -> Any:
    """``x`` with an ArithmeticTuple read as the tuple of its elements (CuTe's ``is_tuple`` holds for it)."""
    return x.items if type(x) is ArithmeticTuple else x


def _integral(x) -> bool:
    """CuTe's ``is_integral``: an integer or a ScaledBasis (``arithmetic_tuple.hpp`` declares it integral)."""
    return (isinstance(x, int) and not isinstance(x, bool)) or type(x) is ScaledBasis


def _text(x) -> str:
    return format_int_tuple(x) if isinstance(x, tuple) else str(x)


def _index(i, call: str) -> int:
    if isinstance(i, bool) or not isinstance(i, int):
        raise LayoutError(f"{call}: the index {i!r} is not an integer (CuTe's template argument)")
    return int(i)


def get(t, *path: int):
    """CuTe's ``get<I...>(t)``: ``get<0>`` of a non-tuple is itself (``rank(int) == 1``)."""
    for i in path:
        t = as_tuple(t)
        i = _index(i, "get")
        if isinstance(t, tuple):
            if not 0 <= i < len(t):
                raise LayoutError(f"get<{i}>({_text(t)}): Index out of range (rank {len(t)})")
            t = t[i]
        elif not _integral(t):
            raise LayoutError(f"get<{i}>({_text(t)}): CuTe's get of a non-tuple takes an integer (is_integral), "
                              f"not a {type(t).__name__}")
        elif i != 0:
            raise LayoutError(f"get<{i}>({_text(t)}): Index out of range (a non-tuple has only mode 0)")
    return t


def take(t, b: int, e: int):
    """CuTe's ``take<B,E>(t)``: the tuple of the elements ``[b, e)`` (``e == -1``: to the end).

    @pre b <= e, and [b, e) within the rank (a non-tuple has rank 1)
    """
    t = as_tuple(t)
    b, e = _index(b, "take"), _index(e, "take")
    n = len(t) if isinstance(t, tuple) else 1
    if e == -1:
        e = n
    if b > e:
        raise LayoutError(f"take<{b},{e}>({_text(t)}): static_assert(B <= E) fails")
    return tuple(get(t, i) for i in range(b, e))


def select(t, *modes: int):
    """CuTe's ``select<I...>(t)``: ``make_tuple(get<I>(t)...)``."""
    return tuple(get(t, m) for m in modes)


def wrap(t):
    """CuTe's ``wrap``: a non-tuple as a rank-1 tuple."""
    t = as_tuple(t)
    return t if isinstance(t, tuple) else (t,)


def unwrap(t):
    """CuTe's ``unwrap``: strip rank-1 tuples."""
    t = as_tuple(t)
    while isinstance(t, tuple) and len(t) == 1:
        t = as_tuple(t[0])
    return t


def front(t):
    """CuTe's ``front``: the first non-tuple element."""
    t = as_tuple(t)
    while isinstance(t, tuple):
        t = as_tuple(get(t, 0))
    return t


def back(t):
    """CuTe's ``back``: the last non-tuple element."""
    t = as_tuple(t)
    while isinstance(t, tuple):
        t = as_tuple(get(t, len(t) - 1))
    return t


def flatten_to_tuple(t) -> tuple:
    """CuTe's ``flatten_to_tuple``: the leaves of ``t`` as a flat tuple (a non-tuple wrapped)."""
    t = as_tuple(t)
    if not isinstance(t, tuple):
        return (t,)
    out: list = []
    stack = [iter(t)]
    while stack:
        for x in stack[-1]:
            x = as_tuple(x)
            if isinstance(x, tuple):
                stack.append(iter(x))
                break
            out.append(x)
        else:
            stack.pop()
    return tuple(out)


def flatten(t):
    """CuTe's ``flatten``: depth at most 1; a non-tuple is returned as is."""
    t = as_tuple(t)
    return flatten_to_tuple(t) if isinstance(t, tuple) else t


def unflatten(flat, profile):
    """CuTe's ``unflatten(flat, profile)``: ``flat``'s elements folded into ``profile``'s nesting.

    @pre rank(flat) == rank(flatten(profile)) (CuTe asserts that nothing is left over)
    @post congruent(result, profile)
    """
    flat, profile = as_tuple(flat), as_tuple(profile)
    items = flat if isinstance(flat, tuple) else (flat,)
    pos = 0

    def build(p):
        nonlocal pos
        p = as_tuple(p)
        if isinstance(p, tuple):
            return tuple(build(x) for x in p)
        if pos >= len(items):
            raise LayoutError(f"unflatten({_text(flat)}, {_text(profile)}): {_text(flat)} has fewer elements "
                              f"than the profile has leaves")
        pos += 1
        return items[pos - 1]

    result = build(profile)
    if pos != len(items):
        raise LayoutError(f"unflatten({_text(flat)}, {_text(profile)}): {_text(flat)} has more elements than the "
                          f"profile has leaves (CuTe: rank(flat_remainder) == 0 fails)")
    return result


def group(t, b: int, e: int):
    """CuTe's ``group<B,E>(t)``: the elements ``[b, e)`` gathered into one (``e == -1``: to the end).

    @pre b <= e, within the rank
    """
    t = as_tuple(t)
    b, e = _index(b, "group"), _index(e, "group")
    items = t if isinstance(t, tuple) else (t,)
    if e == -1:
        e = 1 if not isinstance(t, tuple) else len(t)
    if not 0 <= b <= e <= len(items):
        raise LayoutError(f"group<{b},{e}>({_text(t)}): the range is out of bounds for rank {len(items)}")
    return items[:b] + ((items[b:e],) if b < e else ()) + items[e:]


def _rank_n(n, call: str) -> int:
    n = _index(n, call)
    if n > MAX_RANK:
        raise LayoutError(f"{call}: rank {n} exceeds the limit of {MAX_RANK} modes")
    return n


def append(t, x, n: int | None = None):
    """CuTe's ``append(t, x)`` (a non-tuple becomes ``(t, x)``) and ``append<N>(t, x)`` (pad with ``x`` to rank N).

    @pre for append<N>: N >= rank(t) (a non-tuple: N >= 1)
    """
    t = as_tuple(t)
    if n is None:
        return (t + (x,)) if isinstance(t, tuple) else (t, x)
    n = _rank_n(n, "append")
    items = t if isinstance(t, tuple) else (t,)
    if not isinstance(t, tuple) and n == 1:
        return t
    if n < len(items):
        raise LayoutError(f"append<{n}>({_text(t)}, {_text(x)}): static_assert(N > rank) fails (rank {len(items)})")
    return items + (x,) * (n - len(items))


def prepend(t, x, n: int | None = None):
    """CuTe's ``prepend(t, x)`` and ``prepend<N>(t, x)`` (pad at the front)."""
    t = as_tuple(t)
    if n is None:
        return ((x,) + t) if isinstance(t, tuple) else (x, t)
    n = _rank_n(n, "prepend")
    items = t if isinstance(t, tuple) else (t,)
    if not isinstance(t, tuple) and n == 1:
        return t
    if n < len(items):
        raise LayoutError(f"prepend<{n}>({_text(t)}, {_text(x)}): static_assert(N > rank) fails "
                          f"(rank {len(items)})")
    return (x,) * (n - len(items)) + items


def repeat(x, n: int):
    """CuTe's ``repeat<N>(x)``: ``x`` for N == 1, else a tuple of N copies."""
    n = _rank_n(n, "repeat")
    if n < 0:
        raise LayoutError(f"repeat<{n}>: a negative rank")
    return x if n == 1 else (x,) * n


def repeat_like(t, x):
    """CuTe's ``repeat_like(t, x)``: ``x`` at every leaf of ``t``."""
    t = as_tuple(t)
    if isinstance(t, tuple):
        return tuple(repeat_like(y, x) for y in t)
    return x


def reverse(t):
    """CuTe's ``reverse``: the top-level elements in reverse order."""
    t = as_tuple(t)
    return tuple(reversed(t)) if isinstance(t, tuple) else t


def _same_rank(call: str, *ts):
    n = len(ts[0])
    for u in ts[1:]:
        if not isinstance(u, tuple) or len(u) != n:
            raise LayoutError(f"{call}: Mismatched tuple_size among {', '.join(_text(v) for v in ts)}")


def transform(*args):
    """CuTe's ``transform(t, f)``, ``transform(t0, t1, f)``, ``transform(t0, t1, t2, f)``: ``f`` on the
    top-level elements (all tuples of one rank), or on the arguments themselves when the first is no tuple.
    """
    *ts, f = args
    if not 1 <= len(ts) <= 3 or not callable(f):
        raise LayoutError("transform takes one to three tuples and a function")
    ts = [as_tuple(t) for t in ts]
    if not isinstance(ts[0], tuple):
        return f(*ts)
    _same_rank("transform", *ts)
    return tuple(f(*xs) for xs in zip(*ts))


def transform_leaf(*args):
    """CuTe's ``transform_leaf(t, f)`` / ``transform_leaf(t0, t1, f)``: ``f`` at the leaves of the first."""
    *ts, f = args
    if not 1 <= len(ts) <= 2 or not callable(f):
        raise LayoutError("transform_leaf takes one or two tuples and a function")
    ts = [as_tuple(t) for t in ts]
    if isinstance(ts[0], tuple):
        return transform(*ts, lambda *xs: transform_leaf(*xs, f))
    return f(*ts)


def fold(t, v, f: Callable):
    """CuTe's ``fold(t, v, f)``: ``f(...f(f(v, t0), t1)..., tn)``; ``f(v, t)`` for a non-tuple ``t``."""
    _callable("fold", f)
    t = as_tuple(t)
    if not isinstance(t, tuple):
        return f(v, t)
    for x in t:
        v = f(v, x)
    return v


def fold_first(t, f: Callable):
    """CuTe's ``fold_first(t, f)``: fold from ``t0`` over the rest; a non-tuple is returned."""
    _callable("fold_first", f)
    t = as_tuple(t)
    if not isinstance(t, tuple):
        return t
    return fold(take(t, 1, -1), get(t, 0), f)


def _callable(op: str, f) -> None:
    if not callable(f):
        raise LayoutError(f"{op}: the function argument {f} is {kind_of(f)}, not a function (CuTe's {op} "
                          f"applies a callable)")


def zip(*ts):
    """CuTe's ``zip``: ``((a,b,c),(x,y,z))`` -> ``((a,x),(b,y),(c,z))``; ``zip(t0, t1, ...)`` zips ``(t0, t1, ...)``.

    A tuple whose first element is no tuple becomes ``(t,)``; a non-tuple is returned.
    @pre the elements are tuples of the first one's rank (CuTe: "Mismatched Ranks")
    """
    t = as_tuple(ts[0]) if len(ts) == 1 else tuple(ts)
    if not isinstance(t, tuple):
        return t
    if not t:
        raise LayoutError("zip(()): an empty tuple has no element 0 to zip by")
    rows = [as_tuple(x) for x in t]
    if not isinstance(rows[0], tuple):
        return (t,)
    r = len(rows[0])
    if any(not isinstance(x, tuple) or len(x) != r for x in rows):
        raise LayoutError(f"zip({_text(t)}): Mismatched Ranks")
    return tuple(tuple(x[j] for x in rows) for j in range(r))


# --- comparisons (int_tuple.hpp) ------------------------------------------------------------------

def _leaf_less(a, b, call: str) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        raise LayoutError(f"{call}({_text(a)}, {_text(b)}): a tuple and a non-tuple have no operator<")
    if not _is_number(a) or not _is_number(b):
        raise LayoutError(f"{call}({_text(a)}, {_text(b)}): CuTe has no operator< for {a if not _is_number(a) else b}")
    return a < b


def _is_number(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def elem_less(a, b) -> bool:
    """CuTe's ``elem_less``: each element of ``a`` is less than ``b``'s (``b`` may have more; not fewer).

    CuTe instantiates every pair up to the shorter rank, so a pair without ``operator<`` refuses the call
    even where the answer is already false.
    """
    a, b = as_tuple(a), as_tuple(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        less = [elem_less(a[i], b[i]) for i in range(min(len(a), len(b)))]
        return len(a) <= len(b) and all(less)
    return _leaf_less(a, b, "elem_less")


def elem_leq(a, b) -> bool:
    """CuTe's ``elem_leq(a, b) == !elem_less(b, a)``."""
    return not elem_less(b, a)


def elem_gtr(a, b) -> bool:
    """CuTe's ``elem_gtr(a, b) == elem_less(b, a)``."""
    return elem_less(b, a)


def elem_geq(a, b) -> bool:
    """CuTe's ``elem_geq(a, b) == !elem_less(a, b)``."""
    return not elem_less(a, b)


def lex_less(a, b) -> bool:
    """CuTe's ``lex_less``: lexicographic order (a proper prefix is less)."""
    return _ordered(as_tuple(a), as_tuple(b), "lex_less", reverse=False)


def colex_less(a, b) -> bool:
    """CuTe's ``colex_less``: colexicographic order (compared from the last element)."""
    return _ordered(as_tuple(a), as_tuple(b), "colex_less", reverse=True)


def _ordered(a, b, call: str, reverse: bool) -> bool:
    if not (isinstance(a, tuple) and isinstance(b, tuple)):
        return _leaf_less(a, b, call)
    n = min(len(a), len(b))
    # every pair up to the shorter rank is instantiated (a pair without operator< refuses the call)
    pairs = [(a[len(a) - 1 - i], b[len(b) - 1 - i]) if reverse else (a[i], b[i]) for i in range(n)]
    less = [_ordered(as_tuple(x), as_tuple(y), call, reverse) for x, y in pairs]
    for k, (x, y) in enumerate(pairs):
        if less[k]:
            return True
        if not _equal(x, y):
            return False
    return len(a) < len(b)


def _equal(a, b) -> bool:
    a, b = as_tuple(a), as_tuple(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_equal(a[i], b[i]) for i in range(len(a)))
    return a == b
