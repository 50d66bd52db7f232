"""The shapes of hwcheck's files, as JSON Schemas (read through ``symcute.jsonread``).

A results file, a manifest, an evidence file and a user-atom file come from
another machine or a person: each is validated before a field is used, so a
malformed one is a SymcuteError (exit status 2) naming the file, the line or
JSON path and the expected shape -- never a traceback with exit status 1,
which means "a case disagrees".  Sizes are bounded so that reading back cannot
ask for more work than a real run produces (``trials`` 1..64 as ``--emit``
allows, D data at most 64 trials of 64 KiB).
"""

from __future__ import annotations

MAX_CASES = 20_000
HEX = {"type": "string", "pattern": "^([0-9a-fA-F]{2}){0,65536}$", "description": "bytes as hex digits"}
INDEX = {"type": "integer", "minimum": 0, "maximum": MAX_CASES, "description": "a case index"}
TEXT = {"type": "string", "maxLength": 20_000}
LAYOUT = {"type": "string", "maxLength": 2_000, "description": "a layout in CuTe notation"}
NAME = {"type": "string", "minLength": 1, "maxLength": 200}

ATOM = {
    "type": "object",
    "required": ["name", "shape_mnk", "thr_id", "a_layout", "b_layout", "c_layout", "val_types"],
    "properties": {
        "name": NAME,
        "shape_mnk": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 1024},
                      "minItems": 3, "maxItems": 3, "description": "three positive integers (M,N,K)"},
        "thr_id": LAYOUT, "a_layout": LAYOUT, "b_layout": LAYOUT, "c_layout": LAYOUT,
        "val_types": {"type": "array", "items": NAME, "minItems": 4, "maxItems": 4},
        "frg_types": {"type": "array", "items": {"anyOf": [NAME, {"type": "null"}]}, "minItems": 2, "maxItems": 2},
    },
}

MANIFEST_SCHEMA = {
    "type": "object",
    "required": ["format", "seed", "trials", "arch", "cases", "inputs_sha256", "id"],
    "properties": {
        "format": {"const": "symcute-hwcheck/1"},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        "trials": {"type": "integer", "minimum": 1, "maximum": 64, "description": "trials in 1..64"},
        "arch": {"type": "string", "pattern": "^sm_[0-9]{2,3}a?$", "description": "an arch such as sm_90a"},
        "lanes": {"const": 32},
        "id": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
        "inputs_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "cases": {"type": "array", "maxItems": MAX_CASES, "items": {
            "type": "object",
            "required": ["index", "label", "instruction", "kind", "atom"],
            "properties": {"index": INDEX, "label": NAME, "instruction": NAME, "kind": NAME,
                           "note": TEXT, "atom": ATOM,
                           "offsets": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                           "bytes": {"type": "object"}}}},
        "skipped": {"type": "array", "items": {"type": "array", "prefixItems": [NAME, TEXT],
                                               "minItems": 2, "maxItems": 2}},
        "whole_run": {"type": "object"},
    },
}

RESULT_LINE_SCHEMA = {
    "type": "object",
    "required": ["kind"],
    "properties": {"kind": {"enum": ["env", "case"]}},
    "if": {"properties": {"kind": {"const": "case"}}},
    "then": {
        "required": ["index", "status"],
        "properties": {
            "index": INDEX,
            "status": {"type": "string", "maxLength": 100},
            "d": {"type": "array", "items": HEX, "maxItems": 64, "description": "one hex string per trial"},
            "error": TEXT,
        },
        "if": {"properties": {"status": {"const": "ok"}}},
        "then": {"required": ["d"]},
    },
    "else": {
        "properties": {"manifest": {"type": "string", "maxLength": 100}, "error": TEXT,
                       "start": {"type": "integer", "minimum": 0}},
    },
}

USER_ATOM = {
    "type": "object",
    "required": ["name", "base"],
    "additionalProperties": False,
    "properties": {"name": NAME, "base": NAME, "a": LAYOUT, "b": LAYOUT, "c": LAYOUT, "thr_id": LAYOUT},
}
USER_ATOMS_SCHEMA = {"anyOf": [USER_ATOM, {"type": "array", "items": USER_ATOM, "maxItems": MAX_CASES}],
                     "description": "a user atom {name, base, a?, b?, c?, thr_id?} or a list of them"}

EVIDENCE_ROW = {"type": "object", "properties": {
    "fingerprint": {"type": "string"}, "verdict": {"type": "string"}, "kind": {"type": "string"},
    "corrected": {"type": "object", "properties": {"verdict": {"type": "string"}}}}}

EVIDENCE_SCHEMA = {
    "type": "object",
    "required": ["format", "atoms"],
    "properties": {
        "format": {"const": "symcute-hwcheck-evidence/1"},
        "atoms": {"type": "object", "additionalProperties": EVIDENCE_ROW},
        "user_atoms": {"type": "object", "additionalProperties": EVIDENCE_ROW},
        "covered_families": {"type": "array", "items": {"type": "string"}},
        "runs": {"type": "array", "items": {"type": "object"}},
        "gmma_sample_n": {"type": "array", "items": {"type": "integer"}},
    },
}
