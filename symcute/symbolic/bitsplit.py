"""A swizzled layout split into an F2 block (its low address bits) and a linear block (the digits above).

A swizzle ``Sw<B,M,S>`` reads and writes only the address bits below
``2^t`` (``t`` the top of its masks).  For ``T = Sw o 0 o L`` (``L`` a plain
layout, of any size) on ``[0, n)``, write ``L`` as its linear form
``sum(c_i * x_i)`` over the index digits (:func:`symcute.symbolic.linear.linearize`)
and choose a power of two ``Q >= 2^t`` such that

- the *low* digits (``c_i < Q``) have power-of-two extents, non-negative
  coefficients and ``sum(c_i * (e_i - 1)) < Q`` (their part of the address stays below ``Q``);
- every *high* digit's coefficient is a non-negative multiple of ``Q``.

List the inputs low digits first (the permutation ``P = (e_low.., e_high..):(w_low.., w_high..)``,
a bijection of ``[0, n)``); then, for ``a < P_L = prod(e_low)`` and ``b < n / P_L``,

    T(P(a + P_L*b)) = F(a) + Q*H(b),   F = Sw o 0 o (e_low):(c_low) < Q,   H = (e_high):(c_high / Q) >= 0,

because the swizzle leaves the bits at and above ``Q`` alone.  ``F`` is a power-of-two
swizzled layout (the GF(2) back-end decides it); ``H`` is a plain layout (refinement and
chains decide it).  As ``v = f + Q*h`` with ``0 <= f < Q`` is unique:

- ``T`` injective iff ``F`` and ``H`` are;
- ``[0, N)`` inside the image iff ``F`` covers ``[0, min(N, Q))`` and ``H`` covers ``[0, ceil(N / Q))``;
- ``T`` a bijection onto ``[0, N)`` iff it is injective, covers ``[0, N)`` and ``n == N``.

The certificate records the split as plain data (``Q``, the permutation, both blocks'
extents and strides, the swizzle) and each block's own certificate, so a checker can
re-verify it with integer arithmetic alone.  Every counterexample is re-evaluated with core.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.composed import ComposedLayout, is_constant_zero
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from .linear import NotLinear, evaluate, linearize
from .proof import Certificate, Proof
from .table import Table
from .vocabulary import Cell, Column, Condition, CounterexampleKey as Key, Phrase, Reason, Statement, Verdict

KINDS = ("injective", "surjective", "bijective")


class Split(NamedTuple):
    """``T(P(a + low_size*b)) == F(a) + q*H(b)`` with ``0 <= F < q`` (see the module doc)."""
    permutation: Layout
    low: ComposedLayout      # F, on [0, low_size)
    high: Layout             # H, on [0, size / low_size)
    q: int
    digits: tuple            # (Digit, is_low) in the permutation's order

    @property
    def low_size(self) -> int:
        return self.low.size()

    def to_data(self) -> dict:
        """The split as plain data (what a certificate checker re-verifies)."""
        sw = self.low.outer
        return {"q": self.q, "swizzle": [sw.bits, sw.base, sw.shift],
                "permutation": {"shape": list(self.permutation.shape), "stride": list(self.permutation.stride)},
                "low": {"shape": _flat(self.low.inner.shape), "stride": _flat(self.low.inner.stride)},
                "high": {"shape": _flat(self.high.shape), "stride": _flat(self.high.stride)}}


def _flat(x) -> list:
    return list(x) if isinstance(x, tuple) else [x]


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def split(term, n: int):
    """The :class:`Split` of ``term`` on ``[0, n)``, or None when it has none (see the module doc)."""
    from .swizzled import SwizzledFormula
    if isinstance(term, SwizzledFormula):
        term = term.layout
    if not isinstance(term, ComposedLayout) or not isinstance(term.outer, Swizzle) or \
            not isinstance(term.inner, Layout) or not is_constant_zero(term.offset) or \
            isinstance(term.offset, bool) or not isinstance(term.offset, int):
        return None
    sw = term.outer
    if sw.bits < 1 or sw.swizzle_code == 0:
        return None
    try:
        digits = linearize(term.inner, n)
    except NotLinear:
        return None
    if any(d.coef < 0 for d in digits):
        return None
    q = 1 << sw.swizzle_code.bit_length()
    while True:   # q grows until the low digits fit below it (at most once per digit)
        digits = _cut(digits, q)
        low = [d for d in digits if d.coef < q]
        top = sum(d.coef * (d.extent - 1) for d in low)
        if top < q:
            break
        q = 1 << top.bit_length()
    high = [d for d in digits if d.coef >= q]
    if any(not _pow2(d.extent) for d in low) or any(d.coef % q for d in high):
        return None
    order = low + high
    if not order:
        return None
    P = Layout(tuple(d.extent for d in order), tuple(d.weight for d in order))
    F = ComposedLayout(sw, 0, Layout(tuple(d.extent for d in low), tuple(d.coef for d in low)) if low
                       else Layout(1, 0))
    H = Layout(tuple(d.extent for d in high), tuple(d.coef // q for d in high)) if high else Layout(1, 0)
    s = Split(P, F, H, q, tuple((d, d in low) for d in order))
    _self_check(term, s)
    return s


def _cut(digits, q: int) -> list:
    """The digits with each one whose multiples cross ``q`` (``c < q < c*e``) split where they reach it,
    when ``c`` divides ``q`` and ``q/c`` divides ``e`` (a row index of 768 under stride 64: 8 low rows, 96 above)."""
    from .linear import Digit
    out = []
    for d in digits:
        lo = q // d.coef if 0 < d.coef < q and q % d.coef == 0 else 0
        if lo > 1 and d.extent > lo and d.extent % lo == 0:
            out.append(Digit(d.name + "_lo", lo, d.weight, d.coef, d.via))
            out.append(Digit(d.name + "_hi", d.extent // lo, d.weight * lo, q, d.via))
        else:
            out.append(d)
    return out


def _self_check(term, s: Split) -> None:
    """Each digit's unit input and the all-top input agree with core (the argument is the module doc's)."""
    PL = s.low_size
    points = [0, s.permutation.size() - 1]
    w = 1
    for d, _ in s.digits:
        points.append(w)
        w *= d.extent
    for i in points:
        a, b = i % PL, i // PL
        if evaluate(term, s.permutation(i)) != s.low(a) + s.q * s.high(b):
            raise AssertionError(f"bitsplit: the split of {term} disagrees with core at input {s.permutation(i)}")


def _certificate(s: Split, parts) -> Certificate:
    rows = [[d.name, d.extent, d.weight, d.coef, Cell.IN_BLOCK if is_low else Cell.BLOCK] for d, is_low in s.digits]
    table = Table([Column.DIGIT, Column.EXTENT, Column.WEIGHT, Column.COEFFICIENT, Column.ROLE], rows)
    cond = Phrase(Condition.BIT_SPLIT, q=s.q, low=str(s.low), high=str(s.high))
    data = {"split": s.to_data(), "parts": {name: (p.certificate.to_dict() if p.certificate else None,
                                                   str(p.verdict), str(p.method)) for name, p in parts}}
    return Certificate("block-split", table, (cond,), data)


def decide(kind: str, term, statement, n: int, onto: int | None = None, limit=None):
    """``kind`` (one of :data:`KINDS`) of ``term`` on ``[0, n)`` (``onto``: the target ``[0, onto)``) through
    its split, or None when it has none or a block stays undecided."""
    s = split(term, n)
    if s is None:
        p = _through_bijection(kind, term, statement, n, limit)
        return p if p is not None else _onto_through_bijection(kind, term, statement, n, onto, limit)
    from . import prover, prover_f2
    PL = s.low_size
    m = n // PL
    F, H, q = s.low, s.high, s.q
    parts = []
    if kind in ("injective", "bijective"):
        pf = prover_f2.injective(F, PL, Phrase(Statement.INJECTIVE, a=str(F), n=PL))
        ph = prover.is_injective(H, limit) if m > 1 else None
        parts = [("low", pf)] + ([("high", ph)] if ph is not None else [])
        if any(p is None or not (p.proved or p.refuted) for _, p in parts):
            return None
        cert = _certificate(s, parts)
        if pf.refuted:
            x, y = pf.counterexample[Key.INDICES]
            return _collision(term, statement, s.permutation(x), s.permutation(y), cert, kind, pf)
        if ph is not None and ph.refuted:
            x, y = ph.counterexample[Key.INDICES]
            return _collision(term, statement, s.permutation(PL * x), s.permutation(PL * y), cert, kind, ph)
        if kind == "injective":
            return Proof(statement, Verdict.PROVED, _method(parts), cert)
    N = onto if onto is not None else n
    nf, nh = min(N, q), -(-N // q)
    pf = prover_f2.surjective(F, PL, nf, Phrase(Statement.SURJECTIVE, a=str(F), size=PL, n=nf), limit)
    ph = prover.is_surjective(H, nh, limit) if nh > 1 else None
    sparts = [("low onto", pf)] + ([("high onto", ph)] if ph is not None else [])
    if any(p is None or not (p.proved or p.refuted) for _, p in sparts):
        return None
    parts = parts + sparts
    cert = _certificate(s, parts)
    if pf.refuted:
        return _missing(term, statement, pf.counterexample[Key.MISSING_VALUE], cert, kind, pf, n, limit)
    if ph is not None and ph.refuted:
        return _missing(term, statement, q * ph.counterexample[Key.MISSING_VALUE], cert, kind, ph, n, limit)
    if kind == "bijective" and n != N:
        # injective with n > N distinct non-negative values: the largest, F's largest + q*H's largest, is >= N
        x = _largest_input(s)
        v = evaluate(term, x)
        if v < N:
            raise AssertionError(f"bitsplit: the largest value {v} of {term} is inside [0, {N})")
        return Proof(statement, Verdict.REFUTED, _method(parts), cert, {Key.INDEX: x, Key.VALUE: v},
                     reason=Phrase(Reason.OUTSIDE_TARGET, why=Phrase(Reason.LARGEST_VALUE, top=v), n=N))
    return Proof(statement, Verdict.PROVED, _method(parts), cert)


def _swizzle_of(term):
    """``(Sw, L)`` for ``Sw o 0 o L`` whose swizzle is a bijection of the integers, else None."""
    from .swizzled import SwizzledFormula
    term = term.layout if isinstance(term, SwizzledFormula) else term
    if not isinstance(term, ComposedLayout) or not isinstance(term.outer, Swizzle) or \
            not isinstance(term.inner, Layout) or not is_constant_zero(term.offset):
        return None
    sw = term.outer
    # the read bits (yyy) are left as they are when they miss the written ones (zzz): z ^ ((z & yyy) >> S)
    # undoes the swizzle, so it is a bijection of the integers (a sign-bit mask reads unboundedly many bits)
    if sw.yyy_msk <= 0 or sw.zzz_msk <= 0 or sw.yyy_msk & sw.zzz_msk:
        return None
    return sw, term.inner


def _through_bijection(kind, term, statement, n, limit):
    """Without a split: ``Sw o 0 o L`` collides exactly where ``L`` does (the swizzle is a bijection), so a
    collision of ``L`` refutes injectivity and bijectivity, and an injective ``L`` proves injectivity."""
    sl = _swizzle_of(term)
    if sl is None or kind == "surjective" or n != sl[1].size():
        return None
    from . import prover
    p = prover.is_injective(sl[1], limit)
    if not (p.proved or p.refuted) or (p.proved and kind != "injective"):
        return None
    table = Table([Column.DIGIT, Column.EXTENT, Column.WEIGHT, Column.COEFFICIENT, Column.ROLE], [])
    cert = Certificate("swizzle-bijection", p.certificate.table if p.certificate else table,
                       (Phrase(Condition.SWIZZLE_BIJECTION, sw=str(sl[0]), L=str(sl[1])),),
                       {"swizzle": [sl[0].bits, sl[0].base, sl[0].shift],
                        "layout": {"shape": _flat(sl[1].shape), "stride": _flat(sl[1].stride)},
                        "parts": {"layout": (p.certificate.to_dict() if p.certificate else None, str(p.verdict),
                                             str(p.method))}})
    if p.proved:
        return Proof(statement, Verdict.PROVED, p.method, cert)
    x, y = p.counterexample[Key.INDICES]
    return _collision(term, statement, x, y, cert, kind, p)


def _onto_through_bijection(kind, term, statement, n, onto, limit):
    """Without a split, for surjectivity and bijectivity: a swizzle that keeps the bits it reads changes and reads
    only the bits below its period ``2^t``, so it permutes every aligned block of ``2^t`` values, and it is its
    own inverse.  When the target ``[0, N)`` is a union of such blocks, ``Sw o 0 o L`` covers it (and stays in it)
    exactly when ``L`` does, and misses ``Sw(y)`` where ``L`` misses ``y``: the layout's claim decides."""
    sl = _swizzle_of(term)
    N = n if onto is None else onto
    if sl is None or kind not in ("surjective", "bijective") or n != sl[1].size():
        return None
    sw, L = sl
    period = 1 << max(sw.yyy_msk, sw.zzz_msk).bit_length()
    if N % period:
        return None
    from . import prover
    p = prover.is_surjective(L, N, limit) if kind == "surjective" else prover.is_bijective(L, N, limit)
    if not (p.proved or p.refuted):
        return None
    table = Table([Column.DIGIT, Column.EXTENT, Column.WEIGHT, Column.COEFFICIENT, Column.ROLE], [])
    cert = Certificate("swizzle-bijection", p.certificate.table if p.certificate else table,
                       (Phrase(Condition.SWIZZLE_PERMUTES_BLOCKS, sw=str(sw), L=str(L), period=period, n=N),),
                       {"swizzle": [sw.bits, sw.base, sw.shift], "period": period,
                        "layout": {"shape": _flat(L.shape), "stride": _flat(L.stride)},
                        "parts": {"layout": (p.certificate.to_dict() if p.certificate else None, str(p.verdict),
                                             str(p.method))}})
    if p.proved:
        return Proof(statement, Verdict.PROVED, p.method, cert)
    ce = dict(p.counterexample)
    if Key.MISSING_VALUE in ce:   # L misses y: T misses Sw(y) (T(x) = Sw(y) iff L(x) = y)
        return _missing(term, statement, sw(ce[Key.MISSING_VALUE]), cert, kind, p, n, limit)
    if Key.INDICES in ce:
        return _collision(term, statement, *ce[Key.INDICES], cert, kind, p)
    x = ce[Key.INDEX]
    v = evaluate(term, x)
    if 0 <= v < N:
        raise AssertionError(f"bitsplit: the value {v} of {term} at {x} is inside [0, {N})")
    return Proof(statement, Verdict.REFUTED, p.method, cert, {Key.INDEX: x, Key.VALUE: v},
                 reason=Phrase(Reason.BIT_SPLIT_PART, why=p.reason))


