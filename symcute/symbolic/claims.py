"""Claims about images: disjointness and containment of two layouts' value sets (complement's contract).

``images_disjoint(A, B)``: no value of A on ``[0, size(A))`` is a value of B on
``[0, size(B))``; refuted with the two indices whose values meet.
``image_contains(B, A)``: every value of A is a value of B; refuted with an
index of A whose value B never takes.  Both accept Layouts, Formulas,
``Compose`` terms and composed (swizzled) layouts, an optional domain for
each side (a sub-domain ``[0, n)``), and answer as every prover function does:
proved / refuted (counterexample re-evaluated with core) / unknown.

Small domains are enumerated (exact, numpy); larger ones go to the exact back-ends
(Z3 for disjointness, ISL for containment, which needs a projection).
"""

from __future__ import annotations

from . import exact
from .certfile import with_claim
from .limits import ENUMERATE_BEFORE_SOLVERS, exhaustive_limit
from .linear import as_term, evaluate, size_of, term_text
from .proof import Certificate, Proof
from .vocabulary import Column, Condition, CounterexampleKey as Key, Method, Phrase, Query, Reason, Statement, \
    Verdict
from .table import Table

# Domains (the inputs of the two sides together) up to this size are enumerated (numpy, core's values)
# before any solver is asked.
ENUMERATE_BELOW = ENUMERATE_BEFORE_SOLVERS


def _domain(term, n):
    from ..errors import SymcuteError
    size = size_of(term)
    if n is None:
        return size
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SymcuteError(f"claim domain must be a positive integer, got {n!r}")
    return n


def images_disjoint(a, b, domain_a: int | None = None, domain_b: int | None = None,
                    limit: int | None = None) -> Proof:
    """``a(x) != b(y)`` for every ``x < domain_a`` and ``y < domain_b`` (domains default to the sizes)."""
    a, b = as_term(a), as_term(b)
    na, nb = _domain(a, domain_a), _domain(b, domain_b)
    return with_claim(_disjoint(a, b, na, nb, limit), "disjoint", (a, b), na=na, nb=nb)


def _disjoint(a, b, na: int, nb: int, limit) -> Proof:
    statement = Phrase(Statement.DISJOINT, a=term_text(a), na=na, b=term_text(b), nb=nb)
    if na + nb <= min(exhaustive_limit(limit), ENUMERATE_BELOW):
        pair = _enumerate(a, na, b, nb, "shared")
        cert = _enumerated(na + nb)
        if pair is None:
            return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert)
        return _met(statement, a, b, pair[0], pair[1], "exhaustive", cert)
    holds, pair, evidence, method = exact.decide("disjoint", a, na, b, nb)
    if holds is None:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=evidence)
    cert = Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[Phrase(Query.COMMON_VALUE), evidence]]), ())
    if holds:
        return Proof(statement, Verdict.PROVED, method, cert)
    return _met(statement, a, b, pair[0], pair[1], method, cert)


def _met(statement, a, b, x, y, method, cert) -> Proof:
    va, vb = evaluate(a, x), evaluate(b, y)
    if va != vb:   # a back-end's wrong witness is a bug: never shown
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=Phrase(
            Reason.NOT_REPRODUCED, backend=method, what=f"a({x}) = b({y})", check=f"core: {va} != {vb}"))
    return Proof(statement, Verdict.REFUTED, method, cert, {Key.INDEX_OF_A: x, Key.INDEX_OF_B: y, Key.VALUE: va},
                 reason=Phrase(Reason.MEET, a=term_text(a), x=x, b=term_text(b), y=y, value=va))


def image_contains(b, a, domain_b: int | None = None, domain_a: int | None = None,
                   limit: int | None = None) -> Proof:
    """Every value ``a(x)``, ``x < domain_a``, is ``b(y)`` for some ``y < domain_b``.  The certificate states
    the claim language's ``contains(b, a)``: terms ``[b, a]``, ``na`` b's domain, ``nb`` a's."""
    a, b = as_term(a), as_term(b)
    na, nb = _domain(a, domain_a), _domain(b, domain_b)
    return with_claim(_contains(b, a, nb, na, limit), "contains", (b, a), na=nb, nb=na)


