"""Cases for the Blackwell / sparse-Hopper atoms: UMMA, SM120, sparse GMMA traits; SM100 and TMA copy traits.

Each case prints the traits CuTe defines (ThrID, Shape_MNK, A/B/C layouts and
the extra ELayout / SFALayout / SFBLayout; for copies ThrID, ValID, Src/Dst/Ref
and the value-type forms) and computes the same text with symcute.  Samples
cover every family and every parameter axis (M, N, majors, value types, VS,
ScaleC, saturate); ``SYMCUTE_LARGE=1`` takes every allowed (M, N).
"""

from __future__ import annotations

import symcute as sc
from symcute.atoms import mma_gmma as gmma
from symcute.atoms import mma_gmma_sparse as sparse
from symcute.atoms import mma_sm120 as sm120
from symcute.atoms import mma_umma as umma
from symcute.atoms.copy_catalog import FIXED, TMA
from symcute.atoms.copy_sm100_data import ROWS as SM100_COPY_ROWS

from .atoms_cases import Case, joined
from .atoms_cpp import sep_prints


def traits_type(name: str) -> str:
    return name if name.startswith("MMA_Traits<") else f"MMA_Traits<{name}>"


def mma_case(name: str, tag: str, extra: tuple = (), construct: bool = True) -> Case:
    """Print the traits of ``name`` (and its extra layouts); ``construct`` instantiates the op (its static_asserts)."""
    t = traits_type(name)
    members = ("ThrID", "Shape_MNK", "ALayout", "BLayout", "CLayout") + tuple(extra)
    op = "" if name.startswith("MMA_Traits<") or not construct else f"{name} op{{}}; (void)op; "
    cpp = f"using T = {t}; " + op + sep_prints(*(f"typename T::{m}{{}}" for m in members))

    def compute():
        a = sc.mma_atom(name)
        got = [a.extra_layout(m) for m in extra]
        if any(g is None for g in got):
            raise AssertionError(f"{name}: symcute has no {extra}")
        return joined(a.thr_id, a.shape_mnk, a.a_layout, a.b_layout, a.c_layout, *got)
    return Case(f"{tag}#{name}", tag, f"mma_atom({name!r})", cpp, compute)


def _spell(fam, a: dict) -> str:
    return umma.canonical(fam, a)


def _umma_args(fam, m: int, n: int, a_major="K", b_major="K", types=None, **kw) -> dict:
    d = fam.defaults
    t = types or d
    a = {"a_type": t[0], "b_type": t[1], "c_type": t[2], "M": m, "N": n, "a_major": a_major, "b_major": b_major,
         "a_neg": "One", "b_neg": "One", "c_sat": "False"}
    if any(p == "sf_type" for _, p, _ in fam.params):
        a["sf_type"] = t[3] if len(t) > 3 else d[3]
    if any(p == "VS" for _, p, _ in fam.params):
        a["VS"] = d[-1]
    if any(p == "ScaleC" for _, p, _ in fam.params):
        a["ScaleC"] = 1
    a.update(kw)
    return a


# other value types per family kind (a_type, b_type, c_type[, sf_type])
_OTHER_TYPES = {
    "tf32": [("float", "float", "float")],
    "f16": [("bfloat16_t", "bfloat16_t", "float"), ("half_t", "half_t", "half_t")],
    "i8": [("uint8_t", "int8_t", "int32_t")],
    "f8f6f4": [("float_e5m2_t", "float_e2m1_t", "half_t"), ("float_e2m3_t", "float_e3m2_t", "float")],
    "mxf8f6f4": [("float_e2m1_t", "float_e5m2_t", "float", "float_ue8m0_t")],
    "mxf4nvf4": [("float_e2m1_t", "float_e2m1_t", "float", "float_ue4m3_t")],
}


