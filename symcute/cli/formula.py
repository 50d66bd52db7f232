"""``symcute formula EXPR``: a layout as a formula over named sub-axes (with its table, LaTeX, JSON)."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("formula", help="print a layout as a formula over named sub-axes",
                       description="Print a layout (or an expression of CuTe calls) as a linear formula over "
                                   "named sub-axes, e.g. symcute formula "
                                   "'((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))' "
                                   "--names '((t0,t1,wm,wn),((v0,v1,v2),(a,b)))' --table")
    p.add_argument("expr", help="a layout in CuTe notation, or an expression (see symcute calc)")
    p.add_argument("--names", metavar="TREE",
                   help="names of the result's modes, nested like its shape: '((t0,t1),(v0,v1))'")
    p.add_argument("--name", action="append", default=[], metavar="VAR=TREE",
                   help="name the modes of variable VAR (bound with --let) before evaluating; repeatable")
    p.add_argument("--let", action="append", default=[], metavar="NAME=VALUE",
                   help="bind NAME to a value (a layout or any expression); repeatable")
    p.add_argument("--table", action="store_true", help="print the sub-axis / shape / stride / weight table")
    p.add_argument("--zeros", action="store_true", help="show broadcast (stride-0) sub-axes as 0*name")
    p.add_argument("--latex", action="store_true", help="print LaTeX")
    p.add_argument("--index", action="store_true", help="print the floor/mod form over the linear index q")
    p.add_argument("--json", action="store_true", help="print the formula as JSON")
    p.add_argument("--c", action="store_true",
                   help="print integer C/CUDA: a function of one index per top-level mode (tid, vid for a TV layout)")
    p.add_argument("--cpp", action="store_true", help="print the layout in CuTe C++ (make_layout(make_shape(Int<4>{},...), ...))")
    p.add_argument("--dsl", action="store_true", help="print the layout in CuTe DSL (cute.make_layout((4,8), stride=(1,4)))")
    p.set_defaults(handler=run)


def as_formula(value, names_text: str | None):
    from ..errors import SymcuteError
    from ..symbolic import Formula, formula
    from ..symbolic.names import parse_names
    if isinstance(value, Formula):
        if names_text is not None:
            value = formula(value.layout, parse_names(names_text))
        return value
    from ..core.composed import ComposedLayout
    from ..core.layout import Layout
    from ..core.swizzle import Swizzle
    from ..symbolic.swizzled import SwizzledFormula
    if isinstance(value, SwizzledFormula):
        return value if names_text is None else formula(value.layout, parse_names(names_text))
    if not isinstance(value, (Layout, ComposedLayout, Swizzle)):
        raise SymcuteError(f"formula: the expression gives {value}, not a layout")
    return formula(value, parse_names(names_text) if names_text is not None else None)


def run(args) -> int:
    from ..expr import default_names, parse_expr_text
    from ..symbolic.names import format_names
    from ..expr.bindings import bind
    env = bind(args.let, args.name)
    value = parse_expr_text(args.expr).evaluate(env)
    names = args.names
    if names is None:  # a TV layout gets its thread / atom / value names (t0, t1, wm, wn, v0, ...)
        known = default_names(args.expr, env)
        names = format_names(known) if known is not None else None
    f = as_formula(value, names)
    if args.json:
        print(f.to_json(indent=2))
        return 0
    print(f"layout:  {f.layout}")
    print(f"formula: {f.str_with_zeros() if args.zeros else f}")
    if getattr(f, "aliases", None):
        print("aliases: " + ", ".join(f"{k} = {v}" for k, v in f.aliases.items()))
    if args.index:
        print(f"index:   {f.index_text()}")
    if args.latex:
        print(f"latex:   {f.latex(zeros=args.zeros)}")
    if args.cpp:
        from ..core.code import to_cpp
        print(f"cpp:     {to_cpp(f.layout)}")
    if args.dsl:
        from ..core.code import to_dsl
        print(f"dsl:     {to_dsl(f.layout)}")
    if args.c:
        print()
        print(f.to_c())
    if args.table:
        print()
        if hasattr(f, "domain_table"):  # a swizzled formula: its domain's sub-axes, then the bit table
            print(f.domain_table())
            print()
        print(f.table())
    if getattr(f, "steps", None) is not None:
        print()
        print(f.steps)
    return 0
