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


def test_an_empty_divide_result_against_a_non_empty_b_is_refuted_by_its_size_and_says_empty(cli):
    # negative extents multiply to 0: D has no coordinate, B has 120; the value claim alone was
    # "proved (vacuous)" on D's empty domain, checking nothing
    from symcute.symbolic.vocabulary import Reason
    L, T = P("(2,4,16):(1,1,4)"), P("6:-1")
    D = core.logical_divide(L, T)
    assert str(D) == "((2,3),(-1,0)):((-1,-1),(1,-3))"   # CuTe's value, kept
    B = core.make_layout(T, core.complement(T, L.size()))
    assert (D.size(), B.size()) == (0, 120)
    p = contract("logical_divide", L, T)
    assert p.refuted and p.method == "arithmetic"
    assert list(p.counterexample.values()) == [D.size(), B.size()]
    assert p.reason.args["why"].kind is Reason.EMPTY_RESULT
    assert "D is empty (size 0) while B has 120 elements" in str(p)
    code, out, err = cli(["calc", "logical_divide((2,4,16):(1,1,4), 6:-1)"])
    assert code == 0 and out.strip() == str(D)
    assert err.startswith("warning: ") and "size(D) = 0, size(B) = 120" in err


def test_a_vacuous_part_says_that_it_checked_nothing():
    from symcute.symbolic.contracts import _equal
    from symcute.symbolic.vocabulary import Phrase, Statement
    p = _equal(P("0:1"), P("0:1"), 0, Phrase(Statement.SAME_FUNCTION_ON, n=0), ("A", "B"), None)
    assert p.proved and p.method == "vacuous" and "checked at no point" in str(p)


def test_complement_over_negative_extents_meets_its_post_with_cutes_truncating_values(cli):
    # floor division made R(13) = 58 and "refuted" the ordering at a point that is not CuTe's
    L = P("(4,4):(64,-3)")
    R = core.complement(L)
    assert str(R) == "(-3,-5):(1,-12)" and R(13) == 49           # CuTe prints 49 (C++ truncation)
    values = [R(i) for i in range(R.size())]
    image = {L(j) for j in range(L.size())}
    assert all(a < b for a, b in zip(values, values[1:])) and not image & set(values[1:])
    assert contract("complement", L).proved
    code, out, err = cli(["calc", "complement((4,4):(64,-3))"])
    assert code == 0 and out.strip() == str(R) and err == ""


# --- tilers: one normalisation (contracts.tiler_leaves) for every by-mode contract -------------------

def test_tiler_leaves_normalises_every_tiler_form():
    from symcute.core.layout import _
    from symcute.symbolic.contracts import tiler_leaves
    L = P("((4,4),8,2):((1,4),16,128)")
    assert tiler_leaves(L, P("4:2"), "op") == [((), L, P("4:2"))]
    assert tiler_leaves(L, 4, "op") == [((), L, Layout(4))]
    assert tiler_leaves(L, _, "op") == [((), L, None)]
    leaves = tiler_leaves(L, ((2, P("2:2")), _, 2), "op")
    assert [(p, str(m), None if t is None else str(t)) for p, m, t in leaves] == [
        ((0, 0), "4:1", "2:1"), ((0, 1), "4:4", "2:2"), ((1,), "8:16", None), ((2,), "2:128", "2:1")]
    with pytest.raises(SymcuteError, match="no contract for the tiler"):
        tiler_leaves(L, 2.5, "op")


TILERS = [4, "_", "L2", (2, 4), ((2, 2), 4), ("_", "L2"), (("L2", "_"), "_"), ((2, "L2"),)]


def _tiler(t):
    from symcute.core.layout import _
    if t == "_":
        return _
    if t == "L2":
        return P("2:2")
    if isinstance(t, tuple):
        return tuple(_tiler(x) for x in t)
    return t


BY_MODE = ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
           "logical_product", "zipped_product", "tiled_product", "flat_product")


@pytest.mark.parametrize("op", BY_MODE)
@pytest.mark.parametrize("t", TILERS, ids=str)
def test_every_tiler_form_is_checked_by_enumeration_and_by_the_prover_alike(op, t):
    # a compact layout: CuTe's values meet every contract here, whatever the tiler's form
    L = P("((4,4),8):((1,4),16)")
    T = _tiler(t)
    try:
        value = getattr(core, op)(L, T)
    except LayoutError:
        with pytest.raises(LayoutError):   # CuTe's refusal stays a refusal
            contract(op, L, T)
        return
    enumerated, proved = contract(op, L, T, enumerate_up_to=1 << 16), contract(op, L, T)
    assert enumerated.proved and proved.proved, (value, enumerated, proved)
    assert enumerated.method.startswith("exhaustive")


