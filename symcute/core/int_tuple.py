"""IntTuple: an int or a (nested) tuple of IntTuples, as in CuTe's ``int_tuple.hpp``.

IntTuples are plain Python ints and tuples, so they hash, compare and print for
free.  The functions here mirror CuTe's names and, where CuTe relies on C++
integer arithmetic (truncating division), they reproduce it exactly: CuTe's
``ceil_div(-3, 2)`` is ``(-3 + 2 - 1) / 2 == -1`` in C++, not ``-1.5`` rounded up.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Callable

from ..errors import LayoutError
from . import kinds
from .basis import ArithmeticTuple, ScaledBasis
from .budget import OPEN as _OPEN, current as _budget
from .integer import DynamicInt, is_constant, signum as _signum
from .int_text import format_int_tuple  # noqa: F401  (re-exported: the package's one IntTuple formatter)

IntTuple = Any  # int | tuple[IntTuple, ...] (ScaledBasis in stride positions)


def is_tuple(x) -> bool:
    return isinstance(x, tuple)


def is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# C++ integer arithmetic -----------------------------------------------------

def cdiv(a: int, b: int) -> int:
    """C++ ``a / b`` on integers: truncates toward zero."""
    if b == 0:
        raise LayoutError(f"division by zero ({a} / {b})")
    try:
        q = abs(a) // abs(b)
    except TypeError:   # a leaf that is no integer (a Layout in a shape): CuTe's operator/ has no overload
        raise LayoutError(f"{_text(a)} / {_text(b)}: CuTe divides integers here (the operands are no IntTuple "
                          f"leaves)") from None
    return q if (a >= 0) == (b >= 0) else -q


def cmod(a: int, b: int) -> int:
    """C++ ``a % b``: the remainder has the sign of ``a`` (``x % _1`` and ``_0 % x`` are static ``_0``)."""
    r = a - cdiv(a, b) * b
    if type(r) is DynamicInt and (is_constant(1, b) or is_constant(-1, b) or is_constant(0, a)):
        return 0
    return r


def signum(a: int) -> int:
    """CuTe's ``signum`` (a run-time ``int`` for a run-time argument)."""
    return _signum(a)


# Structure ------------------------------------------------------------------

def rank(t: IntTuple) -> int:
    return len(t) if is_tuple(t) else 1


def depth(t: IntTuple) -> int:
    if is_tuple(t):
        return 1 + max((depth(x) for x in t), default=0)
    return 0


def product(t: IntTuple) -> int:
    if type(t) is tuple:
        p = 1
        try:
            for x in t:
                p *= x if type(x) is int else product(x)
        except TypeError:   # a leaf that is no integer: CuTe's Product takes tuples and integrals only
            raise LayoutError(f"product({kinds.shown(t)}): a leaf is no integer (CuTe's product multiplies the "
                              f"integers of an IntTuple; {kinds.kind_of(_first_non_int(t))} has no product)") from None
        return p
    return t


def _first_non_int(t):
    for x in flatten_to_tuple(t) if type(t) is tuple else (t,):
        if not is_int(x):
            return x
    return t


size = product


def product_each(t: IntTuple) -> tuple:
    return tuple(product(x) for x in wrap(t))


def flatten(t: IntTuple) -> IntTuple:
    """Depth-1 tuple of the leaves of ``t``; a non-tuple is returned as is."""
    if type(t) is not tuple:
        return t
    return flatten_to_tuple(t)


def flatten_to_tuple(t: IntTuple) -> tuple:
    if type(t) is not tuple:
        return (t,)
    for x in t:
        if type(x) is tuple:
            break
    else:
        return t  # already flat: the common case, no copy
    out: list = []
    _flatten_into(t, out)
    return tuple(out)


def _flatten_into(t: tuple, out: list) -> None:
    for x in t:
        if type(x) is tuple:
            _flatten_into(x, out)
        else:
            out.append(x)


