"""``symcute calc EXPR``: evaluate CuTe calls over layout literals and print the result in CuTe notation."""

from __future__ import annotations

from ..core.layout import format_int_tuple


def register(sub) -> None:
    p = sub.add_parser("calc", help="evaluate an expression of CuTe calls and print the result",
                       description="Evaluate an expression of CuTe calls, e.g. "
                                   "'upcast<1024>(right_inverse(L).with_shape(32,16))'.")
    p.add_argument("expr", help="the expression (CuTe notation; template or call form)")
    p.add_argument("--let", action="append", default=[], metavar="NAME=VALUE",
                   help="bind NAME to a value (a layout or any expression); repeatable")
    p.add_argument("--param", action="append", default=[], metavar="NAME[:DIVISOR]",
                   help="declare a run-time extent NAME (a positive integer, a multiple of DIVISOR); layouts "
                        "over it are parametric and results are closed forms; repeatable")
    p.add_argument("--max-cells", type=int, metavar="N",
                   help="the most cells a picture or table may draw (default 65536)")
    p.add_argument("--cute-print", action="store_true",
                   help="read and print CuTe's own notation: _n is static, a plain number a run-time int (as in "
                        "pasted CuTe output); results print with underscores")
    spelling = p.add_mutually_exclusive_group()
    spelling.add_argument("--cpp", action="store_true", help="print the result in CuTe C++ (make_layout(...))")
    spelling.add_argument("--dsl", action="store_true", help="print the result in CuTe DSL (cute.make_layout(...))")
    p.set_defaults(handler=run)


def set_max_cells(n: int) -> None:
    """``--max-cells``: the bound on what one picture (report.pictures) or table (report.console) draws."""
    from ..errors import SymcuteError
    from ..report import console, pictures
    if n < 1:
        raise SymcuteError(f"--max-cells expects a positive number of cells, got {n}")
    pictures.MAX_CELLS = console.MAX_CELLS = n


def parse_lets(lets: list[str]) -> dict:
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


def run(args) -> int:
    if args.max_cells is not None:
        set_max_cells(args.max_cells)
    lets = parse_lets(args.let)
    ps = declare_params(args.param)
    if ps is not None:
        clash = [n for n in ps.names() if n in lets]
        if clash:
            from ..errors import ParseError
            raise ParseError(f"--param {clash[0]} and --let {clash[0]}=... name the same variable")
        lets = {**{n: ps[n] for n in ps.names()}, **lets}
    if args.cute_print:
        from ..expr.language import CUTE_NOTATION
        token = CUTE_NOTATION.set(True)
        try:
            value, broken = _evaluate_and_check(args.expr, lets, ps is not None)
        finally:
            CUTE_NOTATION.reset(token)
    else:
        value, broken = _evaluate_and_check(args.expr, lets, ps is not None)
    if broken is not None:
        import sys
        print(f"warning: {_warning_line(broken)}", file=sys.stderr)
    if args.cute_print and not (args.cpp or args.dsl):
        print(cute_show(value))
        return 0
    if args.cpp or args.dsl:
        from ..core.code import to_cpp, to_dsl
        print((to_cpp if args.cpp else to_dsl)(value))
        return 0
    print(show(value))
    if ps is not None:
        print("for " + "; ".join(ps.describe()))
        used = getattr(value, "conditions", ())
        if used:
            print("using " + "; ".join(used))
    return 0


def _evaluate_and_check(text: str, lets: dict, parametric: bool):
    """The value and, when it breaks its operation's contract (CUTLASS #3177's composition), the refuting
    proof. The exit status is not changed: CuTe's value is printed as CuTe computes it."""
    from ..expr import evaluate
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
    if type(value).__module__.startswith("sympy"):
        from ..symbolic.parametric.printing import show_expr
        return show_expr(value)
    if isinstance(value, tuple):
        return format_int_tuple(tuple(_leaf(v) for v in value))
    return str(value)


def _leaf(v):
    return tuple(_leaf(x) for x in v) if isinstance(v, tuple) else str(v)


def _warning_line(proof) -> str:
    """One line for a broken contract: ``CuTe's value ... breaks ...: at index 2, R = 3 but A(B) = 7``
    (the CLI's wording; the proof is symbolic's data)."""
    from ..symbolic.vocabulary import in_summary
    ce = proof.counterexample or {}
    shown = ", ".join(f"{k} = {v}" for k, v in ce.items() if in_summary(k))
    return f"CuTe's value breaks its contract: {proof.statement} is refuted ({shown})"
