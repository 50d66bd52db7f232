"""The values and refusals that issue 28 item 4's property test (tests/core/test_value_kinds.py) changed,
against real CuTe 4.2: CuTe's Tensor overloads (``tensor_impl.hpp``: ``stride``, ``coalesce``, ``filter``,
``filter_zeros``, ``domain_offset``), ``coalesce(Shape)`` (``layout.hpp``), ``filter_zeros`` of IntTuples
(``int_tuple.hpp``), ``ceil_div(ScaledBasis, u)`` (``arithmetic_tuple.hpp``), and calls CuTe does not
compile (a basis-strided ``make_fragment_like``, ``stride`` of a ComposedLayout or of an int, ``coalesce``
of no extents): each with static and with run-time ints.

A tensor case prints its layout and, separately, its iterator's value at element 0 (``*t.data()``: the
counting iterator's offset, or the identity tensor's ArithmeticTuple).
"""

from __future__ import annotations

import pytest

import symcute.core as core
from symcute.core import ArithmeticTuple, ComposedLayout, DynamicInt as D, Layout, ScaledBasis, Swizzle, Tensor
from symcute.core import make_identity_tensor, to_cpp
from .core_cases import Case, show as core_show
from .dynamic_cases import cpp_of
from .harness import compare, oracle_or_skip, run_guided

pytestmark = pytest.mark.cute


def S(*v) -> str:
    """A C++ tuple: an int is static (``Int<4>{}``), a DynamicInt run-time (``int(4)``)."""
    return "cute::make_tuple(" + ",".join(_leaf(x) for x in v) + ")"


def _leaf(x) -> str:
    if isinstance(x, tuple):
        return S(*x)
    return f"int({x})" if type(x) is D else f"cute::Int<{x}>{{}}"


def T(layout: Layout, data: int) -> str:
    return f"cute::make_tensor(cute::counting_iterator<int>({data}), {cpp_of(layout)})"


STATIC = Layout((4, 8), (8, 1))
ZEROS = Layout((4, (2, 8)), (0, (16, 1)))
DYNAMIC = Layout((D(4), 8), (D(8), 1))          # run-time extent and stride
DYN_ZEROS = Layout((4, (D(2), 8)), (D(0), (16, 1)))  # a run-time 0 stride is kept by filter_zeros
CONTIG = Layout((4, 8), (1, 4))
IDENTITY = "cute::make_identity_tensor(" + S(4, 8) + ")"
E0 = ScaledBasis(1, (0,))

