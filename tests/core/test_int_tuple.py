"""CuTe's IntTuple functions (int_tuple.hpp, stride.hpp, tuple_algorithms.hpp) on plain tuples and ints.

Expected values are CuTe 4.2's (the differential suite, tests/differential/test_int_tuple_vs_cute.py,
compiles the same calls with real CuTe).
"""

from __future__ import annotations

import pytest

import symcute as sc
from symcute.errors import SymcuteError


def test_compact_major_with_a_tuple_current_applies_at_its_terminals():
    # stride.hpp: transform(shape, current, compact_major); this was a silent tuple repetition
    assert sc.compact_col_major(((24, 24), 24), (1, 24)) == ((1, 24), 24)
    assert sc.compact_row_major(((2, 3), 4), (1, 5)) == ((3, 1), 5)
    assert sc.compact_col_major((2, 3), 5) == (5, 10)


@pytest.mark.parametrize("shape, current", [(4, (1, 2)), ((2, 3), (1, 2, 3))])
def test_compact_major_refuses_what_cute_refuses(shape, current):
    with pytest.raises(SymcuteError):
        sc.compact_col_major(shape, current)


# --- the issue's cases: CuTe 4.2's values on plain tuples, ints and ArithmeticTuples -------------------

from symcute.core.basis import ArithmeticTuple, ScaledBasis  # noqa: E402


def test_tuple_algorithms_on_plain_tuples():
    assert sc.select((1, 2, 3, 4), 0, 2) == (1, 3)
    assert sc.take((1, 2, 3, 4), 1, 3) == (2, 3)
    assert sc.slice_((sc._, 1), ((2, 3), (5, 7, 9))) == ((2, 3),)
    assert sc.append((4, 8), 1, 4) == (4, 8, 1, 1)
    assert sc.append(4, 8) == (4, 8) and sc.prepend((4, 8), 1) == (1, 4, 8)
    assert sc.group((1, 2, 3, 4), 1, 3) == (1, (2, 3), 4)
    assert sc.flatten(((1, 2), (3, (4,)))) == (1, 2, 3, 4)
    assert sc.unflatten((1, 2, 3), ((0, 0), 0)) == ((1, 2), 3)
    assert sc.zip_layouts(((1, 2), (3, 4))) == ((1, 3), (2, 4))
    assert sc.transform((1, 2), (3, 4), lambda a, b: a * b) == (3, 8)
    assert sc.fold((1, 2, 3), 0, lambda v, x: 10 * v + x) == 123
    assert sc.elem_less((1, 2), (2, 3, 0)) and not sc.elem_less((1, 2, 0), (2, 3))


@pytest.mark.parametrize("call", [
    lambda: sc.take((1, 2), 2, 1),                          # static_assert(B <= E)
    lambda: sc.select((1, 2), 2),                           # get<2> out of range
    lambda: sc.append((1, 2, 3), 0, 2),                     # append<N> below the rank
    lambda: sc.unflatten((1, 2), (0, 0, 0)),                # fewer elements than leaves
    lambda: sc.elem_less((1, (2, 3)), (2, 3)),              # a tuple has no operator< with an int
    lambda: sc.idx2crd(ScaledBasis(1, (0,)), (8, 8)),       # no divmod of a ScaledBasis
    lambda: sc.inner_product(2, (1, 2)),                    # no int * tuple (Python would repeat it)
])
def test_refusals_are_symcute_errors(call):
    with pytest.raises(SymcuteError):
        call()


def test_composed_layout_select_and_make_layout_like():
    c = sc.ComposedLayout(sc.Swizzle(3, 3, 3), 0, sc.Layout((8, 8), (8, 1)))
    assert sc.select(c, 0, 1) == (c[0], c[1])               # CuTe's tuple select: make_tuple(get<I>(c)...)
    with pytest.raises(SymcuteError):
        sc.make_layout_like(c)                              # CuTe: make_layout_like takes a Layout only


def test_arithmetic_tuples_as_cute_has_them():
    at = ArithmeticTuple
    assert sc.Layout((4, 4), (4, 1))(at((1, 2))) == 6
    assert sc.crd2idx(at((1, 2)), (4, 4), (4, 1)) == 6
    assert sc.idx2crd(at((1, 0)), (8, 8)) == (1, 0)
    assert at((1, 2, 3)) == (1, 2, 3) and (1, 2, 3) == at((1, 2, 3)) and at((1, 2)) != (1, 2, 3)
    assert at((1, 2, 3)) + (7, 8, 9) == (8, 10, 12)
    assert at((1, 2, 3)) - at((7, 8, 9)) == (-6, -6, -6)
    assert not sc.weakly_congruent(at((1, 1, 1)), (8, 8))
    with pytest.raises(SymcuteError):
        at((1, 2)) + 3                                      # "Arithmetic tuple op+ error!"


def test_coshape_and_cosize_of_basis_strided_layouts():
    e = ScaledBasis
    L = sc.Layout((4, 8), (e(1, (0,)), e(1, (1,))))
    assert sc.cosize(L) == 32 and sc.coshape(L) == (4, 8)
    assert sc.coshape(sc.Layout((4, 8), (1, 4))) == 32
    L2 = sc.Layout((2, 2), (e(2, (1,)), e(1, (0,))))
    assert sc.coshape(L2) == (2, 3)
    with pytest.raises(SymcuteError):                       # a basis element plus a nonzero integer
        sc.coshape(sc.Layout((4, 8), (e(1, (0,)), 2)))
