"""Every spelling of a claim reaches the same decision procedure (issue 23, item 0).

One claim, five spellings: the keyword (``symcute prove injective L``), the claim language on the command
line (``symcute prove 'injective(L)' --let L=...``), calc's ``prove(injective(...))``, calc's prover function
(``is_injective(...)``) and the Python API (``symcute.symbolic.is_injective`` / ``prove_claim``).  The
printed proofs must be the same text: verdict, method, reason, counterexample and certificate.
"""

import pytest

import symcute.symbolic as sym
from symcute.core.parse import parse_layout
from symcute.symbolic import claim as C
from symcute.symbolic.linear import evaluate

# A ComposedLayout whose ISL encoding dropped the negative offsets: L(1) == L(2) == -2 (it was "proved")
NEGATIVE = "Sw<1,0,1> o 0 o (2,2,2048):(-1,-1,-4)"
# Sw<3,4,3> o 0 o (8,2^k):(2^(k-1),1): injectivity was "unknown" from 2^23 inputs up (the solvers time out)
COLLIDES = "Sw<3,4,3> o 0 o (8,8388608):(4194304,1)"

# (keyword, layouts, keyword options, the claim expression over L and M, the calc prover call or None,
#  the Python API call)
CASES = [
    ("injective", [NEGATIVE], [], "injective(L)", "is_injective(L)", lambda L: sym.is_injective(L)),
    ("injective", [COLLIDES], [], "injective(L)", "is_injective(L)", lambda L: sym.is_injective(L)),
    ("injective", ["(4,2):(1,4)"], [], "injective(L)", "is_injective(L)", lambda L: sym.is_injective(L)),
    ("injective", ["(4,2):(1,2)"], [], "injective(L)", "is_injective(L)", lambda L: sym.is_injective(L)),
    ("injective", ["(4,2):(1,4) o 0 o 8:1"], [], "injective(L)", "is_injective(L)",
     lambda L: sym.is_injective(L)),
    ("injective", ["(8,4):(1,6)"], ["--domain", "12"], "injective(L, domain=12)", None,
     lambda L: C.prove_claim(C.injective(L, 12))),
    ("surjective", ["(4,2):(2,1)"], ["--cotarget", "8"], "surjective(L, 8)", "is_surjective(L, 8)",
     lambda L: sym.is_surjective(L, 8)),
    ("surjective", ["(4,2):(3,1)"], ["--cotarget", "8"], "surjective(L, 8)", "is_surjective(L, 8)",
     lambda L: sym.is_surjective(L, 8)),
    ("bijective", ["Sw<2,0,2> o 0 o 16:1"], [], "bijective(L)", "is_bijective(L)", lambda L: sym.is_bijective(L)),
    ("bijective", ["Sw<1,0,1> o 3 o 4:1"], [], "bijective(L)", "is_bijective(L)", lambda L: sym.is_bijective(L)),
    ("bijective", ["(4,4):(4,-1)"], [], "bijective(L)", "is_bijective(L)", lambda L: sym.is_bijective(L)),
    ("equal", ["(4,2):(1,4)", "8:1"], [], "equal(L, M)", "prove(L, M)", lambda L, M: sym.prove(L, M)),
    ("equal", ["(4,2):(2,1)", "8:1"], [], "equal(L, M)", "prove(L, M)", lambda L, M: sym.prove(L, M)),
    ("disjoint", ["4:2", "4:3"], [], "disjoint(L, M)", None, lambda L, M: C.prove_claim(C.disjoint(L, M))),
    ("contains", ["(4,2):(1,8)", "4:2"], ["--domain-b", "2"], "contains(L, M, domain_b=2)", None,
     lambda L, M: C.prove_claim(C.contains(L, M, domain_b=2))),
    ("contiguous", ["(4,4):(1,8)"], ["--domain", "4"], "contiguous(L, 1, 4)", None,
     lambda L: C.prove_claim(C.contiguous(L, 1, 4))),
    ("contiguous", ["(4,4):(1,8)"], ["--domain", "8"], "contiguous(L, 1, 8)", None,
     lambda L: C.prove_claim(C.contiguous(L, 1, 8))),
    ("aligned", ["(4,4):(1,8)"], ["--alignment", "4"], "aligned(L, 4)", None,
     lambda L: C.prove_claim(C.aligned(L, 4))),
]


