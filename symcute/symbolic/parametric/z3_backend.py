"""Z3 as the exact back-end for facts over parameters (integers, floor/ceiling/Mod/Min/Max).

A fact is *proved* when Z3 finds "side conditions and not fact" unsatisfiable;
*refuted* when it finds a model, which is then re-evaluated with SymPy (a model
that does not falsify the fact there is dropped: unknown, never a wrong answer);
otherwise unknown (nonlinear integer arithmetic is undecidable in general, and
Z3 gets a time limit).
"""

from __future__ import annotations

from .lazy_sympy import sympy

from ..vocabulary import Phrase, Reason, Verdict
from .conditions import FactVerdict, Z3_RLIMIT_PER_MS as RLIMIT_PER_MS, Z3_SAFETY_FACTOR as SAFETY_FACTOR, \
    Z3_TIMEOUT_MS


class Unsupported(Exception):
    """An expression Z3 is not given (the answer is then unknown)."""


def _positive_denominator(q) -> bool:
    return (q.is_Integer and q > 0) or bool(q.is_positive)


def to_z3(expr, env: dict):
    import z3
    if expr is sympy.true:
        return z3.BoolVal(True)
    if expr is sympy.false:
        return z3.BoolVal(False)
    if isinstance(expr, sympy.Symbol):
        if expr not in env:
            raise Unsupported(str(expr))
        return env[expr]
    if expr.is_Integer:
        return z3.IntVal(int(expr))
    if expr.is_Rational:
        raise Unsupported(str(expr))
    if isinstance(expr, sympy.Add):
        args = [to_z3(a, env) for a in expr.args]
        return z3.Sum(args)
    if isinstance(expr, sympy.Mul):
        num, den = sympy.fraction(expr)
        if den != 1:
            raise Unsupported(str(expr))
        out = None
        for a in expr.args:
            t = to_z3(a, env)
            out = t if out is None else out * t
        return out
    if isinstance(expr, sympy.Pow):
        if expr.exp.is_Integer and expr.exp > 0:
            b = to_z3(expr.base, env)
            out = b
            for _ in range(int(expr.exp) - 1):
                out = out * b
            return out
        raise Unsupported(str(expr))
    if isinstance(expr, (sympy.floor, sympy.ceiling)):
        p, q = sympy.fraction(sympy.together(expr.args[0]))
        if not _positive_denominator(q):
            raise Unsupported(str(expr))
        zp, zq = to_z3(p, env), to_z3(q, env)
        if isinstance(expr, sympy.floor):
            return zp / zq          # Z3's div is Euclidean: the floor for a positive divisor
        return -((-zp) / zq)
    if isinstance(expr, sympy.Mod):
        a, b = expr.args
        if not _positive_denominator(b):
            raise Unsupported(str(expr))
        return to_z3(a, env) % to_z3(b, env)   # Euclidean = SymPy's Mod for b > 0
    if isinstance(expr, (sympy.Min, sympy.Max)):
        args = [to_z3(a, env) for a in expr.args]
        out = args[0]
        for a in args[1:]:
            out = z3.If(a < out, a, out) if isinstance(expr, sympy.Min) else z3.If(a > out, a, out)
        return out
    if isinstance(expr, sympy.Abs):
        a = to_z3(expr.args[0], env)
        return z3.If(a < 0, -a, a)
    if isinstance(expr, sympy.Piecewise):
        out = None
        for value, cond in reversed(expr.args):
            v = to_z3(value, env)
            out = v if out is None or cond is sympy.true else z3.If(to_z3(cond, env), v, out)
        return out
    rel = {sympy.Eq: lambda a, b: a == b, sympy.Ne: lambda a, b: a != b, sympy.Lt: lambda a, b: a < b,
           sympy.Le: lambda a, b: a <= b, sympy.Gt: lambda a, b: a > b, sympy.Ge: lambda a, b: a >= b}
    for cls, mk in rel.items():
        if isinstance(expr, cls):
            return mk(to_z3(expr.lhs, env), to_z3(expr.rhs, env))
    if isinstance(expr, sympy.And):
        return z3.And([to_z3(a, env) for a in expr.args])
    if isinstance(expr, sympy.Or):
        return z3.Or([to_z3(a, env) for a in expr.args])
    if isinstance(expr, sympy.Not):
        return z3.Not(to_z3(expr.args[0], env))
    raise Unsupported(type(expr).__name__)


def solver_for(params, extra_symbols=()):
    """A Z3 solver holding the side conditions, and the symbol environment."""
    import z3
    env = {}
    s = z3.Solver()
    s.set("rlimit", Z3_TIMEOUT_MS * RLIMIT_PER_MS)          # a work budget: the same answer on any machine
    s.set("timeout", Z3_TIMEOUT_MS * SAFETY_FACTOR)         # a safety net only
    for p in params.params:
        v = z3.Int(p.inner.name)
        env[p.inner] = v
        lo, hi = p.inner_bounds()
        s.add(v >= lo)
        if hi is not None:
            s.add(v <= hi)
    for sym, (lo, hi) in extra_symbols:
        v = z3.Int(sym.name)
        env[sym] = v
        s.add(v >= lo)
        if hi is not None:
            s.add(v <= hi)
    return s, env


def decide_z3(params, fact, extra_symbols=()) -> FactVerdict:
    """Prove ``fact`` for every admissible value, or refute it with a re-checked witness."""
    import z3
    try:
        s, env = solver_for(params, extra_symbols)
        s.add(z3.Not(to_z3(fact, env)))
    except Unsupported:
        return FactVerdict(Verdict.UNKNOWN, how=Phrase(Reason.FACT_Z3_UNSUPPORTED))
    r = s.check()
    if r == z3.unsat:
        return FactVerdict(Verdict.PROVED, how=Phrase(Reason.FACT_Z3))
    if r == z3.sat:
        m = s.model()
        values = {sym: m.evaluate(v, model_completion=True).as_long() for sym, v in env.items()}
        check = fact.xreplace({k: sympy.Integer(v) for k, v in values.items()})
        if check is sympy.false or (check.is_Boolean and sympy.simplify(check) is sympy.false):
            inner = {p.inner: values[p.inner] for p in params.params}
            w = params.user_values(inner)
            w.update({str(k): v for k, v in values.items() if k not in inner})
            return FactVerdict(Verdict.REFUTED, w, how=Phrase(Reason.FACT_Z3_MODEL))
    # unknown (its time limit), or a model at which the fact is not false after all
    return FactVerdict(Verdict.UNKNOWN,
                       how=Phrase(Reason.FACT_Z3_UNKNOWN if r == z3.unknown else Reason.FACT_Z3_UNCONFIRMED))
