"""The SMT back-end: layouts as Z3 integer terms, existential claims decided by Z3 (linear integer arithmetic).

An index ``q`` in ``[0, n)`` of a flat layout ``(s_i):(d_i)`` is written as its
mixed-radix digits ``q = sum x_i * W_i`` with ``0 <= x_i < s_i`` (the last
digit unbounded above: CuTe's last mode takes any overflow), and the value is
``sum d_i * x_i``; a negative input is evaluated on ``|q|`` and negated (C++
truncation).  Swizzle bits are ``(v / 2^k) % 2`` (division by constants), a
composition substitutes one term into the next.  Each claim is the
satisfiability of its negation: "sat" gives a counterexample (re-evaluated
with core by the prover), "unsat" is the proof, and a solver that spends its
resource budget (:func:`rlimit`, a count of Z3's steps, not a time) says
"unknown" (the claim stays undecided).

Only existential questions are asked here (two sides differ somewhere, two
indices collide, a value falls outside a range, two images meet); coverage
questions ("every value is hit") go to ISL (:mod:`.isl_backend`), which
projects exactly.  ``to_z3(L)`` is also a public export.
"""

from __future__ import annotations

from ..core import int_tuple as it
from ..core.layout import Layout
from ..errors import SymcuteError
from .formula import Formula
from .isl_backend import SIGN_EXTENDED_RANGE, Exhausted, NotRepresentable

# Z3's budget is a work budget: its resource count (``rlimit``), which counts the solver's own steps, so a
# query stops at the same point on any machine and under any load.  Budgets are stated in milliseconds of
# this machine's Z3 (``TIMEOUT_MS``, exact.time_budget) and converted at the fixed rate RLIMIT_PER_MS
# (measured: 0.5-1.4 million units per second on the 2-core development machine under load).  A
# wall-clock stop remains only as a safety net far past the budget (SAFETY_FACTOR times it), for a step
# the resource count does not cover.
TIMEOUT_MS = 5_000
RLIMIT_PER_MS = 1_000
SAFETY_FACTOR = 20


def rlimit() -> int:
    """The resource units one query may spend: the budget ``TIMEOUT_MS`` at ``RLIMIT_PER_MS``."""
    return max(1, TIMEOUT_MS * RLIMIT_PER_MS)

INSTALL_HINT = "the SMT back-end needs z3-solver: pip install z3-solver (a dependency of symcute)"


def available() -> bool:
    try:
        import z3  # noqa: F401
    except ImportError:
        return False
    return True


def _z3():
    try:
        import z3
    except ImportError:
        raise SymcuteError(INSTALL_HINT) from None
    return z3


class Encoder:
    """Builds Z3 terms for CuTe evaluations, adding each term's digit constraints to ``solver``.

    ``guards``: conditions under which the encoding is CuTe's value (a swizzle whose Y mask holds bit 31
    is encoded on ``SIGN_EXTENDED_RANGE`` only, every other term on all integers); a query whose guards
    can fail is not answered.
    """

    def __init__(self, solver):
        self.z3 = _z3()
        self.solver = solver
        self.count = 0
        self.guards = []

    def fresh(self, name: str):
        self.count += 1
        return self.z3.Int(f"{name}_{self.count}")

    def apply(self, term, v):
        from ..core.composed import ComposedLayout
        from ..core.swizzle import Swizzle
        from .linear import Compose
        if isinstance(term, Formula):
            term = term.layout
        if isinstance(term, Layout):
            return self._layout(term, v)
        if isinstance(term, Swizzle):
            return self._swizzle(term, v)
        if isinstance(term, ComposedLayout):
            if type(term.offset) is not int:
                raise NotRepresentable(f"{term}: the offset {term.offset} is not an integer")
            return self.apply(term.outer, term.offset + self.apply(term.inner, v))
        if isinstance(term, Compose):
            return self.apply(term.outer, self.apply(term.inner, v))
        raise NotRepresentable(f"{term!r} is not a layout, a swizzle, a composed layout or a Compose")

    def _layout(self, layout: Layout, v):
        z3 = self.z3
        shape = it.flatten_to_tuple(layout.shape)
        stride = it.flatten_to_tuple(layout.stride)
        a = self.fresh("abs")
        self.solver.add(a == z3.If(v >= 0, v, -v))
        parts, terms, w = [], [], 1
        for k, (s, d) in enumerate(zip(shape, stride)):
            if type(s) is not int or type(d) is not int:
                raise NotRepresentable(f"{layout}: only integer shapes and strides are encoded")
            if s < 1:
                raise NotRepresentable(f"{layout}: extent {s} (CuTe divides by it)")
            last = k == len(shape) - 1
            if s == 1 and not last:
                continue
            x = self.fresh("digit")
            self.solver.add(x >= 0)
            if not last:
                self.solver.add(x < s)
            parts.append(x * w)
            if d:
                terms.append(d * x)
            w *= s
        self.solver.add(a == (z3.Sum(parts) if parts else 0))
        r = z3.Sum(terms) if terms else z3.IntVal(0)
        return z3.If(v >= 0, r, -r)

    def _swizzle(self, sw, v):
        # Z3's integer div and mod by a positive constant are floor and non-negative mod: bit k of v in two's
        # complement, so the field formula is core's value on negative offsets too (isl_backend.swizzle_pieces)
        ybase = sw.base + max(0, sw.shift)
        zbase = sw.base - min(0, sw.shift)
        out = v
        for k in range(sw.bits):
            y = (v / (1 << (ybase + k))) % 2
            z = (v / (1 << (zbase + k))) % 2
            out = out + (1 << (zbase + k)) * ((y + z) % 2 - z)
        if sw.yyy_msk < 0:  # the sign-extended Y mask: exact on SIGN_EXTENDED_RANGE only
            lo, hi = SIGN_EXTENDED_RANGE
            self.guards.append(self.z3.And(v >= lo, v < hi))
            c = 1 << (sw.base + sw.bits)
            out = self.z3.If(v >= 0, out, out - 2 * c * (v / c) - c)
        return out


