"""Semantic edits of an exported derivation (issue 23, item 3): each kind is one edit a forger might make.

``edits(doc)`` yields ``(kind, edited_doc)`` for every kind that applies to
the node-link document ``doc`` (a recipe's ``to_json``): domains, verdicts,
methods, counterexamples, certificate rows, worked examples, labels, deleted
steps, formulas and their sub-axis tables, layouts, tables of facts,
statements, configurations.  Each edit changes what the document says (never
a no-op), so a reader must refuse it or print it as not re-checked.
"""

from __future__ import annotations

import copy
import json

OTHER_VERDICT = {"proved": "refuted", "refuted": "proved", "unknown": "proved"}


def _nodes(doc, **match):
    return [n for n in doc["nodes"] if all(n.get(k) == v for k, v in match.items())]


def _top_steps(doc, pred):
    return [n for n in doc["nodes"] if n["role"] == "step" and n.get("depth") == 0 and pred(n)]


def _output(doc, step):
    return next(n for n in doc["nodes"] if n["id"] == step["id"] + ".0")


def _proofs(doc):
    return [s for s in _top_steps(doc, lambda n: "claim" in n.get("details", {})) if _has_output(doc, s)]


def _has_output(doc, step):
    return any(n["id"] == step["id"] + ".0" for n in doc["nodes"])


def _proof_json(node):
    return json.loads(node["text"])


def _set_proof(node, proof):
    node["text"] = json.dumps(proof, sort_keys=True)


def _bump(x):
    """``x`` with its first integer leaf changed (a bool flipped, a string's digit changed); None if none."""
    if isinstance(x, bool):
        return not x
    if isinstance(x, int):
        return x + 1 if x != 0 else 3
    if isinstance(x, str):
        for i, ch in enumerate(x):
            if ch.isdigit():
                return x[:i] + str((int(ch) + 1) % 10) + x[i + 1:]
        return None
    if isinstance(x, list):
        for i, v in enumerate(x):
            b = _bump(v)
            if b is not None:
                return x[:i] + [b] + x[i + 1:]
        return None
    if isinstance(x, dict):
        for k in sorted(x):
            b = _bump(x[k])
            if b is not None:
                return {**x, k: b}
    return None


def _delete(doc, step):
    ids = {step["id"], step["id"] + ".0"}
    doc["nodes"] = [n for n in doc["nodes"] if n["id"] not in ids]
    doc["edges"] = [e for e in doc["edges"] if e["source"] not in ids and e["target"] not in ids]


def _first_list(x):
    """The path of the first list of 2+ elements inside ``x`` (a dict), or None."""
    if isinstance(x, dict):
        for k in sorted(x):
            if isinstance(x[k], list) and len(x[k]) >= 2:
                return [k]
            sub = _first_list(x[k]) if isinstance(x[k], dict) else None
            if sub is not None:
                return [k] + sub
    return None


def _edit_proof(doc, field, change, want=lambda p: True):
    """An edit of the first proof step whose proof JSON satisfies ``want``: ``change(details, proof)``."""
    for step in _proofs(doc):
        out = _output(doc, step)
        proof = _proof_json(out)
        if want(proof):
            if change(step["details"], proof) is False:
                continue
            _set_proof(out, proof)
            return True
    return False


def _swap_verdict(details, proof):
    details["verdict"] = OTHER_VERDICT[details["verdict"]]


def _swap_proof_verdict(details, proof):
    proof["verdict"] = OTHER_VERDICT[proof["verdict"]]


def _swap_both(details, proof):
    _swap_verdict(details, proof)
    _swap_proof_verdict(details, proof)


def _domain_times(k):
    def change(details, proof):
        if not isinstance(details.get("domain"), int):
            return False
        n = details["domain"]
        details["domain"] = n * k
        proof["statement"] = proof["statement"].replace(f"{n}", f"{n * k}")
    return change