def _contains(b, a, nb: int, na: int, limit) -> Proof:
    statement = Phrase(Statement.CONTAINS, b=term_text(b), nb=nb, a=term_text(a), na=na)
    if na + nb <= min(exhaustive_limit(limit), ENUMERATE_BELOW):
        x = _enumerate(a, na, b, nb, "outside")
        cert = _enumerated(na + nb)
        if x is None:
            return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert)
        return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, cert, {Key.INDEX_OF_A: x, Key.VALUE: evaluate(a, x)},
                     reason=_not_in_b(a, b, x))
    if na <= nb:  # the same function on a's domain: a sub-domain of b's
        from .prover import prove
        same = prove(a, b, domain=na, limit=0)
        if same.proved:
            return Proof(statement, Verdict.PROVED, same.method, same.certificate,
                         reason=Phrase(Reason.SAME_FUNCTION_SUBDOMAIN, na=na, nb=nb))
    missing = _absent_value(a, na, b, nb)
    if missing is not None:
        x, evidence = missing
        cert = Certificate("z3", Table([Column.EXACT_QUERY, Column.RESULT], [[Phrase(Query.VALUE_NOT_IN_B), evidence]]), ())
        return Proof(statement, Verdict.REFUTED, Method.Z3, cert, {Key.INDEX_OF_A: x, Key.VALUE: evaluate(a, x)},
                     reason=_not_in_b(a, b, x))
    holds, x, evidence, method = exact.decide("subset", a, na, b, nb)
    if holds is None:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=evidence)
    cert = Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[Phrase(Query.OUTSIDE_B), evidence]]), ())
    if holds:
        return Proof(statement, Verdict.PROVED, method, cert)
    from .prover import confirm_missing
    confirmed, check = confirm_missing(b, nb, evaluate(a, x)) if 0 <= x < na else (False, f"index {x} of a")
    if not confirmed:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE,
                     reason=Phrase(Reason.NOT_REPRODUCED, backend=method, what=f"b never takes a({x})", check=check))
    return Proof(statement, Verdict.REFUTED, method, cert, {Key.INDEX_OF_A: x, Key.VALUE: evaluate(a, x)},
                 reason=_not_in_b(a, b, x))


def _not_in_b(a, b, x) -> Phrase:
    return Phrase(Reason.NOT_IN_B, b=term_text(b), x=x, a=term_text(a), value=evaluate(a, x))


def _absent_value(a, na, b, nb, tries: int = 12):
    """A sampled index of a whose value b never takes (Z3 proves the absence), or None."""
    import random
    rng = random.Random(na * 1000003 + nb)
    candidates = [0, na - 1, na // 2] + [rng.randrange(na) for _ in range(tries)]
    for x in candidates:
        with exact.time_budget(500, 1.0):   # a search for a refutation: each query short
            hit, _y, evidence, _method = exact.decide("hits", b, nb, evaluate(a, x))
        if hit is False:
            return x, evidence
        if hit is None:
            return None
    return None


def _enumerate(a, na, b, nb, question):
    """Every value of both sides: ``"shared"``: the smallest ``x`` with ``a(x)`` a value of ``b`` and the smallest
    such ``y``, ``"outside"``: the smallest ``x`` with ``a(x)`` no value of ``b`` (None: there is none).

    Vectorised (:mod:`symcute.symbolic.exhaustive`); values that are not integers (a basis stride's
    coordinates) are compared as core gives them, point by point.
    """
    from ..errors import LayoutError
    from . import exhaustive
    try:
        va, vb = exhaustive.values(a, na, na), exhaustive.values(b, nb, nb)
    except LayoutError:
        if question == "shared":
            seen = {}
            for y in range(nb):
                seen.setdefault(evaluate(b, y), y)
            x = next((x for x in range(na) if evaluate(a, x) in seen), None)
            return None if x is None else (x, seen[evaluate(a, x)])
        image = {evaluate(b, y) for y in range(nb)}
        return next((x for x in range(na) if evaluate(a, x) not in image), None)
    return exhaustive.first_shared(va, vb) if question == "shared" else exhaustive.first_outside(va, vb)


def _enumerated(n: int) -> Certificate:
    return Certificate("exhaustive", Table([Column.INPUTS_EVALUATED], [[n]]), (Phrase(Condition.EVALUATED_WITH_CORE),))
