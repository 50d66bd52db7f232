"""10,000 nested parentheses (and other deep nesting) get a clear SymcuteError in every entry point.

Never a RecursionError: each reader has its own nesting limit, and Python-level
inputs (nested tuples and lists passed to the API) are checked before anything
recurses over them or prints them.
"""

import re

import pytest

import symcute
from symcute import Layout
from symcute import expr as lang
from symcute.cli.formula import as_formula
from symcute.core.parse import parse_int_tuple, parse_layout
from symcute.errors import SymcuteError
from symcute.symbolic.names import parse_names

from ..cli_runner import run_cli
from .harness import outcome
from .hostile import nested
from .test_fuzz_cli import check_exit

DEEP = 10_000
LAYOUT = Layout.parse("(4,8):(8,1)")


def deep_tuple(n, leaf):
    x = leaf
    for _ in range(n):
        x = (x,)
    return x


def deep_list(n, leaf):
    x = leaf
    for _ in range(n):
        x = [x]
    return x


TEXT_ENTRY_POINTS = {
    "Layout.parse": Layout.parse,
    "parse_layout": parse_layout,
    "parse_int_tuple": parse_int_tuple,
    "lang.evaluate": lang.evaluate,
    "parse_names": parse_names,
    "formula(names=text)": lambda t: symcute.formula(LAYOUT, names=t),
    "cli --names": lambda t: as_formula(LAYOUT, t),
    "mma_atom": symcute.mma_atom,
    "copy_atom": symcute.copy_atom,
}

DEEP_TEXTS = {
    "parentheses": nested(DEEP),
    "parentheses, a layout inside": nested(DEEP, inner="(4,8):(8,1)"),
    "unbalanced": "(" * DEEP,
    "calls": nested(DEEP, "size(", ")", "1"),
    "templates": nested(DEEP, "Int<", ">{}", "1"),
    "atom wrappers": nested(DEEP, "MMA_Atom<", ">", "SM80_16x8x16_F16F16F16F16_TN"),
    "basis modes": "4:1" + "@1" * DEEP,
    "products": "1" + "*2" * DEEP,
}


@pytest.mark.parametrize("text", DEEP_TEXTS.values(), ids=DEEP_TEXTS.keys())
@pytest.mark.parametrize("entry", TEXT_ENTRY_POINTS, ids=TEXT_ENTRY_POINTS.keys())
def test_deep_text_is_a_clear_error(entry, text):
    kind, value = outcome(entry, TEXT_ENTRY_POINTS[entry], text)
    if text == DEEP_TEXTS["basis modes"] and entry in ("Layout.parse", "parse_layout", "lang.evaluate"):
        assert kind == "error", value  # a basis stride nested 10,000 modes deep is no CuTe value
    elif text != DEEP_TEXTS["basis modes"]:
        assert kind == "error", value
    if kind == "error":  # a nesting or length limit, or a reader error at a position: never a generic failure
        assert re.search(r"nest|exceeds the limit|at position \d+", str(value)), str(value)


def test_parenthesis_error_names_the_limit():
    with pytest.raises(SymcuteError, match=r"nesting deeper than \d+ levels"):
        Layout.parse(nested(DEEP))
    with pytest.raises(SymcuteError, match=r"nest"):
        lang.evaluate(nested(DEEP))
    with pytest.raises(SymcuteError, match=r"nest"):
        parse_names(nested(DEEP, inner="a"))
    with pytest.raises(SymcuteError, match=r"nest"):
        symcute.mma_atom(nested(200, "A<", ">", "B"))


PY_ENTRY_POINTS = {
    "Layout(shape)": lambda x: Layout(x),
    "Layout(shape, stride)": lambda x: Layout((4, 8), (x, 1)),
    "make_ordered_layout": lambda x: symcute.make_ordered_layout(x, x),
    "layout(coordinate)": lambda x: LAYOUT(x),
    "layout(coordinate, coordinate)": lambda x: LAYOUT(x, 1),
    "composition(layout, tiler)": lambda x: symcute.composition(LAYOUT, x),
    "logical_divide": lambda x: symcute.logical_divide(LAYOUT, x),
    "formula(names=tree)": lambda x: symcute.formula(LAYOUT, names=x),
    "lang.evaluate(bound value)": lambda x: lang.evaluate("size(X)", {"X": x}),
    "make_tiled_mma(atom layout)": lambda x: symcute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", x),
}


@pytest.mark.parametrize("make", [deep_tuple, deep_list], ids=["tuple", "list"])
@pytest.mark.parametrize("entry", list(PY_ENTRY_POINTS))
def test_deep_python_values_are_a_clear_error(entry, make):
    leaf = "a" if "names" in entry else 1
    kind, value = outcome(entry, PY_ENTRY_POINTS[entry], make(DEEP, leaf))
    assert kind == "error", value


CLI_DEEP = [
    ["calc", nested(DEEP)],
    ["formula", nested(DEEP)],
    ["formula", "(4,8):(8,1)", "--names", nested(DEEP, inner="a")],
    ["prove", "injective", nested(DEEP)],
    ["derive", "expr", nested(DEEP)],
    ["derive", "retile-d", "--mma", nested(DEEP, "A<", ">", "B")],
    ["atoms", "--show", nested(DEEP, "A<", ">", "B")],
    ["lint", "--mma-shape", "16,8,16", "--a", nested(DEEP), "--b", "1", "--c", "1"],
    ["calc", "L", "--let", "L=" + nested(DEEP)],
]


@pytest.mark.parametrize("argv", CLI_DEEP, ids=[" ".join(a[:2]) for a in CLI_DEEP])
def test_deep_cli_arguments_exit_2(argv):
    kind, (code, out, err) = outcome("cli main(argv)", run_cli, argv)
    assert code == 2, (out, err)
    check_exit(argv, code, err)
