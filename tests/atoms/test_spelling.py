"""Reading C++ spellings of atoms."""

import pytest

from symcute.atoms.spelling import Spelled, read_spelling, type_name
from symcute.errors import ParseError


def test_nested_template_arguments_and_whitespace():
    sp = read_spelling(" Copy_Atom < UniversalCopy< cutlass::uint128_t >, half_t >{} ")
    assert sp == Spelled("Copy_Atom", (Spelled("UniversalCopy", (Spelled("cutlass::uint128_t"),), True),
                                       Spelled("half_t")), True)
    assert str(sp) == "Copy_Atom<UniversalCopy<cutlass::uint128_t>,half_t>"
    assert read_spelling("X<>").has_args and read_spelling("X<>").args == ()
    assert read_spelling("A<32, B<4>>").args[0] == 32


def test_type_names_drop_namespaces():
    assert type_name(Spelled("cutlass::half_t")) == "half_t"
    assert type_name(" cute::uint128_t ") == "uint128_t"


@pytest.mark.parametrize("text", ["", "X<", "X<a b>", "X>", "X{", "1", "X<a>>", "X;", "X<" * 30 + ">" * 30,
                                  "x" * 3000])
def test_malformed_spellings_raise_parse_errors(text):
    with pytest.raises(ParseError):
        read_spelling(text)
