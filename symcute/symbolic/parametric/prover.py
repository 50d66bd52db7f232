"""Formulas of parametric layouts and claims decided for every admissible value of the parameters.

A :class:`ParamFormula` is the digits view of a ParamLayout: its flat modes as
named sub-axes ``x_i in [0, s_i)`` whose extents ``s_i`` and coefficients
``d_i`` are expressions in the parameters (static size-1 modes are omitted),
``F = sum x_i * d_i``.

Claims (:func:`prove_equal`, :func:`prove_injective`, :func:`prove_formula`)
answer with a :class:`ParamProof`:

* ``proved``: by a certificate that holds for all admissible parameters (the
  same sub-axes with coefficients equal wherever the extent is not 1; a
  polynomial identity; or Z3's unsat over parameters and coordinates);
* ``refuted``: with an admissible instantiation of the parameters and a
  coordinate where the two sides differ, both re-evaluated with core;
* ``unknown``: neither was found (Z3's time limit, nonlinear arithmetic).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .lazy_sympy import sympy

from ...errors import SymcuteError
from ..vocabulary import Phrase, Reason, Statement, Verdict
from .conditions import Params
from .layout import ParamLayout, _leaves
from .printing import show_expr

ENUMERATION_LIMIT = 4096     # coordinates enumerated per instantiation in the refutation search
SEARCH_INSTANCES = 24        # admissible instantiations tried by the refutation search


@dataclass(frozen=True)
class ParamAxis:
    name: str
    extent: object        # static int or inner-form SymPy expression
    coefficient: object


@dataclass(frozen=True)
class ParamFormula:
    """``F = sum(axis * coefficient)`` over named sub-axes; extents and coefficients in the parameters."""

    layout: ParamLayout
    axes: tuple

    @property
    def params(self) -> Params:
        return self.layout.params

    def symbols(self) -> tuple:
        return tuple(sympy.Symbol(a.name, integer=True, nonnegative=True) for a in self.axes)

    def inner_expr(self) -> sympy.Expr:
        return sum((s * _e(a.coefficient) for s, a in zip(self.symbols(), self.axes)), sympy.Integer(0))

    @property
    def expr(self) -> sympy.Expr:
        """The formula as a SymPy expression in the axis symbols and the declared parameters."""
        return self.params.user(self.inner_expr())

    def __str__(self) -> str:
        terms = []
        for a in self.axes:
            c = self.params.user(_e(a.coefficient))
            if c == 0:
                terms.append(f"0*{a.name}")
            elif c == 1:
                terms.append(a.name)
            else:
                cs = show_expr(c)
                terms.append(f"({cs})*{a.name}" if isinstance(c, sympy.Add) else f"{cs}*{a.name}")
        return " + ".join(terms) or "0"

    def domain(self) -> str:
        return ", ".join(f"{a.name} in [0, {show_expr(self.params.user(_e(a.extent)))})" for a in self.axes)

    def table(self) -> list[tuple[str, str, str]]:
        """(sub-axis, extent, coefficient) rows, in the declared names."""
        return [(a.name, show_expr(self.params.user(_e(a.extent))), show_expr(self.params.user(_e(a.coefficient))))
                for a in self.axes]


def _e(x):
    return sympy.Integer(x) if type(x) is int else x


def _names_for(layout: ParamLayout, names):
    flat_n = len(_leaves(layout.shape))
    if names is None:
        return [f"x{i}" for i in range(flat_n)]
    if isinstance(names, str):
        return [f"{names}{i}" for i in range(flat_n)]
    modes = layout.modes()
    if len(names) == len(modes) and all(isinstance(n, str) for n in names) and flat_n != len(names):
        out = []
        for prefix, m in zip(names, modes):
            k = len(_leaves(m.shape))
            out.extend([prefix] if k == 1 else [f"{prefix}{j}" for j in range(k)])
        return out
    flat = [n for n in _leaves(tuple(names) if not isinstance(names, tuple) else names)]
    if len(flat) != flat_n or not all(isinstance(n, str) for n in flat):
        raise SymcuteError(f"formula: names {names!r} do not match the {flat_n} leaves of {layout}")
    return flat


def formula(layout: ParamLayout, names=None) -> ParamFormula:
    """The digits view of a parametric layout; ``names``: a prefix, one prefix per top-level mode, or a tree."""
    if not isinstance(layout, ParamLayout):
        raise SymcuteError(f"formula: {layout!r} is not a parametric layout")
    ns = _names_for(layout, names)
    if len(set(ns)) != len(ns):
        raise SymcuteError(f"formula: names {ns} repeat")
    axes = []
    for n, s, d in zip(ns, _leaves(layout.shape), _leaves(layout.stride)):
        if type(s) is int and s == 1:
            continue   # a static size-1 mode has one coordinate: it adds nothing
        axes.append(ParamAxis(n, s, d))
    return ParamFormula(layout, tuple(axes))


# --- proofs ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ParamProof:
    claim: str                     # a Phrase (a Statement) where the prover words it, else the caller's text
    verdict: Verdict               # proved, refuted or unknown (its text is also accepted)
    method: str                    # a Phrase (a Reason): the argument that decided it
    conditions: tuple = ()         # the side conditions the claim is for
    witness: dict | None = None    # refuted: admissible parameter values
    coordinate: object = None      # refuted: the index (or axis values) where the sides differ
    values: tuple | None = None    # refuted: (lhs, rhs) there, evaluated with core
    details: dict = field(default_factory=dict)
    claim_data: dict | None = field(default=None, compare=False, repr=False)   # the claim, certificate format

    def certificate_file(self) -> dict:
        """The certificate of this verdict in the checker's format (docs/certificates.md, "Parametric
        claims").  @raises SymcuteError for an unknown verdict"""
        from .certfile import certificate_of
        return certificate_of(self)

    def __post_init__(self):
        object.__setattr__(self, "verdict", Verdict(self.verdict))

    @property
    def proved(self) -> bool:
        return self.verdict is Verdict.PROVED

    @property
    def refuted(self) -> bool:
        return self.verdict is Verdict.REFUTED

    def __str__(self) -> str:
        head = f"{self.claim}: {self.verdict} ({self.method})"
        if self.refuted:
            w = ", ".join(f"{k}={v}" for k, v in (self.witness or {}).items())
            head += f"; counterexample at {w}, coordinate {self.coordinate}: {self.values[0]} != {self.values[1]}"
        return head


