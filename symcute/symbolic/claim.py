"""Claims users can state: a small language of claim values, each decided by :func:`prove_claim`.

A claim is a value (:class:`Claim`), built by one of the functions below and
decided by ``prove_claim(c)`` (also ``prove(c)``, ``c.prove()``): proved (with a
certificate), refuted (with a counterexample re-evaluated with core) or
unknown.  Terms are Layouts, Formulas, swizzled layouts and ``Compose(outer,
inner)`` functions; a *domain* is ``[0, n)`` (an int) or a layout ``D`` (the
claim is then about ``term o D``, the term on the inputs ``D`` lists).

=====================================  ==========================================================
``equal(a, b, domain)``                 ``a(i) == b(i)`` for every input
``injective(L, domain)``                distinct inputs have distinct values
``surjective(L, onto, domain)``         every ``y < onto`` is a value
``bijective(L, onto, domain)``          a bijection onto ``[0, onto)`` (default: the domain's size)
``disjoint(a, b, domain_a, domain_b)``  no value of ``a`` is a value of ``b``
``contains(a, b, domain_a, domain_b)``  every value of ``b`` is a value of ``a``
``contiguous(L, step, domain)``         ``L(j) == L(0) + step*j``: consecutive values
``aligned(L, alignment, domain)``       ``L(0)`` is a multiple of ``alignment`` (under ``forall``: each start)
``vector(tv, memory, width, align)``    for every thread t and every group of ``width`` consecutive values
                                        of t: their addresses ``memory(tv(t, v))`` are consecutive and the
                                        first is a multiple of ``align`` (default ``width``) elements
``forall(axes, claim)``                 ``claim`` for every value of the named sub-axes (``t`` selects
                                        ``t0, t1, ...``; an integer selects a top-level mode): the claim is
                                        about the function of the other sub-axes
=====================================  ==========================================================

"For every thread t: each thread's values are distinct": ``forall(t, injective(F))``;
"each thread's 8 values are one 128-bit vector" (16-bit elements): ``vector(tv, smem, 8)``.
A claim under ``forall`` is an equality, injectivity, contiguity or alignment claim
(the kinds whose per-thread meaning is the function of the free sub-axes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core import int_tuple as it
from ..core.composed import ComposedLayout
from ..core.layout import Layout
from ..errors import SymcuteError
from .certfile import with_claim
from .formula import Formula, formula
from .linear import Compose, as_term, evaluate, size_of, term_text
from .proof import Proof
from .swizzled import SwizzledFormula
from .vocabulary import CounterexampleKey as Key
from .vocabulary import Phrase, Reason, Statement

KINDS = ("equal", "injective", "surjective", "bijective", "disjoint", "contains", "contiguous", "aligned",
         "vector", "forall")

# the kinds a forall can range over: their per-block meaning is the function of the free sub-axes
FORALL_KINDS = ("equal", "injective", "contiguous", "aligned")


@dataclass(frozen=True)
class Claim:
    """A claim about layouts, not yet decided (``prove_claim`` decides it).  Immutable.

    ``kind``: one of :data:`KINDS`; ``terms``: the functions it is about; ``options``: its numbers
    (domains, target, step, alignment, width) as ``(name, value)`` pairs; ``axes``: for ``forall``,
    the sub-axis selectors; ``body``: for ``forall``, the claim it quantifies.
    """
    kind: str
    terms: tuple
    options: tuple = ()
    axes: tuple = ()
    body: "Claim | None" = field(default=None)

    def option(self, name: str, default=None):
        return dict(self.options).get(name, default)

    def prove(self, limit: int | None = None) -> Proof:
        return prove_claim(self, limit)

    def __str__(self) -> str:
        if self.kind == "forall":
            return f"forall({_axes_text(self.axes)}, {self.body})"
        args = [term_text(t) for t in self.terms] + [f"{k}={_value_text(v)}" for k, v in self.options if v is not None]
        return f"{self.kind}({', '.join(args)})"

    def __repr__(self) -> str:
        return f"Claim({str(self)!r})"


def _value_text(v) -> str:
    return term_text(v) if not isinstance(v, int) else str(v)


def _axes_text(axes) -> str:
    return axes[0] if len(axes) == 1 else "(" + ", ".join(str(a) for a in axes) + ")"


# --- constructors (checked here, so a bad claim is refused before anything is proved) ---------------------

def _positive(name: str, v, allow_none: bool = True):
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise SymcuteError(f"claim: {name} must be a positive integer, got {_show(v)}")
    return v


def _show(v) -> str:
    return term_text(v) if isinstance(v, (Layout, Formula, Compose, ComposedLayout)) else repr(v) \
        if not hasattr(v, "name") else str(v)


def _domain(name: str, d):
    """A domain: None (the term's own), ``n`` (``[0, n)``) or a layout listing the inputs."""
    if d is None:
        return None
    if isinstance(d, int) and not isinstance(d, bool):
        return _positive(name, d)
    if isinstance(d, (Layout, Formula, Compose)):
        return as_term(d)
    raise SymcuteError(f"claim: {name} must be a positive integer (the inputs [0, n)) or a layout listing the "
                       f"inputs, got {_show(d)}")


def _term(name: str, t):
    if isinstance(t, Claim):
        raise SymcuteError(f"claim: {name} is a claim ({t}), not a layout")
    if isinstance(t, int) and not isinstance(t, bool):
        t = Layout(t)
    if isinstance(t, tuple):
        t = Layout(t)
    try:
        return as_term(t)
    except SymcuteError:
        raise SymcuteError(f"claim: {name} must be a layout, a formula or a Compose term, got {_show(t)}") from None


def equal(a, b, domain=None) -> Claim:
    """``a(i) == b(i)`` for every input of the domain (default: the common size; sizes that differ refute)."""
    return Claim("equal", (_term("a", a), _term("b", b)), (("domain", _domain("domain", domain)),))


def injective(L, domain=None) -> Claim:
    """``L(x) != L(y)`` for distinct inputs of the domain."""
    return Claim("injective", (_term("L", L),), (("domain", _domain("domain", domain)),))


def surjective(L, onto, domain=None) -> Claim:
    """Every ``y`` in ``[0, onto)`` is ``L(x)`` for an input ``x`` of the domain."""
    return Claim("surjective", (_term("L", L),), (("onto", _positive("onto", onto, False)),
                                                  ("domain", _domain("domain", domain))))


def bijective(L, onto=None, domain=None) -> Claim:
    """``L`` maps the domain one-to-one onto ``[0, onto)`` (default: the domain's size)."""
    return Claim("bijective", (_term("L", L),), (("onto", _positive("onto", onto)),
                                                 ("domain", _domain("domain", domain))))


def disjoint(a, b, domain_a=None, domain_b=None) -> Claim:
    """No value of ``a`` on its domain is a value of ``b`` on its domain."""
    return Claim("disjoint", (_term("a", a), _term("b", b)),
                 (("domain_a", _domain("domain_a", domain_a)), ("domain_b", _domain("domain_b", domain_b))))


def contains(a, b, domain_a=None, domain_b=None) -> Claim:
    """Every value of ``b`` on its domain is a value of ``a`` on its domain (``a``'s image contains ``b``'s)."""
    return Claim("contains", (_term("a", a), _term("b", b)),
                 (("domain_a", _domain("domain_a", domain_a)), ("domain_b", _domain("domain_b", domain_b))))


def contiguous(L, step: int = 1, domain=None) -> Claim:
    """``L(j) == L(0) + step*j`` for every input ``j`` of the domain (consecutive values)."""
    if isinstance(step, bool) or not isinstance(step, int):
        raise SymcuteError(f"contiguous: step must be an integer, got {_show(step)}")
    return Claim("contiguous", (_term("L", L),), (("step", step), ("domain", _domain("domain", domain))))


def aligned(L, alignment: int, domain=None) -> Claim:
    """``L(0) % alignment == 0`` (under ``forall``: every block's first value)."""
    return Claim("aligned", (_term("L", L),), (("alignment", _positive("alignment", alignment, False)),
                                               ("domain", _domain("domain", domain))))


def vector(tv, memory, width: int, align: int | None = None) -> Claim:
    """For every thread ``t`` and every group of ``width`` consecutive values ``v`` of ``t`` (``v = g*width
    + j``): ``memory(tv(t, v)) == memory(tv(t, g*width)) + j`` and the first address is a multiple of
    ``align`` elements (default ``width``).  ``tv`` is a rank-2 (thread, value) layout.

    @pre width divides the number of values per thread
    """
    tv_term = _term("tv", tv)
    layout = tv_term.layout if isinstance(tv_term, (Formula, SwizzledFormula)) else tv_term
    if not isinstance(layout, Layout) or not isinstance(layout.shape, tuple) or len(layout.shape) != 2:
        raise SymcuteError(f"vector: tv must be a rank-2 (thread, value) layout, got {_show(tv)}")
    width = _positive("width", width, False)
    nv = it.product(layout.shape[1])
    if nv % width:
        raise SymcuteError(f"vector: each thread of {layout} has {nv} values, not a multiple of the width {width}")
    return Claim("vector", (tv_term, _term("memory", memory)),
                 (("width", width), ("align", _positive("align", align))))


def forall(axes, claim: Claim) -> Claim:
    """``claim`` for every value of the sub-axes ``axes`` (names, name prefixes such as ``t`` for ``t0, t1``,
    or top-level mode indices) of the innermost term's domain."""
    if not isinstance(claim, Claim):
        raise SymcuteError(f"forall: the second argument must be a claim (injective(...), contiguous(...), ...), "
                           f"got {_show(claim)}")
    sel = _selectors(axes)
    if claim.kind == "forall":
        return Claim("forall", (), (), sel + tuple(a for a in claim.axes if a not in sel), claim.body)
    if claim.kind not in FORALL_KINDS:
        raise SymcuteError(f"forall: {claim.kind} claims are not per-thread claims (forall takes "
                           f"{', '.join(FORALL_KINDS)})")
    if any(k.startswith("domain") and v is not None for k, v in claim.options):
        raise SymcuteError(f"forall: {claim} has its own domain; state it on the whole domain")
    _selected(domain_formula(claim.terms[0]), sel)   # a selector that names no sub-axis is refused now
    return Claim("forall", (), (), sel, claim)


def _selectors(axes) -> tuple:
    items = axes if isinstance(axes, (tuple, list)) else (axes,)
    out = []
    for a in items:
        name = getattr(a, "name", a)   # a bare identifier of the expression language carries its name
        if isinstance(name, int) and not isinstance(name, bool) and name >= 0:
            out.append(name)
        elif isinstance(name, str) and re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", name):
            out.append(name)
        else:
            raise SymcuteError(f"forall: {_show(a)} is not a sub-axis name or a mode index")
    if not out:
        raise SymcuteError("forall: name at least one sub-axis")
    return tuple(out)


# --- deciding ---------------------------------------------------------------------------------------------

def prove_claim(claim: Claim, limit: int | None = None) -> Proof:
    """Prove or refute ``claim``: proved (certificate) / refuted (counterexample re-evaluated with core) /
    unknown, never a proof that was not made."""
    if not isinstance(claim, Claim):
        raise SymcuteError(f"prove_claim: {_show(claim)} is not a claim")
    from . import exact
    with exact.cheap_budget(_inputs(claim), limit):   # enumeration decides a small domain: solvers bounded short
        return _decide(claim, limit)


def _inputs(claim: Claim) -> int:
    """The largest number of inputs (or targets) enumerating the claim would evaluate."""
    if claim.kind == "forall":
        return _inputs(claim.body)
    n = 1
    for t in claim.terms:
        n = max(n, size_of(t))
    for k, v in claim.options:
        if isinstance(v, int) and k in ("domain", "domain_a", "domain_b", "onto"):
            n = max(n, v)
    return n


def _decide(claim: Claim, limit) -> Proof:
    from . import exact
    from . import claims as images
    from . import prover
    k, o = claim.kind, claim.option
    if k == "forall":
        return _forall(claim, limit)
    if k == "vector":
        return _vector(claim, limit)
    if k == "equal":
        a, b = claim.terms
        d = o("domain")
        if d is None or isinstance(d, int):
            return prover.prove(a, b, domain=d, limit=limit)
        return prover.prove(Compose(a, d), Compose(b, d), limit=limit)
    if k in ("disjoint", "contains"):
        a, b = claim.terms
        da, db = o("domain_a"), o("domain_b")
        a, na = _restricted(a, da, "domain_a")
        b, nb = _restricted(b, db, "domain_b")
        if k == "disjoint":
            return images.images_disjoint(a, b, na, nb, limit=limit)
        return images.image_contains(a, b, na, nb, limit=limit)
    whole, n = _restricted(claim.terms[0], o("domain"), "domain")
    L = whole if n is None else Compose(whole, _identity(n))
    if k == "injective":
        if n is not None:   # injective on the whole domain is injective on every part of it
            with exact.time_budget(exact.CHEAP_Z3_MS, exact.CHEAP_ISL_SECONDS):
                p = prover.is_injective(whole, limit=0)
            if p.proved:
                return Proof(Phrase(Statement.INJECTIVE, a=term_text(L), n=n), "proved", p.method, p.certificate,
                             reason=Phrase(Reason.WHOLE_INJECTIVE, a=term_text(whole), size=size_of(whole), n=n),
                             claim=p.claim)   # the certificate states the whole domain's claim, which implies it
        return prover.is_injective(L, limit)
    if k == "surjective":
        if n is not None:   # a value the whole domain never takes is not taken on a part of it either
            with exact.time_budget(exact.CHEAP_Z3_MS, exact.CHEAP_ISL_SECONDS):
                p = prover.is_surjective(whole, o("onto"), limit=0)
            if p.refuted and "missing value" in (p.counterexample or {}):
                return Proof(Phrase(Statement.SURJECTIVE, a=term_text(L), size=n, n=o("onto")), "refuted",
                             p.method, p.certificate, p.counterexample,
                             reason=Phrase(Reason.ON_WHOLE_DOMAIN, why=p.reason, size=size_of(whole), n=n),
                             claim=p.claim)   # a value missed on the whole domain is missed on a part of it
        return prover.is_surjective(L, o("onto"), limit)
    if k == "bijective":
        return prover.is_bijective(L, o("onto"), limit)
    from .blocks import each_block
    size = size_of(L)
    statement = (Phrase(Statement.CONTIGUOUS, a=term_text(L), step=o("step"), n=size) if k == "contiguous" else
                 Phrase(Statement.ALIGNED, a=term_text(L), alignment=o("alignment")))
    p = each_block(k, L, size, size, statement, step=o("step", 1), alignment=o("alignment", 1), limit=limit)
    return with_claim(p, k, (L,), n=size, step=o("step", 1), alignment=o("alignment", 1))


def _identity(n: int) -> Layout:
    return Layout(n, 1) if n > 1 else Layout(1, 0)


def _restricted(term, d, name: str):
    """``(term, n)``: the term on ``[0, n)`` (``n`` None: its own domain), or ``(term o D, None)``."""
    if d is None:
        return term, None
    if isinstance(d, int):
        if d > size_of(term):
            raise SymcuteError(f"claim: {name} [0, {d}) exceeds the size {size_of(term)} of {term_text(term)}")
        return term, d
    return Compose(term, d), None


def _innermost(term):
    while isinstance(term, Compose):
        term = term.inner
    return term


def domain_formula(term) -> Formula:
    """The named sub-axes of ``term``'s inputs (its innermost layout's formula; default names ``x0_0, ...``)."""
    t = _innermost(term)
    if isinstance(t, Formula):
        return t
    if isinstance(t, SwizzledFormula):
        t = t.layout
    if isinstance(t, ComposedLayout):
        t = t.inner
    if not isinstance(t, Layout):
        raise SymcuteError(f"forall: the inputs of {term_text(term)} have no sub-axes (a {type(t).__name__})")
    return formula(t)


def _selected(f: Formula, selectors) -> set:
    layout = f.layout
    modes = layout.shape if isinstance(layout.shape, tuple) else (layout.shape,)
    starts, k = [], 0
    for mode in modes:
        starts.append((k, k + len(it.flatten_to_tuple(mode))))
        k += len(it.flatten_to_tuple(mode))
    chosen = set()
    for s in selectors:
        if isinstance(s, int):
            if s >= len(modes):
                raise SymcuteError(f"forall: mode {s} of {layout} does not exist (rank {len(modes)})")
            hit = {a.name for a in f.axes if starts[s][0] <= a.leaf < starts[s][1]}
        else:
            hit = {a.name for a in f.axes if a.name == s or re.fullmatch(re.escape(s) + r"(_*\d+)+", a.name)}
        if not hit:
            names = ", ".join(a.name for a in f.axes)
            raise SymcuteError(f"forall: {s} selects no sub-axis of extent > 1 of {layout} (sub-axes: {names})")
        chosen |= hit
    return chosen


def permuted(term, chosen: set):
    """``(term o P, m, P, f)``: ``P`` lists the inputs with the free sub-axes innermost (``m`` inputs per
    block), one block for each value of the ``chosen`` sub-axes."""
    f = domain_formula(term)
    free = [a for a in f.axes if a.name not in chosen]
    fixed = [a for a in f.axes if a.name in chosen]
    axes = free + fixed
    if not axes:
        return term, 1, None, f
    P = Layout(tuple(a.extent for a in axes), tuple(a.weight for a in axes))
    m = 1
    for a in free:
        m *= a.extent
    return Compose(term, P), m, P, f


def _shower(P, f: Formula, chosen: set):
    """The counterexample entries of input ``i`` of ``term o P``: the term's input and its named digits."""
    def show(i):
        q = P(i) if P is not None else i
        digits = {a.name: (q // a.weight) % a.extent for a in f.axes}
        fixed = {k: v for k, v in digits.items() if k in chosen}
        free = {k: v for k, v in digits.items() if k not in chosen}
        return {Key.INDEX: q, Key.FIXED_DIGITS: fixed, Key.OTHER_DIGITS: free}
    return show


def _forall(claim: Claim, limit) -> Proof:
    from .blocks import each_block
    from . import prover
    body = claim.body
    terms = body.terms
    f0 = domain_formula(terms[0])
    chosen = _selected(f0, claim.axes)
    names = ", ".join(a.name for a in f0.axes if a.name in chosen)
    G, m, P, f = permuted(terms[0], chosen)
    n = size_of(terms[0])
    if body.kind == "equal":
        if size_of(terms[1]) != n:
            return prover.prove(terms[0], terms[1], limit=limit)  # the sizes refute it, as plain equality
        p = prover.prove(terms[0], terms[1], limit=limit)
        return Proof(Phrase(Statement.FOR_EVERY, axes=names, claim=p.statement), p.verdict, p.method, p.certificate,
                     p.counterexample, p.reason, claim=p.claim)   # on every block iff on their union: equal
    show = _shower(P, f, chosen)
    t = term_text(terms[0])
    if body.kind == "injective":
        statement = Phrase(Statement.BLOCK_INJECTIVE, axes=names, a=t)
    elif body.kind == "contiguous":
        statement = Phrase(Statement.BLOCK_CONTIGUOUS, axes=names, a=t, step=body.option("step"))
    else:
        statement = Phrase(Statement.BLOCK_ALIGNED, axes=names, a=t, alignment=body.option("alignment"))
    p = each_block(body.kind, G, n, m, statement, step=body.option("step", 1),
                   alignment=body.option("alignment", 1), limit=limit, show=show)
    order = P if P is not None else _identity(n)   # the certificate states the blocks of term o order
    return with_claim(p, "forall", (terms[0], order), of=body.kind, n=n, m=m, step=body.option("step", 1),
                      alignment=body.option("alignment", 1))


def _vector(claim: Claim, limit) -> Proof:
    from .blocks import each_block
    tv, memory = claim.terms
    layout = tv.layout if isinstance(tv, (Formula, SwizzledFormula)) else tv
    nt, nv = it.product(layout.shape[0]), it.product(layout.shape[1])
    w = claim.option("width")
    a = claim.option("align") or w
    # inputs reordered so that each (thread, group) is one block of w: v = g*w + j at index t + nt*v
    P = Layout((w, nt, nv // w), (nt, 1, nt * w))
    A = Compose(memory, tv)
    G = Compose(A, P)
    n = nt * nv

    def show(i):
        q = P(i)
        t, v = q % nt, q // nt
        return {Key.THREAD: t, Key.THREAD_VALUE: v, Key.INDEX: q}

    what = Phrase(Statement.MEMORY_OF_TV, memory=term_text(memory), tv=term_text(tv))
    cont = each_block("contiguous", G, n, w, Phrase(Statement.VECTOR_CONTIGUOUS, width=w, what=what), limit=limit,
                      show=show)
    if not cont.proved:
        return with_claim(_vector_proof(claim, cont, w, a, what), "vector", (tv, memory), width=w, align=a)
    al = each_block("aligned", G, n, w, Phrase(Statement.VECTOR_ALIGNED, alignment=a), alignment=a, limit=limit,
                    show=show)
    return with_claim(_vector_proof(claim, al, w, a, what, cont), "vector", (tv, memory), width=w, align=a)


def _vector_proof(claim, p: Proof, w, a, what, contiguity: Proof | None = None) -> Proof:
    statement = Phrase(Statement.VECTOR, width=w, alignment=a, what=what)
    method = p.method if contiguity is None or contiguity.method == p.method else f"{contiguity.method}+{p.method}"
    reason = p.reason
    if contiguity is not None and contiguity.reason:
        reason = Phrase(Reason.BOTH, first=contiguity.reason, second=p.reason) if p.reason else contiguity.reason
    if p.refuted:
        reason = Phrase(Reason.NOT_CONTIGUOUS if contiguity is None else Reason.NOT_ALIGNED, why=p.reason)
    return Proof(statement, p.verdict, method, p.certificate, p.counterexample, reason)
