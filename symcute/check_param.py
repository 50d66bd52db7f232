"""The independent checker's parametric claims: polynomials in the parameters, its own arithmetic.

A claim for every admissible value of its parameters (docs/certificates.md, "Parametric claims"): its
layouts as symcute prints them (leaves are expressions in the declared names), its parameters with their
side conditions.  The expressions are read with Python's ``ast`` parser (a tree walked here; nothing is
evaluated) into polynomials over one variable ``t_P >= 0`` per parameter.  Like ``symcute.check`` (whose
results and counterexample checks it shares) it imports only core and the standard library.
"""

from __future__ import annotations

import ast
import math
from fractions import Fraction

from .check import Refused, Unchecked, check_refutation
from .core import int_tuple as it
from .core.layout import Layout

# --- parametric claims: polynomials in the parameters, own arithmetic ---------------------------------------
# A polynomial is {monomial: Fraction}, a monomial the sorted tuple of its variables.  A parameter ``P`` (a
# multiple of m, P >= lo) is ``m*(l + t_P)``, ``t_P >= 0``, ``l = max(1, ceil(lo/m))`` (an upper bound only
# shrinks the domain): all coefficients >= 0 shows ``>= 0`` for every admissible value.
ONE, OPS = {(): Fraction(1)}, ("Add", "Sub", "Mult", "Div", "Pow", "USub")


def _int(x, what: str) -> int:
    if type(x) is not int:
        raise Refused(f"{what} {x!r} is not an integer")
    return x


def padd(a, b, k=1):
    out = dict(a)
    for m, v in b.items():
        out[m] = out.get(m, 0) + k * v
    return {m: v for m, v in out.items() if v}


def pmul(a, b):
    out = {}
    for m, v in a.items():
        for m2, v2 in b.items():
            out = padd(out, {tuple(sorted(m + m2)): v * v2})
    return out


def poly(node, env):
    """A polynomial (nested lists of them for a layout's tuples) from Python's parse tree of the text (``ast``
    only parses, nothing is evaluated): integers, names in ``env``, ``+ - *``, ``/`` and ``**`` by constants."""
    if isinstance(node, ast.Tuple):
        return [poly(x, env) for x in node.elts]
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return {(): Fraction(node.value)} if node.value else {}
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    op = type(getattr(node, "op", None)).__name__
    a = poly(node.operand if op == "USub" else node.left, env) if op in OPS else None
    b = poly(node.right, env) if op in OPS[:5] else {(): Fraction(-1)}
    k = b.get((), 0) if isinstance(b, dict) and set(b) <= {()} else None
    if isinstance(a, dict) and isinstance(b, dict) and (op != "Div" or k) and (op != "Pow" or k in range(64)):
        if op == "Pow":
            out = ONE
            for _ in range(int(k)):
                out = pmul(out, a)
            return out
        return padd(a, b, -1 if op == "Sub" else 1) if op in ("Add", "Sub") else pmul(a, {(): 1 / k} if op == "Div"
                                                                                  else b)
    raise Unchecked(f"parametric: {ast.dump(node)[:80]} is not a polynomial in the parameters")


def parse_poly(text, env, layout=False):
    """An expression, or a layout's ``[(extent, stride)]`` over its flat leaves (integer polynomials)."""
    try:
        parts = [poly(ast.parse(x.strip(), mode="eval").body, env) for x in text.split(":")]
    except (SyntaxError, AttributeError):
        raise Refused(f"parametric: {text!r} does not parse") from None
    if not layout and (len(parts) != 1 or not isinstance(parts[0], dict)):
        raise Refused(f"parametric: {text!r} is not one expression")
    if not layout:
        return parts[0]
    flat = [_flat(x) for x in parts]
    if len(flat) != 2 or len(flat[0]) != len(flat[1]) or \
            any(v.denominator != 1 for x in sum(flat, []) for v in x.values()):
        raise Refused(f"parametric: {text!r} is not a layout of integer polynomial leaves in the parameters")
    return list(zip(*flat))


def _flat(t):
    return [x for u in t for x in _flat(u)] if isinstance(t, list) else [t]


def _nonneg(p, what: str) -> None:
    """``p >= 0`` for every admissible value; refused where ``p < 0`` at the smallest values, else unchecked."""
    if any(v < 0 for v in p.values()):
        raise (Refused if p.get((), 0) < 0 else Unchecked)(f"parametric: {what} not shown for every admissible value")


