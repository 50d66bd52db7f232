"""A recipe's derivation made again from its configuration: how a reader re-checks a whole document.

Every recipe stores the arguments of its call in ``Derivation.config``; a
derivation read from JSON that names a recipe is derived again from them and
must be the same document, node for node (``trace.recheck``).  That re-checks
everything a report prints at once: values, formulas and their sub-axis
tables, verdicts with their domains, certificate rows and counterexamples,
worked examples, tables of facts, labels, and which steps are present.
"""

from __future__ import annotations

from ..errors import SymcuteError


def _tuple(x):
    return tuple(x) if isinstance(x, list) else x


def _retile(c):
    from .retile import derive_retile
    return derive_retile(c["mma"], _tuple(c["atom_layout"]), c["operand"], c["copy_atom"], c["value_type"],
                         c["frg_values"], c["contrast"], _tuple(c["permutation"]))


def _tv(c):
    from .tv import derive_tv, derive_tv_copy
    if c.get("copy"):
        return derive_tv_copy(c["mma"], c["tmem"], c["value_type"], tuple(c["operands"]))
    return derive_tv(c["mma"], _tuple(c["atom_layout"]), tuple(c["operands"]))


def _gmem(c):
    from .gmem import derive_gmem
    return derive_gmem(c["mma"], _tuple(c["atom_layout"]), _tuple(c["tile"]), c["multiple_of"])


def _bank(c):
    from .bank import derive_bank
    return derive_bank(c["mma"], _tuple(c["atom_layout"]), c["operand"], c["copy_atom"], c["value_type"],
                       c["smem"], c["permutations"], side=c["side"])


def _swizzle(c):
    from .swizzle import derive_swizzle
    return derive_swizzle(c["layout"], tuple(c["names"]), c["element_bits"], c["column"])


def _catalog(c):
    from .catalog import derive_catalog
    return derive_catalog(c["filter"], c["arch"])


RECIPES = {"retile-d": _retile, "tv": _tv, "gmem": _gmem, "bank": _bank, "swizzle": _swizzle, "catalog": _catalog}


def register(recipe: str, derive) -> None:
    """A recipe of a layer above this one (``derive expr``): ``derive(config)`` makes its derivation."""
    RECIPES[recipe] = derive


def rederive(config: dict):
    """The derivation the recipe ``config["recipe"]`` makes from ``config``; ``None`` for no known recipe.

    A configuration the recipe refuses (a missing or edited argument) is a SymcuteError naming it.
    """
    derive = RECIPES.get(config.get("recipe"))
    if derive is None:
        return None
    try:
        return derive(config)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise SymcuteError(f"its configuration is not one the {config.get('recipe')} recipe writes "
                           f"({type(e).__name__}: {e})") from None
