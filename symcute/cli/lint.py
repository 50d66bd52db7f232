"""``symcute lint``: check atom definitions (the catalog, one atom, or a user-defined atom) with counterexamples."""

from __future__ import annotations

from ..errors import ParseError


def register(sub) -> None:
    p = sub.add_parser("lint", help="check MMA/copy atom layouts, with counterexamples",
                       description="Lint CuTe atoms: each A/B/C TV layout must cover its tile with uniform "
                                   "multiplicity; copy atoms' Src/Dst/Ref must reach the same bits. Without "
                                   "arguments, lints the whole catalog. Exit status 1 when a finding is not a "
                                   "known upstream defect.")
    p.add_argument("name", nargs="?", help="an atom's C++ name (MMA, or copy with --copy)")
    p.add_argument("--copy", action="store_true", help="NAME is a copy atom")
    p.add_argument("--mma-shape", metavar="M,N,K", help="lint a user-defined MMA atom of this shape")
    p.add_argument("--thr-id", metavar="LAYOUT", default=None, help="its ThrID (default: n:1 for n threads)")
    p.add_argument("--a", metavar="LAYOUT", help="its A TV layout (CuTe notation)")
    p.add_argument("--b", metavar="LAYOUT", help="its B TV layout")
    p.add_argument("--c", metavar="LAYOUT", help="its C TV layout")
    p.add_argument("--verbose", "-v", action="store_true", help="also print the atoms that pass and broadcasts")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar on the terminal")
    p.set_defaults(handler=run)


def _user_atom(args):
    from ..atoms import MMAAtom
    from ..core import Layout
    try:
        shape = tuple(int(x) for x in args.mma_shape.replace("(", "").replace(")", "").split(","))
    except ValueError:
        raise ParseError(f"--mma-shape expects three integers M,N,K, got {args.mma_shape!r}") from None
    if not (args.a and args.b and args.c):
        raise ParseError("--mma-shape needs the three layouts --a, --b and --c")
    a = Layout.parse(args.a)
    thr = args.thr_id if args.thr_id is not None else a[0].size()
    return MMAAtom("user-defined atom", shape, thr, a, args.b, args.c)


def run(args) -> int:
    from ..atoms import lint_catalog, lint_copy_atom, lint_mma_atom
    if args.mma_shape:
        reports = [lint_mma_atom(_user_atom(args))]
    elif args.name:
        reports = [lint_copy_atom(args.name) if args.copy else lint_mma_atom(args.name)]
    else:
        from .progress import Bar
        with Bar("lint", enabled=not args.quiet) as bar:
            reports = lint_catalog(progress=bar)
    single = len(reports) == 1
    new = 0
    if args.verbose or single:
        for r in reports:
            print(r)
    else:
        for line in _grouped(r for r in reports if not r.ok):
            print(line)
    for r in reports:
        new += any(not f.known_upstream for f in r.findings)
    if not single:
        bad = sum(not r.ok for r in reports)
        known = sum(bool(r.findings) and all(f.known_upstream for f in r.findings) for r in reports)
        print(f"linted {len(reports)} atoms: {len(reports) - bad} ok, {known} with known upstream defects, "
              f"{new} with new findings")
    return 1 if new else 0


def _without_broadcasts(report) -> str:
    return "\n".join(line for line in str(report).splitlines() if ": broadcast: " not in line)


def _grouped(reports) -> list:
    """One entry per distinct set of findings, naming every atom that has it (the integer families of one
    layout share their defect: eight SM80 s4/u4 atoms, one finding list), in the catalog's order."""
    groups: dict = {}
    for r in reports:
        head, _, body = _without_broadcasts(r).partition("\n")
        groups.setdefault(body, []).append((head, r.atom))
    out = []
    for body, members in groups.items():
        if len(members) == 1:
            out.append(members[0][0])
        else:
            names = ", ".join(name for _, name in members)
            out.append(f"{names} ({len(members)} atoms, the same findings): {members[0][0].rpartition(': ')[2]}")
        if body:
            out.append(body)
    return out
