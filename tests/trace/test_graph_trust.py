"""Issue 12, item 4: every recipe's derivation graph is a DAG with complete provenance, and every value re-evaluates.

For each recipe (one small configuration each; `derive_expr` on several
expressions): the graph is acyclic (networkx), every value node is an input
(`in<n>`, no producer) or the output `s<n>.0` of exactly one step, every step
carries its rule's citation, and `Derivation.replay()` re-runs every step on its
input values with core (or the prover, for recipe steps) and finds the recorded
value.  The seed's graph round-trips through JSON and GraphML, and networkx's
own reader takes the JSON as written.
"""

import json

import networkx as nx
import pytest

import symcute as sc
from symcute import recipes
from symcute.errors import SymcuteError
from symcute.expr import derive_expr
from symcute.trace import Derivation
from symcute.trace.rules import citation_of, rule_for

CASES = {
    "derive_retile": lambda: recipes.derive_retile(**recipes.SEED),
    "derive_retile B": lambda: recipes.derive_retile(operand="B", contrast=None),
    "derive_tv": lambda: recipes.derive_tv("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 1)),
    "derive_tv_copy": lambda: recipes.derive_tv_copy(),
    "derive_bank": lambda: recipes.derive_bank(),
    "derive_catalog": lambda: recipes.derive_catalog(filter="SM80_16x8x8_F16"),
    "derive_swizzle": lambda: recipes.derive_swizzle(),
    "derive_gmem": lambda: recipes.derive_gmem(),
    "derive_expr": lambda: derive_expr("upcast<1024>(right_inverse(F).with_shape(32,16))",
                                       {"F": "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"},
                                       {"F": "((t0,t1,wm,wn),((v0,v1,v2),(a,b)))"}),
    "derive_expr divide": lambda: derive_expr("logical_divide(L, _)", {"L": "(4,8):(8,1)"}),
    "derive_expr tiler": lambda: derive_expr("zipped_divide(make_layout((8,8)), (2:1, get<0>(make_layout((4,4)))))"),
    "derive_expr ints": lambda: derive_expr("upcast(L, max_common_vector(L, L))", {"L": "(8,4):(1,8)"}),
}


def test_every_recipe_has_a_case():
    names = {n for n in dir(recipes) if n.startswith("derive_")} | {"derive_expr"}
    assert names <= {k.split()[0] for k in CASES}


@pytest.fixture(scope="module", params=sorted(CASES))
def derivation(request):
    return CASES[request.param]()


def _producers(g, node):
    return [u for u in g.predecessors(node) if g.nodes[u]["role"] == "step"]


def test_the_graph_is_a_dag_with_complete_provenance(derivation):
    g = derivation.graph
    assert nx.is_directed_acyclic_graph(g.to_networkx())
    values = [n for n, x in g.nodes(data=True) if x["role"] == "value"]
    assert g.number_of_nodes()   # the catalog recipe holds one table and no value
    for n in values:
        data, made_by = g.nodes[n], _producers(g, n)
        if data["origin"] == "input":
            assert made_by == [] and n.startswith("in"), n
        else:
            assert made_by == [data["producer"]] and n == data["producer"] + ".0", (n, made_by)
    for n, data in g.nodes(data=True):
        if data["role"] == "step":
            assert len(list(g.successors(n))) <= 1
            rule = rule_for(data["rule"])
            assert {k: data.get(k) for k in citation_of(rule)} == citation_of(rule)
            if rule.origin == "cute":
                assert data["source"].startswith("cute/") and data["cutlass"] == "4.2.0"


def test_every_value_re_evaluates_from_its_inputs(derivation):
    report = derivation.replay()
    # only tables of facts (no value) are not replayed; everything that produced a value was
    assert {rule for _node, rule, _why in report["not_replayed"]} <= {"table"}
    steps_with_values = sum(1 for _n, x in derivation.graph.nodes(data=True)
                            if x["role"] == "step" and x["rule"] != "table")
    assert report["values"] + report["formulas"] + report["verdicts"] == steps_with_values


def _top(d, rule):
    return [s for s in d.find(rule) if s.depth == 0][-1]


def test_replay_notices_a_wrong_value():
    d = recipes.derive_retile(**recipes.SEED)
    node = _top(d, "right_inverse").output
    d.graph.nodes[node]["obj"] = sc.Layout.parse("(8,2,2,2,4,2):(4,256,32,128,1,511)")
    d.graph.nodes[node]["text"] = "(8,2,2,2,4,2):(4,256,32,128,1,511)"
    with pytest.raises(SymcuteError, match=r"right_inverse\): core gives \(8,2,2,2,4,2\):\(4,256,32,128,1,512\)"):
        d.replay()


def test_a_step_returning_its_argument_is_no_cycle():
    L = sc.Layout.parse("(4,8):(8,1)")
    with Derivation() as d:
        out = sc.logical_divide(L, sc.Underscore())
        sc.coalesce(out)
    assert out is L
    step = d.last("logical_divide")
    assert step.output == step.node + ".0" and step.inputs["layout"] != step.output
    assert nx.is_directed_acyclic_graph(d.graph.to_networkx())
    # the later use of L reads the input L, not a node made from it
    assert d.last("coalesce").inputs["layout"] == step.inputs["layout"]


def test_equal_small_ints_do_not_link_unrelated_steps():
    L = sc.Layout.parse("(32,4):(1,32)")
    with Derivation() as d:
        v = sc.max_common_vector(L, L)
        sc.upcast(L, 32)
    assert v == 128 or v == 32 or v > 0
    up, mcv = d.last("upcast"), d.last("max_common_vector")
    assert up.inputs["n"].startswith("in") and up.inputs["n"] != mcv.output
    assert d.graph.nodes[up.inputs["n"]]["origin"] == "input"


def _producer(d, node):
    return d.step(d.graph.nodes[node]["producer"])


def test_make_layout_shape_and_mode_access_are_steps():
    L = sc.Layout.parse("((4,8),2):((2,8),1)")
    with Derivation() as d:
        M = sc.make_layout(sc.shape(L))
        sc.composition(L, (M[0], L.shape[1]))
        sc.coalesce(sc.make_layout(L.stride))        # a layout's own stride tuple: a stride step
    comp = [s for s in d.find("composition") if s.depth == 0][-1]
    tiler = _producer(d, comp.inputs["rhs"])
    assert tiler.rule == "make_tuple"
    first = _producer(d, tiler.inputs["elements0"])
    assert first.rule == "get" and _producer(d, first.inputs["self"]).rule == "make_layout"
    assert _producer(d, _producer(d, first.inputs["self"]).inputs["args0"]).rule == "shape"
    second = d.graph.nodes[tiler.inputs["elements1"]]    # L.shape[1] is the int 2: an input of its own
    assert second["origin"] == "input" and second["text"] == "2"
    made = _producer(d, d.last("coalesce").inputs["layout"])
    assert made.rule == "make_layout" and _producer(d, made.inputs["args0"]).rule == "stride"
    assert [s.rule for s in d.steps(top_level_only=True)] == ["composition", "coalesce"]  # reports: operations
    assert "shape" in [s.rule for s in d.steps(structural=True)]


def test_steps_carry_their_citation_and_payload():
    d = recipes.derive_retile(**recipes.SEED)
    data = d.graph.nodes[_top(d, "right_inverse").node]
    assert (data["source"], data["function"], data["cutlass"]) == ("cute/layout.hpp", "right_inverse", "4.2.0")
    assert data["citation"] == "cute/layout.hpp, right_inverse (CUTLASS 4.2.0)"
    doc = json.loads(d.to_json())
    node = next(n for n in doc["nodes"] if n["id"] == _top(d, "right_inverse").node)
    assert node["details"]["weights"] == [1, 4, 32, 64, 128, 256, 512] and node["citation"] == data["citation"]
    _only_plain(doc)


def _only_plain(x):
    """Exports hold strings, ints, bools, lists and objects of them: no Python object, no float."""
    if isinstance(x, dict):
        for k, v in x.items():
            assert isinstance(k, str)
            _only_plain(v)
    elif isinstance(x, list):
        for v in x:
            _only_plain(v)
    else:
        assert x is None or isinstance(x, (str, int, bool)), repr(x)


# --- exports and readers ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def seed():
    return recipes.derive_retile(**recipes.SEED)


def test_networkx_reads_the_json_as_written(seed):
    text = seed.to_json()
    g = nx.node_link_graph(json.loads(text), edges="edges")       # the call docs/architecture.md gives
    assert isinstance(g, nx.DiGraph) and nx.is_directed_acyclic_graph(g)
    assert g.number_of_nodes() == seed.graph.number_of_nodes() and g.graph["symcute"] == "derivation"
    assert g.nodes[_top(seed, "right_inverse").output]["text"] == "(8,2,2,2,4,2):(4,256,32,128,1,512)"


def test_seed_round_trips_through_json_and_graphml(seed, tmp_path):
    text = seed.to_json()
    assert Derivation.from_json(text).to_json() == text
    graphml = seed.to_graphml()
    back = Derivation.from_graphml(graphml)
    assert back.to_json() == text
    path = tmp_path / "seed.graphml"
    seed.to_graphml(path)
    assert Derivation.from_graphml(str(path)).to_json() == text
    g = nx.read_graphml(path)                                       # networkx's own reader, too
    assert g.number_of_nodes() == seed.graph.number_of_nodes()
    assert back.rechecked["values"] > 200 and back.text(back.labelled("G")) == "(8,2,2,2,4,2):(4,256,32,128,1,512)"


def test_gexf_through_networkx(seed, tmp_path):
    path = tmp_path / "seed.gexf"
    text = seed.to_gexf(path)
    g = nx.read_gexf(path)
    assert g.number_of_nodes() == seed.graph.number_of_nodes() and "<gexf" in text


def test_dot_through_pydot_or_a_clear_error(seed, monkeypatch):
    try:
        import pydot
    except ImportError:
        pydot = None
    if pydot is not None:
        text = seed.to_dot()
        assert text.startswith("strict digraph") and '"(8,2,2,2,4,2):(4,256,32,128,1,512)"' in text
        (g,) = pydot.graph_from_dot_data(text)
        assert len(g.get_nodes()) >= seed.graph.number_of_nodes()
    import sys
    monkeypatch.setitem(sys.modules, "pydot", None)     # as if it were not installed
    with pytest.raises(SymcuteError, match="needs the Python package pydot"):
        seed.to_dot()


def _doc(seed):
    return json.loads(seed.to_json())


def _refused(doc, match):
    with pytest.raises(SymcuteError, match=match):
        Derivation.from_json(json.dumps(doc))


def test_a_cycle_is_refused(seed):
    doc = _doc(seed)
    ri = next(n for n in doc["nodes"] if n.get("rule") == "right_inverse" and n["depth"] == 0)
    later = max((n for n in doc["nodes"] if n["role"] == "value"), key=lambda n: n["order"])
    doc["edges"].append({"source": later["id"], "target": ri["id"], "arg": "x"})
    _refused(doc, "every input exists before its step")


def test_a_second_producer_is_refused(seed):
    doc = _doc(seed)
    steps = [n["id"] for n in doc["nodes"] if n["role"] == "step"]
    target = next(n["id"] for n in doc["nodes"] if n["role"] == "value" and n["origin"] == "step")
    other = next(s for s in steps if s + ".0" != target)
    doc["edges"].append({"source": other, "target": target, "arg": "result"})
    _refused(doc, "exactly one step|at most one")


def test_an_input_with_a_producer_is_refused(seed):
    doc = _doc(seed)
    target = next(n["id"] for n in doc["nodes"] if n["role"] == "value" and n["origin"] == "input")
    step = next(n["id"] for n in doc["nodes"] if n["role"] == "step" and n.get("rule") == "table")
    doc["edges"].append({"source": step, "target": target, "arg": "result"})
    _refused(doc, f"value {target} is an input, yet step {step} produces it")


def test_an_edited_citation_is_refused(seed):
    doc = _doc(seed)
    ri = next(n for n in doc["nodes"] if n.get("rule") == "right_inverse")
    ri["function"] = "left_inverse"
    _refused(doc, r"cites function 'left_inverse'; the rule catalog has 'right_inverse'")


def test_unknown_attributes_and_old_documents_are_refused(seed):
    doc = _doc(seed)
    doc["nodes"][0]["obj"] = "__import__('os')"
    _refused(doc, r"\$\.nodes\[0\]")
    old = {"symcute": "derivation", "version": 1, "graph": {"directed": True, "multigraph": False,
                                                              "nodes": [], "edges": []}}
    _refused(old, "required property")


@pytest.mark.parametrize("text, match", [
    ("<graphml", "not GraphML"),
    ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><graphml/>', "DTD or entity"),
    ("<graphml xmlns='http://graphml.graphdrawing.org/xmlns'><graph edgedefault='undirected'/></graphml>",
     "simple directed graph|required property"),
    (b"\xff\xfe<", "not GraphML"),
])
def test_bad_graphml_is_a_symcute_error(text, match):
    with pytest.raises(SymcuteError, match=match):
        Derivation.from_graphml(text)


def test_graphml_with_an_edited_value_is_refused(seed):
    graphml = seed.to_graphml().replace("(8,2,2,2,4,2):(4,256,32,128,1,512)", "(8,2,2,2,4,2):(4,256,32,128,1,511)")
    with pytest.raises(SymcuteError, match="core gives"):
        Derivation.from_graphml(graphml)


def test_a_step_reads_back_with_its_typed_citation(seed):
    step = _top(seed, "right_inverse")
    assert step.citation.source == "cute/layout.hpp" and step.citation.cutlass == "4.2.0"
    assert step.citation.text == rule_for("right_inverse").citation() and not step.structural
    proof = seed.find("prove_right_inverse")[0]
    assert proof.citation.origin == "symcute" and proof.citation.cutlass is None
    back = Derivation.from_json(seed.to_json()).step(step.node)
    assert (back.citation, back.inputs, back.output, back.structural) == (step.citation, step.inputs, step.output, False)
    # in memory the payload may hold core values; exported (and read back) it is their JSON-native form
    assert back.details == json.loads(json.dumps(step.details, default=str))


def test_inputs_made_inside_a_step_say_which(seed):
    g = seed.graph
    inside = [n for n, x in g.nodes(data=True) if x["role"] == "value" and "within" in x]
    assert inside
    for n in inside:
        within = g.nodes[g.nodes[n]["within"]]
        assert g.nodes[n]["origin"] == "input" and within["role"] == "step" and within["order"] > g.nodes[n]["order"]
    # the recipe's own inputs (the copy atom, the MMA name) were made by no step
    assert any(x.get("kind") == "CopyAtom" and "within" not in x for _n, x in g.nodes(data=True))
    doc = json.loads(seed.to_json())
    node = next(x for x in doc["nodes"] if x["id"] == inside[0])
    node["within"] = "s0"
    _refused(doc, "no later step")
