"""A derivation's graph as data: node-link JSON, GraphML, GEXF and DOT through networkx's own writers, and readers.

Exporting is apart from building (networkx's ``readwrite`` idea): a
:class:`~symcute.trace.derivation.Derivation` builds its graph, this module
writes and reads it.  Every exported attribute is a string, an int or a bool;
``details`` (a step's payload, JSON-native) is a JSON object in node-link JSON
and JSON text in the XML and DOT formats.  The document is node-link data as
networkx writes it, the derivation's own fields (``symcute``, ``version``,
``title``, ``config``) in its ``graph`` attributes, so

    networkx.node_link_graph(json.loads(text), edges="edges")

reads it as written.  The readers accept untrusted files: the text is bounded
(``symcute.jsonread`` limits; GraphML without a DTD or entities), validated
against ``trace.schema``, checked as a graph (every edge runs from an earlier
node to a later one, each value has exactly one producer or none, citations
are the rule catalog's), and re-checked step by step (``trace.recheck``).
"""

from __future__ import annotations

import io
import json
import re

from ..errors import SymcuteError
from .derivation import MEMORY_ONLY, _jsonable
from .graph import StepGraph, node_link_data, node_link_graph
from .rules import citation_of, rule_for
from .values import from_description

VERSION = 2
_XML_ENCODED = ("details",)          # attributes that are JSON text in GraphML/GEXF/DOT
_GRAPH_ENCODED = ("config",)


def exported(d) -> StepGraph:
    """The graph with exportable attributes only: no Python objects, no ``None``, payloads JSON-native."""
    g = StepGraph(symcute="derivation", version=VERSION, title=d.title, config=_jsonable(d.config))
    for n, data in d.graph.nodes(data=True):
        attrs = {k: v for k, v in data.items() if k not in MEMORY_ONLY and v is not None}
        if "details" in attrs:
            attrs["details"] = _jsonable(attrs["details"])
        g.add_node(n, **attrs)
    for u, v, data in d.graph.edges(data=True):
        g.add_edge(u, v, **data)
    return g


def to_document(d) -> dict:
    """networkx's ``node_link_data(g, edges="edges")`` of the exported graph."""
    return node_link_data(exported(d))


def to_json(d) -> str:
    return json.dumps(to_document(d), sort_keys=True, indent=1)


def _flat_networkx(d):
    """A networkx DiGraph whose attributes are all str/int/bool (what GraphML, GEXF and DOT can hold)."""
    import networkx as nx
    g = exported(d)
    out = nx.DiGraph()
    for k, v in g.graph.items():
        out.graph[k] = json.dumps(v, sort_keys=True) if k in _GRAPH_ENCODED else v
    for n, data in g.nodes(data=True):
        out.add_node(n, **{k: json.dumps(v, sort_keys=True) if k in _XML_ENCODED else v for k, v in data.items()})
    for u, v, data in g.edges(data=True):
        out.add_edge(u, v, **data)
    return out


def _write(text: str, path) -> str:
    if path is not None:
        from .. import files
        files.write(path, text)
    return text


def to_graphml(d, path=None) -> str:
    import networkx as nx
    return _write("\n".join(nx.generate_graphml(_flat_networkx(d))) + "\n", path)


def to_gexf(d, path=None) -> str:
    import networkx as nx
    return _write("\n".join(nx.generate_gexf(_flat_networkx(d))) + "\n", path)


def _pydot_installed() -> bool:
    import importlib.util
    import sys
    if "pydot" in sys.modules:       # already imported, or blocked (None) as a test does
        return sys.modules["pydot"] is not None
    return importlib.util.find_spec("pydot") is not None


def to_dot(d, path=None) -> str:
    # pydot is the optional `dot` extra, not a runtime dependency: networkx's to_pydot imports it,
    # so only its presence is checked here (a clear error instead of networkx's ImportError)
    if not _pydot_installed():
        raise SymcuteError("DOT output needs the Python package pydot, which is not installed "
                           "(pip install pydot); GraphML and JSON need nothing more")
    import networkx as nx
    g = _flat_networkx(d)
    quoted = nx.DiGraph()
    quoted.graph.update({k: _dot_quote(v) for k, v in g.graph.items()})
    for n, data in g.nodes(data=True):
        quoted.add_node(_dot_quote(n), **{k: _dot_quote(v) for k, v in data.items()})
    for u, v, data in g.edges(data=True):
        quoted.add_edge(_dot_quote(u), _dot_quote(v), **{k: _dot_quote(x) for k, x in data.items()})
    return _write(nx.nx_pydot.to_pydot(quoted).to_string(), path)


