"""The independent certificate checker: re-verifies symcute's certificates with its own arithmetic.

It sits beside the stack (docs/architecture.md): it imports only ``symcute.core`` (to parse the claim's
layouts, written in CuTe notation, and to evaluate them), numpy and the standard library; never the
prover (``symbolic``), ``trace``, ``report``, SymPy, Z3 or ISL (tests/test_layers.py enforces it).  A
certificate is believed only for what this module re-derives from the claim itself:

- a refutation: its counterexample is evaluated with core and must violate the claim (a missing value
  is re-confirmed by the arithmetic of the method that found it, or by enumeration up to ``bound``);
- ``refinement`` / ``chain``: the certificate's digit table (extent, weight, coefficients) is re-derived
  by integer arithmetic: the weights must be the exact mixed-radix chain of ``[0, n)``; each side's
  coefficient is recomputed by landing every digit on the layouts' modes (a multiple of a mode's
  prefix weight, with no carry past a mode's extent); equality then compares the columns, injectivity
  checks that every stride exceeds the span of the smaller ones, surjectivity that the strides leave no gap;
- ``gf2``: the columns and constant are core's values at the unit inputs; the term's F2-affinity is
  re-established structurally (power-of-two digits whose bits do not overlap, a swizzle after them) or by
  enumeration up to ``bound``; rank, span and kernel come from this module's own elimination;
- ``exhaustive``: re-enumeration with core, up to ``bound`` inputs;
- ``z3`` / ``isl``: the checker writes its own SMT-LIB2 query from the claim (plain layouts and
  compositions; it must agree with core at a few inputs) and cvc5, a second solver (the optional extra
  ``symcute[check]``), must find it unsat; swizzled terms and surjectivity stay unchecked;
- ``block-split``: the split of ``Sw o 0 o L`` (digits re-derived as for refinement, ``q`` above the swizzle's
  bits) glued without a carry, each block's own certificate against the sub-claim derived here;
  ``swizzle-bijection``: a swizzle that keeps the bits it reads is a bijection, the layouts' claim re-checked;
- ``disjoint``/``contains`` (no ``a(x) == b(y)``; every ``b(y)`` an ``a(x)``) by enumeration or a nested equality;
  block claims (``contiguous``, ``aligned``, ``forall``, ``vector``) on the checker's own block function;
- parametric claims: chains, same digits, polynomial identities by ``check_param``'s polynomials (its own module);
- anything else (Z3 over parameters): ``unchecked``, naming the kind: never ``ok`` for what was not re-checked.

Format: ``FORMAT``/``VERSION`` below; the JSON Schema is ``certificate.schema.json`` beside this module
(docs/certificates.md documents every field).
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass

from .core import int_tuple as it
from .core.composed import ComposedLayout
from .core.layout import Layout
from .core.parse import parse_layout
from .core.swizzle import Swizzle

FORMAT = "symcute-certificate"
VERSION = 1
SCHEMA_PATH = pathlib.Path(__file__).with_name("certificate.schema.json")
BOUND = 1 << 16           # the most inputs the checker enumerates (re-enumeration, F2-affinity, missing values)
MAX_ROWS = 4096           # a certificate's table is bounded by the input, the checker's cost by this


@dataclass(frozen=True)
class Result:
    """The checker's answer for one certificate: ``status`` is ``ok``, ``failed`` or ``unchecked``."""
    status: str
    claim: str
    why: str

    def __str__(self) -> str:
        return f"{self.status}: {self.claim}: {self.why}"


class Refused(Exception):
    """The certificate does not prove its claim (the message says where)."""


class Unchecked(Exception):
    """The checker cannot re-check this certificate (the message names the kind)."""


# --- the claim: terms in CuTe notation, parsed with core ---------------------------------------------------

class Compose:
    """``x -> outer(inner(x))`` (the checker's own: a term of a claim)."""
    def __init__(self, outer, inner):
        self.outer, self.inner = outer, inner

    def __call__(self, x):
        return self.outer(self.inner(x))


def term(t):
    """A claim's term: a layout text (CuTe notation, core's parser) or ``{"compose": [outer, inner]}``."""
    if isinstance(t, str):
        return parse_layout(t)
    if isinstance(t, dict) and set(t) == {"compose"} and isinstance(t["compose"], list) and len(t["compose"]) == 2:
        return Compose(term(t["compose"][0]), term(t["compose"][1]))
    raise Refused(f"term {t!r} is neither a layout text nor a compose pair")


def term_text(t) -> str:
    return t if isinstance(t, str) else f"({term_text(t['compose'][0])} o {term_text(t['compose'][1])})"


def claim_text(c: dict) -> str:
    keys = ("n", "size", "onto", "na", "nb", "of", "m", "step", "alignment", "width", "align")
    args = [term_text(t) for t in c.get("terms", [])] + [f"{k}={c[k]}" for k in keys if k in c]
    return f"{c.get('kind')}({', '.join(args)})"


