"""User text cannot become markup in a Markdown proof (symcute.report) or in hwcheck's Markdown table.

Hostile text goes wherever a user can put text into a report: a derivation's
title and value labels (Python API), names and expressions (``derive expr``),
and any string field of a derivation read back from JSON.  ``live_markup``
strips code spans and fenced blocks (text there is shown literally) and then
looks for what the payloads would create if they were not escaped: raw HTML,
links, emphasis, headings or list items made of user text, and table rows
whose cell count a ``|`` changed.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, strategies as st

import symcute as sc
from symcute.expr import derive_expr
from symcute.report import markdown
from symcute import recipes
from symcute.trace import Derivation

from .harness import fuzz_settings, outcome

PAYLOADS = [
    "<script>alert('PWN')</script>", "<img src=x onerror=PWN>", "[PWN](http://evil.example)", "*PWN*", "_PWN_",
    "**PWN**", "`PWN`", "``PWN``", "```\nPWN\n```", "a|PWN|b", "\n# PWN heading", "\n- PWN item", "\n1. PWN item",
    "> PWN quote", "PWN\n\n| x | y |\n|---|---|", "~~PWN~~", "&lt;PWN&gt;", "<!-- PWN -->", "\\*PWN\\*", "![PWN](x)",
    "PWN\r\n=====", "<https://PWN.example>", "x\r# PWN heading", "x\r\r- PWN item", "a\r| PWN | b |",
]


def strip_code(md: str) -> str:
    """The Markdown with fenced blocks and inline code spans removed (their content is literal)."""
    md = re.sub(r"\r\n?", "\n", md)  # CommonMark's line endings: \n, \r\n and \r
    out, fence = [], None
    for line in md.split("\n"):
        m = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if line.strip().startswith(fence[0] * len(fence)) and set(line.strip()) <= {fence[0]}:
                fence = None
            continue
        out.append(line)
    text = "\n".join(out)
    return re.sub(r"(?<!\\)(`+)(?!`).*?(?<!`)\1(?!`)", "", text)   # a span closes on an equal backtick run


def live_markup(md: str) -> list[str]:
    """Markup made of user text (the payloads all hold PWN); empty when everything is escaped."""
    text = strip_code(md)
    found = []
    for pattern, what in [
        (r"<(?:script|img|!--)", "raw HTML"), (r"(?<!\\)\[PWN\]\(", "link"), (r"(?<!\\)!\[PWN\]", "image"),
        (r"(?<![\\*])\*{1,2}PWN(?<!\\)\*", "emphasis"), (r"(?<![\\_\w])_PWN(?<!\\)_", "emphasis"),
        (r"(?<!\\)~~PWN", "strikethrough"), (r"(?m)^\s{0,3}#{1,6}\s*PWN heading", "heading"),
        (r"(?m)^\s{0,3}(?:[-+*]|\d+[.)])\s+PWN item", "list item"), (r"(?m)^\s{0,3}>\s*PWN quote", "quote"),
        (r"(?m)^\s*=+\s*$", "setext heading"), (r"<https?://PWN", "autolink"),
    ]:
        if re.search(pattern, text):
            found.append(what)
    for table in re.findall(r"(?m)(?:^\|.*\|[ \t]*\n?)+", text):
        rows = [r for r in table.strip("\n").split("\n") if r.strip()]
        cells = {len(re.findall(r"(?<!\\)\|", r)) for r in rows}
        if len(cells) > 1:
            found.append(f"table row with another cell count: {rows}")
    return found


def test_the_checker_sees_unescaped_payloads():
    for payload in PAYLOADS:
        if payload in ("&lt;PWN&gt;", "\\*PWN\\*", "``PWN``", "`PWN`", "```\nPWN\n```"):
            continue  # shown literally even unescaped
        raw = f"{payload}\n\n| a | b |\n|---|---|\n| x | {payload} |\n"
        assert live_markup(raw), payload
    assert live_markup("| a | `b` |\n|---|---|\n| x | `c` |\n") == []


def _hand_derivation(title: str, label: str):
    F = sc.Layout.parse("(4,2):(2,1)")
    with Derivation(title) as d:
        d.label(F, label)
        G = sc.right_inverse(F)
        d.label(G, label + "_inverse")
        sc.upcast(G.with_shape(2, 4), 2)
    return d


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_title_and_labels_cannot_inject_markup(payload):
    d = _hand_derivation(f"title {payload}", f"F {payload}")
    for lang in ("en", "zh"):
        out = markdown(d, lang)
        assert live_markup(out) == [], (payload, lang, out[:2000])
        assert "PWN" in out  # the user's text is shown, escaped, not dropped


def _string_paths(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _string_paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _string_paths(v, path + (i,))
    elif isinstance(obj, str):
        yield path


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


SOURCES = {
    "expr": derive_expr("upcast<2>(right_inverse(F))", {"F": "(4,8):(8,1)"}, {"F": "(m,k)"}).to_json(),
    "hand": _hand_derivation("hand", "F").to_json(),
}


@fuzz_settings(ci=60, large=5_000)
@given(st.sampled_from(sorted(SOURCES)), st.data())
def test_any_string_of_a_derivation_json_cannot_inject_markup(source, data):
    """Replace 1-3 string fields of a real derivation's JSON with payloads; read it back; render it."""
    payload = json.loads(SOURCES[source])
    paths = [p for p in _string_paths(payload) if p[-1] not in ("role", "id", "source", "target", "symcute")]
    for path in data.draw(st.lists(st.sampled_from(paths), min_size=1, max_size=3, unique=True)):
        _set(payload, path, data.draw(st.sampled_from(PAYLOADS)))
    kind, d = outcome("Derivation.from_json(payload)", Derivation.from_json, json.dumps(payload))
    if kind == "error":
        return
    kind, out = outcome("markdown(payload)", markdown, d, data.draw(st.sampled_from(["en", "zh"])), seconds=10)
    if kind == "value":
        assert live_markup(out) == [], out[:3000]


@pytest.mark.parametrize("names", ["((_a_,b__c),(__init__,d))", "((t0_,_t1),(x__,_))"])
def test_names_with_underscores_do_not_become_emphasis(names):
    d = derive_expr("right_inverse(F)", {"F": "((2,4),(2,2)):((1,2),(8,16))"}, {"F": names})
    out = markdown(d, "en")
    text = strip_code(out)
    for name in re.findall(r"\w+", names):
        assert not re.search(rf"(?<!\\)\b{re.escape(name)}\b", text) or "_" not in name, (name, text[:2000])


def test_hwcheck_markdown_escapes_user_atom_names():
    from symcute.hwcheck import api
    from symcute.hwcheck.plan import derive_atom
    from symcute.atoms.mma_lookup import mma_atom
    base = mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    atom = derive_atom(base, "x|y`z <script>PWN</script> *PWN*")
    report = api.evaluate_plan(api.plan(user=[(atom, base.name)]), {}, {}, {})
    assert live_markup(report.to_markdown()) == []


def test_symbolic_table_markdown_escapes_its_cells():
    from symcute.symbolic.table import Table
    for payload in PAYLOADS:
        t = Table(["sub-axis", payload], [["shape", payload], ["stride", 1]], title=payload)
        assert live_markup(t.to_markdown()) == [], payload
