"""composition(lhs, rhs): the layout ``c -> lhs(rhs(c))`` (``cute/layout.hpp``).

CuTe computes it by dividing ``rhs``'s stride through ``lhs``'s (coalesced)
modes; static layouts must satisfy the *Stride* and *Shape Divisibility
Conditions* for the result to be a layout, and CuTe refuses them at compile
time otherwise.  symcute raises :class:`LayoutError` for the same inputs.
"""

from __future__ import annotations

from bisect import bisect_right

from ..errors import LayoutError
from . import int_tuple as it
from .basis import ArithmeticTuple, ScaledBasis
from .coalesce import coalesce_x
from .composed import ComposedLayout
from .dispatch import member, operation
from .layout import Layout, Underscore, format_int_tuple, has_empty_mode
from .hook import note, recording, traced
from .integer import DynamicInt, cmin


def _static(a, b) -> bool:
    """Both operands are compile-time integers (CuTe checks its conditions with static_assert on those only)."""
    return type(a) is not DynamicInt and type(b) is not DynamicInt


@operation("composition")
def composition(lhs, rhs):
    """CuTe's ``composition(lhs, rhs)``.

    ``rhs`` is a Layout, an int (the layout ``n:1``), ``_``, or a tiler tuple of
    those applied mode by mode (modes of ``lhs`` beyond the tiler are dropped).
    @post compatible(rhs, result)
    @post result(c) == lhs(rhs(c)) for every c in the domain of rhs, provided
          each mode of rhs satisfies the *strong* divisibility condition (CuTe
          checks only the weak one) and rhs's modes do not carry into one
          another (composition distributes over rhs's modes: for an rhs whose
          modes overlap, such as (2,2):(1,1), it is a different function)
    @pre  (static) the Stride and Shape Divisibility Conditions hold

    Swizzles and ComposedLayouts on either side: ``layout_composed.py`` and
    ``swizzle_layout.py`` register those overloads.
    """
    if type(lhs) is Layout:
        t = type(rhs)
        if t is Layout:
            if has_empty_mode(rhs._shape):  # each rhs mode becomes a result mode: make_layout() of none
                raise LayoutError(f"composition({lhs}, {rhs}): the right-hand side has an empty mode (), "
                                  f"and CuTe cannot make a layout of no modes (make_layout())")
            flat = coalesce_x(lhs, _coprofile(rhs))
            shape, stride = _impl(flat._shape, flat._stride, rhs._shape, rhs._stride, lhs, rhs, _cache_for(flat))
            return Layout._make(shape, stride)
        if t is tuple:
            if not rhs:
                raise LayoutError(f"composition({lhs}, ()): an empty tiler has no modes, and CuTe cannot make "
                                  f"a layout of no modes (make_layout())")
            if len(rhs) > lhs.rank:
                raise LayoutError(
                    f"composition: tiler {format_int_tuple(rhs)} has {len(rhs)} modes but layout {lhs} has rank {lhs.rank}")
            modes = [composition(lhs[i], r) for i, r in enumerate(rhs)]
            for m in modes:
                if type(m) is not Layout:  # CuTe's make_layout of the modes static_asserts here
                    raise LayoutError(f"composition({lhs}, {format_int_tuple(rhs)}): a tiler mode gives the composed "
                                      f"layout {m}, which cannot be a mode of a layout")
            return Layout._make(tuple(m._shape for m in modes), tuple(m._stride for m in modes))
        if t is int or t is DynamicInt:
            flat = coalesce_x(lhs)
            shape, stride = _impl(flat._shape, flat._stride, rhs, 1, lhs, rhs, _cache_for(flat))
            return Layout._make(shape, stride)
        if isinstance(rhs, Underscore):
            return lhs
    if not isinstance(lhs, Layout):
        raise LayoutError(f"composition: left-hand side {lhs!r} is not a layout")
    raise LayoutError(f"composition: right-hand side {rhs!r} is not a layout, an int, _ or a tiler tuple")


@member(Layout, ComposedLayout)
@traced("with_shape")
def with_shape(self, *shape):
    """CuTe's ``Layout::with_shape``: ``composition(*this, make_layout(shape))``.

    @pre a single integer shape is static: CuTe's member calls ``make_layout`` unqualified, which
         argument-dependent lookup finds for ``Int<n>{}`` but not for a run-time ``int``
    """
    s = shape[0] if len(shape) == 1 else tuple(shape)
    if type(s) is DynamicInt:
        raise LayoutError(f"({self}).with_shape({s}): CuTe's with_shape does not compile for a single run-time "
                          f"integer (make_layout is not found for an int); give the shape as a tuple ({s},)")
    return composition(self, Layout(s))


@member(Layout, ComposedLayout)
def compose(self, *others):
    """CuTe's ``Layout::compose``: ``composition(*this, others)`` (several: a tiler tuple)."""
    return composition(self, others[0] if len(others) == 1 else tuple(others))


