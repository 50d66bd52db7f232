"""The prover: equality, inverse identities, injectivity, surjectivity, bijectivity of layouts.

Method (docs/symbolic.md, "Proofs by mutual refinement"): write each side as a linear form over
bounded digits of the input index (:mod:`symcute.symbolic.linear`), refine both
to common digits, and compare coefficients; two linear forms on a box agree
everywhere iff their coefficients agree on every digit of extent > 1.  The
image questions use the sorted-stride argument on the same digits:

- injective: sorted by ``|c|``, every coefficient exceeds the span
  ``sum(|c'| * (e' - 1))`` of the smaller ones (sufficient); a zero coefficient,
  or ``|c_j| = k * |c_i|`` with ``k < e_i``, gives a concrete collision;
- surjective onto ``[0, n)``: sorted positive coefficients each at most one
  more than the span already covered, and the span reaches ``n - 1``
  (sufficient); with no negative coefficient the first uncovered value is
  exactly where that chain breaks, so the refutation is exact.

When no argument applies the prover asks the exact integer-set back-end
(:mod:`symcute.symbolic.isl_backend`: ISL decides carries, floor/mod and
domains of any size), enumerates (numpy) a domain of at most
``limits.EXHAUSTIVE_LIMIT`` inputs when ISL cannot decide (or when the domain is
so small that enumeration is cheaper), and otherwise answers "unknown".  It never
says "proved" without one of these arguments, and every counterexample is
re-evaluated with ``symcute.core`` before it is returned.
"""

from __future__ import annotations

from ..core import int_tuple as it
from ..core.composed import ComposedLayout
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..errors import SymcuteError
from . import bitsplit, exact, exhaustive, probe, prover_f2
from .formula import Formula, formula
from .limits import ENUMERATE_BEFORE_SOLVERS, HOW_TO_CHANGE, exhaustive_limit
from .linear import Compose, NotLinear, as_term, coalesce_digits, common_rows, evaluate, linearize, reason_of, \
    size_of, term_text
from .certfile import with_claim
from .proof import Certificate, Proof
from .swizzled import SwizzledFormula
from .table import Table
from .vocabulary import Cell, Column, Condition, Count, CounterexampleKey as Key, Labelled, Method, \
    Phrase, Query, Reason, Statement, Verdict, side_key

# Domains up to this size re-check a decided refutation by enumeration (cheap; larger ones rely on the
# argument alone, which is exact: enumeration is a cross-check, never the decision).
CROSS_CHECK_LIMIT = 1 << 12

# Domains up to this size are enumerated before the solvers are asked (numpy is faster there, and the
# method does not depend on the solvers' budgets); larger ones go to the solvers first, and are enumerated
# only when they cannot decide and the exhaustive limit allows it.
ENUMERATE_FIRST = ENUMERATE_BEFORE_SOLVERS


def _exact(question: str, *args):
    """The exact back-ends' answer ``(holds, witness, evidence, method)`` (see :func:`exact.decide`)."""
    return exact.decide(question, *args)


# Z3's budget where enumeration follows (at most ENUMERATE_INSTEAD_OF_ISL inputs, within the exhaustive
# limit: at most a few hundred milliseconds of numpy): sized to the enumeration it may save, about one Z3
# resource unit per this many inputs (2^20 inputs: 16,384 units, ~10-20 ms; 2^24: 262,144; a simple Z3
# proof takes ~10,000).  ISL is not asked there: its worker's stop is a wall clock, and enumeration decides
# exactly, so every claim of such a domain gets the same verdict and method on any machine.
INPUTS_PER_Z3_UNIT = 64
ENUMERATE_INSTEAD_OF_ISL = 1 << 24


def _exact_then_enumerate(question: str, n: int, limit, *args):
    """:func:`_exact` where the caller enumerates ``n`` inputs when it cannot decide: on an enumerable domain
    Z3 alone with a budget sized to the enumeration, no ISL (enumeration decides exactly)."""
    if n <= min(exhaustive_limit(limit), ENUMERATE_INSTEAD_OF_ISL):
        from . import z3_backend
        ms = max(1, n // (INPUTS_PER_Z3_UNIT * z3_backend.RLIMIT_PER_MS))
        with exact.time_budget(ms, exact.ISL_SECONDS):
            return exact.decide(question, *args, isl=False)
    return _exact(question, *args)


def _exact_certificate(evidence: str, what: Phrase, method: str) -> Certificate:
    return Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[what, evidence]]),
                       (Phrase(Condition.PROBED_INPUTS if method == Method.PROBE else Condition.EXACT_ENCODING),))


