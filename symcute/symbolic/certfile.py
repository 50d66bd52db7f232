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
from .vocabulary import CounterexampleKey as Key

FORMAT = "symcute-certificate"
VERSION = 1
DOMAIN_KEYS = {"equal": ("n",), "injective": ("n",), "surjective": ("size", "onto"), "bijective": ("size", "onto")}
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
    return {"kind": kind, "terms": [term_json(t) for t in terms], **{k: numbers[k] for k in DOMAIN_KEYS[kind]}}


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
        inner = [t.inner for t in terms]
        sub = claim("equal", inner, n=c["n"]) if c["kind"] == "equal" else claim("injective", inner, n=c["n"])
        (cd, _verdict, method), = parts.values()
        return {"part": {"method": method, "evidence": _method_evidence(method, cd, sub, True)}}
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
    ev = {}
    cert = proof.certificate
    if proof.refuted:
        ce = proof.counterexample or {}
        ev["counterexample"] = {COUNTEREXAMPLE_KEYS[k]: _plain(v) for k, v in ce.items() if k in COUNTEREXAMPLE_KEYS}
    method = method_of(proof)
    if method in BLOCK_KINDS or (proof.refuted and cert is not None and cert.kind == "block-split"
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