def _coprofile(rhs: Layout):
    """CuTe's ``coprofile``: the codomain profile; non-tuple (0) for integer strides."""
    total = 0
    strides = it.flatten_to_tuple(rhs._stride)
    for d in strides:
        if type(d) is not int:
            break
    else:
        return 0
    for d in strides:
        total = total + d
    if isinstance(total, int) or isinstance(total, ScaledBasis) and not total.modes:
        return 0
    if isinstance(total, ScaledBasis):
        total = ArithmeticTuple.of(total)
    return it.repeat_like(total.items, 0)


# Below this many coalesced lhs modes the step-by-step division is cheaper than the prefix products' set-up.
_FAST_RANK = 16


def _cache_for(flat: Layout):
    """A cache for ``_prefix_products`` where the coalesced lhs has more than ``_FAST_RANK`` modes, else None
    (the step loop: a few modes cost less to divide through than to set up for)."""
    return {} if type(flat._shape) is tuple and len(flat._shape) > _FAST_RANK else None


def _prefix_products(lshape: tuple, cache: dict):
    """``[1, s0, s0*s1, ..., s0*...*s(last-1)]`` of the lhs modes but the last, when each of those is a
    static int >= 2 (what a coalesced layout's modes but the last are, extents >= 0 aside); else None.
    Computed once per lhs mode tuple of one composition (``cache``, by identity: the tuple is held)."""
    hit = cache.get(id(lshape))
    if hit is not None and hit[0] is lshape:
        return hit[1]
    prefix = [1]
    p = 1
    for s in lshape[:-1]:
        if type(s) is not int or s < 2:
            prefix = None
            break
        p *= s
        prefix.append(p)
    cache[id(lshape)] = (lshape, prefix)
    return prefix


