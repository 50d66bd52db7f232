"""The warp-level MMA atoms of CuTe 4.2 (``cute/atom/mma_traits_sm61|70|75|80|89|90.hpp``), as data.

Each row transcribes one ``MMA_Traits<Op>`` specialisation: name, Shape_MNK,
ThrID, ALayout, BLayout, CLayout (in CuTe's printed notation, strides
included), value types D/A/B/C, and one line of provenance: the PTX
instruction the arch header issues.  Traits that CuTe derives by inheritance
(``_SATURATE`` variants, other signedness) reuse their base's layouts here too.
"""

from __future__ import annotations

from .mma_atom import MMAAtom, UpstreamDefect

H61 = "cute/atom/mma_traits_sm61.hpp"
H70 = "cute/atom/mma_traits_sm70.hpp"
H75 = "cute/atom/mma_traits_sm75.hpp"
H80 = "cute/atom/mma_traits_sm80.hpp"
H89 = "cute/atom/mma_traits_sm89.hpp"
H90 = "cute/atom/mma_traits_sm90.hpp"

# --- shared layouts (the anonymous namespaces of the headers) -----------------------------
SM70_QuadPair = "(4,2):(1,16)"                         # logical thread id -> thread idx (quadpair)
SM70_8x4_Row = "(8,4):(1,8)"                           # (T8,V4) -> (M8,K4)
SM70_8x4_Col = "((4,2),4):((8,4),1)"                   # (T8,V4) -> (M8,K4)
SM70_8x8_16b = "(8,8):(1,8)"                           # (T8,V8) -> (M8,N8)
SM70_8x8_32b = "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))"  # (T8,V8) -> (M8,N8)
SM80_8x4 = "((4,8),1):((8,1),0)"                       # (T32,V1) -> (M8,N8)
SM80_8x8_Row = "((4,8),2):((16,1),8)"                  # (T32,V2) -> (M8,N8)
SM80_8x16_Row = "((4,8),4):((32,1),8)"                 # (T32,V4) -> (M8,N16)
SM80_16x8_Row = "((4,8),(2,2)):((32,1),(16,8))"        # (T32,V4) -> (M16,N8)
W32 = "32:1"

# value types (D, A, B, C)
F16 = ("half_t",) * 4
F32F16 = ("float", "half_t", "half_t", "float")
F32BF16 = ("float", "bfloat16_t", "bfloat16_t", "float")
F32TF32 = ("float", "tfloat32_t", "tfloat32_t", "float")
F64 = ("double",) * 4
C64 = ("complex<double>",) * 4


def _int_types(a: str, b: str) -> tuple:
    return ("int32_t", a, b, "int32_t")


# name, (M,N,K), ThrID, ALayout, BLayout, CLayout, types, header, PTX
_ROWS = [
    ("SM61_DP4A", (1, 1, 4), "1:0", "(1,4):(0,1)", "(1,4):(0,1)", "(1,1):(0,0)",
     _int_types("int8_t", "int8_t"), H61, "dp4a.s32.s32"),
    ("SM61_DP2A", (1, 1, 2), "1:0", "(1,2):(0,1)", "(1,2):(0,1)", "(1,1):(0,0)",
     _int_types("int16_t", "int16_t"), H61, "dp2a.s32.s32"),
]

for _tr, (_a, _b), _ptx in [("TN", (SM70_8x4_Row, SM70_8x4_Row), "row.col"),
                            ("NT", (SM70_8x4_Col, SM70_8x4_Col), "col.row"),
                            ("NN", (SM70_8x4_Col, SM70_8x4_Row), "col.col"),
                            ("TT", (SM70_8x4_Row, SM70_8x4_Col), "row.row")]:
    _ROWS.append((f"SM70_8x8x4_F16F16F16F16_{_tr}", (8, 8, 4), SM70_QuadPair, _a, _b, SM70_8x8_16b, F16, H70,
                  f"mma.sync.aligned.m8n8k4.{_ptx}.f16.f16.f16.f16"))
