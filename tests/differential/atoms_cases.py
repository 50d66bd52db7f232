"""Cases for the atoms differential suite: each is a C++ body for real CuTe and the same computation in symcute.

Every case prints several values separated by '|' on both sides, so one
compiled TiledMMA or TiledCopy is checked on all its layouts at once.  A case
agrees when the texts are equal, or when CuTe refuses the program and symcute
raises a SymcuteError (see ``harness.compare``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import symcute as sc
from symcute.core import Layout, _

from .atoms_cpp import layout_type, perm_type, sep_prints, tiled_mma_expr


@dataclass(frozen=True)
class Case:
    key: str
    op: str
    text: str            # a reproducer in Python / the expression language
    cpp: str             # the C++ body printing CuTe's values
    compute: Callable    # () -> text (or raises SymcuteError)


def _fmt(v) -> str:
    if isinstance(v, tuple):
        return "(" + ",".join(_fmt(x) for x in v) + ")"
    return str(v)


def joined(*values) -> str:
    return "|".join(_fmt(v) for v in values)


# --- atom traits -------------------------------------------------------------------------------------

def mma_trait_cases(entries) -> list[Case]:
    out = []
    for e in entries:
        a = e.atom
        t = f"MMA_Traits<{a.name}>"
        cpp = sep_prints(*(f"typename {t}::{m}{{}}" for m in ("ThrID", "Shape_MNK", "ALayout", "BLayout", "CLayout")))

        def compute(a=a):
            lay = [str(x) if x is not None else next(d.upstream_text for d in a.defects if d.operand == op)
                   for x, op in ((a.a_layout, "A"), (a.b_layout, "B"), (a.c_layout, "C"))]
            return joined(a.thr_id, a.shape_mnk, *lay)
        out.append(Case(f"traits#{a.name}", "mma_traits", f"mma_atom({a.name!r})", cpp, compute))
    return out


def gmma_argument_cases() -> list[Case]:
    """Template arguments that do not change the layouts, and the one CuTe refuses (RS with MN-major A)."""
    names = ["SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>",
             "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN,GMMA::ScaleIn::Neg,GMMA::ScaleIn::One>",
             "SM90_64x96x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::MN>",
             "SM90_64x96x16_F32BF16BF16_RS<GMMA::Major::MN,GMMA::Major::K>",
             "SM90_64x32x8_F32TF32TF32_SS_TN<GMMA::ScaleIn::Neg,GMMA::ScaleIn::Neg>",
             "SM90_64x32x32_F32E4M3E5M2_RS_TN<>"]
    out = []
    for n in names:
        t = f"MMA_Traits<{n}>"
        cpp = f"{n} op{{}}; (void)op; " + sep_prints(*(f"typename {t}::{m}{{}}" for m in ("ThrID", "ALayout",
                                                                                          "BLayout", "CLayout")))

        def compute(n=n):
            a = sc.mma_atom(n)
            return joined(a.thr_id, a.a_layout, a.b_layout, a.c_layout)
        out.append(Case(f"gmma_args#{n}", "mma_traits", f"mma_atom({n!r})", cpp, compute))
    return out


COPY_TYPES = ["half_t", "float", "uint8_t", "uint128_t", "double", "int4b_t"]


def copy_trait_cases(names, types=COPY_TYPES) -> list[Case]:
    out = []
    for n in names:
        tr = f"Copy_Traits<{n}>"
        cpp = f"{n} op{{}}; (void)op; " + sep_prints(*(f"typename {tr}::{m}{{}}" for m in ("ThrID", "SrcLayout",
                                                                                             "DstLayout", "RefLayout")))

        def compute(n=n):
            a = sc.copy_atom(n)
            return joined(a.thr_id, a.src_layout, a.dst_layout, a.ref_layout)
        out.append(Case(f"copy_bits#{n}", "copy_traits", f"copy_atom({n!r})", cpp, compute))
        for t in types:
            atom = f"Copy_Atom<{n},{t}>"
            cpp = (f"using A = {atom}; A a; (void)a; {n} op{{}}; (void)op; "
                   + sep_prints("typename A::ValLayoutSrc{}", "typename A::ValLayoutDst{}",
                                "typename A::ValLayoutRef{}", "A::NumValSrc", "A::NumValDst"))

            def compute(n=n, t=t):
                a = sc.copy_atom(n, t)
                return joined(a.val_layout_src, a.val_layout_dst, a.val_layout_ref, a.num_val_src, a.num_val_dst)
            out.append(Case(f"copy_vals#{n}#{t}", "copy_traits", f"copy_atom({n!r}, {t!r})", cpp, compute))
    return out


# --- TiledMMA ------------------------------------------------------------------------------------------

ATOM_LAYOUTS = [(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1), (2, 4, 1)]


def permutations_for(atom, lay) -> list:
    """No permutation, a Tile of ints doubling M and N, and layout permutations (a 2-way interleave)."""
    sm, sn, sk = (atom.shape_mnk[i] * lay[i] for i in range(3))
    return [None,
            (2 * sm, 2 * sn, sk),
            (Layout((2, sm), (sm, 1)), _, _),
            (_, Layout((2, sn), (sn, 1)), 2 * sk)]


def _perm_text(p) -> str:
    if p is None:
        return "None"
    return "(" + ", ".join("_" if x is _ else (repr(str(x)) if isinstance(x, Layout) else str(x)) for x in p) + ")"


def tiled_mma_case(atom_name: str, lay, perm, tag: str = "tiled_mma") -> Case:
    expr = tiled_mma_expr(atom_name, lay, perm)
    cpp = f"auto mma = {expr}; " + sep_prints(
        "mma.get_layoutA_TV()", "mma.get_layoutB_TV()", "mma.get_layoutC_TV()",
        "tile_size<0>(mma)", "tile_size<1>(mma)", "tile_size<2>(mma)", "mma.get_thr_layout_vmnk()")

    def compute():
        m = sc.make_tiled_mma(atom_name, lay, perm)
        return joined(m.get_layoutA_TV(), m.get_layoutB_TV(), m.get_layoutC_TV(),
                      m.tile_size(0), m.tile_size(1), m.tile_size(2), m.get_thr_layout_vmnk())
    text = f"make_tiled_mma({atom_name!r}, {lay}, {_perm_text(perm)})"
    return Case(f"{tag}#{atom_name}#{lay}#{_perm_text(perm)}", tag, text, cpp, compute)


def tiled_mma_operand_case(atom_name: str, lay, op: str) -> Case:
    """One operand alone (for atoms with one upstream-defective operand)."""
    expr = tiled_mma_expr(atom_name, lay, None)
    cpp = f"auto mma = {expr}; print(mma.get_layout{op}_TV());"

    def compute():
        return str(sc.make_tiled_mma(atom_name, lay).get_layout_TV(op))
    return Case(f"tiled_mma_op#{atom_name}#{lay}#{op}", "tiled_mma", f"make_tiled_mma({atom_name!r}, {lay})"
                f".get_layout{op}_TV()", cpp, compute)


# --- fragments -----------------------------------------------------------------------------------------

def fragment_case(atom_name: str, lay, perm, thr: int, scale: int) -> Case:
    """partition_fragment_A/B/C of a register tensor of the tile's shape (times ``scale`` in M/N and K)."""
    m = sc.make_tiled_mma(atom_name, lay, perm)
    tm, tn, tk = m.tile_size(0), m.tile_size(1), m.tile_size(2)
    sa, sb, scc = (tm * scale, tk * scale), (tn * scale, tk), (tm * scale, tn)
    expr = tiled_mma_expr(atom_name, lay, perm)

    def shape_cpp(s):
        return f"make_tensor<float>(Shape<Int<{s[0]}>,Int<{s[1]}>>{{}})"
    cpp = (f"auto mma = {expr}; auto thr = mma.get_slice({thr}); "
           + sep_prints(f"thr.partition_fragment_C({shape_cpp(scc)}).layout()",
                        f"thr.partition_A({shape_cpp(sa)}).layout()",
                        f"thr.partition_fragment_A({shape_cpp(sa)}).layout()",
                        f"thr.partition_fragment_B({shape_cpp(sb)}).layout()"))

    def compute():
        s = m.get_slice(thr)
        return joined(s.partition_fragment_C(scc), s.partition_A(sa), s.partition_fragment_A(sa),
                      s.partition_fragment_B(sb))
    return Case(f"fragment#{atom_name}#{lay}#{_perm_text(perm)}#{thr}#{scale}", "fragment",
                f"make_tiled_mma({atom_name!r}, {lay}, {_perm_text(perm)}).get_slice({thr})"
                f".partition_fragment_A({sa})", cpp, compute)


