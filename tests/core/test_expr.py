"""The expression language: CuTe's call forms, C++ value syntax, variables, errors."""

import pytest

from symcute import Layout, LayoutError, ParseError
from symcute.expr import evaluate

F = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def test_template_and_call_forms_agree():
    a = evaluate(f"upcast<1024>(right_inverse({F}).with_shape(32,16))")
    b = evaluate(f"upcast(right_inverse({F}).with_shape(32,16), 1024)")
    assert a == b
    assert str(a) == "((1,1,1),(1,1,1)):((1,1,1),(1,1,1))"


def test_arithmetic_in_template_arguments():
    assert str(evaluate(f"upcast<128*4>(right_inverse({F}).with_shape(32,16))")) == \
        "((1,1,1),(1,1,2)):((1,1,1),(1,1,1))"


def test_cpp_value_syntax():
    assert str(evaluate("Layout<Shape<_2,Shape<_2,_2>>, Stride<_4,Stride<_1,_2>>>{}")) == "(2,(2,2)):(4,(1,2))"
    assert evaluate("Int<4>{}") == 4
    assert evaluate("make_shape(_32{}, _16{})") == (32, 16)
    assert str(evaluate("make_layout(make_shape(Int<2>{}, Int<4>{}))")) == "(2,4):(1,2)"
    assert str(evaluate("make_layout(make_shape(4,2), LayoutRight)")) == "(4,2):(2,1)"


def test_variables_and_evaluation():
    env = {"F": F}
    assert evaluate("F(576)", env) == 256
    assert evaluate("G(256)", {"G": f"right_inverse({F})"}) == 512
    assert evaluate("size(F)", env) == 1024 and evaluate("cosize(F)", env) == 512
    assert evaluate("rank(F)", env) == 2 and evaluate("depth(F)", env) == 3
    assert str(evaluate("get<0>(F)", env)) == "(4,8,2,2):(64,1,16,0)"
    assert evaluate("shape<1>(F)", env) == ((2, 2, 2), (1, 1))
    assert evaluate("size<1>(F)", env) == 8


def test_tilers_and_underscore():
    assert str(evaluate("logical_divide((8,8):(8,1), (2:1, _))")) == "((2,4),8):((8,16),1)"
    assert str(evaluate("zipped_divide((8,8):(8,1), make_tile(2:1, 4:1))")) == "((2,4),(4,2)):((8,1),(16,4))"
    assert str(evaluate("recast_layout<half_t, uint32_t>((8,8):(1,8))")) == "(4,8):(1,4)"


@pytest.mark.parametrize("text, error, match", [
    ("", ParseError, "empty"),
    ("upcast<1024>(", ParseError, "expected"),
    ("nosuch(4:1)", ParseError, "unknown function"),
    ("upcast(4:1)", LayoutError, "not a valid call"),
    ("composition((4,6):(1,5), 3:2)", LayoutError, "Shape Divisibility Condition"),
    ("upcast<3>(4:2)", LayoutError, "Divisibility condition"),
    ("__import__('os')", ParseError, "expected"),
    ("os.system(1)", ParseError, "no method|unknown"),
    ("(4:1).__class__()", ParseError, "no method"),
    ("(" * 500 + "1" + ")" * 500, ParseError, "nest"),
])
def test_errors(text, error, match):
    with pytest.raises(error, match=match):
        evaluate(text)
