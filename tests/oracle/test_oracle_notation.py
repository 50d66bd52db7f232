"""The notation reader and the C++ generator, without a compiler."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from symcute.errors import ParseError
from symcute.oracle import cpp_as_printed, cpp_call, cpp_dynamic, cpp_type, cpp_value
from symcute.oracle.notation import Basis, Composed, Dyn, Lay, Swz, Tup, Under, parse, to_text

DATA = Path(__file__).resolve().parents[1] / "data"


def all_unit_texts() -> list[str]:
    texts = set()
    with open(DATA / "cute_unit_cases.jsonl", encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            texts.update(record["args"])
            texts.add(record["cute"])
    return sorted(texts)


@pytest.mark.parametrize("text", all_unit_texts())
def test_unit_texts_read_and_print_back(text):
    assert to_text(parse(text)) == text


def test_structure_of_a_nested_layout():
    assert parse("((4,8),2):((1,4),32)") == Lay(Tup((Tup((4, 8)), 2)), Tup((Tup((1, 4)), 32)))


def test_underscores_are_optional():
    assert parse("((_4,_8),_2):((_1,_4),_32)") == parse("((4,8),2):((1,4),32)")
    assert parse("_-1") == parse("-1") == -1


def test_one_tuple_and_empty_tuple():
    assert parse("((2),1):((2),0)") == Lay(Tup((Tup((2,)), 1)), Tup((Tup((2,)), 0)))
    assert parse("()") == Tup(())


def test_scaled_basis_modes_are_printed_innermost_first():
    # CuTe's print writes ScaledBasis<V,N0,N1> as V@N1@N0.
    assert parse("2@0@1") == Basis(2, (1, 0))
    assert parse("1@0") == Basis(1, (0,))
    assert to_text(Basis(2, (1, 0))) == "2@0@1"


def test_swizzles_nest_to_the_right():
    node = parse("Sw<2,0,3> o 0 o Sw<2,0,-3> o 0 o (8,8):(1,8)")
    assert node == Composed(Swz(2, 0, 3), 0, Composed(Swz(2, 0, -3), 0, Lay(Tup((8, 8)), Tup((1, 8)))))


def test_tilers_mix_layouts_integers_and_underscore():
    assert parse("(4:1, 8:2, _)") == Tup((Lay(4, 1), Lay(8, 2), Under()))
    assert parse("(32,_)") == Tup((32, Under()))


def test_mark_dynamic_keeps_cutes_static_dynamic_distinction():
    node = parse("(_2,2):(_1,2)", mark_dynamic=True)
    shape = node.shape.items
    assert type(shape[0]) is int and isinstance(shape[1], Dyn)


@pytest.mark.parametrize("bad", ["(4,8", "4:1:2", "(4:1):(2)", "abc", "Sw<1,2>", "4 o 4", "", "(4,,8)"])
def test_malformed_text_raises_parse_error(bad):
    with pytest.raises(ParseError):
        parse(bad)


def test_static_types():
    assert cpp_type("((4,8),2):((1,4),32)") == (
        "cute::Layout<cute::Shape<cute::Shape<cute::Int<4>,cute::Int<8>>,cute::Int<2>>,"
        "cute::Stride<cute::Stride<cute::Int<1>,cute::Int<4>>,cute::Int<32>>>"
    )
    assert cpp_value("(4):(-1)") == "cute::Layout<cute::Shape<cute::Int<4>>,cute::Stride<cute::Int<-1>>>{}"
    assert cpp_type("2@0@1") == "cute::ScaledBasis<cute::Int<2>,1,0>"
    assert cpp_type("Sw<2,0,3> o 0 o 8:1") == "cute::ComposedLayout<cute::Swizzle<2,0,3>,cute::Int<0>,cute::Layout<cute::Int<8>,cute::Int<1>>>"
    assert cpp_type("(4:1,_)") == "cute::tuple<cute::Layout<cute::Int<4>,cute::Int<1>>,cute::Underscore>"


def test_integers_beyond_int_get_a_wider_type():
    assert cpp_type("4294967296") == "cute::C<int64_t{4294967296}>"
    assert cpp_type("-2147483648") == "cute::C<int64_t{-2147483648}>"
    assert cpp_type("18446744073709551615") == "cute::C<uint64_t{18446744073709551615ull}>"
    with pytest.raises(ParseError):
        cpp_type("18446744073709551616")


def test_dynamic_and_as_printed_expressions():
    assert cpp_dynamic("(4,8):(1,4)") == "cute::make_layout(cute::make_tuple(4,8),cute::make_tuple(1,4))"
    assert cpp_as_printed("(_2,2)") == "cute::make_tuple(cute::Int<2>{},2)"
    # a swizzle's offset stays static in dynamic mode: CuTe asserts it is a static 0
    assert "cute::Int<0>{}" in cpp_dynamic("Sw<1,0,2> o 0 o 4:1")


def test_cpp_call_builds_a_cute_call_and_refuses_odd_names():
    assert cpp_call("complement", "4:2", "16") == (
        "cute::complement(cute::Layout<cute::Int<4>,cute::Int<2>>{}, cute::Int<16>{})"
    )
    with pytest.raises(ValueError):
        cpp_call("x); system(\"rm -rf /\"", "1:0")


def test_no_evaluator_of_text_anywhere_in_the_oracle():
    package = Path(__file__).resolve().parents[2] / "symcute" / "oracle"
    for source in package.glob("*.py"):
        code = source.read_text(encoding="utf-8")
        assert not re.search(r"(?<![\w.])(eval|exec)\s*\(", code), source.name
