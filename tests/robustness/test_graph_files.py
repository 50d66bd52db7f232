"""Hostile derivation graph files (issue 12, item 4): a mutated GraphML or JSON document is a SymcuteError or a
derivation that passed every check, never another exception.

The seed is a small ``derive expr`` graph; edits are drawn from the XML and JSON
alphabets plus the graph's own vocabulary (ids, roles, origins, rules).
"""

from __future__ import annotations

from hypothesis import given

from symcute.expr import derive_expr
from symcute.report import markdown
from symcute.trace import Derivation

from .harness import fuzz_settings, outcome
from .hostile import mutated

_D = derive_expr("upcast<2>(right_inverse(F))", {"F": "(4,8):(8,1)"}, {"F": "(m,k)"})
GRAPHML = _D.to_graphml()
JSON = _D.to_json()
POOL = ["<", ">", "/>", "</node>", "</graph>", "<node id=\"s1\">", "<edge source=\"in0\" target=\"s1\"/>",
        "<data key=\"d1\">", "</data>", "&amp;", "&lt;", "&#0;", "&#x110000;", "<!ENTITY a 'b'>", "<![CDATA[x]]>",
        "\"", "'", "s1", "s1.0", "in0", "s999999999", "step", "value", "input", "result", "true", "false",
        "-1", "4611686018427387904", "\"(8,4):(1,8)\"", "right_inverse", "left_inverse", "make_tuple", "{", "}",
        "[", "]", ",", ":", "null", "\\u0000", "1e400", "\"" + "(" * 150 + "\""]


@fuzz_settings(ci=80, large=20_000)
@given(mutated([GRAPHML], POOL, max_edits=3))
def test_derivation_from_hostile_graphml(text):
    kind, d = outcome("Derivation.from_graphml", Derivation.from_graphml, text)
    if kind == "value":
        outcome("markdown(from_graphml)", markdown, d, "en", seconds=10)


@fuzz_settings(ci=80, large=20_000)
@given(mutated([JSON], POOL, max_edits=3))
def test_derivation_from_hostile_json_of_the_graph(text):
    kind, d = outcome("Derivation.from_json", Derivation.from_json, text)
    if kind == "value":
        outcome("markdown(from_json)", markdown, d, "en", seconds=10)
