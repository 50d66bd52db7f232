"""The report of the bank recipe (Markdown, en/zh), its console summary, and the lanes-vs-banks picture.

Every number comes from the recipe's tables (``symcute.recipes.bank``); this
module only words and draws them.
"""

from __future__ import annotations

from .. import markup as md
from ..markup import Raw, block, code
from ..recipes.records_memory import (BankAddress, BankConfiguration, BankFix, BankPhases, BankReason, BankResult,
                                      BankWitness, SwizzleUnit)
from .common import cute, sources


def _axes(axes) -> str:
    return ", ".join(f"{n}={v}" for n, v in axes) or "-"


def _reason(t, reason) -> str:
    """A recorded reason in words: its template for a :class:`BankReason`, else the recorded text."""
    return t(reason.template) if isinstance(reason, BankReason) else reason


def render(view, t) -> str:
    c = BankConfiguration.from_details(view.table("bank_configuration"))
    a = BankAddress.from_details(view.table("bank_address"))
    ph = BankPhases.from_details(view.table("bank_phases"))
    w = BankWitness.from_details(view.table("bank_witness"))
    r = BankResult.from_details(view.table("bank_result"))
    fix = BankFix.from_details(view.table("bank_fix"))
    cfg = view.config
    parts = [md.heading(1, t("bank_title", atom=code(c.atom), op=cfg["operand"], mma=code(cfg["mma"]),
                                smem=code(c.smem))),
             t("bank_intro"),
             md.heading(2, t("bank_sec_config")),
             t("bank_config", atom=code(c.atom), ptx=code(c.ptx), header=code(c.header),
               vt=code(c.value_type), bits=c.value_bits, side=code("get_layout" + c.side + "_TV()"),
               tv=code(c.tv), names=code(cute(c.names)), threads=c.threads, warps=c.warps,
               per_warp=c.per_warp),
             t("bank_instruction", instr=code(c.instruction), bytes=c.lane_bytes, lanes=c.phase_lanes,
               phases=c.phases, active=c.active_lanes),
             md.heading(2, t("bank_sec_address"))]
    if a.formula:
        parts.append(t("bank_formula", smem=code(c.smem)))
        body = f"offset(t, v) = {a.formula}"
        if a.swizzle:
            body += f"\noffset'     = {a.swizzle}(offset)" + (t("bank_code_on_bytes")
                                                              if a.swizzle_unit is SwizzleUnit.BYTES else "")
        body += "\n" + t("bank_code_byte_address", bytes=a.bytes_per_value, offset="offset" + (
            "'" if a.swizzle and a.swizzle_unit is not SwizzleUnit.BYTES else ""))
        parts.append(block(body))
    if a.bank_bits:
        parts += [t("bank_bits"),
                  md.table([t("bank_hdr_bank_bit"), t("bank_hdr_xor")],
                           [[row.bit, Raw(code(_reason(t, row.xor), cell=True))] for row in a.bank_bits])]
    elif a.note:
        parts.append(t("bank_bits_none", why=md.esc(_reason(t, a.note))))
    parts += [md.heading(2, t("bank_sec_phases", warp=ph.warp, k=ph.instruction)),
              t("bank_phases_intro"),
              md.table([t("bank_hdr_phase"), t("bank_hdr_lanes"), t("bank_hdr_wavefronts"), t("bank_hdr_ideal"),
                        t("bank_hdr_bank"), t("bank_hdr_words")],
                       [[p.phase, f"{p.lanes[0]}-{p.lanes[1]}", p.wavefronts, p.ideal, p.bank,
                         Raw(code(" ".join(map(str, p.words[:8])) + (" ..." if len(p.words) > 8 else ""), cell=True))]
                        for p in ph.rows]),
              t("bank_lane_banks"),
              block(_lane_bank_lines(t, ph.banks, c.phase_lanes, c.active_lanes)),
              md.heading(2, t("bank_sec_witness"))]
    if r.ways > 1:
        rows = [[lane.lane, lane.thread, Raw(code(_axes(lane.axes), cell=True)), lane.byte_address, word]
                for word, lanes in zip(w.words, w.lanes) for lane in lanes]
        parts += [t("bank_witness", ways=w.ways, bank=w.bank, phase=w.phase, k=w.instruction, warp=w.warp),
                  md.table([t("bank_hdr_lane"), t("bank_hdr_thread"), t("bank_hdr_axes"), t("bank_hdr_byte"),
                            t("bank_hdr_word")], rows),
                  t("bank_witness_why", axes=code(", ".join(w.varying) or "-"))]
    else:
        parts.append(t("bank_no_witness"))
    cert = r.certificate
    parts += [md.heading(2, t("bank_sec_result")),
              t("bank_result", wave=r.wavefronts, ideal=r.ideal, ways=r.ways, conflicts=r.conflicts,
                verdict=t("bank_free") if r.conflict_free else t("bank_conflicting"),
                n=r.instructions, method=t("bank_method_" + r.method.name.lower()))]
    for key in r.notes or ():
        parts.append(t("bank_note_" + key.value))
    if cert:
        parts.append(t("bank_certificate", images=code(", ".join(map(str, cert.images))),
                       kb=cert.dim_ker_bank, kw=cert.dim_ker_word, w=cert.wavefronts))
    parts.append(md.heading(2, t("bank_sec_fix")))
    if fix.skipped:
        parts.append(t("bank_fix_skipped", why=md.esc(_reason(t, fix.skipped))))
    else:
        alts = ", ".join(f"{code(alt.swizzle)} ({alt.total})" for alt in fix.alternatives) or t("none")
        parts.append(t("bank_fix", n=fix.searched, base=code(fix.base), best=code(fix.best),
                       cost=fix.cost, ideal=fix.ideal, optimal=", ".join(code(s) for s in fix.optimal),
                       alts=alts))
        if fix.current:
            parts.append(t("bank_fix_current_ok" if fix.current_optimal else "bank_fix_current_not",
                           current=code(fix.current)))
        for reason in fix.reasons:
            parts.append("- " + t.phrase(reason))
    parts += [md.heading(2, t("sec_sources")), sources(t, view, extra=[
        (("CUDA C++ Programming Guide", "Shared Memory (cc 5.x+)"), md.esc(t("bank_src_banks"))),
        (("PTX ISA", "ldmatrix / stmatrix"), md.esc(t("bank_src_ldsm"))),
        (("Nsight Compute Profiling Guide", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared"),
         md.esc(t("bank_src_ncu")))])]
    return md.join(parts)


def _lane_bank_lines(t, banks, phase_lanes, active) -> str:
    lines = []
    for p in range(0, active, phase_lanes):
        cells = ["  -" if banks[lane] is None else f"{banks[lane]:3d}" for lane in range(p, min(p + phase_lanes, active))]
        lines.append(t("bank_code_phase_line", phase=p // phase_lanes, first=p, last=p + phase_lanes - 1,
                       cells="".join(cells)))
    return "\n".join(lines)


# --- console ----------------------------------------------------------------------------------------------

def console(result, title: str = "") -> str:
    """A few lines for ``symcute bank``: totals, method, witness in named sub-axes, vector width."""
    r = result
    out = []
    if title:
        out.append(title)
    out.append(f"instruction: {r.instruction.name} ({r.instruction.lane_bytes} B per lane address, phases of "
               f"{r.instruction.phase_lanes} lanes); {r.threads} threads = {r.warps} warps x "
               f"{r.instructions_per_warp} instructions")
    out.append(f"wavefronts: {r.wavefronts} (ideal {r.ideal_wavefronts}); worst bank multiplicity: {r.ways}-way; "
               f"conflicts: {r.conflicts}; {'conflict-free' if r.conflict_free else 'CONFLICTS'}")
    out.append(f"method: {r.method.value}")
    if r.certificate is not None:
        c = r.certificate
        out.append(f"certificate: lane-bit images {list(c.images)}: dim ker(bank) = {c.dim_ker_bank}, "
                   f"dim ker(word) = {c.dim_ker_word}: 2^{c.dim_ker_bank - c.dim_ker_word} = {c.wavefronts} "
                   f"wavefronts in the worst phase")
    w = r.witness
    if r.ways > 1:
        out.append(f"witness: warp {w.warp}, instruction {w.instruction}, phase {w.phase}: bank {w.bank} serves "
                   f"{len(w.words)} distinct words")
        for word, lanes in list(zip(w.words, w.lanes))[:8]:
            who = "; ".join(f"lane {l.lane} ({_axes(l.axes)}) @ byte {l.byte_address}" for l in lanes[:3])
            more = f" (+{len(lanes) - 3} lanes)" if len(lanes) > 3 else ""
            out.append(f"  word {word}: {who}{more}")
        if len(w.words) > 8:
            out.append(f"  ... and {len(w.words) - 8} more words")
    out.append(f"vector: {r.vector.bits} bits per access ({r.vector.reason}: {r.vector.detail})")
    out += [f"note: {n}" for n in r.notes]
    return "\n".join(out)


# --- the picture ------------------------------------------------------------------------------------------

def bank_svg(result, warp: int = 0, k: int = 0) -> str:
    """Lanes (rows, grouped by phase) against banks (columns) for one instruction of ``result``."""
    return lanes_banks_svg(result.instruction, result.addresses(warp, k), warp, k)


def lanes_banks_svg(instr, addrs, warp: int = 0, k: int = 0) -> str:
    """Each lane's words are cells in its bank's column; a column with cells of several distinct words in one
    phase is a conflict (red), one word shared by several lanes a broadcast (green)."""
    cell, left, top = 14, 70, 30
    rows = instr.active_lanes + (instr.phases - 1)
    width, height = left + 32 * cell + 10, top + rows * cell + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="monospace" font-size="10">',
           f'<text x="4" y="14">{_esc(instr.name)}: warp {warp}, instruction {k} '
           f'(rows: lanes by phase; columns: banks 0-31)</text>']
    for b in range(32):
        out.append(f'<text x="{left + b * cell + 2}" y="{top - 4}">{b % 10}</text>')
    y = top
    for p in range(instr.phases):
        lanes = [l for l in range(p * instr.phase_lanes, min((p + 1) * instr.phase_lanes, instr.active_lanes))]
        per_bank: dict = {}
        for l in lanes:
            if addrs[l] is None:
                continue
            for wd in range(addrs[l] // 4, (addrs[l] + instr.lane_bytes - 1) // 4 + 1):
                per_bank.setdefault(wd % 32, {}).setdefault(wd, []).append(l)
        for l in lanes:
            out.append(f'<text x="4" y="{y + 10}">p{p} l{l:02d}</text>')
            if addrs[l] is not None:
                for wd in range(addrs[l] // 4, (addrs[l] + instr.lane_bytes - 1) // 4 + 1):
                    b = wd % 32
                    ws = per_bank[b]
                    colour = "#e74c3c" if len(ws) > 1 else ("#2ecc71" if len(ws[wd]) > 1 else "#5dade2")
                    out.append(f'<rect x="{left + b * cell}" y="{y}" width="{cell - 1}" height="{cell - 1}" '
                               f'fill="{colour}"><title>lane {l}, word {wd}, bank {b}</title></rect>')
            y += cell
        y += cell
    out.append(f'<text x="4" y="{height - 8}">red: bank with several distinct words in the phase (conflict); '
               f'green: one word shared (broadcast); blue: alone</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def picture(derivation) -> str:
    """The lanes-vs-banks SVG of a bank derivation's worst instruction (from its recorded tables)."""
    from .view import View
    from ..memory import model
    v = View(derivation)
    c = BankConfiguration.from_details(v.table("bank_configuration"))
    ph = BankPhases.from_details(v.table("bank_phases"))
    instr = model.Instruction(c.instruction, "ld", c.lane_bytes, c.active_lanes, c.phase_lanes)
    addrs = [None if wd is None else wd * 4 for wd in ph.words]   # each lane's first word
    return lanes_banks_svg(instr, addrs, ph.warp, ph.instruction)
