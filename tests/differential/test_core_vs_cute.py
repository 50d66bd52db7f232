"""The core algebra against real CuTe: seed values, CuTe's unit-test inputs, random sweeps.

CI runs CASES_CI random cases per operation (valid and invalid, reproducible
by SEED); ``SYMCUTE_LARGE=1`` runs CASES_LARGE.  A mismatch prints the
call in symcute's expression language (paste it into ``symcute calc``) with
both results.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import symcute as sc
from .harness import compare, large, oracle_or_skip, run_guided
from .core_cases import OPS, Case, cases, show
from . import empty_cases

SEED = int(os.environ.get("SYMCUTE_DIFF_SEED", "2026"))
CASES_CI = 300
CASES_LARGE = 5000

DATA = Path(__file__).resolve().parent.parent / "data" / "cute_unit_cases.jsonl"

F = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def seed_cases() -> list[Case]:
    from symcute.oracle import cpp_value
    Fv = cpp_value(F)
    L = sc.Layout.parse(F)
    H = "right_inverse(%s).with_shape(make_shape(Int<32>{}, Int<16>{}))" % Fv
    out = [
        Case("seed#F", "seed", F, f"{Fv}", lambda: L),
        Case("seed#G", "seed", f"right_inverse({F})", f"right_inverse({Fv})", lambda: sc.right_inverse(L)),
        Case("seed#H", "seed", f"right_inverse({F}).with_shape(32,16)", f"{H}",
             lambda: sc.right_inverse(L).with_shape(32, 16)),
        Case("seed#up1024", "seed", f"upcast<1024>(H)", f"upcast<1024>({H})",
             lambda: sc.upcast(sc.right_inverse(L).with_shape(32, 16), 1024)),
        Case("seed#up512", "seed", f"upcast<512>(H)", f"upcast<512>({H})",
             lambda: sc.upcast(sc.right_inverse(L).with_shape(32, 16), 512)),
        Case("seed#G256", "seed", "G(256)", f"right_inverse({Fv})(256)",
             lambda: sc.right_inverse(L)(256)),
        Case("seed#GF576", "seed", "G(F(576))", f"right_inverse({Fv})({Fv}(576))",
             lambda: sc.right_inverse(L)(L(576))),
        Case("seed#F512", "seed", "F(512)", f"{Fv}(512)", lambda: L(512)),
        Case("seed#Hmax", "seed", "cosize(H)", f"cosize({H})",
             lambda: sc.cosize(sc.right_inverse(L).with_shape(32, 16))),
    ]
    return out


UNIT_OPS = {"coalesce", "complement", "composition", "left_inverse", "right_inverse", "logical_divide",
            "logical_product", "nullspace"}


def unit_cases() -> list[Case]:
    """CuTe's own unit-test inputs, evaluated statically on both sides."""
    from symcute.core.parse import parse_int_tuple, parse_layout
    from symcute.oracle import cpp_call
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    out = []
    for i, row in enumerate(rows):
        if "Sw<" in "".join(row["args"]) or row["op"] not in UNIT_OPS:
            continue  # swizzled cases live in test_swizzle_vs_cute.py
        args = [parse_layout(a) if ":" in a else parse_int_tuple(a) for a in row["args"]]
        fn = getattr(sc, row["op"])
        out.append(Case(f"unit#{i}", f"unit:{row['op']}", f"{row['op']}({', '.join(row['args'])})",
                        f"{cpp_call(row['op'], *row['args'])}",
                        (lambda fn=fn, args=args: fn(*args))))
    return out


@pytest.fixture(scope="module")
def verdicts():
    oracle = oracle_or_skip()
    n = CASES_LARGE if large() else CASES_CI
    all_cases = (seed_cases() + unit_cases() + empty_cases.cases()
                 + [c for op in OPS for c in cases(op, n, SEED)])
    results = run_guided(oracle, all_cases, show)
    return all_cases, results, compare(all_cases, results, show, "core")


def _report(bad, op):
    msgs = bad.get(op, [])
    assert not msgs, f"{len(msgs)} mismatches for {op}; first ones:\n" + "\n".join(msgs[:5])


def test_seed_values_equal_cute(verdicts):
    _report(verdicts[2], "seed")


def test_empty_layouts_as_cute(verdicts):
    """Rank-0 layouts and empty modes: CuTe's values where it has them, refusals where it does not compile."""
    assert len([c for c in verdicts[0] if c.op == "empty"]) >= 70
    _report(verdicts[2], "empty")


@pytest.mark.parametrize("op", sorted(UNIT_OPS))
def test_cute_unit_inputs(verdicts, op):
    _report(verdicts[2], f"unit:{op}")


@pytest.mark.parametrize("op", OPS)
def test_random_cases(verdicts, op):
    all_cases, results, bad = verdicts
    mine = [c for c in all_cases if c.op == op]
    assert len(mine) >= (CASES_LARGE if large() else CASES_CI)
    _report(bad, op)
