"""The GF(2) back-end of the prover: swizzled and power-of-two layouts decided by rank and kernel.

On a domain ``[0, 2^k)`` an F2-affine term (:mod:`symcute.symbolic.bits`) is
``q -> M q ^ c`` on the bits of the index ``q``, and every claim the prover
makes reduces to linear algebra on the ``k`` columns of ``M``:

- injective iff ``rank M = k``; a kernel vector ``v`` gives the collision ``(0, v)``;
- the image is the coset ``c + im M``; it covers ``[0, n)`` iff ``c`` and every
  unit vector ``e_i`` with ``2^i < n`` lie in ``im M``; otherwise the smallest
  missing value is ``0`` (``c`` outside) or the first such ``e_i`` outside
  (every smaller integer is a sum of smaller unit vectors, which are inside);
- two terms agree on ``[0, n)`` (``2^(k-1) < n <= 2^k``) iff their matrices and
  constants agree, and else at ``0`` or at ``2^j < n`` for a differing column ``j``.

The cost is O(k^2) word operations whatever ``2^k`` is.  Each function returns
a :class:`~symcute.symbolic.proof.Proof`, or ``None`` when the term has no F2
view (the caller then falls back).  Matrices are checked against core at the
unit inputs, and every counterexample is re-evaluated with core.
"""

from __future__ import annotations

from .bits import NotF2Linear, bit_layout, integer_map
from .f2 import F2Matrix, bit_positions
from .proof import Certificate, Proof
from .vocabulary import Cell, Column, Condition, CounterexampleKey as Key, Labelled, Method, Phrase, Reason, \
    Verdict, side_key
from .swizzled import SwizzledFormula
from .table import Table

WHY_LINEAR = Phrase(Condition.F2_AFFINE)


def index_map(term, k: int):
    """``(M, c)`` with ``term(q) == M q ^ c`` for every ``q < 2^k``.  @raises NotF2Linear"""
    from .linear import Compose, layout_of
    if isinstance(term, Compose):
        m, c = index_map(term.inner, k)
        mo, co = integer_map(layout_of(term.outer), max(m.n_rows, c.bit_length(), 1))
        return mo.compose(m.widen(mo.n_cols)), mo(c) ^ co
    return integer_map(layout_of(term), k)


def why_not(why, terms, n: int) -> Phrase:
    """``why`` (the refinement's reason) with the reason the GF(2) back-end did not decide either."""
    k = _log2(n)
    if k is None:
        k = max(n - 1, 0).bit_length()
    for term in terms:
        try:
            index_map(term, k)
        except NotF2Linear as e:
            return Phrase(Reason.NO_F2_VIEW, why=why, detail=str(e))
    return why if _log2(n) is not None else Phrase(Reason.NO_F2_DOMAIN, why=why, n=n)


def _log2(n: int):
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


def _names(term, k: int) -> tuple:
    """Names of the ``k`` index bits: the sub-axis bits of the innermost layout where they are the index bits."""
    from .linear import Compose
    while isinstance(term, Compose):
        term = term.inner
    try:
        b = term.bits if isinstance(term, SwizzledFormula) else bit_layout(term)
        if b is None:
            raise NotF2Linear(term.reason)
        names = [x.name for x in b.inputs] if b.is_box else []
    except NotF2Linear:
        names = []
    return tuple(names[:k]) + tuple(f"q_{j}" for j in range(len(names), k))


SELF_CHECK_BITS = 256


def _view(term, k: int):
    try:
        m, c = index_map(term, k)
    except NotF2Linear:
        return None
    from .linear import evaluate
    # self-check: the matrix is core's value at the unit inputs (linearity is the bits module's argument)
    # (at most SELF_CHECK_BITS unit inputs, spread from the lowest to the highest: each costs O(modes) in core)
    js = range(k) if k <= SELF_CHECK_BITS else sorted({round(i * (k - 1) / (SELF_CHECK_BITS - 1))
                                                       for i in range(SELF_CHECK_BITS)})
    if evaluate(term, 0) != c or any(evaluate(term, 1 << j) != m.columns[j] ^ c for j in js):
        # the bits view does not describe this term (seen for basis strides over negative extents, which
        # CuTe cannot evaluate either): no GF(2) answer, the other back-ends decide or say unknown
        return None
    return m, c