def _over_limit(why, n: int, lim: int, items: bool = False) -> Phrase:
    """``why`` with the clause that the domain (``items``: the enumeration) exceeds the exhaustive limit."""
    return Phrase(Reason.OVER_LIMIT_ITEMS if items else Reason.OVER_LIMIT, why=why, n=Count(n), limit=Count(lim),
                  how=HOW_TO_CHANGE)


def _enumerate_first(n: int, limit) -> bool:
    return n <= min(exhaustive_limit(limit), ENUMERATE_FIRST)


# --- equality ---------------------------------------------------------------------

def prove(lhs, rhs=None, domain: int | None = None, limit: int | None = None, labels=None) -> Proof:
    """Prove or refute ``lhs(i) == rhs(i)`` for every ``0 <= i < domain``; ``prove(claim)`` decides a claim
    of the claim language (:mod:`symcute.symbolic.claim`: ``prove(injective(L, 64))``).

    ``lhs``/``rhs``: Layouts, Formulas or ``Compose(outer, inner)``; ``domain``
    defaults to the common size (different sizes refute equality: one side is
    defined where the other is not).  ``labels`` names the two sides in the
    statement and the certificate (default: their CuTe notation).
    """
    from .claim import Claim, prove_claim
    if isinstance(lhs, Claim) or isinstance(rhs, Claim):
        if rhs is not None and not isinstance(rhs, int) or not isinstance(lhs, Claim) or domain is not None:
            raise SymcuteError("prove(claim) takes one claim (and optionally an exhaustive limit)")
        return prove_claim(lhs, rhs if limit is None else limit)
    if rhs is None:
        raise SymcuteError("prove: give two terms (prove(a, b): equality) or one claim (prove(injective(L)))")
    lhs, rhs = as_term(lhs), as_term(rhs)
    nl, nr = size_of(lhs), size_of(rhs)
    la, lb = labels if labels is not None else ("lhs", "rhs")
    sa, sb = labels if labels is not None else (f"[{term_text(lhs)}]", f"[{term_text(rhs)}]")
    if domain is None:
        if nl != nr:
            small = min(nl, nr)
            return Proof(Phrase(Statement.EQUAL_SIZES, a=sa, b=sb, na=nl, nb=nr), Verdict.REFUTED, Method.DOMAINS,
                         counterexample={Key.INDEX: small, Labelled(Key.SIZE, la): nl, Labelled(Key.SIZE, lb): nr},
                         reason=Phrase(Reason.DOMAINS_DIFFER, index=small, side=la if nl > nr else lb))
        n = nl
    else:
        n = _check_domain(domain)
    statement = Phrase(Statement.EQUAL, a=sa, b=sb, n=n)
    with exact.cheap_budget(n, limit):
        return with_claim(_prove_equal(lhs, rhs, n, statement, limit, (la, lb)), "equal", (lhs, rhs), n=n)


def _unless_f2(proof, fallback) -> Proof:
    """The GF(2) back-end's answer when it has one (``None``: the term has no F2 view), else ``fallback()``."""
    return proof if proof is not None else fallback()


def _bits_view(kind: str, L, statement, size: int, onto: int | None = None, limit=None, labels=None):
    """The GF(2) back-end's answer on a power-of-two domain, else the bit split's (a swizzled layout of any
    size: :mod:`symcute.symbolic.bitsplit`), else None; both run before the solvers.  For "equal", ``L`` is
    the pair of sides."""
    if kind == "equal":
        p = prover_f2.equal(L[0], L[1], size, statement, labels)
        return p if p is not None else bitsplit.equal(L[0], L[1], size, statement, labels, limit)
    if kind == "injective":
        p = prover_f2.injective(L, size, statement)
    elif kind == "surjective":
        p = prover_f2.surjective(L, size, onto, statement, limit)
    else:
        p = prover_f2.bijective(L, size, size if onto is None else onto, statement, limit)
    return p if p is not None else bitsplit.decide(kind, L, statement, size, onto, limit)


def _check_domain(n) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SymcuteError(f"prove: domain must be a positive integer, got {n!r}")
    return n


