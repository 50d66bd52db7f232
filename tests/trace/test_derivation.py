"""Derivations record steps with their intermediate quantities, nest, export and re-import exactly."""

import json
import time

import pytest

import symcute as sc
from symcute.errors import LayoutError, SymcuteError
from symcute.trace import Derivation, rule_for
from symcute.core import hook

F_TEXT = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def seed_derivation():
    F = sc.Layout.parse(F_TEXT)
    with Derivation("seed", mma="SM80_16x8x16_F16F16F16F16_TN") as d:
        d.label(F, "F")
        G = sc.right_inverse(F)
        H = G.with_shape(32, 16)
        sc.upcast(H, 1024)
    return d


def test_steps_and_details():
    d = seed_derivation()
    top = [s.rule for s in d.steps(top_level_only=True)]
    assert top == ["right_inverse", "with_shape", "upcast"]
    ri = d.find("right_inverse")[0]
    assert ri.details["weights"] == [1, 4, 32, 64, 128, 256, 512]  # the seed's TV weights
    assert str(ri.details["coalesced"]) == "(4,8,2,2,2,2,2):(64,1,16,0,32,8,256)"
    assert 3 in ri.details["skipped"]  # the wn broadcast mode (stride 0) breaks the chain
    up = d.find("upcast")[0]
    assert [m[2] for m in up.details["modes"]] == [256, 4, 32, 8, 1024, 2]  # ceil_div(1024, stride)
    comp = d.find("composition")[0]
    assert comp.parent == d.find("with_shape")[0].node and comp.depth == 1


def test_data_flow_edges_connect_outputs_to_inputs():
    d = seed_derivation()
    ri, ws = d.find("right_inverse")[0], d.find("with_shape")[0]
    assert ws.inputs["self"] == ri.output
    assert d.graph.nodes[ri.inputs["layout"]]["label"] == "F"


def test_failed_steps_are_recorded_and_the_error_propagates():
    with Derivation() as d:
        with pytest.raises(LayoutError):
            sc.upcast(sc.Layout(4, 3), 2)
    (step,) = d.steps()
    assert step.output is None and "Divisibility condition" in step.error


def test_json_round_trip_is_exact():
    d = seed_derivation()
    text = d.to_json()
    again = Derivation.from_json(text)
    assert again.to_json() == text
    assert [s.rule for s in again.steps()] == [s.rule for s in d.steps()]
    node = again.find("right_inverse")[0].output
    assert again.obj(node) == sc.Layout.parse("(8,2,2,2,4,2):(4,256,32,128,1,512)")


@pytest.mark.parametrize("bad", ["", "[]", '{"symcute": "other"}', '{"symcute": "derivation", "graph": 3}'])
def test_bad_json_is_a_symcute_error(bad):
    with pytest.raises(SymcuteError):
        Derivation.from_json(bad)


def test_graphml_export(tmp_path):
    d = seed_derivation()
    path = tmp_path / "seed.graphml"
    d.to_graphml(path)
    import networkx as nx
    g = nx.read_graphml(path)
    assert g.number_of_nodes() == d.graph.number_of_nodes()


def test_recording_is_off_outside_the_context():
    seed_derivation()
    assert hook.recording() is None


def test_rules_cite_cute_sources():
    from symcute.report.templates import Text
    r = rule_for("right_inverse")
    assert r.source == "cute/layout.hpp" and "prefix product" in Text("en").rule(r.id)   # the words: templates
    assert "4.2" in r.citation()


def test_every_core_operation_with_a_rule_records_under_it():
    # a decorator that slid onto a neighbouring helper once left recast_layout unrecorded
    import symcute.core as core
    from symcute.trace.rules import RULES
    for name in core.__all__:
        if name in RULES:
            assert getattr(getattr(core, name), "rule", None) == name, name
    with Derivation("recast") as d:
        sc.recast_layout(sc.Layout.parse("(4,8):(8,1)"), "uint16_t", "uint32_t")
    assert [s.rule for s in d.steps(top_level_only=True)] == ["recast_layout"]
