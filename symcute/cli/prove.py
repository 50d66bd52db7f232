"""``symcute prove CLAIM ...``: prove or refute a layout identity; exit 0 proved, 1 refuted, 3 unknown."""

from __future__ import annotations

EXIT = {"proved": 0, "refuted": 1, "unknown": 3}

CLAIMS = {
    "right-inverse": "L(R(i)) == i for all i < size(R); R = right_inverse(L) unless --inverse is given",
    "left-inverse": "R(L(x)) == x for all x < size(L); R = left_inverse(L) unless --inverse is given",
    "injective": "L(x) != L(y) for distinct x, y < size(L)",
    "surjective": "every y < N (--cotarget) is a value of L",
    "bijective": "L is a bijection onto [0, N) (--cotarget, default size(L))",
    "equal": "A(i) == B(i) for all i (the common size, or --domain); Compose(A, B) terms too",
    "disjoint": "A(x) != B(y) for all x < size(A) (or --domain), y < size(B) (or --domain-b)",
    "contains": "every B(y), y < size(B) (or --domain-b), is A(x) for some x < size(A) (or --domain)",
}


def register(sub) -> None:
    p = sub.add_parser("prove", help="prove or refute a layout identity (exit 0 proved, 1 refuted, 3 unknown)",
                       description="Prove or refute a claim about layouts by mutual refinement (no enumeration); "
                                   "a refutation comes with a counterexample. Claims: "
                                   + "; ".join(f"{k}: {v}" for k, v in CLAIMS.items()))
    p.add_argument("claim", choices=sorted(CLAIMS), help="what to prove")
    p.add_argument("layouts", nargs="+", metavar="LAYOUT",
                   help="the layout(s): CuTe notation or expressions (two for 'equal')")
    p.add_argument("--inverse", metavar="R", help="the inverse to check (right-/left-inverse)")
    p.add_argument("--cotarget", type=int, metavar="N", help="the target range [0, N) (surjective, bijective)")
    p.add_argument("--domain", type=int, metavar="N", help="the domain [0, N) (equal; A's for disjoint, contains)")
    p.add_argument("--domain-b", type=int, metavar="N", help="B's domain [0, N) (disjoint, contains)")
    p.add_argument("--names", metavar="TREE", help="names of the (first) layout's modes")
    p.add_argument("--name", action="append", default=[], metavar="VAR=TREE",
                   help="name the modes of a --let variable; repeatable")
    p.add_argument("--let", action="append", default=[], metavar="NAME=VALUE", help="bind NAME; repeatable")
    p.add_argument("--limit", type=int, metavar="N",
                   help="largest domain to enumerate when refinement does not decide (default 2^24)")
    p.add_argument("--json", action="store_true", help="print the proof as JSON")
    p.set_defaults(handler=run)


def run(args) -> int:
    from ..errors import ParseError
    from .. import symbolic as sym
    from ..symbolic.limits import exhaustive_limit
    from .formula import as_formula, evaluate_named

    def value(text, names=None):
        v = evaluate_named(text, args.let, args.name)
        if isinstance(v, sym.Compose):  # a composite function, as calc's prove(...) takes it
            return v
        return as_formula(v, names)

    want = 2 if args.claim in ("equal", "disjoint", "contains") else 1
    if len(args.layouts) != want:
        raise ParseError(f"prove {args.claim} takes {want} layout{'s' if want > 1 else ''}, "
                         f"got {len(args.layouts)}")
    L = value(args.layouts[0], args.names)
    lim = args.limit
    exhaustive_limit(lim)  # a negative --limit is refused even when refinement decides without it
    if args.claim in ("right-inverse", "left-inverse"):
        R = value(args.inverse) if args.inverse else None
        fn = sym.prove_right_inverse if args.claim == "right-inverse" else sym.prove_left_inverse
        proof = fn(L, R, limit=lim)
    elif args.claim == "injective":
        proof = sym.is_injective(L, limit=lim)
    elif args.claim == "surjective":
        if args.cotarget is None:
            raise ParseError("prove surjective needs --cotarget N")
        proof = sym.is_surjective(L, args.cotarget, limit=lim)
    elif args.claim == "bijective":
        proof = sym.is_bijective(L, args.cotarget, limit=lim)
    elif args.claim == "disjoint":
        from ..symbolic.claims import images_disjoint
        proof = images_disjoint(L, value(args.layouts[1]), args.domain, args.domain_b, limit=lim)
    elif args.claim == "contains":
        from ..symbolic.claims import image_contains
        proof = image_contains(L, value(args.layouts[1]), args.domain, args.domain_b, limit=lim)
    else:
        proof = sym.prove(L, value(args.layouts[1]), domain=args.domain, limit=lim)
    print(proof.to_json(indent=2) if args.json else proof)
    return EXIT[proof.verdict]