CASES = [
    # CuTe's Tensor overloads: the layout function applied, the iterator kept (domain_offset: advanced)
    *[(f"stride({name})", "cute::stride(" + T(L, 3) + ")", lambda L=L: core.stride(Tensor(L, 3)))
      for name, L in (("T(4,8):(8,1)", STATIC), ("T(4,8):(d8,1)", DYNAMIC))],
    *[(f"{op}({name}).layout()", f"cute::{op}(" + T(L, 5) + ").layout()",
       lambda op=op, L=L: getattr(core, op)(Tensor(L, 5)).layout())
      for op in ("coalesce", "filter", "filter_zeros")
      for name, L in (("(4,8):(1,4)", CONTIG), ("(4,(2,8)):(0,(16,1))", ZEROS), ("(4,(d2,8)):(d0,(16,1))", DYN_ZEROS),
                      ("(d4,8):(d8,1)", DYNAMIC))],
    *[(f"*{op}({name}).data()", f"*cute::{op}(" + T(L, 5) + ").data()",
       lambda op=op, L=L: getattr(core, op)(Tensor(L, 5)).data())
      for op in ("coalesce", "filter", "filter_zeros") for name, L in (("(4,8):(1,4)", CONTIG),)],
    ("coalesce(T,(1,1)).layout()", "cute::coalesce(" + T(CONTIG, 5) + ", " + S(1, 1) + ").layout()",
     lambda: core.coalesce(Tensor(CONTIG, 5), (1, 1)).layout()),
    *[(f"domain_offset({c},T{name}).layout()", f"cute::domain_offset({S(*c)}, " + T(L, 3) + ").layout()",
       lambda c=c, L=L: core.domain_offset(c, Tensor(L, 3)).layout())
      for c in ((1, 2), (D(3), D(5))) for name, L in (("(4,8):(8,1)", STATIC), ("(d4,8):(d8,1)", DYNAMIC))],
    *[(f"*domain_offset({c},T{name}).data()", f"*cute::domain_offset({S(*c)}, " + T(L, 3) + ").data()",
       lambda c=c, L=L: core.domain_offset(c, Tensor(L, 3)).data())
      for c in ((1, 2), (D(3), D(5))) for name, L in (("(4,8):(8,1)", STATIC), ("(d4,8):(d8,1)", DYNAMIC))],
    ("*domain_offset((1,2),identity(4,8)).data()", f"*cute::domain_offset({S(1, 2)}, {IDENTITY}).data()",
     lambda: core.domain_offset((1, 2), make_identity_tensor((4, 8))).data()),
    ("domain_offset((1,2),identity(4,8)).layout()", f"cute::domain_offset({S(1, 2)}, {IDENTITY}).layout()",
     lambda: core.domain_offset((1, 2), make_identity_tensor((4, 8))).layout()),
    # coalesce(Shape): neighbours of one kind multiplied, across kinds appended
    ("coalesce((2,(3,4)))", "cute::coalesce(" + S(2, (3, 4)) + ")", lambda: core.coalesce((2, (3, 4)))),
    ("coalesce(8)", "cute::coalesce(cute::Int<8>{})", lambda: core.coalesce(8)),
    ("coalesce(d8)", "cute::coalesce(int(8))", lambda: core.coalesce(D(8))),
    ("coalesce((d2,3,4,d5,d6))", "cute::coalesce(" + S(D(2), 3, 4, D(5), D(6)) + ")",
     lambda: core.coalesce((D(2), 3, 4, D(5), D(6)))),
    ("coalesce(((d2,d3),(4,1)))", "cute::coalesce(" + S((D(2), D(3)), (4, 1)) + ")",
     lambda: core.coalesce(((D(2), D(3)), (4, 1)))),
    ("coalesce(())", "cute::coalesce(cute::make_tuple())", lambda: core.coalesce(())),
    # filter_zeros of IntTuples: b with the parts paired with a static 0 of a made 1
    ("filter_zeros((0,2,1))", "cute::filter_zeros(" + S(0, 2, 1) + ")", lambda: core.filter_zeros((0, 2, 1))),
    ("filter_zeros((0,2),(4,8))", "cute::filter_zeros(" + S(0, 2) + ", " + S(4, 8) + ")",
     lambda: core.filter_zeros((0, 2), (4, 8))),
    ("filter_zeros((0,(1,0)),((4,4),(2,8)))", "cute::filter_zeros(" + S(0, (1, 0)) + ", " + S((4, 4), (2, 8)) + ")",
     lambda: core.filter_zeros((0, (1, 0)), ((4, 4), (2, 8)))),
    ("filter_zeros((d0,2),(4,8))", "cute::filter_zeros(" + S(D(0), 2) + ", " + S(4, 8) + ")",
     lambda: core.filter_zeros((D(0), 2), (4, 8))),
    # ceil_div(ScaledBasis, u) scales the basis value (arithmetic_tuple.hpp)
    ("ceil_div(4@0,3)", "cute::ceil_div(cute::Int<4>{} * cute::E<0>{}, cute::Int<3>{})",
     lambda: core.ceil_div(ScaledBasis(4, (0,)), 3)),
    ("ceil_div(d4@1,d3)", "cute::ceil_div(int(4) * cute::E<1>{}, int(3))",
     lambda: core.ceil_div(ScaledBasis(D(4), (1,)), D(3))),
    ("ceil_div(8@0,(2,2))", "cute::ceil_div(cute::Int<8>{} * cute::E<0>{}, " + S(2, 2) + ")",
     lambda: core.ceil_div(ScaledBasis(8, (0,)), (2, 2))),
    # refusals: CuTe does not compile these
    ("stride(Sw o 0 o (8,8):(1,8))", "cute::stride(" + to_cpp(ComposedLayout(Swizzle(1, 2, 3), 0, Layout((8, 8)))) + ")",
     lambda: core.stride(ComposedLayout(Swizzle(1, 2, 3), 0, Layout((8, 8))))),
    ("stride(7)", "cute::stride(cute::Int<7>{})", lambda: core.stride(7)),
    ("make_fragment_like((2,4):(1@0,1@1))", "cute::make_fragment_like(cute::make_layout(" + S(2, 4)
     + ", cute::make_stride(cute::E<0>{}, cute::E<1>{})))",
     lambda: core.make_fragment_like(Layout((2, 4), (E0, ScaledBasis(1, (1,)))))),
    ("shape_div((4,8):(1,4),2)", "cute::shape_div(" + to_cpp(CONTIG) + ", cute::Int<2>{})",
     lambda: core.shape_div(CONTIG, 2)),
    # ceil_div(Target, Layout tiler) = shape(complement(tiler, shape(target))) (layout.hpp, grid sizes)
    ("ceil_div(8,(4,8):(1,4))", "cute::ceil_div(cute::Int<8>{}, " + to_cpp(CONTIG) + ")",
     lambda: core.ceil_div(8, CONTIG)),
    ("ceil_div((128,64),4:2)", "cute::ceil_div(" + S(128, 64) + ", " + to_cpp(Layout(4, 2)) + ")",
     lambda: core.ceil_div((128, 64), Layout(4, 2))),
    ("ceil_div((d128,d64),(4,8):(1,128))", "cute::ceil_div(" + S(D(128), D(64)) + ", " + to_cpp(Layout((4, 8), (1, 128))) + ")",
     lambda: core.ceil_div((D(128), D(64)), Layout((4, 8), (1, 128)))),
    ("ceil_div((16,8):(1,16),4:1)", "cute::ceil_div(" + to_cpp(Layout((16, 8))) + ", " + to_cpp(Layout(4, 1)) + ")",
     lambda: core.ceil_div(Layout((16, 8)), Layout(4, 1))),
    ("inner_product((4,8):(1,4),2)", "cute::inner_product(" + to_cpp(CONTIG) + ", cute::Int<2>{})",
     lambda: core.inner_product(CONTIG, 2)),
    ("crd2idx(2,16,4:1)", "cute::crd2idx(cute::Int<2>{}, cute::Int<16>{}, " + to_cpp(Layout(4, 1)) + ")",
     lambda: core.crd2idx(2, 16, Layout(4, 1))),
]


def show(value) -> str:
    if isinstance(value, ArithmeticTuple):
        return str(value)
    return core_show(value)


def test_value_kind_cases_equal_cute():
    oracle = oracle_or_skip()
    cases = [Case(f"value_kinds#{i}", "value_kinds", text, cpp, fn) for i, (text, cpp, fn) in enumerate(CASES)]
    results = run_guided(oracle, cases, show)
    bad = compare(cases, results, show, "value_kinds")
    msgs = bad.get("value_kinds", [])
    assert not msgs, f"{len(msgs)} mismatches of {len(cases)}:\n" + "\n".join(msgs)