def check_param(c, verdict, method, ev, bound):
    """A claim for every admissible value: a chain (injective), the same digits (equal) or a polynomial
    identity (formula) re-derived with the polynomials above; a refutation by core at its instantiation."""
    ev, env, decl = ev if isinstance(ev, dict) else {}, {}, {}
    for p in c.get("params") if isinstance(c.get("params"), list) else []:
        n, m, lo, hi = p.get("name"), _int(p.get("multiple"), "multiple"), _int(p.get("lo"), "lo"), p.get("hi")
        if not str(n).isidentifier() or m < 1 or n in env:
            raise Refused(f"parameter {p!r} is not a declaration the checker reads")
        env[n], decl[n] = {(): Fraction(m * max(1, -(-lo // m))), (n,): Fraction(m)}, (m, lo, hi)
    kind, ls = c["kind"], [parse_poly(str(t), env, layout=True) for t in c.get("terms") or []]
    names = c.get("axes") if kind == "param-formula" else [f"_{k}" for k in range(len(ls[0]) if ls else 0)]
    given = [x for x in names or [] if x is not None]
    if len(ls) != 1 + (kind == "param-equal") or not isinstance(names, list) or len(names) != len(ls[0]) or \
            len(set(given)) != len(given) or any(not str(x).isidentifier() or x in env for x in given) or \
            any(x is None and e != ONE for x, (e, _) in zip(names, ls[0])):
        raise Refused(f"a {kind} claim needs its terms (and a formula one axis name per flat leaf of size > 1)")
    for e, _ in sum(ls, []):
        _nonneg(padd(e, ONE, -1), "an extent >= 1")
    axes, env_x = [[(e, d) for e, d in L if e != ONE] for L in ls], {**env, **{x: {(x,): ONE[()]} for x in given}}
    if verdict == "refuted":
        return param_refuted(c, ls, names, env_x, decl, ev, bound)
    if verdict == "proved" and kind == "param-injective" and method == "param-chain":
        order = ev.get("order")   # flat leaves in coefficient order: every leaf of size other than 1, once
        if not isinstance(order, list) or len(set(order)) != len(order) or not set(order) <= set(range(len(ls[0]))) \
                or any(e != ONE and k not in order for k, (e, _) in enumerate(ls[0])):
            raise Refused("the chain's order does not list every sub-axis once")
        for k, j in enumerate(order):   # coefficient >= the one below times its extent (>= the span below), > 0
            _nonneg(padd(ls[0][j][1], pmul(*ls[0][order[k - 1]]) if k else ONE, -1), f"chain step {k}")
        return f"a chain of {len(order)} sub-axes for every admissible value"
    if verdict == "proved" and kind == "param-equal" and method == "param-digits":
        if len(axes[0]) != len(axes[1]) or any(x[0] != y[0] for x, y in zip(*axes)):
            raise Refused("the two sides have different sub-axes")
        for k, ((e, d), (_, d2)) in enumerate(zip(*axes)):
            if d != d2:   # both differ at the smallest values: a counterexample; else no identity shown
                raise (Refused if padd(d, d2, -1).get(()) and padd(e, ONE, -1).get(()) else Unchecked)(
                    f"parametric: coefficient {k} is not the same polynomial on both sides")
        return f"the same {len(axes[0])} sub-axes with equal coefficients for every admissible value"
    if verdict == "proved" and kind == "param-formula" and method == "param-polynomial":
        f = {}
        for x, (_e, d) in zip(names, ls[0]):
            f = padd(f, pmul(env_x[x], d)) if x else f
        if padd(f, parse_poly(str(c.get("expected")), env_x), -1):
            raise Refused("the formula minus the expected expression is not the zero polynomial")
        return "a polynomial identity in the sub-axes and the parameters"
    if verdict != "proved":
        raise Refused(f"verdict {verdict!r}: only proved and refuted claims have certificates")
    raise Unchecked(f"not re-checked: parametric {method} ({kind}): no arithmetic certificate the checker re-verifies")


def param_refuted(c, ls, names, env_x, decl, ev, bound):
    """The witness is admissible; the layouts there (core) and the counterexample violate the claim."""
    w, ce = ev.get("witness"), ev.get("counterexample") or {}
    if not isinstance(w, dict) or set(w) != set(decl) or any(
            _int(w[n], n) % m or w[n] < max(lo, 1) or hi is not None and w[n] > hi for n, (m, lo, hi) in decl.items()):
        raise Refused(f"the witness {w!r} is not an admissible value of every parameter")
    t = {n: Fraction(w[n], m) - max(1, -(-lo // m)) for n, (m, lo, _) in decl.items()}

    def at(p, more={}):
        return sum(k * math.prod(t[x] if x in t else more[x] for x in mono) for mono, k in p.items())
    Ls = [Layout(tuple(int(at(e)) for e, _ in L), tuple(int(at(d)) for _, d in L)) for L in ls]
    if c["kind"] == "param-equal" and ce.get("size") is True and Ls[0].size() != Ls[1].size():
        return f"at {w} the sizes differ ({Ls[0].size()} vs {Ls[1].size()})"
    co = ce.get("coordinate")
    if c["kind"] != "param-formula" or not isinstance(co, dict) or set(co) != {x for x in names if x}:
        sub = {"kind": c["kind"][6:], "n": min(L.size() for L in Ls)}
        return f"at {w}: " + check_refutation(sub, Ls, {"counterexample": ce}, bound)
    q, run = 0, 1
    for x, s in zip(names, it.flatten_to_tuple(Ls[0].shape)):
        if x is not None and not 0 <= _int(co[x], x) < s:
            raise Refused(f"the coordinate {x} = {co[x]} is outside [0, {s})")
        q, run = q + (co[x] * run if x else 0), run * s
    rhs = at(parse_poly(str(c.get("expected")), env_x), co)
    if Ls[0](q) == rhs:
        raise Refused(f"the layout and the expected expression agree at {co}")
    return f"at {w}, {co}: the layout is {Ls[0](q)}, the expected expression {rhs}"
