"""The shape of a derivation's JSON (``Derivation.to_json``), as a JSON Schema.

``Derivation.from_json`` validates a document against it before it reads a
field (``symcute.jsonread``), so a hand-edited or hostile file is one
SymcuteError naming the JSON path and the expected shape.
"""

from __future__ import annotations

# node ids are "v<n>" (values) and "s<n>" (steps); nine digits are far more nodes than a file can hold
NODE_ID = {"type": "string", "pattern": "^[vs](0|[1-9][0-9]{0,8})$",
           "description": "a node id: 'v' or 's' followed by at most 9 decimal digits"}
TEXT = {"type": "string", "maxLength": 1_000_000}
SMALL_INT = {"type": "integer", "minimum": 0, "maximum": 10**9}

VALUE_NODE = {
    "type": "object",
    "required": ["id", "role", "kind", "text"],
    "properties": {
        "id": NODE_ID,
        "role": {"const": "value"},
        "kind": {"type": "string", "maxLength": 100},
        "text": TEXT,
        "label": {"type": "string", "maxLength": 1000},
    },
}

STEP_NODE = {
    "type": "object",
    "required": ["id", "role", "rule", "depth", "order", "details"],
    "properties": {
        "id": NODE_ID,
        "role": {"const": "step"},
        "rule": {"type": "string", "maxLength": 100},
        "depth": SMALL_INT,
        "order": SMALL_INT,
        "details": {"type": "object"},
        "parent": {"anyOf": [NODE_ID, {"type": "null"}]},
        "error": {"anyOf": [TEXT, {"type": "null"}]},
    },
}

DERIVATION_SCHEMA = {
    "type": "object",
    "required": ["symcute", "graph"],
    "properties": {
        "symcute": {"const": "derivation"},
        "version": {"const": 1},
        "title": {"type": "string", "maxLength": 10_000},
        "config": {"type": "object", "description": "an object of the recipe's settings"},
        "graph": {
            "type": "object",
            "required": ["directed", "multigraph", "nodes", "edges"],
            "properties": {
                "directed": {"const": True},
                "multigraph": {"const": False},
                "graph": {"type": "object"},
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
                                       "arg": {"type": "string", "maxLength": 200}},
                    },
                },
            },
        },
    },
}
