"""CuTe's own contracts, checked: does the value CuTe returns meet the operation's postcondition?

symcute returns what CuTe returns, even where that value is mathematically
wrong (CUTLASS #3177: ``composition((4,6,8):(2,3,5), 6:3)`` is ``(2,3):(6,3)``,
whose value at 2 is 3 while ``A(B(2)) = 7``).  ``contract(op, *args)`` computes
CuTe's result with core and proves, refutes (with a counterexample re-evaluated
by core) or leaves unknown the postcondition CuTe documents for ``op``
(``cute/layout.hpp``, CUTLASS 4.2):

===================  =======================================================================
composition(A, B)    ``R(c) == A(B(c))`` for every ``c`` in B's domain (by mode for a tiler)
right_inverse(L)     ``L(R(i)) == i`` for ``i < size(R)``
left_inverse(L)      ``L(R(L(i))) == L(i)`` for ``i < size(L)`` (a quasi-inverse; a left inverse
                     when L is injective)
complement(L, M)     ``R`` ordered (``R(i-1) < R(i)``), ``R(i) != L(j)`` for ``i >= 1``, and
                     ``size(R) >= M / size(filter(L))``
logical_divide       ``D(c) == L(B(c))`` with ``B = make_layout(T, complement(T, size(L)))``
zipped/tiled/flat    the same, on the (tile, rest) parts of each tiler mode where the variant
  _divide            puts them
logical_product      the block part is A, the tile part is ``complement(A, size(A)*cosize(B)) o B``
zipped/tiled/flat    the same, on the (block, tile) parts of each tiler mode where the variant
  _product           puts them
blocked/raked        mode i is (block_i, tile_i) (raked: (tile_i, block_i)); the block parts are
  _product           A and the tile parts ``complement(A, size(A)*cosize(B)) o B`` as functions
coalesce, filter     coalesce: the same function; filter: the same image, no stride-0 mode
upcast/downcast      the same memory in units N times larger/smaller: image(upcast<N>(L)) ==
                     { floor(v / N) : v in image(L) }, image(downcast<N>(L)) == { N v + j }
recast_layout        upcast or downcast by the ratio of the two type widths
===================  =======================================================================

A tiler (an int, ``_``, a layout, or a nested tuple of those: a Shape is a
tuple of ints) is normalised in one place, :func:`tiler_leaves`: every
by-mode contract is checked at the tiler's leaves.

The answer is a :class:`Proof` whose statement names CuTe's value; a refuted
contract's counterexample says where the value breaks it.  The composition
contract also gives the true ``A o B`` as a floor/mod closed form
(:func:`true_composition`), beside CuTe's value.

``enumerate_up_to=N`` decides every part whose domain has at most N inputs by
evaluating both sides on the whole domain with numpy (exact, and what a sweep
over many small random cases needs); larger parts go to the prover.
"""

from __future__ import annotations

import contextlib
import contextvars
import signal
import threading

from ..core import int_tuple as it
from ..core.composed import ComposedLayout
from ..core.layout import Layout, Underscore, format_int_tuple
from ..core.swizzle import Swizzle
from ..errors import SymcuteError
from .linear import Compose
from .proof import Certificate, Proof
from .vocabulary import Column, Condition, CounterexampleKey as Key, Labelled, Method, Phrase, Reason, Statement, \
    Verdict
from .table import Table

DIVIDES = ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide")
PRODUCTS = ("logical_product", "zipped_product", "tiled_product", "flat_product")
CONTRACT_OPS = ("composition", "right_inverse", "left_inverse", "complement", *DIVIDES, *PRODUCTS,
                "blocked_product", "raked_product", "coalesce", "filter", "upcast", "downcast", "recast_layout")

# Parts whose domain has at most this many inputs are decided by numpy enumeration (0: the prover decides)
_ENUMERATE_UP_TO = contextvars.ContextVar("symcute_contract_enumerate_up_to", default=0)


def contract(op: str, *args, limit: int | None = None, enumerate_up_to: int = 0) -> Proof:
    """Check CuTe's value of ``op(*args)`` against its postcondition (see the module table).

    CuTe's refusals stay refusals: an input CuTe rejects raises the same LayoutError here.
    ``enumerate_up_to``: decide the parts whose domain is at most this many inputs by enumeration.
    """
    from .. import core
    if op not in CONTRACT_OPS:
        raise SymcuteError(f"contract: no contract for {op!r}; known: {', '.join(CONTRACT_OPS)}")
    if op in DIVIDES:
        check = _divide
    elif op in PRODUCTS:
        check = _product
    else:
        check = globals()[f"_{op}"]
    token = _ENUMERATE_UP_TO.set(enumerate_up_to)
    try:
        if check in (_divide, _product):
            return check(core, op, *args, limit=limit)
        return check(core, *args, limit=limit)
    finally:
        _ENUMERATE_UP_TO.reset(token)