def equal(lhs, rhs, n: int, statement, labels, limit=None):
    """``Sw o 0 o A == Sw o 0 o B`` on ``[0, n)`` iff ``A == B`` there (one swizzle, a bijection of the
    integers); None unless both sides are so and the layouts' claim is decided."""
    a, b = _swizzle_of(lhs), _swizzle_of(rhs)
    if a is None or b is None or a[0] != b[0] or n > min(a[1].size(), b[1].size()):
        return None
    from . import prover
    p = prover.prove(a[1], b[1], domain=n, limit=limit, labels=labels)
    if not (p.proved or p.refuted):
        return None
    sw = a[0]
    cert = Certificate("swizzle-bijection", p.certificate.table if p.certificate else Table([], []),
                       (Phrase(Condition.SWIZZLE_BIJECTION, sw=str(sw), L=f"{a[1]}, {b[1]}"),),
                       {"swizzle": [sw.bits, sw.base, sw.shift],
                        "layouts": [{"shape": _flat(L.shape), "stride": _flat(L.stride)} for L in (a[1], b[1])],
                        "parts": {"layouts": (p.certificate.to_dict() if p.certificate else None, str(p.verdict),
                                              str(p.method))}})
    if p.proved:
        return Proof(statement, Verdict.PROVED, p.method, cert)
    from .vocabulary import side_key
    q = p.counterexample[Key.INDEX]
    vl, vr = evaluate(lhs, q), evaluate(rhs, q)
    if vl == vr or not 0 <= q < n:
        raise AssertionError(f"bitsplit: index {q} does not separate {lhs} and {rhs}")
    la, lb = labels
    return Proof(statement, Verdict.REFUTED, p.method, cert, {Key.INDEX: q, side_key(la): vl, side_key(lb): vr},
                 reason=Phrase(Reason.BIT_SPLIT_PART, why=p.reason))


