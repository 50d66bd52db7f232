"""Pieces every report shares: linear forms, sub-axis tables, checks, the summary of checks, sources."""

from __future__ import annotations

import re

from ..trace.rules import CUTLASS_VERSION, rule_for
from .. import markup as md
from ..core.int_tuple import format_int_tuple
from ..markup import Raw, code


def lin(terms, zeros: bool = True) -> str:
    """``t0 + 4*t1 + 0*wn`` from ``[(coef, name), ...]`` (the order given)."""
    parts = []
    for coef, name in terms:
        if coef == 0 and not zeros:
            continue
        parts.append(name if coef == 1 else f"{coef}*{name}")
    return " + ".join(parts) if parts else "0"


def product_text(factors) -> str:
    return "*".join(str(f) for f in factors) if factors else "1"


cute = format_int_tuple   # a tuple of a step's details (a JSON list once read back) in CuTe notation


def span(n: int) -> str:
    """``0…n-1`` (the seed's notation for a range of values)."""
    return f"0…{n - 1}" if n > 1 else "0"


def axes_table(t, rows, stride_label: str, weight_label: str | None = None) -> str:
    """The seed's sub-axis table: one column per sub-axis; rows shape, stride, (TV) weight.

    ``rows``: ``[[name, extent, stride, weight], ...]`` (a formula step's ``axes``).
    """
    header = [t("row_subaxis")] + [Raw(code(r[0], cell=True)) for r in rows]
    body = [[t("row_shape")] + [r[1] for r in rows], [stride_label] + [r[2] for r in rows]]
    if weight_label is not None:
        body.append([weight_label] + [r[3] for r in rows])
    return md.table(header, body)


# --- checks ---------------------------------------------------------------------------------------

def claim_text(t, step, proof: dict) -> str:
    """The claim of a proof step, from the template of its ``claim`` key (labels and domain filled in)."""
    det = step.details
    labels = [code(x) for x in det.get("labels", [])]
    fields = {"n": code(det.get("domain", "?")), "target": code(det.get("target", det.get("domain", "?")))}
    for i, name in enumerate(("a", "b")):
        fields[name] = labels[i] if i < len(labels) else "?"
    key = "claim_" + det.get("claim", "")
    return t(key, **fields) if t.has(key) else md.esc(proof.get("statement", ""))


def verdict_text(t, proof: dict) -> str:
    return t("verdict_" + proof["verdict"])


def method_text(t, proof: dict) -> str:
    key = "method_" + proof["method"]
    return t(key) if t.has(key) else md.esc(proof["method"])


def check(t, step, proof: dict, certificate: bool = True) -> str:
    """One check: its claim, the prover's verdict and method, the counterexample and the certificate."""
    parts = [t("check_line", claim=claim_text(t, step, proof), verdict=verdict_text(t, proof),
               method=method_text(t, proof))]
    ce = proof.get("counterexample")
    if ce:
        items = []
        for k, v in ce.items():
            if k == "digit":   # the certificate's "differs" row says the same
                continue
            key = "ce_" + k.replace(" ", "_")
            if k.endswith(" steps"):     # the prover's evaluation chain of a composite: "G(F(x)) steps"
                label = t("ce_steps", what=code(k[:-len(" steps")]))
            else:
                label = t(key) if t.has(key) else code(k)
            items.append(t("ce_item", label=label, value=code(_show(v))))
        parts.append(t("counterexample") + "\n\n" + "\n".join(items))
    cert = proof.get("certificate")
    if certificate and cert and cert.get("table") and cert["table"].get("header"):
        tab = cert["table"]
        header = [_header(t, h) for h in tab["header"]]
        rows = [[_cell(t, c) for c in r] for r in tab["rows"]]
        note = "cert_" + cert.get("kind", "")
        parts.append((t(note) + "\n\n" if t.has(note) else "") + md.table(header, rows))
    return "\n\n".join(parts)


def _header(t, h: str):
    """A certificate column: a template for the prover's own labels, code for formula labels (``F(G(i))``)."""
    if not h:
        return ""
    key = "hdr_" + re.sub(r"\W+", "_", h).strip("_")
    if t.has(key):
        return t(key)
    return Raw(code(h, cell=True))


def _cell(t, c):
    if c == "ok":
        return t("cell_ok")
    if c == "DIFFERS":
        return t("cell_differs")
    if c == "fails":
        return t("cell_fails")
    if isinstance(c, int):
        return c
    return Raw(code(c, cell=True))


def _show(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k}={_show(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return cute(v)
    return str(v)


def checks_summary(t, view) -> str:
    rows = []
    for i, (step, proof) in enumerate(view.proofs(), 1):
        rows.append([i, Raw(claim_text(t, step, proof)), Raw(verdict_text(t, proof)), Raw(method_text(t, proof))])
    if not rows:
        return ""
    return md.table([t("hdr_number"), t("hdr_claim"), t("hdr_verdict"), t("hdr_method")], rows)


def sources(t, view, extra=()) -> str:
    """The rule catalog's citation of every top-level step, first appearance first."""
    seen, rows = set(), []
    for rid, what in extra:
        rows.append([Raw(what), Raw(code(rid[0], cell=True)), Raw(code(rid[1], cell=True))])
    for s in view.top:
        if s.rule in seen or s.rule == "table":
            continue
        seen.add(s.rule)
        r = rule_for(s.rule)
        rows.append([Raw(md.esc(r.statement_in(t.lang))), Raw(code(r.source, cell=True)),
                     Raw(code(r.function, cell=True))])
    return t("sources_intro", version=code(CUTLASS_VERSION)) + "\n\n" + md.table(
        [t("hdr_content"), t("hdr_file"), t("hdr_function")], rows)