for _tr, (_a, _b), _ptx in [("TN", (SM70_8x4_Row, SM70_8x4_Row), "row.col"),
                            ("NT", (SM70_8x4_Col, SM70_8x4_Col), "col.row"),
                            ("NN", (SM70_8x4_Col, SM70_8x4_Row), "col.col"),
                            ("TT", (SM70_8x4_Row, SM70_8x4_Col), "row.row")]:
    _ROWS.append((f"SM70_8x8x4_F32F16F16F32_{_tr}", (8, 8, 4), SM70_QuadPair, _a, _b, SM70_8x8_32b, F32F16, H70,
                  f"mma.sync.aligned.m8n8k4.{_ptx}.f32.f16.f16.f32"))

_ROWS += [
    ("SM75_16x8x8_F32F16F16F32_TN", (16, 8, 8), W32, "((4,8),(2,2)):((32,1),(16,8))", "((4,8),2):((16,1),8)",
     "((4,8),(2,2)):((32,1),(16,8))", F32F16, H75, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"),
    ("SM75_8x8x16_S32S8S8S32_TN", (8, 8, 16), W32, "((4,8),4):((32,1),8)", "((4,8),4):((32,1),8)",
     "((4,8),2):((16,1),8)", _int_types("int8_t", "int8_t"), H75, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32"),
]

# SM80: the fp16 / bf16 / tf32 / fp64 atoms
_SM80_16x8x16_A = "((4,8),(2,2,2)):((32,1),(16,8,128))"
_SM80_16x8x16_B = "((4,8),(2,2)):((16,1),(8,64))"
_ROWS += [
    ("SM80_16x8x8_F16F16F16F16_TN", (16, 8, 8), W32, SM80_16x8_Row, SM80_8x8_Row, SM80_16x8_Row, F16, H80,
     "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16"),
    ("SM80_16x8x16_F16F16F16F16_TN", (16, 8, 16), W32, _SM80_16x8x16_A, _SM80_16x8x16_B, SM80_16x8_Row, F16, H80,
     "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"),
    ("SM80_16x8x8_F32F16F16F32_TN", (16, 8, 8), W32, SM80_16x8_Row, SM80_8x8_Row, SM80_16x8_Row, F32F16, H80,
     "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"),
    ("SM80_16x8x16_F32F16F16F32_TN", (16, 8, 16), W32, _SM80_16x8x16_A, _SM80_16x8x16_B, SM80_16x8_Row, F32F16, H80,
     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    ("SM80_16x8x8_F32BF16BF16F32_TN", (16, 8, 8), W32, SM80_16x8_Row, SM80_8x8_Row, SM80_16x8_Row, F32BF16, H80,
     "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32"),
    ("SM80_16x8x16_F32BF16BF16F32_TN", (16, 8, 16), W32, _SM80_16x8x16_A, _SM80_16x8x16_B, SM80_16x8_Row, F32BF16,
     H80, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("SM80_16x8x4_F32TF32TF32F32_TN", (16, 8, 4), W32, "((4,8),2):((16,1),8)", SM80_8x4, SM80_16x8_Row, F32TF32,
     H80, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32"),
    ("SM80_16x8x8_F32TF32TF32F32_TN", (16, 8, 8), W32, "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)",
     SM80_16x8_Row, F32TF32, H80, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"),
    ("SM80_8x8x4_F64F64F64F64_TN", (8, 8, 4), W32, SM80_8x4, SM80_8x4, SM80_8x8_Row, F64, H80,
     "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"),
    ("SM80_8x8x4_C64C64C64C64_TN", (8, 8, 4), W32, SM80_8x4, SM80_8x4, SM80_8x8_Row, C64, H80,
     "4x mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 (complex product)"),
    ("SM80_8x8x4_GC64C64C64GC64_TN", (8, 8, 4), W32, SM80_8x4, SM80_8x4, SM80_8x8_Row,
     ("SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex", "complex<double>", "complex<double>",
      "SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex"), H80,
     "3x mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 (Gauss complex product)"),
]

# SM80 integer atoms: one layout family per (M,N,K), every signedness and _SATURATE inherit it
_SM80_INT = {
    # (shape, A, B, C, bits)
    "8x8x16": ((8, 8, 16), SM80_8x16_Row, SM80_8x16_Row, SM80_8x8_Row, 8),
    "16x8x16": ((16, 8, 16), "((4,8),(4,2)):((64,1),(16,8))", SM80_8x16_Row, SM80_16x8_Row, 8),
    "16x8x32": ((16, 8, 32), "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))",
                SM80_16x8_Row, 8),
    "8x8x32": ((8, 8, 32), "((4,8),(8)):((64,1),(8))", "((4,8),(8)):((64,1),(8))", SM80_8x8_Row, 4),
    "16x8x32/4": ((16, 8, 32), "((4,8),(8,2)):((128,1),(16,8))", "((4,8),(8)):((32,1),(8))", SM80_16x8_Row, 4),
    "16x8x64": ((16, 8, 64), "((4,8),(8,2,2)):((128,1),(16,8,512))", "((4,8),(8,2)):((64,1),(8,256))",
                SM80_16x8_Row, 4),
}
_SIGNS = {8: [("S8", "S8"), ("S8", "U8"), ("U8", "S8"), ("U8", "U8")],
          4: [("S4", "S4"), ("S4", "U4"), ("U4", "S4"), ("U4", "U4")]}
_CTYPE = {"S8": "int8_t", "U8": "uint8_t", "S4": "int4b_t", "U4": "uint4b_t"}
for _key, (_shape, _a, _b, _c, _bits) in _SM80_INT.items():
    _mnk = "x".join(map(str, _shape))
    for _sa, _sb in _SIGNS[_bits]:
        for _sat in ("", "_SATURATE"):
            _ROWS.append((f"SM80_{_mnk}_S32{_sa}{_sb}S32_TN{_sat}", _shape, W32, _a, _b, _c,
                          _int_types(_CTYPE[_sa], _CTYPE[_sb]), H80,
                          f"mma.sync.aligned.m{_shape[0]}n{_shape[1]}k{_shape[2]}.row.col.s32."
                          f"{_sa.lower()}.{_sb.lower()}.s32" + (".satfinite" if _sat else "")))

# CuTe 4.2's BLayout of SM80_16x8x32_S32{S,U}4{S,U}4S32_TN strides the lane's quad index by 32 (k = 4*t0 + v)
# where PTX m16n8k32.s4 gives each lane 8 consecutive k (k = 8*t0 + v, stride 64, as SM80_8x8x32 has):
# kept as CuTe has it, flagged below and by `symcute lint`.
_SM80_16x8x32_S4_B_DEFECT = UpstreamDefect(
    operand="B",
    what="BLayout ((4,8),(8)):((32,1),(8)) maps the 32 threads x 8 values onto k = 4*t0 + v, so k in [20,32) is "
         "never reached and k in [4,20) is reached twice; PTX mma.m16n8k32.s4 gives lane t0 the k = 8*t0 .. 8*t0+7 "
         "(stride 64, as in SM80_8x8x32_S32S4S4S32_TN)",
    counterexample="(t=1,v=0) and (t=0,v=4) both map to B(n=0,k=4); B(n=0,k=20) is reached by no (thread, value) pair",
    upstream_text="((4,8),(8)):((32,1),(8))")

# SM80 single-bit atoms (XOR and AND popc share traits)
_B1 = ("int32_t", "uint1b_t", "uint1b_t", "int32_t")
# CuTe 4.2 writes this ALayout with a stride that is not congruent to its shape; kept verbatim below.
_SM80_16x8x128_A_UPSTREAM = "((4,8),(32,2)):((512,1),((16,8)))"
for _op in ("XORPOPC", "ANDPOPC"):
    _ptx = "xor.popc" if _op == "XORPOPC" else "and.popc"
    _ROWS += [
        (f"SM80_16x8x256_S32U1U1S32_TN_{_op}", (16, 8, 256), W32, "((4,8),(32,2,2)):((512,1),(16,8,2048))",
         "((4,8),(32,2)):((256,1),(8,1024))", SM80_16x8_Row, _B1, H80,
         f"mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.{_ptx}"),
        (f"SM80_8x8x128_S32U1U1S32_TN_{_op}", (8, 8, 128), W32, "((4,8),32):((256,1),8)",
         "((4,8),32):((256,1),8)", SM80_8x8_Row, _B1, H80,
         f"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.{_ptx}"),
        (f"SM80_16x8x128_S32U1U1S32_TN_{_op}", (16, 8, 128), W32, None,
         "((4,8),32):((256,1),8)", SM80_16x8_Row, _B1, H80,
         f"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.{_ptx}"),
    ]

_SM80_16x8x128_DEFECT = UpstreamDefect(
    operand="A",
    what="shape (32,2) and stride ((16,8)) of the value mode are not congruent (Stride<Stride<_16,_8>> "
         "should be Stride<_16,_8>), so CuTe rejects any evaluation of it (Mismatched Ranks)",
    counterexample="make_tiled_mma(SM80_16x8x128_S32U1U1S32_TN_XORPOPC{}).get_layoutA_TV() fails to compile: "
                   "no match for operator* between tuple<C<16>,C<8>> and C<1> (cute/layout.hpp); "
                   "evaluating ALayout{}(33) fails with static assertion 'Mismatched Ranks' (cute/stride.hpp)",
    upstream_text=_SM80_16x8x128_A_UPSTREAM)

# SM89 fp8 atoms: one layout family, eight type combinations
_FP8 = {"E4M3": "float_e4m3_t", "E5M2": "float_e5m2_t"}
for _d, _dt in (("F32", "float"), ("F16", "half_t")):
    for _a, _b in (("E4M3", "E4M3"), ("E4M3", "E5M2"), ("E5M2", "E5M2"), ("E5M2", "E4M3")):
        _ROWS.append((f"SM89_16x8x32_{_d}{_a}{_b}{_d}_TN", (16, 8, 32), W32,
                      "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", SM80_16x8_Row,
                      (_dt, _FP8[_a], _FP8[_b], _dt), H89,
                      f"mma.sync.aligned.m16n8k32.row.col.{_d.lower()}.{_a.lower()}.{_b.lower()}.{_d.lower()}"))

# SM90 fp64 / complex fp64 (the C++ names are aliases of SM90::MMA_16x8xK_...)
_SM90_F64 = {
    4: ("((4,8),2):((16,1),8)", "((4,8),1):((8,1),0)"),
    8: ("((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)"),
    16: ("((4,8),(2,4)):((16,1),(8,64))", "((4,8),4):((8,1),32)"),
}
for _k, (_a, _b) in _SM90_F64.items():
    _ROWS.append((f"SM90_16x8x{_k}_F64F64F64F64_TN", (16, 8, _k), W32, _a, _b, SM80_16x8_Row, F64, H90,
                  f"mma.sync.aligned.m16n8k{_k}.row.col.f64.f64.f64.f64"))
for _k, (_a, _b) in _SM90_F64.items():
    _ROWS.append((f"SM90_16x8x{_k}_C64C64C64C64_TN", (16, 8, _k), W32, _a, _b, SM80_16x8_Row, C64, H90,
                  f"4x mma.sync.aligned.m16n8k{_k}.row.col.f64.f64.f64.f64 (complex product)"))


def _arch(name: str) -> str:
    return "sm" + name[2:4]


_BY_ROW = {row[0]: row for row in _ROWS}
# every warp atom's name, in the catalog's order (no atom is built to list them)
WARP_ATOM_NAMES: tuple = tuple(_BY_ROW)
_BUILT: dict = {}


def warp_atom(name: str) -> MMAAtom | None:
    """The warp-level atom ``name`` (built, and its layouts parsed, on the first lookup), None if not one."""
    atom = _BUILT.get(name)
    if atom is None:
        row = _BY_ROW.get(name)
        if row is None:
            return None
        name, shape, thr, a, b, c, types, header, ptx = row
        defects = (_SM80_16x8x128_DEFECT,) if a is None else ()
        if name.startswith("SM80_16x8x32_S32") and ("S4" in name or "U4" in name):
            defects = (_SM80_16x8x32_S4_B_DEFECT,)
        atom = _BUILT[name] = MMAAtom(name, shape, thr, a, b, c, *types, header=header, ptx=ptx, arch=_arch(name),
                                      defects=defects)
    return atom


_ALL: dict = {}


def warp_atoms() -> dict:
    """name -> MMAAtom for every warp-level atom (one dict, built on the first call)."""
    if not _ALL:
        _ALL.update((name, warp_atom(name)) for name in WARP_ATOM_NAMES)
    return _ALL


def __getattr__(name: str):
    # WARP_ATOMS, the whole table, is built when first read: importing the catalog parses no layout
    if name == "WARP_ATOMS":
        return warp_atoms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# C++ aliases that name the same traits
ALIASES = {f"SM90::MMA_16x8x{k}_{t}_TN": f"SM90_16x8x{k}_{t}_TN"
           for k in (4, 8, 16) for t in ("F64F64F64F64", "C64C64C64C64")}
