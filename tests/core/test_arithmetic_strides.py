"""Multi-term arithmetic-tuple strides (``(4,4):((1,1),(3,1))``): printed and sized as CuTe does, and every
operation CuTe cannot compile on them refused with a LayoutError naming the input and why."""

import pytest

import symcute as sc
from symcute import Layout
from symcute.core.basis import ArithmeticTuple
from symcute.errors import LayoutError, SymcuteError

X = "(4,4):((1,1),(3,1))"


def test_the_issues_layout_is_accepted_printed_and_sized_as_cute_does():
    L = Layout.parse(X)
    assert str(L) == X and L.stride == (ArithmeticTuple((1, 1)), ArithmeticTuple((3, 1)))
    assert L.size() == 16 and L.rank == 2 and L.depth == 1 and L.shape == (4, 4)
    assert str(L[0]) == "4:(1,1)" and str(sc.append(L, Layout(2, 1))) == "(4,4,2):((1,1),(3,1),1)"
    assert str(sc.select(L, 1, 0)) == "(4,4):((3,1),(1,1))"
    assert Layout((4, (2, 2)), (ArithmeticTuple((1, (2, 3))), (1, 2))) == Layout.parse("(4,(2,2)):((1,(2,3)),(1,2))")


@pytest.mark.parametrize("call", [
    lambda L: L(1), lambda L: L((1, 2)), lambda L: sc.cosize(L), lambda L: sc.coalesce(L),
    lambda L: sc.composition(L, Layout(2, 1)), lambda L: sc.composition(Layout(16, 1), L),
    lambda L: sc.right_inverse(L), lambda L: sc.left_inverse(L), lambda L: sc.complement(L),
    lambda L: sc.logical_divide(L, 2), lambda L: sc.logical_product(L, Layout(2, 1)), lambda L: sc.filter(L),
    lambda L: sc.flatten(L), lambda L: sc.upcast(L, 2), lambda L: sc.nullspace(L),
    lambda L: sc.max_common_vector(L, L), lambda L: L.with_shape(16), lambda L: sc.zip_layouts(L),
    lambda L: sc.filter_zeros(L), lambda L: L.get_hier_coord(3),
])
def test_every_operation_cute_cannot_compile_is_refused_naming_the_stride(call):
    with pytest.raises(LayoutError, match=r"arithmetic-tuple stride \(1,1\)|stride \(1,1\) is not an integer"):
        call(Layout.parse(X))


def test_the_refusal_names_the_users_call_and_the_input():
    with pytest.raises(LayoutError) as e:
        sc.logical_divide(Layout.parse(X), 2)
    assert str(e.value).startswith(f"logical_divide({X}, 2): CuTe refuses it") and "operator*" in str(e.value)


def test_an_integer_shape_with_a_tuple_stride_stays_refused():
    # CuTe reads the stride of an integer-shaped layout as a tuple of modes (layout<0>(4:(1,1)) is 4:1)
    for text in ("4:(1,1)", "(2,3):(1,2,3)", "(2,3):(1)"):
        with pytest.raises(LayoutError, match="not congruent"):
            Layout.parse(text)
    with pytest.raises(LayoutError, match="integers only"):
        Layout.parse("(4,4):((1,1@0),(3,1))")


def test_calc_prints_them_and_refuses_the_algebra_in_one_line(cli):
    code, out, err = cli(["calc", f"size({X})"])
    assert code == 0 and out.strip() == "16"
    code, out, err = cli(["calc", X])
    assert code == 0 and out.strip() == X
    code, out, err = cli(["calc", f"coalesce({X})"])
    assert code == 2 and err.count("\n") == 1 and "arithmetic-tuple stride" in err and "Traceback" not in err
    with pytest.raises(SymcuteError, match="arithmetic-tuple stride"):
        sc.formula(Layout.parse(X)) if hasattr(sc, "formula") else sc.symbolic.formula(Layout.parse(X))
