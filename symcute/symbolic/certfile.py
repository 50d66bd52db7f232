"""Certificates as files: a Proof's verdict in the format ``symcute.check`` re-verifies.

The format (``symcute/certificate.schema.json``, docs/certificates.md) states the claim with its
layouts in CuTe notation, so the checker parses them with core and re-derives the evidence from the
claim itself; the evidence is what the method knew: the digit table of a refinement or chain argument
(recomputed here from the terms, not read back from the printed table), the GF(2) matrix, the bound of
an enumeration, an exact back-end's query, the counterexample of a refutation.  The prover's own
certificate rides along under ``prover`` for readers; the checker ignores it.
"""

from __future__ import annotations

from ..core.parse import parse_layout
from ..errors import SymcuteError
from .linear import Compose, NotLinear, coalesce_digits, common_rows, layout_of, linearize
from .vocabulary import CounterexampleKey as Key, Reason

FORMAT = "symcute-certificate"
VERSION = 1
DOMAIN_KEYS = {"equal": ("n",), "injective": ("n",), "surjective": ("size", "onto"), "bijective": ("size", "onto"),
               "disjoint": ("na", "nb"), "contains": ("na", "nb"), "contiguous": ("n", "step"),
               "aligned": ("n", "alignment"), "forall": ("of", "n", "m"), "vector": ("width", "align")}
# the number a forall's block property reads (its ``of``)
BLOCK_KEYS = {"injective": (), "contiguous": ("step",), "aligned": ("alignment",)}
COUNTEREXAMPLE_KEYS = {Key.INDEX: "index", Key.INDICES: "indices", Key.MISSING_VALUE: "missing", Key.VALUE: "value"}


def term_json(t):
    """A term in the format: a layout text (CuTe notation) or ``{"compose": [outer, inner]}``."""
    if isinstance(t, Compose):
        return {"compose": [term_json(t.outer), term_json(t.inner)]}
    return str(layout_of(t))


def term_of(j):
    """Inverse of :func:`term_json` (core parses the layouts)."""
    return Compose(term_of(j["compose"][0]), term_of(j["compose"][1])) if isinstance(j, dict) else parse_layout(j)


def claim(kind: str, terms, **numbers) -> dict:
    """The claim a certificate states (``numbers``: the domain keys of ``kind``)."""
    keys = DOMAIN_KEYS[kind] + (BLOCK_KEYS[numbers["of"]] if kind == "forall" else ())
    return {"kind": kind, "terms": [term_json(t) for t in terms], **{k: numbers[k] for k in keys}}


def with_claim(proof, kind: str, terms, **numbers):
    """``proof`` carrying its claim (what ``Proof.certificate_file`` states)."""
    from dataclasses import replace
    return replace(proof, claim=claim(kind, terms, **numbers))


def _digits(c: dict):
    terms = [term_of(t) for t in c["terms"]]
    if c["kind"] == "equal":
        a, b = linearize(terms[0], c["n"]), linearize(terms[1], c["n"])
        rows = common_rows(a, b) or common_rows(coalesce_digits(a), coalesce_digits(b))
        return [{"extent": r.extent, "weight": r.weight, "lhs": r.lhs, "rhs": r.rhs} for r in rows or ()]
    n = c["n"] if c["kind"] == "injective" else c["size"]
    return [{"extent": d.extent, "weight": d.weight, "coef": d.coef} for d in linearize(terms[0], n)]


def _plain(x):
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x if isinstance(x, (int, str)) or x is None else str(x)


BLOCK_KINDS = ("block-split", "swizzle-bijection")   # a certificate's kind that names the method of its file


