"""Exhaustive evaluation of terms on a whole domain (numpy, vectorised), used where refinement cannot decide.

Values are exactly CuTe's: an integer index is split over the flattened
shape with the last mode taking any overflow, and negative indices (from a
negative inner stride) split with C++ truncation, as ``crd2idx`` does.  When a
value could pass int64, the arrays hold Python ints (numpy ``object``).
Every entry point checks the domain against the configured limit first.
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


def values(term, n: int, limit: int | None = None):
    """The array ``[term(0), ..., term(n-1)]`` (raises LimitError past the limit)."""
    check_enumerable(n, f"evaluating {term} on [0, {n})", limit)
    np = _numpy()
    try:  # a limit raised by hand past what memory holds: numpy refuses the size or the allocation
        return apply(term, _arange(np, n))
    except MemoryError:
        raise LimitError(f"evaluating {term} on [0, {n}): {n} items do not fit in memory; "
                         f"lower the exhaustive limit") from None


def _arange(np, n: int):
    try:
        return np.arange(n, dtype=np.int64)
    except ValueError:  # "Maximum allowed size exceeded"
        raise MemoryError from None


def apply(term, q):
    """``term`` applied elementwise to the integer array ``q``."""
    if isinstance(term, Compose):
        return apply(term.outer, apply(term.inner, q))
    if isinstance(term, SwizzledFormula):
        return apply(term.layout, q)
    if isinstance(term, Swizzle):  # Swizzle::apply, as core evaluates it
        y = q & term.yyy_msk
        return q ^ (y >> term.shift if term.shift >= 0 else y << -term.shift)
    if isinstance(term, ComposedLayout):  # A(O + B(c)); an unsigned offset wraps as uint32_t
        v = apply(term.inner, q) + int(term.offset)
        return apply(term.outer, v & 0xFFFFFFFF if isinstance(term.offset, UInt32) else v)
    np = _numpy()
    layout = term.layout if isinstance(term, Formula) else term
    shape = it.flatten_to_tuple(layout.shape)
    stride = it.flatten_to_tuple(layout.stride)
    bad = next((d for d in stride if type(d) is not int), None)
    if bad is not None:   # a basis stride's values are coordinates (ArithmeticTuples), not integers to compare
        raise LayoutError(f"{layout}: the stride {bad} is a basis stride; enumeration compares integer values, "
                          f"and this layout's values are coordinates")
    if any(type(s) is not int for s in shape):
        raise LayoutError(f"{layout}: the extents must be integers to enumerate")
    if any(s < 1 for s in shape):  # C++ division by a non-positive extent: let core evaluate each point
        return np.array([layout(int(x)) for x in q.tolist()], dtype=object)
    qmax = int(np.max(np.abs(q))) if q.size else 0
    bound, w = 0, 1
    for k, (s, d) in enumerate(zip(shape, stride)):
        bound += abs(d) * (qmax // w if k == len(shape) - 1 else s - 1)
        w *= s
    # a stride past int64 overflows numpy even when multiplied by 0 (numpy converts it first)
    if bound >= _SAFE or qmax >= _SAFE or w >= _SAFE or q.dtype == object or any(abs(d) >= _SAFE for d in stride):
        q = q.astype(object)
    negative = q.dtype == object or (q.size and int(q.min()) < 0)
    a = abs(q) if negative else q
    total = np.zeros(q.shape, dtype=q.dtype)
    w = 1
    for k, (s, d) in enumerate(zip(shape, stride)):
        if d and s != 1 or (d and k == len(shape) - 1):
            digit = _shift(a, w)
            if k < len(shape) - 1:
                digit = digit & (s - 1) if _pow2(s) and digit.dtype != object else digit % s
            total += d * digit
        w *= s
    return np.sign(q) * total if negative else total


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _shift(a, w: int):
    """``a // w`` (a shift when w is a power of two: the common case, and much faster)."""
    if w == 1:
        return a
    if _pow2(w) and a.dtype != object:
        return a >> (w.bit_length() - 1)
    return a // w


def first_mismatch(a, b) -> int | None:
    np = _numpy()
    bad = np.nonzero(a != b)[0]
    return int(bad[0]) if bad.size else None


def first_collision(v) -> tuple[int, int] | None:
    """The smallest index ``j`` whose value an earlier index ``i`` already had, as ``(i, j)``."""
    np = _numpy()
    if v.dtype == object:
        seen = {}
        for j, x in enumerate(v.tolist()):
            if x in seen:
                return seen[x], j
            seen[x] = j
        return None
    _, first = np.unique(v, return_index=True)
    if first.size == v.size:
        return None
    is_first = np.zeros(v.size, dtype=bool)
    is_first[first] = True
    j = int(np.nonzero(~is_first)[0][0])
    i = int(np.nonzero(v == v[j])[0][0])
    return i, j


def first_missing(v, n: int, limit: int | None = None) -> int | None:
    """The smallest ``y`` in ``[0, n)`` that no entry of ``v`` equals."""
    check_enumerable(n, f"checking the image covers [0, {n})", limit)
    np = _numpy()
    hit = np.zeros(n, dtype=bool)
    inside = v[(v >= 0) & (v < n)]
    hit[inside.astype(np.int64)] = True
    missing = np.nonzero(~hit)[0]
    return int(missing[0]) if missing.size else None
