"""TiledCopy: the seed's make_tiled_copy_A and retile_D chain, retile's post-conditions, make_tiled_copy."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, strategies as st

import symcute as sc
from symcute import Layout
from symcute.errors import LayoutError
from symcute.trace.derivation import Derivation

SEED_F = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def seed():
    mma = sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    tc = sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x2_LDSM_N", "half_t"), mma)
    return mma, tc


def test_seed_tiled_copy_A():
    mma, tc = seed()
    assert str(tc.layout_tv) == SEED_F
    assert tc.tiler_mn == (32, 16)
    assert (tc.tiled_num_thr, tc.tiled_num_val, tc.atom_num_thr, tc.atom_num_val) == (128, 8, 32, 4)
    assert str(tc.get_layoutS_TV()) == "((16,2,2,2),(8,2)):((1,0,16,0),(32,256))"
    assert str(tc.get_layoutD_TV()) == "((4,8,2,2),((2,2),2)):((64,1,16,0),((32,8),256))"
    assert str(tc).startswith("TiledCopy\n  Tiler_MN:       (32,16)\n  TiledLayout_TV: " + SEED_F)


def test_seed_retile_steps():
    mma, tc = seed()
    frg = mma.get_slice(0).partition_fragment_A((32, 16))
    out, steps = tc.retile(frg, explain=True)
    assert steps.V == 8 and steps.upcast_n == 1024
    assert str(steps.right_inverse) == "(8,2,2,2,4,2):(4,256,32,128,1,512)"
    assert str(steps.with_shape) == "((8,2,2),(2,4,2)):((4,256,32),(128,1,512))"
    assert str(steps.frg_layout_mn) == "((1,1,1),(1,1,1)):((1,1,1),(1,1,1))"
    assert steps.frg_shape_each == (1, 1)
    assert steps.tiler == (8, 1, 1)
    assert str(steps.frg_layout_v) == "(4,2):(1,4)"      # ldmatrix.x2 moves 4 halves: the 8 values as (4,2)
    assert str(out) == "((4,2),1,1):((1,4),0,0)"
    assert tc.get_slice(5).retile_D(frg) == out == tc.retile_steps(frg).result
    # the seed's aside: upcast<128*4> keeps the two K halves apart
    assert it_product_each(sc.upcast(steps.with_shape, 512)) == (1, 2)


def it_product_each(layout):
    from symcute.core import int_tuple as it
    return it.product_each(layout.shape)


def test_retile_is_recorded_in_a_derivation():
    mma, tc = seed()
    frg = mma.get_slice(0).partition_fragment_A((32, 16))
    with Derivation("seed") as d:
        tc.retile(frg)
    rules = [s.rule for s in d.steps()]
    assert "retile" in rules and "right_inverse" in rules and "upcast" in rules
    step = next(s for s in d.steps() if s.rule == "retile")
    assert step.details["V"] == 8 and step.details["tiler"] == (8, 1, 1)
    assert str(step.details["frg_layout_mn"]) == "((1,1,1),(1,1,1)):((1,1,1),(1,1,1))"


@given(st.sampled_from([(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1), (2, 4, 1)]),
       st.sampled_from([1, 2]), st.sampled_from([1, 2]), st.sampled_from(["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N",
                                                                          "SM75_U32x4_LDSM_N",
                                                                          "UniversalCopy<uint32_t>"]),
       st.integers(0, 255))
def test_retile_regroups_the_fragment(lay, sm, sk, copy, thr):
    """@post retile keeps the fragment's elements: same size and the same set of register offsets."""
    mma = sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", lay)
    try:
        tc = sc.make_tiled_copy_A(sc.copy_atom(copy, "half_t"), mma)
    except LayoutError:   # e.g. too few values for ldmatrix.x4 (CuTe refuses it too)
        assume(False)
    shape = (mma.tile_size(0) * sm, mma.tile_size(2) * sk)
    frg = mma.get_slice(thr % mma.size()).partition_fragment_A(shape)
    out = tc.retile(frg)
    assert out.size() == frg.size()
    assert sorted(out(i) for i in range(out.size())) == sorted(frg(i) for i in range(frg.size()))
    assert out[0].size() == frg[0].size()
    assert out[0][0].size() == tc.atom_num_val


def test_make_tiled_copy():
    tc = sc.make_tiled_copy(sc.copy_atom("UniversalCopy<uint128_t>", "half_t"), Layout((16, 8), (8, 1)),
                            Layout((1, 8)))
    assert tc.tiler_mn == (16, 64)
    assert str(tc.layout_tv) == "((8,16),8):((128,1),16)"
    assert tc.size() == 128
    s = tc.get_slice(3)
    assert str(s.partition_S(Layout((32, 128)))) == "((8,1),2,2):((32,0),16,2048)"   # as CuTe prints it
    with pytest.raises(LayoutError, match="too few vals"):
        sc.make_tiled_copy(sc.copy_atom("UniversalCopy<uint128_t>", "half_t"), Layout((16, 8), (8, 1)),
                           Layout((1, 4)))


def test_tiled_copy_needs_a_value_type_and_a_tiled_mma():
    mma, _ = seed()
    with pytest.raises(LayoutError, match="value type"):
        sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x2_LDSM_N"), mma)
    with pytest.raises(LayoutError, match="expected a TiledMMA"):
        sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x2_LDSM_N", "half_t"), "mma")
    with pytest.raises(LayoutError, match="too few vals"):
        sc.make_tiled_copy_B(sc.copy_atom("SM75_U32x4_LDSM_N", "half_t"),
                             sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN"))
