"""``symcute bank``: bank conflicts of a TiledCopy (or a TV layout) over a shared-memory layout, and the fix.

    symcute bank --smem '(32,64):(64,1)'                      # the SM80 ldmatrix read of operand A
    symcute bank --copy-atom SM75_U32x4_LDSM_N --smem 'Sw<3,3,3> o 0 o (32,64):(64,1)'
    symcute bank --tv '(32,1):(1,0)' --smem '(32,32):(32,1)' --value-bits 32
    symcute bank ... --fix          # also search every Sw<B,M,S> over the unswizzled tile
    symcute bank ... --fix-atoms    # also rank CuTe's smem layout atoms (GMMA, SM80) tiled to the tile
    symcute bank ... --svg FILE     # lanes against banks of the worst instruction
"""

from __future__ import annotations

from .derive import OPERANDS


def register(sub) -> None:
    p = sub.add_parser("bank", help="shared-memory bank conflicts of a copy, every lane, with witness and fix",
                       description="Wavefronts and bank conflicts of a TiledCopy's shared-memory side (make_tiled_copy_"
                                   "A/B/C of a TiledMMA) or of a TV layout, over a smem layout (CuTe notation, "
                                   "swizzled or not, or a GMMA layout atom such as GMMA::Layout_K_SW128_Atom[@MxN]). "
                                   "Exact for every lane; the model and its H200 confirmation: docs/memory.md.")
    p.add_argument("--smem", required=True, help="the shared-memory layout")
    p.add_argument("--mma", default="SM80_16x8x16_F16F16F16F16_TN", help="MMA atom (C++ name)")
    p.add_argument("--atom-layout", default="2,2,1", metavar="M,N,K", help="atom layout (default 2,2,1)")
    p.add_argument("--operand", default="A", type=str.upper, choices=OPERANDS, help="operand (default A)")
    p.add_argument("--copy-atom", default="SM75_U32x4_LDSM_N", help="copy atom (C++ name)")
    p.add_argument("--value-type", default="half_t", help="value type (default half_t)")
    p.add_argument("--side", type=str.upper, choices=("S", "D"), help="which side is shared memory (default: "
                   "the atom's: S for ldmatrix, D for stmatrix and cp.async)")
    p.add_argument("--tv", metavar="LAYOUT", help="analyse this (thread, value) -> tile index layout instead")
    p.add_argument("--value-bits", type=int, default=None, help="with --tv: element size in bits")
    p.add_argument("--vector-bits", type=int, default=None, help="with --tv: bits per access (default: widest)")
    p.add_argument("--op", choices=("ld", "st"), default="ld", help="with --tv: load or store (default ld)")
    p.add_argument("--fix", action="store_true", help="also synthesise the best Swizzle<B,M,S>")
    p.add_argument("--fix-atoms", action="store_true", help="also rank CuTe's smem layout atoms (GMMA K/MN "
                   "INTER/SW32/SW64/SW128, the SM80 kernels' atoms) tiled to the smem tile's shape")
    p.add_argument("--svg", metavar="FILE", help="write the lanes-vs-banks picture of the worst instruction")
    p.set_defaults(handler=run)


def run(args) -> int:
    from ..errors import SymcuteError
    from .. import memory
    from ..report.bank import bank_svg, console
    if args.tv:
        if args.value_bits is None:
            raise SymcuteError("--tv needs --value-bits (the element size)")
        from ..core import parse_layout
        tv = parse_layout(args.tv)
        smem = parse_layout(args.smem)
        res = memory.shared_access(tv, smem, args.value_bits, args.vector_bits, args.op)
        title = f"{args.op} of {tv} over {smem} ({args.value_bits}-bit values)"
        sides = None
        if args.fix:
            from ..memory.synth import tv_side
            base = _base(smem)
            sides = (base, [tv_side(tv, base, args.value_bits, res.instruction.lane_bytes * 8, args.op)])
        from ..memory.atom_synth import tv_access
        access = tv_access(tv, args.value_bits, res.instruction.lane_bytes * 8, args.op)
        vtype = {8: "uint8_t", 16: "half_t", 32: "float", 64: "double"}.get(args.value_bits)
    else:
        from ..recipes.bank import build_copy, resolve_smem
        _, tc = build_copy(args.mma, args.atom_layout, args.operand, args.copy_atom, args.value_type)
        smem = resolve_smem(args.smem, args.value_type, tc.tiler_mn)
        res = memory.bank_conflicts(tc, smem, args.side)
        title = (f"Copy_Atom<{tc.atom.name}, {args.value_type}> for {args.operand} of {args.mma} "
                 f"({args.atom_layout}) over {smem}")
        sides = None
        if args.fix:
            from ..memory.synth import copy_side
            base = _base(smem)
            sides = (base, [copy_side(tc, base, side=args.side)])
        from ..memory.atom_synth import copy_access
        access, vtype = copy_access(tc, args.side), args.value_type
    print(console(res, title))
    if sides is not None:
        from ..memory.synth import synthesize_swizzle
        s = synthesize_swizzle(*sides)
        alts = ", ".join(f"{c.swizzle} ({c.total})" for c in s.alternatives[:4])
        print(f"fix: best {s.best.swizzle} o 0 o {s.base}: {s.best.total} wavefronts (ideal {sum(s.ideal)}), "
              f"{s.searched} swizzles searched; optimal: {', '.join(str(c.swizzle) for c in s.optimal[:6])}; "
              f"next: {alts or 'none'}")
        for r in s.reasons:
            print(f"  why not conflict-free: {r}")
    if args.fix_atoms:
        _print_atoms(smem, access, vtype)
    if args.svg:
        from .. import files
        w = res.witness
        try:   # atomic, never through a link, never onto a FIFO or a device
            files.write(args.svg, bank_svg(res, w.warp, w.instruction))
        except SymcuteError as e:
            raise SymcuteError(f"--svg {args.svg}: {e}") from None
    return 0


def _base(smem):
    from ..core import ComposedLayout, Layout
    from ..core.composed import SmemPtrFlag
    from ..errors import LayoutError
    if isinstance(smem, ComposedLayout):
        if isinstance(smem.offset, SmemPtrFlag) or not isinstance(smem.inner, Layout):
            raise LayoutError(f"--fix: {smem} swizzles byte addresses; give its unswizzled layout to search")
        return smem.inner
    return smem


def _print_atoms(smem, access, value_type) -> None:
    from ..errors import LayoutError
    from ..memory.atom_synth import synthesize_smem_layout
    if value_type is None:
        raise LayoutError("--fix-atoms needs an element type of 8, 16, 32 or 64 bits")
    lay = smem.inner if hasattr(smem, "inner") else smem
    if lay.rank != 2:
        raise LayoutError(f"--fix-atoms: the smem tile must have two modes, got {lay}")
    shape = (lay[0].size(), lay[1].size())
    s = synthesize_smem_layout(shape, [access], value_type)
    alts = ", ".join(f"{c.name} ({c.total})" for c in s.alternatives[:4])
    print(f"atoms: best {s.best.name}: {s.best.total} wavefronts (ideal {sum(s.ideal)}) over {shape}; "
          f"optimal: {', '.join(c.name for c in s.optimal[:6])}; next: {alts or 'none'}")
    refused = [c for c in s.candidates if not c.valid]
    if refused:
        print(f"  refused: {', '.join(c.name for c in refused)}")
