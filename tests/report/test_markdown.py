"""Markdown building blocks, the template tables, and reports of derivations that are not the seed's."""

import re

import pytest
from hypothesis import given, settings, strategies as st

import symcute as sc
from symcute.errors import SymcuteError
from symcute.report import markdown
from symcute import markup as md
from symcute.report.templates import Text, en, zh
from symcute.trace import Derivation

from .seedfacts import has, plain


@given(st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_escaped_text_has_no_live_markup(s):
    out = md.esc(s)
    assert "\n" not in out and "<" not in out
    # every emphasis, code, link, table or strikethrough character is escaped
    assert not re.search(r"(?<!\\)[*_`\[\]|~]", out.replace("\\\\", ""))
    # a backslash-unescape gives back the text (entities aside)
    back = re.sub(r"\\(.)", r"\1", out).replace("&lt;", "<").replace("&amp;", "&")
    assert back == re.sub(r"\r\n|\r|\n", " ", s)  # CommonMark line endings become spaces


@given(st.text(max_size=30))
@settings(max_examples=300, deadline=None)
def test_code_spans_and_blocks_cannot_be_closed_from_inside(s):
    span = md.code(s)
    fence = re.match(r"`+", span).group(0)
    inner = span[len(fence):-len(fence)]
    assert span.endswith(fence) and "\n" not in span
    assert fence not in inner               # the fence is longer than any backtick run inside
    lines = md.block(s, "cpp").splitlines()
    opening = re.match(r"`+", lines[0]).group(0)
    assert lines[-1] == opening and len(opening) >= 3
    assert all(opening not in line for line in lines[1:-1])


def test_line_start_constructs_are_escaped():
    assert md.esc("# h") == "\\# h" and md.esc("1. x") == "1\\. x" and md.esc("> q") == "\\> q"
    assert md.esc("- x") == "\\- x" and md.esc("(0,8)") == "(0,8)"


def test_templates_have_the_same_keys_and_fields_in_both_languages():
    assert set(en.TEXT) == set(zh.TEXT)
    field = re.compile(r"(?<!\{)\{(\w+)\}(?!\})")
    for key in en.TEXT:
        assert set(field.findall(en.TEXT[key])) == set(field.findall(zh.TEXT[key])), key


def test_unknown_language_and_bad_input():
    with pytest.raises(SymcuteError, match="language"):
        Text("fr")
    with pytest.raises(SymcuteError, match="Derivation"):
        markdown("not a derivation")


def test_user_supplied_names_cannot_inject_markup():
    F = sc.Layout.parse("(4,2):(2,1)")
    with Derivation("*bold* <img src=x> [link](http://x) `code` # heading") as d:
        d.label(F, "<script>alert(1)</script>")
        sc.right_inverse(F)
    for lang in ("en", "zh"):
        out = markdown(d, lang)
        outside_code = re.sub(r"(`+)(?:(?!\1).)*?\1", "", out)   # code spans show text literally
        assert "<script>" not in outside_code and "<img" not in outside_code
        assert "[link](" not in outside_code
        title = out.splitlines()[0]
        assert title.startswith("# ") and "\\*bold\\*" in title and "\\[link\\]" in title
        assert "`right_inverse(<script>alert(1)</script>)`" in out    # the label appears, as code


def test_a_derivation_recorded_by_hand_is_rendered_step_by_step():
    F = sc.Layout.parse("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))")
    with Derivation("hand") as d:
        d.label(F, "F")
        G = sc.right_inverse(F)
        sc.upcast(G.with_shape(32, 16), 1024)
    out = markdown(d, "en")
    assert "right_inverse(F)" in out and "cute/layout.hpp" in out
    assert has(out, "(8,2,2,2,4,2):(4,256,32,128,1,512)")
    assert has(out, "prefix-product weights: (1,4,32,64,128,256,512)")
    zh_out = markdown(d, "zh")
    assert "第 1 步" in zh_out and "前缀积权重" in plain(zh_out)


def test_failed_steps_are_reported():
    with Derivation("fails") as d:
        with pytest.raises(SymcuteError):
            sc.upcast(sc.Layout(4, 3), 2)
    out = markdown(d, "en")
    assert "The step failed" in out and "Divisibility" in out
