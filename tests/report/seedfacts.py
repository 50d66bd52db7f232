"""Reading a generated Markdown proof back: plain text, tables, code blocks (for the fact tests)."""

import re


def plain(md: str) -> str:
    """The document without Markdown escapes, code fences' backticks, bold markers or entities."""
    s = re.sub(r"\\([\\`*_\[\]|~#>+\-=.()!])", r"\1", md)
    s = s.replace("`", "").replace("**", "").replace("&lt;", "<").replace("&amp;", "&")
    return s


def squash(text: str) -> str:
    """Whitespace removed (so 'F(t=64, v=4) = 256' and 'F(t=64,v=4)=256' compare equal)."""
    return re.sub(r"\s+", "", text)


def tables(md: str) -> list:
    """Every table as a list of rows (cells as plain text, header first, separator dropped)."""
    out, cur = [], []
    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(re.fullmatch(r"-{3,}", c) for c in cells):
                cur.append([plain(c) for c in cells])
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def table_with_header(md: str, first: str, names: list):
    """The table whose header is ``first`` followed by ``names``."""
    for t in tables(md):
        if t[0][0] == first and t[0][1:] == names:
            return t
    raise AssertionError(f"no table with header {first} | {' | '.join(names)}")


def row(table, label):
    for r in table:
        if r[0] == label:
            return r[1:]
    raise AssertionError(f"no row {label!r} in {table[0]}")


def has(md: str, text: str) -> bool:
    return squash(text) in squash(plain(md))
