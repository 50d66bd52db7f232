"""Read a derivation the way a report needs it: steps by rule and kind, values by label.

Works the same on a derivation built in this process and on one read back
with ``Derivation.from_json`` (formulas and proofs are then JSON dicts, which
:meth:`View.formula` and :meth:`View.proof` turn back into the same data).
"""

from __future__ import annotations

from ..errors import SymcuteError


class View:
    def __init__(self, derivation):
        self.d = derivation
        self.top = derivation.steps(top_level_only=True)
        self._proofs = None

    @property
    def config(self) -> dict:
        return self.d.config

    def find(self, rule: str, **match) -> list:
        """Top-level steps of ``rule`` whose details contain every ``key=value`` of ``match``."""
        return [s for s in self.top if s.rule == rule and all(s.details.get(k) == v for k, v in match.items())]

    def one(self, rule: str, **match):
        found = self.find(rule, **match)
        if not found:
            want = ", ".join(f"{k}={v}" for k, v in match.items())
            raise SymcuteError(f"report: the derivation has no {rule} step ({want}); was it made by this recipe?")
        return found[-1]

    def table(self, kind: str) -> dict:
        return self.one("table", kind=kind).details

    def has_table(self, kind: str) -> bool:
        return bool(self.find("table", kind=kind))

    def text(self, label: str) -> str:
        node = self.d.labelled(label)
        if node is None:
            raise SymcuteError(f"report: the derivation has no value labelled {label!r}")
        return self.d.text(node)

    def has(self, label: str) -> bool:
        return self.d.labelled(label) is not None

    def formula_step(self, label: str):
        return self.one("formula", label=label)

    def formula(self, step):
        """The Formula a formula step produced (rebuilt from JSON for a re-imported derivation)."""
        from ..symbolic.formula import Formula
        obj = self.d.obj(step.output)
        if isinstance(obj, Formula):
            return obj
        return Formula.from_json(obj)  # a re-imported formula's JSON text, checked against its layout

    def proof(self, step):
        """The prover's answer of a proof step: a typed :class:`~symcute.symbolic.proof.Proof`."""
        from ..symbolic.proof import Proof
        obj = self.d.obj(step.output)
        if isinstance(obj, Proof):
            return obj
        # a re-imported proof: its JSON, checked; verdict, method, columns, marks and keys read back as members
        return Proof.from_json(obj.to_dict() if hasattr(obj, "to_dict") else obj)

    def proofs(self) -> list:
        """Every proof step in order, with its answer."""
        if self._proofs is None:
            self._proofs = self._collect_proofs()
        return self._proofs

    def _collect_proofs(self) -> list:
        from ..trace.rules import RULES
        out = []
        for s in self.top:
            if "claim" in s.details and s.output is not None and RULES.get(s.rule) is not None \
                    and RULES[s.rule].origin == "symcute":
                out.append((s, self.proof(s)))
        return out

    def evaluations(self, kind: str | None = None) -> list:
        """The worked examples (``Evaluation`` records) of ``kind`` (every kind when None), in order."""
        from ..recipes.records import Evaluation
        return [Evaluation.from_details(s.details) for s in self.find("evaluate", **({} if kind is None else
                                                                                       {"kind": kind}))]
