"""Layout basics: construction, CuTe's print format, parsing, evaluation, modes."""

import pytest

from symcute import (
    Layout, LayoutError, ParseError, append, flatten, group, make_layout, make_layout_like,
    make_ordered_layout, prepend, select, take, make_identity_layout, composition, cosize,
)
from symcute.core.parse import parse_layout, parse_int_tuple


def test_default_stride_is_compact_column_major_with_zero_for_size_one():
    assert str(Layout((2, 1, 3))) == "(2,1,3):(1,0,2)"
    assert str(Layout(((2, 4), 3))) == "((2,4),3):((1,2),8)"
    assert str(make_layout(1)) == "1:0"


def test_print_keeps_one_tuples():
    assert str(Layout(((2,), 1), ((2,), 0))) == "((2),1):((2),0)"
    assert str(Layout((4,), (1,))) == "(4):(1)"


@pytest.mark.parametrize("text, canonical", [
    ("((_4,_8),_2):((_1,_4),_32)", "((4,8),2):((1,4),32)"),
    ("((4,8),2):((1,4),32)", "((4,8),2):((1,4),32)"),
    ("(4):(-1)", "(4):(-1)"),
    ("_-1:_2", "-1:2"),
    ("(4,4):(1@1,1@0)", "(4,4):(1@1,1@0)"),
    ("(2,4):(1@1@1,1@0)", "(2,4):(1@1@1,1@0)"),
    (" ( 2 , 3 ) : ( 1 , 2 ) ", "(2,3):(1,2)"),
    ("(2,3)", "(2,3):(1,2)"),
])
def test_parse_round_trips(text, canonical):
    assert str(Layout.parse(text)) == canonical


@pytest.mark.parametrize("bad, why", [
    ("", "empty"),
    ("(2,3):(1)", "congruent"),
    ("(2,3", "expected"),
    ("(2,3):(1,2))", "trailing"),
    ("2:x", "integer"),
    ("2$3", "unexpected character"),
    ("(" * 200 + "1" + ")" * 200, "nesting"),
])
def test_parse_errors_name_the_problem(bad, why):
    with pytest.raises((ParseError, LayoutError), match=why):
        Layout.parse(bad)


def test_deep_nesting_is_a_clear_error_not_a_recursion_error():
    with pytest.raises(ParseError, match="nesting"):
        Layout.parse("(" * 10_000 + "1" + ")" * 10_000)


def test_evaluation_int_flat_and_nested_coordinates():
    L = Layout.parse("((4,8),2):((1,4),32)")
    assert L(5) == 5 and L(32) == 32 and L(33) == 33
    assert L((1, 1), 1) == 1 + 4 + 32
    assert L(((1, 1), 1)) == 37
    assert L((9, 1)) == 1 + 2 * 4 + 32  # an int coordinate for a tuple mode splits colexicographically
    assert L(64) == 64  # beyond size: the last mode takes the rest, as CuTe's crd2idx does


def test_evaluation_rank_mismatch():
    with pytest.raises(LayoutError, match="Mismatched Ranks"):
        Layout.parse("(4,8):(1,4)")((1, 2, 3))


def test_sizes_and_modes():
    L = Layout.parse("((4,8),(2,3)):((1,4),(64,128))")
    assert L.size() == 192 and L.rank == 2 and L.depth == 2
    assert cosize(L) == 3 * 1 + 7 * 4 + 1 * 64 + 2 * 128 + 1
    assert str(L[1]) == "(2,3):(64,128)" and str(L[1, 0]) == "2:64"
    assert str(flatten(L)) == "(4,8,2,3):(1,4,64,128)"
    assert str(select(flatten(L), 3, 0)) == "(3,4):(128,1)"
    assert str(take(flatten(L), 1, 3)) == "(8,2):(4,64)"
    assert str(group(flatten(L), 1, 3)) == "(4,(8,2),3):(1,(4,64),128)"
    assert str(append(L[0], Layout(5, 7))) == "(4,8,5):(1,4,7)"
    assert str(prepend(Layout(4, 1), Layout(2, 0))) == "(2,4):(0,1)"
    assert str(append(Layout(4, 1), n=3)) == "(4,1,1):(1,0,0)"


