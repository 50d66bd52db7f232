"""(b) Every CuTe unit case, run through real CuTe, prints its recorded result.

This checks the recorded data and the harness together. The JSONL keeps
CuTe's text without underscores, which loses whether an integer was static
(``_4``) or dynamic (``4``); 27 of the 236 cases come from CUTLASS tests that
build some integers at run time, and CuTe's result depends on that (a dynamic
shape 1 is not coalesced away, a dynamic cotarget changes complement, ...).
``cute_unit_cases_typed.jsonl`` holds, for those cases, the arguments as CuTe
prints them with underscores (``typed_args``), reconstructed from the CUTLASS
test sources, and what fully static arguments give instead (``static_cute``).
"""

from __future__ import annotations

import pytest

from symcute.oracle import cpp_as_printed, cpp_call

# Their C++ signatures (cute/layout.hpp, swizzle_layout.hpp): each takes the
# arguments in the JSONL's order; complement(layout, cotarget).
OPS = {"coalesce", "complement", "composition", "left_inverse", "right_inverse",
       "logical_divide", "logical_product", "nullspace"}


def typed_call(record: dict) -> str:
    return f"cute::{record['op']}(" + ", ".join(cpp_as_printed(arg) for arg in record["typed_args"]) + ")"


@pytest.fixture(scope="module")
def results(oracle, unit_cases, typed_unit_cases):
    exprs = {}
    for line, record in enumerate(unit_cases, start=1):
        assert record["op"] in OPS
        typed = typed_unit_cases.get(line)
        exprs[f"case:{line}"] = typed_call(typed) if typed else cpp_call(record["op"], *record["args"])
    for line, typed in typed_unit_cases.items():
        exprs[f"static:{line}"] = cpp_call(typed["op"], *typed["args"])
    return oracle.run_exprs(exprs)


def test_data_file_is_complete(unit_cases, typed_unit_cases):
    assert len(unit_cases) == 236
    for line, typed in typed_unit_cases.items():
        assert unit_cases[line - 1]["args"] == typed["args"]
        assert unit_cases[line - 1]["cute"] == typed["cute"]


def test_every_unit_case_gives_its_recorded_result(results, unit_cases):
    wrong = {}
    for line, record in enumerate(unit_cases, start=1):
        got = results[f"case:{line}"]
        if not got.ok or got.output != record["cute"]:
            wrong[line] = (record["op"], record["args"], record["cute"], got.status, got.output or got.error)
    assert not wrong


def test_typed_cases_print_exactly_as_recorded_with_underscores(results, typed_unit_cases):
    for line, typed in typed_unit_cases.items():
        assert results[f"case:{line}"].raw_output == typed["typed_cute"]


def test_static_arguments_give_a_different_result_for_the_typed_cases(results, typed_unit_cases):
    for line, typed in typed_unit_cases.items():
        got = results[f"static:{line}"]
        assert got.ok and got.output == typed["static_cute"] != typed["cute"], line
