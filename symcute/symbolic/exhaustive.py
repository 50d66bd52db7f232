"""Exhaustive evaluation of terms on a whole domain (numpy, vectorised and chunked), used where refinement cannot decide.

Values are exactly CuTe's: an integer index is split over the flattened
shape with the last mode taking any overflow, and negative indices (from a
negative inner stride) split with C++ truncation, as ``crd2idx`` does.  When a
value could pass int64, the arrays hold Python ints (numpy ``object``).
Every entry point checks the domain against the configured limit first.

A term is compiled once (:func:`evaluator`: the flat modes, the swizzle masks
and offsets read from the term) and applied to the domain in chunks of
:data:`CHUNK` inputs, so the intermediates of one evaluation (each mode's
digit, the running quotient) stay a few chunks in size whatever the domain:
the only array of the domain's length is the values themselves, where the
question needs them all (injectivity, the image), and none where it does not
(equality compares chunk by chunk and stops at the first difference).
"""

from __future__ import annotations

from ..core import int_tuple as it
from ..core.composed import ComposedLayout, UInt32
from ..core.swizzle import Swizzle
from .formula import Formula, _numpy
from .swizzled import SwizzledFormula
from ..errors import LayoutError, LimitError
from .limits import check_enumerable
from .linear import Compose

_SAFE = 1 << 62

# Inputs evaluated at once: large enough that numpy's per-call cost is amortised, small enough that a
# chunk's intermediates stay in cache (2^16 int64 = 512 KiB per array).
CHUNK = 1 << 16

# A value range up to this many times the number of values is checked with a bitmap (one byte per
# value of the range); a wider one is sorted.
BITMAP_FACTOR = 8


def values(term, n: int, limit: int | None = None):
    """The array ``[term(0), ..., term(n-1)]`` (raises LimitError past the limit)."""
    check_enumerable(n, f"evaluating {term} on [0, {n})", limit)
    np = _numpy()
    f = evaluator(term)
    try:  # a limit raised by hand past what memory holds: numpy refuses the size or the allocation
        out = None
        for start, v in _chunks(f, n):
            if out is None:
                out = _empty(np, n, v.dtype)
            elif v.dtype == object and out.dtype != object:   # a later chunk passed int64: exact ints from here
                out = out.astype(object)
            out[start:start + v.size] = v
        return out if out is not None else np.zeros(0, dtype=np.int64)
    except MemoryError:
        raise LimitError(f"evaluating {term} on [0, {n}): {n} items do not fit in memory; "
                         f"lower the exhaustive limit") from None


def _empty(np, n: int, dtype):
    try:
        return np.empty(n, dtype=dtype)
    except ValueError:  # "Maximum allowed size exceeded"
        raise MemoryError from None


def _chunks(f, n: int, start: int = 0):
    """``(first input, values)`` of ``f`` on ``[start, n)``, :data:`CHUNK` inputs at a time."""
    np = _numpy()
    for s in range(start, n, CHUNK):
        yield s, f(np.arange(s, min(n, s + CHUNK), dtype=np.int64))


def apply(term, q):
    """``term`` applied elementwise to the integer array ``q``."""
    return evaluator(term)(q)


def evaluator(term):
    """A function ``q -> term(q)`` on integer arrays, with everything that depends on the term alone
    (flat modes, masks, offsets) read once."""
    if isinstance(term, Compose):
        outer, inner = evaluator(term.outer), evaluator(term.inner)
        return lambda q: outer(inner(q))
    if isinstance(term, SwizzledFormula):
        return evaluator(term.layout)
    if isinstance(term, Swizzle):  # Swizzle::apply, as core evaluates it
        msk, shift = term.yyy_msk, term.shift

        def swizzle(q):
            y = q & msk
            return q ^ (y >> shift if shift >= 0 else y << -shift)
        return swizzle
    if isinstance(term, ComposedLayout):  # A(O + B(c)); an unsigned offset wraps as uint32_t
        outer, inner, offset = evaluator(term.outer), evaluator(term.inner), int(term.offset)
        wrap = isinstance(term.offset, UInt32)

        def composed(q):
            v = inner(q)
            if offset:
                v = _add(v, offset)
            return outer(v & 0xFFFFFFFF if wrap else v)
        return composed
    return _layout_evaluator(term.layout if isinstance(term, Formula) else term)


