"""The expression language with every layer's functions registered (for the CLI and derive).

``core.expr`` holds the reader and the registry; importing this module loads
the registrations of each layer that is installed.
"""

from __future__ import annotations

import importlib

from .core import expr_core  # noqa: F401  (registers the layout algebra)
from .core.expr import Expr, evaluate as _evaluate, functions, parse_expr_text

for _layer in ("symcute.atoms.expr_atoms", "symcute.symbolic.expr_symbolic", "symcute.report.pictures"):
    try:
        importlib.import_module(_layer)
    except ModuleNotFoundError as e:
        if e.name != _layer:
            raise


def evaluate(text: str, variables: dict | None = None):
    """Evaluate an expression; ``variables`` maps names to values or to expression text."""
    return _evaluate(text, variables)


__all__ = ["Expr", "evaluate", "functions", "parse_expr_text"]
