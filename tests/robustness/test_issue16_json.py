"""Untrusted JSON (issue 16): limits and schemas before use, imported derivations re-checked.

Each reproducer of the issue gives one SymcuteError naming the source, the
position and the expected shape.
"""

import json

import pytest

from symcute import jsonread
from symcute.errors import SymcuteError
from symcute.expr import derive_expr
from symcute.report import markdown
from symcute.symbolic.formula import FORMULA_SCHEMA, Formula
from symcute.symbolic.proof import PROOF_SCHEMA, Proof
from symcute.trace import Derivation
from symcute.trace.schema import DERIVATION_SCHEMA

DEEP = "[" * 2000 + "]" * 2000


@pytest.fixture(scope="module")
def doc_text():
    return derive_expr("right_inverse((4,8):(8,1))", {}, {}).to_json()


@pytest.fixture
def doc(doc_text):
    return json.loads(doc_text)


def test_schemas_are_valid_json_schema():
    from jsonschema import Draft202012Validator
    for schema in (DERIVATION_SCHEMA, FORMULA_SCHEMA, PROOF_SCHEMA):
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("reader", [Proof.from_json, Formula.from_json, Derivation.from_json])
def test_deep_nesting_is_refused_before_parsing(reader):
    # was: RecursionError from Python's json parser
    with pytest.raises(SymcuteError, match="nested deeper than 64 levels"):
        reader(DEEP)


def test_an_integer_of_5000_digits_anywhere_is_refused(doc):
    # was: ValueError from int() past Python's 4,300-digit limit
    doc["nodes"][0]["depth"] = 0
    text = json.dumps(doc).replace('"version": 2', '"version": 2' + "0" * 5000, 1)
    with pytest.raises(SymcuteError, match="an integer of 5001 digits"):
        Derivation.from_json(text)


@pytest.mark.parametrize("key", ["title", "self"])
def test_config_keys_are_data_not_arguments(doc, key):
    # was: TypeError (config passed as **kwargs to Derivation.__init__)
    doc["graph"]["config"][key] = "x"
    # read as data (no TypeError); an expr document whose configuration is not the recipe's own is then
    # refused by its re-derivation (issue 23: a tampered configuration)
    with pytest.raises(SymcuteError, match=r"the derivation's config differ from what its recipe derives"):
        Derivation.from_json(json.dumps(doc))
    doc["graph"]["config"]["recipe"] = "hand-made"   # no recipe: read, the key kept as data
    assert Derivation.from_json(json.dumps(doc)).config[key] == "x"


def test_a_node_id_of_5000_digits_is_refused_by_the_schema(doc):
    # was: ValueError from int() outside the try
    text = json.dumps(doc).replace('"s1"', '"s1' + "0" * 5000 + '"')
    with pytest.raises(SymcuteError, match=r"at \$\.nodes\[\d+\]\.(id|producer): .*expected a step id"):
        Derivation.from_json(text)


def test_an_edited_value_is_refused(doc):
    # was: the edited value was rendered next to the old formula and the word "proved"
    for node in doc["nodes"]:
        if node.get("text") == "(8,4):(4,1)":
            node["text"] = "(8,4):(1,8)"
    with pytest.raises(SymcuteError, match=r"step s1 \(right_inverse\): core gives \(8,4\):\(4,1\) on its "
                                           r"inputs, the document says \(8,4\):\(1,8\)"):
        Derivation.from_json(json.dumps(doc))


def test_an_edited_verdict_is_refused(doc):
    for node in doc["nodes"]:
        if node.get("rule") == "prove_right_inverse":
            node["details"]["verdict"] = "refuted"
    with pytest.raises(SymcuteError, match="the prover answers proved"):
        Derivation.from_json(json.dumps(doc))


def test_a_read_back_report_says_what_was_rechecked(doc):
    text = markdown(Derivation.from_json(json.dumps(doc)))
    # a recipe's document is derived again: every step of it, the table included, is re-checked
    assert "Re-checked when read from JSON: derived again from its configuration, its 4 steps equal" in text
    assert "Not re-checked" not in text
    doc["graph"]["config"]["recipe"] = "hand-made"   # no recipe derives it: step by step, the rest said
    text = markdown(Derivation.from_json(json.dumps(doc)))
    assert "Re-checked when read from JSON: 1 values recomputed" in text
    assert "Not re-checked (shown as the file states them): the steps `table`" in text


@pytest.mark.parametrize("text", ["right_inverse((20000,2):(2,1))", "make_layout(4:1, 2:1)", "size(4:1)"])
def test_tuple_text_is_read_never_run(doc, text):
    # was: kind "tuple" went through the expression language (it could return a Layout, or compute for 10 s)
    doc["nodes"][0].update(kind="tuple", text=text)
    with pytest.raises(SymcuteError, match=r"at \$\.nodes\[0\]\.text"):
        Derivation.from_json(json.dumps(doc))


def test_formula_names_are_user_names():
    # was: any sub-axis name accepted, "\\input{/etc/passwd}" reached latex() verbatim
    import symcute as sc
    d = json.loads(sc.formula(sc.Layout.parse("(4,8):(8,1)"), names=("m", "k")).to_json())
    d["axes"][0]["name"] = "\\input{/etc/passwd}"
    with pytest.raises(SymcuteError, match=r"at \$\.axes\[0\]\.name: .*expected a sub-axis name"):
        Formula.from_json(json.dumps(d))
    d["axes"][0]["name"] = "lambda"  # an identifier, but a keyword: refused like a user-given name
    with pytest.raises(SymcuteError, match="is not an ASCII identifier"):
        Formula.from_json(json.dumps(d))


@pytest.mark.parametrize("text, message", [
    ("{", "not JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
    ('{"a": NaN}', "NaN is not a JSON number"),
    ('{"a": 1e400}', "the number 1e400 is not a finite float"),
    (b"\xff", "not UTF-8 text"),
])
def test_the_reader_names_position_and_cause(text, message):
    with pytest.raises(SymcuteError, match="^doc: " + message.replace("(", r"\(")):
        jsonread.loads(text, "doc")