def _named(proof: Proof, statement: Phrase) -> Proof:
    return Proof(statement, proof.verdict, proof.method, proof.certificate, proof.counterexample, proof.reason)


def _value_claim(call: str, value, claim: Phrase) -> Phrase:
    """``call = value: claim``, the statement of a contract that names CuTe's value."""
    return Phrase(Statement.CONTRACT, call=call, result=str(value), claim=claim)


def _all(statement: Phrase, proofs) -> Proof:
    """The conjunction: the first refuted part, else the first unknown, else proved."""
    proofs = list(proofs)
    for verdict in (Verdict.REFUTED, Verdict.UNKNOWN):
        for p in proofs:
            if p.verdict == verdict:
                return Proof(statement, verdict, p.method, p.certificate, p.counterexample,
                             Phrase(Reason.PART_FAILS, part=p.statement, why=p.reason) if p.reason else p.statement)
    methods = sorted({p.method for p in proofs})
    conds = tuple(p.statement for p in proofs)
    return Proof(statement, Verdict.PROVED, "+".join(methods) or "refinement",
                 Certificate("conjunction", Table([Column.PART, Column.VERDICT, Column.METHOD],
                                                  [[p.statement, p.verdict, p.method] for p in proofs]), conds))


# --- the parts every contract is made of ------------------------------------------------------

def _enumerable(n: int) -> bool:
    return 0 < n <= _ENUMERATE_UP_TO.get()


def _equal(lhs, rhs, n: int, statement: Phrase, labels, limit) -> Proof:
    """``lhs(i) == rhs(i)`` for ``0 <= i < n``: numpy on an enumerable domain, else the prover."""
    from . import prover
    if n < 1:
        return Proof(statement, Verdict.PROVED, Method.VACUOUS, reason=Phrase(Reason.EMPTY_DOMAIN))
    if _enumerable(n):
        from . import exhaustive
        q = exhaustive.first_difference(lhs, rhs, n, n)
        cert = Certificate("exhaustive", Table([Column.INPUTS, Column.MISMATCHES], [[n, 0 if q is None else "≥1"]]),
                           (Phrase(Condition.EVALUATED_BOTH, n=n),))
        if q is None:
            return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert)
        return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, cert, prover._counterexample(lhs, rhs, q, labels),
                     reason=Phrase(Reason.FIRST_DIFFERENCE, index=q))
    return _named(prover.prove(lhs, rhs, domain=n, limit=limit, labels=labels), statement)


def _identity(n: int) -> Layout:
    return Layout(n, 1) if n > 1 else Layout(1, 0)


def _injective(L, limit) -> bool:
    """Is ``L`` proved injective (enumeration on an enumerable domain, else the prover)?"""
    n = L.size()
    if _enumerable(n):
        from . import exhaustive
        return exhaustive.first_collision(exhaustive.values(L, n, n)) is None
    from . import prover
    return prover.is_injective(L, limit=limit).proved


# --- tilers ----------------------------------------------------------------------------------

def tiler_leaves(layout: Layout, tiler, op: str) -> list:
    """A tiler normalised: ``(path, mode of layout at path, tile)`` for each of its leaves.

    The one place that reads a tiler for the contracts: a layout is one leaf at ``()``; an int
    ``n`` is the tile ``n:1``; ``_`` is a leaf whose tile is None (CuTe keeps that mode as it is);
    a tuple (of layouts, ints, ``_``, tuples: a Shape is a tuple of ints) applies its i-th element
    to mode i of ``layout``, recursively, as CuTe's by-mode divides, products and compositions do.
    The modes past the tiler's length are kept by CuTe and have no leaf.
    """
    if isinstance(tiler, Layout):
        return [((), layout, tiler)]
    if isinstance(tiler, Underscore):
        return [((), layout, None)]
    if isinstance(tiler, int) and not isinstance(tiler, bool):
        return [((), layout, Layout(tiler))]
    if isinstance(tiler, tuple) and isinstance(layout, Layout):
        if len(tiler) > layout.rank:  # core refuses it first (Too many modes in tiler); never a crash here
            raise SymcuteError(f"contract: {op}: the tiler {format_int_tuple(tiler)} has more modes than {layout}")
        return [((i, *p), m, t) for i, x in enumerate(tiler) for p, m, t in tiler_leaves(layout[i], x, op)]
    raise SymcuteError(f"contract: {op}: no contract for the tiler {tiler!r} (a layout, an int, _ or a tuple "
                       f"of those)")


