"""Derivation: a directed graph of values and the steps that produced them (networkx's DiGraph interface, see graph.py).

Value nodes hold layouts, ints, tuples, formulas, tables and proofs; step nodes
hold one operation each (its rule id, the CuTe source it follows, and the
intermediate quantities the operation noted while it ran).  Edges carry the
data flow: ``value -> step`` for each input (with the argument's name),
``step -> value`` for the output.  Steps run inside other steps (a
``logical_divide`` calls ``complement`` and ``composition``) record their
``parent``; a report walks the top-level steps and opens the nested ones when
it explains them.

Use as a context manager; while it is active every traced operation of the
core and the atoms records into it::

    with Derivation("seed") as d:
        G = right_inverse(F)
    d.steps()      # [Step(rule='right_inverse', ...), Step(rule='coalesce', ...)]
"""

from __future__ import annotations

import inspect
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from ..errors import SymcuteError
from ..core import hook
from .graph import StepGraph, node_link_data, node_link_graph
from .rules import rule_for
from .values import describe, from_description


@dataclass
class Step:
    """One recorded operation (a step node of the graph)."""
    node: str
    rule: str
    inputs: dict            # argument name -> value node id
    output: str | None      # value node id (None when the step failed)
    details: dict = field(default_factory=dict)
    parent: str | None = None
    depth: int = 0
    error: str | None = None


