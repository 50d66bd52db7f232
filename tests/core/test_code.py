"""to_cpp / to_dsl spellings and reading CuTe DSL's prints (compiled round trips in
tests/differential/test_code_vs_cute.py)."""

import pytest

from symcute import LayoutError, ParseError, parse_layout, to_cpp, to_dsl


def test_cpp_spelling():
    assert to_cpp(parse_layout("((4,8),2):((1,4),32)")) == (
        "make_layout(make_shape(make_shape(Int<4>{}, Int<8>{}), Int<2>{}), "
        "make_stride(make_stride(Int<1>{}, Int<4>{}), Int<32>{}))")
    assert to_cpp(parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")) == (
        "make_composed_layout(Swizzle<3,4,3>{}, Int<0>{}, make_layout(make_shape(Int<8>{}, Int<64>{}), "
        "make_stride(Int<64>{}, Int<1>{})))")
    assert to_cpp(parse_layout("(4,8):(1@0,2@1)")).endswith("make_stride(E<0>{}, E<1>{} * Int<2>{}))")


def test_dsl_spelling():
    assert to_dsl(parse_layout("(4,8):(1,4)")) == "cute.make_layout((4,8), stride=(1,4))"
    assert to_dsl(parse_layout("((2,2),(2)):((1,-2),(0))")) == "cute.make_layout(((2,2),(2,)), stride=((1,-2),(0,)))"
    with pytest.raises(LayoutError, match="basis"):
        to_dsl(parse_layout("(4,8):(1@0,1@1)"))
    with pytest.raises(LayoutError, match="affine inner layout"):
        to_dsl(parse_layout("Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)"))


def test_reads_cute_dsl_prints_and_types():
    assert parse_layout('!cute.layout<"(4,8):(1,4)">') == parse_layout("(4,8):(1,4)")
    assert parse_layout("S<3,4,3> o 0 o (8,64):(64,1)") == parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert str(parse_layout('!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">')) == \
        "Sw<3,4,3> o 0 o (8,64):(64,1)"
    with pytest.raises(ParseError, match=r"run-time value '\?' at position 1"):
        parse_layout("(?,8):(1,?)")