def _at(layout: Layout, path) -> Layout:
    return layout[tuple(path)] if path else layout


def _text(x) -> str:
    return format_int_tuple(x) if isinstance(x, tuple) else str(x)


# --- composition ------------------------------------------------------------------------

def _composition(core, A, B, limit=None) -> Proof:
    R = core.composition(A, B)
    if isinstance(A, ComposedLayout) and isinstance(B, Layout):   # a swizzled A: R(c) == A(B(c)) as one function
        return _composition_part(R, A, B, limit)
    if not isinstance(A, Layout):
        raise SymcuteError(f"contract: composition: no contract for {A!r} (a layout is checked)")
    leaves = tiler_leaves(A, B, "composition")
    if len(leaves) == 1 and not leaves[0][0]:
        return _composition_part(R, A, leaves[0][2], limit)
    parts = [_composition_part(_at(R, p), a, b, limit) for p, a, b in leaves]
    return _all(Phrase(Statement.MEETS_BY_MODE, call=f"composition({A}, {_text(B)})", result=str(R)), parts)


def _composition_part(R, A, B, limit) -> Proof:
    if B is None:  # `_`: CuTe keeps A's mode
        return _equal(R, A, A.size(), _value_claim(f"composition({A}, _)", R, Phrase(Statement.SAME_FUNCTION_AS, a=str(A))),
                      ("R", "A"), limit)
    n = B.size()
    statement = _value_claim(f"composition({A}, {B})", R, Phrase(Statement.COMPOSES, n=n))
    sized = _compatible(R.size(), n, "R")
    if sized is not None:  # R(c) for c past R's size would read CuTe's value where it has none
        return _all(statement, [sized])
    return _equal(R, Compose(A, B), n, statement, ("R", "A(B)"), limit)


def _compatible(size: int, b_size: int, label: str) -> Proof | None:
    """CuTe's composition ``@post compatible(rhs, result)``, of which size(result) == size(B) is the part
    that sizes decide: None when it holds (the usual case adds no part), else a part refuted by the two
    sizes.  An empty result against a non-empty B (negative extents can multiply to 0) says so: the
    value claim on its empty domain would otherwise read "proved (vacuous)" and check nothing."""
    if size == b_size:
        return None
    reason = (Phrase(Reason.EMPTY_RESULT, label=label, b_size=b_size) if size == 0 else
              Phrase(Reason.RESULT_SIZE_DIFFERS, label=label, size=size, b_size=b_size))
    return Proof(Phrase(Statement.COMPATIBLE, label=label), Verdict.REFUTED,
                 Method.ARITHMETIC, counterexample={Labelled(Key.SIZE, label): size, Labelled(Key.SIZE, "B"): b_size},
                 reason=reason)


def true_composition(A, B):
    """The true function ``c -> A(B(c))`` on B's domain as a SymPy floor/mod closed form of the index ``c``
    (CuTe's value need not be it: see :func:`contract`).

    @pre A and B are layouts and B's values are non-negative (A's index form is CuTe's value there)
    @post for every 0 <= c < size(B): result.subs(c, c) == A(B(c))
    """
    import sympy
    from .formula import formula
    if not isinstance(A, Layout) or not isinstance(B, Layout):
        raise SymcuteError(f"true_composition: A and B must be layouts, got {A} and {B}")
    if any(d < 0 for d in it.flatten_to_tuple(B.stride) if type(d) is int):
        raise SymcuteError(f"true_composition: {B} has a negative stride; A's index form covers q >= 0 only")
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    return formula(A).index_form("q").subs(q, formula(B).index_form("c"))


# --- inverses ------------------------------------------------------------------------------

def _right_inverse(core, L, limit=None) -> Proof:
    R = core.right_inverse(L)
    n = R.size()
    statement = _value_claim(f"right_inverse({L})", R, Phrase(Statement.INVERTS_RIGHT, n=n))
    if _enumerable(n):
        return _equal(Compose(L, R), _identity(n), n, statement, ("L(R(i))", "i"), limit)
    from . import prover
    return _named(prover.prove_right_inverse(L, R, limit=limit), statement)


