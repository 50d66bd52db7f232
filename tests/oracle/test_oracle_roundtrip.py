"""(a) The converter round-trips through real CuTe: print(<C++ of text>) prints text back.

Checked three ways for every argument and result of CuTe's unit cases plus
extra notation (scaled bases, tilers, 1-tuples, long integers):

* the static value, through ``cute::print`` and through ``SYMCUTE_PRINT``
  (the compile-time printer must write exactly what ``cute::print`` writes);
* the dynamic value (``cpp_dynamic``);
* the as-printed form (``cpp_as_printed``): CuTe prints the very same text,
  underscores included, so static/dynamic typing survives the round trip.
"""

from __future__ import annotations

import pytest

from symcute.oracle import cpp_as_printed, cpp_dynamic, cpp_value
from symcute.oracle.notation import parse, to_text

EXTRA = [
    "(4:1,8:2,_)",
    "(_,4:2)",
    "(32,_,16)",
    "2@0@1",
    "(4,4):(1@1,2@0@1)",
    "(2,(3,4)):(1@0,(1@1@1,-3@0@1))",
    "4294967296",
    "(4294967296,2):(1,4294967296)",
    "-9223372036854775807",
    "18446744073709551615",
    "()",
    "(_)",
    "((2),1):((2),0)",
    "Sw<3,4,3>",
    "Sw<3,4,3> o 0 o ((8,8),2):((8,1),64)",
    "(Sw<2,0,3> o 0 o 8:1,4:1)",
    "(8,8):(1,8) o 0 o 64:1",
    "(-1,4):(0,1)",
]

AS_PRINTED = ["(_2,1,_3):(3,_3,_1)", "(_2,2)", "12:_2", "(_32,_4,4):(_1,_32,_128)", "_-1", "(_4,-3):(_1,0)"]


@pytest.fixture(scope="module")
def texts(unit_cases):
    found = {text for record in unit_cases for text in [*record["args"], record["cute"]]}
    return sorted(found | set(EXTRA))


@pytest.fixture(scope="module")
def printed(oracle, texts):
    cases = {}
    for i, text in enumerate(texts):
        cases[f"print:{i}"] = f"print({cpp_value(text)});"
        cases[f"show:{i}"] = f"SYMCUTE_PRINT({cpp_value(text)});"
        if "Sw<" not in text:  # CuTe's swizzle functions take static values only
            cases[f"dynamic:{i}"] = f"SYMCUTE_PRINT({cpp_dynamic(text)});"
    for i, text in enumerate(AS_PRINTED):
        cases[f"typed:{i}"] = f"SYMCUTE_PRINT({cpp_as_printed(text)});"
    return oracle.run(cases)


def test_static_values_print_back(printed, texts):
    wrong = {t: printed[f"print:{i}"].output or printed[f"print:{i}"].error
             for i, t in enumerate(texts) if printed[f"print:{i}"].output != to_text(parse(t))}
    assert not wrong


def test_compile_time_printer_writes_what_cute_print_writes(printed, texts):
    wrong = {t: (printed[f"show:{i}"].raw_output, printed[f"print:{i}"].raw_output)
             for i, t in enumerate(texts) if printed[f"show:{i}"].raw_output != printed[f"print:{i}"].raw_output}
    assert not wrong


def test_dynamic_values_print_back(printed, texts):
    wrong = {t: printed[f"dynamic:{i}"].output or printed[f"dynamic:{i}"].error
             for i, t in enumerate(texts)
             if f"dynamic:{i}" in printed and printed[f"dynamic:{i}"].output != to_text(parse(t))}
    assert not wrong


def test_as_printed_values_keep_their_underscores(printed):
    wrong = {t: printed[f"typed:{i}"].raw_output for i, t in enumerate(AS_PRINTED) if printed[f"typed:{i}"].raw_output != t}
    assert not wrong