def _conds(params: Params) -> tuple:
    return tuple(params.describe())


def _union(a: ParamLayout, b: ParamLayout) -> Params:
    return a.params.union(b.params)


def _rebase(L: ParamLayout, ps: Params) -> ParamLayout:
    return ParamLayout(L.shape, L.stride, ps, L.conditions) if L.params != ps else L


def prove_equal(a: ParamLayout, b: ParamLayout, claim: str | None = None) -> ParamProof:
    """``a(i) == b(i)`` for every index ``i < size`` and every admissible value, and ``size(a) == size(b)``."""
    from dataclasses import replace
    from .certfile import claim as cert_claim
    ps = _union(a, b)
    a, b = _rebase(a, ps), _rebase(b, ps)
    return replace(_prove_equal(a, b, ps, claim), claim_data=cert_claim("param-equal", (a, b), ps))


def _prove_equal(a: ParamLayout, b: ParamLayout, ps: Params, claim) -> ParamProof:
    claim = claim or Phrase(Statement.PARAM_EQUAL, a=str(a), b=str(b))
    sa, sb = _e(a.size()), _e(b.size())
    v = ps.decide(sympy.Eq(sa, sb))
    if v.verdict is Verdict.REFUTED:
        w = v.witness
        return ParamProof(claim, Verdict.REFUTED, Phrase(Reason.PARAM_SIZES_DIFFER), _conds(ps), w, "size",
                          (a.subs(w, warn_overflow=False).size(), b.subs(w, warn_overflow=False).size()))
    if v.verdict is Verdict.UNKNOWN:
        found = _search(ps, lambda w: _first_difference(a.subs(w, warn_overflow=False),
                                                        b.subs(w, warn_overflow=False)))
        if found:
            return ParamProof(claim, Verdict.REFUTED, Phrase(Reason.PARAM_SEARCH), _conds(ps), *found)
        return ParamProof(claim, Verdict.UNKNOWN, Phrase(Reason.PARAM_SIZE_UNSETTLED), _conds(ps))
    fa, fb = formula(a), formula(b)
    digits = _same_digits(ps, fa, fb)
    if digits is not None:
        ok, bad_axis, witness = digits
        if ok:
            return ParamProof(claim, Verdict.PROVED, Phrase(Reason.PARAM_SAME_DIGITS),
                              _conds(ps))
        if witness is not None:
            A, B = a.subs(witness, warn_overflow=False), b.subs(witness, warn_overflow=False)
            idx = _axis_index(fa, bad_axis, ps, witness)
            if A(idx) != B(idx):
                return ParamProof(claim, Verdict.REFUTED, Phrase(Reason.PARAM_COEFFICIENT_DIFFERS), _conds(ps),
                                  witness, idx,
                                  (A(idx), B(idx)))
    res = _z3_equal(ps, fa, fb, sa)
    if res is not None:
        return ParamProof(claim, res[0], res[1], _conds(ps), *res[2:]) if res[0] is Verdict.REFUTED else \
            ParamProof(claim, res[0], res[1], _conds(ps))
    found = _search(ps, lambda w: _first_difference(a.subs(w, warn_overflow=False),
                                                    b.subs(w, warn_overflow=False)))
    if found:
        return ParamProof(claim, Verdict.REFUTED, Phrase(Reason.PARAM_SEARCH), _conds(ps), *found)
    return ParamProof(claim, Verdict.UNKNOWN, Phrase(Reason.PARAM_NOTHING_FOUND), _conds(ps))