def _left_inverse(core, L, limit=None) -> Proof:
    R = core.left_inverse(L)
    n = L.size()
    return _equal(Compose(L, Compose(R, L)), L, n,
                  _value_claim(f"left_inverse({L})", R, Phrase(Statement.INVERTS_LEFT, n=n)), ("L(R(L(i)))", "L(i)"), limit)


# --- complement -----------------------------------------------------------------------------

def _complement(core, L, cotarget=None, limit=None) -> Proof:
    R = core.complement(L) if cotarget is None else core.complement(L, cotarget)
    hi = core.cosize(L) if cotarget is None else it.product(cotarget) if isinstance(cotarget, tuple) else cotarget
    statement = Phrase(Statement.MEETS_POST, result=str(R),
                       call=f"complement({L}{'' if cotarget is None else f', {format_int_tuple(cotarget)}'})")
    parts = []
    size_filtered = core.filter(L).size()
    need = hi // size_filtered if size_filtered else hi
    sized = Phrase(Statement.COMPLEMENT_SIZE, size=R.size(), cotarget=hi, need=need)
    if R.size() >= need:
        parts.append(Proof(sized, Verdict.PROVED, Method.ARITHMETIC))
    else:
        parts.append(Proof(sized, Verdict.REFUTED, Method.ARITHMETIC,
                           counterexample={Labelled(Key.SIZE, "R"): R.size(), Key.NEEDED_SIZE: need}))
    n = R.size()
    if n > 1:  # ordered: R(i) - R(i-1) > 0, i.e. the differences layout is positive
        parts.append(_ordered(R, limit))
        parts.append(_disjoint_from(R, L, limit))
    return _all(statement, parts)


def _ordered(R, limit) -> Proof:
    from . import exact
    n = R.size()
    statement = Phrase(Statement.ORDERED, n=n)
    if _enumerable(n) or n <= _small(limit):
        v = _values(R, n)
        bad = next((i for i in range(1, n) if not v[i - 1] < v[i]), None) if v.dtype == object else \
            _first_true(v[:-1] >= v[1:], 1)
        return _enumerated(statement, n, bad, lambda i: {Key.INDEX: i, Key.PREVIOUS_OF_R: R(i - 1), Key.VALUE_OF_R: R(i)})
    holds, x, evidence, method = exact.decide("increasing", R, n)
    return _decided(statement, holds, x, evidence, method,
                    lambda i: {Key.INDEX: i, Key.PREVIOUS_OF_R: R(i - 1), Key.VALUE_OF_R: R(i)}, check=lambda i: not R(i - 1) < R(i))


def _disjoint_from(R, L, limit) -> Proof:
    from . import exact
    n, m = R.size(), L.size()
    statement = Phrase(Statement.DISJOINT_FROM, n=n, m=m)
    if (_enumerable(n) and _enumerable(m)) or n * m <= _small(limit) * 4:
        np = _np()
        vr, vl = _values(R, n), _values(L, m)
        if vr.dtype == object or vl.dtype == object:
            image = set(vl.tolist())
            bad = next((i for i in range(1, n) if vr[i] in image), None)
        else:
            bad = _first_true(np.isin(vr[1:], vl), 1)
        return _enumerated(statement, n, bad, lambda i: {Key.INDEX: i, Key.VALUE_OF_R: R(i),
                                                         Key.INDEX_OF_L: next(j for j in range(m) if L(j) == R(i))})
    # from i = 1: R(0) is always 0, which L(0) is too
    holds, pair, evidence, method = exact.decide("disjoint", R, n, L, m, 1)
    return _decided(statement, holds, pair, evidence, method,
                    lambda p: {Key.INDEX: p[0], Key.VALUE_OF_R: R(p[0]), Key.INDEX_OF_L: p[1]},
                    check=lambda p: R(p[0]) == L(p[1]))


def _np():
    import numpy
    return numpy


def _values(L, n):
    from . import exhaustive
    return exhaustive.values(L, n, n)


def _first_true(mask, offset: int):
    np = _np()
    hit = np.flatnonzero(mask)
    return int(hit[0]) + offset if hit.size else None


def _small(limit) -> int:
    from .limits import exhaustive_limit
    return min(exhaustive_limit(limit), 1 << 14)


def _enumerated(statement, n, bad, witness) -> Proof:
    cert = Certificate("exhaustive", Table([Column.INPUTS, Column.FAILURES], [[n, 0 if bad is None else "≥1"]]),
                       (Phrase(Condition.EVALUATED_CORE, n=n),))
    if bad is None:
        return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert)
    return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, cert, witness(bad),
                 reason=Phrase(Reason.EVALUATED_WITH_CORE))


