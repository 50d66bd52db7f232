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
from ..atoms.operand import OPERANDS


def evaluate(text: str, variables: dict | None = None):
    """Evaluate an expression; ``variables`` maps names to values or to expression text."""
    return _evaluate(text, variables)


def __getattr__(name: str):
    # derive_expr builds a derivation (the symbolic layer, SymPy): loaded on first use, so that `calc` does not pay for it
    if name == "derive_expr":
        from .derive import derive_expr
        return derive_expr
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Expr", "TypeName", "REGISTRY", "Registry", "derive_expr", "evaluate", "functions", "parse_expr_text"]


_TV_METHODS = {"get_layoutA_TV": "A", "get_layoutB_TV": "B", "get_layoutC_TV": "C",
               "get_layoutS_TV": "S", "get_layoutD_TV": "D", "get_layout_TV": "TV"}


def default_names(text: str, variables: dict | None = None):
    """The thread/atom/value names symcute knows for an expression's result, or None.

    ``mma.get_layoutA_TV()`` (any TiledMMA or TiledCopy TV method) gets ``tv_names(mma, 'A')``:
    ``((t0,t1,wm,wn),((v0,v1,v2),...))`` instead of positional ``x0_0, ...``.
    """
    from ..atoms.names import tv_names
    from ..atoms.tiled_copy import TiledCopy
    from ..atoms.tiled_mma import TiledMMA
    tree = parse_expr_text(text).tree
    if tree[0] != "method" or tree[1] not in _TV_METHODS or tree[3]:
        return None
    target = Expr(text, tree[2]).evaluate(variables)
    op = _TV_METHODS[tree[1]]
    if isinstance(target, TiledMMA) and op in OPERANDS or isinstance(target, TiledCopy) and op in ("S", "D", "TV"):
        return tv_names(target, op)
    return None