def _prove_equal(lhs, rhs, n: int, statement: str, limit, labels, names=None) -> Proof:
    try:
        a, b = linearize(lhs, n), linearize(rhs, n)
        rows = common_rows(a, b) or common_rows(coalesce_digits(a), coalesce_digits(b))
        if rows is None:
            raise NotLinear(Phrase(Reason.NO_COMMON_REFINEMENT))
    except NotLinear as e:
        return _unless_f2(_bits_view("equal", (lhs, rhs), statement, n, labels=labels, limit=limit),
                          lambda: _exhaustive_equal(lhs, rhs, n, statement,
                                                    prover_f2.why_not(reason_of(e), (lhs, rhs), n), limit, labels,
                                                    names))
    cert = _equality_certificate(rows, labels)
    diffs = [r for r in rows if r.lhs != r.rhs]
    if not diffs:
        _verify_rows(lhs, rhs, rows)
        return Proof(statement, Verdict.PROVED, Method.REFINEMENT, cert)
    r = diffs[0]
    q = r.weight
    ce = _counterexample(lhs, rhs, q, labels, names)
    ce[Key.DIGIT] = Phrase(Reason.DIGIT_COEFFICIENTS, digit=r.name, extent=r.extent, lhs=r.lhs, rhs=r.rhs)
    return Proof(statement, Verdict.REFUTED, Method.REFINEMENT, cert, ce,
                 reason=Phrase(Reason.DIGIT_DIFFERS, digit=r.name, lhs=r.lhs, rhs=r.rhs, index=q))


def _equality_certificate(rows, labels) -> Certificate:
    la, lb = labels
    via = any(r.lhs_via or r.rhs_via for r in rows)
    # the sides' labels are columns 3 and 4 (proof.SIDE_COLUMNS keeps them labels when read back)
    header = [Column.DIGIT, Column.EXTENT, Column.WEIGHT, la, lb, Column.AGREES] + \
        ([Labelled(Column.VIA, la)] if via else [])
    body = []
    for r in rows:
        line = [r.name, r.extent, r.weight, r.lhs, r.rhs, Cell.OK if r.lhs == r.rhs else Cell.DIFFERS]
        if via:
            line.append(" ; ".join(r.lhs_via) or "-")
        body.append(line)
    conditions = [Phrase(Condition.MIXED_RADIX, top=Count(_top(rows))), Phrase(Condition.LINEAR_FORMS)]
    if via:
        conditions.append(Phrase(Condition.NO_OVERFLOW))
    data = {"digits": [r._asdict() for r in rows]}
    return Certificate("equality", Table(header, body), tuple(conditions), data)


def _top(rows) -> int:
    return rows[-1].weight * rows[-1].extent if rows else 1


VERIFY_ROWS = 256  # the self-check evaluates this many digits at most: O(modes) each, never O(modes^2) in all


def _sample(rows, n: int):
    """All rows when there are at most ``n``; else ``n`` of them spread evenly, the first and the last included."""
    if len(rows) <= n:
        return rows
    step = (len(rows) - 1) / (n - 1)
    return [rows[round(k * step)] for k in range(n)]


def _verify_rows(lhs, rhs, rows) -> None:
    """Self-check of a refinement proof: each coefficient is the value at the digit's unit input."""
    if evaluate(lhs, 0) != 0 or evaluate(rhs, 0) != 0:
        raise AssertionError("refinement proof: a side is not 0 at index 0")
    for r in _sample(rows, VERIFY_ROWS):
        if evaluate(lhs, r.weight) != r.lhs or evaluate(rhs, r.weight) != r.rhs:
            raise AssertionError(f"refinement proof: coefficient of {r.name} does not match core evaluation")


def _counterexample(lhs, rhs, q: int, labels, names=None) -> dict:
    vl, vr = evaluate(lhs, q), evaluate(rhs, q)
    if vl == vr:
        raise AssertionError(f"counterexample {q} does not separate the two sides ({vl})")
    la, lb = labels
    ce = {Key.INDEX: q}
    coord = _coordinate(_innermost(lhs), q)
    if coord is not None:
        ce[Key.COORDINATE] = coord
    ce[side_key(la)] = vl
    ce[side_key(lb)] = vr
    chain = _chain(lhs, q, names or {})
    if chain:
        ce[Labelled(Key.STEPS, la)] = chain
    return ce