def _decided(statement, holds, w, evidence, method, witness, check) -> Proof:
    cert = Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[statement, evidence]]), ())
    if holds is None:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=evidence)
    if holds:
        return Proof(statement, Verdict.PROVED, method, cert)
    if not check(w):
        raise AssertionError(f"contract: the back-end's witness {w} does not break {statement}")
    return Proof(statement, Verdict.REFUTED, method, cert, witness(w), reason=Phrase(Reason.RE_EVALUATED))


# --- divides and products ----------------------------------------------------------------------

def _pieces(core, op: str, result: Layout, tiler, leaf_path, leaf_tile, first_rank: int):
    """The two parts (tile, rest) of a divide, or (block, tile) of a product, at one tiler leaf,
    read from where ``op`` puts them: logical_* keeps them together at the leaf's path; zipped_*
    gathers the first parts in mode 0 and the second in mode 1 (CuTe's ``zip2_by``); tiled_*
    unpacks mode 1, flat_* both modes (``first_rank``: how many modes mode 0 unpacks into)."""
    kind = op.split("_")[0]
    if kind == "logical":
        m = _at(result, leaf_path)
        return (m, None) if leaf_tile is None else (m[0], m[1])
    # rebuild the zipped form: tiled_ unpacks mode 1 into modes 1.., flat_ unpacks modes 0 and 1
    modes = result.modes()
    if kind == "tiled":
        zipped = core.make_layout(_join(core, modes[:1]), _join(core, modes[1:]))
    elif kind == "flat":
        zipped = core.make_layout(_join(core, modes[:first_rank]), _join(core, modes[first_rank:]))
    else:
        zipped = result
    if not leaf_path:  # a single leaf: zip2_by leaves the (first, second) pair as it is
        return (zipped, None) if leaf_tile is None else (zipped[0], zipped[1])
    first, second = _at(zipped[0], leaf_path), _at(zipped[1], leaf_path)
    if leaf_tile is None:  # `_`: CuTe's pair is the kept mode's own two modes
        return core.make_layout(first, second), None
    return first, second


def _join(core, modes) -> Layout:
    """The modes as one mode (one mode stays itself; none is the empty mode 1:0)."""
    if not modes:
        return Layout(1, 0)
    return modes[0] if len(modes) == 1 else core.make_layout(*modes)


def _divide(core, op, L, T, limit=None) -> Proof:
    D = getattr(core, op)(L, T)
    if isinstance(L, ComposedLayout) and isinstance(T, Layout):
        return _composed_divide(core, op, L, T, D, limit)
    if not isinstance(L, Layout):
        raise SymcuteError(f"contract: {op}: no contract for {L!r} (a layout is checked)")
    leaves = tiler_leaves(L, T, op)
    parts = []
    for path, mode, tile in leaves:
        # mode 0 of the zipped form: one tile per tiler mode, or the tile L o T itself (T's rank)
        r0 = len(T) if isinstance(T, tuple) else mode[0].rank if tile is None else tile.rank
        first, second = _pieces(core, op, D, T, path, tile, r0)
        if tile is None:
            parts.append(_equal(first, mode, mode.size(),
                                Phrase(Statement.MODE_SAME_FUNCTION, path=path, result=str(D), a=str(mode)), ("D", "L"),
                                limit))
            continue
        B = core.make_layout(tile, core.complement(tile, mode.size()))
        piece = core.make_layout(first, second)
        n = piece.size()
        sized = _compatible(n, B.size(), "D")
        if sized is not None:
            parts.append(sized)
        statement = Phrase(Statement.DIVIDE_PART, call=f"{op}({mode}, {tile})", piece=str(piece),
                           claim=Phrase(Statement.DIVIDES, n=n, B=str(B)))
        parts.append(_equal(piece, Compose(mode, B), n, statement, ("D", "L(B)"), limit))
    call = f"{op}({L}, {_text(T)})"
    if len(parts) == 1:
        return _named(parts[0], _value_claim(call, D, _what(parts[0].statement)))
    return _all(Phrase(Statement.MEETS_BY_MODE_DEFINITION, call=call, result=str(D)), parts)


