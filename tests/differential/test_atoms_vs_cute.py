"""The atoms layer against real CuTe: every atom's traits, TiledMMA, TiledCopy, fragments and retile_D.

CI runs every warp-level MMA atom's traits, a deterministic sample of the GMMA
families, every copy atom, and a small deterministic sample of TiledMMA /
TiledCopy / fragment configurations (about 2 CPU-minutes of g++ without the
result memo: a TiledMMA program costs 1.5-4 s to compile).  ``SYMCUTE_LARGE=1`` runs every catalogued atom and the full
sweep: every warp atom x atom layouts 1x1x1, 2x2x1, 2x1x1, 1x2x1, 4x1x1, 2x4x1 x
four permutations, plus GMMA samples, LDSM/UniversalCopy tiled copies over A
and B, fragments and their retile_D.
"""

from __future__ import annotations

import pytest

import symcute as sc
from .atoms_cases import (
    ATOM_LAYOUTS, bad_config_cases, copy_trait_cases, fragment_case, gmma_argument_cases, make_tiled_copy_case,
    mma_trait_cases, permutations_for, seed_cases, swizzled_partition_cases, tiled_copy_case, tiled_mma_case,
    tiled_mma_operand_case,
)
from .atoms_cpp import PREAMBLE
from .atoms_cases import COPY_TYPES
from .harness import compare, large, oracle_or_skip

DEFECTIVE_A = ("SM80_16x8x128_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC")

# a spread of warp-level atoms (every architecture, value width and layout family) for the CI sample
CI_ATOMS = ["SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F32TF32TF32F32_TN", "SM70_8x8x4_F32F16F16F32_NT",
            "SM75_8x8x16_S32S8S8S32_TN", "SM61_DP4A", "SM90_16x8x8_F64F64F64F64_TN", "SM89_16x8x32_F32E4M3E5M2F32_TN",
            "SM80_16x8x64_S32S4S4S32_TN"]
CI_GMMA = ["SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
           "SM90_64x32x32_S32S8U8_RS_TN"]
LDSM = ["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N",
        "SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T"]
UNIVERSAL = ["UniversalCopy<uint32_t>", "UniversalCopy<uint128_t>", "UniversalCopy<half_t>"]
EXTRA_COPY_NAMES = ["UniversalCopy<half_t>", "UniversalCopy<uint32_t,float>", "UniversalCopy<uint64_t>",
                    "AutoVectorizingCopyWithAssumedAlignment<32>", "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>",
                    "SM80_CP_ASYNC_CACHEALWAYS<half_t>", "SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>",
                    "UniversalCopy<int4b_t>", "AutoVectorizingCopyWithAssumedAlignment<24>"]


NEW_HEADERS = ("mma_traits_sm100", "mma_traits_sm120", "mma_traits_sm90_gmma_sparse")   # test_atoms_sm100_vs_cute


def _catalog_entries():
    entries = [e for e in sc.mma_atoms() if not any(h in e.header for h in NEW_HEADERS)]
    if large():
        return entries
    warp = [e for e in entries if not e.name.startswith("SM90_64x")]
    gmma = [e for e in entries if e.name.startswith("SM90_64x")]
    return warp + gmma[::7]


def _tiled_mma_configs():
    if large():
        atoms = [e.atom for e in _catalog_entries() if not e.name.startswith("SM90_64x")]
        gmma = [e.atom for e in sc.mma_atoms(extended=False) if e.name.startswith("SM90_64x")][::9]
        for a in atoms:
            for lay in ATOM_LAYOUTS:
                for p in permutations_for(a, lay):
                    yield a.name, lay, p
        for a in gmma:
            for lay in [(1, 1, 1), (2, 1, 1), (2, 2, 1)]:
                for p in permutations_for(a, lay)[:2]:
                    yield a.name, lay, p
        return
    yield CI_ATOMS[0], (1, 1, 1), None
    for i, name in enumerate(CI_ATOMS):
        a = sc.mma_atom(name)
        lay = ATOM_LAYOUTS[1 + i % (len(ATOM_LAYOUTS) - 1)]
        yield name, lay, permutations_for(a, lay)[i % 4]
    yield CI_GMMA[0], (2, 1, 1), None


def _fragment_configs():
    if large():
        names = [n for n in CI_ATOMS] + ["SM80_16x8x8_F16F16F16F16_TN", "SM75_16x8x8_F32F16F16F32_TN",
                                         "SM80_16x8x32_S32S8S8S32_TN", "SM80_8x8x4_F64F64F64F64_TN"] + CI_GMMA
        for name in names:
            a = sc.mma_atom(name)
            for lay in ATOM_LAYOUTS:
                for p in permutations_for(a, lay)[:2]:
                    for thr in (0, 37):
                        for scale in (1, 2):
                            yield name, lay, p, thr, scale
        return
    yield "SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), None, 37, 2
    yield "SM70_8x8x4_F32F16F16F32_NT", (2, 1, 1), (16, 16, 4), 5, 2
    yield "SM80_16x8x8_F32TF32TF32F32_TN", (1, 2, 1), None, 33, 2