def unflatten(flat: tuple, profile: IntTuple) -> IntTuple:
    """Fold the flat tuple ``flat`` into the nesting of ``profile``."""
    it = iter(flat)

    def build(p):
        if is_tuple(p):
            return tuple(build(x) for x in p)
        return next(it)

    try:
        result = build(profile)
    except StopIteration:
        raise LayoutError(f"unflatten: {flat} has fewer leaves than profile {profile}") from None
    if next(it, None) is not None:
        raise LayoutError(f"unflatten: {flat} has more leaves than profile {profile}")
    return result


def wrap(t: IntTuple) -> tuple:
    return t if is_tuple(t) else (t,)


def unwrap(t: IntTuple) -> IntTuple:
    while is_tuple(t) and len(t) == 1:
        t = t[0]
    return t


def transform_leaf(t: IntTuple, f: Callable) -> IntTuple:
    if is_tuple(t):
        return tuple(transform_leaf(x, f) for x in t)
    return f(t)


def transform_leaf2(a: IntTuple, b: IntTuple, f: Callable) -> IntTuple:
    """Apply ``f`` at the leaves of ``a`` (``b`` must be at least as deep)."""
    if is_tuple(a):
        return tuple(transform_leaf2(x, y, f) for x, y in zip(a, b))
    return f(a, b)


def repeat_like(t: IntTuple, x) -> IntTuple:
    return transform_leaf(t, lambda _: x)


def as_tuple(x):
    """``x`` with an ArithmeticTuple read as the tuple of its elements: CuTe's ``is_tuple`` holds for it
    (``arithmetic_tuple.hpp``), so as a coordinate or an argument of these functions it is a tuple."""
    return x.items if type(x) is ArithmeticTuple else x


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """CuTe's ``congruent``: the same profile (a ScaledBasis is a leaf, an ArithmeticTuple a tuple)."""
    a, b = as_tuple(a), as_tuple(b)
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return not is_tuple(a) and not is_tuple(b)


def weakly_congruent(a: IntTuple, b: IntTuple) -> bool:
    """CuTe's ``weakly_congruent``: ``a``'s profile is ``b``'s, coarsened at ``a``'s leaves (a partial order)."""
    a, b = as_tuple(a), as_tuple(b)
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(weakly_congruent(x, y) for x, y in zip(a, b))
    return not is_tuple(a)


def compatible(a: IntTuple, b: IntTuple) -> bool:
    """Shape ``a`` is compatible with ``b``: every coordinate of ``a`` is one of ``b``."""
    a, b = as_tuple(a), as_tuple(b)
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(compatible(x, y) for x, y in zip(a, b))
    if not is_tuple(a):
        return a == product(b)
    return False


def inner_product(a: IntTuple, b: IntTuple):
    """CuTe's ``inner_product``: ``(0 + ... + inner_product(a_i, b_i))``, ``a * b`` at the leaves."""
    a, b = as_tuple(a), as_tuple(b)
    if is_tuple(a) and is_tuple(b):
        if len(a) != len(b):
            raise LayoutError(f"inner_product: mismatched ranks {format_int_tuple(a)} and {format_int_tuple(b)}")
        return reduce(lambda acc, xy: acc + inner_product(*xy), zip(a, b), 0)
    if is_tuple(a) or is_tuple(b):   # C++ has no int * tuple (Python's would repeat the tuple)
        raise LayoutError(f"inner_product({format_int_tuple(a)}, {format_int_tuple(b)}): a tuple and a non-tuple "
                          f"have no product")
    if not (_scalar(a) and _scalar(b)) or (isinstance(a, ScaledBasis) and isinstance(b, ScaledBasis)):
        _refuse_leaves("inner_product", a, b)
    return a * b


def _scalar(x) -> bool:
    """An integer or a ScaledBasis: what CuTe's ``a * b`` at an IntTuple leaf multiplies."""
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, ScaledBasis)


