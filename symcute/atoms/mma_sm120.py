"""The SM120 warp-level MMA atoms (``cute/atom/mma_traits_sm120.hpp``, ``mma_traits_sm120_sparse.hpp``).

SM120 (GeForce / workstation Blackwell) keeps SM80's warp-level ``mma.sync``
and adds the ``kind::f8f6f4`` / ``kind::mxf8f6f4`` / ``kind::mxf4nvf4`` forms.
Each op is a class template over its value types; only the type combinations
specialised in ``cute/arch/mma_sm120*.hpp`` exist (the primary template is a
``static_assert(dependent_false)`` "No MMA matches ... for given data types").
The block-scaled forms add the scale-factor layouts ``SFALayout``/``SFBLayout``
(their thread modes hold stride-0 sub-axes: "effectively 16 threads due to the
2:0 mode"); the sparse forms add the metadata layout ``ELayout``.  ``VS`` (the
scale vector size) is checked only inside the device ``fma`` in CuTe 4.2, so
any VS is accepted here too.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError
from .mma_atom import MMAAtom
from .spelling import type_name

HEADER = "cute/atom/mma_traits_sm120.hpp"
HEADER_SPARSE = "cute/atom/mma_traits_sm120_sparse.hpp"

ROW = "((4,8),(2,2)):((32,1),(16,8))"       # SM80_16x8_Row / SM120_16x8_Row: (T32,V4) -> (M16,N8)
F8F6F4 = ("float_e2m1_t", "float_e2m3_t", "float_e3m2_t", "float_e4m3_t", "float_e5m2_t")
_PTX_T = {"float_e2m1_t": "e2m1", "float_e2m3_t": "e2m3", "float_e3m2_t": "e3m2", "float_e4m3_t": "e4m3",
          "float_e5m2_t": "e5m2", "float": "f32", "half_t": "f16", "float_ue8m0_t": "ue8m0",
          "float_ue4m3_t": "ue4m3"}


@dataclass(frozen=True)
class Family:
    name: str           # with its namespace, as the C++ spells it
    header: str
    shape: tuple
    a: str
    b: str
    extra: tuple        # (trait name, layout) pairs: SFALayout, SFBLayout, ELayout
    combos: frozenset   # allowed (a, b, c[, sf]) type tuples
    vs: bool            # takes <..., sf_type, int VS>
    val_ab: str         # ValTypeA/B as the traits define them (uint8_t / uint4_t)
    ptx: str
    sparse: bool = False


_NON_VS = frozenset((a, b, c) for a in F8F6F4 for b in F8F6F4 for c in ("float", "half_t"))
_VS32 = frozenset((a, b, "float", "float_ue8m0_t") for a in F8F6F4 for b in F8F6F4)
_VS4 = frozenset(("float_e2m1_t", "float_e2m1_t", "float", sf) for sf in ("float_ue4m3_t", "float_ue8m0_t"))

_SF32 = (("SFALayout", "((2,2,8),32):((8,0,1),16)"), ("SFBLayout", "((4,8),32):((0,1),8)"))
_SF64 = (("SFALayout", "((2,2,8),64):((8,0,1),16)"), ("SFBLayout", "((4,8),64):((0,1),8)"))
_SF128 = (("SFALayout", "((2,2,8),128):((8,0,1),16)"), ("SFBLayout", "((4,8),128):((0,1),8)"))
_A32 = "((4,8),(4,2,2)):((64,1),(16,8,256))"      # SM80_16x8x32_S32S8S8S32_TN's layouts
_B32 = "((4,8),(4,2)):((32,1),(8,128))"
_A64 = "((4,8),(8,2,2)):((128,1),(16,8,512))"

FAMILIES = (
    Family("SM120_16x8x32_TN", HEADER, (16, 8, 32), _A32, _B32, (), _NON_VS, False, "uint8_t",
           "mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col"),
    Family("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS", HEADER, (16, 8, 32), _A32, _B32, _SF32, _VS32, True,
           "uint8_t", "mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col"),
    Family("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS", HEADER, (16, 8, 64), _A64, "((4,8),(8,2)):((64,1),(8,256))",
           _SF64, _VS4, True, "uint4_t", "mma.sync.aligned.kind::mxf4nvf4.block_scale.m16n8k64.row.col"),
    Family("SM120::SPARSE::SM120_SPARSE_16x8x64_TN", HEADER_SPARSE, (16, 8, 64), _A64,
           "((4,8),(4,4)):((32,1),(8,128))", (("ELayout", "((2,2,8),32):((8,512,1),16)"),), _NON_VS, False,
           "uint8_t", "mma.sync.aligned.kind::f8f6f4.sp::ordered_metadata.m16n8k64.row.col", sparse=True),
    Family("SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS", HEADER_SPARSE, (16, 8, 64), _A64,
           "((4,8),(4,4)):((32,1),(8,128))", (("ELayout", "((2,2,8),32):((8,512,1),16)"),) + _SF64, _VS32, True,
           "uint8_t", "mma.sync.aligned.kind::mxf8f6f4.sp::ordered_metadata.block_scale.m16n8k64.row.col",
           sparse=True),
    Family("SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS", HEADER_SPARSE, (16, 8, 128),
           "((4,8),(16,2,2)):((256,1),(16,8,1024))", "((4,8),(8,4)):((64,1),(8,256))",
           (("ELayout", "((2,2,8),(64)):((8,1024,1),(16))"),) + _SF128, _VS4, True, "uint4_t",
           "mma.sync.aligned.kind::mxf4nvf4.sp::ordered_metadata.block_scale.m16n8k128.row.col", sparse=True),
)

BY_NAME = {}
for _f in FAMILIES:
    parts = _f.name.split("::")
    for i in range(len(parts)):      # every namespace-qualified suffix spells it
        BY_NAME["::".join(parts[i:])] = _f

_CACHE: dict = {}


def instantiate(fam: Family, args: tuple, spelled: str) -> MMAAtom:
    n = 5 if fam.vs else 3
    sig = "<class a_type, class b_type, class c_type" + (", class sf_type, int VS>" if fam.vs else ">")
    if len(args) != n:
        raise LayoutError(f"{spelled}: {fam.name} takes {n} template arguments {sig}, got {len(args)}")
    types = tuple(type_name(a) for a in args[:4 if fam.vs else 3])
    if fam.vs and not isinstance(args[4], int):
        raise LayoutError(f"{spelled}: template argument {args[4]} for VS must be an integer")
    if types not in fam.combos:
        short = fam.name.split("::")[-1]
        raise LayoutError(f"{spelled}: No MMA matches {short} for given data types. (static_assert in "
                          f"cute/arch/mma_{'sm120_sparse' if fam.sparse else 'sm120'}.hpp: no specialisation for "
                          f"<{', '.join(types)}>)")
    canonical = f"{fam.name}<{','.join(types)}" + (f",{args[4]}>" if fam.vs else ">")
    atom = _CACHE.get(canonical)
    if atom is not None:
        return atom
    a, b, c = types[:3]
    va = f"sparse_elem<{2 if fam.val_ab == 'uint8_t' else 4},{a if fam.val_ab == 'uint8_t' else 'uint8_t'}>" \
        if fam.sparse else fam.val_ab
    ptx = f"{fam.ptx}.{_PTX_T[c]}.{_PTX_T[a]}.{_PTX_T[b]}.{_PTX_T[c]}" + (f".{_PTX_T[types[3]]}" if fam.vs else "")
    atom = MMAAtom(canonical, fam.shape, "32:1", fam.a, fam.b, ROW, c, va, fam.val_ab, c, header=fam.header,
                   ptx=ptx, arch="sm120", extra_layouts=fam.extra)
    _CACHE[canonical] = atom
    return atom


def default_args(fam: Family) -> tuple:
    from .spelling import Spelled
    if fam.vs:
        a, b, c, sf = sorted(fam.combos)[-1]
        return (Spelled(a), Spelled(b), Spelled(c), Spelled(sf), 32)
    return (Spelled("float_e4m3_t"), Spelled("float_e4m3_t"), Spelled("float"))
