"""``symcute atoms``: list the catalogued MMA and copy atoms (filter by text and architecture)."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("atoms", help="list the catalogued MMA and copy atoms",
                       description="List CuTe's MMA atoms (and, with --copy, copy atoms) with their shape, "
                                   "header and PTX instruction; --show prints one atom's traits.")
    p.add_argument("--filter", metavar="TEXT", help="keep names (or PTX) containing TEXT")
    p.add_argument("--arch", metavar="SMxx", help="keep one architecture (sm50, sm61, sm70, sm75, sm80, sm89, sm90, sm100, sm103, sm120)")
    p.add_argument("--copy", action="store_true", help="list copy atoms instead of MMA atoms")
    p.add_argument("--base-only", action="store_true",
                   help="leave out the extended GMMA shapes of mma_traits_sm90_gmma_ext.hpp")
    p.add_argument("--show", metavar="NAME", help="print the traits of one atom (C++ spelling)")
    p.add_argument("--value-type", metavar="T", help="with --show of a copy atom: show value layouts for T")
    p.set_defaults(handler=run)


def run(args) -> int:
    from ..atoms import copy_atom, copy_atoms, mma_atom, mma_atoms
    if args.show:
        if args.copy:
            atom = copy_atom(args.show, args.value_type)
            if atom.value_type is None:
                print(f"{atom.name}  ({atom.header}; {atom.ptx})")
                print(f"  ThrID:     {atom.thr_id}\n  SrcLayout: {atom.src_layout}\n"
                      f"  DstLayout: {atom.dst_layout}\n  RefLayout: {atom.ref_layout}")
            else:
                print(str(atom), end="")
            if atom.val_id is not None:
                print(f"  ValID:     {atom.val_id}  (logical bit -> TMEM address: lane << 21 | column)")
            return 0
        atom = mma_atom(args.show)
        print(f"{atom.name}  ({atom.header}; {atom.ptx})")
        print(str(atom), end="")
        for trait, lay in atom.extra_layouts:
            print(f"  {trait}: {lay}")
        print(f"  ValTypes D,A,B,C: {atom.val_type_d}, {atom.val_type_a}, {atom.val_type_b}, {atom.val_type_c}")
        if atom.frg_type_a or atom.frg_type_b:
            print(f"  FrgTypes A,B: {atom.frg_type_a or atom.val_type_a}, {atom.frg_type_b or atom.val_type_b}")
        for d in atom.defects:
            print(f"  known upstream defect in {d.operand}: {d.what}")
        return 0
    if args.copy:
        rows = copy_atoms(args.filter)
        if args.arch:
            rows = [r for r in rows if r.arch == args.arch.lower()]
        for a in rows:
            print(f"{a.name:45s} {a.arch or '-':5s} thr={a.thr_id.size():<3d} {a.header:35s} {a.ptx}")
        print(f"{len(rows)} copy atoms (UniversalCopy<S,D> and cp.async<S,D> take any value types)")
        return 0
    rows = mma_atoms(args.filter, args.arch, extended=not args.base_only)
    for r in rows:
        m, n, k = r.atom.shape_mnk
        flag = "  [known upstream defect]" if r.atom.defects else ""
        print(f"{r.name:72s} {r.arch:5s} {m}x{n}x{k:<4d} {r.header:40s} {r.ptx}{flag}")
    if not rows and args.arch:
        print(f"no catalogued MMA atom for {args.arch} (architectures: "
              + ", ".join(sorted({r.arch for r in mma_atoms()}, key=lambda a: int(a[2:]))) + ")")
    print(f"{len(rows)} MMA atoms")
    return 0
