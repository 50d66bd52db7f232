"""Template tables: every sentence of a report, per language (``en``, ``zh``).

A renderer never writes prose itself: it calls ``Text(lang)(key, **fields)``
with fields that are already Markdown-safe (built with ``symcute.markup``).
"""

from __future__ import annotations

from ...errors import SymcuteError

LANGUAGES = ("en", "zh")


def _load(lang: str) -> dict:
    if lang == "en":
        from .en import TEXT
    elif lang == "zh":
        from .zh import TEXT
    else:
        raise SymcuteError(f"report language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return TEXT


class Text:
    """``t(key, **fields)``: the template ``key`` of the language, filled in."""

    def __init__(self, lang: str):
        self.lang = lang
        self.table = _load(lang)

    def __call__(self, name: str, /, **fields) -> str:
        try:
            template = self.table[name]
        except KeyError:
            raise SymcuteError(f"report: no {self.lang} template {name!r}") from None
        return template.format(**fields)

    def has(self, key: str) -> bool:
        return key in self.table

    def rule(self, rule_id: str) -> str:
        """The rule catalog's statement of ``rule_id`` in words (English where the language has none; a rule
        without any reads "CuTe's <id>.")."""
        from .rules_en import STATEMENTS as EN
        own = EN if self.lang == "en" else _rules(self.lang)
        return own.get(rule_id) or EN.get(rule_id) or f"CuTe's {rule_id}."


def _rules(lang: str) -> dict:
    from .rules_zh import STATEMENTS
    return STATEMENTS