# --- TiledCopy -----------------------------------------------------------------------------------------

def tiled_copy_case(copy_name: str, vtype: str, atom_name: str, lay, perm, op: str, scale: int = 1) -> Case:
    """make_tiled_copy_{op}: TiledLayout_TV, Tiler, S/D TV layouts, and (A/B) retile_D of a fragment."""
    expr = tiled_mma_expr(atom_name, lay, perm)
    m = sc.make_tiled_mma(atom_name, lay, perm)
    i, j = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[op]
    shape = (m.tile_size(i) * scale, m.tile_size(j) * scale)
    frag_cpp = f"thr.partition_fragment_{op}(make_tensor<float>(Shape<Int<{shape[0]}>,Int<{shape[1]}>>{{}}))"
    cpp = (f"auto mma = {expr}; auto tc = make_tiled_copy_{op}(Copy_Atom<{copy_name},{vtype}>{{}}, mma); "
           f"auto thr = mma.get_slice(0); auto frg = {frag_cpp}; "
           + sep_prints("typename decltype(tc)::TiledLayout_TV{}", "typename decltype(tc)::Tiler_MN{}",
                        "tc.get_layoutS_TV()", "tc.get_layoutD_TV()",
                        "tc.get_slice(0).retile_D(frg).layout()", "tc.get_slice(0).retile_S(frg).layout()"))

    def compute():
        tc = getattr(sc, f"make_tiled_copy_{op}")(sc.copy_atom(copy_name, vtype), m)
        frg = getattr(m.get_slice(0), f"partition_fragment_{op}")(shape)
        return joined(tc.layout_tv, tc.tiler_mn, tc.get_layoutS_TV(), tc.get_layoutD_TV(),
                      tc.get_slice(0).retile_D(frg), tc.get_slice(0).retile_S(frg))
    return Case(f"tiled_copy#{copy_name}#{vtype}#{atom_name}#{lay}#{_perm_text(perm)}#{op}#{scale}", "tiled_copy",
                f"make_tiled_copy_{op}(copy_atom({copy_name!r}, {vtype!r}), make_tiled_mma({atom_name!r}, {lay}, "
                f"{_perm_text(perm)}))", cpp, compute)