def _certificate(kind: str, names, m: F2Matrix, c: int, conditions, **data) -> Certificate:
    rows = [[f"q{j}", names[j], ", ".join(map(str, bit_positions(col))) or "-"] for j, col in enumerate(m.columns)]
    table = Table([Column.INDEX_BIT, Column.NAME, Column.FLIPS], rows)
    data = {"columns": list(m.columns), "constant": c, "rank": m.rank(), "kernel": list(m.kernel()), **data}
    return Certificate(kind, table, (WHY_LINEAR, Phrase(Condition.F2_MATRIX, c=c, rows=m.n_rows, cols=m.n_cols))
                       + tuple(conditions), data)


def _collision(term, statement, x: int, y: int, why: str, cert) -> Proof:
    from .linear import evaluate
    vx, vy = evaluate(term, x), evaluate(term, y)
    if vx != vy or x == y:
        raise AssertionError(f"F2 collision {x}, {y} of {term} is not one ({vx} vs {vy})")
    x, y = min(x, y), max(x, y)
    return Proof(statement, Verdict.REFUTED, Method.GF2, cert, {Key.INDICES: (x, y), Key.VALUE: vx}, reason=why)


def injective(term, n: int, statement: str):
    """``term`` injective on ``[0, n)``; ``None`` unless ``n`` is a power of two and the term is F2-affine."""
    k = _log2(n)
    view = None if k is None else _view(term, k)
    if view is None:
        return None
    return _injective(term, k, view, _names(term, k), statement)


def _injective(term, k: int, view, names, statement: str) -> Proof:
    m, c = view
    r = m.rank()
    if r == k:
        cert = _certificate("gf2-injective", names, m, c, (Phrase(Condition.F2_FULL_RANK, rank=r, k=k),))
        return Proof(statement, Verdict.PROVED, Method.GF2, cert)
    v = min(m.kernel())
    bits = " ^ ".join(names[j] for j in bit_positions(v))
    cert = _certificate("gf2-injective", names, m, c, (Phrase(Condition.F2_KERNEL, rank=r, k=k, v=v, bits=bits),))
    return _collision(term, statement, 0, v, Phrase(Reason.F2_RANK_DEFICIENT, rank=r, k=k, v=v, bits=bits), cert)


def _missing(m: F2Matrix, c: int, n: int):
    """The smallest ``y < n`` outside ``c + im M`` (``None`` if every ``y < n`` is inside)."""
    if c >> m.n_rows or m.solve(c) is None:
        return 0
    e = m.missing()
    return e if e is not None and e < n else None


def surjective(term, size: int, n: int, statement: str, limit=None):
    """``[0, n)`` inside the image of ``term`` on ``[0, size)``; ``None`` without an F2 view."""
    k = _log2(size)
    view = None if k is None else _view(term, k)
    if view is None:
        return None
    return _surjective(term, size, n, view, _names(term, k), statement, limit)


def _surjective(term, size: int, n: int, view, names, statement: str, limit) -> Proof:
    m, c = view
    m = m.widen(max(m.n_rows, (n - 1).bit_length(), c.bit_length()))
    y = _missing(m, c, n)
    if y is None:
        cert = _certificate("gf2-surjective", names, m, c, (Phrase(Condition.F2_COVERS, c=c, n=n),))
        return Proof(statement, Verdict.PROVED, Method.GF2, cert)
    _confirm_missing(term, size, y, limit)
    cert = _certificate("gf2-surjective", names, m, c, (Phrase(Condition.F2_NOT_IN_SPACE, y=y, c=c),))
    why = (Phrase(Reason.F2_OUTSIDE_SPACE, y=y, c=c, rank=m.rank()) if y else Phrase(Reason.F2_MISSES_ZERO, c=c))
    return Proof(statement, Verdict.REFUTED, Method.GF2, cert, {Key.MISSING_VALUE: y}, reason=why)


def _confirm_missing(term, size, y, limit) -> None:
    from . import exhaustive
    from .limits import exhaustive_limit
    if size <= min(exhaustive_limit(limit), 1 << 20):
        if (exhaustive.values(term, size, limit) == y).any():
            raise AssertionError(f"F2 surjectivity: value {y} of {term} is hit after all")


