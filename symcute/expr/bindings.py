"""What ``calc``, ``formula``, ``prove`` and the web page do with their text before and after evaluating it.

``--let NAME=VALUE`` bindings, ``--param NAME[:DIVISOR]`` declarations, the value with its contract check
(CuTe's value is returned as CuTe computes it; a broken contract rides beside it), and the value printed
in CuTe notation.  One place, so that every front end reads and prints an expression the same way.
"""

from __future__ import annotations

from ..core.layout import format_int_tuple


def parse_lets(lets: list[str]) -> dict:
    """``["A=(4,2):(1,4)", ...]`` as an ordered ``{name: text}``.  @raises ParseError on a malformed item"""
    from ..errors import ParseError
    env = {}
    for item in lets:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise ParseError(f"--let expects NAME=VALUE with NAME an identifier, got {item!r}")
        env[name] = value
    return env


def declare_params(decls: list[str]):
    """``--param M:128 --param K`` as declared parameters (None when there are none)."""
    if not decls:
        return None
    from ..symbolic import parametric as P
    names, multiple = [], {}
    for d in decls:
        name, div = P.parse_declaration(d)
        names.append(name)
        if div is not None:
            multiple[name] = div
    return P.params(names, multiple_of=multiple)


def with_params(lets: dict, ps) -> dict:
    """The bindings with the declared parameters bound first.  @raises ParseError when a name is both"""
    if ps is None:
        return lets
    clash = [n for n in ps.names() if n in lets]
    if clash:
        from ..errors import ParseError
        raise ParseError(f"--param {clash[0]} and --let {clash[0]}=... name the same variable")
    return {**{n: ps[n] for n in ps.names()}, **lets}


def bind(lets: list[str], names: list[str]) -> dict:
    """The --let bindings (in order) with the --name variables turned into named Formulas."""
    from ..errors import ParseError
    from ..symbolic import formula
    from ..symbolic.names import parse_names
    from .language import parse_expr_text
    env = {}
    for k, v in parse_lets(lets).items():  # in order: a binding may use the ones before it
        env[k] = parse_expr_text(v).evaluate(env)
    for item in names:
        var, sep, tree = item.partition("=")
        var = var.strip()
        if not sep or var not in env:
            raise ParseError(f"--name expects VAR=TREE with VAR bound by --let, got {item!r}")
        env[var] = formula(env[var], parse_names(tree))
    return env


def evaluate_named(expr: str, lets: list[str], names: list[str]):
    """Evaluate ``expr`` with --let bindings, the variables in ``names`` turned into named Formulas."""
    from .language import parse_expr_text
    return parse_expr_text(expr).evaluate(bind(lets, names))


def evaluate_and_check(text: str, lets: dict, parametric: bool):
    """The value and, when it breaks its operation's contract (CUTLASS #3177's composition), the refuting
    proof (else None).  CuTe's value is returned as CuTe computes it."""
    from .language import evaluate
    if parametric:
        return evaluate(text, lets), None
    from ..symbolic.contracts import evaluate_checked
    value, proof = evaluate_checked(lambda: evaluate(text, lets))
    if (proof is None or not proof.refuted) and getattr(value, "breaks_contract", False):
        proof = value.contract   # a Formula result (sym.composition) carries its own contract check
    return value, (proof if proof is not None and proof.refuted else None)


def cute_show(value) -> str:
    """CuTe's print: ``_n`` for static integers, plain numbers for run-time ones."""
    from ..core import Layout
    if hasattr(value, "cute_str"):
        return value.cute_str()
    if isinstance(value, (Layout, int, tuple)):
        from ..report.pictures import cute_print
        return cute_print(value)
    return show(value)


def show(value) -> str:
    """The value in symcute's CuTe notation (what ``calc`` prints)."""
    if type(value).__module__.startswith("sympy"):
        from ..symbolic.parametric.printing import show_expr
        return show_expr(value)
    if isinstance(value, tuple):
        return format_int_tuple(tuple(_leaf(v) for v in value))
    return str(value)


def _leaf(v):
    return tuple(_leaf(x) for x in v) if isinstance(v, tuple) else str(v)


def warning_line(proof) -> str:
    """One line for a broken contract: ``CuTe's value ... breaks ...: at index 2, R = 3 but A(B) = 7``
    (the front ends' wording; the proof is symbolic's data)."""
    from ..symbolic.vocabulary import in_summary
    ce = proof.counterexample or {}
    shown = ", ".join(f"{k} = {v}" for k, v in ce.items() if in_summary(k))
    return f"CuTe's value breaks its contract: {proof.statement} is refuted ({shown})"
