"""``symcute bank``: bank conflicts of a TiledCopy (or a TV layout) over a shared-memory layout, and the fix.

    symcute bank --smem '(32,64):(64,1)'                      # the SM80 ldmatrix read of operand A
    symcute bank --copy-atom SM75_U32x4_LDSM_N --smem 'Sw<3,3,3> o 0 o (32,64):(64,1)'
    symcute bank --tv '(32,1):(1,0)' --smem '(32,32):(32,1)' --value-bits 32
    symcute bank ... --fix          # also search every Sw<B,M,S> over the unswizzled tile
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
    if args.svg:
        from .files import writing
        w = res.witness
        with writing(f"--svg {args.svg}"):
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(bank_svg(res, w.warp, w.instruction))
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
