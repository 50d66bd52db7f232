"""symcute.trace: derivations (a networkx graph of recorded steps) and the rule catalog.

The heavier modules (networkx) load on first attribute access, so that importing
``symcute.trace`` for a name costs nothing until a derivation is built.
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