def _refuse_leaves(op: str, a, b):
    raise LayoutError(f"{op}: the leaves {_text(a)} and {_text(b)} have no product in CuTe (it multiplies "
                      f"integers, or an integer and a ScaledBasis, at the leaves of two IntTuples)")


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``elem_scale``: ``a`` scaled at its leaves by the product of ``b``'s matching mode."""
    a, b = as_tuple(a), as_tuple(b)
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise LayoutError(f"elem_scale({format_int_tuple(a)}, {format_int_tuple(b)}): Mismatched tuple_size")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    p = product(b)
    if not (_scalar(a) and _scalar(p)) or (isinstance(a, ScaledBasis) and isinstance(p, ScaledBasis)):
        _refuse_leaves("elem_scale", a, p)
    return a * p


# Division -------------------------------------------------------------------

# CuTe's ceil_div(Target, Layout tiler) (layout.hpp: shape(complement(tiler, shape(target)))): set by
# complement.py, which sits above this module
layout_ceil_div = None


def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``ceil_div``: ``(a + b - 1) / b`` with C++ truncation, folded over tuples.

    Two more overloads of CuTe's: ``ceil_div(ScaledBasis, u)`` scales the basis value
    (``arithmetic_tuple.hpp``), and ``ceil_div(target, Layout tiler)`` is
    ``shape(complement(tiler, shape(target)))`` (``layout.hpp``, the tile counts of a grid).
    """
    if type(a) is int and type(b) is int and a >= 0 and b > 0:
        return (a + b - 1) // b  # the common case; C++ truncation agrees for these signs
    if layout_ceil_div is not None and kinds.is_kind(b, "Layout"):
        return layout_ceil_div(a, b)
    if isinstance(a, ScaledBasis):   # arithmetic_tuple.hpp: ceil_div(ScaledBasis b, U u) scales the value
        kinds.int_tuple("ceil_div", (a, b), 1)
        return ScaledBasis(ceil_div(a.value, b), a.modes)
    kinds.int_tuple("ceil_div", (a, b), 0, 1)
    return _ceil_div(a, b)


def _ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    if type(a) is int and type(b) is int and a >= 0 and b > 0:
        return (a + b - 1) // b
    if is_tuple(a):
        if is_tuple(b):
            if len(a) < len(b):
                raise LayoutError(f"ceil_div: mismatched ranks, {a} has fewer modes than {b}")
            b = b + (1,) * (len(a) - len(b))
            return tuple(_ceil_div(x, y) for x, y in zip(a, b))
        result = []
        rest = b
        for ai in a:
            result.append(_ceil_div(ai, rest))
            rest = _ceil_div(rest, ai)
        return tuple(result)
    if is_tuple(b):
        return _ceil_div(a, product(b))
    return cdiv(a + b - 1, b)


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``shape_div``: like ``ceil_div`` but requires one side to divide the other."""
    if type(a) is not int or type(b) is not int:
        kinds.int_tuple("shape_div", (a, b), 0, 1)
    return _shape_div(a, b)


def _shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    if is_tuple(a):
        if is_tuple(b):
            if len(a) != len(b):
                raise LayoutError(f"shape_div: mismatched ranks {a} and {b}")
            return tuple(_shape_div(x, y) for x, y in zip(a, b))
        result = []
        rest = b
        for ai in a:
            result.append(_shape_div(ai, rest))
            rest = _shape_div(rest, ai)
        return tuple(result)
    if is_tuple(b):
        return _shape_div(a, product(b))
    if (b == 0 or a == 0 or (cmod(a, b) != 0 and cmod(b, a) != 0)) and type(a) is int and type(b) is int:
        # CuTe static_asserts the (weak) Divisibility Condition on static values only; with a run-time
        # operand its assert is commented out and the value is ceil_div's
        raise LayoutError(f"Divisibility Condition violated in shape_div: neither {a} nor {b} divides the other")
    return cdiv(a + b - 1, b)


# Compact strides ------------------------------------------------------------

