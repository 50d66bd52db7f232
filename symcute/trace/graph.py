"""The derivation's directed graph, without importing networkx (its import is most of a cold ``symcute derive``).

:class:`StepGraph` keeps nodes and edges with attribute dicts in insertion
order and answers the part of networkx's ``DiGraph`` interface derivations use
(``nodes[n]``, ``nodes(data=True)``, ``edges[u, v]``, ``edges(data=True)``,
``predecessors``, ``successors``, ``add_node``, ``add_edge``, ``copy``,
``number_of_nodes``, ``graph``).  For graph algorithms, :meth:`to_networkx`
builds the networkx ``DiGraph`` (networkx's ``readwrite`` idea: export apart
from building); :func:`node_link_data` / :func:`node_link_graph` read and
write networkx's node-link JSON format, so documents are unchanged.
"""

from __future__ import annotations


class _Nodes:
    __slots__ = ("_g",)

    def __init__(self, g: "StepGraph"):
        self._g = g

    def __getitem__(self, n) -> dict:
        return self._g._node[n]

    def __call__(self, data: bool = False):
        return iter(self._g._node.items()) if data else iter(self._g._node)

    def __iter__(self):
        return iter(self._g._node)

    def __len__(self) -> int:
        return len(self._g._node)

    def __contains__(self, n) -> bool:
        return n in self._g._node


class _Edges:
    __slots__ = ("_g",)

    def __init__(self, g: "StepGraph"):
        self._g = g

    def __getitem__(self, uv) -> dict:
        u, v = uv
        return self._g._succ[u][v]

    def __call__(self, data: bool = False):
        succ = self._g._succ
        if data:
            return ((u, v, d) for u, nbrs in succ.items() for v, d in nbrs.items())
        return ((u, v) for u, nbrs in succ.items() for v in nbrs)

    def __iter__(self):
        return self()

    def __len__(self) -> int:
        return sum(len(nbrs) for nbrs in self._g._succ.values())


class StepGraph:
    """A directed graph of values and steps with attribute dicts (the subset of networkx's DiGraph a derivation uses)."""

    def __init__(self, **graph_attrs):
        self.graph: dict = dict(graph_attrs)
        self._node: dict = {}
        self._succ: dict = {}
        self._pred: dict = {}

    @property
    def nodes(self) -> _Nodes:
        return _Nodes(self)

    @property
    def edges(self) -> _Edges:
        return _Edges(self)

    def add_node(self, n, **attrs) -> None:
        if n not in self._node:
            self._node[n] = {}
            self._succ[n] = {}
            self._pred[n] = {}
        self._node[n].update(attrs)

    def add_edge(self, u, v, **attrs) -> None:
        self.add_node(u)
        self.add_node(v)
        data = self._succ[u].setdefault(v, {})
        data.update(attrs)
        self._pred[v][u] = data

    def predecessors(self, n):
        return iter(self._pred[n])

    def successors(self, n):
        return iter(self._succ[n])

    def number_of_nodes(self) -> int:
        return len(self._node)

    def copy(self) -> "StepGraph":
        """A new graph with copies of the attribute dicts (the values in them are shared), as networkx's copy."""
        g = StepGraph(**self.graph)
        for n, d in self._node.items():
            g.add_node(n, **d)
        for u, v, d in self.edges(data=True):
            g.add_edge(u, v, **d)
        return g

    def to_networkx(self):
        """The same graph as a ``networkx.DiGraph`` (imports networkx)."""
        import networkx as nx
        g = nx.DiGraph(**self.graph)
        for n, d in self._node.items():
            g.add_node(n, **d)
        for u, v, d in self.edges(data=True):
            g.add_edge(u, v, **d)
        return g


def node_link_data(g: StepGraph) -> dict:
    """networkx's ``node_link_data(g, edges="edges")`` of ``g``."""
    return {"directed": True, "multigraph": False, "graph": dict(g.graph),
            "nodes": [{**d, "id": n} for n, d in g.nodes(data=True)],
            "edges": [{**d, "source": u, "target": v} for u, v, d in g.edges(data=True)]}


def node_link_graph(data: dict) -> StepGraph:
    """networkx's ``node_link_graph(data, edges="edges")``: the graph of node-link data (KeyError where a key is missing)."""
    g = StepGraph(**data.get("graph", {}))
    for node in data["nodes"]:
        g.add_node(node["id"], **{k: v for k, v in node.items() if k != "id"})
    for edge in data["edges"]:
        g.add_edge(edge["source"], edge["target"],
                   **{k: v for k, v in edge.items() if k not in ("source", "target")})
    return g
