"""CuTe's contracts on swizzled layouts (ComposedLayouts): CuTe's value kept, its contract decided.

A small sample of ``benchmarks/contract_sweep_swizzled.py``'s draw (the sweep itself runs 20,000 cases
per operation, once, and its figures are in docs/cute_defects.md): every contract gets a verdict or
CuTe's refusal, and every refutation's counterexample is evaluated again here with core.  The
published reproducers are compiled with real CuTe (``cute``).
"""

import random
import sys
from pathlib import Path

import pytest

import symcute.core as core
from symcute.core.parse import parse_layout as P
from symcute.errors import SymcuteError
from symcute.symbolic.contracts import contract

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import benchmarks.contract_sweep_swizzled as sweep  # noqa: E402
from benchmarks.contract_sweep_swizzled import OPS, draw  # noqa: E402

KNOWN = "Sw<3,1,3> o 0 o (2,2,2,8):(1,4,2,8)"


def test_the_known_right_inverse_is_the_layout_itself_and_is_refuted_at_16():
    L = P(KNOWN)
    R = core.right_inverse(L)
    assert str(R) == KNOWN                          # CuTe 4.2's value, kept
    assert L(R(16)) == 22                           # the value is no right inverse
    p = contract("right_inverse", L, enumerate_up_to=1 << 20)
    assert p.refuted
    i = int(p.counterexample["index"])
    assert L(R(i)) == int(p.counterexample["L(R(i))"]) != i


def test_a_right_inverse_with_an_offset_misses_by_the_offset():
    L = P("Sw<2,2,2> o 3 o 4:2")
    R = core.right_inverse(L)
    assert str(R) == "1:0 o -3 o Sw<2,2,2>"
    assert L(R(0)) == 3
    assert contract("right_inverse", L, enumerate_up_to=1 << 20).refuted


@pytest.mark.parametrize("op", OPS)
def test_sampled_swizzled_contracts_decide_and_refutations_are_real(op, monkeypatch):
    rng = random.Random(f"ci:{op}")
    monkeypatch.setattr(sweep, "MAX_SIZE", [1 << 12])   # small layouts: every part enumerated (a large cast goes to the prover, ~17 s)
    decided = 0
    for _ in range(40):
        args, _features = draw(op, rng)
        try:
            p = contract(op, *args, enumerate_up_to=1 << 20)
        except SymcuteError:
            continue
        decided += 1
        assert p.verdict in ("proved", "refuted", "unknown")
        if p.refuted and op in ("right_inverse", "left_inverse") and "index" in p.counterexample:
            L, i = args[0], int(p.counterexample["index"])
            R = getattr(core, op)(L)
            if op == "right_inverse":
                assert L(R(i)) == int(p.counterexample["L(R(i))"]) != i
            else:
                assert L(R(L(i))) == int(p.counterexample["L(R(L(i)))"]) != L(i)
    assert decided >= 10


@pytest.mark.cute
def test_the_published_reproducers_print_the_same_in_cute():
    from symcute.oracle import cpp_value
    from tests.differential.harness import oracle_or_skip
    oracle = oracle_or_skip()
    X, Y = cpp_value(KNOWN), cpp_value("Sw<2,2,2> o 3 o 4:2")
    res = oracle.run_exprs({"R": f"right_inverse({X})", "LR16": f"{X}(right_inverse({X})(16))",
                            "R2": f"right_inverse({Y})", "LR0": f"{Y}(right_inverse({Y})(0))"})
    assert res["R"].output.replace(" ", "") == str(core.right_inverse(P(KNOWN))).replace(" ", "")
    assert res["LR16"].output == "22"
    assert res["R2"].output.replace(" ", "") == "1:0o-3oSw<2,2,2>"
    assert res["LR0"].output == "3"
