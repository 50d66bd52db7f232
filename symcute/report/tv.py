"""The report of the tv recipe: each operand's TV layout, its formula, right inverse and inverse identities."""

from __future__ import annotations

from .. import markup as md
from ..recipes.records import FormulaStep, ProofClaim, ProofDetails, TVConfiguration, TVInverse, TVLayout
from .common import axes_table, check, checks_summary, cute, sources
from ..markup import Raw, block, code


def render(view, t) -> str:
    conf = TVConfiguration.from_details(view.table("tv_configuration"))
    if view.config.get("copy"):   # a TMEM TiledCopy (derive_tv_copy)
        parts = [md.heading(1, t("tv_copy_title", copy=code(conf.mma), tmem=code(view.config["tmem"]),
                                 vt=code(view.config["value_type"]))),
                 t("tv_copy_intro"),
                 t("tv_copy_config", copy=code(conf.mma), ptx=code(conf.ptx), header=code(conf.header),
                   tile=code(cute(conf.tile)), threads=code(conf.threads), layout_tv=code(conf.layout_tv),
                   tiler=code("(" + ", ".join(conf.tiler) + ")"))]
    else:
        parts = [md.heading(1, t("tv_title", mma=code(conf.mma),
                                 layout=code(cute(view.config["atom_layout"])))),
                 t("tv_intro"),
                 t("tv_config", mma=code(conf.mma), ptx=code(conf.ptx), header=code(conf.header),
                   tile=code(cute(conf.tile)), threads=code(conf.threads))]
    summary = []
    for op in view.config["operands"]:
        parts += _operand(view, t, op, conf)
        f = TVLayout.from_details(view.formula_step(f"F_{op}").details)
        g = TVInverse.from_details(view.formula_step(f"G_{op}").details)
        verdicts = {c.claim: p for c, p in _checks(view, op)}
        summary.append([op, Raw(code(view.text(f"F_{op}"), cell=True)), f.size, g.size,
                        Raw(code(", ".join(f"{b.name}:{b.extent}" for b in f.broadcast) or "-", cell=True)),
                        Raw(t("verdict_" + verdicts[ProofClaim.RIGHT_INVERSE].verdict.value)),
                        Raw(t("verdict_" + verdicts[ProofClaim.LEFT_INVERSE].verdict.value))])
    parts += [md.heading(2, t("sec_tv_summary")),
              md.table([t("hdr_operand"), t("hdr_tv_layout"), t("hdr_size"), t("hdr_ri_size"), t("hdr_broadcast"),
                        t("hdr_rinv_proved"), t("hdr_linv_proved")], summary),
              md.heading(2, t("sec_checks")), checks_summary(t, view),
              md.heading(2, t("sec_sources")), sources(t, view)]
    return md.join(parts)


def _operand(view, t, op, conf) -> list:
    fd, gd = view.formula_step(f"F_{op}").details, view.formula_step(f"G_{op}").details
    F, G = FormulaStep.from_details(fd), FormulaStep.from_details(gd)
    f, g = TVLayout.from_details(fd), TVInverse.from_details(gd)
    parts = [md.heading(2, t("sec_tv_operand", op=op, fn=code(f"get_layout{op}_TV()")))]
    frg = conf.descriptors.get(op)
    if frg:
        parts.append(t("tv_descriptor", op=op, frg=code(frg)))
    parts += [t("tv_layout"), block(f"F_{op} = {view.text(f'F_{op}')}\nF_{op} = {F.text_zeros}"),
              axes_table(t, F.axes, t("row_q_stride"), t("row_tv_weight"))]
    if f.broadcast:
        parts.append(t("tv_broadcast", axes=code(", ".join(f"{b.name} ({b.extent})" for b in f.broadcast)),
                       copies=code(f.copies)))
    else:
        parts.append(t("tv_no_broadcast"))
    parts += [t("tv_right_inverse", size=code(g.size)),
              block(f"G_{op} = right_inverse(F_{op}) = {view.text(f'G_{op}')}\nG_{op} = {G.text}")]
    if G.axes:
        parts.append(axes_table(t, G.axes, t("row_tv_stride"), t("row_q_weight")))
    parts.append(t("tv_skipped", skipped=code(", ".join(g.skipped)) if g.skipped else t("none"),
                   order=code(" < ".join(g.order))))
    ex = view.evaluations(f"example_{op}")
    if len(ex) == 2:
        a, b = ex
        parts += [t("tv_example"), block(f"G_{op}({a.at}) = {a.value}\n"
                                         f"F_{op}{cute(b.at)} = {b.value}")]
    for s, p in view.proofs():
        c = ProofDetails.from_details(s.details)
        if c.operand == op:
            parts.append(check(t, s, p, certificate=c.claim is ProofClaim.RIGHT_INVERSE))
    return parts


def _checks(view, op) -> list:
    """``(ProofDetails, proof)`` of the checks about operand ``op``."""
    found = [(ProofDetails.from_details(s.details), p) for s, p in view.proofs()]
    return [(c, p) for c, p in found if c.operand == op]