def _method(parts) -> str:
    out = []
    for _, p in parts:
        for m in str(p.method).split("+"):
            if m not in out:
                out.append(m)
    return "+".join(out)


def _collision(term, statement, x: int, y: int, cert, kind, part) -> Proof:
    vx, vy = evaluate(term, x), evaluate(term, y)
    if vx != vy or x == y:
        raise AssertionError(f"bitsplit: {x} and {y} are no collision of {term} ({vx} vs {vy})")
    x, y = min(x, y), max(x, y)
    why = Phrase(Reason.BIT_SPLIT_PART, why=part.reason)
    if kind == "bijective":
        why = Phrase(Reason.NOT_INJECTIVE, why=why)
    return Proof(statement, Verdict.REFUTED, part.method, cert, {Key.INDICES: (x, y), Key.VALUE: vx}, reason=why)


def _missing(term, statement, y: int, cert, kind, part, n: int, limit) -> Proof:
    from . import exhaustive
    from .limits import exhaustive_limit
    if n <= min(exhaustive_limit(limit), 1 << 12) and (exhaustive.values(term, n, limit) == y).any():
        raise AssertionError(f"bitsplit: value {y} of {term} is hit after all")
    why = Phrase(Reason.BIT_SPLIT_PART, why=part.reason)
    if kind == "bijective":
        why = Phrase(Reason.NOT_ONTO, why=why)
    return Proof(statement, Verdict.REFUTED, part.method, cert, {Key.MISSING_VALUE: y}, reason=why)


def _largest_input(s: Split) -> int:
    """The input of the largest value: F's largest value (greedy over its coset) and every high digit at its top."""
    from .prover_f2 import index_map
    k = s.low_size.bit_length() - 1
    M, c = index_map(s.low, k)
    v = c
    for b in M.image():
        if v ^ b > v:
            v ^= b
    a = M.solve(v ^ c)
    return s.permutation(a + s.low_size * (s.high.size() - 1))