def bijective(term, size: int, n: int, statement: str, limit=None):
    """``term`` a bijection from ``[0, size)`` onto ``[0, n)``; ``None`` without an F2 view."""
    k = _log2(size)
    view = None if k is None else _view(term, k)
    if view is None:
        return None
    names = _names(term, k)
    inj = _injective(term, k, view, names, statement)
    if not inj.proved:
        return Proof(statement, inj.verdict, "gf2", inj.certificate, inj.counterexample,
                     Phrase(Reason.NOT_INJECTIVE, why=inj.reason))
    sur = _surjective(term, size, n, view, names, statement, limit)
    if not sur.proved:
        return Proof(statement, sur.verdict, "gf2", sur.certificate, sur.counterexample,
                     Phrase(Reason.NOT_ONTO, why=sur.reason))
    m, c = view
    if n < size:  # injective with 2^k values, n of them below n: the largest value lies outside
        top = _largest(m)
        x = m.solve(top ^ c)
        from .linear import evaluate
        v = evaluate(term, x)
        if v < n:
            raise AssertionError(f"F2 bijectivity: value {v} at {x} is inside [0, {n})")
        return Proof(statement, Verdict.REFUTED, Method.GF2, inj.certificate, {Key.INDEX: x, Key.VALUE: v},
                     reason=Phrase(Reason.F2_TOO_MANY, size=size, n=n, v=v, x=x))
    cert = _certificate("gf2-bijective", names, m, c,
                        (Phrase(Condition.F2_INJECTIVE, k=k), Phrase(Condition.F2_ONTO, n=n, size=size)))
    return Proof(statement, Verdict.PROVED, Method.GF2, cert)


def _largest(m: F2Matrix) -> int:
    """The largest vector of the column space (greedy over the echelon basis, highest leading bit first)."""
    v = 0
    for b in m.image():
        if v ^ b > v:
            v ^= b
    return v


def equal(lhs, rhs, n: int, statement: str, labels):
    """``lhs(i) == rhs(i)`` on ``[0, n)``; ``None`` unless both sides are F2-affine on ``[0, 2^k)``."""
    k = max(n - 1, 0).bit_length()
    a, b = _view(lhs, k), _view(rhs, k)
    if a is None or b is None:
        return None
    (ma, ca), (mb, cb) = a, b
    names = _names(lhs, k)
    la, lb = labels
    rows = [[f"q{j}", names[j], ", ".join(map(str, bit_positions(x))) or "-",
             ", ".join(map(str, bit_positions(y))) or "-", Cell.OK if x == y else Cell.DIFFERS]
            for j, (x, y) in enumerate(zip(ma.columns, mb.columns))]
    rows.append(["const", "-", ca, cb, Cell.OK if ca == cb else Cell.DIFFERS])
    header = [Column.INDEX_BIT, Column.NAME, Labelled(Column.FLIPS_OF, la), Labelled(Column.FLIPS_OF, lb), Column.AGREES]
    cert = Certificate("gf2-equality", Table(header, rows),
                       (Phrase(Condition.F2_AFFINE_BOTH), Phrase(Condition.F2_EQUAL, top=1 << k, n=n)),
                       {"lhs": {"columns": list(ma.columns), "constant": ca},
                        "rhs": {"columns": list(mb.columns), "constant": cb}})
    if ca == cb and ma.columns == mb.columns:
        return Proof(statement, Verdict.PROVED, Method.GF2, cert)
    q = 0 if ca != cb else 1 << next(j for j in range(k) if ma.columns[j] != mb.columns[j])
    from .linear import evaluate
    vl, vr = evaluate(lhs, q), evaluate(rhs, q)
    if vl == vr or q >= n:
        raise AssertionError(f"F2 counterexample {q} does not separate {lhs} and {rhs}")
    why = (Phrase(Reason.F2_CONSTANTS_DIFFER, lhs=ca, rhs=cb) if q == 0 else
           Phrase(Reason.F2_BIT_DIFFERS, bit=names[q.bit_length() - 1]))
    return Proof(statement, Verdict.REFUTED, Method.GF2, cert, {Key.INDEX: q, side_key(la): vl, side_key(lb): vr},
                 reason=why)
