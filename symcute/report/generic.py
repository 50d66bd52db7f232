"""The report of any derivation: a walk over its top-level steps (``derive expr``, or one recorded by hand).

Each CuTe step shows the call, the rule (statement, CuTe source, guarantee),
the result, the formula a recipe attached to it, the intermediate quantities
the operation noted, and the checks a recipe proved for it.
"""

from __future__ import annotations

from ..trace.rules import rule_for
from .. import markup as md
from .common import axes_table, check, checks_summary, cute, sources
from ..markup import block, code
from ..recipes.records import FormulaStep, ProofDetails
from ..recipes.records_expr import Bindings, ExprFormula

_OWN = ("formula", "table", "evaluate")   # recipe steps shown next to the step they explain


def render(view, t) -> str:
    conf = view.config
    expr = conf.get("expression")
    title = t("expr_title", expr=code(expr)) if expr else md.esc(view.d.title or "derivation")
    parts = [md.heading(1, title), t("expr_intro" if expr else "hand_intro")]
    if expr:
        parts.append(block(expr))
    bindings = Bindings.from_details(view.table("bindings")) if view.has_table("bindings") else None
    if bindings is not None:
        lines = []
        for b in bindings.rows:
            lines.append(f"{b.var} = {b.value}")
            if b.names:
                lines.append(f"names({b.var}) = {b.names}")
        if lines:
            parts += [t("expr_bindings"), block("\n".join(lines))]
    # a formula step of derive expr explains a numbered step (one recorded by hand may explain none)
    formulas = {ExprFormula.from_details(s.details).step: s for s in view.find("formula") if "step" in s.details}
    proofs = {}
    for s, p in view.proofs():
        proofs.setdefault(ProofDetails.from_details(s.details).step, []).append((s, p))
    k = 0
    for step in view.top:
        if step.rule in _OWN or (step.rule in _PROOF_RULES and "claim" in step.details):
            continue
        k += 1
        parts += _step(view, t, step, k, formulas.get(k), proofs.get(k, []))
    if bindings is not None:
        parts += [t("expr_result"), block(bindings.result)]
    summary = checks_summary(t, view)
    if summary:
        parts += [md.heading(2, t("sec_checks")), summary]
    parts += [md.heading(2, t("sec_sources")), sources(t, view)]
    return md.join(parts)


_PROOF_RULES = ("prove_right_inverse", "prove_left_inverse", "prove_equal", "is_injective", "is_surjective",
                "is_bijective", "prove_contract")


def _call(view, step) -> str:
    args = []
    for name, node in step.inputs.items():
        if name == "self":
            continue
        label = view.d.graph.nodes[node].get("label")
        args.append(label or _short(view.d.text(node)))
    if "self" in step.inputs:
        node = step.inputs["self"]
        owner = view.d.graph.nodes[node].get("label") or _short(view.d.text(node))
        return f"{owner}.{step.rule}({', '.join(args)})"
    return f"{step.rule}({', '.join(args)})"


def _short(text: str) -> str:
    first = text.splitlines()[0] if text else ""
    return first if len(first) <= 60 else first[:57] + "..."


def _step(view, t, step, k, fstep, proofs) -> list:
    rule = rule_for(step.rule)
    parts = [md.heading(2, t("sec_step", k=k, call=code(_call(view, step)))),
             t("step_rule", source=code(rule.citation()), statement=md.esc(t.rule(step.rule))),
             t("step_guarantee", guarantee=code(rule.guarantees))]
    if step.error:
        parts.append(t("step_error", error=code(step.error)))
        return parts
    if step.output is not None:
        parts += [t("step_result"), block(view.d.text(step.output))]
    if fstep is not None:
        f = FormulaStep.from_details(fstep.details)
        parts += [t("step_formula"), block(f.text_zeros)]
        if f.axes:
            parts.append(axes_table(t, f.axes, t("row_stride"), t("row_weight")))
    details = [(key, step.details[key]) for key in _detail_order(step.details) if step.details[key] is not None]
    if details:
        lines = []
        for key, val in details:
            label_key = "detail_" + key
            label = t(label_key) if t.has(label_key) else t("detail_other", key=md.esc(key))
            lines.append(f"- {label}: {code(_value(val))}")
        parts += [t("step_details"), "\n".join(lines)]
    nested = view.d.children(step)
    if nested:
        rules = []
        for s in nested:
            if s.rule not in rules:
                rules.append(s.rule)
        parts.append(t("step_nested", n=len(nested), rules=", ".join(code(r) for r in rules)))
    for s, p in proofs:
        parts.append(check(t, s, p))
    return parts


# the order the operations explain themselves in (JSON sorts keys, so the order must not come from the dict)
_DETAILS = ("coalesced", "weights", "order", "chosen", "skipped", "n", "modes", "filtered", "sorted_modes",
            "divisions")


def _detail_order(details: dict) -> list:
    known = [k for k in _DETAILS if k in details]
    return known + sorted(k for k in details if k not in _DETAILS)


def _value(v) -> str:
    if isinstance(v, (list, tuple)):
        return cute(v) if all(not isinstance(x, str) for x in v) else "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)