def _int(x, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise Refused(f"{what} {x!r} is not an integer")
    return x


# --- refinement and chain: integer arithmetic on extents, weights, strides ----------------------------------

def _modes(L: Layout):
    """``(prefix weight, extent, stride)`` of each mode of size > 1 and of the last mode, which takes any
    index past the size (CuTe's colexicographic order)."""
    shape, stride = it.flatten_to_tuple(L.shape), it.flatten_to_tuple(L.stride)
    out, w = [], 1
    for k, (s, d) in enumerate(zip(shape, stride)):
        if not isinstance(s, int) or not isinstance(d, int) or s < 1:
            raise Unchecked(f"layout {L} has an extent or stride the checker's arithmetic does not cover")
        if s > 1 or k == len(shape) - 1:
            out.append((w, s, d))
        w *= s
    return out, w


def land(t, coefs, extents):
    """The coefficients of ``t`` applied to ``sum(coefs[i] * x_i)``, ``x_i < extents[i]``; raises Refused
    where the landing is not linear (a digit across two modes, a carry past a mode's extent)."""
    if isinstance(t, Compose):
        return land(t.outer, land(t.inner, coefs, extents), extents)
    if not isinstance(t, Layout):
        raise Unchecked(f"{t} is swizzled: refinement and chain certificates cover plain layouts")
    modes, _size = _modes(t)
    last = len(modes) - 1
    used = [0] * len(modes)

    def one(a, e):
        """The coefficient of a digit of step ``a``, extent ``e``: it lands in one mode, or runs on through the
        next modes where their strides continue its own (CuTe's coalescable modes)."""
        if a < 0:
            raise Refused(f"a digit of coefficient {a} enters layout {t}: no linear landing")
        j = max((k for k in range(len(modes)) if modes[k][0] <= a), default=None)
        if j is None or a % modes[j][0]:
            raise Refused(f"step {a} is not a multiple of a mode weight of {t}")
        w, s, d = modes[j]
        step = a // w
        if a >= w * s and j < last:
            raise Refused(f"step {a} is past mode {j} of {t} (extent {s})")
        if j == last or step * (e - 1) < s:
            used[j] += step * (e - 1)
            return d * step
        inside = s // step
        if s % step or e % inside:
            raise Refused(f"a digit of step {a}, extent {e} splits mode {j} of {t} unevenly")
        used[j] += step * (inside - 1)
        if one(w * s, e // inside) != d * s:
            raise Refused(f"a digit of step {a}, extent {e} runs across modes of {t} whose strides do not continue")
        return d * step

    out = [0 if a == 0 or e == 1 else one(a, e) for a, e in zip(coefs, extents)]
    for j, (w, s, _d) in enumerate(modes):
        if used[j] >= s and j < last:
            raise Refused(f"digits landed on mode {j} of {t} reach {used[j]} >= its extent {s} (a carry)")
    return out


def _chain(rows, n: int):
    """The rows' extents and weights: an exact mixed-radix chain of ``[0, n)``."""
    if not isinstance(rows, list) or len(rows) > MAX_ROWS:
        raise Refused("the digit table is missing or too long")
    w, ext, wts = 1, [], []
    for r in rows:
        e, wt = _int(r.get("extent"), "extent"), _int(r.get("weight"), "weight")
        if e < 1 or wt != w:
            raise Refused(f"weight {wt} (extent {e}) breaks the mixed-radix chain (expected weight {w})")
        ext.append(e)
        wts.append(wt)
        w *= e
    if w != n:
        raise Refused(f"the digits span {w} inputs, the domain has {n}")
    return ext, wts


def _coefs(t, rows, ext, wts, key: str):
    got = land(t, wts, ext)
    for r, g in zip(rows, got):
        if r.get(key) != g:
            raise Refused(f"digit of weight {r['weight']}: the certificate says {key} {r.get(key)!r}, the "
                          f"arithmetic gives {g}")
    for wt, g in list(zip(wts, got))[:64]:   # core's evaluation agrees at the digits' unit inputs
        if t(wt) - t(0) != g:
            raise Refused(f"core's value at {wt} disagrees with the coefficient {g}")
    return got


def _injective_chain(coefs, ext) -> bool:
    span = 0
    for c, e in sorted(((abs(c), e) for c, e in zip(coefs, ext) if e > 1)):
        if c <= span:
            return False
        span += c * (e - 1)
    return True


def _covers_chain(coefs, ext, n: int) -> bool:
    covered = 0
    for c, e in sorted((c, e) for c, e in zip(coefs, ext) if c > 0 and e > 1):
        if c > covered + 1:
            break
        covered += c * (e - 1)
    return covered >= n - 1


def _misses(coefs, ext, y: int) -> bool:
    """Non-negative digits miss ``y``: the smaller strides' values stay below it, every other is above it."""
    below = sum(c * (e - 1) for c, e in zip(coefs, ext) if c < y)
    return below < y and y not in {c for c, e in zip(coefs, ext) if e > 1}


def _inside_chain(coefs, ext, n: int) -> bool:
    return all(c >= 0 for c in coefs) and sum(c * (e - 1) for c, e in zip(coefs, ext)) < n


def check_linear(c, ts, ev):
    kind, rows = c["kind"], ev.get("digits")
    n = c["n"] if kind in ("equal", "injective") else c["size"]
    ext, wts = _chain(rows, n)
    if kind == "equal":
        a, b = _coefs(ts[0], rows, ext, wts, "lhs"), _coefs(ts[1], rows, ext, wts, "rhs")
        if ts[0](0) != ts[1](0):
            raise Refused("the two sides differ at 0")
        if a != b:
            raise Refused("the two coefficient columns differ")
        return "every digit has equal coefficients on both sides"
    cs = _coefs(ts[0], rows, ext, wts, "coef")
    inj, onto = kind in ("injective", "bijective"), kind in ("surjective", "bijective")
    if inj and not _injective_chain(cs, ext):
        raise Refused("a stride does not exceed the span of the smaller ones: no injectivity argument")
    if onto and (ts[0](0) != 0 or not _covers_chain(cs, ext, c["onto"])):
        raise Refused(f"the strides leave a gap below {c['onto']}: no coverage argument")
    if kind == "bijective" and not _inside_chain(cs, ext, c["onto"]):
        raise Refused(f"a value reaches outside [0, {c['onto']})")
    return f"chain of {len(rows)} digits: {kind}"


# --- GF(2): own elimination ---------------------------------------------------------------------------------

def echelon(vectors):
    """A reduced basis of the span, keyed by leading bit (own Gaussian elimination over GF(2))."""
    basis = {}
    for v in vectors:
        for b in sorted(basis, reverse=True):
            if v >> b & 1:
                v ^= basis[b]
        if v:
            top = v.bit_length() - 1
            for b in list(basis):
                if basis[b] >> top & 1:
                    basis[b] ^= v
            basis[top] = v
    return basis


def in_span(basis, v) -> bool:
    for b in sorted(basis, reverse=True):
        if v >> b & 1:
            v ^= basis[b]
    return v == 0


def _pow2_bits(L: Layout, k: int):
    """The bit each index bit sets in a plain layout, when the layout is F2-linear on ``[0, 2^k)``."""
    if L.size() < 1 << k:   # past the size the last mode grows: no structure to read, enumeration decides
        return None
    out = []
    for w, s, d in _modes(L)[0]:
        if s & (s - 1):
            return None
        out += [d << b for b in range(s.bit_length() - 1) if w << b < 1 << k]
    if any(v < 0 or v & (v - 1) for v in out):
        return None
    nz = [v for v in out if v]
    return nz if len(set(nz)) == len(nz) else None


def _affine_structurally(t, k: int) -> bool:
    """F2-affinity without enumeration: distinct single-bit strides; a swizzle after an offset on bits of
    their own (``Sw(off + L(q)) = Sw(off ^ L(q))``, a swizzle is F2-linear on non-negative values)."""
    if isinstance(t, Layout):
        return _pow2_bits(t, k) is not None
    if isinstance(t, ComposedLayout) and isinstance(t.layout_a, Swizzle) and isinstance(t.layout_b, Layout):
        bits, off = _pow2_bits(t.layout_b, k), t.offset
        return bits is not None and isinstance(off, int) and off >= 0 and not any(off & v for v in bits)
    return False


def f2_view(t, k: int, ev):
    """The certificate's ``(columns, constant)`` of ``t`` on ``[0, 2^k)``, re-verified."""
    cols, const = ev.get("columns"), ev.get("constant")
    if not isinstance(cols, list) or len(cols) != k or len(cols) > MAX_ROWS:
        raise Refused(f"the matrix needs {k} columns")
    c0 = t(0)
    if const != c0:
        raise Refused(f"the constant {const!r} is not core's value {c0} at 0")
    for j, col in enumerate(cols):
        if t(1 << j) != (_int(col, "column") ^ c0):
            raise Refused(f"column {j} is not core's value at 2^{j} (xor the constant)")
    if not _affine_structurally(t, k):
        if (1 << k) > BOUND:
            raise Unchecked(f"gf2: the F2-affinity of {t} on 2^{k} inputs is past the checker's bound {BOUND}")
        for q in range(1 << k):
            v = c0
            for j in range(k):
                if q >> j & 1:
                    v ^= cols[j]
            if t(q) != v:
                raise Refused(f"the term is not F2-affine: its value at {q} is not M q ^ c")
    return cols, c0


def _log2(n: int) -> int:
    if n < 1 or n & (n - 1):
        raise Refused(f"a GF(2) certificate needs a power-of-two domain, got {n}")
    return n.bit_length() - 1


def check_gf2(c, ts, ev):
    kind = c["kind"]
    if kind == "equal":
        k = max(c["n"] - 1, 0).bit_length()
        a, b = f2_view(ts[0], k, ev.get("lhs") or {}), f2_view(ts[1], k, ev.get("rhs") or {})
        if a != b:
            raise Refused("the two matrices or constants differ")
        return f"equal F2-affine maps on 2^{k} inputs"
    k = _log2(c["n"] if kind == "injective" else c["size"])
    cols, c0 = f2_view(ts[0], k, ev)
    basis = echelon(cols)
    if ev.get("rank") is not None and ev["rank"] != len(basis):
        raise Refused(f"rank {ev['rank']} is not the rank {len(basis)} of the columns")
    if kind in ("injective", "bijective") and len(basis) != k:
        raise Refused(f"rank {len(basis)} < {k}: not injective")
    if kind in ("surjective", "bijective"):
        n = c["onto"]
        if not in_span(basis, c0) or any(not in_span(basis, 1 << i) for i in range(max(n - 1, 0).bit_length())):
            raise Refused(f"the coset c + im M does not contain every value below {n}")
    if kind == "bijective" and c["onto"] != c["size"]:
        raise Refused("a bijection needs as many targets as inputs")
    return f"rank {len(basis)} of {k} bits: {kind}"


# --- exhaustive: re-enumeration -------------------------------------------------------------------------------

def values(t, n: int, bound: int):
    if n > bound:
        raise Unchecked(f"exhaustive: {n} inputs are past the checker's bound {bound}")
    return [t(q) for q in range(n)]


def check_exhaustive(c, ts, bound):
    kind = c["kind"]
    n = c["n"] if kind in ("equal", "injective") else c["size"]
    v = values(ts[0], n, bound)
    if kind == "equal":
        q = next((q for q in range(n) if v[q] != ts[1](q)), None)
        if q is not None:
            raise Refused(f"the sides differ at {q}")
    if kind in ("injective", "bijective") and len(set(v)) != n:
        raise Refused("two inputs share a value")
    if kind in ("surjective", "bijective") and not set(range(c["onto"])) <= set(v):
        raise Refused(f"a value below {c['onto']} is missed")
    if kind == "bijective" and any(not 0 <= x < c["onto"] for x in v):
        raise Refused("a value lies outside the target")
    return f"re-enumerated {n} inputs"


# --- refutations: the counterexample, evaluated with core -------------------------------------------------

def check_refutation(c, ts, ev, bound):
    kind, ce = c["kind"], ev.get("counterexample")
    c = dict(c, method=ev.get("method"))
    if not isinstance(ce, dict):
        raise Refused("a refutation needs a counterexample")
    n = c["n"] if kind in ("equal", "injective") else c["size"]
    if "index" in ce:
        q = _int(ce["index"], "index")
        if not 0 <= q < n:
            raise Refused(f"index {q} is outside the domain [0, {n})")
        if kind == "equal":
            if ts[0](q) == ts[1](q):
                raise Refused(f"both sides are {ts[0](q)} at {q}")
            return f"the sides differ at {q}: {ts[0](q)} vs {ts[1](q)}"
        if kind == "bijective":
            v = ts[0](q)
            if 0 <= v < c["onto"]:
                raise Refused(f"the value {v} at {q} is inside the target")
            return f"the value {v} at {q} is outside [0, {c['onto']})"
    if "indices" in ce and kind in ("injective", "bijective"):
        x, y = (_int(i, "index") for i in ce["indices"])
        if x == y or not (0 <= x < n and 0 <= y < n) or ts[0](x) != ts[0](y):
            raise Refused(f"inputs {x}, {y} are no collision")
        return f"inputs {x} and {y} share the value {ts[0](x)}"
    if "missing" in ce and kind in ("surjective", "bijective"):
        y = _int(ce["missing"], "missing value")
        if not 0 <= y < c["onto"]:
            raise Refused(f"the missing value {y} is not a target")
        if "split" in ev:
            return block_missing(c, ts, ev, y, bound)
        if "part" in ev:
            return check_swizzle_bijection(c, ts, ev, bound, missing=y)
        if c["method"] == "chain" and "digits" in ev:
            ext, wts = _chain(ev["digits"], n)
            cs = _coefs(ts[0], ev["digits"], ext, wts, "coef")
            if ts[0](0) != 0 or any(x < 0 for x in cs) or not _misses(cs, ext, y):
                raise Refused(f"the digits do not show that {y} is missed")
            return f"the value {y} is never hit (its digits leave a gap at {y})"
        if c["method"] == "gf2" and "columns" in ev:
            cols, c0 = f2_view(ts[0], _log2(n), ev)
            if in_span(echelon(cols), y ^ c0):
                raise Refused(f"the value {y} lies in the coset c + im M")
            return f"the value {y} lies outside the coset c + im M"
        if n <= bound:
            if y in set(values(ts[0], n, bound)):
                raise Refused(f"the value {y} is hit")
            return f"the value {y} is never hit (re-enumerated {n} inputs)"
        raise Unchecked(f"a missing value over {n} inputs is past the checker's bound {bound}")
    raise Refused(f"the counterexample {sorted(ce)} does not fit a {kind} claim")


# --- Z3 and ISL verdicts: the checker's own query, re-decided by cvc5 ------------------------------------

SMT_MS = 20000   # cvc5's time limit per query; past it the claim is left unchecked, never ok


class Smt:
    """An SMT-LIB2 query written from the claim (not from the certificate's query): CuTe's evaluation in
    integer arithmetic, C++'s truncating ``/`` and ``%`` on every mode."""
    def __init__(self):
        self.lines, self.k = ["(set-logic QF_NIA)"], 0

    def const(self, lo=None, hi=None) -> str:
        self.k += 1
        v = f"v{self.k}"
        self.lines.append(f"(declare-const {v} Int)")
        if lo is not None:
            self.lines.append(f"(assert (and (<= {lo} {v}) (< {v} {hi})))")
        return v

    def value(self, t, x: str) -> str:
        if isinstance(t, Compose):
            return self.value(t.outer, self.value(t.inner, x))
        if not isinstance(t, Layout):
            raise Unchecked(f"smt: the checker's query covers plain layouts, not {t}")
        modes, _ = _modes(t)
        terms = []
        for j, (w, e, d) in enumerate(modes):
            q = f"(ite (>= {x} 0) (div {x} {w}) (- (div (- {x}) {w})))"
            if j < len(modes) - 1:
                q = f"(- {q} (* {e} (ite (>= {q} 0) (div {q} {e}) (- (div (- {q}) {e})))))"
            terms.append(f"(* {d} {q})" if d != 1 else q)
        v = self.const()
        self.lines.append(f"(assert (= {v} (+ 0 {' '.join(terms)})))")
        return v


def smt_decide(text: str):
    """``sat``/``unsat``/``unknown`` from cvc5; raises Unchecked when cvc5 is not installed."""
    try:
        import cvc5   # the optional extra: pip install symcute[check]
    except ImportError:
        raise Unchecked("z3/isl: cvc5 is not installed (pip install 'symcute[check]') to re-decide the query")
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(SMT_MS))
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "claim")
    out = ""
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            return out
        out = cmd.invoke(solver, sm).strip() or out