def _domain_2_40(details, proof):
    if not isinstance(details.get("domain"), int):
        return False
    n = details["domain"]
    details["domain"] = 1 << 40
    proof["statement"] = proof["statement"].replace(f"{n}", f"{1 << 40}")


def _other_method(details, proof):
    details["method"] = "exhaustive" if details.get("method") != "exhaustive" else "refinement"


def _proof_method(details, proof):
    proof["method"] = "exhaustive" if proof.get("method") != "exhaustive" else "refinement"


def _edit_reason(details, proof):
    if not proof.get("reason"):
        return False
    proof["reason"] = "every digit is checked"


def _edit_statement(details, proof):
    proof["statement"] = proof["statement"].replace("(", "(1+", 1) if "(" in proof["statement"] else \
        proof["statement"] + " twice"


def _counterexample(change):
    def edit(details, proof):
        ce = proof.get("counterexample")
        if not ce:
            return False
        new = change(ce)
        if new is None or new == ce:
            return False
        proof["counterexample"] = new
    return edit


def _ce_value(ce):
    for key in ("value", "lhs", "values", "missing"):
        if key in ce:
            b = _bump(ce[key])
            if b is not None:
                return {**ce, key: b}
    return _bump(ce)


def _ce_inputs(ce):
    for key in ("indices", "index", "inputs", "input"):
        if key in ce:
            b = _bump(ce[key])
            if b is not None:
                return {**ce, key: b}
    return None


def _ce_added(details, proof):
    if proof.get("verdict") != "proved" or proof.get("counterexample"):
        return False
    proof["counterexample"] = {"index": 512, "value": 0}


def _ce_removed(details, proof):
    if not proof.get("counterexample"):
        return False
    proof["counterexample"] = None


def _certificate(change):
    def edit(details, proof):
        cert = proof.get("certificate")
        if not cert:
            return False
        new = change(cert)
        if new is None or new == cert:
            return False
        proof["certificate"] = new
    return edit


def _rows_of(cert):
    path = _first_list(cert)
    return path


def _cert_number(cert):
    return _bump(cert)


def _cert_mark(cert):
    text = json.dumps(cert)
    for a, b in (('"differs"', '"ok"'), ('"ok"', '"differs"')):
        if a in text:
            return json.loads(text.replace(a, b, 1))
    return None


def _cert_row_deleted(cert):
    path = _rows_of(cert)
    if path is None:
        return None
    new = copy.deepcopy(cert)
    target = new
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = target[path[-1]][1:]
    return new


def _edit_step(doc, pred, change):
    for step in _top_steps(doc, pred):
        if change(doc, step) is not False:
            return True
    return False


def _details_field(key, transform=_bump):
    def change(doc, step):
        if key not in step["details"]:
            return False
        new = transform(step["details"][key])
        if new is None or new == step["details"][key]:
            return False
        step["details"][key] = new
    return change


def _output_text(doc, step):
    if not _has_output(doc, step):
        return False
    out = _output(doc, step)
    new = _bump(out["text"])
    if new is None or new == out["text"]:
        return False
    out["text"] = new


def _formula_json(change):
    def edit(doc, step):
        out = _output(doc, step)
        f = json.loads(out["text"])
        new = change(f)
        if new is None or new == f:
            return False
        out["text"] = json.dumps(new, sort_keys=True)
    return edit


def _formula_coefficient(f):
    return _bump(f) if "axes" not in f else {**f, "axes": _bump(f["axes"])}


def _table_row_dropped(doc, step):
    path = _first_list(step["details"])
    if path is None:
        return False
    target = step["details"]
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = target[path[-1]][1:]


def _table_text(doc, step):
    for k in sorted(step["details"]):
        v = step["details"][k]
        if isinstance(v, str) and k != "kind":
            step["details"][k] = v + " (edited)"
            return None
    return False