def compact_col_major(shape: IntTuple, current: IntTuple = 1) -> IntTuple:
    """CuTe's ``compact_major<LayoutLeft>``: size-1 modes get stride 0.

    A tuple ``current`` applies at its terminals (``stride.hpp``: ``transform(shape, current, compact_major)``):
    ``compact_col_major(((24,24),24), (1,24)) == ((1,24),24)``.
    @pre ``current`` is an integer, or a tuple of the rank of the tuple ``shape`` (CuTe: "Mismatched Ranks")
    """
    return compact_major(shape, current, left=True)


def compact_row_major(shape: IntTuple, current: IntTuple = 1) -> IntTuple:
    """CuTe's ``compact_major<LayoutRight>`` (a tuple ``current`` as in :func:`compact_col_major`)."""
    return compact_major(shape, current, left=False)


def compact_major(shape: IntTuple, current: IntTuple, left: bool) -> IntTuple:
    """CuTe's ``compact_major<Major>(shape, current)``: ``left`` is ``LayoutLeft``."""
    name = "compact_col_major" if left else "compact_row_major"
    kinds.int_tuple(name, (shape, current), 0)
    kinds.int_tuple(name, (shape, current), 1, basis=True)   # a basis current gives basis strides
    return _compact_major(shape, current, left)


def _compact_major(shape: IntTuple, current: IntTuple, left: bool) -> IntTuple:
    if type(current) is tuple:
        name = "compact_col_major" if left else "compact_row_major"
        if type(shape) is not tuple:
            raise LayoutError(f"{name}({format_int_tuple(shape)}, {format_int_tuple(current)}): Invalid parameters "
                              f"(a tuple current needs a tuple shape)")
        if len(shape) != len(current):
            raise LayoutError(f"{name}({format_int_tuple(shape)}, {format_int_tuple(current)}): Mismatched Ranks")
        return tuple(_compact_major(s, c, left) for s, c in zip(shape, current))
    return _compact(shape, current, left)[0]


def _compact(shape: IntTuple, current, left: bool):
    b = _budget.get() if _OPEN[0] else None
    if b is None:
        return _compact_walk(shape, current, left, None)
    # the strides are prefix products: charge their bits as they grow, before a huge tuple exists
    return _compact_walk(shape, current, left, (b, [0]))


def _compact_walk(shape: IntTuple, current, left: bool, metered):
    if is_tuple(shape):
        strides: list = [None] * len(shape)
        order = range(len(shape)) if left else range(len(shape) - 1, -1, -1)
        for i in order:
            strides[i], current = _compact_walk(shape[i], current, left, metered)
        return tuple(strides), current
    if shape == 1 and type(shape) is int:   # is_constant<1>: a run-time 1 keeps its stride
        return 0, current
    if metered is not None and type(current) is int:
        b, account = metered
        account[0] += current.bit_length()
        if account[0] > b.value_bits:
            b.value(0, account[0], "the compact strides of a shape")
    return current, current * shape


def compact_order(shape: IntTuple, order: IntTuple) -> IntTuple:
    """CuTe's ``compact_order``: compact strides that increase in the order given by ``order``.

    ``order`` is weakly congruent to ``shape``; its leaves rank the (grouped) modes: integers (CuTe compares
    them with ``<``, which a ScaledBasis lacks, so a basis-strided layout has no ordered or fragment layout).
    """
    kinds.int_tuple("compact_order", (shape, order), 0, 1)
    if not weakly_congruent(order, shape):
        raise LayoutError(f"compact_order: order {order} is not weakly congruent to shape {shape}")
    ref_shape = flatten_to_tuple(product_like(shape, order))
    ref_order = flatten_to_tuple(order)
    if DynamicInt in map(type, ref_order):
        # CuTe replaces each run-time order by max_order + 1 + its position (max_order: the largest static
        # order, from _0), so run-time orders come after every static one, in position order
        top = 0
        for o in ref_order:
            if type(o) is not DynamicInt and top < o:
                top = o
        ref_order = tuple(top + 1 + i if type(o) is DynamicInt else o for i, o in enumerate(ref_order))
        order = unflatten(ref_order, order)

    # start(o) = product of the reference extents of smaller order: one sort and one prefix product,
    # not a pass over all modes per mode (20,000 modes would be 4e8 multiplications)
    starts: dict = {}
    running = 1
    pairs = sorted(zip(ref_order, ref_shape), key=lambda p: p[0])
    k = 0
    while k < len(pairs):
        o = pairs[k][0]
        starts[o] = running
        while k < len(pairs) and pairs[k][0] == o:
            running *= pairs[k][1]
            k += 1

    def go(s, o):
        if is_tuple(o):
            return tuple(go(x, y) for x, y in zip(s, o))
        return compact_col_major(s, starts[o])

    return go(shape, order)


