"""Table: a small immutable grid of cells with plain-text and Markdown printing.

The seed's tables (sub-axis / shape / stride / TV weight; the per-sub-axis
``ceil_div`` arithmetic of ``upcast``) are values of this type, so that
formulas, CLI output and reports print them the same way.
"""

from __future__ import annotations

from .. import markup


class Table:
    """``header`` (column labels) and ``rows`` (lists of cells, any printable value)."""

    __slots__ = ("header", "rows", "title")

    def __init__(self, header, rows, title: str | None = None):
        # a label stays the str it is (the prover's columns are str-valued enum members: typed, same text)
        object.__setattr__(self, "header", tuple(h if isinstance(h, str) else str(h) for h in header))
        object.__setattr__(self, "rows", tuple(tuple(r) for r in rows))
        object.__setattr__(self, "title", title)

    def __setattr__(self, name, value):
        raise AttributeError("Table is immutable")

    def __eq__(self, other) -> bool:
        return isinstance(other, Table) and (self.header, self.rows, self.title) == (other.header, other.rows,
                                                                                    other.title)

    def __hash__(self):
        return hash((self.header, self.rows))

    def column(self, label: str) -> tuple:
        k = self.header.index(label)
        return tuple(r[k] for r in self.rows)

    def row(self, label) -> tuple:
        """The row whose first cell is ``label`` (for tables whose rows are labelled)."""
        for r in self.rows:
            if r and str(r[0]) == str(label):
                return r
        raise KeyError(label)

    def __str__(self) -> str:
        cells = [list(self.header)] + [[str(c) for c in r] for r in self.rows]
        widths = [max(_width(row[k]) for row in cells if k < len(row)) for k in range(len(self.header))]
        lines = []
        if self.title:
            lines.append(self.title)
        for row in cells:
            parts = []
            for k, c in enumerate(row):
                pad = " " * (widths[k] - _width(c))
                parts.append(c + pad if k == 0 else pad + c)
            lines.append("  ".join(parts).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        head = ", ".join(str(h) for h in self.header[:6]) + (", ..." if len(self.header) > 6 else "")
        title = f"{self.title!r}, " if self.title else ""
        return f"Table({title}[{head}], {len(self.rows)} rows)"

    def to_markdown(self) -> str:
        """GitHub-flavoured Markdown; names in the header and cells are escaped (a name is never markup)."""
        lines = []
        if self.title:
            lines += [f"**{markup.esc(self.title)}**", ""]
        lines.append(markup.table(self.header, self.rows))
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"title": self.title, "header": list(self.header), "rows": [[_jsonable(c) for c in r]
                                                                            for r in self.rows]}

    @staticmethod
    def from_dict(d: dict) -> "Table":
        """Inverse of :meth:`to_dict`; rows must have one cell per column (a table read from a file)."""
        header, rows, title = d["header"], d["rows"], d.get("title")
        if not isinstance(header, list) or not isinstance(rows, list) or not all(
                isinstance(r, list) and len(r) == len(header) for r in rows) or not isinstance(title, (str, type(None))):
            from ..errors import SymcuteError
            raise SymcuteError(f"table: malformed table JSON (rows of {len(header) if isinstance(header, list) else '?'}"
                               f" cells under a header, and a text title, expected)")
        return Table(header, rows, title)


def _jsonable(c):
    return c if isinstance(c, (int, str)) and not isinstance(c, bool) else str(c)


def _width(text: str) -> int:
    """Display width: CJK characters take two columns (the seed's tables are bilingual)."""
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
