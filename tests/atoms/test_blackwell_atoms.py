"""The SM100/SM103/SM120 and sparse SM90 atoms: spelling, refusals, catalog listing, lint, TMEM layouts.

Values are checked against real CuTe in tests/differential/test_atoms_sm100_vs_cute.py; these tests pin the
behaviour that has no CuTe print to compare with (names, messages, listing, lint verdicts).
"""

from __future__ import annotations

import pytest

import symcute as sc
from symcute.atoms import mma_umma as umma
from symcute.atoms.tmem import tmem_dp, tmem_frg
from symcute.errors import LayoutError, SymcuteError

F16 = "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>"


def test_umma_spellings_name_one_atom():
    a = sc.mma_atom(F16)
    for spelled in ["cute::SM100_MMA_F16BF16_SS<cutlass::half_t, cutlass::half_t, float, 128, 256, "
                    "UMMA::Major::K, UMMA::Major::K>",
                    "MMA_Atom<SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K,"
                    "UMMA::ScaleIn::One>>"]:
        assert sc.mma_atom(spelled) is a
    assert a.shape_mnk == (128, 256, 16) and str(a.thr_id) == "1:0"
    assert str(a.c_layout) == "(1,(128,256)):(0,(1,128))"
    neg = sc.mma_atom(F16[:-1] + ",UMMA::ScaleIn::Neg>")
    assert neg.name.endswith("UMMA::ScaleIn::Neg>") and neg.c_layout == a.c_layout


def test_2x1sm_atoms_split_m_over_the_cta_pair():
    a = sc.mma_atom("SM100_MMA_S8_2x1SM_SS<int8_t,uint8_t,int32_t,256,64,UMMA::Major::K,UMMA::Major::MN>")
    assert str(a.thr_id) == "2:1" and a.shape_mnk == (256, 64, 32)
    assert str(a.a_layout) == "(2,(128,32)):(128,(1,256))"
    assert str(a.b_layout) == "(2,(32,32)):(32,(1,64))"


@pytest.mark.parametrize("name, message", [
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,96,256,UMMA::Major::K,UMMA::Major::K>", "M-mode size"),
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,12,UMMA::Major::K,UMMA::Major::K>", "N-mode size"),
    ("SM100_MMA_TF32_SS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", "supports 32bit types"),
    ("SM100_MMA_F16BF16_TS<half_t,half_t,float,128,64,UMMA::Major::MN,UMMA::Major::K>", "can't be transposed"),
    ("SM100_MMA_S8_SS<int8_t,int8_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", "int32_t"),
    ("SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,64,UMMA::Major::K,UMMA::Major::K>",
     "Vector size"),
    ("SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,32,UMMA::Major::MN,"
     "UMMA::Major::K>", "transpose"),
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256>", "template arguments"),
    ("SM100_MMA_F8F6F4_SS", "#3207"),
    ("SM120_16x8x32_TN<half_t,half_t,float>", "No MMA matches"),
    ("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_RS<GMMA::Major::MN,GMMA::Major::K>", "K major"),
])
def test_refusals_name_the_condition(name, message):
    with pytest.raises(SymcuteError, match=message):
        sc.mma_atom(name)


def test_suggestions_and_not_covered():
    with pytest.raises(sc.UnknownAtom, match="did you mean SM100_MMA_F16BF16_SS"):
        sc.mma_atom("SM100_MMA_F16BF16_SSS<half_t>")
    with pytest.raises(sc.UnknownAtom, match="did you mean SM100_TMEM_LOAD_32dp32b1x"):
        sc.copy_atom("SM100_TMEM_LOAD_32dp32b1")
    with pytest.raises(sc.UnknownAtom, match="not covered by symcute"):
        sc.copy_atom("SM90_TMA_LOAD_IM2COL")
    with pytest.raises(LayoutError, match="NumBitsPerTMA"):
        sc.copy_atom("SM90_TMA_LOAD")


def test_listing_by_architecture():
    sm100 = sc.mma_atoms(arch="sm100")
    assert len(sm100) == 1272 and all(r.arch == "sm100" for r in sm100)
    assert len(sc.mma_atoms(arch="sm103")) == 48
    assert len(sc.mma_atoms(arch="sm120")) == 6
    # every (M, N) of a family is listed once, and every listed name reads back to its atom
    fam = umma.BY_NAME["SM100_MMA_F16BF16_2x1SM_SS"]
    rows = [r for r in sm100 if r.name.startswith("SM100_MMA_F16BF16_2x1SM_SS<")]
    assert len(rows) == len(umma.members(fam)) == 2 * 16
    for r in sm100[::97]:
        assert sc.mma_atom(r.lookup_name) is r.atom
    copies = [a for a in sc.copy_atoms() if a.arch == "sm100"]
    assert len(copies) == 173 + 2   # copy_traits_sm100.hpp, and the two SM100_TMA_2SM_LOAD traits