def product_like(t: IntTuple, guide: IntTuple) -> IntTuple:
    """The product of ``t`` at the leaves of ``guide``."""
    if is_tuple(guide):
        return tuple(product_like(x, g) for x, g in zip(t, guide))
    return product(t)


# Coordinates ----------------------------------------------------------------

def crd2idx(coord: IntTuple, shape: IntTuple, stride: IntTuple):
    """CuTe's ``crd2idx(coord, shape, stride)``.

    An integer coordinate is split colexicographically over a tuple shape; the
    last mode takes whatever is left, so indices beyond ``size`` extend it.
    An ArithmeticTuple coordinate is a tuple (CuTe's ``is_tuple``): ``crd2idx((1,2) as AT, (4,4), (4,1)) == 6``.
    """
    coord = as_tuple(coord)
    if is_tuple(coord):
        if not is_tuple(shape):
            raise LayoutError(f"coordinate {coord} has more modes than shape {shape}")
        if len(coord) != len(shape):
            raise LayoutError(f"Mismatched Ranks: coordinate {coord} for shape {shape}")
        if type(stride) is not tuple or len(stride) != len(shape):
            raise _stride_mismatch(shape, stride)
        return _sum_right([crd2idx(c, s, d) for c, s, d in zip(coord, shape, stride)])
    if not is_int(coord):
        raise LayoutError(f"coordinate {coord!r} is not an integer or a tuple")
    if is_tuple(shape):
        if type(stride) is not tuple or len(stride) != len(shape):
            raise _stride_mismatch(shape, stride)
        terms = []
        n = len(shape)
        for i, (s, d) in enumerate(zip(shape, stride)):
            if i == n - 1:
                terms.append(crd2idx(coord, s, d))
            else:
                p = product(s)
                terms.append(crd2idx(cmod(coord, p), s, d))
                coord = cdiv(coord, p)
        return _sum_right(terms)
    if type(stride) is not int and (isinstance(stride, bool) or not isinstance(stride, (int, ScaledBasis, ArithmeticTuple))) \
            or not is_int(shape):
        # CuTe's crd2idx meets an integer coordinate with an integer extent and an integer (or basis) stride;
        # Python's int * tuple would repeat the tuple
        raise LayoutError(f"crd2idx: the coordinate {coord} meets the extent {_text(shape)} and the stride "
                          f"{_text(stride)}; CuTe multiplies a coordinate by an integer or basis stride of an "
                          f"integer extent (the shape and stride are no IntTuples congruent to each other)")
    return coord * stride


def _stride_mismatch(shape, stride) -> LayoutError:
    return LayoutError(f"crd2idx: the stride {_text(stride)} is not congruent to the shape {_text(shape)} "
                       f"(CuTe's crd2idx walks a tuple shape and its stride mode by mode)")


def _text(x) -> str:
    return kinds.shown(x) if isinstance(x, (int, tuple)) else f"{x} ({kinds.kind_of(x)})"


