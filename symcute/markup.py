"""Markdown building blocks with escaping: text from users and from values never becomes markup.

A leaf module (it imports nothing of symcute), so every layer that writes Markdown -- the
report, a Table of the symbolic layer, the hardware-check report of the atoms layer -- escapes
the same way.

Everything a derivation holds (sub-axis names, atom names, layout text, a
user's expression) is inserted through :func:`esc` (prose), :func:`code`
(inline code) or :func:`block` (fenced code), so a name such as
``*x*`` or ``<script>`` prints as itself.  Templates carry the document's
own markup; their arguments are escaped by the caller.
"""

from __future__ import annotations

import re

_INLINE = re.compile(r"([\\`*_\[\]|~])")        # emphasis, code, links, tables, strikethrough
_NEWLINE = re.compile(r"\r\n|\r|\n")                # CommonMark's line endings: \r alone ends a line too
_LINE_START = re.compile(r"^(\s*)([#>+\-=]|\d+[.)])")   # block constructs, were the text to start a line


def esc(text) -> str:
    """Prose-safe text: inline Markdown punctuation backslash-escaped, ``<`` and ``&`` as entities.

    Line breaks become spaces, and a leading ``#``, ``>``, ``-``, ``+``, ``=`` or
    ``1.`` is escaped, so the text can neither open a block nor a tag.
    """
    s = str(text).replace("&", "&amp;").replace("<", "&lt;")
    s = _NEWLINE.sub(" ", s)
    s = _INLINE.sub(r"\\\1", s)
    return _LINE_START.sub(_escape_start, s)


def _escape_start(m) -> str:
    mark = m.group(2)
    if mark[0].isdigit():           # "1." opens a list; "1\." does not
        return m.group(1) + mark[:-1] + "\\" + mark[-1]
    return m.group(1) + "\\" + mark


def code(text, cell: bool = False) -> str:
    """Inline code; the fence is longer than any run of backticks inside.  ``cell``: inside a table."""
    s = _NEWLINE.sub(" ", str(text))
    runs = [len(m) for m in re.findall(r"`+", s)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip() else ""
    out = f"{fence}{pad}{s}{pad}{fence}"
    return out.replace("|", "\\|") if cell else out


def block(text, lang: str = "") -> str:
    """A fenced code block whose fence no line of ``text`` can close."""
    s = str(text)
    runs = [len(m) for m in re.findall(r"`{3,}", s)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    lang = lang if re.fullmatch(r"[A-Za-z0-9_+-]*", lang) else ""
    return f"{fence}{lang}\n{s}\n{fence}"


def cell(x) -> str:
    """A table cell: escaped text with ``|`` escaped too (already-built Markdown passes through :class:`Raw`)."""
    if isinstance(x, Raw):
        # GFM splits a row at every unescaped |, code spans included: a label `a|b` would add a cell
        return _PIPE.sub(r"\\|", _NEWLINE.sub(" ", x.text))
    return esc(x)


_PIPE = re.compile(r"(?<!\\)\|")


class Raw:
    """Markdown that is already safe (built with :func:`code`, :func:`esc` or a template)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text


def table(header, rows, align=None) -> str:
    """A GitHub-flavoured Markdown table; cells are escaped unless they are :class:`Raw`."""
    head = "| " + " | ".join(cell(h) for h in header) + " |"
    if align is None:
        align = ["---"] * len(header)
    sep = "|" + "|".join(align) + "|"
    body = ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join([head, sep] + body)


def heading(level: int, text: str) -> str:
    """A heading; ``text`` is Markdown already (escape its arguments before)."""
    return "#" * level + " " + text


def join(parts) -> str:
    """Paragraphs separated by one blank line; empty parts dropped; one trailing newline."""
    return "\n\n".join(p.strip("\n") for p in parts if p and p.strip()) + "\n"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal(text) -> str:
    """``text`` safe for a terminal: control characters (ESC, BEL, backspace, C1) as ``\\xNN`` escapes.

    Tabs and newlines stay; everything a user typed (atom names, error strings) prints as itself
    and cannot move the cursor, recolour, retitle or clear the terminal.
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))
