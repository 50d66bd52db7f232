"""Pieces every report shares: linear forms, sub-axis tables, checks, the summary of checks, sources."""

from __future__ import annotations

from ..recipes.records import ProofDetails
from ..symbolic.vocabulary import Cell, Column, CounterexampleKey, Labelled, Method, Phrase, Verdict
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

def claim_text(t, step, proof) -> str:
    """The claim of a proof step (its :class:`ProofDetails`), from the template of its ``claim`` (labels,
    domain and target filled in); a claim without a template of its own is the prover's statement."""
    det = ProofDetails.from_details(step.details)
    labels = [code(x) for x in det.labels]
    fields = {"n": code(det.domain), "target": code(det.domain if det.target is None else det.target)}
    for i, name in enumerate(("a", "b")):
        fields[name] = labels[i] if i < len(labels) else "?"
    key = None if det.claim is None else "claim_" + det.claim.value
    return t(key, **fields) if key is not None and t.has(key) else t.phrase(proof.statement)


def verdict_text(t, proof) -> str:
    return t("verdict_" + proof.verdict.value)


def method_text(t, proof) -> str:
    """The prover's method in words: its sentence (``method_<m>``) where it has one, else its short name, and a
    conjunction's ``a+b`` as the short names of its parts; text that is no method is shown as it is."""
    key = f"method_{proof.method}"
    if t.has(key):
        return t(key)
    return "+".join(method_name(t, part) for part in str(proof.method).split("+"))


def method_name(t, method) -> str:
    """A :class:`Method` (or its value) by its short name (``method_name_<m>``); other text escaped."""
    try:
        return t("method_name_" + Method(method).name.lower())
    except ValueError:
        return md.esc(str(method))


# The prover's own columns, marks and counterexample keys -> their templates (a member missing here has none
# and prints as code).  The |stride| column of the injectivity chain reads "stride", as the seed writes it.
COLUMN_TEMPLATES = {
    Column.DIGIT: "hdr_digit", Column.EXTENT: "hdr_extent", Column.WEIGHT: "hdr_weight",
    Column.STRIDE: "hdr_stride", Column.ABS_STRIDE: "hdr_stride", Column.SPAN_BELOW: "hdr_span_below",
    Column.ABOVE_SPAN: "hdr_stride_span", Column.COVERED_BELOW: "hdr_covered_below",
    Column.WITHIN_COVER: "hdr_stride_covered_1", Column.INPUTS: "hdr_inputs",
    Column.INPUTS_EVALUATED: "hdr_inputs_evaluated", Column.MISMATCHES: "hdr_mismatches",
    Column.FAILURES: "hdr_failures", Column.DISTINCT_VALUES: "hdr_distinct_values", Column.TARGETS: "hdr_targets",
    Column.EXACT_QUERY: "hdr_exact_query", Column.RESULT: "hdr_result", Column.PART: "hdr_part",
    Column.VERDICT: "hdr_verdict", Column.METHOD: "hdr_method", Column.INDEX_BIT: "hdr_index_bit",
    Column.NAME: "hdr_name", Column.FLIPS: "hdr_flips_offset_bits", Column.INPUTS_TRIED: "hdr_inputs_tried",
    Column.FAILING_INPUT: "hdr_failing_input", Column.BLOCKS: "hdr_blocks", Column.COEFFICIENT: "hdr_coefficient",
    Column.ROLE: "hdr_role", Column.COLUMN_OF_M: "hdr_column_of_m",
}
LABELLED_COLUMN_TEMPLATES = {Column.VIA: "hdr_via", Column.FLIPS_OF: "hdr_flips_of",
                             Column.TIMES_WEIGHT: "hdr_times_weight", Column.MOD_OF: "hdr_mod_of"}
CELL_TEMPLATES = {Cell.OK: "cell_ok", Cell.DIFFERS: "cell_differs", Cell.FAILS: "cell_fails", Cell.GAP: "cell_gap",
                  Cell.IN_BLOCK: "cell_in_block", Cell.BLOCK: "cell_block"}
