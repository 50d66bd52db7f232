"""Run symcute and real CuTe side by side and classify every case.

A case agrees when CuTe prints the value symcute computes, or when CuTe refuses
the input (compile-time static_assert, or a crash at run time) and symcute
raises a SymcuteError.  Counts per operation are gathered for the terminal
summary (see ``tests/differential/conftest.py``).
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict

import pytest

from symcute.errors import SymcuteError
from ..cute_policy import cute_unavailable
from ..large import large_run

COUNTS: dict[str, Counter] = defaultdict(Counter)


def large() -> bool:
    return large_run()


def oracle_or_skip():
    oracle_mod = pytest.importorskip("symcute.oracle")
    try:
        return oracle_mod.CuteOracle()
    except oracle_mod.OracleUnavailable as e:
        cute_unavailable(e)


def symcute_result(case, show):
    try:
        return True, show(case.compute())
    except SymcuteError as e:
        return False, f"{type(e).__name__}: {e}"


def run_guided(oracle, cases, show, invalid_batch: int = 25) -> dict:
    """Run the cases in real CuTe, batched by symcute's prediction.

    Cases symcute computes go into large batches that compile once; cases
    symcute refuses go into small batches, so the compiler's errors are
    attributed to them in one round.  The prediction only shapes the batches:
    a wrong prediction costs a recompile, never a wrong verdict.
    """
    from symcute.oracle import CuteOracle
    predicted_ok = [c for c in cases if symcute_result(c, show)[0]]
    predicted_bad = [c for c in cases if not symcute_result(c, show)[0]]
    results = oracle.run_exprs({c.key: c.cpp for c in predicted_ok})
    if predicted_bad:
        small = CuteOracle(batch_size=invalid_batch, jobs=oracle.jobs, cache=oracle.cache is not None)
        results.update(small.run_exprs({c.key: c.cpp for c in predicted_bad}))
    return results


def compare(cases, results, show, suite: str) -> dict[str, list[str]]:
    """Mismatch reports by op (empty lists when everything agrees)."""
    bad: dict[str, list[str]] = defaultdict(list)
    for case in cases:
        res = results[case.key]
        ok, mine = symcute_result(case, show)
        c = COUNTS[f"{suite}:{case.op}"]
        c["cases"] += 1
        if res.ok:
            c["valid"] += 1
            if not ok or mine != res.output:
                bad[case.op].append(f"{case.text}\n    CuTe:    {res.output}\n    symcute: {mine}")
        else:
            c["refused"] += 1
            if ok:
                bad[case.op].append(f"{case.text}\n    CuTe refused it ({res.status}: {res.error})\n"
                                    f"    symcute: {mine}")
        if case.op in bad and bad[case.op] and bad[case.op][-1].startswith(case.text):
            c["mismatch"] += 1
    return bad
