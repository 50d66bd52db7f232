"""Certificates of parametric claims: a ParamProof's verdict in the format ``symcute.check`` re-verifies.

The claim states its layouts in their printed notation (leaves are expressions in the declared names,
``((128,32),(M/128,K/32)):((K,1),(128*K,32))``), its parameters with their side conditions
(``{"name": "M", "multiple": 128, "lo": 128, "hi": null}``: ``M >= 128``, ``M % 128 == 0``) and, for a
formula, the sub-axis names and the expected expression.  The evidence is what the method knew: the
coefficient order of a chain argument; nothing more for same digits or a polynomial identity (the checker
recomputes both from the claim); the admissible instantiation and the index or coordinate of a
refutation.  Z3's verdicts carry no arithmetic certificate: the checker says it did not re-check them.
"""

from __future__ import annotations

from ...errors import SymcuteError
from ..certfile import FORMAT, VERSION
from ..vocabulary import Reason
from .printing import show_expr

METHODS = {Reason.PARAM_CHAIN: "param-chain", Reason.PARAM_SAME_DIGITS: "param-digits",
           Reason.PARAM_POLYNOMIAL: "param-polynomial", Reason.PARAM_Z3_NO_COORDINATE: "param-z3",
           Reason.PARAM_Z3_NO_INDEX: "param-z3", Reason.PARAM_Z3_NO_COLLISION: "param-z3",
           Reason.PARAM_Z3_MODEL: "param-z3", Reason.PARAM_SEARCH: "param-search",
           Reason.PARAM_COEFFICIENT_DIFFERS: "param-digits", Reason.PARAM_SIZES_DIFFER: "param-sizes"}


def params_json(ps) -> list:
    return [{"name": p.name, "multiple": p.multiple, "lo": p.lo, "hi": p.hi} for p in ps.params]


def claim(kind: str, layouts, ps, **extra) -> dict:
    """The claim of a parametric certificate (``kind``: ``param-equal``, ``param-injective`` or
    ``param-formula``; ``extra``: a formula's ``axes`` and ``expected``)."""
    return {"kind": kind, "terms": [str(L) for L in layouts], "params": params_json(ps), **extra}


def formula_claim(f, expected_user) -> dict:
    """A formula's claim: ``axes`` names the sub-axis of each flat leaf (None for a static size-1 leaf, which the
    formula omits)."""
    from .layout import _leaves
    names, it = [], iter(f.axes)
    for s in _leaves(f.layout.shape):
        names.append(None if type(s) is int and s == 1 else next(it).name)
    return claim("param-formula", [f.layout], f.params, axes=names, expected=show_expr(expected_user))


def certificate_of(proof) -> dict:
    """The certificate file of a parametric proof.  @raises SymcuteError for an unknown verdict or a proof
    made without a stated claim"""
    if proof.claim_data is None:
        raise SymcuteError(f"certificate: {proof.claim!s} was not made by prove_equal, prove_injective or "
                           f"prove_formula")
    if not (proof.proved or proof.refuted):
        raise SymcuteError(f"certificate: {proof.claim!s} is {proof.verdict}: only a verdict has a certificate")
    ev = dict(proof.details.get("evidence", {}))
    if proof.refuted:
        ev["witness"] = dict(proof.witness)
        co = proof.coordinate
        ev["counterexample"] = ({"size": True} if co == "size" else {"coordinate": dict(co)} if isinstance(co, dict)
                                else {"indices": list(co)} if isinstance(co, tuple) else {"index": int(co)})
    kind = getattr(proof.method, "kind", None)
    return {"format": FORMAT, "version": VERSION, "claim": proof.claim_data, "verdict": str(proof.verdict),
            "method": METHODS.get(kind, str(proof.method)), "evidence": ev,
            "prover": {"statement": str(proof.claim), "reason": str(proof.method),
                       "conditions": list(proof.conditions)}}