def _dot_quote(x) -> str:
    # DOT ids with ':' (CuTe's notation) or quotes must be quoted strings; networkx's to_pydot refuses them otherwise
    text = str(x)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# --- readers ---------------------------------------------------------------------------------------

def read_json(cls, text, source: str):
    from .. import jsonread
    from ..core import budget
    from .schema import DERIVATION_SCHEMA
    # reading values and re-checking steps runs what an untrusted document asks for: metered
    with budget.limited():
        try:
            return _build(cls, jsonread.read(text, DERIVATION_SCHEMA, source), source)
        except ValueError as e:  # str() of a value past Python's digit limit, while re-checking
            raise SymcuteError(f"{source}: a value of the document cannot be printed ({e})") from None


_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


def read_graphml(cls, text, source: str):
    """GraphML text (str or bytes) or a path, read as :func:`read_json` reads JSON."""
    from .. import jsonread
    from ..core import budget
    from .schema import DERIVATION_SCHEMA
    data = _graphml_bytes(text, source)
    if len(data) > jsonread.MAX_JSON_CHARS:
        raise SymcuteError(f"{source}: {len(data)} bytes, more than the {jsonread.MAX_JSON_CHARS} a document may have")
    if _DTD.search(data):   # entities are how XML expands a short file into a huge one: GraphML needs none
        raise SymcuteError(f"{source}: a DTD or entity declaration; GraphML from symcute has none")
    import networkx as nx
    from xml.etree.ElementTree import ParseError
    try:
        g = nx.read_graphml(io.BytesIO(data), node_type=str, force_multigraph=False)
    except (ParseError, nx.NetworkXError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise SymcuteError(f"{source}: not GraphML of a derivation ({e})") from None
    if not g.is_directed() or g.is_multigraph():
        raise SymcuteError(f"{source}: a derivation is a simple directed graph")
    graph = dict(g.graph)
    for k in _GRAPH_ENCODED:
        if isinstance(graph.get(k), str):
            graph[k] = jsonread.loads(graph[k], f"{source}: graph attribute {k}")
    nodes = []
    for n, attrs in g.nodes(data=True):
        attrs = dict(attrs)
        for k in _XML_ENCODED:
            if isinstance(attrs.get(k), str):
                attrs[k] = jsonread.loads(attrs[k], f"{source}: node {n!r} attribute {k}")
        nodes.append({**attrs, "id": n})
    edges = [{**attrs, "source": u, "target": v} for u, v, attrs in g.edges(data=True)]
    doc = {"directed": True, "multigraph": False, "graph": graph, "nodes": nodes, "edges": edges}
    with budget.limited():
        try:
            return _build(cls, jsonread.checked(doc, DERIVATION_SCHEMA, source), source)
        except ValueError as e:
            raise SymcuteError(f"{source}: a value of the document cannot be printed ({e})") from None


def _graphml_bytes(text, source: str) -> bytes:
    if isinstance(text, bytes):
        return text
    if isinstance(text, str) and text.lstrip().startswith("<"):
        return text.encode("utf-8")
    from .. import files
    return files.read(text, source, limit=_limit())   # regular files only (no FIFO, /dev/zero, /proc)


def _limit() -> int:
    from .. import jsonread
    return jsonread.MAX_JSON_CHARS


def _build(cls, doc: dict, source: str):
    """The derivation of a validated node-link document: graph rules checked, values read, steps re-checked."""
    meta = doc["graph"]
    d = cls(meta.get("title", ""))
    d.config = dict(meta.get("config", {}))   # not **config: a key "title" or "self" is data, not an argument
    check_graph(doc, source)
    try:
        d.graph = node_link_graph(doc)
    except (KeyError, TypeError, ValueError) as e:
        raise SymcuteError(f"{source}: malformed graph: {e}") from None
    d.graph.graph = {"title": d.title}
    for k, node in enumerate(doc["nodes"]):
        data = d.graph.nodes[node["id"]]
        if data["role"] == "value":
            try:
                data["obj"] = from_description(data["kind"], data["text"])
            except SymcuteError as e:
                raise SymcuteError(f"{source}: at $.nodes[{k}].text: {e}") from None
        else:
            data.setdefault("parent", None)
            data.setdefault("error", None)
    d._next = 1 + max((node["order"] for node in doc["nodes"]), default=-1)
    d.imported = True  # read from a file: a report that cannot read it says so (report.markdown)
    from .recheck import recheck
    d.rechecked = recheck(d, source)
    return d


def check_graph(doc: dict, source: str) -> None:
    """The rules of a derivation graph, on a schema-valid document (a SymcuteError naming the first broken one).

    Unique node ids; edges between known nodes, ``value -> step`` or
    ``step -> value``; an output node ``s<n>.0`` has exactly one producer, its
    step ``s<n>`` (``producer`` says so), an input node none; a step has at
    most one output and ``order`` ``n``; every ``value -> step`` edge runs
    from a smaller ``order`` to a larger one (so the graph is acyclic); a
    step's citation is the rule catalog's; a step's parent is a step, and so
    is the step an input was made ``within`` (a later one).
    """
    nodes = {}
    for k, node in enumerate(doc["nodes"]):
        if node["id"] in nodes:
            raise SymcuteError(f"{source}: at $.nodes[{k}].id: node id {node['id']!r} is not unique")
        nodes[node["id"]] = node
    producers: dict = {}
    outputs: dict = {}
    for k, e in enumerate(doc["edges"]):
        u, v = e["source"], e["target"]
        for end in (u, v):
            if end not in nodes:
                raise SymcuteError(f"{source}: at $.edges[{k}]: {end!r} is no node of the graph")
        ru, rv = nodes[u]["role"], nodes[v]["role"]
        if ru == rv:
            raise SymcuteError(f"{source}: at $.edges[{k}]: an edge {u} -> {v} joins two {ru} nodes")
        if ru == "step":
            producers.setdefault(v, []).append(u)
            outputs.setdefault(u, []).append(v)
            if e["arg"] != "result":
                raise SymcuteError(f"{source}: at $.edges[{k}]: a step's output edge has arg 'result', not {e['arg']!r}")
        elif not nodes[u]["order"] < nodes[v]["order"]:
            raise SymcuteError(f"{source}: at $.edges[{k}]: value {u} (order {nodes[u]['order']}) cannot feed "
                               f"step {v} (order {nodes[v]['order']}): every input exists before its step")
    for n, node in nodes.items():
        if node["role"] == "step":
            if node["order"] != int(n[1:]):
                raise SymcuteError(f"{source}: step {n} has order {node['order']}, not {n[1:]}")
            if len(outputs.get(n, ())) > 1:
                raise SymcuteError(f"{source}: step {n} has {len(outputs[n])} outputs; a step has at most one")
            expected = citation_of(rule_for(node["rule"]))
            for key, value in expected.items():
                if node.get(key) != value:
                    raise SymcuteError(f"{source}: step {n} ({node['rule']}) cites {key} {node.get(key)!r}; "
                                       f"the rule catalog has {value!r}")
            parent = node.get("parent")
            if parent is not None and nodes.get(parent, {}).get("role") != "step":
                raise SymcuteError(f"{source}: step {n}: its parent {parent!r} is no step of the graph")
            continue
        made_by = producers.get(n, [])
        if node["origin"] == "input":
            if made_by or not n.startswith("in"):
                raise SymcuteError(f"{source}: value {n} is an input, yet " +
                                   (f"step {made_by[0]} produces it" if made_by else "its id is not in<n>"))
            within = node.get("within")
            if within is not None and not (nodes.get(within, {}).get("role") == "step"
                                           and nodes[within]["order"] > node["order"]):
                raise SymcuteError(f"{source}: value {n} was made within {within!r}, which is no later step")
        else:
            step = n.rsplit(".", 1)[0]
            if made_by != [step] or node.get("producer") != step or node.get("index") != 0 \
                    or nodes[step]["order"] != node["order"]:
                raise SymcuteError(f"{source}: value {n} must be the output of exactly one step, {step} "
                                   f"(producer, index 0, the step's order); the document has {made_by or 'none'}")