def make_tiled_copy_case(copy_name: str, vtype: str, thr: Layout, val: Layout, thr_idx: int = 3) -> Case:
    rows, cols = (sc.size(thr[0]) * sc.size(val[0]) * 2, sc.size(thr[1]) * sc.size(val[1]) * 2) \
        if thr.rank == 2 else (sc.size(thr) * sc.size(val) * 2, 1)
    tensor = Layout((rows, cols))
    cpp = (f"auto tc = make_tiled_copy(Copy_Atom<{copy_name},{vtype}>{{}}, {layout_type(thr)}{{}}, "
           f"{layout_type(val)}{{}}); auto t = make_tensor<{vtype}>({layout_type(tensor)}{{}}); "
           + sep_prints("typename decltype(tc)::TiledLayout_TV{}", "typename decltype(tc)::Tiler_MN{}",
                        "tc.get_layoutS_TV()", "tc.get_layoutD_TV()",
                        f"tc.get_slice({thr_idx}).partition_S(t).layout()",
                        f"tc.get_slice({thr_idx}).partition_D(t).layout()"))

    def compute():
        tc = sc.make_tiled_copy(sc.copy_atom(copy_name, vtype), thr, val)
        s = tc.get_slice(thr_idx)
        return joined(tc.layout_tv, tc.tiler_mn, tc.get_layoutS_TV(), tc.get_layoutD_TV(),
                      s.partition_S(tensor), s.partition_D(tensor))
    return Case(f"make_tiled_copy#{copy_name}#{vtype}#{thr}#{val}", "make_tiled_copy",
                f"make_tiled_copy(copy_atom({copy_name!r}, {vtype!r}), {str(thr)!r}, {str(val)!r})", cpp, compute)


def seed_cases() -> list[Case]:
    """The seed document's configuration, every value it names."""
    atom = "SM80_16x8x16_F16F16F16F16_TN"
    expr = tiled_mma_expr(atom, (2, 2, 1), None)
    cpp = (f"auto mma = {expr}; auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{{}}, mma); "
           "auto frg = mma.get_slice(0).partition_fragment_A(make_tensor<half_t>(Shape<_32,_16>{})); "
           + sep_prints("mma.get_layoutA_TV()", "typename decltype(tc)::TiledLayout_TV{}",
                        "typename decltype(tc)::Tiler_MN{}", "frg.layout()",
                        "tc.get_slice(0).retile_D(frg).layout()"))

    def compute():
        m = sc.make_tiled_mma(atom, (2, 2, 1))
        tc = sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x2_LDSM_N", "half_t"), m)
        frg = m.get_slice(0).partition_fragment_A((32, 16))
        return joined(m.get_layoutA_TV(), tc.layout_tv, tc.tiler_mn, frg, tc.get_slice(0).retile_D(frg))
    return [Case("seed#retile_D", "seed", "the seed's retile_D chain", cpp, compute)]


