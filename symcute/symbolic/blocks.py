"""Claims on every block of consecutive inputs: the engine behind "for every thread t: ..." and vector claims.

A term ``G`` on ``[0, n)`` is cut into blocks ``[k*m, (k+1)*m)`` of ``m`` inputs.
``each_block(kind, G, n, m)`` proves or refutes, for every block ``k``:

- ``"injective"``: ``y -> G(k*m + y)`` is injective on ``[0, m)``;
- ``"contiguous"``: ``G(k*m + j) == G(k*m) + step*j`` for ``j < m`` (consecutive values);
- ``"aligned"``: ``G(k*m) % alignment == 0`` (each block starts aligned).

A claim for every value of named sub-axes is one of these on ``G = term o P``,
``P`` the permutation of the input digits that puts the free digits first
(:func:`for_every`); a vector claim puts each thread's group of values first.

Method, in order: enumeration on a small domain (numpy, every input);
the linear form of ``G`` (:func:`symcute.symbolic.linear.linearize`) split at
``m``: ``G(k*m + j) = G(0) + B(k) + J(j)`` exactly, so the claims are
conditions on the coefficients (contiguous iff every in-block digit has
coefficient ``step * weight``; aligned iff ``G(0)`` and every block digit's
coefficient are multiples of the alignment; injective iff the in-block layout
``J`` is, which the prover decides); probing; enumeration up to
``limits.ENUMERATE_BEFORE_SOLVERS`` inputs; then Z3; then enumeration up to the
exhaustive limit; else unknown.  Every counterexample is re-evaluated with core.
"""

from __future__ import annotations

from ..errors import SymcuteError
from . import exact
from .limits import ENUMERATE_BEFORE_SOLVERS, HOW_TO_CHANGE, exhaustive_limit
from .linear import NotLinear, evaluate, linearize, reason_of
from .proof import Certificate, Proof
from .table import Table
from .vocabulary import Cell, Column, Condition, Count, CounterexampleKey as Key, Labelled, Phrase, Query, Reason

KINDS = ("injective", "contiguous", "aligned")

# Domains up to this size are enumerated first (numpy is faster than any argument there).
ENUMERATE_FIRST = 1 << 12


def each_block(kind: str, G, n: int, m: int, statement: str, step: int = 1, alignment: int = 1,
               limit: int | None = None, show=None) -> Proof:
    """``kind`` holds on every block of ``m`` inputs of ``G`` on ``[0, n)`` (see module doc).

    ``show(i)``: the counterexample entries for input ``i`` of ``G`` (the caller's coordinates).
    @pre m divides n; for "aligned", alignment >= 1
    """
    if kind not in KINDS:
        raise SymcuteError(f"each_block: unknown claim {kind!r} (one of {', '.join(KINDS)})")
    if m < 1 or n % m:
        raise SymcuteError(f"each_block: block size {m} does not divide the domain {n}")
    if kind == "aligned" and (isinstance(alignment, bool) or not isinstance(alignment, int) or alignment < 1):
        raise SymcuteError(f"aligned: the alignment must be a positive integer, got {alignment!r}")
    show = show or (lambda i: {Key.INDEX: i})
    args = (step,) if kind == "contiguous" else (alignment,) if kind == "aligned" else ()
    lim = exhaustive_limit(limit)
    if n <= min(lim, ENUMERATE_FIRST):
        return _enumerated(kind, G, n, m, statement, args, show, lim)
    try:
        return _linear(kind, G, n, m, statement, args, show, limit)
    except NotLinear as e:
        why = reason_of(e)
    f2 = _f2(kind, G, n, m, statement, args, show)
    if f2 is not None:
        return f2
    w = _probe(kind, G, n, m, args)
    if w is not None:
        cert = Certificate("probe", Table([Column.INPUTS_TRIED, Column.FAILING_INPUT], [[Phrase(Query.BLOCK_STARTS_AND_STEPS), w]]),
                           (Phrase(Condition.PROBED),))
        return _refuted(kind, G, m, statement, w, args, show, "probe", cert)
    if n <= min(lim, ENUMERATE_BEFORE_SOLVERS):   # cheaper than a solver's query, and the same on any machine
        return _enumerated(kind, G, n, m, statement, args, show, lim)
    holds, w, evidence, method = exact.decide("block_" + kind, G, n, m, *args)
    if holds is not None:
        cert = Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[Phrase(Query.FAILING_BLOCK, kind=kind), evidence]]),
                           (Phrase(Condition.EXACT_BLOCKS),))
        if holds:
            return Proof(statement, "proved", method, cert, reason=why)
        return _refuted(kind, G, m, statement, w, args, show, method, cert)
    why = Phrase(Reason.EXACT_UNDECIDED, why=why, evidence=evidence)
    if n > lim:
        return Proof(statement, "unknown", "none", reason=Phrase(Reason.OVER_LIMIT, why=why, n=Count(n),
                                                                 limit=Count(lim), how=HOW_TO_CHANGE))
    return _enumerated(kind, G, n, m, statement, args, show, lim)