def umma_cases(large: bool) -> list:
    out = []
    for fam in umma.FAMILIES:
        configs = []
        for m in fam.m:
            rule = fam.n["K"] if "K" in fam.n else fam.n[m]
            ns = rule.values() if large else sorted({rule.values()[0], rule.values()[-1],
                                                     rule.values()[len(rule.values()) // 2]})
            configs += [_umma_args(fam, m, n) for n in ns]
        m0 = fam.m[-1]
        rule0 = fam.n["K"] if "K" in fam.n else fam.n[m0]
        n0 = rule0.values()[-1]
        # majors, negation, saturation, ScaleC, value types
        if not fam.k_major_only:
            configs.append(_umma_args(fam, m0, n0, b_major="MN"))
            if fam.source == "SS":
                configs.append(_umma_args(fam, m0, n0, a_major="MN", b_major="MN"))
        if any(p == "a_neg" for _, p, _ in fam.params):
            configs.append(_umma_args(fam, m0, n0, a_neg="Neg"))
        if any(p == "c_sat" for _, p, _ in fam.params):
            configs.append(_umma_args(fam, m0, n0, c_sat="True"))
        if any(p == "ScaleC" for _, p, _ in fam.params):
            configs.append(_umma_args(fam, m0, n0, ScaleC=3))
        if fam.vs and len(fam.vs) > 1:
            configs.append(_umma_args(fam, m0, n0, VS=min(fam.vs)))
        for types in _OTHER_TYPES.get(fam.kind, []):
            if fam.kind == "mxf4nvf4":    # ue4m3 scale factors: the narrower vector size only
                configs.append(_umma_args(fam, m0, n0, types=types, VS=min(fam.vs)))
            else:
                configs.append(_umma_args(fam, m0, n0, types=types))
        seen = set()
        for a in configs:
            name = _spell(fam, a)
            if name not in seen:
                seen.add(name)
                out.append(mma_case(name, "umma_traits"))
    return out


def umma_refusal_cases() -> list:
    """Arguments CuTe's static_asserts refuse: symcute must raise for each."""
    f16 = umma.BY_NAME["SM100_MMA_F16BF16_SS"]
    ts = umma.BY_NAME["SM100_MMA_F16BF16_TS"]
    f8 = umma.BY_NAME["SM100_MMA_F8F6F4_SS"]
    s8 = umma.BY_NAME["SM100_MMA_S8_SS"]
    two = umma.BY_NAME["SM100_MMA_TF32_2x1SM_SS"]
    names = [
        _spell(f16, _umma_args(f16, 96, 64)),                                 # M
        _spell(f16, _umma_args(f16, 128, 12)),                                # N
        _spell(f16, _umma_args(f16, 128, 64, types=("float", "float", "float"))),   # 32-bit types
        _spell(ts, _umma_args(ts, 128, 64, a_major="MN")),                    # TS: A from TMEM K-major
        _spell(ts, _umma_args(ts, 128, 8)),                                   # TS M=128 needs N % 16
        _spell(ts, _umma_args(ts, 64, 8)),                                    # accepted: M=64, N=8
        _spell(f8, _umma_args(f8, 128, 8, b_major="MN")),                     # f8f6f4 MN-major B needs N % 16
        _spell(f8, _umma_args(f8, 128, 8)),                                   # accepted
        _spell(s8, _umma_args(s8, 128, 24)),                                  # S8: 8 or multiple of 16
        _spell(s8, _umma_args(s8, 128, 64, types=("int8_t", "int8_t", "float"))),   # S8 SS: int32_t only
        _spell(two, _umma_args(two, 64, 64)),                                 # 2x1SM: M 128 or 256
    ]
    return [mma_case(n, "umma_traits") for n in names]


def ffma2_cases() -> list:
    return [mma_case(n, "umma_traits") for n in umma.FFMA2]


def sparse_gmma_cases(large: bool) -> list:
    out = []
    rows = sparse.all_base_names(extended=True)
    for i, (base, fam, n, source) in enumerate(rows):
        if not large and not (n in (8, 256) or (n in gmma.EXT_N and i % 11 == 0)):
            continue
        if not large and n in (8, 256) and i % 3:
            continue
        out.append(mma_case(base + sparse.default_arguments(fam), "sparse_gmma_traits", ("ELayout",)))
    extra = ["SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K,GMMA::ScaleIn::Neg>",
             "SM90::GMMA::SPARSE::GMMA_64x64x32_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::MN,GMMA::ScaleIn::One,"
             "GMMA::ScaleIn::One,GMMA::SparseSel::One>",
             "SM90::GMMA::SPARSE::GMMA_64x64x32_F32BF16BF16_RS<GMMA::Major::MN,GMMA::Major::K>",  # refused
             "SM90::GMMA::SPARSE::GMMA_64x128x16_F32TF32TF32_RS_TN<GMMA::ScaleIn::Neg>",
             "SM90::GMMA::SPARSE::GMMA_64x128x64_S32U8S8_SS_TN_SATURATE<GMMA::SparseSel::One>"]
    out += [mma_case(n, "sparse_gmma_traits", ("ELayout",)) for n in extra]
    return out


def sm120_cases(large: bool) -> list:
    out = []
    for fam in sm120.FAMILIES:
        combos = sorted(fam.combos)
        pick = combos if large else combos[:: max(1, len(combos) // 4)]
        extra = tuple(k for k, _ in fam.extra)
        for t in pick:
            name = f"{fam.name}<{','.join(t)}" + (",32>" if fam.vs else ">")
            out.append(mma_case(name, "sm120_traits", extra))
    bad = ["SM120_16x8x32_TN<half_t,half_t,float>",
           "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,32>"]
    out += [mma_case(n, "sm120_traits") for n in bad]
    return out


COPY_TYPES_SM100 = ["uint32_t", "half_t", "uint8_t", "float"]


def sm100_copy_cases(large: bool) -> list:
    out = []
    for i, (name, thr, val_id, *_rest) in enumerate(SM100_COPY_ROWS):
        tr = f"Copy_Traits<{name}>"
        members = ["ThrID"] + (["ValID"] if val_id else []) + ["SrcLayout", "DstLayout", "RefLayout"]
        cpp = f"{name} op{{}}; (void)op; " + sep_prints(*(f"typename {tr}::{m}{{}}" for m in members))

        def compute(name=name, has_val=bool(val_id)):
            a = sc.copy_atom(name)
            parts = [a.thr_id] + ([a.val_id] if has_val else []) + [a.src_layout, a.dst_layout, a.ref_layout]
            return joined(*parts)
        out.append(Case(f"sm100_copy_bits#{name}", "sm100_copy_traits", f"copy_atom({name!r})", cpp, compute))
        types = COPY_TYPES_SM100 if large else [COPY_TYPES_SM100[i % len(COPY_TYPES_SM100)]]
        for t in types:
            atom = f"Copy_Atom<{name},{t}>"
            cpp = (f"using A = {atom}; A a; (void)a; "
                   + sep_prints("typename A::ValLayoutSrc{}", "typename A::ValLayoutDst{}",
                                "typename A::ValLayoutRef{}", "A::NumValSrc", "A::NumValDst"))

            def compute(name=name, t=t):
                a = sc.copy_atom(name, t)
                return joined(a.val_layout_src, a.val_layout_dst, a.val_layout_ref, a.num_val_src, a.num_val_dst)
            out.append(Case(f"sm100_copy_vals#{name}#{t}", "sm100_copy_traits", f"copy_atom({name!r}, {t!r})",
                            cpp, compute))
    return out


def tma_cases() -> list:
    out = []
    for name, (_, _, _, n_extra) in TMA.items():
        for bits in (4096, 256):
            args = f"Int<{bits}>" + (",int" * (n_extra or 0))
            spelled = f"Copy_Traits<{name},{args}>"
            cpp = f"using T = {spelled}; " + sep_prints(*(f"typename T::{m}{{}}" for m in
                                                          ("ThrID", "SrcLayout", "DstLayout", "RefLayout")))

            def compute(spelled=spelled):
                a = sc.copy_atom(spelled)
                return joined(a.thr_id, a.src_layout, a.dst_layout, a.ref_layout)
            out.append(Case(f"tma_traits#{spelled}", "tma_traits", f"copy_atom({spelled!r})", cpp, compute))
    return out


def catalog_counts() -> dict:
    """Families and rows per family kind, for the report."""
    return {"umma_families": len(umma.FAMILIES), "sm120_families": len(sm120.FAMILIES),
            "sparse_gmma": len(sparse.all_base_names()), "sm100_copy": len(SM100_COPY_ROWS),
            "fixed_copy": len(FIXED)}


# --- TiledMMA over the new atoms, UMMA fragments in TMEM, make_tmem_copy ------------------------------------

TILED_ATOMS = [
    "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_SS<half_t,half_t,float,64,64,UMMA::Major::MN,UMMA::Major::K>",
    "SM100_MMA_TF32_2x1SM_SS<tfloat32_t,tfloat32_t,float,256,128,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_2x1SM_TS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_S8_TS<int8_t,int8_t,int32_t,64,64,UMMA::Major::K,UMMA::Major::MN>",
    "MMA_Traits<SM100_MMA_F8F6F4_SS,float_e4m3_t,float_e2m1_t,float,C<128>,C<128>,"
    "integral_constant<UMMA::Major,UMMA::Major::K>,integral_constant<UMMA::Major,UMMA::Major::K>,"
    "integral_constant<UMMA::ScaleIn,UMMA::ScaleIn::One>,integral_constant<UMMA::ScaleIn,UMMA::ScaleIn::One>>",
    "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,32,UMMA::Major::K,UMMA::Major::K>",
    "SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90::GMMA::SPARSE::GMMA_64x32x64_S32S8S8_RS_TN<>",
    "SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,float>",
    "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,32>",
    "SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,float>",
]


def _expr_name(name: str) -> str:
    """The C++ object make_tiled_mma takes: the op, or MMA_Atom<MMA_Traits<...>> for the traits-argument form."""
    return f"MMA_Atom<{name}>" if name.startswith("MMA_Traits<") else name


def tiled_cases(large: bool) -> list:
    from symcute.core import Layout, _
    from .atoms_cases import tiled_mma_case
    out = []
    for name in TILED_ATOMS:
        a = sc.mma_atom(name)
        m, n, k = a.shape_mnk
        lays = [(1, 1, 1), (2, 1, 1), (1, 2, 1)] + ([(2, 2, 1)] if large else [])
        for i, lay in enumerate(lays):
            perms = [None, (2 * m * lay[0], n * lay[1], k)]
            if large:
                perms.append((Layout((2, m * lay[0]), (m * lay[0], 1)), _, _))
            else:   # CI: one permutation per atom layout, alternating
                perms = [perms[(i + len(name)) % 2]]
            for p in perms:
                c = tiled_mma_case(_expr_name(name), lay, p, "tiled_new")
                out.append(Case(c.key, c.op, c.text, c.cpp, _compute_with(name, lay, p)))
    return out


def _compute_with(name, lay, p):
    from .atoms_cases import joined as j

    def compute():
        m = sc.make_tiled_mma(name, lay, p)
        return j(m.get_layoutA_TV(), m.get_layoutB_TV(), m.get_layoutC_TV(), m.tile_size(0), m.tile_size(1),
                 m.tile_size(2), m.get_thr_layout_vmnk())
    return compute


def fragment_cases(large: bool) -> list:
    """partition_A/C, partition_fragment_C (TMEM for UMMA) and partition_fragment_A (TMEM for _TS, registers for
    SM120; a shared-memory descriptor for SS, which both refuse on a register tensor)."""
    out = []
    for name in TILED_ATOMS:
        a = sc.mma_atom(name)
        m, n, k = a.shape_mnk
        thrs = sorted({0, a.thr_id.size() - 1, 5 % a.thr_id.size()}) if large else sorted({0, a.thr_id.size() - 1})
        for scale in ((1, 2) if large else (2,)):
            sc_shape, sa_shape = (m * scale, n * scale), (m * scale, k * 2)
            for thr in thrs:
                expr = (f"make_tiled_mma({_expr_name(name)}{{}})")

                def t(s, ty="float"):
                    return f"make_tensor<{ty}>(Shape<Int<{s[0]}>,Int<{s[1]}>>{{}})"
                cpp = (f"auto mma = {expr}; auto thr = mma.get_slice({thr}); "
                       + sep_prints(f"thr.partition_C({t(sc_shape)}).layout()",
                                    f"thr.partition_fragment_C({t(sc_shape)}).layout()",
                                    f"thr.partition_A({t(sa_shape)}).layout()"))

                def compute(name=name, thr=thr, sc_shape=sc_shape, sa_shape=sa_shape):
                    s = sc.make_tiled_mma(name).get_slice(thr)
                    return joined(s.partition_C(sc_shape), s.partition_fragment_C(sc_shape), s.partition_A(sa_shape))
                out.append(Case(f"fragment_new#{name}#{thr}#{scale}", "fragment_new",
                                f"make_tiled_mma({name!r}).get_slice({thr}).partition_fragment_C({sc_shape})",
                                cpp, compute))
                vt = a.val_type_a if not (a.val_type_a or "").startswith("sparse") else "uint8_t"
                if "uint4" in str(vt) or "e2m1" in str(vt):
                    continue
                cpp = (f"auto mma = {expr}; auto thr = mma.get_slice({thr}); "
                       f"print(thr.partition_fragment_A({t(sa_shape, vt)}).layout());")

                def compute_a(name=name, thr=thr, sa_shape=sa_shape):
                    return str(sc.make_tiled_mma(name).get_slice(thr).partition_fragment_A(sa_shape))
                out.append(Case(f"fragment_new_A#{name}#{thr}#{scale}", "fragment_new",
                                f"make_tiled_mma({name!r}).get_slice({thr}).partition_fragment_A({sa_shape})",
                                cpp, compute_a))
    return out


def tmem_copy_cases(large: bool) -> list:
    """make_tmem_copy over TMEM tensors (plain (lanes, columns) layouts and UMMA accumulator allocations)."""
    from symcute.atoms.tmem import tmem_dp
    from symcute.core import Layout
    loads = [r[0] for r in SM100_COPY_ROWS if r[0].startswith(("SM100_TMEM_LOAD", "SM100_TMEM_STORE"))]
    picks = loads if large else [n for i, n in enumerate(loads) if i % 9 == 0] + [
        "SM100_TMEM_LOAD_32dp32b32x", "SM100_TMEM_LOAD_16dp256b1x", "SM100_TMEM_LOAD_16dp32b16x",
        "SM100_TMEM_STORE_32dp32b8x"]
    out = []
    seen = set()
    for name in picks:
        if name in seen:
            continue
        seen.add(name)
        for vt, cols in (("float", 256), ("half_t", 256)):
            if vt == "half_t" and not name.endswith("_16b") and not large:
                continue
            tm = Layout((128, cols), (tmem_dp(vt), 1))
            tmem = (f"make_tensor(make_tmem_ptr<{vt}>(0), Layout<Shape<_128,Int<{cols}>>,"
                    f"Stride<Int<{tmem_dp(vt)}>,_1>>{{}})")
            cpp = (f"auto tmem = {tmem}; auto tc = make_tmem_copy({name}{{}}, tmem); "
                   f"auto reg = make_tensor<{vt}>(Shape<_128,Int<{cols}>>{{}}); "
                   + sep_prints("typename decltype(tc)::TiledLayout_TV{}", "typename decltype(tc)::Tiler_MN{}",
                                "tc.get_slice(37).partition_S(tmem).layout()",
                                "tc.get_slice(37).partition_D(reg).layout()"))

            def compute(name=name, vt=vt, tm=tm, cols=cols):
                from symcute.atoms.builders import make_tmem_copy
                tc = make_tmem_copy(name, tm, vt)
                s = tc.get_slice(37)
                return joined(tc.layout_tv, _tiler_text(tc.tiler_mn), s.partition_S(tm), s.partition_D((128, cols)))
            out.append(Case(f"tmem_copy#{name}#{vt}#{cols}", "tmem_copy",
                            f"make_tmem_copy({name!r}, {str(tm)!r}, {vt!r})", cpp, compute))
    return out


def _tiler_text(tiler) -> str:
    if isinstance(tiler, tuple):
        return "(" + ",".join(str(x) for x in tiler) + ")"
    return str(tiler)


def utccp_copy_cases(large: bool) -> list:
    """make_utccp_copy over TMEM tensors of 128 lanes (every UTCCP atom; 32- and 8-bit values)."""
    from symcute.atoms.tmem import tmem_dp
    from symcute.core import Layout
    names = [r[0] for r in SM100_COPY_ROWS if r[0].startswith("SM100_UTCCP")]
    out = []
    for name in names:
        atom = sc.copy_atom(name)
        for vt in (("uint32_t", "uint8_t") if large else ("uint32_t",)):
            b = 32 if vt == "uint32_t" else 8
            # columns: the bits per lane the atom moves (the 4dp refresh: 256 bits of each of 128 lanes)
            cols = 256 // b if ("4dp" in name and "4x32" not in name) else max(1, atom.val_id.size() // 128 // b)
            tm = Layout((128, cols), (tmem_dp(vt), 1))
            tmem = (f"make_tensor(make_tmem_ptr<{vt}>(0), Layout<Shape<_128,Int<{cols}>>,"
                    f"Stride<Int<{tmem_dp(vt)}>,_1>>{{}})")
            cpp = (f"auto tmem = {tmem}; auto tc = make_utccp_copy({name}{{}}, tmem); "
                   + sep_prints("typename decltype(tc)::TiledLayout_TV{}", "typename decltype(tc)::Tiler_MN{}",
                                "tc.get_slice(0).partition_D(tmem).layout()"))

            def compute(name=name, vt=vt, tm=tm):
                from symcute.atoms.builders import make_utccp_copy
                tc = make_utccp_copy(name, tm, vt)
                return joined(tc.layout_tv, _tiler_text(tc.tiler_mn), tc.get_slice(0).partition_D(tm))
            out.append(Case(f"utccp_copy#{name}#{vt}#{cols}", "utccp_copy",
                            f"make_utccp_copy({name!r}, {str(tm)!r}, {vt!r})", cpp, compute))
    return out