def _composed_divide(core, op, L, T, D, limit) -> Proof:
    """A swizzled L divided by a layout T: the zipped, tiled and flat forms only regroup the modes of
    logical_divide's (tile, rest), which leaves the function of the index alone, so D as a whole is
    checked: D(c) == L(B(c)) for c < size(B), with B = make_layout(T, complement(T, size(L)))."""
    B = core.make_layout(T, core.complement(T, L.size()))
    n = D.size()
    statement = _value_claim(f"{op}({L}, {T})", D, Phrase(Statement.DIVIDES, n=B.size(), B=str(B)))
    sized = _compatible(n, B.size(), "D")
    if sized is not None:
        return _all(statement, [sized])
    return _equal(D, Compose(L, B), n, statement, ("D", "L(B)"), limit)


def _what(part: Phrase) -> Phrase:
    """What a divide's one part claims, without the part's own name (``D(c) == L(B(c)) ...``)."""
    if part.kind is Statement.MODE_SAME_FUNCTION:
        return Phrase(Statement.SAME_FUNCTION_AS, a=part.args["a"])
    return part.args["claim"]


def _product_parts(core, block_part, tile_part, A, B, limit, call: str, value) -> list:
    """The block part is A's function; the tile part is complement(A, size(A)*cosize(B)) o B's."""
    C = core.complement(A, A.size() * core.cosize(B))
    block = Phrase(Statement.BLOCK_PART, call=call, result=str(value), piece=str(block_part), a=str(A))
    tile = Phrase(Statement.TILE_PART, call=call, result=str(value), piece=str(tile_part),
                  cotarget=A.size() * core.cosize(B), C=str(C), B=str(B))
    return [_equal(block_part, A, A.size(), block, ("P", "A"), limit),
            _equal(tile_part, Compose(C, B), B.size(), tile, ("P", "C(B)"), limit)]


def _product(core, op, A, B, limit=None) -> Proof:
    P = getattr(core, op)(A, B)
    if not isinstance(A, Layout):
        raise SymcuteError(f"contract: {op}: no contract for {A!r} (a layout is checked)")
    parts = []
    for path, mode, tile in tiler_leaves(A, B, op):
        # mode 0 of the zipped form: one block per tiler mode, or the block A itself (A's rank)
        r0 = len(B) if isinstance(B, tuple) else mode[0].rank if tile is None else mode.rank
        first, second = _pieces(core, op, P, B, path, tile, r0)
        if tile is None:
            parts.append(_equal(first, mode, mode.size(),
                                Phrase(Statement.MODE_SAME_FUNCTION, path=path, result=str(P), a=str(mode)), ("P", "A"),
                                limit))
            continue
        parts += _product_parts(core, first, second, mode, tile, limit, f"{op}({mode}, {tile})", P)
    return _all(Phrase(Statement.MEETS_DEFINITION, call=f"{op}({A}, {_text(B)})", result=str(P)), parts)


def _rank_matched(core, op, A, B, limit, block_first: bool) -> Proof:
    P = getattr(core, op)(A, B)
    if not isinstance(A, Layout) or not isinstance(B, Layout):
        raise SymcuteError(f"contract: {op}: no contract for {A!r}, {B!r} (two layouts are checked)")
    modes = P.modes()
    first = core.make_layout(*[m[0] for m in modes])
    second = core.make_layout(*[m[1] for m in modes])
    block, tile = (first, second) if block_first else (second, first)
    order = "(block_i, tile_i)" if block_first else "(tile_i, block_i)"
    return _all(_value_claim(f"{op}({A}, {B})", P, Phrase(Statement.MODE_ORDER, order=order)),
                _product_parts(core, block, tile, A, B, limit, f"{op}({A}, {B})", P))


def _blocked_product(core, A, B, limit=None) -> Proof:
    return _rank_matched(core, "blocked_product", A, B, limit, block_first=True)


def _raked_product(core, A, B, limit=None) -> Proof:
    return _rank_matched(core, "raked_product", A, B, limit, block_first=False)


# --- coalesce, filter ------------------------------------------------------------------------

def _coalesce(core, L, limit=None) -> Proof:
    C = core.coalesce(L)
    n = L.size()
    statement = _value_claim(f"coalesce({L})", C, Phrase(Statement.SAME_FUNCTION_ON, n=n))
    if C.size() != n:
        return Proof(statement, Verdict.REFUTED, Method.DOMAINS, counterexample={Labelled(Key.SIZE, "L"): n, Labelled(Key.SIZE, "C"): C.size()},
                     reason=Phrase(Reason.SIZES_DIFFER))
    return _equal(L, C, n, statement, ("lhs", "rhs"), limit)