def _unsat(build, what: str) -> None:
    q = Smt()
    build(q)
    got = smt_decide("\n".join(q.lines + ["(check-sat)"]))
    if got == "sat":
        raise Refused(f"cvc5 finds {what}")
    if got != "unsat":
        raise Unchecked(f"z3/isl: cvc5 answers {got or 'nothing'} on {what}")


def check_smt(c, ts):
    kind = c["kind"]
    n = c["n"] if kind in ("equal", "injective") else c["size"]
    probes = sorted({0, n // 2, n - 1})

    def agrees(q):   # the encoding is core's evaluation at every probe (unsat: no probe where they differ)
        bad = []
        for t in ts:
            for p in probes:
                x = q.const()
                q.lines.append(f"(assert (= {x} {p}))")
                bad.append(f"(not (= {q.value(t, x)} {t(p)}))")
        q.lines.append(f"(assert (or false {' '.join(bad)}))")
    checks = [(agrees, "the query's layouts differ from core at an input")]
    if kind == "equal":
        def differ(q):
            x = q.const(0, n)
            q.lines.append(f"(assert (not (= {q.value(ts[0], x)} {q.value(ts[1], x)})))")
        checks.append((differ, "an input where the sides differ"))
    elif kind in ("injective", "bijective"):
        if kind == "bijective" and c["size"] != c["onto"]:
            raise Refused("a bijection needs as many targets as inputs")

        def collide(q):
            x, y = q.const(0, n), q.const(0, n)
            q.lines.append(f"(assert (< {x} {y}))")
            q.lines.append(f"(assert (= {q.value(ts[0], x)} {q.value(ts[0], y)}))")
        checks.append((collide, "two inputs with one value"))
        if kind == "bijective":   # injective into [0, onto) with size == onto: onto by counting
            def outside(q):
                v = q.value(ts[0], q.const(0, n))
                q.lines.append(f"(assert (or (< {v} 0) (>= {v} {c['onto']})))")
            checks.append((outside, "a value outside the target"))
    else:
        raise Unchecked("z3/isl: a surjectivity query (a quantifier alternation) is not re-decided")
    for build, what in checks:
        _unsat(build, what)
    return f"cvc5 re-decided the checker's own query ({len(checks)} parts, unsat)"


# --- block decompositions: each block re-checked as a claim of its own, and the gluing -------------------------

def _swizzled(t):
    """``(Sw, L)`` of a claim's term ``Sw o 0 o L`` (``L`` plain)."""
    if not (isinstance(t, ComposedLayout) and isinstance(t.layout_a, Swizzle) and isinstance(t.layout_b, Layout)
            and type(t.offset) is int and t.offset == 0):
        raise Refused(f"{t} is not a swizzle of a plain layout at offset 0: no block decomposition applies")
    return t.layout_a, t.layout_b


def _part(ev, name: str, c: dict, t, bound) -> None:
    """The block ``name``'s own certificate must prove the sub-claim ``c`` (derived here) of the block ``t``."""
    parts = [p for p in ev.get("parts") or [] if isinstance(p, dict) and p.get("block") == name]
    if len(parts) != 1:
        raise Refused(f"the block decomposition needs one certificate for its {name!r} block")
    _why(c, [t], "proved", parts[0].get("method"), parts[0].get("evidence") or {}, bound)


def blocks(c, ts, ev):
    """``(q, F, H)`` of ``T = Sw o 0 o L``, ``L = sum(coef_i x_i)`` (:func:`land`): low digits (power-of-two extents,
    values below ``q``) form ``F = Sw o 0 o (e_low):(coef_low)``, high ones (multiples of ``q``) ``H = (e_high):
    (coef_high/q)``; the swizzle acts below ``q`` only: ``T(x) = F(a) + q*H(b)``, no carry, ``v = f + q*h`` unique."""
    sw, L = _swizzled(ts[0])
    q, rows = _int((ev.get("split") or {}).get("q"), "q"), (ev.get("split") or {}).get("digits")
    if q < 1 or q & (q - 1) or not 0 <= sw.yyy_msk < q or not 0 <= sw.zzz_msk < q:
        raise Refused(f"q {q} is not a power of two above every bit the swizzle {sw} reads or writes")
    ext, wts = _chain(rows, c["n"] if c["kind"] == "injective" else c["size"])
    cs = _coefs(L, rows, ext, wts, "coef")
    low, high = ([(e, k) for e, k, r in zip(ext, cs, rows) if r.get("block") == b] for b in ("low", "high"))
    if len(low) + len(high) != len(rows) or any(e & (e - 1) or k < 0 for e, k in low) or \
            sum(k * (e - 1) for e, k in low) >= q or any(k < 0 or k % q for _e, k in high):
        raise Refused(f"the low digits need power-of-two extents and values below {q}, the high ones coefficients "
                      f"that are non-negative multiples of {q}")
    F = ComposedLayout(sw, 0, Layout(tuple(e for e, _ in low) or 1, tuple(k for _, k in low) or 0))
    return q, F, Layout(tuple(e for e, _ in high) or 1, tuple(k // q for _, k in high) or 0)


def check_block(c, ts, ev, bound):
    """:func:`blocks`, then each block's own certificate: injective iff F and H are; ``[0, N)`` covered when F
    covers ``[0, min(N, q))`` and H ``[0, ceil(N/q))``; a bijection: both, with as many inputs as targets."""
    kind, (q, F, H) = c["kind"], blocks(c, ts, ev)
    big = c.get("onto", c.get("n"))
    if kind in ("injective", "bijective"):
        _part(ev, "low", {"kind": "injective", "n": F.size()}, F, bound)
        if H.size() > 1:
            _part(ev, "high", {"kind": "injective", "n": H.size()}, H, bound)
    if kind in ("surjective", "bijective"):
        _part(ev, "low onto", {"kind": "surjective", "size": F.size(), "onto": min(big, q)}, F, bound)
        if -(-big // q) > 1:
            _part(ev, "high onto", {"kind": "surjective", "size": H.size(), "onto": -(-big // q)}, H, bound)
    if kind == "bijective" and c["size"] != c["onto"]:
        raise Refused("a bijection needs as many targets as inputs")
    return f"split at q={q}: F = {F} (GF(2) block), H = {H} (linear block), each re-checked: {kind}"


def block_missing(c, ts, ev, y: int, bound) -> str:
    """``y = f + q*h`` is missed iff F misses ``f`` or H misses ``h``: that block's refutation re-checked."""
    q, F, H = blocks(c, ts, ev)
    part = next((p for p in ev.get("parts") or [] if isinstance(p, dict)), {})
    block, v = (F, y % q) if part.get("block") == "low onto" else (H, y // q)
    pev = dict(part.get("evidence") or {}, counterexample={"missing": v}, method=part.get("method"))
    check_refutation({"kind": "surjective", "size": block.size(), "onto": v + 1}, [block], pev, bound)
    return f"the value {y} = {y % q} + {q}*{y // q} is never hit: {v} is missed by the block {block}"


def check_swizzle_bijection(c, ts, ev, bound, missing=None):
    """A swizzle that keeps the bits it reads (``yyy & zzz == 0``) is its own inverse and permutes each aligned
    block of its period: ``Sw o 0 o L`` collides where ``L`` does, covers (stays in) a target ``[0, N)`` made of
    such blocks where ``L`` does and misses ``Sw(y)`` where ``L`` misses ``y``; two terms under one are equal
    where their layouts are.  The layouts' claim (or ``L``'s refutation of ``Sw(missing)``) is re-checked."""
    (sw, L), *rest = [_swizzled(t) for t in ts]
    period = 1 << max(sw.yyy_msk, sw.zzz_msk).bit_length()
    if sw.yyy_msk <= 0 or sw.zzz_msk <= 0 or sw.yyy_msk & sw.zzz_msk or any(s2 != sw for s2, _ in rest) or \
            c.get("onto", period) % period:
        raise Refused(f"{sw} is not one bijection of the integers on every side (permuting the target's blocks)")
    part, sub = ev.get("part") or {}, {k: c[k] for k in ("kind", "n", "size", "onto") if k in c}
    if missing is not None:
        pev = dict(part.get("evidence") or {}, counterexample={"missing": sw(missing)}, method=part.get("method"))
        return f"{L} misses {sw(missing)}: " + check_refutation(sub, [L], pev, bound)
    _why(sub, [L] + [b for _, b in rest], "proved", part.get("method"), part.get("evidence") or {}, bound)
    return f"{sw} is a bijection of the integers; the layouts' {c['kind']} claim re-checked"


# --- image and block claims: disjoint, contains, contiguous, aligned, forall, vector ---------------------

SETS = {"disjoint": 2, "contains": 2, "contiguous": 1, "aligned": 1, "forall": 2, "vector": 2}
BLOCK_KEY = {"injective": None, "contiguous": "step", "aligned": "alignment"}


def block_function(c, ts):
    """``(G, n, m, parts)``: properties ``(kind, number)`` of every block of ``m`` inputs of ``G`` on ``[0, n)``;
    a vector's order (a thread's group of ``width`` values a block) is built here, a forall's checked."""
    if c["kind"] == "vector":
        tv, w = ts[0], _int(c.get("width"), "width")
        if not isinstance(tv, Layout) or not isinstance(tv.shape, tuple) or len(tv.shape) != 2 or \
                it.product(tv.shape[1]) % w:
            raise Refused(f"tv is no rank-2 (thread, value) layout whose values per thread the width {w} divides")
        nt, nv = (it.product(s) for s in tv.shape)
        return Compose(Compose(ts[1], tv), Layout((w, nt, nv // w), (nt, 1, nt * w))), nt * nv, w, \
            [("contiguous", 1), ("aligned", c.get("align"))]
    if c["kind"] != "forall":
        return ts[0], c["n"], c["n"], [(c["kind"], c.get(BLOCK_KEY[c["kind"]]))]
    P, of = ts[1], c.get("of")
    modes, size = _modes(P) if isinstance(P, Layout) and of in BLOCK_KEY else ([], 0)
    st, ex = [d for _w, _s, d in modes], [s for _w, s, _d in modes]
    if size != c["n"] or c["n"] % c["m"] or not (_injective_chain(st, ex) and _inside_chain(st, ex, size)):
        raise Refused(f"the order {P} of a forall over {of!r} is no permutation of [0, {c['n']}) cut by {c['m']}")
    return Compose(ts[0], P), c["n"], c["m"], [(of, c.get(BLOCK_KEY[of] or "m"))]   # injective reads no number


def _fails_at(G, m, prop, arg, i) -> bool:
    return G(i) - G(i - i % m) != arg * (i % m) if prop == "contiguous" else i % m == 0 and G(i) % arg != 0


def _block_proof(G, n, m, prop, arg, ev, bound) -> str:
    ok = _int(arg, "the claim's number") >= 1 or prop == "contiguous"
    if "digits" in ev:   # G(k*m + j) = G(0) + B(k) + J(j): conditions on the coefficients
        ext, wts = _chain(ev["digits"], n)
        rows = list(zip(_coefs(G, ev["digits"], ext, wts, "coef"), ext, wts))
        ok = ok and m in wts + [n] and (all(c == arg * w for c, _e, w in rows if w < m) if prop == "contiguous" else
                                        G(0) % arg == 0 and all(c % arg == 0 for c, _e, w in rows if w >= m)
                                        if prop == "aligned" else   # injective: G(j) = G(0) + J(j) on the first block
                                        _injective_chain(*[[r[k] for r in rows if r[2] < m] for k in (0, 1)])
                                        or m <= bound and len({G(j) for j in range(m)}) == m)
    elif "columns" in ev:   # G(q) = M q ^ c on a power-of-two domain
        b, (cols, c0) = _log2(m), f2_view(G, _log2(n), ev)
        high = all(x % (arg if prop == "aligned" else m) == 0 for x in [c0] + cols[b:])
        ok = ok and (len(echelon(cols[:b])) == b if prop == "injective" else arg & (arg - 1) == 0 and high
                     if prop == "aligned" else arg == 1 and cols[:b] == [1 << j for j in range(b)] and high)
    elif "inputs" in ev or n <= bound or prop == "aligned" and n // m <= bound:   # re-enumeration (or the starts)
        every = "inputs" in ev or n <= bound   # a solver's verdict too: the claim re-decided within the bound
        v = values(G, n, bound) if every else {i: G(i) for i in range(0, n, m)}
        ok = ok and all(len(set(v[s:s + m])) == m for s in range(0, n, m)) if prop == "injective" else ok and \
            not any(_fails_at(v.__getitem__, m, prop, arg, i) for i in (range(n) if every else v))
    else:
        raise Unchecked(f"{prop} blocks: a solver's verdict on {n} inputs, past the bound {bound}, is not re-checked")
    if not ok:
        raise Refused(f"the evidence does not show {prop} blocks of {m} (or the alignment {arg} is not positive)")
    return f"{prop} on every block of {m} ({'digits' if 'digits' in ev else 'GF(2)' if 'columns' in ev else 'values'})"


def check_blocks(c, ts, verdict, _method, ev, bound) -> str:
    G, n, m, parts = block_function(c, ts)
    if verdict == "proved":
        return "; ".join(_block_proof(G, n, m, p, a, ev if len(parts) == 1 else ev.get(p) or {}, bound)
                         for p, a in parts)
    ce = ev.get("counterexample") or {}
    (x, y), i = [_int(v, "index") for v in ce.get("indices", (0, 0))], _int(ce.get("index", -1), "index")
    for prop, arg in parts:
        if prop == "injective" and x != y and x // m == y // m and 0 <= min(x, y) <= max(x, y) < n and G(x) == G(y):
            return f"inputs {x} and {y} of one block share the value {G(x)}"
        if prop != "injective" and 0 <= i < n and _fails_at(G, m, prop, _int(arg, "number"), i):
            return f"input {i} of block {i // m} is not {prop}"
    raise Refused("the counterexample breaks no block")


def check_images(c, ts, verdict, method, ev, bound) -> str:
    (a, b), na, nb, ce, disjoint = ts, c["na"], c["nb"], ev.get("counterexample") or {}, c["kind"] == "disjoint"
    if verdict == "refuted":
        x, y = (_int(i, "index") for i in (ce.get("indices", (-1, -1)) if disjoint else (0, ce.get("index"))))
        if not (0 <= x < na and 0 <= y < nb) or (a(x) != b(y) if disjoint else b(y) in set(values(a, na, bound))):
            raise Refused(f"the counterexample {ce} breaks no {c['kind']} claim")
        return f"a({x}) = b({y}) = {a(x)}" if disjoint else f"b({y}) = {b(y)} is no value of a on [0, {na})"
    s = ev.get("same")   # contains: b == a on [0, nb), a sub-domain of a's, by the nested equality certificate
    if not disjoint and isinstance(s, dict):
        r = check(s, bound) if s.get("claim") == {"kind": "equal", "terms": c["terms"][::-1], "n": nb} and nb <= na \
            and s.get("verdict") == "proved" else Result("failed", "", "it states no b == a on b's domain in a's")
        if r.status == "failed":
            raise Refused(f"the nested equality: {r.why}")
        if r.status == "ok":   # else (a solver's equality) re-decided by enumeration below, within the bound
            return f"b == a on [0, {nb}), {nb} <= {na}: {r.why}"
    if na + nb > bound:   # within it, a solver's verdict is re-decided by enumeration too
        raise Unchecked(f"{c['kind']} by {method}: {na} + {nb} inputs are past the bound {bound}: not re-checked")
    va, vb = set(values(a, na, bound)), set(values(b, nb, bound))
    if va & vb if disjoint else vb - va:
        raise Refused(f"the images {'meet' if disjoint else 'are not nested'} (re-enumerated)")
    return f"re-enumerated {na} + {nb} inputs"


# --- entry points -------------------------------------------------------------------------------------------

KINDS = {"equal": 2, "injective": 1, "surjective": 1, "bijective": 1, **SETS}
POSITIVE = {"disjoint": ("na", "nb"), "contains": ("na", "nb"), "contiguous": ("n",), "aligned": ("n", "alignment"),
            "forall": ("n", "m"), "vector": ("width", "align")}
PARAM_KINDS = ("param-equal", "param-injective", "param-formula")
LINEAR = ("refinement", "chain")


def _claim(c):
    if not isinstance(c, dict) or c.get("kind") not in KINDS:
        raise Refused(f"claim kind {c.get('kind') if isinstance(c, dict) else c!r} is not one the checker knows")
    terms = c.get("terms")
    if not isinstance(terms, list) or len(terms) != KINDS[c["kind"]]:
        raise Refused(f"a {c['kind']} claim has {KINDS[c['kind']]} terms")
    for k in POSITIVE.get(c["kind"], ("n",) if c["kind"] in ("equal", "injective") else ("size", "onto")):
        if _int(c.get(k), k) < 1:
            raise Refused(f"{k} must be positive")
    return [term(t) for t in terms]


def check(cert: dict, bound: int = BOUND) -> Result:
    """Re-verify one certificate (a dict in the format of ``certificate.schema.json``)."""
    c = cert.get("claim") if isinstance(cert, dict) else None
    text = claim_text(c) if isinstance(c, dict) else "?"
    try:
        if cert.get("format") != FORMAT or cert.get("version") != VERSION:
            raise Refused(f"not a {FORMAT} version {VERSION} certificate")
        if isinstance(c, dict) and c.get("kind") in PARAM_KINDS:   # claims for all parameter values
            from .check_param import check_param
            return Result("ok", text, check_param(c, cert.get("verdict"), cert.get("method"), cert.get("evidence"),
                                                  bound))
        ts = _claim(c)
        return Result("ok", text, _why(c, ts, cert.get("verdict"), cert.get("method"), cert.get("evidence") or {},
                                       bound))
    except Refused as e:
        return Result("failed", text, str(e))
    except Unchecked as e:
        return Result("unchecked", text, str(e))
    except (ValueError, TypeError, KeyError, ArithmeticError, AttributeError, RecursionError) as e:
        return Result("failed", text, f"malformed certificate ({type(e).__name__}: {e})")
    except Exception as e:   # core refuses a layout of the claim (a symcute error): the claim is not CuTe's
        return Result("failed", text, f"{type(e).__name__}: {e}")


def _why(c, ts, verdict, method, ev, bound) -> str:
    """Why the evidence proves (refutes) the claim ``c`` on the parsed terms ``ts``; raises Refused/Unchecked."""
    if not isinstance(ev, dict):
        raise Refused("the evidence is not an object")
    if c["kind"] in SETS and verdict in ("proved", "refuted"):
        return (check_images if "na" in POSITIVE[c["kind"]] else check_blocks)(c, ts, verdict, method, ev, bound)
    if verdict == "refuted":
        return check_refutation(c, ts, dict(ev, method=method), bound)
    if verdict != "proved":
        raise Refused(f"verdict {verdict!r}: only proved and refuted claims have certificates")
    if method in LINEAR:
        return check_linear(c, ts, ev)
    if method == "gf2":
        return check_gf2(c, ts, ev)
    if method == "exhaustive":
        return check_exhaustive(c, ts, bound)
    if method in ("z3", "isl"):
        return check_smt(c, ts)
    if method == "block-split" and c["kind"] != "equal":
        return check_block(c, ts, ev, bound)
    if method == "swizzle-bijection":
        return check_swizzle_bijection(c, ts, ev, bound)
    raise Unchecked(f"{method}: no arithmetic certificate the checker re-verifies")


def load(text: str):
    """The certificates of a file: one certificate, or ``{"certificates": [...]}``."""
    d = json.loads(text)
    return d["certificates"] if isinstance(d, dict) and "certificates" in d else [d]


def check_files(paths, bound: int = BOUND):
    """``(path, Result)`` for every certificate of every file."""
    for p in paths:
        for cert in load(pathlib.Path(p).read_text(encoding="utf-8")):
            yield p, check(cert, bound)
