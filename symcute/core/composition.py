"""composition(lhs, rhs): the layout ``c -> lhs(rhs(c))`` (``cute/layout.hpp``).

CuTe computes it by dividing ``rhs``'s stride through ``lhs``'s (coalesced)
modes; static layouts must satisfy the *Stride* and *Shape Divisibility
Conditions* for the result to be a layout, and CuTe refuses them at compile
time otherwise.  symcute raises :class:`LayoutError` for the same inputs.
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it
from .basis import ScaledBasis
from .coalesce import coalesce_x
from .layout import Layout, Underscore, format_int_tuple
from ..trace.hook import traced, recording


@traced("composition")
def composition(lhs, rhs):
    """CuTe's ``composition(lhs, rhs)``.

    ``rhs`` is a Layout, an int (the layout ``n:1``), ``_``, or a tiler tuple of
    those applied mode by mode (modes of ``lhs`` beyond the tiler are dropped).
    @post compatible(rhs, result)
    @post result(c) == lhs(rhs(c)) for every c in the domain of rhs
    @pre  (static) the Stride and Shape Divisibility Conditions hold
    """
    from .composed import ComposedLayout
    if isinstance(lhs, ComposedLayout) or isinstance(rhs, ComposedLayout) or _is_swizzle(lhs):
        from .swizzle_layout import composition_composed
        return composition_composed(lhs, rhs)
    if not isinstance(lhs, Layout):
        raise LayoutError(f"composition: left-hand side {lhs!r} is not a layout")
    if isinstance(rhs, Layout):
        flat = coalesce_x(lhs, _coprofile(rhs))
        return _impl(flat.shape, flat.stride, rhs.shape, rhs.stride, lhs, rhs)
    if isinstance(rhs, tuple):
        if len(rhs) > lhs.rank:
            raise LayoutError(
                f"composition: tiler {_fmt(rhs)} has {len(rhs)} modes but layout {lhs} has rank {lhs.rank}")
        modes = [composition(lhs[i], r) for i, r in enumerate(rhs)]
        return Layout(tuple(m.shape for m in modes), tuple(m.stride for m in modes))
    if isinstance(rhs, Underscore):
        return lhs
    if isinstance(rhs, int) and not isinstance(rhs, bool):
        flat = coalesce_x(lhs)
        return _impl(flat.shape, flat.stride, rhs, 1, lhs, rhs)
    raise LayoutError(f"composition: right-hand side {rhs!r} is not a layout, an int, _ or a tiler tuple")


def _is_swizzle(x) -> bool:
    from .swizzle import Swizzle
    return isinstance(x, Swizzle)


def _fmt(x) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_fmt(y) for y in x) + ")"
    return str(x)


def _coprofile(rhs: Layout):
    """CuTe's ``coprofile``: the codomain profile; non-tuple for integer strides."""
    total = 0
    for d in it.flatten_to_tuple(rhs.stride):
        total = total + d
    if isinstance(total, int) or isinstance(total, ScaledBasis) and not total.modes:
        return 0
    if isinstance(total, ScaledBasis):
        from .basis import ArithmeticTuple
        total = ArithmeticTuple.of(total)
    return it.repeat_like(total.items, 0)


def _impl(lshape, lstride, rshape, rstride, lhs, rhs) -> Layout:
    if isinstance(rshape, tuple):  # right-distributivity over the modes of rhs
        modes = [_impl(lshape, lstride, s, d, lhs, rhs) for s, d in zip(rshape, rstride)]
        return Layout(tuple(m.shape for m in modes), tuple(m.stride for m in modes))
    if isinstance(rstride, ScaledBasis):  # select the mode of lhs that the basis names
        return _impl(rstride.basis_get(lshape), rstride.basis_get(lstride), rshape, rstride.value, lhs, rhs)
    if rstride == 0:
        return Layout(rshape, rstride)
    if not isinstance(lshape, tuple):
        return Layout(rshape, rstride * lstride)

    result_shape: list = []
    result_stride: list = []
    rest_shape, rest_stride = rshape, rstride
    divisions = []  # the division steps, kept for the derivation
    for curr_shape, curr_stride in zip(lshape[:-1], lstride[:-1]):
        if not (it.cmod(rest_stride, curr_shape) == 0 or rest_stride < curr_shape):
            raise LayoutError(
                f"composition({lhs}, {_fmt(rhs)}): Stride Divisibility Condition violated: "
                f"stride {rest_stride} is neither divisible by nor less than shape {curr_shape}")
        next_shape = it.ceil_div(curr_shape, abs(rest_stride))
        next_stride = it.ceil_div(abs(rest_stride), curr_shape) * it.signum(rest_stride)
        if next_shape == 1 or rest_shape == 1:
            divisions.append((curr_shape, curr_stride, rest_shape, rest_stride, None))
            rest_stride = next_stride
            continue
        new_shape = min(next_shape, rest_shape)
        if it.cmod(rest_shape, new_shape) != 0:
            raise LayoutError(
                f"composition({lhs}, {_fmt(rhs)}): Shape Divisibility Condition violated: "
                f"shape {rest_shape} is not divisible by {new_shape}")
        divisions.append((curr_shape, curr_stride, rest_shape, rest_stride, new_shape))
        result_shape.append(new_shape)
        result_stride.append(rest_stride * curr_stride)
        rest_shape = it.cdiv(rest_shape, new_shape)
        rest_stride = next_stride
    rec = recording()
    if rec is not None:
        rec.note(divisions=divisions)
    last_stride = lstride[-1]
    if not result_shape:
        return Layout(rest_shape, rest_stride * last_stride)
    if rest_shape == 1:
        return Layout(it.unwrap(tuple(result_shape)), it.unwrap(tuple(result_stride)))
    return Layout(tuple(result_shape) + (rest_shape,), tuple(result_stride) + (rest_stride * last_stride,))
