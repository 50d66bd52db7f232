"""No public function of core raises anything but a symcute error, whatever kinds of value it is given
(issue 28 item 4).

Every callable in ``symcute.core.__all__`` is called with one to three arguments, each drawn from the
value kinds of CuTe's headers: plain ints, plain (nested) tuples, ArithmeticTuples, ScaledBasis values,
Layouts (integer and basis strides), ComposedLayouts (swizzled and layout-composed) and Tensors (counting
and identity), and plain tuples of any of them (tilers, coordinates).  A call whose argument count the function cannot take is skipped (Python's arity is no
value kind); any other call must return a value that prints, or raise a SymcuteError.  Where CuTe takes
the input the value is CuTe's (the differential cases of tests/differential/test_value_kinds_vs_cute.py);
where it does not, the error names the call.

Bounded sizes (extents up to 8, depth 2); ``SYMCUTE_LARGE=1`` draws 40 times as many examples.
"""

from __future__ import annotations

import inspect
import warnings

import pytest
from hypothesis import HealthCheck, find, given, settings, strategies as st

import symcute.core as core
from symcute.core import ArithmeticTuple, ComposedLayout, Layout, ScaledBasis, Swizzle, Tensor
from symcute.core import make_identity_tensor, make_layout
from symcute.errors import SymcuteError

from ..large import large_run

EXAMPLES = 1000 if large_run() else 25

INTS = st.sampled_from([0, 1, 2, 3, 4, 6, 8, 16, -1, -2])


@st.composite
def int_tuples(draw, depth=0):
    """A plain tuple (possibly empty, possibly nested) of ints."""
    n = draw(st.integers(0, 3))
    return tuple(draw(int_tuples(depth + 1)) if depth < 1 and draw(st.booleans()) else draw(INTS)
                 for _i in range(n))


@st.composite
def shapes(draw, depth=0):
    if depth >= 2 or draw(st.booleans()):
        return draw(st.sampled_from([1, 2, 3, 4, 8]))
    return tuple(draw(shapes(depth + 1)) for _i in range(draw(st.integers(1, 3))))


def _like(shape, draw, leaf):
    return tuple(_like(s, draw, leaf) for s in shape) if isinstance(shape, tuple) else draw(leaf)


scaled_bases = st.builds(lambda v, m: ScaledBasis(v, tuple(m)), st.sampled_from([0, 1, 2, 4, -1]),
                         st.lists(st.integers(0, 2), max_size=2))
arithmetic_tuples = st.builds(lambda xs: ArithmeticTuple(tuple(xs)), st.lists(st.integers(0, 3), min_size=1, max_size=3))


@st.composite
def layouts(draw):
    shape = draw(shapes())
    if draw(st.integers(0, 4)) == 0:
        return Layout(shape, _like(shape, draw, scaled_bases))
    return Layout(shape, _like(shape, draw, st.sampled_from([0, 1, 2, 3, 4, 8, -1])))


@st.composite
def composed_layouts(draw):
    inner = make_layout(draw(st.sampled_from([8, 16, (4, 8), (8, 8)])))
    if draw(st.booleans()):
        b = draw(st.integers(0, 2))
        return ComposedLayout(Swizzle(b, draw(st.integers(0, 2)), draw(st.integers(max(b, 1), 3))),
                              draw(st.sampled_from([0, 1])), inner)
    return ComposedLayout(draw(layouts()), 0, inner)


@st.composite
def tensors(draw):
    if draw(st.booleans()):
        return make_identity_tensor(draw(shapes()))
    return Tensor(draw(layouts()), draw(st.sampled_from([0, 4])))


KINDS = st.one_of(INTS, int_tuples(), arithmetic_tuples, scaled_bases, layouts(), composed_layouts(), tensors())
# a plain tuple of any kinds: a tiler (a tuple of layouts), a coordinate of ArithmeticTuples, a shape with a Layout in it
MIXED = st.lists(KINDS, min_size=1, max_size=3).map(tuple)
VALUES = st.one_of(KINDS, MIXED)

PUBLIC = sorted(name for name in core.__all__ if callable(getattr(core, name)))


def _signature(fn):
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def outcome(fn, args):
    """``"value"`` or ``"refused"``; any exception other than a SymcuteError propagates (the failure)."""
    sig = _signature(fn)
    if sig is not None:
        try:
            sig.bind(*args)
        except TypeError:
            return "arity"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # IntOverflowWarning and the like: a value with a caveat
        try:
            result = fn(*args)
            str(result)
        except SymcuteError:
            return "refused"
    return "value"


@pytest.mark.parametrize("name", PUBLIC)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=st.lists(VALUES, min_size=1, max_size=3))
def test_public_function_raises_only_symcute_errors(name, args):
    outcome(getattr(core, name), args)


