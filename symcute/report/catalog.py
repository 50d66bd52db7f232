"""The report of the catalog recipe: right_inverse / left_inverse facts of every catalogued MMA atom."""

from __future__ import annotations

from .. import markup as md
from ..atoms.operand import OPERANDS
from ..markup import Raw, code
from ..recipes.records_catalog import Catalog
from ..symbolic.vocabulary import Method, Verdict

_MARK = {Verdict.PROVED: "✓", Verdict.REFUTED: "✗", Verdict.UNKNOWN: "?"}


def render(view, t) -> str:
    tab = Catalog.from_details(view.table("catalog"))
    rows, totals = [], {"layouts": 0, "proved": 0, "refuted": 0, "unknown": 0, "injective": 0, "broadcast": 0,
                        "missing": 0}
    for r in tab.rows:
        cells = []
        for op in OPERANDS:
            c = r.cells[op]
            if c is None:
                totals["missing"] += 1
                cells.append(Raw(t("cat_missing")))
                continue
            totals["layouts"] += 1
            totals[c.right.value] += 1
            text = t("cat_cell", size=c.size, rsize=c.rsize) + " " + _MARK[c.right]
            if c.right_method is Method.EXHAUSTIVE:
                text += " (ex)"
            if c.left is Verdict.PROVED:
                totals["injective"] += 1
                text += " ⇄"
            if c.broadcast:
                totals["broadcast"] += 1
                text += " " + code(",".join(f"{b.name}:{b.extent}" for b in c.broadcast), cell=True)
            cells.append(Raw(text))
        rows.append([Raw(code(r.atom, cell=True)), r.arch] + cells)
    parts = [md.heading(1, t("cat_title")),
             t("cat_intro", count=code(tab.count), version=code(tab.version)), t("cat_legend"),
             t("cat_totals", missing_why=t("cat_missing"), **{k: code(v) for k, v in totals.items()}),
             md.table([t("hdr_atom"), t("hdr_arch"), "A", "B", "C"], rows)]
    return md.join(parts)
