"""Operations on Formulas: the value is core's, the names come from the input's digits."""

import pytest
from hypothesis import assume, given, settings, strategies as st

from symcute import Layout
import symcute.core as core
from symcute.errors import LayoutError
import symcute.symbolic as sym
from symcute.symbolic.names import default_names

from .seed import seed_F
from ..strategies import flat_compact_layouts, flat_layouts


def _same(sym_op, core_op, *args):
    """Run both; they must agree on the value or both refuse. Returns the Formula or None."""
    plain = [a.layout if isinstance(a, sym.Formula) else a for a in args]
    try:
        expected = core_op(*plain)
    except LayoutError:
        with pytest.raises(LayoutError):
            sym_op(*args)
        return None
    result = sym_op(*args)
    assert result.layout == expected
    _consistent(result)
    return result


def _consistent(f):
    """Digits multiply to the modes, names are unique, and the linear form is the layout's function."""
    names = [a.name for a in f.axes]
    assert len(set(names)) == len(names)
    if f.size() <= 1024:
        for q in range(f.size()):
            assert sum(a.stride * ((q // a.weight) % a.extent) for a in f.axes) == f(q)


unary = [
    (sym.coalesce, core.coalesce),
    (sym.right_inverse, core.right_inverse),
    (sym.left_inverse, core.left_inverse),
    (sym.complement, core.complement),
]


@settings(max_examples=300, deadline=None)
@given(flat_layouts())
def test_unary_ops_match_core(L):
    F = sym.formula(L)
    for s, c in unary:
        _same(s, c, F)


@settings(max_examples=200, deadline=None)
@given(flat_layouts(), st.sampled_from([1, 2, 4, 8, 16]))
def test_recasts_match_core(L, n):
    F = sym.formula(L)
    _same(sym.upcast, core.upcast, F, n)
    _same(sym.downcast, core.downcast, F, n)


@settings(max_examples=150, deadline=None)
@given(flat_layouts(), flat_compact_layouts())
def test_binary_ops_match_core(L, T):
    F = sym.formula(L)
    _same(sym.composition, core.composition, F, T)
    _same(sym.composition, core.composition, F, sym.formula(T, default_names(T.shape, "m")))
    _same(sym.logical_divide, core.logical_divide, F, T)
    _same(sym.zipped_divide, core.zipped_divide, F, T)
    _same(sym.logical_product, core.logical_product, F, T)
    if L.rank >= 2:
        tiler = (T, 2)
        _same(sym.logical_divide, core.logical_divide, F, tiler)
        _same(sym.zipped_divide, core.zipped_divide, F, tiler)
        _same(sym.logical_product, core.logical_product, F, tiler)
        _same(sym.composition, core.composition, F, tiler)


@settings(max_examples=300, deadline=None)
@given(flat_layouts())
def test_right_inverse_digits_are_named_after_the_digits_they_select(L):
    F = sym.formula(L)
    G = sym.right_inverse(F)
    for a in G.axes:
        if a.name in {b.name for b in F.axes}:
            # an unsplit digit of F: G reaches F's input at that digit's weight
            assert a.stride == F.axis(a.name).weight


@settings(max_examples=300, deadline=None)
@given(flat_layouts(), flat_compact_layouts())
def test_aliases_point_at_the_digit_reached(L, T):
    F = sym.formula(L)
    M = sym.formula(T, default_names(T.shape, "m"))
    try:
        R = sym.composition(F, M)
    except LayoutError:
        assume(False)   # CuTe refuses this input: not a case of the property
    fnames = {b.name: b for b in F.axes}
    for a in R.axes:
        target = R.aliases.get(a.name)
        if target in fnames:
            b = fnames[target]
            offset = T(a.weight)  # where one step of this digit lands in F's input
            assert offset % b.weight == 0
            assert offset < b.weight * b.extent or b is F.axes[-1]


def test_coalesce_keeps_digits_in_merged_modes():
    F = sym.formula(Layout.parse("(2,4,3):(1,2,16)"), names=("a", "b", "c"))
    C = sym.coalesce(F)
    assert C.layout == Layout.parse("(8,3):(1,16)")
    assert str(C) == str(F) == "a + 2*b + 16*c"
    assert C.names == ("a·b", "c")


def test_composition_splits_digits_on_both_sides():
    F = sym.formula(Layout.parse("(4,8):(8,1)"), names=("t0", "t1"))
    M = sym.formula(Layout.parse("(2,16):(1,2)"), names=("p", "r"))
    R = sym.composition(F, M)
    assert R.layout == core.composition(F.layout, M.layout) == Layout.parse("(2,(2,8)):(8,(16,1))")
    # r is split where it crosses from t0 into t1, and t0 is split between p and r
    assert str(R) == "8*p + 16*r0 + r1"
    assert R.aliases == {"p": "t0_0", "r0": "t0_1", "r1": "t1"}


def test_composition_overlapping_rhs_has_no_aliases():
    F = sym.formula(Layout.parse("(4,8):(8,1)"), names=("t0", "t1"))
    M = sym.formula(Layout.parse("(2,16):(2,1)"), names=("p", "r"))  # p and r both step through t0
    R = sym.composition(F, M)
    assert R.layout == core.composition(F.layout, M.layout)
    assert R.aliases == {} and str(R).startswith("16*p")


def test_composition_with_plain_layout_uses_lhs_names():
    F = sym.formula(Layout.parse("(4,8):(8,1)"), names=("t0", "t1"))
    R = sym.composition(F, Layout.parse("(8,4):(4,1)"))
    assert R.layout == core.composition(F.layout, Layout.parse("(8,4):(4,1)"))
    assert str(R) == "t1 + 8*t0"


def test_complement_names_gaps():
    F = sym.formula(Layout.parse("(4,2):(2,32)"), names=("a", "b"))
    C = sym.complement(F, 256)
    assert C.layout == core.complement(F.layout, 256)
    assert [a.name for a in C.axes] == ["g0", "g1", "g2"]
    assert str(C) == "g0 + 8*g1 + 64*g2"


def test_downcast_adds_a_low_digit():
    F = sym.formula(Layout.parse("(4,8):(8,1)"), names=("a", "b"))
    D = sym.downcast(F, 2)
    assert D.layout == core.downcast(F.layout, 2)
    assert str(D) == "16*a + b_lo + 2*b"


def test_logical_product_names_repeats_after_gaps():
    F = sym.formula(Layout.parse("(2,2):(1,4)"), names=("a", "b"))
    P = sym.logical_product(F, Layout.parse("4:1"))
    assert P.layout == core.logical_product(F.layout, Layout.parse("4:1"))
    assert str(P) == "a + 4*b + 2*g0 + 8*g1"


def test_zipped_divide_regroups_digits():
    F = seed_F()
    Z = sym.zipped_divide(F[0], Layout.parse("4:1"))
    assert Z.layout == core.zipped_divide(F[0].layout, Layout.parse("4:1"))
    assert str(Z) == str(F[0])


def test_errors_are_cutes():
    F = sym.formula(Layout.parse("(4,8):(8,3)"))
    with pytest.raises(LayoutError):
        sym.upcast(F, 2)
