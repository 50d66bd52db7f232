"""Copy atoms: bit layouts as in CuTe's Copy_Traits, value layouts as Copy_Atom<Op, T>, and refused inputs."""

from __future__ import annotations

import pytest

import symcute as sc
from symcute.errors import LayoutError, SymcuteError


def test_ldsm_x2_in_bits_and_in_halves():
    a = sc.copy_atom("SM75_U32x2_LDSM_N")
    assert str(a.thr_id) == "32:1"
    assert str(a.src_layout) == "((16,2),128):((128,0),1)"
    assert str(a.dst_layout) == "(32,(32,2)):(32,(1,1024))"
    assert a.ref_layout == a.dst_layout
    h = sc.copy_atom("SM75_U32x2_LDSM_N", "half_t")
    # as CuTe prints Copy_Atom<SM75_U32x2_LDSM_N, half_t>
    assert str(h.val_layout_src) == "((16,2),8):((8,0),1)"
    assert str(h.val_layout_dst) == "(32,(2,2)):(2,(1,64))"
    assert (h.num_val_src, h.num_val_dst) == (8, 4)
    assert str(h).endswith("ValueType:    16b\n")


def test_stsm_is_ldsm_reversed():
    for n in ("x1", "x2", "x4"):
        ld = sc.copy_atom(f"SM75_U32{n}_LDSM_N".replace("x", "x"))
        st = sc.copy_atom(f"SM90_U32{n}_STSM_N")
        assert (st.src_layout, st.dst_layout, st.ref_layout) == (ld.dst_layout, ld.src_layout, ld.dst_layout)


@pytest.mark.parametrize("spelling,src", [
    ("UniversalCopy<uint128_t>", "(1,128):(0,1)"),
    ("UniversalCopy< cutlass::half_t >", "(1,16):(0,1)"),
    ("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "(1,64):(0,1)"),
    ("DefaultCopy", "(1,1):(0,0)"),
    ("AutoVectorizingCopyWithAssumedAlignment<64>", "(1,1):(0,0)"),
    ("Copy_Traits<SM75_U32x4_LDSM_N>", "(32,128):(128,1)"),
])
def test_spellings(spelling, src):
    assert str(sc.copy_atom(spelling).src_layout) == src


def test_copy_atom_wrapper_carries_the_value_type():
    a = sc.copy_atom("Copy_Atom<UniversalCopy<uint128_t>, half_t>")
    assert a.value_type == "half_t" and str(a.val_layout_src) == "(1,8):(0,1)"
    assert sc.copy_atom("Copy_Atom<UniversalCopy<uint128_t>, half_t>", "half_t") == a
    with pytest.raises(LayoutError, match="value type given twice"):
        sc.copy_atom("Copy_Atom<UniversalCopy<uint128_t>, half_t>", "float")
    assert sc.copy_atom("UniversalCopy<uint128_t>", 16) == sc.copy_atom("UniversalCopy<uint128_t>", "uint16_t")


@pytest.mark.parametrize("name,vtype,match", [
    ("UniversalCopy<int4b_t>", None, "sizeof_bits_v<S> >= 8"),
    ("SM80_CP_ASYNC_CACHEALWAYS<half_t>", None, "cp.async sizeof\\(TS\\) is not supported"),
    ("SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>", None, "cp.async sizeof\\(TS\\) is not supported"),
    ("SM80_CP_ASYNC_CACHEALWAYS<uint32_t,uint64_t>", None, "sizeof\\(src_value_type\\) == sizeof"),
    ("AutoVectorizingCopyWithAssumedAlignment<24>", None, "MaxVecBits"),
    ("SM75_U32x4_LDSM_N", "uint128_t", "CopyOperation is not valid for Dst of ValType"),
    ("SM75_U32x1_LDSM_N", "double", "CopyOperation is not valid"),
    ("SM75_U32x2_LDSM", None, "did you mean SM75_U32x2_LDSM_N"),
    ("SM75_U32x2_LDSM_N<4>", None, "not a template"),
    ("UniversalCopy", None, "one or two value types"),
])
def test_refused_inputs(name, vtype, match):
    with pytest.raises(SymcuteError, match=match):
        sc.copy_atom(name, vtype)


def test_value_layout_needs_a_type():
    with pytest.raises(LayoutError, match="no value type"):
        sc.copy_atom("SM75_U32x2_LDSM_N").val_layout_src


def test_user_built_copy_atom():
    a = sc.CopyAtom("mine", 32, "(32,64):(64,1)", "(32,64):(64,1)", "(32,64):(64,1)", value_type="float")
    assert str(a.val_layout_ref) == "(32,2):(2,1)"
    with pytest.raises(LayoutError, match="rank 2"):
        sc.CopyAtom("bad", 32, "64:1", "(32,64):(64,1)", "(32,64):(64,1)")


def test_catalog_listing():
    names = [a.name for a in sc.copy_atoms()]
    for n in ("SM75_U32x1_LDSM_N", "SM75_U16x8_LDSM_T", "SM90_U32x4_STSM_N", "SM90_U16x2_STSM_T",
              "UniversalCopy<uint128_t>", "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "DefaultCopy"):
        assert n in names
    assert [a.name for a in sc.copy_atoms("STSM_T")] == ["SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T",
                                                         "SM90_U16x8_STSM_T", "SM100_U8x4_STSM_T",
                                                         "SM100_U8x8_STSM_T", "SM100_U8x16_STSM_T"]