# Every fixed key has its template ("ce_" + the member's name); a side's label prints as code.
KEY_TEMPLATES = {k: "ce_" + k.name.lower() for k in CounterexampleKey if "{}" not in k.value}
LABELLED_KEY_TEMPLATES = {CounterexampleKey.STEPS: "ce_steps", CounterexampleKey.SIZE: "ce_size",
                          CounterexampleKey.SIDE_NAMED: "ce_side"}


def check(t, step, proof, certificate: bool = True) -> str:
    """One check: its claim, the prover's verdict and method, the counterexample and the certificate."""
    parts = [t("check_line", claim=claim_text(t, step, proof), verdict=verdict_text(t, proof),
               method=method_text(t, proof))]
    if proof.counterexample:
        items = []
        ce = proof.counterexample
        # "value" is the two inputs' common value where the counterexample is a collision, else one value
        shared = any(k in ce for k in _TWO_INPUTS)
        for k, v in ce.items():
            if k is CounterexampleKey.DIGIT:   # the certificate's "differs" row says the same
                continue
            label = t("ce_value_at") if k is CounterexampleKey.VALUE and not shared else _key(t, k)
            items.append(t("ce_item", label=label, value=code(_show(v))))
        parts.append(t("counterexample") + "\n\n" + "\n".join(items))
    cert = proof.certificate
    if certificate and cert is not None and cert.table.header:
        header = [_header(t, h) for h in cert.table.header]
        rows = [[_cell(t, c) for c in r] for r in cert.table.rows]
        note = "cert_" + cert.kind
        parts.append((t(note) + "\n\n" if t.has(note) else "") + md.table(header, rows))
    return "\n\n".join(parts)


_TWO_INPUTS = (CounterexampleKey.INDICES, CounterexampleKey.FIRST, CounterexampleKey.INDEX_OF_B)


def _key(t, k) -> str:
    """A counterexample key: a template for the prover's own keys, code for the claim's labels (``F(G(i))``).

    @pre ``k`` is a CounterexampleKey member or a Labelled name of one (a bare str is refused: it would be a
    label nobody typed, rendered as code by accident)"""
    if isinstance(k, Labelled) and k.kind in LABELLED_KEY_TEMPLATES:
        return t(LABELLED_KEY_TEMPLATES[k.kind], what=code(k.label))
    if isinstance(k, Labelled) and k.kind is CounterexampleKey.SIDE:
        return code(k.label)
    if isinstance(k, CounterexampleKey):
        return t(KEY_TEMPLATES[k])
    raise TypeError(f"counterexample key {k!r} is not a CounterexampleKey")


def _header(t, h):
    """A certificate column: a template for the prover's own columns, code for formula labels (``F(G(i))``)."""
    if isinstance(h, Labelled) and h.kind in LABELLED_COLUMN_TEMPLATES:
        return Raw(code(t(LABELLED_COLUMN_TEMPLATES[h.kind], label=h.label), cell=True))
    if h is Column.AGREES:
        return ""
    if isinstance(h, Column) and h in COLUMN_TEMPLATES:
        return t(COLUMN_TEMPLATES[h])
    return Raw(code(str(h), cell=True))


def _cell(t, c):
    if isinstance(c, Cell):
        return t(CELL_TEMPLATES[c])
    if isinstance(c, Verdict):  # a conjunction's parts: each part's verdict and method
        return t("verdict_" + c.value)
    if isinstance(c, Method):
        return method_name(t, c)
    if isinstance(c, Phrase):   # an exact back-end's query, a conjunction's part
        return Raw(t.phrase(c, lambda x: code(x, cell=True)))
    if isinstance(c, int):
        return c
    return Raw(code(str(c), cell=True))


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
        rows.append([Raw(md.esc(t.rule(s.rule))), Raw(code(r.source, cell=True)),
                     Raw(code(r.function, cell=True))])
    return t("sources_intro", version=code(CUTLASS_VERSION)) + "\n\n" + md.table(
        [t("hdr_content"), t("hdr_file"), t("hdr_function")], rows)