def _impl(lshape, lstride, rshape, rstride, lhs, rhs, cache):
    """``(shape, stride)`` of ``lhs o (rshape:rstride)``, lhs given as its coalesced modes.

    ``cache`` holds what one composition computes once about an lhs (``_prefix_products``).
    Cost: O(log n + k) per rhs mode for n lhs modes, k of them in the result (O(n) per mode below
    ``_FAST_RANK`` modes, with run-time or non-positive values, and while a derivation records).
    """
    if type(rshape) is tuple:  # right-distributivity over the modes of rhs
        pairs = [_impl(lshape, lstride, s, d, lhs, rhs, cache) for s, d in zip(rshape, rstride)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if type(rstride) is not int:
        if isinstance(rstride, ScaledBasis):  # select the mode of lhs that the basis names
            return _impl(rstride.basis_get(lshape), rstride.basis_get(lstride), rshape, rstride.value, lhs, rhs,
                         cache)
    if rstride == 0 and type(rstride) is int:   # is_constant<0>: a run-time 0 stride takes the general path
        return rshape, rstride
    if type(lshape) is not tuple:
        return rshape, rstride * lstride
    if (cache is not None and type(rstride) is int and rstride > 0 and type(rshape) is int and rshape >= 1
            and len(lshape) > _FAST_RANK and recording() is None):
        prefix = _prefix_products(lshape, cache)
        if prefix is not None:
            return _divide_through(prefix, lshape, lstride, rshape, rstride, lhs, rhs)

    # CuTe's loop over the lhs modes, one division step each (every case; O(n) for n lhs modes)
    result_shape: list = []
    result_stride: list = []
    rest_shape, rest_stride = rshape, rstride
    # the division steps, kept for the derivation (building them costs; only while one records)
    divisions = [] if recording() is not None else None
    last = len(lshape) - 1
    for i in range(last):
        curr_shape, curr_stride = lshape[i], lstride[i]
        # divisibility does not depend on signs, so Python's % answers C++'s question here; CuTe
        # static_asserts it on static values only (on run-time ones its assert is commented out)
        if not (rest_stride % curr_shape == 0 or rest_stride < curr_shape) and _static(curr_shape, rest_stride):
            raise LayoutError(
                f"composition({lhs}, {format_int_tuple(rhs)}): Stride Divisibility Condition violated: "
                f"stride {rest_stride} is neither divisible by nor less than shape {curr_shape}")
        a = rest_stride if rest_stride >= 0 else -rest_stride
        if type(rest_stride) is int and type(curr_shape) is int and curr_shape > 0 and a > 0:
            # static ints of the common signs: both ceil_divs inline (it.ceil_div's own fast path)
            next_shape = (curr_shape + a - 1) // a
            next_stride = (a + curr_shape - 1) // curr_shape
            if rest_stride < 0:
                next_stride = -next_stride
        else:
            sign = (1 if rest_stride > 0 else -1 if rest_stride < 0 else 0)
            next_stride = it.ceil_div(a, curr_shape) * (sign if type(rest_stride) is int else DynamicInt(sign))
            # a stride truncated to 0 (ceil_div(3, -3) is 0) makes the next ceil_div divide by 0:
            # undefined behaviour in C++ (g++ -O2 prints a value when the quotient is unused, or
            # traps with SIGFPE); core refuses it
            next_shape = it.ceil_div(curr_shape, a)
        if (next_shape == 1 and type(next_shape) is int) or (rest_shape == 1 and type(rest_shape) is int):
            if divisions is not None:
                divisions.append((curr_shape, curr_stride, rest_shape, rest_stride, None))
            rest_stride = next_stride
            continue
        if type(next_shape) is int and type(rest_shape) is int:
            new_shape = next_shape if next_shape < rest_shape else rest_shape
        else:
            new_shape = cmin(next_shape, rest_shape)   # cute::min of a run-time value is run-time
        if rest_shape % new_shape != 0 and _static(new_shape, rest_shape):
            raise LayoutError(
                f"composition({lhs}, {format_int_tuple(rhs)}): Shape Divisibility Condition violated: "
                f"shape {rest_shape} is not divisible by {new_shape}")
        if divisions is not None:
            divisions.append((curr_shape, curr_stride, rest_shape, rest_stride, new_shape))
        result_shape.append(new_shape)
        result_stride.append(rest_stride * curr_stride)
        # C++ `/` truncates: Python's // agrees only for these signs (2 / -8 is 0, 2 // -8 is -1)
        rest_shape = (rest_shape // new_shape if type(rest_shape) is int and rest_shape >= 0 and new_shape > 0
                      else it.cdiv(rest_shape, new_shape))
        rest_stride = next_stride
    if divisions is not None:
        note(divisions=divisions)
    last_stride = lstride[last]
    if not result_shape:
        return rest_shape, rest_stride * last_stride
    if rest_shape == 1 and type(rest_shape) is int:
        if len(result_shape) == 1:
            return result_shape[0], result_stride[0]
        return tuple(result_shape), tuple(result_stride)
    result_shape.append(rest_shape)
    result_stride.append(rest_stride * last_stride)
    return tuple(result_shape), tuple(result_stride)


def _divide_through(prefix, lshape, lstride, rshape, rstride, lhs, rhs):
    """The step loop of :func:`_impl` for static ints ``rshape >= 1``, ``rstride > 0`` and lhs modes
    but the last of static extents >= 2 (``prefix`` their prefix products), in O(log n + k) steps.

    The loop's three phases: while the stride still covers the next lhs mode (``rstride >= prefix[i+1]``)
    it is divided by it (each division exact, else the Stride Divisibility error) and nothing is kept,
    so those k steps end in ``rstride // prefix[k]``, k found by bisection, their divisibility in the
    one test ``prefix[k] | rstride`` (the prefixes divide one another); then one mode takes
    ``min(ceil(s_k / a), rshape)``; from there the stride is 1 and each lhs mode keeps
    ``min(s_i, rest)`` until the rest is 1 (the remaining steps keep nothing and leave the stride 1).
    """
    last = len(lshape) - 1
    d = rstride
    k = bisect_right(prefix, d, 1, last + 1) - 1   # prefix[1..k] <= d < prefix[k+1]
    if d % prefix[k]:
        m = next(m for m in range(1, k + 1) if d % prefix[m])   # the first division that is not exact
        raise LayoutError(
            f"composition({lhs}, {format_int_tuple(rhs)}): Stride Divisibility Condition violated: "
            f"stride {d // prefix[m - 1]} is neither divisible by nor less than shape {lshape[m - 1]}")
    a = d // prefix[k]
    if k == last:
        return rshape, a * lstride[last]
    if rshape == 1:
        return rshape, 1 * lstride[last]
    s = lshape[k]
    next_shape = (s + a - 1) // a
    new_shape = next_shape if next_shape < rshape else rshape
    if rshape % new_shape:
        raise LayoutError(
            f"composition({lhs}, {format_int_tuple(rhs)}): Shape Divisibility Condition violated: "
            f"shape {rshape} is not divisible by {new_shape}")
    result_shape = [new_shape]
    result_stride = [a * lstride[k]]
    rest = rshape // new_shape
    i = k + 1
    while rest != 1 and i < last:
        s = lshape[i]
        new_shape = s if s < rest else rest
        if rest % new_shape:
            raise LayoutError(
                f"composition({lhs}, {format_int_tuple(rhs)}): Shape Divisibility Condition violated: "
                f"shape {rest} is not divisible by {new_shape}")
        result_shape.append(new_shape)
        result_stride.append(1 * lstride[i])
        rest //= new_shape
        i += 1
    if rest == 1:
        if len(result_shape) == 1:
            return result_shape[0], result_stride[0]
        return tuple(result_shape), tuple(result_stride)
    result_shape.append(rest)
    result_stride.append(1 * lstride[last])
    return tuple(result_shape), tuple(result_stride)
