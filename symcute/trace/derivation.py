"""Derivation: a directed acyclic graph of values and the steps that produced them (networkx's DiGraph interface, see graph.py).

Nodes (the schema is in docs/architecture.md, "The derivation graph"):

* a **step** ``s<n>`` is one operation: its rule id, its citation (CuTe file,
  function and CUTLASS version, from ``trace.rules``), its ``depth`` and
  ``parent`` (steps run inside other steps: a ``logical_divide`` calls
  ``complement`` and ``composition``), and ``details``, the intermediate
  quantities the operation noted (a JSON-native payload);
* a **value** is either the output of exactly one step, node ``s<n>.0``
  (``origin="step"``, ``producer="s<n>"``, ``index=0``), or an **input**, node
  ``in<n>`` (``origin="input"``): a value no recorded step produced (a literal
  of the recipe, a catalog entry, a Python computation between steps).

Edges carry the data flow: ``value -> step`` for each argument (``arg``: the
parameter name, several comma-separated when one value fills several) and
``step -> value`` (``arg="result"``).  A step's arguments are bound when it is
*called*, its output when it *returns*, so every edge runs from an earlier node
to a later one: the graph is acyclic by construction, even for a step that
returns its argument (``logical_divide(L, _)`` is ``L``: its output is a node of
its own).  Objects are matched by identity only while the derivation holds them
(no ``id()`` in node names), and never for scalars (ints, strings, ``_``,
SymPy numbers): Python shares those between unrelated computations, so each
use of a scalar is an input node of its own.  A tuple argument built in Python
from recorded values becomes a ``make_tuple`` step, and a layout's own shape or
stride tuple a ``shape`` / ``stride`` step, so provenance is complete: every
value node is an input or has exactly one producer.

Use as a context manager; while it is active every traced operation of the
core and the atoms records into it::

    with Derivation("seed") as d:
        G = right_inverse(F)
    d.steps()      # [Step(rule='right_inverse', ...)]; d.steps(structural=True) adds make_layout, get, ...
"""

from __future__ import annotations

import inspect
import numbers
from dataclasses import dataclass, field

from ..errors import SymcuteError
from ..core import hook
from ..core.layout import Layout, Underscore, shape as _shape_of, stride as _stride_of
from .graph import StepGraph
from .rules import RULES, STRUCTURAL, citation_of, rule_for
from .values import describe


@dataclass(frozen=True)
class Citation:
    """Where a step's rule comes from: CuTe's header and function (and the CUTLASS version), or symcute's module."""
    origin: str             # "cute" or "symcute"
    source: str             # cute/layout.hpp, symcute/symbolic/prover.py
    function: str           # right_inverse, TiledMMA::get_layoutA_TV
    cutlass: str | None     # "4.2.0" for origin "cute"
    text: str               # the one line a report prints


@dataclass
class Step:
    """One recorded operation (a step node of the graph), as reports read it."""
    node: str
    rule: str
    inputs: dict            # argument name -> value node id
    output: str | None      # value node id (None when the step failed or produces no value)
    details: dict = field(default_factory=dict)   # the payload: intermediate quantities (JSON-native once exported)
    parent: str | None = None
    depth: int = 0
    error: str | None = None
    citation: Citation | None = None
    structural: bool = False


@dataclass(frozen=True)
class NodeRef:
    """A value given by its node (``Derivation.ref``): an input of ``add_step`` that names a node, not an object.

    An object can be the value of several nodes (a step that returns its
    argument); a recipe recording a claim about *this step's output* says so
    with ``d.ref(step.output)``.
    """
    node: str


def make_tuple(*elements) -> tuple:
    """CuTe's ``make_tuple``: the step a derivation records for a tuple argument built from recorded values."""
    return tuple(elements)


make_tuple.rule = "make_tuple"

# attributes that hold Python objects: kept in memory, never exported
MEMORY_ONLY = ("obj", "fn")


def has_identity(obj) -> bool:
    """Whether ``obj`` can be matched by identity: not a scalar Python or SymPy shares between computations."""
    if obj is None or isinstance(obj, (numbers.Number, str, bytes, Underscore)) or (type(obj) is tuple and not obj):
        return False
    return not type(obj).__module__.startswith("sympy")


