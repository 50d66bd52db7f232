"""The shape of a derivation's JSON (``Derivation.to_json``), as a JSON Schema.

The document is networkx's node-link data (``edges="edges"``); the
derivation's own fields are the ``graph`` attributes.  ``Derivation.from_json``
(and ``from_graphml``, after reading the XML) validates a document against it
before it reads a field (``symcute.jsonread``), so a hand-edited or hostile file
is one SymcuteError naming the JSON path and the expected shape;
``trace.export.check_graph`` then checks what a schema cannot (unique ids,
one producer per value, edges from earlier to later nodes, citations).
"""

from __future__ import annotations

_N = "(0|[1-9][0-9]{0,8})"   # nine digits are far more nodes than a file can hold
STEP_ID = {"type": "string", "pattern": f"^s{_N}$", "description": "a step id: 's' and at most 9 decimal digits"}
VALUE_ID = {"type": "string", "pattern": f"^(s{_N}\\.0|in{_N})$",
            "description": "a value id: '<step id>.0' (a step's output) or 'in' and at most 9 digits (an input)"}
NODE_ID = {"type": "string", "pattern": f"^(s{_N}(\\.0)?|in{_N})$",
           "description": "a node id: 's<n>' (a step), 's<n>.0' (its output) or 'in<n>' (an input)"}
TEXT = {"type": "string", "maxLength": 1_000_000}
SHORT = {"type": "string", "maxLength": 1000}
SMALL_INT = {"type": "integer", "minimum": 0, "maximum": 10**9}

VALUE_NODE = {
    "type": "object",
    "required": ["id", "role", "kind", "text", "origin", "order"],
    "properties": {
        "id": VALUE_ID,
        "role": {"const": "value"},
        "kind": {"type": "string", "maxLength": 100},
        "text": TEXT,
        "origin": {"enum": ["step", "input"]},
        "order": SMALL_INT,
        "producer": STEP_ID,
        "index": {"const": 0},
        "within": STEP_ID,
        "label": SHORT,
    },
    "additionalProperties": False,
}

STEP_NODE = {
    "type": "object",
    "required": ["id", "role", "rule", "depth", "order", "details", "structural", "origin", "source", "function",
                 "citation"],
    "properties": {
        "id": STEP_ID,
        "role": {"const": "step"},
        "rule": {"type": "string", "maxLength": 100},
        "depth": SMALL_INT,
        "order": SMALL_INT,
        "details": {"type": "object", "description": "the step's payload: JSON-native data"},
        "parent": STEP_ID,
        "error": TEXT,
        "structural": {"type": "boolean"},
        "origin": {"enum": ["cute", "symcute"]},
        "source": SHORT,
        "function": SHORT,
        "cutlass": {"type": "string", "maxLength": 20},
        "citation": SHORT,
    },
    "additionalProperties": False,
}

DERIVATION_SCHEMA = {
    "type": "object",
    "required": ["directed", "multigraph", "graph", "nodes", "edges"],
    "properties": {
        "directed": {"const": True},
        "multigraph": {"const": False},
        "graph": {
            "type": "object",
            "required": ["symcute", "version"],
            "properties": {
                "symcute": {"const": "derivation"},
                "version": {"const": 2, "description": "version 2: node-link data at the top level "
                                                       "(version 1 documents are not read; derive them again)"},
                "title": {"type": "string", "maxLength": 10_000},
                "config": {"type": "object", "description": "an object of the recipe's settings"},
            },
        },
        "nodes": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "role"],
                "properties": {"role": {"enum": ["value", "step"]}},
                "if": {"properties": {"role": {"const": "value"}}},
                "then": VALUE_NODE,
                "else": STEP_NODE,
            },
        },
        "edges": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["source", "target", "arg"],
                "properties": {"source": NODE_ID, "target": NODE_ID,
                               "arg": {"type": "string", "maxLength": 2000}},
                "additionalProperties": False,
            },
        },
    },
}