def _axis_index(f: ParamFormula, k: int, ps: Params, witness: dict) -> int:
    inner = ps.check_values(witness)
    idx = 1
    for a in f.axes[:k]:
        idx *= ps.evaluate(_e(a.extent), inner)
    # the index of the layout's flat mode k: static size-1 modes in between multiply by 1
    return idx


def _same_digits(ps: Params, fa: ParamFormula, fb: ParamFormula):
    """(all equal?, first differing axis, witness) when both have the same sub-axis extents; else None."""
    if len(fa.axes) != len(fb.axes):
        return None
    for x, y in zip(fa.axes, fb.axes):
        if sympy.simplify(_e(x.extent) - _e(y.extent)) != 0:
            return None
    for k, (x, y) in enumerate(zip(fa.axes, fb.axes)):
        dx, dy = _e(x.coefficient), _e(y.coefficient)
        if sympy.simplify(dx - dy) == 0:
            continue
        v = ps.decide(sympy.Or(sympy.Eq(dx, dy), sympy.Eq(_e(x.extent), 1)))
        if v.verdict is Verdict.PROVED:
            continue
        if v.verdict is Verdict.REFUTED:
            return False, k, {p.name: v.witness[p.name] for p in ps.params}
        return False, k, None
    return True, None, None


def _z3_digits(f: ParamFormula, q, env, prefix):
    """Z3 terms for the digits of index ``q`` over ``f``'s layout and its value there."""
    from .z3_backend import to_z3
    L = f.layout
    total = 0
    running = 1
    leaves_s, leaves_d = _leaves(L.shape), _leaves(L.stride)
    n = len(leaves_s)
    for i, (s, d) in enumerate(zip(leaves_s, leaves_d)):
        zs = to_z3(_e(s), env)
        digit = (q / running) if i == n - 1 else (q / running) % zs
        total = total + digit * to_z3(_e(d), env)
        running = running * zs
    return total


def _z3_equal(ps: Params, fa, fb, size):
    import z3
    from .z3_backend import Unsupported, solver_for, to_z3
    try:
        s, env = solver_for(ps)
        q = z3.Int("q__index")
        s.add(q >= 0, q < to_z3(size, env))
        s.add(_z3_digits(fa, q, env, "a") != _z3_digits(fb, q, env, "b"))
    except Unsupported:
        return None
    r = s.check()
    if r == z3.unsat:
        return (Verdict.PROVED, Phrase(Reason.PARAM_Z3_NO_INDEX))
    if r == z3.sat:
        m = s.model()
        inner = {p.inner: m.evaluate(env[p.inner], model_completion=True).as_long() for p in ps.params}
        w = ps.user_values(inner)
        idx = m.evaluate(q, model_completion=True).as_long()
        A, B = fa.layout.subs(w, warn_overflow=False), fb.layout.subs(w, warn_overflow=False)
        if A(idx) != B(idx):
            return (Verdict.REFUTED, Phrase(Reason.PARAM_Z3_MODEL), w, idx, (A(idx), B(idx)))
    return None


def _first_difference(A, B):
    if A.size() != B.size():
        return "size", (A.size(), B.size())
    n = A.size()
    if n > ENUMERATION_LIMIT:
        return None
    for i in range(n):
        if A(i) != B(i):
            return i, (A(i), B(i))
    return None