def _filter(core, L, limit=None) -> Proof:
    F = core.filter(L)
    statement = _value_claim(f"filter({L})", F, Phrase(Statement.SAME_IMAGE_NO_ZERO))
    zero = [d for s, d in zip(it.flatten_to_tuple(F.shape), it.flatten_to_tuple(F.stride)) if s != 1 and d == 0]
    parts = [Proof(Phrase(Statement.NO_ZERO_STRIDE), Verdict.REFUTED if zero else Verdict.PROVED, Method.INSPECTION)]
    parts.append(_same_image(L, F, 1, 1, limit))
    return _all(statement, parts)


# --- recast ----------------------------------------------------------------------------------

def _upcast(core, L, n, limit=None) -> Proof:
    U = core.upcast(L, n)
    return _recast_claim(L, _value_claim(f"upcast<{n}>({L})", U, Phrase(Statement.SAME_MEMORY_IN_UNITS, units=n)),
                         U, n, 1, limit)


def _downcast(core, L, n, limit=None) -> Proof:
    D = core.downcast(L, n)
    return _recast_claim(L, _value_claim(f"downcast<{n}>({L})", D,
                                         Phrase(Statement.SAME_MEMORY_IN_UNITS, units=f"1/{n}")), D, 1, n, limit)


def _recast_layout(core, L, old, new, limit=None) -> Proof:
    from ..core.recast import recast_ratio
    R = core.recast_layout(L, old, new)
    up, down = recast_ratio(old, new)   # CuTe: upcast<up> then downcast<down>
    return _recast_claim(L, _value_claim(f"recast_layout<{old},{new}>({L})", R, Phrase(Statement.SAME_MEMORY)),
                         R, up, down, limit)


def _recast_claim(L, statement, R, up, down, limit) -> Proof:
    """CuTe documents no @post for the casts; their meaning (the same bytes in other units) is a claim
    about the memory of a layout of distinct elements: for an injective layout with non-negative
    strides.  Elsewhere the claim is vacuous, and said so."""
    inner = L.inner if isinstance(L, ComposedLayout) else L   # a swizzle keeps non-negative values so
    negative = (isinstance(L, ComposedLayout) and not (isinstance(L.outer, Swizzle) and int(L.offset) >= 0))
    if negative or any(type(d) is int and d < 0 for d in it.flatten_to_tuple(inner.stride)) \
            or not _injective(L, limit):
        return Proof(Phrase(Statement.IF_INJECTIVE, a=str(L), claim=statement), Verdict.PROVED, Method.VACUOUS,
                     reason=Phrase(Reason.PRECONDITION_FAILS))
    return _all(statement, [_same_image(L, R, up, down, limit)])


def _image_difference(vl, vr, up: int, down: int):
    """``(in image(R) only, missing from image(R))``, the first few of each, for the values ``vl`` of L and
    ``vr`` of R against ``{ down * floor(v / up) + j }``.  A bitmap over the values' range when it is small
    (no sort), else sorted unique arrays; Python sets for values past int64."""
    np = _np()
    if max(abs(up), abs(down)) >= 1 << 31:   # a factor past int32 overflows int64 arithmetic (issue 31)
        vl, vr = vl.astype(object), vr.astype(object)
    if vl.dtype == object or vr.dtype == object:
        want = {down * (v // up) + j for v in vl.tolist() for j in range(down)}
        got = set(vr.tolist())
        return sorted(got - want)[:3], sorted(want - got)[:3]
    base = vl // up * down
    lo = min(int(base.min()), int(vr.min()))
    hi = max(int(base.max()) + down, int(vr.max()) + 1)
    if hi - lo <= 8 * (vl.size * down + vr.size) + (1 << 16):
        w, g = np.zeros(hi - lo, dtype=bool), np.zeros(hi - lo, dtype=bool)
        for j in range(down):
            w[base - lo + j] = True
        g[vr - lo] = True
        if np.array_equal(w, g):
            return [], []
        return ((np.flatnonzero(g & ~w)[:3] + lo).tolist(), (np.flatnonzero(w & ~g)[:3] + lo).tolist())
    u = np.unique(base)
    want = (u[:, None] + np.arange(down)[None, :]).ravel()   # sorted: the blocks are disjoint
    got = np.unique(vr)
    if want.size == got.size and np.array_equal(want, got):
        return [], []
    return (np.setdiff1d(got, want)[:3].tolist(), np.setdiff1d(want, got)[:3].tolist())


def _scaled_text(up: int, down: int) -> str:
    v = "v" if up == 1 else f"floor(v / {up})"
    return f"{{ {v} : v in image(L) }}" if down == 1 else f"{{ {down}*{v} + j : v in image(L), 0 <= j < {down} }}"


def _same_image(L, R, up: int, down: int, limit) -> Proof:
    """image(R) == { down * floor(v / up) + j : v in image(L), 0 <= j < down } (an upcast by ``up``, then a
    downcast by ``down``: the same bytes in other units)."""
    from . import exact
    statement = Phrase(Statement.SAME_IMAGE, image=_scaled_text(up, down))
    n, m = L.size(), R.size()
    if (_enumerable(n * down) and _enumerable(m)) or n * down + m <= _small(limit) * 16:
        vl, vr = _values(L, n), _values(R, m)
        extra, missing = _image_difference(vl, vr, up, down)
        if not extra and not missing:
            return _enumerated(statement, n + m, None, None)
        ce = {Key.ONLY_IN_IMAGE_OF_R: tuple(extra[:3])} if extra else {}   # tuples: as JSON reads them back
        if missing:
            ce[Key.MISSING_FROM_IMAGE_OF_R] = tuple(missing[:3])
        return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, None, ce, reason=Phrase(Reason.IMAGES_ENUMERATED))
    holds, w, evidence, method = exact.decide("same_image", L, R, up, down)
    if holds is None:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=evidence)
    cert = Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[statement, evidence]]), ())
    if holds:
        return Proof(statement, Verdict.PROVED, method, cert)
    return Proof(statement, Verdict.REFUTED, method, cert, {Key.VALUE: w}, reason=Phrase(Reason.IN_ONE_IMAGE))