def _innermost(term):
    while isinstance(term, Compose):
        term = term.inner
    return term


def _coordinate(term, q: int):
    layout = term.layout if isinstance(term, Formula) else term
    if not isinstance(getattr(layout, "shape", None), tuple) or not 0 <= q < layout.size():
        return None
    return it.idx2crd(q, layout.shape)


def _chain(term, q: int, names: dict) -> str:
    """``F(64) = 0 -> G(0) = 0`` for a composite (``names``: id(term) -> label), empty for a plain layout."""
    if not isinstance(term, Compose):
        return ""
    steps, x = [], q
    for t in _flatten_compose(term):
        y = evaluate(t, x)
        steps.append(f"{names.get(id(t), term_text(t))}({x}) = {y}")
        x = y
    return " -> ".join(steps)


def _flatten_compose(term) -> list:
    """Innermost first."""
    if isinstance(term, Compose):
        return _flatten_compose(term.inner) + _flatten_compose(term.outer)
    return [term]


def _exhaustive_equal(lhs, rhs, n, statement, why, limit, labels, names=None) -> Proof:
    lim = exhaustive_limit(limit)
    if not _enumerate_first(n, limit):
        holds, q, evidence, method = _exact_then_enumerate("equal", n, limit, lhs, rhs, n)
        if holds is not None:
            cert = _exact_certificate(evidence, Phrase(Query.DIFFERENT_INDICES), method)
            if holds:
                return Proof(statement, Verdict.PROVED, method, cert, reason=why)
            return Proof(statement, Verdict.REFUTED, method, cert, _counterexample(lhs, rhs, q, labels, names),
                         reason=Phrase(Reason.FIRST_DIFFERENCE, index=q))
        why = Phrase(Reason.EXACT_UNDECIDED, why=why, evidence=evidence)
    if n > lim:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=_over_limit(why, n, lim))
    q = exhaustive.first_difference(lhs, rhs, n, lim)
    cert = Certificate("exhaustive", Table([Column.INPUTS, Column.MISMATCHES], [[n, 0 if q is None else "≥1"]]),
                       (Phrase(Condition.EVALUATED_BOTH, n=n),))
    if q is None:
        return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert, reason=why)
    return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, cert, _counterexample(lhs, rhs, q, labels, names),
                 reason=Phrase(Reason.FIRST_DIFFERENCE, index=q))


# --- inverse identities --------------------------------------------------------------

def prove_right_inverse(L, R=None, limit: int | None = None, labels=("L", "R")) -> Proof:
    """``L(R(i)) == i`` for all ``i < size(R)`` (``R`` defaults to ``right_inverse(L)``)."""
    L = as_term(L)
    if R is None:
        R = _default_inverse(L, "right")
    R = as_term(R)
    n = size_of(R)
    a, b = labels
    statement = Phrase(Statement.RIGHT_INVERSE, a=a, b=b, n=n, L=term_text(L), R=term_text(R))
    C = Compose(L, R)
    with exact.cheap_budget(n, limit):
        return with_claim(_prove_equal(C, _identity(n), n, statement, limit, (f"{a}({b}(i))", "i"),
                            {id(C.outer): a, id(C.inner): b}),
                          "equal", (C, _identity(n)), n=n)


def prove_left_inverse(L, R=None, limit: int | None = None, labels=("L", "R")) -> Proof:
    """``R(L(x)) == x`` for all ``x < size(L)`` (``R`` defaults to ``left_inverse(L)``)."""
    L = as_term(L)
    if R is None:
        R = _default_inverse(L, "left")
    R = as_term(R)
    n = size_of(L)
    a, b = labels
    statement = Phrase(Statement.LEFT_INVERSE, a=a, b=b, n=n, L=term_text(L), R=term_text(R))
    C = Compose(R, L)
    with exact.cheap_budget(n, limit):
        return with_claim(_prove_equal(C, _identity(n), n, statement, limit, (f"{b}({a}(x))", "x"),
                            {id(C.outer): b, id(C.inner): a}),
                          "equal", (C, _identity(n)), n=n)


