"""Fuzz the expression language (``symcute.expr.evaluate``: ``calc``, ``formula``, ``prove``, ``derive expr``).

Three generators: arbitrary text, near-valid mutants of real expressions, and
random well-formed calls of every registered function on hostile arguments
(huge, negative and zero extents, mismatched ranks, types where layouts belong).
"""

import pytest
from hypothesis import given, strategies as st

from symcute import Layout
from symcute import expr as language

from .harness import fuzz_settings, outcome
from .hostile import EXPR_SEEDS, HUGE, LAYOUT_SEEDS, SEED_A, text_inputs

pytestmark = pytest.mark.usefixtures("small_exhaustive_limit")

ENV = {"L": Layout.parse(SEED_A), "F": Layout.parse("(8,4):(4,1)"), "S": Layout.parse("(4,4):(1@0,1@1)")}

FUNCTIONS = [f for f in language.functions() if not f.endswith("{}")]
PROVERS = {"prove", "prove_right_inverse", "prove_left_inverse", "is_injective", "is_surjective", "is_bijective"}
TYPES = ["half_t", "float", "uint8_t", "uint32_t", "uint128_t", "int4_t", "bool", "_", "LayoutRight",
         "GMMA::Major::K", "SM80_16x8x16_F16F16F16F16_TN{}", "SM75_U32x2_LDSM_N{}",
         "Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}", "UniversalCopy<uint32_t>{}",
         "MMA_Atom<SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>>{}", "Int<4>{}", "Shape<_2,_4>{}",
         "Swizzle<3,4,3>{}", "Layout<Shape<_2,_2>,Stride<_1,_2>>{}", "L", "F", "S", "nosuchname"]
INTS = st.sampled_from([0, 1, 2, 3, 4, 8, 16, 32, 64, -1, -4]).map(str) | st.sampled_from(HUGE)


def int_tuples(depth=0):
    leaf = INTS | st.just("_")
    if depth >= 3:
        return leaf
    return leaf | st.lists(st.deferred(lambda: int_tuples(depth + 1)), max_size=4).map(
        lambda xs: "(" + ",".join(xs) + ")")


@st.composite
def layout_literals(draw):
    shape = draw(int_tuples())
    if draw(st.booleans()):
        return shape
    if draw(st.integers(0, 4)) == 0:  # a stride of another shape
        return f"{shape}:{draw(int_tuples())}"
    import re
    stride = re.sub(r"_?-?[0-9]+|_", lambda m: draw(INTS), shape)
    return f"{shape}:{stride}"


def calls(depth=0):
    atoms = layout_literals() | st.sampled_from(TYPES) | INTS | st.sampled_from(LAYOUT_SEEDS)
    if depth >= 3:
        return atoms

    @st.composite
    def call(draw):
        fn = draw(st.sampled_from(FUNCTIONS))
        if fn in PROVERS:  # their int arguments include limit=: an explicit huge limit asks for a long enumeration
            args = ",".join(draw(st.lists(layout_literals() | st.sampled_from(["formula(L)", "formula(F)"])
                                          | st.sampled_from(["0", "1", "4", "32", "-1"]), max_size=3)))
            return f"{fn}({args})"
        args = ",".join(draw(st.lists(calls(depth + 1), max_size=3)))
        form = draw(st.integers(0, 9))
        if form == 0:
            return f"{fn}<{draw(INTS)}>({args})"
        if form == 1:
            method = draw(st.sampled_from(["with_shape", "compose", "tile", "nosuch"]))
            return f"{draw(calls(depth + 1))}.{method}({args})"
        return f"{fn}({args})"
    return atoms | call()


def _evaluate(text):
    value = language.evaluate(text, ENV)
    str(value)  # printing a result is part of every command
    return value


@fuzz_settings(ci=300, large=50_000)
@given(text_inputs(EXPR_SEEDS + LAYOUT_SEEDS))
def test_expression_text(text):
    outcome("language.evaluate(text)", _evaluate, text)


@fuzz_settings(ci=400)
@given(calls())
def test_expression_calls(text):
    outcome("language.evaluate(calls)", _evaluate, text)


@fuzz_settings(ci=100, large=10_000)
@given(st.dictionaries(st.sampled_from(["L", "F", "X", "_", "size"]), text_inputs(LAYOUT_SEEDS), max_size=3),
       st.sampled_from(EXPR_SEEDS + ["X", "X(1)", "composition(X, L)", "size(X)"]))
def test_expression_bindings(bindings, text):
    """--let values are expression text too: each is read by the same reader."""
    outcome("language.evaluate(--let)", lambda: str(language.evaluate(text, bindings)))
