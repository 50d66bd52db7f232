"""symcute.trace: derivations (a directed graph of recorded steps, networkx's DiGraph interface) and the rule catalog.

The modules load on first attribute access; networkx itself only when a graph is
exported to it (``Derivation.graph.to_networkx()``, ``to_graphml``).
"""

__all__ = ["Derivation", "Step", "Rule", "RULES", "register_rule", "rule_for"]

_HOME = {"Derivation": "derivation", "Step": "derivation",
         "Rule": "rules", "RULES": "rules", "register_rule": "rules", "rule_for": "rules"}


def __getattr__(name):
    if name in _HOME:
        import importlib
        value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