def _default_inverse(L, side: str):
    from . import ops
    if isinstance(L, Compose):
        raise SymcuteError(f"prove_{side}_inverse: give the inverse of a composite explicitly")
    L = L.layout if isinstance(L, SwizzledFormula) else L
    if isinstance(L, (ComposedLayout, Swizzle)):  # CuTe's own inverse of a swizzled layout (core's value)
        from ..core.inverse import left_inverse, right_inverse
        return right_inverse(L) if side == "right" else left_inverse(L)
    try:
        return ops.right_inverse(L) if side == "right" else ops.left_inverse(L)
    except SymcuteError:
        # CuTe's value has no formula (left_inverse(4:-1) is (-1,4):(0,1), an extent -1): prove with core's
        # value itself (a refusal of CuTe's, such as its divisibility condition, is raised again here)
        from ..core.inverse import left_inverse, right_inverse
        layout = L.layout if isinstance(L, Formula) else L
        return right_inverse(layout) if side == "right" else left_inverse(layout)


def _identity(n: int) -> Layout:
    return Layout(n, 1) if n > 1 else Layout(1, 0)


# --- image questions ------------------------------------------------------------------

def is_injective(L, limit: int | None = None) -> Proof:
    """``L(x) != L(y)`` for all distinct ``x, y < size(L)``."""
    L = as_term(L)
    with exact.cheap_budget(size_of(L), limit):
        return with_claim(_is_injective(L, limit), "injective", (L,), n=size_of(L))


def _is_injective(L, limit) -> Proof:
    n = size_of(L)
    statement = Phrase(Statement.INJECTIVE, a=term_text(L), n=n)
    try:
        digits = linearize(L, n)
    except NotLinear as e:
        return _unless_f2(_bits_view("injective", L, statement, n),
                          lambda: _exhaustive_injective(L, n, statement, prover_f2.why_not(reason_of(e), (L,), n),
                                                        limit))
    for d in digits:
        if d.coef == 0:
            return _collision(L, statement, 0, d.weight, Phrase(Reason.ZERO_STRIDE, digit=d.name, extent=d.extent),
                              digits)
    order = sorted(digits, key=lambda d: abs(d.coef))
    rows, span, ok = [], 0, True
    for d in order:
        good = abs(d.coef) > span
        rows.append([d.name, d.extent, abs(d.coef), span, Cell.OK if good else Cell.FAILS])
        ok = ok and good
        span += abs(d.coef) * (d.extent - 1)
    cert = Certificate("injective", Table([Column.DIGIT, Column.EXTENT, Column.ABS_STRIDE, Column.SPAN_BELOW,
                                              Column.ABOVE_SPAN], rows),
                       (Phrase(Condition.CHAIN_INJECTIVE),))
    if ok:
        return Proof(statement, Verdict.PROVED, Method.CHAIN, cert)
    pair = _find_collision(order)
    if pair is not None:
        x, y, why = pair
        return _collision(L, statement, x, y, why, digits, cert)
    return _unless_f2(_bits_view("injective", L, statement, n), lambda: _exhaustive_injective(
        L, n, statement, Phrase(Reason.NO_CHAIN), limit))


def _find_collision(order):
    """A pair of inputs with equal values from two digits whose strides are multiples (``|c_j| = k|c_i|``)."""
    for j, dj in enumerate(order):
        for di in order[:j]:
            ci, cj = abs(di.coef), abs(dj.coef)
            if cj % ci == 0 and cj // ci < di.extent:
                k = cj // ci
                same = (di.coef > 0) == (dj.coef > 0)
                x, y = (dj.weight, k * di.weight) if same else (k * di.weight + dj.weight, 0)
                return x, y, (Phrase(Reason.SAME_VALUE, digit=dj.name, other=di.name, k=k) if same else
                              Phrase(Reason.CANCEL, other=di.name, k=k, digit=dj.name))
    return None


def _collision(L, statement, x, y, why, digits, cert=None) -> Proof:
    vx, vy = evaluate(L, x), evaluate(L, y)
    if vx != vy or x == y:
        raise AssertionError(f"collision {x}, {y} is not one ({vx} vs {vy})")
    x, y = min(x, y), max(x, y)
    ce = {Key.INDICES: (x, y), Key.VALUE: vx}
    cx, cy = _coordinate(_innermost(L), x), _coordinate(_innermost(L), y)
    if cx is not None:
        ce[Key.COORDINATES] = (cx, cy)
    return Proof(statement, Verdict.REFUTED, Method.CHAIN, cert, ce, reason=why)


