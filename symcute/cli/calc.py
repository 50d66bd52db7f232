"""``symcute calc EXPR``: evaluate CuTe calls over layout literals and print the result in CuTe notation."""

from __future__ import annotations



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


def run(args) -> int:
    """One ``calc`` command; ``--max-cells`` holds for this command only (the bound is restored after it, so
    an in-process caller -- a notebook, ``symcute.cli.main`` called twice -- keeps its own)."""
    from ..report import console, pictures
    saved = pictures.MAX_CELLS, console.MAX_CELLS
    try:
        if args.max_cells is not None:
            set_max_cells(args.max_cells)
        return _run(args)
    finally:
        pictures.MAX_CELLS, console.MAX_CELLS = saved


def _run(args) -> int:
    from ..expr.bindings import cute_show, declare_params, evaluate_and_check, parse_lets, show, warning_line, with_params
    lets = parse_lets(args.let)
    ps = declare_params(args.param)
    lets = with_params(lets, ps)
    if args.cute_print:
        from ..expr.language import CUTE_NOTATION
        token = CUTE_NOTATION.set(True)
        try:
            value, broken = evaluate_and_check(args.expr, lets, ps is not None)
        finally:
            CUTE_NOTATION.reset(token)
    else:
        value, broken = evaluate_and_check(args.expr, lets, ps is not None)
    if broken is not None:
        import sys
        print(f"warning: {warning_line(broken)}", file=sys.stderr)
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