@pytest.mark.parametrize("kind", ["int", "tuple", "ArithmeticTuple", "ScaledBasis", "Layout", "ComposedLayout", "Tensor"])
def test_the_strategy_draws_each_kind(kind):
    """The property test above draws every kind it names (``find`` raises NoSuchExample otherwise)."""
    assert type(find(VALUES, lambda v: type(v).__name__ == kind)).__name__ == kind


# the kinds of failure the property test found (issue 28 item 4), each a symcute error or CuTe's value now
REFUSED = [
    ("stride", (7,), "argument 1 is an integer"),
    ("stride", (ComposedLayout(Swizzle(1, 2, 3), 0, Layout((8, 8))),), "no stride"),
    ("coalesce", ((),), "no extents"),
    ("shape_div", (Layout((4, 8)), 2), "argument 1 is a Layout"),
    ("ceil_div", (Layout(4, 1), 8), "argument 1 is a Layout"),
    ("crd2idx", (2, 16, Layout(4, 1)), "crd2idx"),
    ("crd2idx", ((1, 2), (4, 4), (1,)), "not congruent"),
    ("inner_product", (Layout(4, 1), 2), "no product"),
    ("elem_scale", (ScaledBasis(1, (0,)), ScaledBasis(1, (1,))), "no product"),
    ("compact_col_major", (Layout(4, 1),), "argument 1 is a Layout"),
    ("select", (Layout((4, 8)), Layout(2, 1)), "argument 2 is a Layout"),
    ("take", (Layout((4, 8)), 0, (1,)), "argument 3 is a tuple"),
    ("group", (Layout((4, 8)), 0, ScaledBasis(1, (0,))), "argument 3 is a ScaledBasis"),
    ("append", (Layout(4, 1), Layout(2, 1), ScaledBasis(1, (0,))), "argument 3"),
    ("slice_and_offset", ((1, 2), 5), "argument 2 is an integer"),
    ("domain_offset", (Layout(2, 1), Layout((4, 8))), "argument 1 is a Layout"),
    ("tile_to_shape", ((2, 2), (4, 4)), "argument 1 is a tuple"),
    ("fold", ((1, 2), 0, 3), "not a function"),
    ("filter_zeros", (Layout(3, 1), (8,)), "not congruent"),
    ("make_fragment_like", (Layout((2, 4), (ScaledBasis(1, (0,)), ScaledBasis(1, (1,)))),), "compact_order"),
    ("size", ((2, Layout(4, 1)),), "no product"),
    ("idx2crd", (4, (ComposedLayout(Swizzle(1, 2, 3), 0, Layout((8, 8))), 2)), "CuTe divides integers"),
    ("flat_product", (Layout((4, 8)), (ComposedLayout(Swizzle(1, 2, 3), 0, Layout((8, 8))),)), "no Layout"),
    ("ScaledBasis", (1, 1), "tuple of mode"),
    ("DynamicInt", ((1,),), "needs an int"),
]


@pytest.mark.parametrize("name,args,words", REFUSED, ids=[f"{n}-{i}" for i, (n, _a, _w) in enumerate(REFUSED)])
def test_refusals_name_the_call(name, args, words):
    with pytest.raises(SymcuteError, match=words):
        getattr(core, name)(*args)


def test_tensor_overloads_are_cute_values():
    """CuTe's Tensor overloads (tensor_impl.hpp): the iterator kept, the layout function applied."""
    t = Tensor(Layout((4, 8), (8, 1)), 3)
    assert core.stride(t) == (8, 1)
    assert core.coalesce(Tensor(Layout((4, 8), (1, 4)), 3)) == Tensor(Layout(32, 1), 3)
    assert core.filter(Tensor(Layout((4, 8), (0, 1)), 3)) == Tensor(Layout(8, 1), 3)
    assert core.filter_zeros(Tensor(Layout((4, 8), (0, 1)), 3)) == Tensor(Layout((1, 8), (0, 1)), 3)
    assert core.domain_offset((1, 2), t) == Tensor(Layout((4, 8), (8, 1)), 3 + 10)
    assert core.coalesce((2, (3, 4))) == 24 and core.coalesce(8) == 8
    assert core.filter_zeros((0, 2, 1)) == (1, 2, 1) and core.filter_zeros((0, 2), (4, 8)) == (1, 8)
    assert core.ceil_div(ScaledBasis(4, (0,)), 3) == ScaledBasis(2, (0,))
    assert core.ceil_div(8, Layout((4, 8), (1, 4))) == 1          # layout.hpp: shape(complement(tiler, 8))
    assert core.ceil_div((128, 64), Layout(4, 2)) == (2, 1024)   # complement(4:2, (128,64)) is (2,1024):(4,8)