def _exhaustive_injective(L, n, statement, why, limit) -> Proof:
    lim = exhaustive_limit(limit)
    if not _enumerate_first(n, limit):
        holds, pair, evidence, method = _exact_then_enumerate("injective", n, limit, L, n)
        if holds is not None:
            cert = _exact_certificate(evidence, Phrase(Query.EQUAL_PAIRS), method)
            if holds:
                return Proof(statement, Verdict.PROVED, method, cert, reason=why)
            found = Reason.COLLISION_FOUND if method == Method.ISL else Reason.COLLISION   # the method says who
            p = _collision(L, statement, pair[0], pair[1], Phrase(found), None, cert)
            return Proof(p.statement, p.verdict, method, cert, p.counterexample, p.reason)
        why = Phrase(Reason.EXACT_UNDECIDED, why=why, evidence=evidence)
    if n > lim:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=_over_limit(why, n, lim))
    v = exhaustive.values(L, n, lim)
    pair = exhaustive.first_collision(v)
    cert = Certificate("exhaustive", Table([Column.INPUTS, Column.DISTINCT_VALUES], [[n, n if pair is None else "<n"]]),
                       (Phrase(Condition.EVALUATED, n=n),))
    if pair is None:
        return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert, reason=why)
    p = _collision(L, statement, pair[0], pair[1], Phrase(Reason.COLLISION), None, cert)
    return Proof(p.statement, p.verdict, "exhaustive", cert, p.counterexample, p.reason)


def is_surjective(L, n: int, limit: int | None = None) -> Proof:
    """Every ``y`` in ``[0, n)`` is ``L(x)`` for some ``x < size(L)``."""
    L = as_term(L)
    n = _check_domain(n)
    with exact.cheap_budget(max(size_of(L), n), limit):
        return with_claim(_is_surjective(L, n, limit), "surjective", (L,), size=size_of(L), onto=n)


def _is_surjective(L, n: int, limit) -> Proof:
    size = size_of(L)
    statement = Phrase(Statement.SURJECTIVE, a=term_text(L), size=size, n=n)
    try:
        digits = linearize(L, size)
    except NotLinear as e:
        return _unless_f2(_bits_view("surjective", L, statement, size, n, limit),
                          lambda: _exhaustive_surjective(L, size, n, statement,
                                                         prover_f2.why_not(reason_of(e), (L,), size), limit))
    order = sorted((d for d in digits if d.coef > 0), key=lambda d: d.coef)
    covered, rows, gap = 0, [], None
    for d in order:
        good = d.coef <= covered + 1
        rows.append([d.name, d.extent, d.coef, covered, Cell.OK if good else Cell.GAP])
        if not good:
            gap = covered + 1
            break
        covered += d.coef * (d.extent - 1)
    cert = Certificate("surjective",
                       Table([Column.DIGIT, Column.EXTENT, Column.STRIDE, Column.COVERED_BELOW, Column.WITHIN_COVER], rows),
                       (Phrase(Condition.CHAIN_COVERS, covered=covered),))
    if covered >= n - 1:
        return Proof(statement, Verdict.PROVED, Method.CHAIN, cert)
    y = covered + 1
    if all(d.coef >= 0 for d in digits):
        _confirm_missing(L, size, y, digits, limit)
        if gap is not None:
            c = order[len(rows) - 1].coef
            why = Phrase(Reason.GAP, c=c, covered=covered, y=y)
        else:
            why = Phrase(Reason.LARGEST_VALUE, top=covered)
        return Proof(statement, Verdict.REFUTED, Method.CHAIN, cert, {Key.MISSING_VALUE: y}, reason=why)
    return _exhaustive_surjective(L, size, n, statement, Phrase(Reason.NEGATIVE_STRIDES), limit)


def _confirm_missing(L, size, y, digits, limit) -> None:
    """Re-check a non-surjectivity refutation: the coefficients by core evaluation; the value by enumeration
    when the domain is small enough."""
    for d in digits:
        if evaluate(L, d.weight) != d.coef:
            raise AssertionError(f"surjectivity: coefficient of {d.name} does not match core evaluation")
    # the chain argument has decided (non-negative coefficients): enumerate only as a cheap cross-check
    if size <= min(exhaustive_limit(limit), CROSS_CHECK_LIMIT):
        v = exhaustive.values(L, size, limit)
        if (v == y).any():
            raise AssertionError(f"surjectivity: value {y} is hit after all")