def _enumerated(kind, G, n, m, statement, args, show, lim) -> Proof:
    from . import exhaustive
    v = exhaustive.values(G, n, lim).reshape(n // m, m)
    cert = Certificate("exhaustive", Table([Column.INPUTS, Column.BLOCKS], [[n, n // m]]), (Phrase(Condition.EVALUATED, n=n),))
    w = _first_failure(kind, v, m, args)
    if w is None:
        return Proof(statement, "proved", "exhaustive", cert)
    return _refuted(kind, G, m, statement, w, args, show, "exhaustive", cert)


def _first_failure(kind, v, m, args):
    """The failing input (a pair for "injective"), or None, from the values ``v[k, j] = G(k*m + j)``."""
    import numpy as np
    if kind in ("contiguous", "aligned") and abs(int(args[0])) >= 1 << 62:   # a step or alignment past int64:
        v = v.astype(object)                                                # exact Python ints (issue 31)
    if kind == "contiguous":
        bad = np.argwhere(v - v[:, :1] != np.arange(m, dtype=v.dtype) * args[0])
        return None if not bad.size else int(bad[0][0]) * m + int(bad[0][1])
    if kind == "aligned":
        bad = np.argwhere(v[:, 0] % args[0] != 0)
        return None if not bad.size else int(bad[0][0]) * m
    order = np.argsort(v, axis=1, kind="stable")
    s = np.take_along_axis(v, order, axis=1)
    bad = np.argwhere(s[:, 1:] == s[:, :-1])
    if not bad.size:
        return None
    k, j = int(bad[0][0]), int(bad[0][1])
    x, y = sorted((int(order[k, j]), int(order[k, j + 1])))
    return k * m + x, k * m + y


def _split(digits, m: int):
    """The digits cut at weight ``m`` (a digit straddling it splits in two), or NotLinear."""
    from .linear import Digit
    out, weight = [], 1
    for d in digits:
        if d.weight != weight:
            raise NotLinear(Phrase(Reason.NOT_A_CHAIN, weight=d.weight))
        if d.weight < m < d.weight * d.extent:
            low = m // d.weight
            if m % d.weight or d.extent % low:
                raise NotLinear(Phrase(Reason.STRADDLES, digit=d.name, weight=d.weight, extent=d.extent, m=m))
            out.append(Digit(d.name + "_lo", low, d.weight, d.coef, d.via))
            out.append(Digit(d.name + "_hi", d.extent // low, m, d.coef * low, d.via))
        else:
            out.append(d)
        weight *= d.extent
    return out


def _linear(kind, G, n, m, statement, args, show, limit) -> Proof:
    digits = _split(linearize(G, n), m)
    base = evaluate(G, 0)
    for d in digits[:: max(1, len(digits) // 64)]:   # self-check: each coefficient is core's unit step
        if evaluate(G, d.weight) - base != d.coef:
            raise AssertionError(f"each_block: coefficient of {d.name} does not match core evaluation")
    inner = [d for d in digits if d.weight < m]
    outer = [d for d in digits if d.weight >= m]
    rows = [[d.name, d.extent, d.weight, d.coef, Cell.IN_BLOCK if d.weight < m else Cell.BLOCK] for d in digits]
    header = [Column.DIGIT, Column.EXTENT, Column.WEIGHT, Column.COEFFICIENT, Column.ROLE]
    if kind == "contiguous":
        step = args[0]
        bad = next((d for d in inner if d.coef != step * d.weight), None)
        table = Table(header + [Labelled(Column.TIMES_WEIGHT, str(step))],
                      [r + [step * r[2] if r[4] is Cell.IN_BLOCK else ""] for r in rows])
        cert = Certificate("contiguous", table, (Phrase(Condition.BLOCK_STEP, m=m, step=step),))
        if bad is None:
            return Proof(statement, "proved", "refinement", cert)
        return _refuted(kind, G, m, statement, bad.weight, args, show, "refinement", cert,
                        Phrase(Reason.NOT_STEP, digit=bad.name, weight=bad.weight, coef=bad.coef,
                               want=step * bad.weight))
    if kind == "aligned":
        a = args[0]
        table = Table(header + [Labelled(Column.MOD_OF, str(a))],
                      [r + [r[3] % a if r[4] is Cell.BLOCK else ""] for r in rows])
        cert = Certificate("aligned", table, (Phrase(Condition.BLOCK_STARTS, m=m, base=base, alignment=a),))
        if base % a:
            return _refuted(kind, G, m, statement, 0, args, show, "refinement", cert, Phrase(Reason.BASE_VALUE, base=base))
        bad = next((d for d in outer if d.coef % a), None)
        if bad is None:
            return Proof(statement, "proved", "refinement", cert)
        return _refuted(kind, G, m, statement, bad.weight, args, show, "refinement", cert,
                        Phrase(Reason.NOT_MULTIPLE, digit=bad.name, coef=bad.coef, alignment=a))
    from ..core.layout import Layout
    from .prover import is_injective
    if not inner:
        return Proof(statement, "proved", "refinement", Certificate("injective", Table(header, rows),
                                                                     (Phrase(Condition.ONE_INPUT_BLOCKS),)))
    J = Layout(tuple(d.extent for d in inner), tuple(d.coef for d in inner))
    p = is_injective(J, limit)
    cert = Certificate("injective", Table(header, rows),
                       (Phrase(Condition.IN_BLOCK_LAYOUT, m=m, J=str(J), method=p.method, verdict=p.verdict),))
    if p.proved:
        return Proof(statement, "proved", p.method, cert)
    if p.refuted:
        x, y = p.counterexample["indices"]
        return _refuted(kind, G, m, statement, (x, y), args, show, p.method, cert, p.reason)
    raise NotLinear(Phrase(Reason.IN_BLOCK_UNKNOWN, J=str(J), why=p.reason))


def _pow2_log(n: int):
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


def _f2(kind, G, n, m, statement, args, show):
    """The GF(2) view ``G(q) = M q ^ c`` on a power-of-two domain (swizzles): exact for injective and for
    power-of-two alignments; for contiguity a sufficient condition (no verdict when it fails).  None: no view."""
    from .bits import NotF2Linear
    from .f2 import F2Matrix
    from .prover_f2 import index_map
    k, b = _pow2_log(n), _pow2_log(m)
    if k is None or b is None:
        return None
    try:
        M, c = index_map(_inner_first(G), k)
    except NotF2Linear:
        return None
    if evaluate(G, 0) != c or any(evaluate(G, 1 << j) != M(1 << j) ^ c for j in range(k)):
        return None   # the view disagrees with core at a unit input: no view
    cols = [M(1 << j) for j in range(k)]
    rows = [[f"bit {j}", Cell.IN_BLOCK if j < b else Cell.BLOCK, col] for j, col in enumerate(cols)]
    table = Table([Column.INDEX_BIT, Column.ROLE, Column.COLUMN_OF_M], rows + [["(constant)", "", c]])
    if kind == "injective":
        J = F2Matrix.from_function(lambda x: M(x), b, max(M.n_rows, 1))
        cert = Certificate("gf2-block", table, (Phrase(Condition.F2_BLOCK_RANK, m=m, inner=b),))
        if J.rank() == b:
            return Proof(statement, "proved", "gf2", cert)
        v = min(x for x in J.kernel() if x)
        return _refuted(kind, G, m, statement, (0, v), args, show, "gf2", cert,
                        Phrase(Reason.F2_BLOCK_KERNEL, inner=b, v=v))
    if kind == "aligned":
        a = args[0]
        if _pow2_log(a) is None:
            return None
        cert = Certificate("gf2-block", table, (Phrase(Condition.F2_BLOCK_STARTS, alignment=a),))
        if c % a:
            return _refuted(kind, G, m, statement, 0, args, show, "gf2", cert, Phrase(Reason.F2_CONSTANT, c=c))
        bad = next((j for j in range(b, k) if cols[j] % a), None)
        if bad is None:
            return Proof(statement, "proved", "gf2", cert)
        return _refuted(kind, G, m, statement, 1 << bad, args, show, "gf2", cert,
                        Phrase(Reason.F2_BLOCK_COLUMN, bit=bad, column=cols[bad]))
    if args[0] == 1 and all(cols[j] == 1 << j for j in range(b)) and \
            all(x % m == 0 for x in [c] + cols[b:]):
        cert = Certificate("gf2-block", table, (Phrase(Condition.F2_UNIT_COLUMNS, half=m // 2, m=m, inner=b),))
        return Proof(statement, "proved", "gf2", cert)
    return None


def _inner_first(term):
    """The same function with every Compose's outer side a plain term: ``(a o b) o c`` as ``a o (b o c)``."""
    from .linear import Compose
    if not isinstance(term, Compose):
        return term
    outer, inner = term.outer, _inner_first(term.inner)
    while isinstance(outer, Compose):
        inner = Compose(outer.inner, inner) if not isinstance(outer.inner, Compose) else \
            _inner_first(Compose(outer.inner, inner))
        outer = outer.outer
    return Compose(outer, inner)


def _probe(kind, G, n, m, args, tries: int = 48):
    """A failing input among the block starts 0, 1, 2, 4, ... and the in-block steps 1, 2, 4, ..., m-1
    (contiguity and alignment; each point evaluated with core), or None."""
    if kind == "injective":
        return None
    blocks = n // m
    ks = sorted({0, blocks - 1} | {min(1 << e, blocks - 1) for e in range(min(blocks.bit_length(), tries))})
    js = sorted({m - 1} | {min(1 << e, m - 1) for e in range(min(m.bit_length(), tries))} - {0})
    for kb in ks:
        start = kb * m
        v0 = evaluate(G, start)
        if kind == "aligned":
            if v0 % args[0]:
                return start
            continue
        for j in js:
            if evaluate(G, start + j) != v0 + args[0] * j:
                return start + j
    return None


def _refuted(kind, G, m, statement, w, args, show, method, cert, why="") -> Proof:
    """The counterexample at ``w``, re-evaluated with core (AssertionError when it is none)."""
    if kind == "injective":
        x, y = w
        vx, vy = evaluate(G, x), evaluate(G, y)
        if x == y or vx != vy or x // m != y // m:
            raise AssertionError(f"each_block: {x} and {y} are no collision in one block ({vx} vs {vy})")
        ce = {Key.FIRST: show(x), Key.SECOND: show(y), Key.VALUE: vx}
        return Proof(statement, "refuted", method, cert, ce,
                     reason=why or Phrase(Reason.BLOCK_COLLISION, block=x // m, value=vx))
    if kind == "contiguous":
        start = w - w % m
        v0, v = evaluate(G, start), evaluate(G, w)
        if v - v0 == args[0] * (w - start):
            raise AssertionError(f"each_block: input {w} is contiguous after all")
        ce = {**show(w), Key.BLOCK_START: show(start), Key.VALUE: v, Key.START_VALUE: v0,
              Key.EXPECTED: v0 + args[0] * (w - start)}
        return Proof(statement, "refuted", method, cert, ce,
                     reason=why or Phrase(Reason.NOT_CONSECUTIVE, value=v, start=v0, step=args[0], offset=w - start))
    v = evaluate(G, w)
    if v % args[0] == 0 or w % m:
        raise AssertionError(f"each_block: block start {w} is aligned after all ({v})")
    ce = {**show(w), Key.VALUE: v, Key.ALIGNMENT: args[0]}
    start = Phrase(Reason.BLOCK_START, value=v, alignment=args[0])
    return Proof(statement, "refuted", method, cert, ce,
                 reason=Phrase(Reason.BOTH, first=why, second=start) if why else start)