# --- checking the values a computation returns -------------------------------------------------

class _Watcher:
    """A recorder for ``core.hook`` that keeps the top-level traced calls (rule, args, kwargs, result)."""

    def __init__(self):
        self.calls = []
        self.depth = 0

    def call(self, rule, fn, args, kwargs):
        self.depth += 1
        try:
            result = fn(*args, **kwargs)
        finally:
            self.depth -= 1
        if self.depth == 0:
            self.calls.append((rule, args, kwargs, result))
        return result

    def note(self, **details) -> None:
        pass


def evaluate_checked(compute, z3_ms: int = 1000, isl_seconds: float = 2.0):
    """``compute()`` and the contract of the call that produced its value: ``(value, proof or None)``.

    The check is quick: enumeration up to 2^12 inputs, Z3 and ISL within the given bounds (an
    undecided contract gives no warning).

    The proof is None when the value does not come from an operation with a contract (or the call
    had keyword arguments this module does not take); otherwise it is the contract's Proof.
    """
    from ..core import hook
    watcher = _Watcher()
    token = hook.current.set(watcher)
    try:
        value = compute()
    finally:
        hook.current.reset(token)
    for rule, args, kwargs, result in reversed(watcher.calls):
        if result is value and rule in CONTRACT_OPS and not kwargs:
            from . import exact
            if _flat_modes((*args, result)) > exact.MAX_MODES:
                # the quick check must stay cheaper than the computation it follows: past the
                # exact back-ends' mode bound even enumerating a few inputs costs seconds (big ints)
                return value, None
            try:
                with exact.time_budget(z3_ms, isl_seconds), _wall_clock_bound(QUICK_CHECK_SECONDS):
                    return value, contract(rule, *args, limit=1 << 12)
            except _CheckTookTooLong:
                return value, None
            except (SymcuteError, TypeError, AttributeError, IndexError, ValueError):
                # the quick check follows a value CuTe computes: an argument form the contract does not
                # take (tests/symbolic/test_contracts.py pins the forms it does) leaves that value unchecked
                return value, None
    return value, None


# The whole quick check, whatever back-end it reaches, stays within this many seconds
# (complement(-4:1099511627776)'s check ran for minutes before this bound; found by the fuzz run).
QUICK_CHECK_SECONDS = 3.0


class _CheckTookTooLong(BaseException):
    """Raised by the timer inside the quick check only (a BaseException, so no handler below swallows it)."""


@contextlib.contextmanager
def _wall_clock_bound(seconds: float):
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only; the back-ends' own budgets still apply
        return

    def expire(signum, frame):
        raise _CheckTookTooLong()
    old = signal.signal(signal.SIGALRM, expire)
    previous = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if previous[0]:  # give an outer timer (the fuzz harness, a caller's) its remaining time back
            signal.setitimer(signal.ITIMER_REAL, max(previous[0] - seconds, 1e-3), previous[1])


def _flat_modes(values) -> int:
    """The largest number of flat modes among the layouts in ``values`` (0 when there are none)."""
    return max((len(it.flatten_to_tuple(v.shape)) for v in values if isinstance(v, Layout)), default=0)
