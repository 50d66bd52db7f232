"""``symcute prove CLAIM ...``: prove or refute a layout identity; exit 0 proved, 1 refuted, 3 unknown.

CLAIM is a keyword (``injective L``, ``vector TV MEM --width 8``) or an expression of the claim
language (``'forall(t, injective(F))'``, ``'vector(TV, M, 8)'``: symcute.symbolic.claim).
"""

from __future__ import annotations

EXIT = {"proved": 0, "refuted": 1, "unknown": 3}

CLAIMS = {
    "right-inverse": "L(R(i)) == i for all i < size(R); R = right_inverse(L) unless --inverse is given",
    "left-inverse": "R(L(x)) == x for all x < size(L); R = left_inverse(L) unless --inverse is given",
    "injective": "L(x) != L(y) for distinct x, y < size(L) (or --domain)",
    "surjective": "every y < N (--cotarget) is a value of L on [0, size(L)) (or --domain)",
    "bijective": "L is a bijection from [0, size(L)) (or --domain) onto [0, N) (--cotarget, default the domain's size)",
    "equal": "A(i) == B(i) for all i (the common size, or --domain); Compose(A, B) terms too",
    "disjoint": "A(x) != B(y) for all x < size(A) (or --domain), y < size(B) (or --domain-b)",
    "contains": "every B(y), y < size(B) (or --domain-b), is A(x) for some x < size(A) (or --domain)",
    "contiguous": "L(j) == L(0) + STEP*j for all j (--step, default 1); with --forall, in each block",
    "aligned": "L(0) is a multiple of --alignment; with --forall, every block's first value",
    "vector": "TV MEM: every thread's groups of --width consecutive values are at consecutive addresses "
              "MEM(TV(t, v)), the first a multiple of --align elements (default the width)",
}

FORALL = ("equal", "injective", "contiguous", "aligned")

# The options each keyword reads (an option given to a keyword that does not read it is refused, never
# ignored: `prove contiguous L --domain N` was silently the claim on the whole domain).
OPTIONS = {
    "inverse": ("right-inverse", "left-inverse"),
    "cotarget": ("surjective", "bijective"),
    "domain": ("injective", "surjective", "bijective", "equal", "disjoint", "contains", "contiguous", "aligned"),
    "domain_b": ("disjoint", "contains"),
    "forall": FORALL,
    "step": ("contiguous",),
    "alignment": ("aligned",),
    "width": ("vector",),
    "align": ("vector",),
}


def register(sub) -> None:
    p = sub.add_parser("prove", help="prove or refute a layout identity (exit 0 proved, 1 refuted, 3 unknown)",
                       description="Prove or refute a claim about layouts by mutual refinement (no enumeration); "
                                   "a refutation comes with a counterexample. CLAIM is a keyword or an expression "
                                   "of the claim language, e.g. 'forall(t, injective(F))' or 'vector(TV, M, 8)'. "
                                   "Keywords: " + "; ".join(f"{k}: {v}" for k, v in CLAIMS.items()))
    p.add_argument("claim", help="a keyword (" + ", ".join(sorted(CLAIMS)) + ") or a claim expression")
    p.add_argument("layouts", nargs="*", metavar="LAYOUT",
                   help="the layout(s) of a keyword claim: CuTe notation or expressions (two for 'equal')")
    p.add_argument("--inverse", metavar="R", help="the inverse to check (right-/left-inverse)")
    p.add_argument("--cotarget", type=int, metavar="N", help="the target range [0, N) (surjective, bijective)")
    p.add_argument("--domain", type=int, metavar="N",
                   help="the domain [0, N) (equal, injective, surjective, bijective; A's for disjoint, contains)")
    p.add_argument("--domain-b", type=int, metavar="N", help="B's domain [0, N) (disjoint, contains)")
    p.add_argument("--forall", metavar="AXES",
                   help="for every value of these sub-axes (comma-separated names or prefixes such as t, or mode "
                        "indices): equal, injective, contiguous, aligned")
    p.add_argument("--step", type=int, metavar="S", help="the step of a contiguous claim (default 1)")
    p.add_argument("--alignment", type=int, metavar="A", help="the alignment of an aligned claim")
    p.add_argument("--width", type=int, metavar="W", help="values per vector (vector)")
    p.add_argument("--align", type=int, metavar="A", help="vector alignment in elements (default the width)")
    p.add_argument("--names", metavar="TREE", help="names of the (first) layout's modes")
    p.add_argument("--name", action="append", default=[], metavar="VAR=TREE",
                   help="name the modes of a --let variable; repeatable")
    p.add_argument("--let", action="append", default=[], metavar="NAME=VALUE", help="bind NAME; repeatable")
    p.add_argument("--limit", type=int, metavar="N",
                   help="largest domain to enumerate when refinement does not decide (default 2^24)")
    p.add_argument("--json", action="store_true", help="print the proof as JSON")
    p.add_argument("--certificate", metavar="FILE",
                   help="write the verdict's certificate (docs/certificates.md) to FILE; 'symcute check FILE' "
                        "re-verifies it")
    p.set_defaults(handler=run)