def _search(ps: Params, probe, seed: int = 0):
    """A real counterexample among random admissible instantiations (each re-evaluated with core)."""
    rng = random.Random(seed)
    tried = set()
    for k in range(SEARCH_INSTANCES):
        w = ps.random_values(rng, span=2 + k)
        key = tuple(sorted(w.items()))
        if key in tried:
            continue
        tried.add(key)
        try:
            hit = probe(w)
        except SymcuteError:
            continue
        if hit is not None:
            return (w,) + tuple(hit)
    return None


def prove_injective(layout: ParamLayout) -> ParamProof:
    """No two indices below ``size`` map to the same offset, for every admissible value."""
    from dataclasses import replace
    from .certfile import claim as cert_claim
    return replace(_prove_injective(layout), claim_data=cert_claim("param-injective", (layout,), layout.params))


def _prove_injective(layout: ParamLayout) -> ParamProof:
    ps = layout.params
    claim = Phrase(Statement.PARAM_INJECTIVE, a=str(layout))
    f = formula(layout)
    order = _chain_certificate(ps, f)
    if order is not None:
        leaves = [k for k, s in enumerate(_leaves(layout.shape)) if not (type(s) is int and s == 1)]
        return ParamProof(claim, Verdict.PROVED, Phrase(Reason.PARAM_CHAIN), _conds(ps),   # flat leaves, in order
                          details={"evidence": {"order": [leaves[k] for k in order]}})
    res = _z3_injective(ps, f, _e(layout.size()))
    if res is not None:
        return ParamProof(claim, res[0], res[1], _conds(ps), *res[2:])

    def probe(w):
        L = layout.subs(w, warn_overflow=False)
        n = L.size()
        if n > ENUMERATION_LIMIT:
            return None
        seen = {}
        for i in range(n):
            o = L(i)
            if o in seen:
                return (seen[o], i), (o, o)
            seen[o] = i
        return None
    found = _search(ps, probe)
    if found:
        return ParamProof(claim, Verdict.REFUTED, Phrase(Reason.PARAM_SEARCH), _conds(ps), *found)
    return ParamProof(claim, Verdict.UNKNOWN, Phrase(Reason.PARAM_NOTHING_FOUND), _conds(ps))


def _chain_certificate(ps: Params, f: ParamFormula):
    """Sufficient: coefficients positive and ordered, each >= (previous coefficient) * (previous extent).
    The axes' positions in coefficient order when it holds, else None."""
    axes = list(f.axes)
    for a in axes:
        if not ps.decide(sympy.Gt(_e(a.coefficient), 0)).proved:
            return None
    # order by coefficient: every pair must be comparable for all parameters
    import functools

    def cmp(x, y):
        if ps.decide(sympy.Le(_e(x.coefficient), _e(y.coefficient))).proved:
            return -1
        if ps.decide(sympy.Le(_e(y.coefficient), _e(x.coefficient))).proved:
            return 1
        raise _Incomparable
    try:
        axes.sort(key=functools.cmp_to_key(cmp))
    except _Incomparable:
        return None
    for lo, hi in zip(axes, axes[1:]):
        if not ps.decide(sympy.Ge(_e(hi.coefficient), _e(lo.coefficient) * _e(lo.extent))).proved:
            return None
    return [f.axes.index(a) for a in axes]


class _Incomparable(Exception):
    pass


def _z3_injective(ps, f, size):
    import z3
    from .z3_backend import Unsupported, solver_for, to_z3
    try:
        s, env = solver_for(ps)
        q1, q2 = z3.Int("q__1"), z3.Int("q__2")
        zs = to_z3(size, env)
        s.add(q1 >= 0, q1 < q2, q2 < zs)
        s.add(_z3_digits(f, q1, env, "a") == _z3_digits(f, q2, env, "b"))
    except Unsupported:
        return None
    r = s.check()
    if r == z3.unsat:
        return (Verdict.PROVED, Phrase(Reason.PARAM_Z3_NO_COLLISION))
    if r == z3.sat:
        m = s.model()
        inner = {p.inner: m.evaluate(env[p.inner], model_completion=True).as_long() for p in ps.params}
        w = ps.user_values(inner)
        i, j = m.evaluate(q1, model_completion=True).as_long(), m.evaluate(q2, model_completion=True).as_long()
        L = f.layout.subs(w, warn_overflow=False)
        if L(i) == L(j) and i != j:
            return (Verdict.REFUTED, Phrase(Reason.PARAM_Z3_MODEL), w, (i, j), (L(i), L(j)))
    return None