def _swap_labels(doc, a=None, b=None):
    labelled = [n for n in doc["nodes"] if n.get("label") and n["kind"] == "layout"]
    if a is not None:
        labelled = [n for n in labelled if n["label"] in (a, b)]
    if len(labelled) < 2:
        return False
    x, y = labelled[-2], labelled[-1]
    x["label"], y["label"] = y["label"], x["label"]
    return True


def _relabel(doc, text):
    labelled = [n for n in doc["nodes"] if n.get("label")]
    if not labelled:
        return False
    labelled[-1]["label"] = text
    return True


def _proof_labels(doc, text=None):
    for step in _proofs(doc):
        labels = step["details"].get("labels")
        if labels:
            step["details"]["labels"] = [text or (labels[0] + "'")] + labels[1:]
            return True
    return False


def _repoint_edge(doc):
    """A proof step's operand edge moved to another layout value of the document."""
    layouts = [n["id"] for n in doc["nodes"] if n["role"] == "value" and n["kind"] == "layout"]
    for step in _proofs(doc):
        for e in doc["edges"]:
            if e["target"] == step["id"] and e["source"] in layouts:
                order = {n["id"]: n["order"] for n in doc["nodes"]}
                others = [v for v in layouts if v != e["source"] and order[v] < step["order"]
                          and not any(x["source"] == v and x["target"] == step["id"] for x in doc["edges"])]
                if others:
                    e["source"] = others[0]
                    return True
    return False


def _core_step(n):
    return n["rule"] not in ("table", "formula", "evaluate") and "claim" not in n.get("details", {})


def _config(doc):
    cfg = doc["graph"].get("config", {})
    for k in sorted(cfg):
        if k == "recipe":
            continue
        new = _bump(cfg[k])
        if new is not None and new != cfg[k]:
            cfg[k] = new
            return True
    return False


def _title(doc):
    doc["graph"]["title"] = doc["graph"].get("title", "") + " (edited)"
    return True


def _input_value(doc):
    for n in doc["nodes"]:
        if n["role"] == "value" and n["origin"] == "input" and n["kind"] in ("int", "layout"):
            new = _bump(n["text"])
            if new is not None and new != n["text"]:
                n["text"] = new
                return True
    return False


def _step_failed(doc):
    for step in _top_steps(doc, lambda n: "claim" in n.get("details", {})):
        step["error"] = "the prover refused it"
        return True
    return False


def _delete_last(doc, pred):
    steps = _top_steps(doc, pred)
    if not steps:
        return False
    _delete(doc, steps[-1])
    return True


def _is(rule):
    return lambda n: n["rule"] == rule


