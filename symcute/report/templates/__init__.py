"""Template tables: every sentence of a report, per language (``en``, ``zh``).

A renderer never writes prose itself: it calls ``Text(lang)(key, **fields)``
with fields that are already Markdown-safe (built with ``symcute.markup``).
"""

from __future__ import annotations

import string

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


    def phrase(self, phrase, field=None) -> str:
        """A prover's :class:`~symcute.symbolic.vocabulary.Phrase` (a statement, reason, condition or query)
        in words: its kind's plain-text template, escaped, with each argument filled in by ``field`` (default:
        inline code) and each nested phrase in the same language.  Text that is no phrase is escaped as is."""
        from ... import markup as md
        from ...symbolic.vocabulary import Phrase
        if not isinstance(phrase, Phrase):
            return md.esc(phrase)
        field = field or md.code
        template = _phrases(self.lang).get(phrase.kind) or _phrases("en")[phrase.kind]
        values = {k: self.phrase(v, field) if isinstance(v, Phrase) else field(str(v)) for k, v in phrase.args.items()}
        # escape the template as one text (a field is a marker meanwhile), then put the fields in
        parts = list(string.Formatter().parse(template))
        marked = "".join(text + (f"\0{k}\0" if name is not None else "") for k, (text, name, _s, _c) in enumerate(parts))
        out = md.esc(marked)
        for k, (_text, name, _s, _c) in enumerate(parts):
            if name is not None:
                out = out.replace(f"\0{k}\0", values[name], 1)
        return out


def _phrases(lang: str) -> dict:
    if lang == "zh":
        from .phrases_zh import PHRASES
    else:
        from .phrases_en import PHRASES
    return PHRASES


def _rules(lang: str) -> dict:
    from .rules_zh import STATEMENTS
    return STATEMENTS
