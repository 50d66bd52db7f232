"""Recipes: configurations derived end to end under a :class:`Derivation`, ready for a report.

A recipe builds a configuration with the atoms layer, runs CuTe's chain of
operations while a derivation records them, and adds the steps a reader needs
next to them: the named formulas (symbolic layer), the prover's checks, worked
examples and tables.  Every number a report prints is computed here (or by the
operations recorded here); the report only formats.

- :func:`derive_retile`: the seed's analysis of ``TiledCopy::retile`` (inside
  ``retile_S``/``retile_D``) for one MMA operand: ``get_layoutX_TV``,
  ``right_inverse``, ``with_shape``, ``upcast<TiledNumThr*V>``, ``retile``.
- :func:`derive_tv`: the TV layouts of a TiledMMA with their right_inverse facts
  (:func:`derive_tv_copy`: the same for a TMEM TiledCopy, ``make_tmem_copy``)
  (for atoms without an LDSM-style tiled copy, such as SM90 GMMA).
- :func:`derive_bank`: bank conflicts of a TiledCopy's shared-memory side over a smem
  layout: address and bank formulas over named sub-axes, per-phase table, witness, fix.
- :func:`derive_catalog`: right_inverse / left_inverse facts of every
  catalogued MMA atom's A/B/C TV layouts.
- :func:`derive_gmem`: a parametric (M, K) global tensor through ``local_tile``
  and ``partition_A``: every (thread, value)'s address for all M and K.
- :func:`derive_swizzle`: a swizzled smem tile: formula, bit table, GF(2)
  bijection proof, and the rows that share a bank with and without the swizzle.

``derive expr`` (any expression, step by step) is the expression language's own
recipe, :func:`symcute.expr.derive_expr`: it sits above this package because it
reads the language.

Step details are JSON-native (ints, strings, lists, dicts), so a derivation
re-imported with ``Derivation.from_json`` renders the same report.
"""

__all__ = ["SEED", "derive_retile", "BANK_SEED", "derive_bank", "derive_tv", "derive_tv_copy", "derive_catalog", "derive_gmem", "derive_swizzle",
           "ENUMERATE_LIMIT",
           "add_evaluation", "add_formula", "add_proof", "add_table", "coordinate_terms", "cute",
           "distinct_values", "image", "last_node", "mode_terms"]


# Each recipe is loaded on first use: a cold `symcute derive` (the seed's retile-d) then imports only
# what the retile recipe needs, not the memory model (bank), the catalog, the swizzle tables or SymPy
# (the gmem recipe works over SymPy parameters).
_LAZY = {
    "derive_bank": "bank", "BANK_SEED": "bank", "derive_catalog": "catalog", "derive_retile": "retile",
    "SEED": "retile", "derive_swizzle": "swizzle", "derive_tv": "tv", "derive_tv_copy": "tv",
    "derive_gmem": "gmem",
    **{name: "steps" for name in ("ENUMERATE_LIMIT", "add_evaluation", "add_formula", "add_proof", "add_table",
                                  "coordinate_terms", "cute", "distinct_values", "image", "last_node",
                                  "mode_terms")},
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


def _register_rederivation() -> None:
    # a derivation read from JSON that names a recipe is derived again and compared (trace.recheck)
    from ..trace.recheck import register_rederivation
    from .rederive import rederive
    register_rederivation(rederive)


_register_rederivation()