class Derivation:
    """A recorded chain of CuTe operations, as a DAG (``graph``; ``graph.to_networkx()`` for networkx)."""

    def __init__(self, title: str = "", **config):
        self.title = title
        self.config = dict(config)
        self.graph = StepGraph(title=title)   # networkx's DiGraph interface; .graph.to_networkx() for algorithms
        self._next = 0               # the number of the next node (steps and inputs; an output shares its step's)
        self._bound: dict = {}      # id(obj) -> (obj, node): the node an object was first seen as (obj kept alive)
        self._parts: dict = {}      # id(tuple) -> (tuple, layout node, "shape" | "stride") of recorded layouts
        self._last_output = None    # (obj, node) of the step recorded last (labels of scalar results)
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
        inputs = self._inputs(_bind(fn, args, kwargs))   # bound as called: a nested step cannot shadow them
        start = self._next
        frame = {"details": {}, "children": [], "inputs": []}
        self._stack.append(frame)
        try:
            out = fn(*args, **kwargs)
        except SymcuteError as e:
            self._stack.pop()
            self._add_step(rule, fn, inputs, None, frame["details"], error=str(e), children=frame["children"],
                           made=frame["inputs"])
            raise
        except BaseException:
            self._stack.pop()
            raise
        self._stack.pop()
        self._add_step(rule, fn, inputs, out, frame["details"], children=frame["children"], has_output=True,
                       started=start, made=frame["inputs"])
        return out

    def note(self, **details) -> None:
        if self._stack:
            self._stack[-1]["details"].update(details)

    # --- values ------------------------------------------------------------------------------------
    def value(self, obj, label: str | None = None, kind: str | None = None) -> str:
        """The node ``obj`` is bound to (a new input node if no step produced it); ``label`` names it (``F``)."""
        node = self._resolve(obj) if has_identity(obj) else self._scalar_node(obj)
        if kind:
            self.graph.nodes[node]["kind"] = kind
        if label:
            self.graph.nodes[node]["label"] = label
        return node

    def label(self, obj, name: str) -> str:
        """Give a value a name the report uses (``F``, ``G``, ``H``)."""
        return self.value(obj, label=name)

    def labelled(self, name: str) -> str | None:
        """The value node labelled ``name`` (the last one, if several were), or ``None``."""
        found = [(d["order"], n) for n, d in self.graph.nodes(data=True)
                 if d.get("role") == "value" and d.get("label") == name]
        return max(found)[1] if found else None

    def paused(self):
        """A context in which traced operations run unrecorded (helper computations of a recipe)."""
        return _Paused()

    def _scalar_node(self, obj) -> str:
        # a scalar has no identity; labelling the result just returned names that output, else a new input
        last = self._last_output
        if last is not None and last[0] is obj:
            return last[1]
        return self._new_input(obj)

    def _value_node(self, node: str, obj, order: int, **attrs) -> None:
        token = hook.current.set(None)   # printing a value (a TiledCopy) may run traced operations
        try:
            desc = describe(obj)
        finally:
            hook.current.reset(token)
        self.graph.add_node(node, role="value", kind=desc["kind"], text=desc["text"], order=order, obj=obj, **attrs)

    def _new_input(self, obj) -> str:
        n = self._number()
        node = f"in{n}"
        self._value_node(node, obj, n, origin="input")
        if self._stack:   # made by the code of a running step, not given to the derivation: it learns which
            self._stack[-1]["inputs"].append(node)
        self._bind_object(obj, node)
        return node

    def _number(self) -> int:
        n = self._next
        self._next += 1
        return n

    def _bind_object(self, obj, node: str, since: int | None = None) -> None:
        """Remember the node of an object with identity (and the shape/stride tuples of a layout).

        An object keeps the node it was first seen as, except that a step
        returning an object one of its own nested steps made (bound at or
        after ``since``, the number the step's call started at) takes it over:
        the value is the outer step's result (``get_layoutA_TV``, not the
        ``composition`` inside it).  An object that existed before the call
        (``logical_divide(L, _)`` returns ``L``) keeps its node.
        """
        if not has_identity(obj):
            return
        known = self._bound.get(id(obj))
        if known is not None and known[0] is obj:
            if since is None or self.graph.nodes[known[1]]["order"] < since:
                return
        self._bound[id(obj)] = (obj, node)
        if type(obj) is Layout:
            for part, which in ((obj.shape, "shape"), (obj.stride, "stride")):
                if type(part) is tuple and part:
                    seen = self._parts.get(id(part))
                    if seen is None or seen[0] is not part or seen[1] == (known[1] if known else None):
                        self._parts[id(part)] = (part, node, which)

    def _resolve(self, obj) -> str:
        """The node of an argument with identity, recording how a tuple built from recorded values was made."""
        known = self._bound.get(id(obj))
        if known is not None and known[0] is obj:
            return known[1]
        if type(obj) is tuple:
            part = self._parts.get(id(obj))
            if part is not None and part[0] is obj:   # a layout's own shape or stride: CuTe's shape(L) / stride(L)
                fn = _shape_of if part[2] == "shape" else _stride_of
                return self._add_step(part[2], fn, {"x": part[1]}, obj, {}, has_output=True) + ".0"
            if any(self._traceable(x) for x in obj):
                elements = {f"elements{k}": self._argument(x) for k, x in enumerate(obj)}
                return self._add_step("make_tuple", make_tuple, elements, obj, {}, has_output=True) + ".0"
        return self._new_input(obj)

    def _traceable(self, obj) -> bool:
        """Whether ``obj`` is, or is a tuple holding, a recorded value (so its provenance is worth a step)."""
        if not has_identity(obj):
            return False
        known = self._bound.get(id(obj))
        if known is not None and known[0] is obj:
            return True
        if type(obj) is tuple:
            part = self._parts.get(id(obj))
            return (part is not None and part[0] is obj) or any(self._traceable(x) for x in obj)
        return False

    def _argument(self, obj) -> str:
        if type(obj) is NodeRef:
            if obj.node not in self.graph.nodes or self.graph.nodes[obj.node].get("role") != "value":
                raise SymcuteError(f"{obj.node!r} is no value node of this derivation")
            return obj.node
        return self._resolve(obj) if has_identity(obj) else self._new_input(obj)

    def ref(self, node: str) -> NodeRef:
        """The value node ``node`` as an ``add_step`` input (see :class:`NodeRef`)."""
        return NodeRef(node)

    def _inputs(self, named: dict) -> dict:
        """Argument name -> value node, for the arguments a step is called with (``None`` is no argument)."""
        return {name: self._argument(val) for name, val in named.items() if val is not None}

    # --- steps ---------------------------------------------------------------------------------------
    def add_step(self, rule: str, inputs: dict, output, details: dict | None = None) -> Step:
        """Record a step that did not run through a traced operation (e.g. a proof or a table).

        ``inputs`` maps argument names to values (they become value nodes, or
        link to the steps that produced them); ``output`` is the value
        produced, or ``None`` for a step that only records ``details``
        (JSON-friendly data a report reads).
        """
        return self.step(self._add_step(rule, None, self._inputs(dict(inputs)), output, details or {},
                                        has_output=output is not None))

    def _add_step(self, rule, fn, inputs: dict, out, details, error=None, children=None,
                  has_output=False, started: int | None = None, made=()) -> str:
        """Add a step node (and its output node); its id."""
        n = self._number()
        node = f"s{n}"
        self.graph.add_node(node, role="step", rule=rule, depth=len(self._stack), details=details, error=error,
                            order=n, parent=None, structural=rule in STRUCTURAL, fn=fn,
                            **_citation(rule))
        by_node: dict = {}
        for name, v in inputs.items():
            by_node.setdefault(v, []).append(name)
        for v, names in by_node.items():
            self.graph.add_edge(v, node, arg=",".join(names))
        if has_output and error is None:
            out_node = f"{node}.0"
            self._value_node(out_node, out, n, origin="step", producer=node, index=0)
            self.graph.add_edge(node, out_node, arg="result")
            self._bind_object(out, out_node, since=started)
            self._last_output = (out, out_node)
        # steps that ran inside this one finished first; now they learn their parent
        for child in children or ():
            self.graph.nodes[child]["parent"] = node
        for value in made:
            self.graph.nodes[value]["within"] = node
        if self._stack:
            self._stack[-1]["children"].append(node)
        return node

    # --- reading ---------------------------------------------------------------------------------
    def step(self, node: str) -> Step:
        data = self.graph.nodes[node]
        inputs = {}
        for u in self.graph.predecessors(node):
            for name in self.graph.edges[u, node]["arg"].split(","):
                inputs[name] = u
        outs = list(self.graph.successors(node))
        cite = Citation(data["origin"], data["source"], data["function"], data.get("cutlass"), data["citation"])
        return Step(node, data["rule"], inputs, outs[0] if outs else None, data["details"],
                    data.get("parent"), data["depth"], data.get("error"), cite, bool(data.get("structural")))

    def _step_nodes(self, structural: bool, rule: str | None = None) -> list:
        nodes = [n for n, d in self.graph.nodes(data=True) if d.get("role") == "step"
                 and (structural or rule is not None or not d.get("structural"))
                 and (rule is None or d["rule"] == rule)]
        nodes.sort(key=lambda n: self.graph.nodes[n]["order"])
        return nodes

    def steps(self, top_level_only: bool = False, structural: bool = False) -> list[Step]:
        """Steps in the order they finished (top-level steps only, if asked).

        Structural steps (``make_layout``, ``shape``, ``get``, ``make_tuple``:
        recorded so that every value has a producer) are left out unless
        ``structural``; reports walk the operations.
        """
        return [self.step(n) for n in self._step_nodes(structural)
                if not top_level_only or self.graph.nodes[n]["depth"] == 0]

    def last(self, rule: str) -> Step | None:
        """The step of ``rule`` that finished last (``None`` if there is none)."""
        nodes = self._step_nodes(True, rule)
        return self.step(nodes[-1]) if nodes else None

    def children(self, step: Step, structural: bool = False) -> list[Step]:
        return [s for s in self.steps(structural=structural) if s.parent == step.node]

    def obj(self, node: str):
        return self.graph.nodes[node].get("obj")

    def text(self, node: str) -> str:
        return self.graph.nodes[node]["text"]

    def find(self, rule: str) -> list[Step]:
        return [self.step(n) for n in self._step_nodes(True, rule)]

    def rule(self, step: Step):
        return rule_for(step.rule)

    def replay(self) -> dict:
        """Re-evaluate every step from its input values (``trace.recheck.replay``): counts, and what could not be."""
        from .recheck import replay
        return replay(self)

    # --- export (trace.export: networkx's own writers) ----------------------------------------------
    def to_json(self) -> str:
        """Node-link JSON (``networkx.node_link_graph(json.loads(text), edges="edges")`` reads it as written)."""
        from .export import to_json
        return to_json(self)

    def to_graphml(self, path=None) -> str:
        """GraphML (networkx's ``write_graphml``); written to ``path`` too when given."""
        from .export import to_graphml
        return to_graphml(self, path)

    def to_gexf(self, path=None) -> str:
        """GEXF (networkx's ``write_gexf``); written to ``path`` too when given."""
        from .export import to_gexf
        return to_gexf(self, path)

    def to_dot(self, path=None) -> str:
        """Graphviz DOT (networkx's ``to_pydot``; needs the optional package pydot)."""
        from .export import to_dot
        return to_dot(self, path)

    @classmethod
    def from_json(cls, text: str, source: str = "derivation JSON") -> "Derivation":
        """Rebuild a derivation from :meth:`to_json`, validated and re-checked (``trace.export.read_json``).

        The text is read within ``symcute.jsonread``'s limits and validated
        against ``trace.schema.DERIVATION_SCHEMA`` and the graph's own rules
        (acyclic, one producer per value, citations as the rule catalog has
        them); values are read back with CuTe-notation readers (never the
        expression language); then ``trace.recheck`` re-evaluates every step it
        can with core and the prover and refuses a document whose values or
        verdicts disagree (``rechecked`` says what was re-checked and what could not be).
        @post every value node of a recomputable step equals core's value of its inputs
        """
        from .export import read_json
        return read_json(cls, text, source)

    @classmethod
    def from_graphml(cls, text, source: str = "derivation GraphML") -> "Derivation":
        """Rebuild a derivation from :meth:`to_graphml` (text, bytes or a path), with :meth:`from_json`'s checks."""
        from .export import read_graphml
        return read_graphml(cls, text, source)


class _Paused:
    def __enter__(self):
        self._token = hook.current.set(None)
        return self

    def __exit__(self, *exc) -> None:
        hook.current.reset(self._token)


_CITATIONS: dict = {}


def _citation(rule_id: str) -> dict:
    """A step node's citation attributes, computed once per catalog entry (a rule registered later is its own)."""
    rule = rule_for(rule_id)
    if rule_id not in RULES:   # a generic entry, new each time: nothing to keep
        return citation_of(rule)
    known = _CITATIONS.get(id(rule))
    if known is None or known[0] is not rule:
        known = _CITATIONS[id(rule)] = (rule, citation_of(rule))
    return known[1]


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
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return x if x == x and x not in (float("inf"), float("-inf")) else str(x)
    return str(x)