def prove_formula(f: ParamFormula, expected, claim: str | None = None) -> ParamProof:
    """``F == expected`` on the whole sub-axis domain for every admissible value.

    ``expected`` is a SymPy expression in ``f``'s axis symbols (``sympy.Symbol(name)``)
    and the declared parameters.
    """
    from dataclasses import replace
    from .certfile import formula_claim
    ps = f.params
    claim = claim or Phrase(Statement.PARAM_FORMULA, expected=str(expected))
    axis_syms = {a.name: s for a, s in zip(f.axes, f.symbols())}
    exp_inner = _expected_inner(ps, expected, axis_syms)   # axis symbols matched by name
    p = _prove_formula(f, exp_inner, claim, ps)
    return replace(p, claim_data=formula_claim(f, ps.user(exp_inner)))


def _prove_formula(f: ParamFormula, exp_inner, claim, ps: Params) -> ParamProof:
    diff = sympy.expand(f.inner_expr() - exp_inner)
    if diff == 0:
        return ParamProof(claim, Verdict.PROVED, Phrase(Reason.PARAM_POLYNOMIAL), _conds(ps))
    # a difference supported only on axes of extent 1 still vanishes: let Z3 decide over the domain
    import z3
    from .z3_backend import Unsupported, solver_for, to_z3
    try:
        s, env = solver_for(ps)
        for a, sym in zip(f.axes, f.symbols()):
            v = z3.Int(sym.name)
            env[sym] = v
            s.add(v >= 0, v < to_z3(_e(a.extent), env))
        s.add(to_z3(diff, env) != 0)
        r = s.check()
    except Unsupported:
        r = None
    if r is not None and r == z3.unsat:
        return ParamProof(claim, Verdict.PROVED, Phrase(Reason.PARAM_Z3_NO_COORDINATE),
                          _conds(ps))
    if r is not None and r == z3.sat:
        m = s.model()
        inner = {p.inner: m.evaluate(env[p.inner], model_completion=True).as_long() for p in ps.params}
        w = ps.user_values(inner)
        coord = {sym.name: m.evaluate(env[sym], model_completion=True).as_long() for sym in f.symbols()}
        lhs = _eval_axes(f, w, coord)
        rhs = int(exp_inner.xreplace({**{k: sympy.Integer(v) for k, v in inner.items()},
                                      **{sym: sympy.Integer(coord[sym.name]) for sym in f.symbols()}}))
        if lhs != rhs:
            return ParamProof(claim, Verdict.REFUTED, Phrase(Reason.PARAM_Z3_MODEL), _conds(ps), w, coord, (lhs, rhs))
    return ParamProof(claim, Verdict.UNKNOWN, Phrase(Reason.PARAM_UNDECIDED), _conds(ps))


def _expected_inner(ps: Params, expected, axis_syms: dict):
    if isinstance(expected, bool) or not isinstance(expected, (int, sympy.Basic)):
        raise SymcuteError(f"prove_formula: {expected!r} is not an integer or a SymPy expression")
    e = sympy.Integer(expected) if isinstance(expected, int) else expected
    by_name = {}
    for s in e.free_symbols:
        if s.name in axis_syms:
            by_name[s] = axis_syms[s.name]
    e = e.xreplace(by_name)
    params_part = {s for s in e.free_symbols if s not in set(axis_syms.values())}
    for s in params_part:
        if s not in set(ps):
            raise SymcuteError(f"prove_formula: {s} is neither a sub-axis of the formula nor a parameter")
    return e.xreplace({p.symbol: p.multiple * p.inner for p in ps.params})


def _eval_axes(f: ParamFormula, values: dict, coord: dict) -> int:
    """The layout's offset at the sub-axis coordinate, evaluated with core at ``values``."""
    L = f.layout.subs(values, warn_overflow=False)
    flat_shape = _leaves(L.shape) if isinstance(L.shape, tuple) else [L.shape]
    names = [a.name for a in f.axes]
    # rebuild the index from the axis digits (omitted static size-1 modes take digit 0)
    idx, running, k = 0, 1, 0
    leaves_s = _leaves(f.layout.shape)
    for s_param, s in zip(leaves_s, flat_shape):
        if not (type(s_param) is int and s_param == 1):
            idx += coord[names[k]] * running
            k += 1
        running *= s
    return L(idx)
