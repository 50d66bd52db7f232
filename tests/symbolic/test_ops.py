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


def test_upcast_rows_are_cores_per_mode_and_a_per_sub_axis_refinement():
    from symcute.core import int_tuple as it
    from symcute.core.recast import UpcastMode, upcast_mode, upcast_modes
    from symcute.symbolic.ops import UpcastAxis, upcast_axes
    from symcute.trace import Derivation
    F = sym.formula(Layout(((4, 8), 2), ((1, 4), 32)), (("t0", "t1"), "v"))
    H = sym.with_shape(sym.right_inverse(F), (8, 8))      # (8,8):(1,8): each mode split into two sub-axes
    modes = upcast_modes(H.layout, 8)
    assert modes == (UpcastMode(8, 1, 8, 1, 1), UpcastMode(8, 8, 1, 8, 1))
    with Derivation("upcast") as d:                        # what core records is the same typed rows
        core.upcast(H.layout, 8)
    assert list(d.last("upcast").details["modes"]) == list(modes)
    rows = upcast_axes(H, 8)
    assert [r.axis for r in rows] == ["t0", "t1_0", "t1_1", "v"] and all(isinstance(r, UpcastAxis) for r in rows)
    assert [(r.per_group, r.new_shape, r.new_stride) for r in rows] == [(8, 1, 1), (2, 1, 1), (1, 4, 1), (1, 2, 4)]
    for r, a in zip(rows, H.axes):                        # each row: core's arithmetic on the sub-axis alone
        assert tuple(r[1:]) == upcast_mode(a.extent, a.stride, 8)
    for k, m in enumerate(modes):                         # the sub-axes of a mode multiply to core's new shape
        assert it.product(tuple(r.new_shape for r, a in zip(rows, H.axes) if a.leaf == k)) == m.new_shape
    U = sym.upcast(H, 8)
    assert U.layout == core.upcast(H.layout, 8) and [row[3] for row in U.steps.rows] == \
        [f"ceil_div(8,{m.stride})={m.per_group}" for m in modes]
    with pytest.raises(LayoutError, match="positive integer"):
        upcast_axes(H, 0)