@pytest.mark.parametrize("op", ["composition", "logical_divide", "zipped_divide", "flat_divide"])
def test_a_defect_inside_one_tiler_mode_is_refuted_at_that_mode(op):
    # class 1 (#3177) inside mode 0: (3,2):(2,3) o 4:2 is (2,2):(4,3), whose value at 2 is 3, not A(4) = 5
    A = P("((3,2),4):((2,3),1)")
    for kw in ({}, {"enumerate_up_to": 1 << 16}):
        p = contract(op, A, (P("4:2"),) if op == "composition" else (P("2:2"),), **kw)
        if op == "composition":
            assert p.refuted and p.counterexample["R"] == 3 and p.counterexample["A(B)"] == 5, p
        else:
            assert p.verdict in ("proved", "refuted")
    assert contract("composition", A, (P("4:2"), _tiler("_"))).refuted


@pytest.mark.parametrize("op", ["blocked_product", "raked_product"])
def test_blocked_and_raked_products_meet_their_definition_and_inherit_the_composition_defect(op):
    assert contract(op, P("(2,2):(1,2)"), P("(3,4):(1,3)")).proved
    assert contract(op, P("(2,2):(1,2)"), P("(3,4):(1,3)"), enumerate_up_to=1 << 16).proved
    # logical_product's class-5 reproducer: the tile part is complement(A, 132) o 6:2, and CuTe's is not it
    p = contract(op, P("((3,2),2):((6,18),1)"), P("6:2"))
    assert p.refuted and "tile part" in p.reason, p


@pytest.mark.parametrize("expr", [
    "zipped_divide(X, (2,_))", "tiled_divide(X, (2:2, (2,2)))", "flat_product(X, (2, _))",
    "blocked_product(X, (2,3):(1,2))", "composition(X, (2,(2,2)))", "logical_product(X, (_, 2))",
])
def test_calc_checks_every_tiler_form_without_a_crash(expr, cli):
    code, out, err = cli(["calc", expr, "--let", "X=(4,(4,2)):(1,(4,16))"])
    assert code == 0 and out.strip() and "Traceback" not in err and "warning" not in err


def test_enumeration_and_the_prover_agree_on_random_cases():
    import random
    from symcute.errors import SymcuteError as E
    from tests.differential.core_cases import rand_layout, rand_tiler
    rng = random.Random(12)
    agree = 0
    for op in ("composition", "logical_divide", "zipped_product", "complement", "left_inverse", "downcast"):
        for _ in range(40):
            L = rand_layout(rng)
            args = {"composition": (L, rand_tiler(rng, L)), "logical_divide": (L, rand_tiler(rng, L)),
                    "zipped_product": (L, rand_layout(rng, max_rank=2, depth=1)), "complement": (L,),
                    "left_inverse": (L,), "downcast": (L, 2)}[op]
            try:
                a = contract(op, *args, enumerate_up_to=1 << 16)
            except E:
                continue
            b = contract(op, *args, limit=1 << 12)
            if "unknown" not in (a.verdict, b.verdict):
                assert a.verdict == b.verdict, (op, [str(x) for x in args], a, b)
                agree += 1
    assert agree > 150


def test_random_tiler_forms_give_a_verdict_or_cutes_refusal_never_a_crash():
    # ints (0 and negative too), `_`, layouts, empty and nested tuples: the fuzz run's crash class
    import random
    from symcute.core.layout import _
    from symcute.symbolic.contracts import DIVIDES, PRODUCTS
    from tests.differential.core_cases import rand_layout
    rng = random.Random(99)

    def tiler(depth=0):
        r = rng.random()
        if r < 0.2:
            return _
        if r < 0.4:
            return rng.choice([1, 2, 3, 4, 8, 0, -2])
        if r < 0.7 or depth > 1:
            return rand_layout(rng, max_rank=2, depth=1)
        return tuple(tiler(depth + 1) for _i in range(rng.randint(0, 3)))
    verdicts = 0
    for _i in range(300):
        op = rng.choice(("composition", *DIVIDES, *PRODUCTS, "blocked_product", "raked_product"))
        try:
            verdicts += contract(op, rand_layout(rng), tiler(), enumerate_up_to=1 << 16).verdict in (
                "proved", "refuted", "unknown")
        except SymcuteError:
            pass
    assert verdicts > 100
