"""Layouts with negative extents against real CuTe: evaluation, coordinates and the algebra.

CuTe divides by extents with C++'s truncating ``/`` and ``%``; core must print
exactly what CuTe prints, static leaves marked ``_n`` where CuTe marks them.
The cases (``negative_cases``) are drawn all static and with run-time leaves
(``int(n)`` in C++).  A case CuTe refuses (a ``static_assert``, or a run-time
crash such as a division by zero) must be a symcute refusal.

CI runs CASES_CI cases per operation and kind; ``SYMCUTE_LARGE=1`` runs CASES_LARGE.
"""

from __future__ import annotations

import os
import re

import pytest

from symcute import Layout
from symcute.errors import SymcuteError
from .harness import COUNTS, large, oracle_or_skip
from .negative_cases import OPS, cases, show

SEED = int(os.environ.get("SYMCUTE_DIFF_SEED", "2026"))
CASES_CI = 12
CASES_LARGE = 200


def _ws(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def results():
    oracle = oracle_or_skip()
    n = CASES_LARGE if large() else CASES_CI
    all_cases = [c for op in OPS for dyn in (False, True) for c in cases(op, n, SEED, dyn)]
    return all_cases, oracle.run_exprs({c.key: c.cpp for c in all_cases})


def test_the_issue_reproducer():
    """The issue's reproducer: in C++ 13 % -3 = 1 and 13 / -3 = -4 (truncation), so CuTe prints
    1*1 + -4*-12 = 49; floor division (13 % -3 = -2, 13 // -3 = -5) gave -2 + -5*-12 = 58."""
    assert Layout((-3, -5), (1, -12))(13) == 49


@pytest.mark.parametrize("op", OPS)
def test_negative_extents_vs_cute(results, op):
    all_cases, out = results
    bad = []
    for c in all_cases:
        if c.op != op:
            continue
        res = out[c.key]
        counts = COUNTS[f"negative:{op}"]
        counts["cases"] += 1
        try:
            mine, err = show(c.compute()), None
        except SymcuteError as e:
            mine, err = None, e
        if res.ok and err is not None and "division by zero" in str(err):
            # CuTe divided by zero (composition's ceil_div by a stride truncated to 0): undefined
            # behaviour in C++, whose print depends on the optimiser (the same call traps with
            # SIGFPE inside a larger program); core refuses it, and the count says how often
            counts["undefined"] += 1
            continue
        if res.ok:
            counts["valid"] += 1
            if err is not None or _ws(mine) != _ws(res.raw_output):
                counts["mismatch"] += 1
                bad.append(f"{c.text}\n  CuTe:    {res.raw_output.strip()}\n  symcute: {mine or err}")
        else:
            counts["refused"] += 1
            if err is None:
                counts["mismatch"] += 1
                bad.append(f"{c.text}\n  CuTe refused it ({res.status}: {res.error})\n  symcute: {mine}")
    assert not bad, f"{len(bad)} mismatches for {op}; first ones:\n" + "\n".join(bad[:5])