class Derivation:
    """A recorded chain of CuTe operations, as a directed graph (``graph``; ``graph.to_networkx()`` for networkx)."""

    def __init__(self, title: str = "", **config):
        self.title = title
        self.config = dict(config)
        self.graph = StepGraph(title=title)   # networkx's DiGraph interface; .graph.to_networkx() for algorithms
        self._ids = itertools.count()
        self._by_object: dict[int, tuple[Any, str]] = {}   # id(obj) -> (obj, node): identity of values
        self._stack: list[dict] = []
        self._token = None

    def __repr__(self) -> str:
        steps = sum(1 for _n, d in self.graph.nodes(data=True) if d.get("role") == "step")
        recipe = f", recipe={self.config['recipe']!r}" if "recipe" in self.config else ""
        return f"Derivation({self.title!r}{recipe}, {steps} steps)"

    # --- context manager (activates recording) ------------------------------------------
    def __enter__(self) -> "Derivation":
        self._token = hook.current.set(self)
        return self

    def __exit__(self, *exc) -> None:
        hook.current.reset(self._token)
        self._token = None

    # --- the recorder protocol (called by core.hook) ----------------------------------------
    def call(self, rule: str, fn, args: tuple, kwargs: dict):
        frame = {"rule": rule, "details": {}, "children": []}
        self._stack.append(frame)
        try:
            out = fn(*args, **kwargs)
        except SymcuteError as e:
            self._stack.pop()
            self._add_step(rule, fn, args, kwargs, None, frame["details"], error=str(e),
                           children=frame["children"])
            raise
        self._stack.pop()
        self._add_step(rule, fn, args, kwargs, out, frame["details"], children=frame["children"])
        return out

    def note(self, **details) -> None:
        if self._stack:
            self._stack[-1]["details"].update(details)

    # --- building ------------------------------------------------------------------------------
    def value(self, obj, label: str | None = None, kind: str | None = None) -> str:
        """The node of ``obj`` (added on first sight); ``label`` names it for reports (``F``, ``G``)."""
        known = self._by_object.get(id(obj))
        if known is not None and known[0] is obj:
            node = known[1]
        else:
            node = f"v{next(self._ids)}"
            self._by_object[id(obj)] = (obj, node)
            token = hook.current.set(None)   # printing a value (a TiledCopy) may run traced operations
            try:
                desc = describe(obj)
            finally:
                hook.current.reset(token)
            self.graph.add_node(node, role="value", kind=kind or desc["kind"], text=desc["text"], obj=obj)
        if label:
            self.graph.nodes[node]["label"] = label
        return node

    def label(self, obj, name: str) -> str:
        """Give a value a name the report uses (``F``, ``G``, ``H``)."""
        return self.value(obj, label=name)

    def labelled(self, name: str) -> str | None:
        """The value node labelled ``name`` (the last one, if several were), or ``None``."""
        found = [n for n, d in self.graph.nodes(data=True) if d.get("role") == "value" and d.get("label") == name]
        return max(found, key=lambda n: int(n[1:])) if found else None

    def paused(self):
        """A context in which traced operations run unrecorded (helper computations of a recipe)."""
        return _Paused()

    def add_step(self, rule: str, inputs: dict, output, details: dict | None = None) -> Step:
        """Record a step that did not run through a traced operation (e.g. a proof or a table).

        ``inputs`` maps argument names to values (they become value nodes);
        ``output`` is the value produced, or ``None`` for a step that only
        records ``details`` (JSON-friendly data a report reads).
        """
        return self._add_step(rule, None, (), inputs, output, details or {})

    def _add_step(self, rule, fn, args, kwargs, out, details, error=None, children=None) -> Step:
        named = _bind(fn, args, kwargs)
        node = f"s{next(self._ids)}"
        depth = len(self._stack)
        inputs = {}
        for name, val in named.items():
            if val is None:
                continue
            inputs[name] = self.value(val)
        # a recipe's own step (fn is None) may produce no value (a table of facts)
        out_node = self.value(out) if error is None and not (fn is None and out is None) else None
        self.graph.add_node(node, role="step", rule=rule, depth=depth, details=details,
                            error=error, order=int(node[1:]), parent=None)
        for name, v in inputs.items():
            self.graph.add_edge(v, node, arg=name)
        if out_node is not None:
            self.graph.add_edge(node, out_node, arg="result")
        # steps that ran inside this one finished first; now they learn their parent
        for child in children or ():
            self.graph.nodes[child]["parent"] = node
        if self._stack:
            self._stack[-1]["children"].append(node)
        return self.step(node)

    # --- reading ---------------------------------------------------------------------------------
    def step(self, node: str) -> Step:
        data = self.graph.nodes[node]
        inputs = {self.graph.edges[u, node]["arg"]: u for u in self.graph.predecessors(node)}
        outs = list(self.graph.successors(node))
        return Step(node, data["rule"], inputs, outs[0] if outs else None, data["details"],
                    data.get("parent"), data["depth"], data.get("error"))

    def steps(self, top_level_only: bool = False) -> list[Step]:
        """Steps in the order they finished (top-level steps only, if asked)."""
        nodes = [n for n, d in self.graph.nodes(data=True)
                 if d.get("role") == "step" and (not top_level_only or d["depth"] == 0)]
        nodes.sort(key=lambda n: self.graph.nodes[n]["order"])
        return [self.step(n) for n in nodes]

    def last(self, rule: str) -> Step | None:
        """The step of ``rule`` that finished last (``None`` if there is none)."""
        best = None
        for n, d in self.graph.nodes(data=True):
            if d.get("role") == "step" and d["rule"] == rule and (best is None or d["order"] > best[1]):
                best = (n, d["order"])
        return None if best is None else self.step(best[0])

    def children(self, step: Step) -> list[Step]:
        return [s for s in self.steps() if s.parent == step.node]

    def obj(self, node: str):
        return self.graph.nodes[node].get("obj")

    def text(self, node: str) -> str:
        return self.graph.nodes[node]["text"]

    def find(self, rule: str) -> list[Step]:
        return [s for s in self.steps() if s.rule == rule]

    def rule(self, step: Step):
        return rule_for(step.rule)

    # --- export ------------------------------------------------------------------------------------
    def to_json(self) -> str:
        """Node-link JSON (networkx's format); values are kept as their CuTe text and kind."""
        g = self.graph.copy()
        for _, data in g.nodes(data=True):
            data.pop("obj", None)
            if "details" in data:
                data["details"] = _jsonable(data["details"])
        payload = {"symcute": "derivation", "version": 1, "title": self.title,
                   "config": _jsonable(self.config), "graph": node_link_data(g)}
        return json.dumps(payload, sort_keys=True, indent=1)

    @classmethod
    def from_json(cls, text: str, source: str = "derivation JSON") -> "Derivation":
        """Rebuild a derivation from :meth:`to_json`, validated and re-checked.

        The text is read within ``symcute.jsonread``'s limits and validated
        against ``trace.schema.DERIVATION_SCHEMA``; values are read back with
        CuTe-notation readers (never the expression language); then
        ``trace.recheck`` re-evaluates every step it can with core and the
        prover and refuses a document whose values or verdicts disagree
        (``rechecked`` says what was re-checked and what could not be).
        @post every value node of a recomputable step equals core's value of its inputs
        """
        from ..core import budget
        # reading values and re-checking steps runs what an untrusted document asks for: metered
        with budget.limited():
            try:
                return cls._from_json(text, source)
            except ValueError as e:  # str() of a value past Python's digit limit, while re-checking
                raise SymcuteError(f"{source}: a value of the document cannot be printed ({e})") from None

    @classmethod
    def _from_json(cls, text: str, source: str) -> "Derivation":
        from .. import jsonread
        from .schema import DERIVATION_SCHEMA
        payload = jsonread.read(text, DERIVATION_SCHEMA, source)
        config, graph = payload.get("config", {}), payload["graph"]
        d = cls(payload.get("title", ""))
        d.config = dict(config)   # not **config: a key "title" or "self" is data, not an argument
        ids = [n["id"] for n in graph["nodes"]]
        if len(set(ids)) != len(ids):
            raise SymcuteError(f"{source}: node ids are not unique")
        known = set(ids)
        for k, e in enumerate(graph["edges"]):
            for end in ("source", "target"):
                if e[end] not in known:
                    raise SymcuteError(f"{source}: at $.graph.edges[{k}].{end}: {e[end]!r} is no node of the graph")
        try:
            d.graph = node_link_graph(graph)
        except (KeyError, TypeError, ValueError) as e:
            raise SymcuteError(f"{source}: malformed graph: {e}") from None
        for k, node in enumerate(graph["nodes"]):
            data = d.graph.nodes[node["id"]]
            if data["role"] == "value":
                try:
                    data["obj"] = from_description(data["kind"], data["text"])
                except SymcuteError as e:
                    raise SymcuteError(f"{source}: at $.graph.nodes[{k}].text: {e}") from None
        d._ids = itertools.count(1 + max((int(n[1:]) for n in ids), default=-1))
        d.imported = True  # read from a file: a report that cannot read it says so (report.markdown)
        from .recheck import recheck
        d.rechecked = recheck(d, source)
        return d

    def to_graphml(self, path) -> None:
        """GraphML for graph tools (every attribute as text)."""
        import networkx as nx
        g = nx.DiGraph()
        for n, data in self.graph.nodes(data=True):
            g.add_node(n, **{k: json.dumps(_jsonable(v)) if not isinstance(v, str) else v
                             for k, v in data.items() if k != "obj" and v is not None})
        for u, v, data in self.graph.edges(data=True):
            g.add_edge(u, v, **data)
        nx.write_graphml(g, path)


class _Paused:
    def __enter__(self):
        self._token = hook.current.set(None)
        return self

    def __exit__(self, *exc) -> None:
        hook.current.reset(self._token)


_SIGNATURES: dict = {}


def _signature(fn) -> inspect.Signature:
    """``inspect.signature`` of a traced operation, computed once per function (it is slow)."""
    sig = _SIGNATURES.get(fn)
    if sig is None:
        sig = _SIGNATURES[fn] = inspect.signature(fn)
    return sig


def _bind(fn, args, kwargs) -> dict:
    """Argument name -> value, using the operation's signature when there is one."""
    if fn is None:
        return dict(kwargs)
    try:
        bound = _signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {f"arg{i}": a for i, a in enumerate(args)} | dict(kwargs)
    out = {}
    for name, val in bound.arguments.items():
        if name == "self":
            out["self"] = val
        elif isinstance(val, tuple) and bound.signature.parameters[name].kind == inspect.Parameter.VAR_POSITIONAL:
            for i, v in enumerate(val):
                out[f"{name}{i}"] = v
        else:
            out[name] = val
    return out


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return str(x)
