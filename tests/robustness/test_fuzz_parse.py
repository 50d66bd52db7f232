"""Fuzz the CuTe-notation reader: ``Layout.parse``, ``parse_layout``, ``parse_int_tuple``."""

from hypothesis import given, strategies as st

from symcute import Layout
from symcute.core.composed import ComposedLayout
from symcute.core.parse import parse_int_tuple, parse_layout

from .harness import fuzz_settings, outcome
from .hostile import LAYOUT_SEEDS, text_inputs


@fuzz_settings(ci=400)
@given(text_inputs(LAYOUT_SEEDS))
def test_layout_parse(text):
    kind, value = outcome("Layout.parse", Layout.parse, text)
    if kind == "value":
        assert isinstance(value, Layout)
        # what the reader accepts, it prints back in a form it reads to the same value
        assert Layout.parse(str(value)) == value


@fuzz_settings(ci=400)
@given(text_inputs(LAYOUT_SEEDS))
def test_parse_layout(text):
    kind, value = outcome("parse_layout", parse_layout, text)
    if kind == "value":
        assert isinstance(value, (Layout, ComposedLayout))
        assert str(parse_layout(str(value))) == str(value)


@fuzz_settings(ci=200, large=10_000)
@given(text_inputs(["((2,4),3)", "(32,16)", "8", "((1,2),(3,(4,5)))"]))
def test_parse_int_tuple(text):
    kind, value = outcome("parse_int_tuple", parse_int_tuple, text)
    if kind == "value":
        assert isinstance(value, (int, tuple))


@fuzz_settings(ci=100, large=5_000)
@given(st.from_type(object).filter(lambda x: not isinstance(x, str)) | st.binary())
def test_layout_parse_rejects_non_text(obj):
    kind, _ = outcome("Layout.parse(non-text)", Layout.parse, obj)
    assert kind == "error"