def _add(v, c: int):
    """``v + c`` exactly (Python ints where int64 would overflow)."""
    np = _numpy()
    if v.dtype != object and v.size and (abs(c) >= _SAFE or max(abs(int(v.max())), abs(int(v.min()))) >= _SAFE):
        v = v.astype(object)
    return v + c


def _layout_evaluator(layout):
    np = _numpy()
    shape = it.flatten_to_tuple(layout.shape)
    stride = it.flatten_to_tuple(layout.stride)
    bad = next((d for d in stride if type(d) is not int), None)
    if bad is not None:   # a basis stride's values are coordinates (ArithmeticTuples), not integers to compare
        raise LayoutError(f"{layout}: the stride {bad} is a basis stride; enumeration compares integer values, "
                          f"and this layout's values are coordinates")
    if any(type(s) is not int for s in shape):
        raise LayoutError(f"{layout}: the extents must be integers to enumerate")
    if any(s < 1 for s in shape):  # C++ division by a non-positive extent: let core evaluate each point
        return lambda q: np.array([layout(int(x)) for x in q.tolist()], dtype=object)
    last = len(shape) - 1
    # the modes that contribute: (extent, stride, last?); a mode of extent 1 is digit 0 except the last,
    # and modes past the last nonzero stride need no digit at all
    live = [k for k, (s, d) in enumerate(zip(shape, stride)) if d and (s != 1 or k == last)]
    top = live[-1] if live else -1
    modes = [(shape[k], stride[k], k == last) for k in range(top + 1)]
    inner_bound = sum(abs(d) * (s - 1) for s, d, is_last in modes if not is_last)
    last_stride = abs(stride[last]) if top == last else 0
    wide = any(abs(d) >= _SAFE for d in stride)
    w_all = 1
    for s in shape[:last]:
        w_all *= s

    def evaluate(q):
        if not q.size:
            return np.zeros(q.shape, dtype=np.int64)
        lo, hi = int(q.min()), int(q.max())
        negative = lo < 0
        qmax = max(hi, -lo)
        bound = inner_bound + last_stride * (qmax // w_all)
        # a stride past int64 overflows numpy even when multiplied by 0 (numpy converts it first)
        if bound >= _SAFE or qmax >= _SAFE or w_all >= _SAFE or q.dtype == object or wide:
            q = q.astype(object)
        rest = np.abs(q) if negative else q
        total = None
        for s, d, is_last in modes:
            if is_last:
                digit = rest
            elif s == 1:
                continue
            elif _pow2(s) and rest.dtype != object:
                digit, rest = rest & (s - 1), rest >> (s.bit_length() - 1)
            elif rest.dtype != object:
                rest, digit = np.divmod(rest, s)
            else:   # Python ints: numpy's divmod has no object loop
                rest, digit = rest // s, rest % s
            if d:
                term_ = digit * d if d != 1 else digit
                total = term_ if total is None else total + term_
        if total is None:
            total = np.zeros(q.shape, dtype=q.dtype)
        elif total is q:
            total = total.copy()
        return np.where(q < 0, -total, total) if negative else total
    return evaluate


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def first_mismatch(a, b) -> int | None:
    np = _numpy()
    bad = np.nonzero(a != b)[0]
    return int(bad[0]) if bad.size else None


def first_difference(lhs, rhs, n: int, limit: int | None = None) -> int | None:
    """The smallest ``i < n`` with ``lhs(i) != rhs(i)``, or None; chunk by chunk (no array of length ``n``),
    stopping at the chunk of the first difference."""
    check_enumerable(n, f"comparing {lhs} and {rhs} on [0, {n})", limit)
    np = _numpy()
    f, g = evaluator(lhs), evaluator(rhs)
    for s in range(0, n, CHUNK):
        q = np.arange(s, min(n, s + CHUNK), dtype=np.int64)
        bad = np.flatnonzero(f(q) != g(q))
        if bad.size:
            return s + int(bad[0])
    return None


def first_collision(v) -> tuple[int, int] | None:
    """The smallest index ``j`` whose value an earlier index ``i`` already had, as ``(i, j)`` (``i`` the first
    index with that value)."""
    np = _numpy()
    if v.dtype == object:
        seen = {}
        for j, x in enumerate(v.tolist()):
            if x in seen:
                return seen[x], j
            seen[x] = j
        return None
    n = v.size
    if n < 2:
        return None
    lo, hi = int(v.min()), int(v.max())
    if hi - lo >= BITMAP_FACTOR * n + CHUNK:
        return _first_collision_sorted(np, v)
    seen = np.zeros(hi - lo + 1, dtype=bool)
    for s in range(0, n, CHUNK):
        c = v[s:s + CHUNK] - lo
        if seen[c].any():   # a value of an earlier chunk again
            break
        seen[c] = True
    else:
        if np.count_nonzero(seen) == n:   # n distinct values: injective
            return None
    return _first_collision_from(np, v, lo, hi)


def _first_collision_from(np, v, lo: int, hi: int):
    """The first collision of ``v`` (one exists): the chunks in order, up to the first that repeats a value.

    Each chunk writes its positions into a table indexed by value: a value already written repeats one of
    an earlier chunk, and a position whose own write did not survive shares its value within the chunk.
    Only the positions of such values are sorted, to find the earliest repeat.
    """
    stamp = np.full(hi - lo + 1, -1, dtype=np.int64 if v.size >= 1 << 31 else np.int32)
    for s in range(0, v.size, CHUNK):
        c = v[s:s + CHUNK] - lo
        pos = np.arange(s, s + c.size, dtype=stamp.dtype)
        earlier = stamp[c] >= 0
        stamp[c] = pos
        lost = stamp[c] != pos
        if not (earlier.any() or lost.any()):
            continue
        js = []
        if earlier.any():
            js.append(int(np.argmax(earlier)))
        if lost.any():
            shared = np.zeros(stamp.size, dtype=bool)
            shared[c[lost]] = True
            p = np.flatnonzero(shared[c])               # every position of a value repeated in the chunk
            order = np.argsort(c[p], kind="stable")     # equal values keep their order: all but the first repeat
            sp = c[p][order]
            js.append(int(p[order[1:][sp[1:] == sp[:-1]]].min()))
        j = s + min(js)
        return int(np.argmax(v[:j] == v[j])), j
    raise AssertionError("first_collision: the values have a repeat that no chunk shows")


def _first_collision_sorted(np, v):
    order = np.argsort(v, kind="stable")        # equal values keep their index order
    sv = v[order]
    dup = np.flatnonzero(sv[1:] == sv[:-1]) + 1
    if not dup.size:
        return None
    j = int(order[dup].min())
    i = int(np.argmax(v[:j] == v[j]))
    return i, j


def first_missing(v, n: int, limit: int | None = None) -> int | None:
    """The smallest ``y`` in ``[0, n)`` that no entry of ``v`` equals."""
    check_enumerable(n, f"checking the image covers [0, {n})", limit)
    np = _numpy()
    hit = np.zeros(n, dtype=bool)
    for s in range(0, v.size, CHUNK):
        c = v[s:s + CHUNK]
        inside = c[(c >= 0) & (c < n)]
        hit[inside.astype(np.int64)] = True
    missing = np.flatnonzero(~hit)
    return int(missing[0]) if missing.size else None


def first_shared(a, b) -> tuple[int, int] | None:
    """The smallest ``x`` whose value ``a[x]`` is some ``b[y]``, with the smallest such ``y``; or None."""
    np = _numpy()
    if a.dtype == object or b.dtype == object:
        seen = {}
        for y, x in enumerate(b.tolist()):
            seen.setdefault(x, y)
        x = next((x for x, va in enumerate(a.tolist()) if va in seen), None)
        return None if x is None else (x, seen[a.tolist()[x]])
    hit = _member(np, a, b)
    if not hit.any():
        return None
    x = int(np.argmax(hit))
    return x, int(np.argmax(b == a[x]))


def first_outside(a, b) -> int | None:
    """The smallest ``x`` whose value ``a[x]`` is no ``b[y]``; or None."""
    np = _numpy()
    if a.dtype == object or b.dtype == object:
        image = set(b.tolist())
        return next((x for x, va in enumerate(a.tolist()) if va not in image), None)
    miss = ~_member(np, a, b)
    return int(np.argmax(miss)) if miss.any() else None


def _member(np, a, b):
    """``a[x] in b`` for every x (a bitmap over b's range when it is narrow, else a sorted search)."""
    if not b.size:
        return np.zeros(a.size, dtype=bool)
    lo, hi = int(b.min()), int(b.max())
    if hi - lo < BITMAP_FACTOR * (a.size + b.size) + CHUNK:
        table = np.zeros(hi - lo + 1, dtype=bool)
        table[b - lo] = True
        inside = (a >= lo) & (a <= hi)
        out = np.zeros(a.size, dtype=bool)
        out[inside] = table[a[inside] - lo]
        return out
    return np.isin(a, b)
