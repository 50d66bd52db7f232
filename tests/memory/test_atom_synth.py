"""Smem layout synthesis over CuTe's atoms: the choice of CUTLASS's SM90 builder (ss_smem_selector) and the
SM80 kernels' atoms come out optimal for their copies; refusals and costs are listed."""

import pytest

from symcute.atoms import copy_atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma
from symcute.core import Layout
from symcute.errors import LayoutError
from symcute.memory.atom_synth import copy_access, synthesize_smem_layout, tv_access

MMA = "SM80_16x8x16_F16F16F16F16_TN"


def _k_major(k):
    write = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"),
                            Layout((16, k // 8), (k // 8, 1)), Layout((1, 8)))
    read = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"), make_tiled_mma(MMA, (2, 2, 1)))
    return [copy_access(write, label="cp.async 128-bit write"), copy_access(read, label="ldmatrix.x4 read")]


# cutlass/gemm/collective/builders/sm90_common.inl, ss_smem_selector: the widest K-major atom whose K extent
# divides the tile's K
@pytest.mark.parametrize("k, selector, sm80", [
    (64, "GMMA::Layout_K_SW128_Atom", "SM80 K-major 8x64 Sw<3,3,3> (16-bit)"),
    (32, "GMMA::Layout_K_SW64_Atom", "SM80 K-major 8x32 Sw<2,3,3> (16-bit)"),
    (16, "GMMA::Layout_K_SW32_Atom", "SM80 K-major 8x16 Sw<1,3,3> (16-bit)")])
def test_k_major_tiles_choose_cutlass_atoms(k, selector, sm80):
    res = synthesize_smem_layout((32, k), _k_major(k), "half_t")
    assert res.conflict_free and res.best.name == selector
    assert res.is_optimal(sm80) and res.best.total == sum(res.ideal)
    # the unswizzled tile conflicts 8-way on the read, the narrower atoms are listed with their costs
    plain = res.candidate("unswizzled K-major (row-major)")
    assert plain.valid and plain.total > res.best.total
    assert all(c.total > res.best.total for c in res.alternatives)
    # an atom wider than the tile is refused with CuTe's reason, a major the copies cannot use with theirs
    if k < 64:
        assert not res.candidate("GMMA::Layout_K_SW128_Atom").valid
        assert "does not tile" in res.candidate("GMMA::Layout_K_SW128_Atom").reasons[0]
    mn = res.candidate("GMMA::Layout_MN_INTER_Atom")
    assert not mn.valid and any("contiguous" in (r or "") for r in mn.reasons)


def test_the_base_family_joins_the_atoms_and_agrees_with_them():
    res = synthesize_smem_layout((32, 64), _k_major(64), "half_t", base=Layout((32, 64), (64, 1)))
    assert res.is_optimal("Sw<3,3,3> o 0 o (32,64):(64,1)") and res.best.name == "GMMA::Layout_K_SW128_Atom"


def test_m_major_ldmatrix_trans_tile_chooses_the_mn_sw128_atom():
    # an M-major A tile (64 x 16 halves): 128-bit cp.async along M, LDSM_T for the MMA's A
    write = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"),
                            Layout((8, 16), (1, 8)), Layout((8, 1)))
    read = make_tiled_copy_A(copy_atom("SM75_U16x8_LDSM_T", "half_t"), make_tiled_mma(MMA, (2, 2, 1)))
    res = synthesize_smem_layout((64, 16), [copy_access(write), copy_access(read)], "half_t")
    assert res.conflict_free and res.best.name == "GMMA::Layout_MN_SW128_Atom"
    assert res.is_optimal("SM80 MN-major 64x8 Sw<3,3,3> (16-bit)")
    assert res.candidate("unswizzled MN-major (column-major)").total > res.best.total


def test_no_candidate_conflict_free_says_why_and_bad_input_is_refused():
    # lane t owns row t of a 32x64 half tile: 128-bit row writes pin the low bits a 16-bit column read needs
    tv = Layout((32, 64), (1, 32))
    res = synthesize_smem_layout((32, 64), [tv_access(tv, 16, 128, "st", "row write"),
                                            tv_access(tv, 16, 16, "ld", "column read")], "half_t",
                                 base=Layout((32, 64), (64, 1)))
    assert not res.conflict_free and res.best.wavefronts[0] == res.ideal[0]
    assert res.best.wavefronts[1] > res.ideal[1] and "column read: best" in res.reasons[0]
    # a float tile read by columns and written by rows: CuTe's MN-major SW128 atom serves both
    ok = synthesize_smem_layout((32, 32), [tv_access(Layout((32, 32), (1, 32)), 32, 32, "ld", "column read"),
                                           tv_access(Layout((32, 32), (32, 1)), 32, 128, "st", "row write")], "float")
    assert ok.conflict_free and not ok.reasons
    with pytest.raises(LayoutError, match="two positive extents"):
        synthesize_smem_layout((32,), _k_major(64), "half_t")
    with pytest.raises(LayoutError, match="at least one access"):
        synthesize_smem_layout((32, 64), [], "half_t")
