"""The derivation's graph (trace/graph.py) answers as networkx's DiGraph would, without importing networkx."""

import subprocess
import sys

import networkx as nx

from symcute import recipes
from symcute.trace.graph import StepGraph, node_link_data, node_link_graph


def _pair():
    g, h = StepGraph(title="t"), nx.DiGraph(title="t")
    for G in (g, h):
        G.add_node("v0", role="value", text="4:1")
        G.add_node("s1", role="step", rule="coalesce")
        G.add_edge("v0", "s1", arg="layout")
        G.add_edge("s1", "v2", arg="out")
        G.nodes["v2"]["label"] = "R"
        G.add_node("v0", extra=1)
    return g, h


def test_the_graph_answers_as_networkx():
    g, h = _pair()
    assert list(g.nodes(data=True)) == list(h.nodes(data=True)) and list(g.nodes) == list(h.nodes)
    assert list(g.edges(data=True)) == list(h.edges(data=True)) and g.edges["v0", "s1"] == h.edges["v0", "s1"]
    assert list(g.predecessors("s1")) == list(h.predecessors("s1"))
    assert list(g.successors("s1")) == list(h.successors("s1"))
    assert g.number_of_nodes() == h.number_of_nodes() and len(g.edges) == h.number_of_edges()
    assert node_link_data(g) == nx.node_link_data(h, edges="edges")
    back = node_link_graph(node_link_data(g))
    assert node_link_data(back) == node_link_data(g)
    assert nx.utils.graphs_equal(g.to_networkx(), h)


def test_copy_has_its_own_attribute_dicts():
    g, _ = _pair()
    c = g.copy()
    c.nodes["v0"]["text"] = "changed"
    assert g.nodes["v0"]["text"] == "4:1" and node_link_data(c) != node_link_data(g)


def test_a_derivation_needs_no_networkx():
    code = ("import sys; from symcute import recipes; d = recipes.derive_retile(**recipes.SEED); "
            "from symcute.report import markdown; markdown(d, 'en'); d.to_json(); print('networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_recipe_graph_converts_to_networkx():
    d = recipes.derive_tv("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1), ("A",))
    h = d.graph.to_networkx()
    assert h.number_of_nodes() == d.graph.number_of_nodes() and h.number_of_edges() == len(d.graph.edges)
    assert node_link_data(d.graph) == nx.node_link_data(h, edges="edges")
