"""symcute.expr: the expression language of ``symcute calc``, ``formula``, ``prove`` and ``derive expr``.

It sits above every layer (core, atoms, symbolic, recipes, report) and below
the CLI: the layers know nothing of it; this package registers their functions
under CuTe's names in one explicit table (:data:`registry.REGISTRY`).

- :mod:`.language`: the grammar, its reader and evaluator (no text ever reaches an evaluator);
- :mod:`.registry`: the table of functions, ``Name{}`` values and methods;
- :mod:`.core_functions`, :mod:`.atom_functions`, :mod:`.symbolic_functions`,
  :mod:`.picture_functions`: each layer's registrations, loaded in this order
  (later ones wrap earlier ones: ``size`` of a TiledMMA, ``right_inverse`` of a Formula);
- :mod:`.derive`: :func:`derive_expr`, an expression evaluated under a derivation.

The name is ``expr`` (not ``lang``): ``--lang`` means the report's language (en, zh).
"""

from __future__ import annotations

from . import core_functions, atom_functions, symbolic_functions, picture_functions  # noqa: F401  (registrations)
from .language import Expr, TypeName, functions, parse_expr_text
from .language import evaluate as _evaluate
from .registry import REGISTRY, Registry


def evaluate(text: str, variables: dict | None = None):
    """Evaluate an expression; ``variables`` maps names to values or to expression text."""
    return _evaluate(text, variables)


def __getattr__(name: str):
    # derive_expr builds a derivation (networkx): loaded on first use, so that `calc` does not pay for it
    if name == "derive_expr":
        from .derive import derive_expr
        return derive_expr
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Expr", "TypeName", "REGISTRY", "Registry", "derive_expr", "evaluate", "functions", "parse_expr_text"]
