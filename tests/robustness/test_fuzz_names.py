"""Fuzz sub-axis names: ``symcute.formula(layout, names=...)`` (text and Python trees) and the CLI's --names reader."""

import keyword

from hypothesis import given, strategies as st

import symcute
from symcute import Layout
from symcute.cli.formula import as_formula
from symcute.symbolic.names import parse_names

from .harness import fuzz_settings, outcome
from .hostile import HOSTILE, NAMES_SEEDS, SEED_A, text_inputs

LAYOUTS = [Layout.parse(SEED_A), Layout.parse("(4,8):(8,1)"), Layout.parse("32:1"),
           Layout.parse("((2,2),(4,(2,3))):((1,2),(4,(0,16)))")]
VALID = {str(LAYOUTS[0]): NAMES_SEEDS[0], str(LAYOUTS[1]): "(m,k)", str(LAYOUTS[2]): "x",
         str(LAYOUTS[3]): "((a0,a1),(b,(c0,c1)))"}


@st.composite
def layout_and_names(draw):
    """A layout with its valid names, mutated (so that many inputs are one edit away from valid)."""
    layout = draw(st.sampled_from(LAYOUTS))
    return layout, draw(text_inputs([VALID[str(layout)]], NAME_POOL))
NAME_POOL = HOSTILE + ["t0", "t1", "a", "b", "x0_1", "_a", "v0", "lambda", "None", "print", "__init__"]


def name_trees(depth=0):
    leaf = (st.sampled_from(NAME_POOL) | st.text(max_size=6) | st.integers(-2, 2) | st.none()
            | st.binary(max_size=3))
    if depth >= 4:
        return leaf
    sub = st.deferred(lambda: name_trees(depth + 1))
    return leaf | st.lists(sub, max_size=5).map(tuple) | st.lists(sub, max_size=5)


def _formula(layout, names):
    f = symcute.formula(layout, names=names)
    str(f)
    f.table()
    return f


@fuzz_settings(ci=300)
@given(layout_and_names())
def test_formula_names_text(case):
    layout, text = case
    kind, f = outcome("formula(names=text)", _formula, layout, text)
    if kind == "value":
        for name in (a.name for a in f.axes):
            assert name.isidentifier() and name.isascii() and not keyword.iskeyword(name)


@fuzz_settings(ci=300, large=20_000)
@given(st.sampled_from(LAYOUTS), name_trees())
def test_formula_names_tree(layout, names):
    outcome("formula(names=tree)", _formula, layout, names)


@fuzz_settings(ci=200)
@given(layout_and_names())
def test_cli_names_reader(case):
    layout, text = case
    outcome("cli --names", lambda: str(as_formula(layout, text)))


@fuzz_settings(ci=200, large=20_000)
@given(text_inputs(NAMES_SEEDS, NAME_POOL))
def test_parse_names(text):
    outcome("parse_names", parse_names, text)