def _sum_right(terms: list):
    """``t0 + (t1 + (... + tn))``: CuTe's order (a fold expression ``(v + ...)``, and ``crd2idx_itt``'s
    recursion).  Ints do not care; basis coordinates do: ``C<t> + ScaledBasis`` static_asserts ``t == 0``."""
    if not terms:
        return 0
    total = terms[-1]
    for t in reversed(terms[:-1]):
        total = t + total
    return total


def idx2crd_strided(idx: int, shape: IntTuple, stride: IntTuple) -> IntTuple:
    """CuTe's ``idx2crd(idx, shape, stride)``: each mode's coordinate is ``(idx / d) % s`` (C++ division).

    A mode of static extent 1 gives a static 0 without dividing (CuTe skips the stride-0 division
    there; a run-time 1 divides like any extent); a
    stride 0 under a larger extent is C++'s division by zero, refused here.
    @post for a compact column-major layout this is ``idx2crd(idx, shape)``
    """
    idx = as_tuple(idx)
    if is_tuple(idx):
        if not is_tuple(stride) or (is_tuple(shape) and len(stride) != len(shape)):
            raise LayoutError(f"idx2crd({format_int_tuple(idx)}, {format_int_tuple(shape)}, "
                              f"{format_int_tuple(stride)}): Mismatched Ranks")
        return _idx2crd_modes(idx, shape, lambda i, s, k=iter(stride): idx2crd_strided(i, s, next(k)))
    if is_tuple(shape):
        if not is_tuple(stride):  # CuTe: "int" tuple "int" uses the compact strides from that stride
            stride = compact_col_major(shape, stride)
        if len(shape) != len(stride):
            raise LayoutError(f"idx2crd({idx}, {shape}, {stride}): mismatched ranks")
        return tuple(idx2crd_strided(idx, s, d) for s, d in zip(shape, stride))
    if shape == 1 and type(shape) is not DynamicInt:   # CuTe's is_constant<1, Shape>: a run-time 1 divides
        return 0
    if not is_int(stride):
        raise LayoutError(f"idx2crd({idx}, {shape}, {stride}): stride {stride} is not an integer")
    if stride == 0:
        raise LayoutError(f"idx2crd({idx}, {shape}, {stride}): stride 0 under extent {shape} divides by zero")
    return cmod(cdiv(idx, stride), shape)


def _idx2crd_modes(idx: tuple, shape, split) -> tuple:
    """A tuple index, split mode by mode with ``split(i, s)`` (CuTe: "Mismatched Ranks", "Invalid parameters")."""
    if not is_tuple(shape):
        raise LayoutError(f"idx2crd({format_int_tuple(idx)}, {shape}): Invalid parameters (a tuple index needs a "
                          f"tuple shape)")
    if len(idx) != len(shape):
        raise LayoutError(f"idx2crd({format_int_tuple(idx)}, {format_int_tuple(shape)}): Mismatched Ranks")
    return tuple(split(i, s) for i, s in zip(idx, shape))


def idx2crd(idx: int, shape: IntTuple) -> IntTuple:
    """Colexicographic coordinate of ``idx`` in ``shape`` (the last mode is not reduced).

    A tuple ``idx`` (an ArithmeticTuple included) is split mode by mode (``stride.hpp``: ``transform``);
    an index that is neither an integer nor a tuple (a ScaledBasis) has no ``divmod`` in CuTe.
    """
    idx = as_tuple(idx)
    if is_tuple(idx):
        return _idx2crd_modes(idx, shape, lambda i, s: idx2crd(i, s))
    if is_tuple(shape) and not is_int(idx):
        raise LayoutError(f"idx2crd({idx}, {format_int_tuple(shape)}): the index {idx} is no integer, and CuTe "
                          f"splits an index over a tuple shape with divmod (none for a {type(idx).__name__})")
    if is_tuple(shape):
        out = []
        n = len(shape)
        for i, s in enumerate(shape):
            if i == n - 1:
                out.append(idx2crd(idx, s))
            else:
                p = product(s)
                out.append(idx2crd(cmod(idx, p), s))
                idx = cdiv(idx, p)
        return tuple(out)
    return idx
