"""sym.composition marks CuTe's values that break composition's contract (CUTLASS #3177), and derivations
carry the contract check of each operation."""

from symcute import Layout
import symcute.core as core
import symcute.symbolic as sym
from symcute.expr.derive import derive_expr


def test_composition_3177_is_cutes_value_flagged_with_the_true_function():
    A, B = Layout((4, 6, 8), (2, 3, 5)), Layout(6, 3)
    F = sym.composition(A, B)
    assert F.layout == core.composition(A, B) == Layout((2, 3), (6, 3))      # CuTe's value, as CuTe prints it
    assert F.breaks_contract and F.contract.refuted
    ce = F.contract.counterexample
    assert F.layout(ce["index"]) == ce["R"] != ce["A(B)"] == A(B(ce["index"]))
    c = next(iter(F.true_form.free_symbols))
    assert [int(F.true_form.subs(c, i)) for i in range(6)] == [A(B(i)) for i in range(6)]
    assert "breaks CuTe's contract" in repr(F) and "floor" in repr(F)


def test_valid_compositions_are_marked_proved():
    F = sym.formula(Layout(((4, 8), (2, 2)), ((64, 1), (16, 8))), (("t0", "t1"), ("v0", "v1")))
    G = sym.composition(F, Layout((8, 4), (4, 1)))
    assert G.contract.proved and not G.breaks_contract and G.true_form is None
    assert "breaks" not in repr(G)
    H = sym.composition(F, (Layout(4, 2), Layout(2, 2)))      # a tiler: mode by mode
    assert H.contract.proved


def test_calc_warns_on_a_formula_composition(cli):
    code, out, err = cli("calc", "composition(formula((4,6,8):(2,3,5)), 6:3)")
    assert code == 0 and out.strip() == "6*y0 + 3*y1"
    assert err.startswith("warning: CuTe's value breaks its contract") and "A(B) = 7" in err


def test_derive_expr_records_each_operations_contract():
    d = derive_expr("logical_divide((3,8):(8,1), 2)")
    checks = [s for s in d.steps(top_level_only=True) if s.rule == "prove_contract"]
    assert len(checks) == 1 and checks[0].details["verdict"] == "refuted"
    assert checks[0].details["labels"] == ["result", "logical_divide"]
    d = derive_expr("complement((2,2):(1,4), 16)")
    [check] = [s for s in d.steps(top_level_only=True) if s.rule == "prove_contract"]
    assert check.details["verdict"] == "proved"