def to_z3(L, q=None):
    """``L`` as a Z3 term of the integer ``q`` (a fresh ``q`` by default) with its side constraints:
    ``(value, q, constraints)``; ``value`` equals core's ``L(q)`` wherever ``constraints`` hold.

    @post for every integer q satisfying the constraints, value == L(q)
    """
    z3 = _z3()
    s = z3.Solver()
    enc = Encoder(s)
    q = z3.Int("q") if q is None else q
    try:
        value = enc.apply(L, q)
    except NotRepresentable as e:  # a user's layout Z3 cannot encode (basis strides): their error
        raise SymcuteError(f"to_z3: {e}") from None
    return value, q, list(s.assertions()) + enc.guards


def _solver():
    z3 = _z3()
    s = z3.Solver()
    s.set("rlimit", rlimit())
    s.set("timeout", TIMEOUT_MS * SAFETY_FACTOR)
    return s


def _decide(s, enc, negation, *witness):
    """Check the guards, then the negation of the claim: (True, None) when unsat, (False, values) when sat."""
    z3 = enc.z3
    if enc.guards:
        s.push()
        s.add(z3.Not(z3.And(*enc.guards)))
        r = s.check()
        s.pop()
        if r != z3.unsat:
            lo, hi = SIGN_EXTENDED_RANGE
            raise NotRepresentable(f"a swizzle with a sign-extended Y mask may be applied to an offset outside "
                                   f"[{lo}, {hi}) here (not encoded)")
    s.add(negation)
    r = s.check()
    if r == z3.unsat:
        return True, None
    if r == z3.sat:
        m = s.model()
        return False, tuple(m.evaluate(w, model_completion=True).as_long() for w in witness)
    raise Exhausted(f"Z3 gave up after {rlimit()} resource units (symcute.symbolic.z3_backend.TIMEOUT_MS = "
                    f"{TIMEOUT_MS} at RLIMIT_PER_MS = {RLIMIT_PER_MS}): {s.reason_unknown()}")


def equal(lhs, rhs, n: int):
    """``lhs(q) == rhs(q)`` on ``[0, n)``: ``(True, None, evidence)`` or ``(False, q, evidence)``."""
    z3 = _z3()
    s = _solver()
    enc = Encoder(s)
    q = z3.Int("q")
    s.add(q >= 0, q < n)
    holds, w = _decide(s, enc, enc.apply(lhs, q) != enc.apply(rhs, q), q)
    return holds, (None if holds else w[0]), f"Z3: 'exists q in [0, {n}): lhs(q) != rhs(q)' is " + \
        ("unsat" if holds else "sat")


def injective(term, n: int):
    """Injective on ``[0, n)``: ``(True, None, evidence)`` or ``(False, (x, y), evidence)``."""
    z3 = _z3()
    s = _solver()
    enc = Encoder(s)
    x, y = z3.Int("x"), z3.Int("y")
    s.add(x >= 0, x < y, y < n)
    holds, w = _decide(s, enc, enc.apply(term, x) == enc.apply(term, y), x, y)
    return holds, (None if holds else w), f"Z3: 'exists 0 <= x < y < {n}: L(x) == L(y)' is " + \
        ("unsat" if holds else "sat")