# kind -> edit(doc) (True if it applied)
KINDS = {
    "proof: domain widened x2": lambda d: _edit_proof(d, "domain", _domain_times(2)),
    "proof: domain set to 2^40": lambda d: _edit_proof(d, "domain", _domain_2_40),
    "proof: verdict in the details swapped": lambda d: _edit_proof(d, "verdict", _swap_verdict),
    "proof: verdict in the proof swapped": lambda d: _edit_proof(d, "verdict", _swap_proof_verdict),
    "proof: both verdicts swapped": lambda d: _edit_proof(d, "verdict", _swap_both),
    "proof: method in the details": lambda d: _edit_proof(d, "method", _other_method),
    "proof: method in the proof": lambda d: _edit_proof(d, "method", _proof_method),
    "proof: reason edited": lambda d: _edit_proof(d, "reason", _edit_reason),
    "proof: statement edited": lambda d: _edit_proof(d, "statement", _edit_statement),
    "proof: claim kind changed": lambda d: _edit_step(
        d, lambda n: "claim" in n.get("details", {}),
        _details_field("claim", lambda c: "surjective" if c != "surjective" else "injective")),
    "proof: target changed": lambda d: _edit_step(d, lambda n: "target" in n.get("details", {}),
                                                  _details_field("target")),
    "proof: operand labels edited": _proof_labels,
    "proof: operand label with a table cell |": lambda d: _proof_labels(d, "F | proved | x"),
    "proof: operand edge re-pointed": _repoint_edge,
    "proof: step marked failed": _step_failed,
    "proof: step deleted": lambda d: _edit_step(d, lambda n: "claim" in n.get("details", {}),
                                                lambda doc, s: _delete(doc, s)),
    "counterexample: value edited": lambda d: _edit_proof(d, "ce", _counterexample(_ce_value)),
    "counterexample: inputs edited": lambda d: _edit_proof(d, "ce", _counterexample(_ce_inputs)),
    "counterexample: added to a proved claim": lambda d: _edit_proof(d, "ce", _ce_added),
    "counterexample: removed from a refuted claim": lambda d: _edit_proof(d, "ce", _ce_removed),
    "certificate: a number edited": lambda d: _edit_proof(d, "cert", _certificate(_cert_number)),
    "certificate: a row's mark edited": lambda d: _edit_proof(d, "cert", _certificate(_cert_mark)),
    "certificate: a row deleted": lambda d: _edit_proof(d, "cert", _certificate(_cert_row_deleted)),
    "worked example: value edited": lambda d: _edit_step(d, _is("evaluate"), _details_field("value")),
    "worked example: input edited": lambda d: _edit_step(d, _is("evaluate"), _details_field("at")),
    "worked example: index edited": lambda d: _edit_step(d, _is("evaluate"), _details_field("index")),
    "worked example: output value edited": lambda d: _edit_step(d, _is("evaluate"), _output_text),
    "worked example: step deleted": lambda d: _edit_step(d, _is("evaluate"), lambda doc, s: _delete(doc, s)),
    "label: two layouts' labels swapped": _swap_labels,
    "label: G and H swapped": lambda d: _swap_labels(d, "G", "H"),
    "label: renamed": lambda d: _relabel(d, "Q"),
    "label: with a table cell |": lambda d: _relabel(d, "F | **proved** |"),
    "label: with HTML": lambda d: _relabel(d, "<img src=x onerror=alert(1)>"),
    "formula: text edited": lambda d: _edit_step(d, _is("formula"), _details_field("text")),
    "formula: sub-axis table edited": lambda d: _edit_step(d, _is("formula"), _details_field("axes")),
    "formula: value's coefficients edited": lambda d: _edit_step(d, _is("formula"),
                                                                 _formula_json(_formula_coefficient)),
    "formula: step deleted": lambda d: _edit_step(d, _is("formula"), lambda doc, s: _delete(doc, s)),
    "layout: a step's result edited": lambda d: _edit_step(
        d, lambda n: _core_step(n) and _has_output(d, n), _output_text),
    "layout: a step's intermediates edited": lambda d: _edit_step(
        d, lambda n: _core_step(n) and bool(n.get("details")), lambda doc, s: _details_field(
            sorted(s["details"])[0])(doc, s)),
    "layout: an input value edited": _input_value,
    "layout: a step deleted": lambda d: _delete_last(d, _core_step),
    "table: a number edited": lambda d: _edit_step(d, _is("table"), lambda doc, s: _details_field(
        next((k for k in sorted(s["details"]) if _bump(s["details"][k]) is not None and k != "kind"), "kind"))(doc, s)),
    "table: a text edited": lambda d: _edit_step(d, _is("table"), _table_text),
    "table: a row dropped": lambda d: _edit_step(d, _is("table"), _table_row_dropped),
    "table: step deleted": lambda d: _edit_step(d, _is("table"), lambda doc, s: _delete(doc, s)),
    "configuration edited": _config,
    "title edited": _title,
}


def edits(doc: dict):
    """``(kind, edited)`` for every kind of :data:`KINDS` that applies to ``doc`` and changes it."""
    for kind, edit in KINDS.items():
        edited = copy.deepcopy(doc)
        if edit(edited) and edited != doc:
            yield kind, edited
