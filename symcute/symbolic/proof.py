"""Proof and Certificate: the prover's answers, readable and checkable.

A :class:`Proof` states the claim, its verdict (a :class:`~symcute.symbolic.vocabulary.Verdict`:
``"proved"``, ``"refuted"``, ``"unknown"``), the method (a :class:`~symcute.symbolic.vocabulary.Method`:
``"refinement"``, ``"chain"``, ``"gf2"``, ``"exhaustive"``, or an exact back-end: ``"z3"``, ``"isl"``),
a :class:`Certificate` a reader can check by hand, and, when refuted, a
concrete counterexample that was re-evaluated with ``symcute.core`` before it
was returned.

How to read a certificate (``refinement``): ``table`` lists the digits of the
common refinement of both sides' domains, each with its extent, its weight in
the input index, and the coefficient it has on each side; the claim holds iff
the two coefficient columns agree on every row (both sides are linear forms in
these bounded digits).  ``conditions`` lists the side conditions the argument
used (for a composition: that no inner value can carry past an outer digit).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .table import Table
from .vocabulary import Column, Condition, CounterexampleKey, Labelled, Method, Query, Reason, Statement, Verdict, \
    read_cell, read_column, read_key, read_phrase

VERDICTS = tuple(v.value for v in Verdict)

# The columns of a certificate kind that are named by the claim's labels (the two sides' coefficients of
# prover._equality_certificate): read back from JSON they stay text, even a label such as "result" or
# "weight" that reads like one of the prover's own columns.
SIDE_COLUMNS = {"equality": (3, 4)}

# The columns whose cells are phrases (an exact back-end's query; a conjunction's parts, which are claims; the
# inputs a probe tried).
PHRASE_COLUMNS = {Column.EXACT_QUERY: (Query, Statement), Column.PART: (Statement,), Column.INPUTS_TRIED: (Query,)}
# The columns whose cells are the prover's own members (a conjunction's parts' verdicts and methods; a joined
# method such as "chain+refinement" stays text)
MEMBER_COLUMNS = {Column.VERDICT: Verdict, Column.METHOD: Method}


@dataclass(frozen=True)
class Certificate:
    """The argument behind a verdict: a table of digits and the side conditions used."""
    kind: str                 # "equality", "injective", "surjective", "exhaustive"
    table: Table
    conditions: tuple = ()    # Phrases (a Condition, or a conjunction's part Claims)
    data: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Certificate({self.kind!r}, {self.table!r}, {len(self.conditions)} conditions)"

    def __str__(self) -> str:
        lines = [str(self.table)]
        lines += [f"  - {c}" for c in self.conditions]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "table": self.table.to_dict(), "conditions": list(self.conditions),
                "data": _jsonable(self.data)}

    @staticmethod
    def from_dict(d: dict) -> "Certificate":
        """Inverse of :meth:`to_dict` (``data`` stays in its JSON form); columns and marks read back as members."""
        t = Table.from_dict(d["table"])
        kind = str(d["kind"])
        sides = SIDE_COLUMNS.get(kind, ())   # the claim's labels stay labels, whatever they read like
        header = [h if k in sides else read_column(h) for k, h in enumerate(t.header)]
        phrases = {k: PHRASE_COLUMNS[h] for k, h in enumerate(header) if h in PHRASE_COLUMNS}
        members = {k: MEMBER_COLUMNS[h] for k, h in enumerate(header) if h in MEMBER_COLUMNS}

        def cell(k, c):
            if k in phrases:
                return read_phrase(c, phrases[k])
            if k in members:
                return _member(members[k], c)
            return read_cell(c)
        rows = [[cell(k, c) for k, c in enumerate(r)] for r in t.rows]
        return Certificate(kind, Table(header, rows, t.title),
                           tuple(read_phrase(str(c), (Condition, Statement)) for c in d["conditions"]),
                           dict(d.get("data") or {}))


@dataclass(frozen=True)
class Proof:
    """The answer to a claim about layouts.

    ``statement`` and ``reason`` are :class:`~symcute.symbolic.vocabulary.Phrase` values (a Statement, a
    Reason) wherever the prover made them: text as ``str`` prints it, with the kind and arguments kept
    for the report's wording."""
    statement: str
    verdict: Verdict
    method: Method | str
    certificate: Certificate | None = None
    counterexample: dict | None = None
    reason: str = ""
    # the claim in the certificate format's terms (layouts in CuTe notation), set by the prover's entry
    # points: what :meth:`certificate_file` states, so that symcute.check can tie the evidence to the input
    claim: dict | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "verdict", Verdict(self.verdict))
        # a conjunction's method joins its parts' ("chain+refinement"): text, not one member
        if isinstance(self.method, str) and not isinstance(self.method, Method) and self.method in _METHODS:
            object.__setattr__(self, "method", Method(self.method))
        # every counterexample key typed: a member, or a Labelled name (a side's label among them)
        ce = self.counterexample
        if ce and not all(isinstance(k, (CounterexampleKey, Labelled)) for k in ce):
            object.__setattr__(self, "counterexample", {read_key(k): v for k, v in ce.items()})

    def __bool__(self) -> bool:
        return self.verdict == "proved"

    @property
    def proved(self) -> bool:
        return self.verdict == "proved"

    @property
    def refuted(self) -> bool:
        return self.verdict == "refuted"

    def __str__(self) -> str:
        lines = [f"claim:   {self.statement}", f"verdict: {self.verdict} ({self.method})"]
        if self.reason:
            lines.append(f"why:     {self.reason}")
        if self.counterexample:
            lines.append("counterexample:")
            lines += [f"  {k}: {_show(v)}" for k, v in self.counterexample.items()]
        if self.certificate is not None:
            lines.append("certificate:")
            lines += ["  " + ln for ln in str(self.certificate).splitlines()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        """One line (the dataclass default printed the certificate's tables): the verdict, how, and the claim."""
        claim = self.statement if len(self.statement) <= 120 else self.statement[:117] + "..."
        return f"Proof({self.verdict}, {self.method}: {claim!r})"

    def certificate_file(self) -> dict:
        """The certificate of this verdict in the checker's format (docs/certificates.md;
        ``symcute.check.check`` re-verifies it).  @raises SymcuteError for an unknown verdict or a proof
        made without a claim the format states"""
        from .certfile import certificate_of
        return certificate_of(self)

    def to_dict(self) -> dict:
        return {
            "statement": self.statement,
            "verdict": self.verdict,
            "method": self.method,
            "reason": self.reason,
            "certificate": self.certificate.to_dict() if self.certificate else None,
            "counterexample": _jsonable(self.counterexample) if self.counterexample else None,
        }

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kw)

    @staticmethod
    def from_dict(d: dict) -> "Proof":
        """Inverse of :meth:`to_dict`: the same dict, JSON and text back (JSON lists read as tuples).

        @post Proof.from_dict(p.to_dict()).to_dict() == p.to_dict() and str() agrees
        """
        from ..errors import SymcuteError
        try:
            verdict = d["verdict"]
            if verdict not in VERDICTS:
                raise ValueError(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
            cert = Certificate.from_dict(d["certificate"]) if d.get("certificate") else None
            ce = d.get("counterexample")
            if ce is not None and not isinstance(ce, dict):
                raise TypeError("counterexample is not an object")
            return Proof(read_phrase(str(d["statement"]), (Statement,)), verdict, str(d["method"]), cert,
                         {read_key(str(k)): _tuples(v) for k, v in ce.items()} if ce else None,
                         read_phrase(str(d.get("reason", "")), (Reason, Statement)))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise SymcuteError(f"Proof.from_dict: malformed proof ({type(e).__name__}: {e})") from None

    @staticmethod
    def from_json(text, source: str = "Proof.from_json") -> "Proof":
        """Rebuild a Proof from :meth:`to_json` output (text or its dict), validated against ``PROOF_SCHEMA``."""
        from .. import jsonread
        d = jsonread.loads(text, source) if isinstance(text, (str, bytes)) else text
        return Proof.from_dict(jsonread.checked(d, PROOF_SCHEMA, source))


_TABLE = {"type": "object", "required": ["header", "rows"],
          "properties": {"title": {"type": ["string", "null"]}, "header": {"type": "array"},
                         "rows": {"type": "array", "items": {"type": "array"}}}}
PROOF_SCHEMA = {
    "type": "object",
    "required": ["statement", "verdict", "method"],
    "properties": {
        "statement": {"type": "string"},
        "verdict": {"enum": list(VERDICTS)},
        "method": {"type": "string"},
        "reason": {"type": "string"},
        "certificate": {"anyOf": [{"type": "null"}, {
            "type": "object", "required": ["kind", "table", "conditions"],
            "properties": {"kind": {"type": "string"}, "table": _TABLE,
                           "conditions": {"type": "array", "items": {"type": "string"}},
                           "data": {"type": ["object", "null"]}}}]},
        "counterexample": {"type": ["object", "null"]},
    },
}


_METHODS = {m.value for m in Method}


def _member(enum, text):
    """The member of ``enum`` that ``text`` serialises, else the text."""
    try:
        return enum(text)
    except ValueError:
        return text


def _tuples(x):
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


def _show(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k}={_show(x)}" for k, x in v.items())
    return str(v)


def _jsonable(x: Any):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (int, str, float)) or x is None:
        return x
    return str(x)
