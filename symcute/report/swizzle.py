"""The report of the swizzle recipe: a swizzled smem tile's formula, bit table, bijection proof, bank collisions."""

from __future__ import annotations

from .. import markup as md
from ..markup import Raw, block, code
from ..recipes.records_memory import SwizzleBanks, SwizzleFormula
from .common import axes_table, check, sources


def render(view, t) -> str:
    f = SwizzleFormula.from_details(view.table("swizzle_formula"))
    b = SwizzleBanks.from_details(view.table("swizzle_banks"))
    names = ", ".join(a.name for a in f.axes)
    bit_names = ", ".join(f.bit_names)
    parts = [md.heading(1, t("sw_title", layout=code(f.layout))),
             t("sw_intro", layout=code(f.layout), inner=code(f.inner), swizzle=code(f.swizzle),
               names=code(names)),
             md.heading(2, t("sw_sec_formula")),
             t("sw_formula", names=code(names)), block(f.text),
             t("sw_formula_plain", plain=code(f.plain_text)),
             axes_table(t, f.axes, t("row_stride"), t("row_weight")),
             md.heading(2, t("sw_sec_bits")),
             t("sw_bits", bits=code(bit_names)),
             md.table([t("sw_hdr_offset_bit"), t("sw_hdr_xor"), t("sw_hdr_plain")],
                      [[t("sw_offset_bit", i=r.bit), Raw(code(r.xor, cell=True)), Raw(code(p.xor, cell=True))]
                       for r, p in zip(f.bits, f.plain_bits)]),
             md.heading(2, t("sw_sec_proof"))]
    for step, proof in view.proofs():
        parts.append(check(t, step, proof))
    sw, pl = b.swizzled, b.plain
    parts += [md.heading(2, t("sw_sec_banks")),
              t("sw_banks", bits=code(b.element_bits), column=code(b.column), row=code(f.axes[0].name)),
              md.table([t("sw_hdr_row"), t("sw_hdr_bank_sw"), t("sw_hdr_bank_plain")],
                       [[r, x, y] for r, (x, y) in enumerate(zip(sw.banks, pl.banks))]),
              t("sw_banks_plain", kernel=code(_kernel(pl.kernel)), distinct=code(pl.distinct),
                ways=code(pl.ways)),
              t("sw_banks_swizzled", kernel=code(_kernel(sw.kernel)), distinct=code(sw.distinct),
                ways=code(sw.ways), pairs=code(_pairs(sw.pairs))),
              md.heading(2, t("sec_sources")), sources(t, view)]
    return md.join(parts)


def _pairs(pairs, shown: int = 16) -> str:
    text = ", ".join(f"{p.low}~{p.high}" for p in pairs[:shown]) or "-"
    return text + (f", ... ({len(pairs)} pairs)" if len(pairs) > shown else "")


def _kernel(vectors) -> str:
    return "{" + ", ".join(" ^ ".join(v) for v in vectors) + "}" if vectors else "{0}"