def test_immutable_and_hashable():
    L = Layout((2, 2), (1, 2))
    with pytest.raises(AttributeError):
        L.shape = 3
    assert {L: 1}[Layout.parse("(2,2):(1,2)")] == 1
    assert L != Layout((2, 2), (2, 1))


def test_ordered_and_like_layouts():
    assert str(make_ordered_layout((2, 2, 2, 2), (0, 2, 3, 1))) == "(2,2,2,2):(1,4,8,2)"
    assert str(make_layout_like(Layout((2, 2, 2, 2), (0, 2, 4, 1)))) == "(2,2,2,2):(0,2,4,1)"
    assert str(make_layout((4, 2), "LayoutRight")) == "(4,2):(2,1)"


def test_identity_layout_and_basis_composition():
    I = make_identity_layout((4, 8))
    assert str(I) == "(4,8):(1@0,1@1)"
    # from CuTe's unit tests: composition with basis strides selects modes
    assert str(composition(Layout.parse("(4,4):(4,1)"), Layout.parse("(4,4):(1@1,1@0)"))) == "(4,4):(1,4)"
    assert str(composition(Layout.parse("(4,(2,3)):(6,(3,1))"), Layout.parse("(2,4):(1@1@1,1@0)"))) == "(2,4):(1,6)"


def test_shape_alone_and_int_tuples():
    assert parse_int_tuple("((2,2),4)") == ((2, 2), 4)
    assert parse_int_tuple("_32") == 32


# --- coordinates from an index, as CuTe's Layout member functions compute them --------------

def test_get_hier_coord_reads_the_strides_not_the_colexicographic_split():
    L = Layout((2, 4), (64, 6))  # CuTe: idx2crd(idx, shape, stride), (idx / d) % s per mode
    assert L.get_hier_coord(1) == (0, 0)
    assert L.get_hier_coord(70) == (1, 3)
    assert L.get_flat_coord(70) == (1, 3)
    assert L.get_1d_coord(70) == 1 + 2 * 3


def test_get_hier_coord_of_a_compact_layout_inverts_it():
    L = Layout(((2, 3), 4))
    for i in range(L.size()):
        assert L(L.get_hier_coord(i)) == i


def test_get_flat_coord_of_rank_one_is_an_integer():
    assert Layout((8,), (1,)).get_flat_coord(10) == 2


def test_get_hier_coord_refuses_a_stride_zero_division():
    with pytest.raises(LayoutError, match="divides by zero"):
        Layout((2, 4), (0, 1)).get_hier_coord(3)
    assert Layout((1, 4), (0, 1)).get_hier_coord(3) == (0, 3)  # extent 1: CuTe skips the division


def test_make_layout_like_refuses_basis_strides_as_cute_does():
    with pytest.raises(LayoutError, match="not an integer"):
        make_layout_like(parse_layout("(2,4):(1@0,1@1)"))


def test_plain_append_to_a_composed_layout_is_the_tuple_pair():
    c = parse_layout("Sw<2,4,3> o 0 o (8,32):(32,1)")
    pair = append(c, Layout(2, 1))  # CuTe has only append<N> for composed layouts
    assert isinstance(pair, tuple) and pair == (c, Layout(2, 1))
    assert str(append(c, Layout(1, 0), 3)) == "Sw<2,4,3> o 0 o (8,32,1):(32,1,0)"
    with pytest.raises(LayoutError, match="append<N>"):
        append(c)


