"""make_tiled_copy_C_atom and make_cotiled_copy against real CuTe: the whole printed TiledCopy
(Tiler_MN, TiledLayout_TV and the Copy_Atom), or a refusal on both sides."""

from __future__ import annotations

import symcute as sc
from symcute import Layout, to_cpp
from symcute.errors import SymcuteError

from .harness import COUNTS, large, oracle_or_skip

MMAS = ["SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F32TF32TF32F32_TN", "SM75_16x8x8_F32F16F16F32_TN",
        "SM80_16x8x16_F32F16F16F32_TN"]
ATOM_LAYOUTS = [(1, 1, 1), (2, 2, 1), (1, 4, 1)] if not large() else [(1, 1, 1), (2, 1, 1), (2, 2, 1), (1, 4, 1)]
C_COPIES = [("UniversalCopy<uint32_t>", "half_t"), ("UniversalCopy<uint16_t>", "half_t"),
            ("UniversalCopy<uint64_t>", "float"), ("UniversalCopy<uint32_t>", "float"),
            ("SM90_U32x4_STSM_N", "half_t"), ("UniversalCopy<uint128_t>", "half_t")]
COTILED = [  # (copy atom, value type, atom (thr,val) -> address, data layout coord -> address)
    ("UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(8,32):(32,1)"),
    ("UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(32,8):(8,1)"),
    ("UniversalCopy<uint64_t>", "half_t", "(64,4):(4,1)", "(16,16):(16,1)"),
    ("UniversalCopy<uint64_t>", "half_t", "(64,4):(4,1)", "(16,16):(1,16)"),
    ("UniversalCopy<uint32_t>", "float", "(32,1):(1,0)", "(4,8):(8,1)"),
    ("UniversalCopy<uint32_t>", "float", "(32,1):(1,0)", "(8,4):(1,8)"),
    ("UniversalCopy<uint64_t>", "float", "(16,2):(2,1)", "(4,8):(8,1)"),
    ("UniversalCopy<uint128_t>", "half_t", "(16,8):(8,1)", "(8,8):(8,1)"),
    ("UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(16,8):(8,1)"),   # more TVs than data: CuTe builds it
    ("UniversalCopy<uint128_t>", "half_t", "(8,8):(16,1)", "(8,16):(16,1)"),
]


def _cases() -> dict:
    out = {}
    for m in MMAS:
        for lay in ATOM_LAYOUTS:
            for copy, vt in C_COPIES:
                mma = f"make_tiled_mma({m}{{}}, Layout<Shape<{','.join(f'_{x}' for x in lay)}>>{{}})"
                out[f"C_atom {m} {lay} {copy} {vt}"] = (
                    f"print(make_tiled_copy_C_atom(Copy_Atom<{copy}, {vt}>{{}}, {mma}));",
                    lambda m=m, lay=lay, copy=copy, vt=vt: str(sc.make_tiled_copy_C_atom(
                        sc.copy_atom(copy, vt), sc.make_tiled_mma(m, lay))))
    for copy, vt, tv, data in COTILED:
        out[f"cotiled {copy} {vt} {tv} {data}"] = (
            f"print(make_cotiled_copy(Copy_Atom<{copy}, {vt}>{{}}, {to_cpp(Layout.parse(tv))}, "
            f"{to_cpp(Layout.parse(data))}));",
            lambda copy=copy, vt=vt, tv=tv, data=data: str(sc.make_cotiled_copy(
                sc.copy_atom(copy, vt), Layout.parse(tv), Layout.parse(data))))
    return out


def test_copy_builders_equal_cute():
    oracle = oracle_or_skip()
    cases = _cases()
    results = oracle.run({k: body for k, (body, _t) in cases.items()},
                         preamble="#include <cute/tensor.hpp>\n#include <cute/atom/copy_traits_sm90.hpp>\n"
                                  "using namespace cute;\n")
    bad = []
    for key, (body, thunk) in cases.items():
        c = COUNTS[f"copy:{key.split()[0]}"]
        c["cases"] += 1
        res = results[key]
        try:
            mine, ok = thunk(), True
        except SymcuteError as e:
            mine, ok = f"{type(e).__name__}: {e}", False
        if res.ok:
            c["valid"] += 1
            if not ok or mine.strip() != res.output.strip():
                c["mismatch"] += 1
                bad.append(f"{key}\n  CuTe:    {res.output!r}\n  symcute: {mine!r}")
        else:
            c["refused"] += 1
            if ok:
                c["mismatch"] += 1
                bad.append(f"{key}\n  CuTe refused it: {(res.error or '')[:200]}\n  symcute: {mine!r}")
    assert not bad, f"{len(bad)} of {len(cases)} differ:\n" + "\n".join(bad[:6])
