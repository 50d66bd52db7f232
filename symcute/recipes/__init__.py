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

from .bank import BANK_SEED, derive_bank
from .catalog import derive_catalog
from .retile import SEED, derive_retile
from .steps import (
    ENUMERATE_LIMIT, add_evaluation, add_formula, add_proof, add_table, coordinate_terms, cute,
    distinct_values, image, last_node, mode_terms,
)
from .swizzle import derive_swizzle
from .tv import derive_tv, derive_tv_copy

__all__ = ["SEED", "derive_retile", "BANK_SEED", "derive_bank", "derive_tv", "derive_tv_copy", "derive_catalog", "derive_gmem", "derive_swizzle",
           "ENUMERATE_LIMIT",
           "add_evaluation", "add_formula", "add_proof", "add_table", "coordinate_terms", "cute",
           "distinct_values", "image", "last_node", "mode_terms"]


def __getattr__(name: str):
    # the gmem recipe works over SymPy parameters: loaded on first use, so that the other recipes
    # (and a cold `symcute derive`) do not import SymPy
    if name == "derive_gmem":
        from .gmem import derive_gmem
        return derive_gmem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