def test_remembered_tuples_keep_every_check():
    # The constructor remembers pairs of tuple objects it has checked (by identity), so building
    # again from the same objects skips the walk; equal-looking inputs of other types are new
    # objects and are still refused, and a refused pair is never remembered.  (With the C fast path,
    # core/_fastlayout.c, nothing is remembered: every pair is checked, and the refusals below still hold.)
    from symcute.core import layout as layout_module
    shape, stride = (4, (2, 3)), (1, (4, 8))
    first, again = Layout(shape, stride), Layout(shape, stride)
    assert first == again and again.shape is shape and again.stride is stride
    def remembered(s, d):
        seen = layout_module._BUILT.get(id(s) ^ id(d))
        return seen is not None and seen[0] is s and seen[1] is d
    assert remembered(shape, stride) == (layout_module._fastlayout is None)
    for bad_shape in ((4.0, (2, 3)), (4, (2, 3.0))):
        assert bad_shape == shape and hash(bad_shape) == hash(shape)  # an equality-keyed cache would let them in
        for _ in range(2):
            with pytest.raises(LayoutError, match="is not an integer"):
                Layout(bad_shape, stride)
    ragged = (1, (4,))
    for _ in range(2):
        with pytest.raises(LayoutError, match="not congruent"):
            Layout(shape, ragged)
    assert not remembered(shape, ragged)
    one = (1, (2, 3))
    Layout(one, stride)
    with pytest.raises(LayoutError, match="is not an integer"):
        Layout((True, (2, 3)), stride)  # True == 1, hash(True) == hash(1)


def test_remembered_tuples_are_bounded_and_still_charged_to_the_budget():
    from symcute.core import budget
    from symcute.core import layout as layout_module
    pairs = [(tuple([i, 2]), (1, 5)) for i in range(1, layout_module._BUILT_MAX + 50)]
    for s, d in pairs:
        Layout(s, d)
    assert len(layout_module._BUILT) <= layout_module._BUILT_MAX
    shape, stride = (8, 8), (1, 8)
    Layout(shape, stride)
    with budget.limited(work=10**6) as b:
        Layout(shape, stride)
        once = b.used
        Layout(shape, stride)
    assert once > 0 and b.used == 2 * once


def test_open_budget_count_follows_every_limited_context():
    # Constructors skip the ContextVar look-up while no budget is open anywhere (budget.OPEN): the count must
    # rise and fall with every context that set a budget, errors included, or layouts would go unmetered.
    from symcute.core import budget
    from symcute.errors import LimitError
    base = budget.OPEN[0]
    with budget.limited(work=10**6) as outer:
        assert budget.OPEN[0] == base + 1
        with budget.limited() as inner:  # joins the outer budget: nothing new is open
            assert inner is outer and budget.OPEN[0] == base + 1
        Layout((8, 8), (1, 8))
        assert outer.used > 0
    assert budget.OPEN[0] == base
    with pytest.raises(LimitError):
        with budget.limited(work=3):
            Layout((8, 8, 8, 8), (1, 8, 64, 512))
    assert budget.OPEN[0] == base
    with budget.limited(work=10**6) as b:
        Layout._make((4, 4), (1, 4))
        assert b.used > 0


def test_cute_aliases_of_the_major_tags():
    # stride.hpp: using GenColMajor = LayoutLeft; using GenRowMajor = LayoutRight (CUTLASS #1882 spells them so)
    from symcute.core import tile_to_shape
    from symcute.expr import evaluate
    assert str(make_layout((4, 2), "GenRowMajor")) == str(make_layout((4, 2), "LayoutRight")) == "(4,2):(2,1)"
    assert str(make_layout((4, 2), "GenColMajor")) == "(4,2):(1,4)"
    assert str(evaluate("make_layout((4,8), GenRowMajor{})")) == "(4,8):(8,1)"
    assert tile_to_shape(Layout((2, 2), (2, 1)), (4, 8), "GenRowMajor") == \
        tile_to_shape(Layout((2, 2), (2, 1)), (4, 8), "LayoutRight")
