"""Core layouts with static and run-time integers against real CuTe compiled with run-time ``int``\\ s.

Every case's input mixes ``Int<n>{}`` and ``int(n)`` leaves (``dynamic_cases``);
CuTe prints its result with static leaves as ``_n``, and core's ``cute_str()``
must be exactly that text (the structure CuTe's type-driven branches give, not
only the same function).  CuTe refusing a case (a ``static_assert``, or a
run-time crash such as a division by zero) must be a symcute refusal; where
CuTe computes a value whose run-time check it left commented out (the
Divisibility Conditions on run-time values), core returns that value as CuTe
does.  Every agreeing print is pasted back through ``Layout.parse`` and must
read as the same static/run-time value (a print without any ``_n`` reads as
all static, symcute's own notation, so it is not pasted back).

CI runs CASES_CI cases per operation; ``SYMCUTE_LARGE=1`` runs CASES_LARGE.
"""

from __future__ import annotations

import os
import re

import pytest

from symcute import Layout
from symcute.errors import SymcuteError
from .dynamic_cases import OPS, cases, cute_show, documented_cases, is_mixed
from .harness import COUNTS, large, oracle_or_skip

SEED = int(os.environ.get("SYMCUTE_DIFF_SEED", "2026"))
CASES_CI = 25
CASES_LARGE = 300


def _ws(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def oracle():
    return oracle_or_skip()


@pytest.fixture(scope="module")
def results(oracle):
    """The cases of an operation and CuTe's results: in CI all operations compile together (a few large
    g++ batches), in a large run one operation at a time (its counts are in as soon as it is done)."""
    n = CASES_LARGE if large() else CASES_CI
    by_op = {op: [c for c in cases(op, n, SEED) if is_mixed(c)] for op in OPS}
    by_op["documented"] = documented_cases()
    out: dict = {}

    def get(op):
        if op not in out:
            todo = [op] if large() else list(by_op)
            res = oracle.run_exprs({c.key: c.cpp for o in todo for c in by_op[o]})
            out.update({o: res for o in todo})
        return by_op[op], out[op]
    return get


@pytest.mark.parametrize("op", OPS + ["documented"])
def test_dynamic_vs_cute(results, op):
    op_cases, out = results(op)
    counts = COUNTS[f"dynamic:{op}"]
    bad = []
    for c in op_cases:
        res = out[c.key]
        counts["cases"] += 1
        try:
            mine, err = c.compute(), None
        except SymcuteError as e:
            mine, err = None, e
        if res.ok:
            counts["valid"] += 1
            if err is not None:
                bad.append(f"{c.text}\n  CuTe:    {res.raw_output.strip()}\n  symcute: {type(err).__name__}: {err}")
                continue
            got = cute_show(mine)
            if _ws(got) != _ws(res.raw_output):
                bad.append(f"{c.text}\n  CuTe:    {res.raw_output.strip()}\n  symcute: {got}")
                continue
            counts["agree"] += 1
            if isinstance(mine, Layout) and "_" in res.raw_output:
                # a print without any `_n` is ambiguous: symcute's own notation reads it as all static
                again = Layout.parse(res.raw_output.strip())
                if _ws(again.cute_str()) != _ws(res.raw_output) or again != mine:
                    bad.append(f"pasted print {res.raw_output.strip()!r} reads back as {again.cute_str()}")
        else:
            counts["refused"] += 1
            if err is None:
                bad.append(f"{c.text}\n  CuTe refused ({res.status}: {res.error})\n  symcute: {cute_show(mine)}")
    counts["mismatch"] += len(bad)
    print(f"dynamic:{op} {dict(counts)}")
    assert not bad, f"{len(bad)} mismatches in {op}:\n" + "\n".join(bad[:10])
    assert counts["agree"] >= (len(op_cases) if op == "documented" else 100 if large() else 10), (op, dict(counts))
