"""CuTe's IntTuple functions on plain tuples, ints and ArithmeticTuples (issue 28) against real CuTe 4.2.

Each case is one call written as C++ for CuTe and as a symcute call; CuTe's printed value must equal
symcute's, and where CuTe refuses to compile, symcute must raise a SymcuteError.
"""

from __future__ import annotations

import pytest

import symcute as sc
from symcute.core.basis import ArithmeticTuple as AT, ScaledBasis
from .core_cases import Case, show as core_show
from .harness import compare, oracle_or_skip, run_guided

pytestmark = pytest.mark.cute


def I(*v) -> str:
    return "cute::make_tuple(" + ",".join(f"cute::Int<{x}>{{}}" if isinstance(x, int) else x for x in v) + ")"


def A(*v) -> str:
    return "cute::make_arithmetic_tuple(" + ",".join(f"cute::Int<{x}>{{}}" for x in v) + ")"


E0, E1 = ScaledBasis(1, (0,)), ScaledBasis(1, (1,))
BASIS = "cute::make_stride(cute::E<0>{}, cute::E<1>{})"

CASES = [
    ("compact_col_major(((24,24),24),(1,24))", "cute::compact_col_major(cute::make_tuple(" + I(24, 24) + ",cute::Int<24>{})," + I(1, 24) + ")",
     lambda: sc.compact_col_major(((24, 24), 24), (1, 24))),
    ("compact_row_major(((2,3),4),(1,5))", "cute::compact_row_major(cute::make_tuple(" + I(2, 3) + ",cute::Int<4>{})," + I(1, 5) + ")",
     lambda: sc.compact_row_major(((2, 3), 4), (1, 5))),
    ("select<0,2>((1,2,3,4))", "cute::select<0,2>(" + I(1, 2, 3, 4) + ")", lambda: sc.select((1, 2, 3, 4), 0, 2)),
    ("take<1,3>((1,2,3,4))", "cute::take<1,3>(" + I(1, 2, 3, 4) + ")", lambda: sc.take((1, 2, 3, 4), 1, 3)),
    ("take<2,1>((1,2,3,4))", "cute::take<2,1>(" + I(1, 2, 3, 4) + ")", lambda: sc.take((1, 2, 3, 4), 2, 1)),
    ("append<4>((4,8),1)", "cute::append<4>(" + I(4, 8) + ",cute::Int<1>{})", lambda: sc.append((4, 8), 1, 4)),
    ("append<1>((4,8),1)", "cute::append<1>(" + I(4, 8) + ",cute::Int<1>{})", lambda: sc.append((4, 8), 1, 1)),
    ("prepend((4,8),1)", "cute::prepend(" + I(4, 8) + ",cute::Int<1>{})", lambda: sc.prepend((4, 8), 1)),
    ("slice((_,1),((2,3),(5,7,9)))", "cute::slice(cute::make_tuple(cute::Underscore{},cute::Int<1>{}), cute::make_tuple("
     + I(2, 3) + "," + I(5, 7, 9) + "))", lambda: sc.slice_((sc._, 1), ((2, 3), (5, 7, 9)))),
    ("group<1,3>((1,2,3,4))", "cute::group<1,3>(" + I(1, 2, 3, 4) + ")", lambda: sc.group((1, 2, 3, 4), 1, 3)),
    ("unflatten((1,2,3),((0,0),0))", "cute::unflatten(" + I(1, 2, 3) + ", cute::make_tuple(" + I(0, 0) + ",cute::Int<0>{}))",
     lambda: sc.unflatten((1, 2, 3), ((0, 0), 0))),
    ("unflatten((1,2),(0,0,0))", "cute::unflatten(" + I(1, 2) + "," + I(0, 0, 0) + ")", lambda: sc.unflatten((1, 2), (0, 0, 0))),
    ("zip(((1,2),(3,4)))", "cute::zip(cute::make_tuple(" + I(1, 2) + "," + I(3, 4) + "))", lambda: sc.zip_layouts(((1, 2), (3, 4)))),
    ("elem_less((1,2),(2,3,0))", "cute::elem_less(" + I(1, 2) + "," + I(2, 3, 0) + ")", lambda: sc.elem_less((1, 2), (2, 3, 0))),
    ("elem_less((1,2,0),(2,3))", "cute::elem_less(" + I(1, 2, 0) + "," + I(2, 3) + ")", lambda: sc.elem_less((1, 2, 0), (2, 3))),
    ("AT(1,2,3)+(7,8,9)", A(1, 2, 3) + " + " + I(7, 8, 9), lambda: AT((1, 2, 3)) + (7, 8, 9)),
    ("AT(1,2,3)-AT(7,8,9)", A(1, 2, 3) + " - " + A(7, 8, 9), lambda: AT((1, 2, 3)) - AT((7, 8, 9))),
    ("AT(1,2)+_3", A(1, 2) + " + cute::Int<3>{}", lambda: AT((1, 2)) + 3),
    ("AT(1,2,3)==(1,2,3)", A(1, 2, 3) + " == " + I(1, 2, 3), lambda: AT((1, 2, 3)) == (1, 2, 3)),
    ("coshape((4,8):(1@0,1@1))", "cute::coshape(cute::make_layout(" + I(4, 8) + ", " + BASIS + "))",
     lambda: sc.coshape(sc.Layout((4, 8), (E0, E1)))),
    ("cosize((4,8):(1@0,1@1))", "cute::cosize(cute::make_layout(" + I(4, 8) + ", " + BASIS + "))",
     lambda: sc.cosize(sc.Layout((4, 8), (E0, E1)))),
    ("coshape((2,2):(2@1,1@0))", "cute::coshape(cute::make_layout(" + I(2, 2)
     + ", cute::make_stride(cute::Int<2>{}*cute::E<1>{}, cute::E<0>{})))",
     lambda: sc.coshape(sc.Layout((2, 2), (ScaledBasis(2, (1,)), E0)))),
    ("weakly_congruent(AT(1,1,1),(8,8))", "cute::weakly_congruent(" + A(1, 1, 1) + ", " + I(8, 8) + ")",
     lambda: sc.weakly_congruent(AT((1, 1, 1)), (8, 8))),
    ("crd2idx(AT(1,2),(4,4),(4,1))", "cute::crd2idx(" + A(1, 2) + ", " + I(4, 4) + "," + I(4, 1) + ")",
     lambda: sc.crd2idx(AT((1, 2)), (4, 4), (4, 1))),
    ("idx2crd(AT(1,0),(8,8))", "cute::idx2crd(" + A(1, 0) + ", " + I(8, 8) + ")", lambda: sc.idx2crd(AT((1, 0)), (8, 8))),
    ("idx2crd(1@0,(8,8))", "cute::idx2crd(cute::E<0>{}, " + I(8, 8) + ")", lambda: sc.idx2crd(E0, (8, 8))),
]


def show(value) -> str:
    if isinstance(value, bool):
        return str(int(value))
    return core_show(value)


def test_int_tuple_functions_equal_cute():
    oracle = oracle_or_skip()
    cases = [Case(f"int_tuple#{i}", "int_tuple", text, cpp, fn) for i, (text, cpp, fn) in enumerate(CASES)]
    results = run_guided(oracle, cases, show)
    bad = compare(cases, results, show, "int_tuple")
    msgs = bad.get("int_tuple", [])
    assert not msgs, f"{len(msgs)} mismatches of {len(cases)}:\n" + "\n".join(msgs)