def bad_config_cases() -> list[Case]:
    """Inputs CuTe refuses (symcute must raise), and near-misses CuTe accepts."""
    out = []
    for atom, lay, perm in [
        ("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (24, _, _)),       # 24 is not a multiple of the atom's 16
        ("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1), (Layout((2, 8), (3, 1)), _, _)),  # refused: non-injective
        ("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1), (16, 8, 12)),      # refused: Shape Divisibility Condition
        ("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1), (Layout(16, 2), _, _)),  # a strided permutation (accepted)
        ("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (_, _, 8)),        # K tile smaller than the atom
        ("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1), (Layout((4, 4), (1, 8)), _, _)),  # a non-bijective perm
        ("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 2), None),              # a K-split atom layout
        ("SM70_8x8x4_F16F16F16F16_TN", (2, 2, 1), (_, Layout((2, 8), (8, 1)), _)),
    ]:
        out.append(tiled_mma_case(atom, lay, perm, "tiled_mma_edge"))
    return out


# --- swizzled tensors -----------------------------------------------------------------------------

SWIZZLED_COPIES = [  # (copy op, value type, thread layout, value layout, swizzled smem layouts of the tile's multiples)
    ("UniversalCopy<uint32_t>", "half_t", Layout((8, 4), (4, 1)), Layout((1, 2)),
     ["Sw<3,3,3> o 0 o (8,64):(64,1)", "Sw<2,3,3> o 0 o (8,32):(32,1)", "Sw<3,3,3> o 512 o (8,64):(64,1)",
      ("GMMA::Layout_K_SW128_Atom", "half_t", (16, 64)), ("GMMA::Layout_MN_SW64_Atom", "half_t", (32, 16))]),
    ("UniversalCopy<uint128_t>", "half_t", Layout((16, 8), (8, 1)), Layout((1, 8)),
     ["Sw<3,4,3> o 0 o (16,64):(64,1)", ("GMMA::Layout_K_SW128_Atom", "half_t", (32, 64)),
      "Sw<3,3,3> o 0 o ((8,2),(64,1)):((64,512),(1,0))"]),
    ("UniversalCopy<uint64_t>", "float", Layout((4, 8), (8, 1)), Layout((1, 2)),
     ["Sw<2,2,3> o 0 o (8,32):(32,1)", ("GMMA::Layout_K_SW64_Atom", "float", (8, 32))]),
]


def _swizzled_tensor(spec):
    """(symcute value, C++ expression of the tensor) of a swizzled smem tensor."""
    if isinstance(spec, tuple):
        name, vtype, shape = spec
        ns, atom = name.split("::")
        value = sc.tile_to_shape(sc.smem_layout_atom(name, vtype), shape)
        layout_cpp = (f"tile_to_shape(SM90::GMMA::{atom}<{vtype}>{{}}, Shape<Int<{shape[0]}>,Int<{shape[1]}>>{{}})")
        return value, f"make_tensor(make_smem_ptr(({vtype}*)nullptr), {layout_cpp})", vtype
    from symcute.oracle import cpp_value
    return sc.parse_layout(spec), f"make_tensor(make_smem_ptr((half_t*)nullptr), {cpp_value(spec)})", None


def swizzled_partition_case(copy_name: str, vtype: str, thr: Layout, val: Layout, spec, thr_idx: int) -> Case:
    """partition_S / partition_D of a swizzled smem tensor (thread index static: CuTe's slice then decays
    the swizzle into static per-bit strides, as symcute's static values do), and retile of the partition."""
    value, tensor_cpp, tv = _swizzled_tensor(spec)
    vtype = tv or vtype
    cpp = (f"auto tc = make_tiled_copy(Copy_Atom<{copy_name},{vtype}>{{}}, {layout_type(thr)}{{}}, "
           f"{layout_type(val)}{{}}); auto t = {tensor_cpp}; auto thr = tc.get_slice(Int<{thr_idx}>{{}}); "
           + sep_prints("t.layout()", "thr.partition_S(t).layout()", "thr.partition_D(t).layout()",
                        "tc.retile(thr.partition_S(t)).layout()"))

    def compute():
        tc = sc.make_tiled_copy(sc.copy_atom(copy_name, vtype), thr, val)
        s = tc.get_slice(thr_idx)
        tensor = value.inner if isinstance(value.offset, sc.core.composed.SmemPtrFlag) else value
        return joined(tensor, s.partition_S(value), s.partition_D(value), tc.retile(s.partition_S(value)))
    return Case(f"swizzled_partition#{copy_name}#{vtype}#{spec}#{thr_idx}", "swizzled_partition",
                f"make_tiled_copy(copy_atom({copy_name!r}, {vtype!r}), {str(thr)!r}, {str(val)!r})"
                f".get_slice({thr_idx}).partition_S({value})", cpp, compute)


def swizzled_partition_cases() -> list[Case]:
    return [swizzled_partition_case(c, v, t, w, spec, i) for c, v, t, w, specs in SWIZZLED_COPIES
            for spec in specs for i in (0, 3, 9, 31)]