def inside(term, size: int, n: int):
    """Every value on ``[0, size)`` in ``[0, n)``: ``(True, None, evidence)`` or ``(False, x, evidence)``."""
    z3 = _z3()
    s = _solver()
    enc = Encoder(s)
    x = z3.Int("x")
    s.add(x >= 0, x < size)
    v = enc.apply(term, x)
    holds, w = _decide(s, enc, z3.Or(v < 0, v >= n), x)
    return holds, (None if holds else w[0]), f"Z3: 'exists x in [0, {size}): L(x) outside [0, {n})' is " + \
        ("unsat" if holds else "sat")


def disjoint(a, na: int, b, nb: int, a_from: int = 0):
    """The images of ``a`` on ``[a_from, na)`` and ``b`` on ``[0, nb)`` are disjoint: ``(True, None, evidence)``
    or ``(False, (x, y), evidence)`` with ``a(x) == b(y)``."""
    z3 = _z3()
    s = _solver()
    enc = Encoder(s)
    x, y = z3.Int("x"), z3.Int("y")
    s.add(x >= a_from, x < na, y >= 0, y < nb)
    holds, w = _decide(s, enc, enc.apply(a, x) == enc.apply(b, y), x, y)
    return holds, (None if holds else w), f"Z3: 'exists x, y: a(x) == b(y)' is " + ("unsat" if holds else "sat")


def increasing(term, n: int):
    """``term(i-1) < term(i)`` for ``1 <= i < n``: ``(True, None, evidence)`` or ``(False, i, evidence)``."""
    z3 = _z3()
    s = _solver()
    enc = Encoder(s)
    i = z3.Int("i")
    s.add(i >= 1, i < n)
    holds, w = _decide(s, enc, enc.apply(term, i - 1) >= enc.apply(term, i), i)
    return holds, (None if holds else w[0]), f"Z3: 'exists i in [1, {n}): L(i-1) >= L(i)' is " + \
        ("unsat" if holds else "sat")


def hits(term, n: int, value: int):
    """Some ``x < n`` has ``term(x) == value``: ``(True, x, evidence)`` or ``(False, None, evidence)``."""
    z3 = _z3()
    s = _solver()
    enc = Encoder(s)
    x = z3.Int("x")
    s.add(x >= 0, x < n)
    missing, w = _decide(s, enc, enc.apply(term, x) == value, x)
    return (not missing), (None if missing else w[0]), f"Z3: 'exists x in [0, {n}): L(x) == {value}' is " + \
        ("unsat" if missing else "sat")


# --- claims on every block of m consecutive inputs (symcute.symbolic.blocks) -----------------------------

def _block(n: int, m: int):
    """A solver with the block index ``k`` in ``[0, n/m)``, and the encoder."""
    z3 = _z3()
    s = _solver()
    enc = Encoder(s)
    k = z3.Int("k")
    s.add(k >= 0, k < n // m)
    return z3, s, enc, k


def block_injective(term, n: int, m: int):
    """Injective on every block ``[k*m, (k+1)*m)`` of ``[0, n)``: ``(True, None, evidence)`` or
    ``(False, (x, y), evidence)`` with ``x < y`` in one block and equal values."""
    z3, s, enc, k = _block(n, m)
    i, j = z3.Int("i"), z3.Int("j")
    s.add(i >= 0, i < j, j < m)
    x, y = k * m + i, k * m + j
    holds, w = _decide(s, enc, enc.apply(term, x) == enc.apply(term, y), k, i, j)
    return holds, (None if holds else (w[0] * m + w[1], w[0] * m + w[2])), \
        f"Z3: 'exists block k, 0 <= i < j < {m}: L(k*{m}+i) == L(k*{m}+j)' is " + ("unsat" if holds else "sat")


def block_contiguous(term, n: int, m: int, step: int):
    """``term(k*m + j) == term(k*m) + step*j`` on every block of ``[0, n)``: ``(True, None, evidence)`` or
    ``(False, k*m + j, evidence)``."""
    z3, s, enc, k = _block(n, m)
    j = z3.Int("j")
    s.add(j >= 1, j < m)
    holds, w = _decide(s, enc, enc.apply(term, k * m + j) != enc.apply(term, k * m) + step * j, k, j)
    return holds, (None if holds else w[0] * m + w[1]), \
        f"Z3: 'exists block k, 0 < j < {m}: L(k*{m}+j) != L(k*{m}) + {step}*j' is " + ("unsat" if holds else "sat")


def block_aligned(term, n: int, m: int, alignment: int):
    """``term(k*m) % alignment == 0`` for every block start of ``[0, n)``: ``(True, None, evidence)`` or
    ``(False, k*m, evidence)``."""
    z3, s, enc, k = _block(n, m)
    holds, w = _decide(s, enc, enc.apply(term, k * m) % alignment != 0, k)
    return holds, (None if holds else w[0] * m), \
        f"Z3: 'exists block k: L(k*{m}) % {alignment} != 0' is " + ("unsat" if holds else "sat")