def _id(case):
    return f"{case[3]} {' '.join(case[1])}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_spelling_of_a_claim_gets_the_same_proof(cli, case):
    keyword, layouts, options, expression, call, api = case
    names = ["L", "M"][:len(layouts)]
    lets = [a for n, t in zip(names, layouts) for a in ("--let", f"{n}={t}")]
    code, by_keyword, err = cli("prove", keyword, *layouts, *options)
    assert code in (0, 1, 3), err
    spelled = {"keyword": by_keyword,
               "claim expression": cli("prove", expression, *lets).out,
               "calc prove(claim)": cli("calc", f"prove({expression})", *lets).out}
    if call is not None:
        spelled["calc " + call.split("(")[0]] = cli("calc", call, *lets).out
    values = [parse_layout(t) for t in layouts]
    proof = api(*values)
    spelled["python"] = str(proof) + "\n"
    for how, text in spelled.items():
        assert text == by_keyword, f"{how} differs from the keyword spelling:\n{text}\n---\n{by_keyword}"
    assert proof.verdict in ("proved", "refuted")   # every case is decided (these are the reproducers)
    if proof.refuted and keyword == "injective":   # the counterexample is real (re-evaluated here with core)
        x, y = proof.counterexample["indices"]
        assert x != y and evaluate(values[0], x) == evaluate(values[0], y)


def test_the_reproducers_answer_right():
    """The false proof (ISL dropped negative offsets) and the unknown are refuted, with real collisions (a
    method before the solvers may find them first: probing, or the block path's chain)."""
    for text in (NEGATIVE, COLLIDES):
        L = parse_layout(text)
        p = sym.is_injective(L)
        x, y = p.counterexample["indices"]
        assert p.refuted and p.method in ("probe", "chain") and x != y and L(x) == L(y)


def test_inverse_spellings_agree(cli):
    for keyword, call, fn in (("right-inverse", "prove_right_inverse", sym.prove_right_inverse),
                              ("left-inverse", "prove_left_inverse", sym.prove_left_inverse)):
        for L in ("(4,2):(2,1)", "4:-1", "(4,2):(-1,8)"):
            by_keyword = cli("prove", keyword, L).out
            assert cli("calc", f"{call}({L})").out == by_keyword
            assert str(fn(parse_layout(L))) + "\n" == by_keyword


def test_left_inverse_of_a_negative_stride_gets_a_verdict():
    """CuTe's left_inverse(4:-1) is (-1,4):(0,1) (compiled: ``(_-1,_4):(_0,_1)``): no formula, but a value."""
    p = sym.prove_left_inverse(parse_layout("4:-1"))
    assert p.proved and "(-1,4):(0,1)" in str(p.statement)
    p = sym.prove_left_inverse(parse_layout("(4,2):(-1,8)"))
    L, R = parse_layout("(4,2):(-1,8)"), parse_layout("(-1,-8,2):(0,1,4)")
    i = p.counterexample["index"]
    assert p.refuted and R(L(i)) != i


def test_an_option_a_claim_does_not_read_is_refused(cli):
    code, _, err = cli("prove", "right-inverse", "4:1", "--domain", "2")
    assert code == 2 and "--domain is not an option of right-inverse" in err
    code, _, err = cli("prove", "injective", "4:1", "--cotarget", "2")
    assert code == 2 and "--cotarget is not an option of injective" in err
    code, _, err = cli("prove", "injective(L)", "--let", "L=4:1", "--domain", "2")
    assert code == 2 and "injective(L, domain=64)" in err


def test_contiguous_honours_the_domain(cli):
    code, out, _ = cli("prove", "contiguous", "(4,4):(1,8)", "--domain", "4")
    assert code == 0 and "proved" in out
    code, out, _ = cli("prove", "contiguous", "(4,4):(1,8)")
    assert code == 1 and "refuted" in out


def test_a_composed_layout_with_a_layout_outside_parses_as_the_api_builds_it(cli):
    from symcute.core.composed import ComposedLayout
    from symcute.core.layout import Layout
    built = ComposedLayout(Layout((4, 2), (1, 4)), 2, Layout(8, 1))
    assert parse_layout("(4,2):(1,4) o 2 o 8:1") == built
    code, out, _ = cli("calc", "(4,2):(1,4) o 2 o 8:1")
    assert code == 0 and out.strip() == str(built)
    from symcute.core.swizzle import Swizzle
    nested = parse_layout("8:2 o 0 o Sw<1,0,1> o 0 o 8:1")
    assert isinstance(nested.inner, ComposedLayout)
    assert [nested(i) for i in range(8)] == [2 * Swizzle(1, 0, 1)(i) for i in range(8)]