# A value an exact back-end says is never taken is re-checked before it is shown, whatever the size: by
# enumeration with core's evaluation up to this many inputs (numpy, well under a second), beyond by
# the other decision procedure (Z3's "some x hits v" query must be unsat).
RECHECK_ENUMERATION = 1 << 20


def confirm_missing(term, size: int, value: int):
    """``(True, how)`` when no input ``x < size`` has ``term(x) == value``, checked independently of the back-end
    that found ``value``; ``(False, why)`` when the check finds such an input or cannot decide."""
    if size <= RECHECK_ENUMERATION:
        hit = bool((exhaustive.values(term, size, size) == value).any())
        return not hit, f"{size} inputs evaluated with core: {'one takes it' if hit else 'none takes it'}"
    hit, _x, evidence, _method = exact.decide("hits", term, size, value)
    return hit is False, evidence


def _exhaustive_surjective(L, size, n, statement, why, limit) -> Proof:
    lim = exhaustive_limit(limit)
    if not _enumerate_first(max(size, n), limit):
        holds, y, evidence, method = _exact_then_enumerate("covers", max(size, n), limit, L, size, n)
        if holds is not None:
            cert = _exact_certificate(evidence, Phrase(Query.OUTSIDE_IMAGE, n=n), method)
            if holds:
                return Proof(statement, Verdict.PROVED, method, cert, reason=why)
            confirmed, check = confirm_missing(L, size, y)
            if not confirmed:
                return Proof(statement, Verdict.UNKNOWN, Method.NONE,
                             reason=Phrase(Reason.NOT_REPRODUCED, backend=method, what=f"{y} is never taken",
                                           check=check))
            return Proof(statement, Verdict.REFUTED, method, cert, {Key.MISSING_VALUE: y},
                         reason=Phrase(Reason.NOT_HIT, y=y))
        why = Phrase(Reason.EXACT_UNDECIDED, why=why, evidence=evidence)
    if size > lim or n > lim:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=_over_limit(why, max(size, n), lim, items=True))
    v = exhaustive.values(L, size, lim)
    y = exhaustive.first_missing(v, n, lim)
    cert = Certificate("exhaustive", Table([Column.INPUTS, Column.TARGETS], [[size, n]]), (Phrase(Condition.EVALUATED, n=size),))
    if y is None:
        return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert, reason=why)
    return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, cert, {Key.MISSING_VALUE: y},
                 reason=Phrase(Reason.NOT_HIT, y=y))


def is_bijective(L, n: int | None = None, limit: int | None = None) -> Proof:
    """``L`` is a bijection from ``[0, size(L))`` onto ``[0, n)`` (``n`` defaults to ``size(L)``)."""
    L = as_term(L)
    size = size_of(L)
    n = size if n is None else _check_domain(n)
    with exact.cheap_budget(max(size, n), limit):
        return with_claim(_is_bijective(L, size, n, limit), "bijective", (L,), size=size, onto=n)


