"""CuTe's contracts, checked: CuTe's value is returned as CuTe computes it, and the prover says when it
breaks the operation's postcondition (CUTLASS #3177)."""

import pytest
import sympy

from symcute import Layout
import symcute.core as core
from symcute.core.parse import parse_layout as P
from symcute.errors import LayoutError, SymcuteError
from symcute.symbolic.contracts import CONTRACT_OPS, contract, evaluate_checked, true_composition


def test_cutlass_3177_composition_breaks_its_contract_at_index_2():
    A, B = P("(4,6,8):(2,3,5)"), P("6:3")
    assert core.composition(A, B) == P("(2,3):(6,3)")  # CuTe's value, kept
    p = contract("composition", A, B)
    assert p.refuted and p.counterexample["index"] == 2
    assert p.counterexample["R"] == 3 and p.counterexample["A(B)"] == 7 == A(B(2))


def test_true_composition_is_a_closed_form_of_a_after_b():
    A, B = P("(4,6,8):(2,3,5)"), P("6:3")
    e = true_composition(A, B)
    c = sympy.Symbol("c", integer=True, nonnegative=True)
    assert [int(e.subs(c, i)) for i in range(B.size())] == [A(B(i)) for i in range(B.size())]
    assert "floor" in str(e) or "Mod" in str(e)
    with pytest.raises(SymcuteError, match="negative stride"):
        true_composition(A, P("2:-1"))


@pytest.mark.parametrize("op,args", [
    ("composition", (P("(4,8):(1,4)"), P("(2,4):(4,1)"))),
    ("composition", (P("(4,8):(1,4)"), (2, 4))),
    ("right_inverse", (P("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"),)),
    ("left_inverse", (P("(4,2):(2,1)"),)),
    ("left_inverse", (P("(2,2):(0,1)"),)),          # not injective: the quasi-inverse contract still holds
    ("complement", (P("(2,2):(1,6)"), 24)),
    ("complement", (P("(4,8):(8,1)"),)),
    ("logical_divide", (P("(4,8):(1,4)"), P("4:2"))),
    ("logical_product", (P("(2,2):(1,2)"), P("3:1"))),
    ("coalesce", (P("(2,(1,6)):(1,(6,2))"),)),
    ("filter", (P("(2,3,4):(0,1,3)"),)),
    ("upcast", (P("(4,8):(8,1)"), 2)),
    ("downcast", (P("(4,8):(8,1)"), 2)),
    ("recast_layout", (P("(4,8):(8,1)"), "uint8_t", "uint16_t")),
    ("recast_layout", (P("(4,8):(8,1)"), "uint32_t", "uint16_t")),
])
def test_contracts_of_correct_values_are_proved(op, args):
    p = contract(op, *args)
    assert p.proved, p


def test_a_large_right_inverse_contract_is_proved_without_enumeration():
    L = Layout((5, 1 << 38, 6), (1, 30, 5))
    p = contract("right_inverse", L)
    assert p.proved and p.method in ("refinement", "z3", "isl")


def test_contract_refuses_an_unknown_op_and_keeps_cutes_refusals():
    with pytest.raises(SymcuteError, match="no contract for 'nope'"):
        contract("nope", P("4:1"))
    with pytest.raises(LayoutError):
        contract("composition", P("(4,6,8):(1,10,100)"), P("2:6"))   # Stride Divisibility Condition
    assert set(CONTRACT_OPS) >= {"composition", "complement", "right_inverse", "left_inverse"}


def test_evaluate_checked_finds_the_call_that_produced_the_value():
    A, B = P("(4,6,8):(2,3,5)"), P("6:3")
    value, proof = evaluate_checked(lambda: core.composition(A, B))
    assert value == P("(2,3):(6,3)") and proof.refuted
    value, proof = evaluate_checked(lambda: core.size(core.composition(A, B)))
    assert value == 6 and proof is None


def test_calc_prints_cutes_value_and_one_warning_line(cli):
    code, out, err = cli(["calc", "composition((4,6,8):(2,3,5), 6:3)"])
    assert code == 0 and out.strip() == "(2,3):(6,3)"
    assert err.count("\n") == 1 and err.startswith("warning: ") and "index = 2" in err and "A(B) = 7" in err
    code, out, err = cli(["calc", "composition((4,6,8):(1,4,24), 6:3)"])
    assert code == 0 and out.strip() == "6:3" and err == ""


def test_a_nested_tiler_mode_is_checked_by_mode_again(cli):
    # found by the fuzz run: the by-mode check handed a nested tiler mode ((2,2)) to the layout check
    code, out, err = cli(["calc", "composition(L, L)", "--let", "L=(((2,2),2),2)"])
    assert code == 0 and out.strip() == "(((2,2),2),2):(((1,2),4),8)" and "warning" not in err
    assert contract("composition", P("((4,4),8):((1,4),16)"), ((2, 2), 4)).verdict == "proved"
    assert contract("composition", P("((4,6),8):((2,3),5)"), ((6, 2), 4)).verdict in ("proved", "refuted")


def test_integer_tiles_underscores_and_nested_divide_modes_are_checked():
    # found by the fuzz run's CLI entry point: these argument forms crashed calc's quick check
    from symcute.core.layout import Underscore
    assert contract("logical_product", P("4:1"), 2).verdict == "proved"
    assert contract("composition", P("(8,8):(8,1)"), Underscore()).verdict == "proved"
    assert contract("logical_divide", P("(8,8):(8,1)"), Underscore()).verdict == "proved"
    assert contract("logical_divide", P("((4,4),8):((1,4),16)"), ((2, 2), 4)).verdict == "proved"


@pytest.mark.parametrize("argv", [
    ["calc", "logical_product(1:-2, rank(X))", "--let", "X=(2,1):(2,2)"],
    ["calc", "composition(right_inverse(X), _)", "--let", "X=-1"],
])
def test_calc_prints_the_value_whatever_the_quick_check_takes(argv, cli):
    code, out, err = cli(argv)
    assert code == 0
    assert out.strip() and "Traceback" not in err


def test_calc_quick_check_is_bounded_and_basis_strides_over_negative_extents_do_not_crash(cli):
    # found by the fuzz run: this complement's check ran for minutes; these coalesces hit the GF(2)
    # self-check (the bits view does not describe basis strides over negative extents)
    for expr, value in [("complement(-4:1099511627776)", "(1099511627776,2):(1,-4398046511104)"),
                        ("coalesce(-1:2@2)", "-1:2@2"), ("coalesce((4,-4):(2@2,8))", "(4,-4):(2@2,8)")]:
        code, out, err = cli(["calc", expr])
        assert code == 0
        assert out.strip() == value and "Traceback" not in err
