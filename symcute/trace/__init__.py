"""symcute.trace: derivations (a DAG of recorded steps and values, networkx's DiGraph interface) and the rule catalog.

The modules load on first attribute access; networkx itself only when a graph is
exported through it (``Derivation.graph.to_networkx()``, ``to_graphml``,
``to_gexf``, ``to_dot``; ``to_json`` needs none).  The graph's schema:
docs/architecture.md, "The derivation graph".
"""

__all__ = ["Derivation", "Step", "Citation", "Rule", "RULES", "register_rule", "rule_for"]

_HOME = {"Derivation": "derivation", "Step": "derivation", "Citation": "derivation",
         "Rule": "rules", "RULES": "rules", "register_rule": "rules", "rule_for": "rules"}


def __getattr__(name):
    if name in _HOME:
        import importlib
        value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