def _copy_configs():
    mmas = [("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), None), ("SM80_16x8x8_F16F16F16F16_TN", (1, 1, 1), None),
            ("SM75_16x8x8_F32F16F16F32_TN", (2, 1, 1), (32, 16, 8)),
            ("SM80_16x8x16_F32BF16BF16F32_TN", (2, 4, 1), None)]
    if large():
        for name, lay, p in mmas:
            for op in ("A", "B"):
                for c in LDSM + UNIVERSAL:
                    for scale in (1, 2):
                        yield c, "half_t", name, lay, p, op, scale
            for c in ["SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N", "UniversalCopy<uint32_t>"]:
                yield c, "half_t", name, lay, p, "C", 1
        return
    yield "SM75_U32x4_LDSM_N", "half_t", "SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), None, "A", 2
    yield "SM75_U16x4_LDSM_T", "half_t", "SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), None, "B", 2
    yield "UniversalCopy<uint32_t>", "half_t", "SM75_16x8x8_F32F16F16F32_TN", (2, 1, 1), (32, 16, 8), "A", 2


def _make_tiled_copy_configs():
    L = sc.Layout.parse
    cfg = [("UniversalCopy<uint128_t>", "half_t", L("(16,8):(8,1)"), L("(1,8)")),
           ("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t", L("(16,8):(8,1)"), L("(1,8)")),
           ("UniversalCopy<uint32_t>", "half_t", L("(4,8):(8,1)"), L("(4,2)"))]
    if large():
        cfg += [("UniversalCopy<uint64_t>", "float", L("(8,4)"), L("(2,1)")),
                ("UniversalCopy<uint128_t>", "half_t", L("(32,4):(1,32)"), L("(8,1)")),
                ("UniversalCopy<uint128_t>", "float", L("(8,16):(16,1)"), L("(1,4)")),
                ("UniversalCopy<uint128_t>", "half_t", L("(16,8):(8,1)"), L("(1,4)")),   # too few values: refused
                ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "uint8_t", L("(32,4):(4,1)"), L("(1,16)"))]
    return cfg


def _universal_fma_cases():
    """UniversalFMA<D,A,B,C> (cute/arch/mma.hpp): its traits for 1 to 4 type arguments, and sgemm_sm80's
    TiledMMAs (16x16x1 threads) with their fragments."""
    from types import SimpleNamespace
    names = ["UniversalFMA<float,float,float>", "UniversalFMA<double>", "UniversalFMA<int32_t,int8_t,int8_t>",
             "UniversalFMA<float,half_t,half_t,float>"]
    cases = mma_trait_cases([SimpleNamespace(atom=sc.mma_atom(n)) for n in names])
    for name, lay in [("UniversalFMA<float,float,float>", (16, 16, 1)), ("UniversalFMA<float,float,float>", (16, 8, 1)),
                      ("UniversalFMA<half_t,half_t,half_t>", (8, 8, 2))]:
        cases.append(tiled_mma_case(name, lay, None))
        cases.append(fragment_case(name, lay, None, 37, 2))
    return cases


def all_cases():
    cases = seed_cases()
    cases += mma_trait_cases(_catalog_entries()) + gmma_argument_cases()
    types = COPY_TYPES if large() else ["half_t", "float", "uint8_t"]
    old_copies = [a.name for a in sc.copy_atoms() if "sm100" not in a.header and "tma" not in a.header]
    cases += copy_trait_cases(old_copies + EXTRA_COPY_NAMES, types)
    for name, lay, p in _tiled_mma_configs():
        if name in DEFECTIVE_A:
            if p is None:
                cases += [tiled_mma_operand_case(name, lay, op) for op in "ABC"]
        else:
            cases.append(tiled_mma_case(name, lay, p))
    if not large():
        cases += [tiled_mma_operand_case(DEFECTIVE_A[0], (2, 1, 1), op) for op in "ABC"]
    cases += bad_config_cases() if large() else bad_config_cases()[:3]
    cases += [fragment_case(*c) for c in _fragment_configs()]
    cases += _universal_fma_cases()
    cases += [tiled_copy_case(*c) for c in _copy_configs()]
    cases += [make_tiled_copy_case(*c) for c in _make_tiled_copy_configs()]
    cases += swizzled_partition_cases()
    keys = [c.key for c in cases]
    assert len(keys) == len(set(keys)), "duplicate case keys"
    return cases


@pytest.fixture(scope="module")
def verdicts():
    oracle = oracle_or_skip()
    cases = all_cases()
    results = oracle.run({c.key: c.cpp for c in cases}, preamble=PREAMBLE)
    return cases, results, compare(cases, results, str, "atoms")


OPS = ["seed", "mma_traits", "copy_traits", "tiled_mma", "tiled_mma_edge", "fragment", "tiled_copy",
       "make_tiled_copy", "swizzled_partition"]


@pytest.mark.parametrize("op", OPS)
def test_atoms_equal_cute(verdicts, op):
    cases, results, bad = verdicts
    mine = [c for c in cases if c.op == op]
    assert mine, f"no cases for {op}"
    msgs = bad.get(op, [])
    assert not msgs, f"{len(msgs)} mismatches for {op}; first ones:\n" + "\n".join(msgs[:5])


def test_seed_case_is_accepted_by_cute(verdicts):
    cases, results, _ = verdicts
    seed = [c for c in cases if c.op == "seed"][0]
    assert results[seed.key].ok
    assert results[seed.key].output.startswith("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))|")
    assert results[seed.key].output.endswith("|((4,2),1,1):((1,4),0,0)")


def test_defective_atom_is_refused_by_both(verdicts):
    cases, results, _ = verdicts
    key = [c.key for c in cases if c.key.startswith(f"tiled_mma_op#{DEFECTIVE_A[0]}") and c.key.endswith("#A")][0]
    assert results[key].rejected
    with pytest.raises(sc.LayoutError):
        sc.make_tiled_mma(DEFECTIVE_A[0]).get_layoutA_TV()