def _block_parts(proof) -> dict:
    """A block-split or swizzle-bijection proof's evidence: the split (or the swizzled layout's own claim) and
    each block's certificate, written for the sub-claim the checker derives from the claim itself."""
    from . import bitsplit
    c, cert = proof.claim, proof.certificate
    parts = cert.data["parts"]
    terms = [term_of(t) for t in c["terms"]]
    if cert.kind == "swizzle-bijection":
        sub = claim(c["kind"], [t.inner for t in terms], **{k: c[k] for k in DOMAIN_KEYS[c["kind"]]})
        (cd, verdict, method), = parts.values()
        return {"part": {"method": method, "evidence": _method_evidence(method, cd, sub, verdict == "proved")}}
    n = c["n"] if c["kind"] == "injective" else c["size"]
    s = bitsplit.split(terms[0], n)
    big = c.get("onto", n)
    subs = {"low": claim("injective", [s.low], n=s.low_size),
            "high": claim("injective", [s.high], n=s.high.size()),
            "low onto": claim("surjective", [s.low], size=s.low_size, onto=min(big, s.q)),
            "high onto": claim("surjective", [s.high], size=s.high.size(), onto=-(-big // s.q))}
    rows = sorted(((d.weight, d.extent, d.coef, "low" if low else "high") for d, low in s.digits))
    if proof.refuted:   # a missing value: the block that misses its share of it (the first refuted onto part)
        parts = {k: v for k, v in parts.items() if k.endswith("onto") and v[1] == "refuted"}
        parts = dict(list(parts.items())[:1])
    return {"split": {"q": s.q, "digits": [{"extent": e, "weight": w, "coef": k, "block": b} for w, e, k, b in rows]},
            "parts": [{"block": name, "method": m, "evidence": _method_evidence(m, cd, subs[name], v == "proved")}
                      for name, (cd, v, m) in parts.items()]}


def _method_evidence(method: str, cd, c: dict, proved: bool) -> dict:
    """The evidence of ``method`` for claim ``c`` (``cd``: the prover's certificate as a dict, or None)."""
    ev = {}
    if method in ("refinement", "chain"):
        try:
            ev["digits"] = _digits(c)
        except NotLinear as e:
            if proved:
                raise SymcuteError(f"certificate: the {method} digits of {claim_text(c)} do not recompute "
                                   f"({e})") from None
    elif method == "gf2" and cd is not None:
        d = cd["data"]
        if "lhs" in d:
            ev["lhs"], ev["rhs"] = dict(d["lhs"]), dict(d["rhs"])
        else:
            ev.update({k: _plain(d[k]) for k in ("columns", "constant", "rank", "kernel") if k in d})
    elif method in ("z3", "isl") and cd is not None:
        ev["query"] = [[str(x) for x in row] for row in cd["table"]["rows"]]
    elif method == "exhaustive":
        ev["inputs"] = c.get("n", c.get("size"))
    return ev


def claim_text(c: dict) -> str:
    return f"{c['kind']}({', '.join(map(str, c['terms']))})"


def method_of(proof) -> str:
    """The method a certificate file names: the block kind for a block decomposition, else the proof's."""
    cert = proof.certificate
    if proof.proved and cert is not None and cert.kind in BLOCK_KINDS:
        return cert.kind
    return str(proof.method)


def evidence(proof) -> dict:
    """What the method knew, in the format's terms."""
    if proof.claim["kind"] in SET_KINDS:
        return _set_evidence(proof)
    ev = {}
    cert = proof.certificate
    if proof.refuted:
        ce = proof.counterexample or {}
        ev["counterexample"] = {COUNTEREXAMPLE_KEYS[k]: _plain(v) for k, v in ce.items() if k in COUNTEREXAMPLE_KEYS}
    method = method_of(proof)
    if method in BLOCK_KINDS or (proof.refuted and cert is not None and cert.kind in BLOCK_KINDS
                                 and "missing" in ev["counterexample"]):
        ev.update(_block_parts(proof))
        return ev
    ev.update(_method_evidence(method, cert.to_dict() if cert is not None else None, proof.claim, proof.proved))
    return ev


def certificate_of(proof) -> dict:
    """The certificate file of ``proof`` (see the module doc).  @raises SymcuteError where there is none"""
    if proof.claim is None:
        raise SymcuteError(f"certificate: {proof.statement!s} was not made by an entry point that states its "
                           f"claim (prove, is_injective, is_surjective, is_bijective, prove_claim)")
    if not (proof.proved or proof.refuted):
        raise SymcuteError(f"certificate: {proof.statement!s} is {proof.verdict}: only a verdict has a certificate")
    out = {"format": FORMAT, "version": VERSION, "claim": proof.claim, "verdict": str(proof.verdict),
           "method": method_of(proof), "evidence": evidence(proof),
           "prover": {"statement": str(proof.statement), "reason": str(proof.reason)}}
    if proof.certificate is not None:
        out["prover"]["certificate"] = proof.certificate.to_dict()
    return out


# --- image and block claims: disjoint, contains, contiguous, aligned, forall, vector ---------------------------

SET_KINDS = ("disjoint", "contains", "contiguous", "aligned", "forall", "vector")


def block_function(c: dict):
    """``(G, n, m, parts)``: a contiguous/aligned/forall/vector claim as properties ``parts`` (``(kind,
    number)`` pairs) of every block of ``m`` consecutive inputs of ``G`` on ``[0, n)`` (claim._vector's order)."""
    from ..core import int_tuple as it
    from ..core.layout import Layout
    ts = [term_of(t) for t in c["terms"]]
    if c["kind"] == "vector":
        tv, w = ts[0], c["width"]
        nt, nv = it.product(tv.shape[0]), it.product(tv.shape[1])
        P = Layout((w, nt, nv // w), (nt, 1, nt * w))
        return Compose(Compose(ts[1], tv), P), nt * nv, w, [("contiguous", 1), ("aligned", c["align"])]
    if c["kind"] == "forall":
        keys = BLOCK_KEYS[c["of"]]
        return Compose(ts[0], ts[1]), c["n"], c["m"], [(c["of"], c[keys[0]] if keys else None)]
    key = BLOCK_KEYS[c["kind"]][0]
    return ts[0], c["n"], c["n"], [(c["kind"], c[key])]


def _preimage(P, q: int) -> int:
    """The input ``i`` of the order ``P`` (a permutation of compact digits) with ``P(i) == q``."""
    from ..core import int_tuple as it
    i, w = 0, 1
    for e, s in zip(it.flatten_to_tuple(P.shape), it.flatten_to_tuple(P.stride)):
        i += (q // s) % e * w if s else 0
        w *= e
    if P(i) != q:
        raise SymcuteError(f"certificate: input {q} has no preimage under the order {P}")
    return i


def _block_input(c: dict, q: int) -> int:
    """The input of the block function ``G`` at which the claim's own input ``q`` lies."""
    if c["kind"] == "vector":
        G = block_function(c)[0]
        return _preimage(G.inner, q)
    return _preimage(term_of(c["terms"][1]), q) if c["kind"] == "forall" else q


def _block_evidence(G, n: int, m: int, how: str) -> dict:
    """A block argument's evidence, recomputed from ``G``: the split digit chain, the GF(2) view, the bound."""
    if how == "digits":
        from .blocks import _split
        return {"digits": [{"extent": d.extent, "weight": d.weight, "coef": d.coef}
                           for d in _split(linearize(G, n), m)]}
    if how == "columns":
        from .linear import evaluate
        c0 = evaluate(G, 0)
        return {"columns": [evaluate(G, 1 << j) ^ c0 for j in range(n.bit_length() - 1)], "constant": c0}
    return {"inputs": n} if how == "inputs" else {}


# the evidence a block proof's certificate kind (blocks.py) stands on
HOW = {"contiguous": "digits", "aligned": "digits", "injective": "digits", "gf2-block": "columns",
       "exhaustive": "inputs", "refinement": "digits", "gf2": "columns"}


def _set_evidence(proof) -> dict:
    c, cert, ce = proof.claim, proof.certificate, proof.counterexample or {}
    ev = {}
    if c["kind"] in ("disjoint", "contains"):
        if proof.refuted:
            ev["counterexample"] = ({"indices": [ce[Key.INDEX_OF_A], ce[Key.INDEX_OF_B]]} if c["kind"] == "disjoint"
                                    else {"index": ce[Key.INDEX_OF_A]})
        elif getattr(proof.reason, "kind", None) is Reason.SAME_FUNCTION_SUBDOMAIN:   # b == a on b's domain
            from dataclasses import replace
            same = {"kind": "equal", "terms": c["terms"][::-1], "n": c["nb"]}
            ev["same"] = certificate_of(replace(proof, claim=same, reason=""))
        elif str(proof.method) == "exhaustive":
            ev["inputs"] = c["na"] + c["nb"]
        elif cert is not None:
            ev["query"] = [[str(x) for x in row] for row in cert.table.rows]
        return ev
    G, n, m, parts = block_function(c)
    if proof.refuted:
        if Key.FIRST in ce:
            ev["counterexample"] = {"indices": [_block_input(c, ce[k][Key.INDEX]) for k in (Key.FIRST, Key.SECOND)]}
        else:
            ev["counterexample"] = {"index": _block_input(c, ce[Key.INDEX])}
        return ev
    if c["kind"] != "vector":
        return _block_evidence(G, n, m, HOW.get(cert.kind if cert is not None else "", ""))
    methods = str(proof.method).split("+")   # the contiguity part's method, then the alignment part's
    return {p: _block_evidence(G, n, m, HOW.get(mt, "")) for (p, _a), mt in zip(parts, methods * 2)}