def run(args) -> int:
    from ..symbolic.limits import exhaustive_limit
    lim = args.limit
    exhaustive_limit(lim)  # a negative --limit is refused even when refinement decides without it
    proof = _keyword(args, lim) if args.claim in CLAIMS else _expression(args, lim)
    if args.certificate:   # before printing: a verdict without a certificate is an error, not a silent skip
        import json
        from ..files import write
        write(args.certificate, json.dumps(proof.certificate_file(), indent=1) + "\n")
    print(proof.to_json(indent=2) if args.json else proof)
    return EXIT[proof.verdict]


def _expression(args, lim):
    from ..errors import ParseError
    from ..symbolic.claim import Claim, prove_claim
    from ..symbolic.proof import Proof
    from ..expr.bindings import evaluate_named
    if args.claim.strip().isidentifier():   # a word that is no keyword: a typo, said as argparse says it
        raise ParseError(f"argument claim: invalid choice: {args.claim!r} (choose from "
                         f"{', '.join(repr(k) for k in sorted(CLAIMS))}, or write a claim expression)")
    if args.layouts:
        raise ParseError(f"prove {args.claim!r}: a claim expression takes no further layouts (bind them with "
                         f"--let), got {len(args.layouts)}")
    given = [o for o in OPTIONS if getattr(args, o) is not None]
    if given:
        raise ParseError(f"prove {args.claim!r}: --{given[0].replace('_', '-')} is an option of the claim keywords; "
                         f"a claim expression states it as an argument (injective(L, domain=64))")
    v = evaluate_named(args.claim, args.let, args.name)
    if isinstance(v, Proof):
        return v
    if not isinstance(v, Claim):
        raise ParseError(f"prove: {args.claim!r} is neither a claim keyword ({', '.join(sorted(CLAIMS))}) nor a "
                         f"claim expression (it evaluates to a {type(v).__name__})")
    return prove_claim(v, lim)


def _keyword(args, lim):
    from ..errors import ParseError
    from .. import symbolic as sym
    from ..symbolic import claim as C
    from ..expr.bindings import evaluate_named
    from .formula import as_formula

    def value(text, names=None):
        v = evaluate_named(text, args.let, args.name)
        if isinstance(v, sym.Compose):  # a composite function, as calc's prove(...) takes it
            return v
        if args.claim == "vector" and text is not args.layouts[0]:
            return v   # the memory layout: swizzled layouts too
        return as_formula(v, names)

    k = args.claim
    want = 2 if k in ("equal", "disjoint", "contains", "vector") else 1
    if len(args.layouts) != want:
        raise ParseError(f"prove {k} takes {want} layout{'s' if want > 1 else ''}, got {len(args.layouts)}")
    for option, takers in OPTIONS.items():
        if getattr(args, option) is not None and k not in takers:
            raise ParseError(f"prove {k}: --{option.replace('_', '-')} is not an option of {k} (it is one of "
                             f"{', '.join(takers)})")
    L = value(args.layouts[0], args.names)
    if k in ("right-inverse", "left-inverse"):
        R = value(args.inverse) if args.inverse else None
        fn = sym.prove_right_inverse if k == "right-inverse" else sym.prove_left_inverse
        return fn(L, R, limit=lim)
    if args.cotarget is not None and args.cotarget < 1:   # the claim calls it onto; the user typed --cotarget
        raise ParseError(f"prove {k}: --cotarget must be a positive integer, got {args.cotarget}")
    if k == "surjective" and args.cotarget is None:
        raise ParseError("prove surjective needs --cotarget N")
    if k == "aligned" and args.alignment is None:
        raise ParseError("prove aligned needs --alignment A")
    if k == "vector" and args.width is None:
        raise ParseError("prove vector needs --width W")
    # every keyword states a claim of the claim language, decided by prove_claim: the one path that
    # 'prove "injective(L)"', calc's prove(...) and the Python API reach too
    step = 1 if args.step is None else args.step
    make = {
        "injective": lambda: C.injective(L, args.domain),
        "surjective": lambda: C.surjective(L, args.cotarget, args.domain),
        "bijective": lambda: C.bijective(L, args.cotarget, args.domain),
        "equal": lambda: C.equal(L, value(args.layouts[1]), args.domain),
        "disjoint": lambda: C.disjoint(L, value(args.layouts[1]), args.domain, args.domain_b),
        "contains": lambda: C.contains(L, value(args.layouts[1]), args.domain, args.domain_b),
        "contiguous": lambda: C.contiguous(L, step, args.domain),
        "aligned": lambda: C.aligned(L, args.alignment, args.domain),
        "vector": lambda: C.vector(L, value(args.layouts[1]), args.width, args.align),
    }
    claim = make[k]()
    if args.forall is not None:
        axes = tuple(int(a) if a.strip().isdigit() else a.strip() for a in args.forall.split(","))
        claim = C.forall(axes, claim)
    return C.prove_claim(claim, lim)