def _is_bijective(L, size: int, n: int, limit) -> Proof:
    statement = Phrase(Statement.BIJECTIVE, a=term_text(L), size=size, n=n)
    try:
        digits = linearize(L, size)
    except NotLinear:
        digits = None
        out = probe.refute("inside", (L, size, n))   # a value outside the target at a cheap input refutes
        if out is not None:
            x, evidence = out
            v = evaluate(L, x)
            if 0 <= v < n:
                raise AssertionError(f"probe: value {v} at {x} is inside [0, {n})")
            cert = _exact_certificate(evidence, Phrase(Query.OUTSIDE_TARGET, n=n), Method.PROBE)
            return Proof(statement, Verdict.REFUTED, Method.PROBE, cert, {Key.INDEX: x, Key.VALUE: v},
                         reason=Phrase(Reason.VALUE_OUTSIDE, index=x, value=v, n=n))
        f2 = _bits_view("bijective", L, statement, size, n, limit)
        if f2 is not None:
            return f2
    if digits is not None:
        for d in digits:
            if d.coef < 0:
                return _outside(L, statement, d.weight, Phrase(Reason.NEGATIVE_STRIDE, digit=d.name), n)
        top = sum(d.coef * (d.extent - 1) for d in digits)
        if top >= n:
            x = sum((d.extent - 1) * d.weight for d in digits if d.coef > 0)
            return _outside(L, statement, x, Phrase(Reason.LARGEST_VALUE, top=top), n)
    inj = is_injective(L, limit)
    if not inj.proved:
        return Proof(statement, inj.verdict, inj.method, inj.certificate, inj.counterexample,
                     reason=Phrase(Reason.NOT_INJECTIVE, why=inj.reason) if inj.refuted else inj.reason)
    sur = is_surjective(L, n, limit)
    if not sur.proved:
        return Proof(statement, sur.verdict, sur.method, sur.certificate, sur.counterexample,
                     reason=Phrase(Reason.NOT_ONTO, why=sur.reason) if sur.refuted else sur.reason)
    if digits is None:  # the image bound was not checked symbolically
        holds, x, _evidence, method = _exact("inside", L, size, n)
        if holds is False:
            return _outside(L, statement, x, Phrase(Reason.OUTSIDE_FOUND if method == Method.ISL else Reason.OUTSIDE),
                            n)
        if holds is None:
            if size > exhaustive_limit(limit):
                return Proof(statement, Verdict.UNKNOWN, Method.NONE,
                             reason=Phrase(Reason.IMAGE_BOUND_UNKNOWN))
            v = exhaustive.values(L, size, limit)
            bad = [i for i in (int(v.argmin()), int(v.argmax())) if not 0 <= int(v[i]) < n]
            if bad:
                return _outside(L, statement, bad[0], Phrase(Reason.OUTSIDE), n)
    conds = (inj.certificate.conditions if inj.certificate else ()) + \
            (sur.certificate.conditions if sur.certificate else ()) + (Phrase(Condition.IN_TARGET, n=n),)
    cert = Certificate("bijective", inj.certificate.table if inj.certificate else Table([], []), conds,
                       {"surjective": sur.certificate.to_dict() if sur.certificate else None})
    methods = {inj.method, sur.method}
    method = "chain" if methods == {"chain"} else next((m for m in ("isl", "z3") if m in methods), "exhaustive")
    return Proof(statement, Verdict.PROVED, method, cert)


def _outside(L, statement, x, why, n) -> Proof:
    v = evaluate(L, x)
    if 0 <= v < n:
        raise AssertionError(f"value {v} at {x} is inside [0, {n})")
    return Proof(statement, Verdict.REFUTED, Method.CHAIN, None, {Key.INDEX: x, Key.VALUE: v},
                 reason=Phrase(Reason.OUTSIDE_TARGET, why=why, n=n))


def broadcast_axes(L) -> tuple:
    """The sub-axes of stride 0 and extent > 1 (``(SubAxis('wn', 2, 64, 0, 3),)`` for the seed's F)."""
    f = L if isinstance(L, Formula) else formula(L)
    return f.broadcast_axes()


# --- showing values ---------------------------------------------------------------------

class Witness:
    """A layout evaluated at one input, with the named digits of the input shown."""

    __slots__ = ("formula", "index", "coordinate", "digits", "value")

    def __init__(self, f: Formula, x):
        self.formula = f
        self.index = f.index_of(x)
        self.digits = f.digits_of(self.index)
        self.coordinate = x
        self.value = f(x)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Witness({self.text()!r})"

    def text(self, label: str = "L") -> str:
        """``F(64, 4) = 0*wn + 256*v2 = 256 at wn=1, v2=1 (index 576)``."""
        nz = {k: v for k, v in self.digits.items() if v}
        terms = " + ".join(f"{self.formula.axis(k).stride}*{k}" for k in nz) or "0"
        at = ", ".join(f"{k}={v}" for k, v in nz.items()) or "all digits 0"
        return f"{label}{_fmt_coord(self.coordinate)} = {terms} = {self.value} at {at} (index {self.index})"

    def to_dict(self) -> dict:
        return {"index": self.index, "coordinate": self.coordinate, "digits": self.digits, "value": self.value}


def witness(L, x) -> Witness:
    """``L`` at ``x`` (an index or a coordinate) with its digits: ``witness(F, (64, 4)).value == 256``."""
    f = L if isinstance(L, Formula) else formula(L)
    return Witness(f, x)


def _fmt_coord(x) -> str:
    return "(" + ", ".join(str(c) for c in x) + ")" if isinstance(x, tuple) else f"({x})"
