import pytest

from symcute import Layout
from symcute.errors import ParseError, SymcuteError
import symcute.symbolic as sym
from symcute.symbolic.names import check_names_tree, default_names, parse_names, split_names


def test_default_names_follow_mode_paths():
    assert default_names(((4, 8), 2)) == (("x0_0", "x0_1"), "x1")
    assert default_names(8) == "x"
    assert default_names((8,)) == ("x0",)
    f = sym.formula(Layout.parse("((4,8),2):((1,4),32)"))
    assert str(f) == "x0_0 + 4*x0_1 + 32*x1"


def test_split_names():
    assert split_names("m", 3) == ["m0", "m1", "m2"]
    assert split_names("t0", 2) == ["t0_0", "t0_1"]
    assert split_names("m", 1) == ["m"]
    assert split_names("m", 2, taken={"m0"}) == ["m_0", "m_1"]


@pytest.mark.parametrize("names, why", [
    (("a", "b", "c"), "congruent"),
    ((("a", "b"), "c"), "congruent"),
    (("a", "a"), "twice"),
    (("a", "1b"), "identifier"),
    (("a", "lambda"), "identifier"),
    (("a", "x+y"), "identifier"),
    (("a", "__import__('os')"), "identifier"),
    (("a", 3), "string"),
])
def test_bad_names_are_refused(names, why):
    with pytest.raises(SymcuteError, match=why):
        sym.formula(Layout.parse("(4,8):(8,1)"), names=names)


def test_no_evaluator_in_the_symbolic_layer():
    # names become sympy.Symbol objects directly; no text reaches an evaluator
    import pathlib
    import re
    import symcute.symbolic
    root = pathlib.Path(symcute.symbolic.__file__).parent
    files = list(root.glob("*.py")) + [root.parent / "cli" / "formula.py", root.parent / "cli" / "prove.py"]
    for path in files:
        text = path.read_text()
        for bad in (r"\bsympify\(", r"\bS\(", r"parse_expr\(", r"(?<![\w.])eval\(", r"\bexec\("):
            assert not re.search(bad, text), f"{path.name} calls {bad}"


def test_symbols_are_integer_nonnegative():
    f = sym.formula(Layout.parse("(4,8):(8,1)"), names=("a", "b"))
    assert all(s.is_integer and s.is_nonnegative for s in f.symbols)


def test_parse_names():
    assert parse_names(" ((t0, t1),(v0,v1)) ") == (("t0", "t1"), ("v0", "v1"))
    assert parse_names("m") == "m"
    for bad in ["((a,b)", "(a,,b)", "(a b)", "a;b", "(a,b))", "(a,1x)", "(a,b.c)", "", "(if,b)"]:
        with pytest.raises(ParseError):
            parse_names(bad)


def test_names_text_accepted_by_formula():
    f = sym.formula(Layout.parse("(4,8):(8,1)"), names="(a,b)")
    assert str(f) == "8*a + b"


def test_check_names_tree_returns_flat():
    assert check_names_tree((("a", "b"), "c"), ((2, 2), 4)) == ("a", "b", "c")