def test_cli_lists_sm100(cli):
    code, out, _ = cli(["atoms", "--arch", "sm120"])
    assert code == 0
    assert "SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,float>" in out and out.rstrip().endswith("6 MMA atoms")
    code, out, _ = cli(["atoms", "--show", "SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,float>"])
    assert code == 0
    assert "ELayout: ((2,2,8),32):((8,512,1),16)" in out


def test_lint_checks_the_extra_layouts_and_accepts_utccp_multicast():
    r = sc.lint_mma_atom("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,32>")
    assert r.ok and set(r.checked) == {"A", "B", "C", "SFA", "SFB"}
    assert any(op == "SFB" and "extent 4" in d for op, d in r.broadcasts)
    u = sc.lint_copy_atom("SM100_UTCCP_4x32dp128bit_1cta")
    assert u.ok and any("copied to 4 bits" in d for _, d in u.broadcasts)
    # a stride-0 source that is not a multicast of the destination is still a finding
    bad = sc.CopyAtom("bad", 1, "(1,(32,4)):(0,(1,0))", "(1,256):(0,1)", "(1,256):(0,1)")
    assert not sc.lint_copy_atom(bad).ok


def test_user_built_sparse_atom_with_a_bad_metadata_layout_is_reported():
    good = sc.mma_atom("SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,float>")
    bad = sc.MMAAtom("mine", good.shape_mnk, good.thr_id, good.a_layout, good.b_layout, good.c_layout,
                     extra_layouts=(("ELayout", "((2,2,8),32):((8,256,1),16)"),))
    r = sc.lint_mma_atom(bad)
    assert {f.operand for f in r.findings} == {"E"}


def test_tmem_dp_and_fragments():
    assert tmem_dp("float") == 1 << 16 and tmem_dp("half_t") == 1 << 17 and tmem_dp("uint8_t") == 1 << 18
    with pytest.raises(LayoutError):
        tmem_dp("double")
    assert str(tmem_frg("float", "uint32_t", 1, "Interleaved", ((128, 256), 1, 2))) == \
        "((128,256),1,2):((65536,1),0,256)"
    with pytest.raises(LayoutError, match="more TMEM"):
        tmem_frg("float", "uint32_t", 1, "Interleaved", ((128, 256), 2, 2))
    s = sc.make_tiled_mma(F16).get_slice(0)
    assert str(s.partition_fragment_C((128, 256))) == "((128,256),1,1):((65536,1),0,0)"
    with pytest.raises(SymcuteError, match="descriptor"):
        s.partition_fragment_A((128, 32))


def test_make_tmem_copy_puts_each_warp_in_its_sub_partition():
    tc = sc.make_tmem_copy("SM100_TMEM_LOAD_32dp32b8x", sc.Layout.parse("(128,8):(65536,1)"), "float")
    d = tc.get_layoutD_TV()
    tiler_rows = tc.tiler_mn[0]
    for warp in range(4):
        for lane in (0, 31):
            q = d((lane + 32 * warp, 0))
            assert tiler_rows(q % tiler_rows.size()) == 32 * warp + lane
    with pytest.raises(LayoutError, match="not a TMEM copy"):
        sc.make_tmem_copy("SM75_U32x1_LDSM_N", sc.Layout.parse("(128,8):(65536,1)"), "float")


def test_catalog_has_exactly_the_headers_trait_names():
    """Read CuTe's headers: every MMA_Traits / Copy_Traits specialisation of the new headers is catalogued."""
    import re
    from pathlib import Path
    from symcute.atoms import mma_gmma_sparse as sparse, mma_sm120 as sm120
    from symcute.atoms.copy_sm100_data import ROWS
    from symcute.oracle.toolchain import find_cute_include
    atom_dir = Path(find_cute_include()) / "cute" / "atom"
    t100 = (atom_dir / "mma_traits_sm100.hpp").read_text()
    names = set(re.findall(r"struct MMA_Traits<((?:SM103::)?\w+)", t100))
    assert names == {f.name for f in umma.FAMILIES} | set(umma.FFMA2)
    t120 = (atom_dir / "mma_traits_sm120.hpp").read_text() + (atom_dir / "mma_traits_sm120_sparse.hpp").read_text()
    assert set(re.findall(r"struct MMA_Traits<([\w:]+)<", t120)) == {f.name for f in sm120.FAMILIES}
    sp = ((atom_dir / "mma_traits_sm90_gmma_sparse.hpp").read_text()
          + (atom_dir / "mma_traits_sm90_gmma_sparse_ext.hpp").read_text())
    sp_names = set(re.findall(r"struct MMA_Traits<(SM90::GMMA::SPARSE::GMMA_\w+)<", sp))
    assert sp_names == {b for b, *_ in sparse.all_base_names()} and len(sp_names) == 1056
    copies = set(re.findall(r"struct Copy_Traits<(\w+)>", (atom_dir / "copy_traits_sm100.hpp").read_text()))
    assert copies == {r[0] for r in ROWS} and len(copies) == 173
