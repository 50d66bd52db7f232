"""symcute.report: Markdown proofs of recorded derivations, in English and Chinese.

``markdown(derivation, lang="en")`` renders the report of a recipe
(``recipes``: ``retile-d``, ``tv``, ``expr``, ``catalog``); a derivation
recorded by hand is rendered step by step.  ``print_latex``, ``print_latex_tv`` and
``print_svg`` are CuTe's pictures of layouts, TiledMMAs and TiledCopies.  The output is deterministic: the
same derivation gives the same bytes (no dates, no machine details), and a
derivation read back with ``Derivation.from_json`` gives the same document.
"""

from __future__ import annotations

from .pictures import print_latex, print_latex_tv, print_svg  # CuTe's pictures, byte for byte

__all__ = ["markdown", "print_latex", "print_latex_tv", "print_svg", "recheck_note"]


def markdown(derivation, lang: str = "en") -> str:
    """The Markdown proof of ``derivation`` in ``lang`` ("en" or "zh")."""
    from ..errors import SymcuteError
    from .templates import Text
    from .view import View
    t = Text(lang)
    if not hasattr(derivation, "steps") or not hasattr(derivation, "config"):
        raise SymcuteError(f"markdown: expected a symcute Derivation, got {type(derivation).__name__}")
    recipe = derivation.config.get("recipe")
    if recipe == "retile-d":
        from .retile import render
    elif recipe == "tv":
        from .tv import render
    elif recipe == "catalog":
        from .catalog import render
    elif recipe == "gmem":
        from .gmem import render
    elif recipe == "swizzle":
        from .swizzle import render
    elif recipe == "bank":
        from .bank import render
    else:
        from .generic import render
    _rederive_on_render(derivation)
    try:
        text = render(View(derivation), t)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        if not getattr(derivation, "imported", False):
            raise  # a derivation recorded here always renders: this is a bug, not bad input
        raise SymcuteError(f"markdown: the derivation read from JSON lacks what its {recipe or 'steps'} record "
                           f"holds ({type(e).__name__}: {e})") from None
    return text + recheck_note(derivation, lang)


def recheck_note(derivation, lang: str = "en") -> str:
    """For a derivation read from JSON, the closing note of its report: what was re-checked, and what not.

    ``""`` for a derivation recorded in this process (its values come from core).
    """
    from .templates import Text
    t = Text(lang)
    checked = getattr(derivation, "rechecked", None)
    if not getattr(derivation, "imported", False) or not checked:
        return ""
    from .. import markup
    if checked.get("rederived"):
        return "\n" + t("recheck_rederived", steps=checked["rederived"], values=checked["values"],
                         formulas=checked["formulas"], verdicts=checked["verdicts"]) + "\n"
    rules = sorted({rule for _, rule, _ in checked["not_rechecked"]})
    note = t("recheck_note", values=checked["values"], formulas=checked["formulas"], verdicts=checked["verdicts"])
    if rules:
        note += " " + t("recheck_missing", rules=", ".join(markup.code(r) for r in rules))
    return "\n" + note + "\n"


def _rederive_on_render(derivation) -> None:
    """An imported derivation of a recipe that was not loaded when it was read is derived again now.

    ``Derivation.from_json`` re-derives a recipe's document when its recipe is
    loaded (``trace.recheck``); rendering loads the recipes, so a document read
    before they were is compared here, before anything of it is printed.
    """
    checked = getattr(derivation, "rechecked", None)
    if not getattr(derivation, "imported", False) or not isinstance(checked, dict) or checked.get("rederived"):
        return
    from .. import recipes  # noqa: F401  (registers the recipes' re-derivation)
    from ..trace.recheck import rederive_and_compare
    again = rederive_and_compare(derivation, "derivation JSON")
    if again is not None:
        derivation.rechecked = again
