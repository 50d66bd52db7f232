"""symcute bank on CUTLASS's own smem layouts: the sgemm tutorial (NT and TN) and the SM80 tensor-core tiles."""

import pytest

from symcute import ComposedLayout, Layout, Swizzle, tile_to_shape
from symcute.atoms import copy_atom, make_tiled_copy_A, make_tiled_mma
from symcute.memory import bank_conflicts, shared_access

from ..cli_runner import run_cli_process


# sgemm (examples/cute/tutorial/sgemm_1.cu): 256 threads as tC = (16,16); thread (tm, tn) reads A rows
# m = tm + 16 i of every k of the (128, 8) tile
SGEMM_READ = Layout(((16, 16), (8, 8)), ((1, 0), (16, 128)))


def test_sgemm_nt_smem_reads_are_conflict_free_and_tn_reads_are_4_way():
    nt = shared_access(SGEMM_READ, "(128,8):(1,128)", 32, 32)
    tn = shared_access(SGEMM_READ, "(128,8):(8,1)", 32, 32)
    assert nt.conflict_free and tn.ways == 4 and tn.wavefronts == 4 * tn.ideal_wavefronts
    # the witness names the sub-axis: lanes 0, 4, 8, 12 differ in tm (t0) by multiples of 4 rows = 128 bytes
    lanes = [ls[0] for ls in tn.witness.lanes]
    assert [l.lane for l in lanes] == [0, 4, 8, 12] and {dict(l.axes)["t1"] for l in lanes} == {0}
    # the "132 instead of 128" padding (issue 1443) fixes the read, and costs the copy's stores a 2-way conflict
    assert shared_access(SGEMM_READ, "(128,8):(9,1)", 32, 32).conflict_free
    assert shared_access("((8,32),4):((128,1),32)", "(128,8):(9,1)", 32, 32, op="st").ways == 2


@pytest.mark.parametrize("sw, ways", [(Swizzle(3, 3, 4), 1), (Swizzle(3, 3, 3), 2), (Swizzle(0, 0, 0), 8)])
def test_ldmatrix_trans_over_an_m_major_128x8_atom(sw, ways):
    # issue 3172's configuration: SM75_U16x8_LDSM_T over an M-major (128,8) atom tiled to (128,32)
    mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    tc = make_tiled_copy_A(copy_atom("SM75_U16x8_LDSM_T", "half_t"), mma)
    smem = tile_to_shape(ComposedLayout(sw, 0, Layout((128, 8), (1, 128))), (128, 32))
    assert bank_conflicts(tc, smem).ways == ways


def _cli(*args):
    return run_cli_process("bank", *args, env={"PATH": "/usr/bin:/bin"})


def test_cli_reports_the_sm80_conflict_with_named_sub_axes_and_the_fix():
    p = _cli("--smem", "(32,64):(64,1)", "--fix")
    assert p.code == 0, p.err
    assert "8-way" in p.out and "t0t1_0=1" in p.out and "fix: best Sw<3,3,3>" in p.out
    p = _cli("--smem", "Sw<3,3,3> o 0 o (32,64):(64,1)")
    assert p.code == 0 and "conflict-free" in p.out


@pytest.mark.parametrize("args, what", [
    (("--smem", "(32,64"), "expected ')'"),
    (("--tv", "(32,1):(1,0)", "--smem", "(32,32):(32,1)"), "--value-bits"),
    (("--copy-atom", "SM75_U32x1_MOVM_T", "--smem", "(32,16):(16,1)"), ""),
    (("--smem", "(32,64):(1,32)", "--copy-atom", "SM75_U32x4_LDSM_N"), "contiguous"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args, what):
    p = _cli(*args)
    assert p.code == 2 and p.out == ""
    assert len(p.err.strip().splitlines()) == 1 and what in p.err


def test_cli_writes_the_svg(tmp_path):
    out = tmp_path / "b.svg"
    p = _cli("--smem", "(32,64):(64,1)", "--svg", str(out))
    assert p.code == 0 and out.read_text().startswith("<svg") and "#e74c3c" in out.read_text()
    p = _cli("--smem", "(32,64):(64,1)", "--svg", str(tmp_path / "no" / "such" / "b.svg"))
    assert p.code == 2 and len(p.err.splitlines()) == 1


def test_issue_3172_reproduced_with_symcute_bank_and_explained():
    # CUTLASS #3172: SM75_U16x8_LDSM_T (ldmatrix.x4.trans) reading the (bM=128, bK=32) tile of M-major (128,8)
    # atoms under Swizzle<3,3,4>, four warps of a (2,2,1) SM80 16x8x16 MMA
    smem = "Sw<3,3,4> o 0 o (128,(8,4)):(1,(128,1024))"
    p = _cli("--copy-atom", "SM75_U16x8_LDSM_T", "--mma", "SM80_16x8x16_F32F16F16F32_TN", "--smem", smem,
             "--fix-atoms")
    assert p.code == 0, p.err
    assert "wavefronts: 128 (ideal 128)" in p.out and "conflict-free" in p.out
    # the certificate: the 3 lane bits that pick a matrix's 8 row addresses (the k of the M-major tile) move
    # 256/512/1024 bytes (one bank group) and, through the swizzle's Y bits (element bits 7..9), flip the
    # 16-byte chunk bits 16/32/64: 8 distinct bank groups, dim ker(bank) = 0
    assert "lane-bit images [272, 544, 1088" in p.out and "dim ker(bank) = 0" in p.out
    # the atom search puts CuTe's MN-major atoms first and refuses the K-major ones (not contiguous for LDSM_T)
    assert "atoms: best GMMA::Layout_MN_SW128_Atom" in p.out and "refused: GMMA::Layout_K_SW128_Atom" in p.out
    # the swizzle that looks right by analogy with K-major tiles, Sw<3,3,3>, is 2-way here; no swizzle 8-way
    for sw, ways in (("Sw<3,3,3>", "2-way"), ("Sw<0,0,0>", "8-way")):
        q = _cli("--copy-atom", "SM75_U16x8_LDSM_T", "--mma", "SM80_16x8x16_F32F16F16F32_TN", "--smem",
                 smem.replace("Sw<3,3,4>", sw))
        assert q.code == 0 and ways in q.out
