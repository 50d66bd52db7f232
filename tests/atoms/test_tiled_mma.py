"""TiledMMA: the seed's values, CuTe's post-conditions on every catalogued atom, and refused inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import symcute as sc
from symcute import Layout, _
from symcute.errors import LayoutError, SymcuteError

SEED_ATOM = "SM80_16x8x16_F16F16F16F16_TN"
SEED_F = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def seed_mma():
    return sc.make_tiled_mma(SEED_ATOM, (2, 2, 1))


def test_seed_layoutA_TV():
    m = seed_mma()
    assert str(m.get_layoutA_TV()) == SEED_F
    assert m.tile_shape() == (32, 16, 16)
    assert str(m.get_thr_layout_vmnk()) == "(32,2,2,1):(1,32,64,0)"
    assert m.size() == 128
    # the seed's broadcast pair: lane 0 value 4 in both N warps needs A(0,8)
    F = m.get_layoutA_TV()
    assert F((0, 4)) == F((64, 4)) == 256


def test_seed_B_and_C_as_cute_prints_them():
    m = seed_mma()
    assert str(m.get_layoutB_TV()) == "((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0)))"
    assert str(m.get_layoutC_TV()) == "((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))"


def test_atom_layout_spellings_agree():
    a = sc.make_tiled_mma(SEED_ATOM, (2, 2, 1))
    for lay in [(2, 2), Layout((2, 2, 1)), "(2,2,1):(1,2,0)", [2, 2, 1]]:
        assert sc.make_tiled_mma(SEED_ATOM, lay).get_layoutA_TV() == a.get_layoutA_TV()
    assert sc.make_tiled_mma(sc.mma_atom(SEED_ATOM), (2, 2, 1)) == a


def test_row_major_atom_layout_swaps_warps():
    m = sc.make_tiled_mma(SEED_ATOM, Layout((2, 2, 1), (2, 1, 0)))
    assert str(m.get_thr_layout_vmnk()) == "(32,2,2,1):(1,64,32,0)"
    # thread 32 is now the second N warp: its A values are those of thread 0
    F = m.get_layoutA_TV()
    assert [F((32, v)) for v in range(8)] == [F((0, v)) for v in range(8)]


def test_permutations():
    m = sc.make_tiled_mma(SEED_ATOM, (2, 2, 1), (32, 32, 16))
    assert m.tile_shape() == (32, 32, 16)
    assert m.permutation_mnk(1) == 32
    p = Layout((2, 16), (16, 1))
    m2 = sc.make_tiled_mma(SEED_ATOM, (2, 2, 1), (p, _, _))
    assert m2.permutation_mnk(0) == p and m2.tile_size(0) == 32
    assert m2.permutation_mnk(1) == 16   # _ is size<1>(AtomShape) * size<2>(vmnk)
    assert sc.make_tiled_mma(SEED_ATOM, (2, 2, 1), (p,)).get_layoutA_TV() == m2.get_layoutA_TV()


def test_fragments_of_the_seed():
    thr = seed_mma().get_slice(0)
    assert str(thr.partition_fragment_A((32, 16))) == "((2,2,2),1,1):((1,2,4),0,0)"
    assert str(thr.partition_fragment_A((64, 32))) == "((2,2,2),2,2):((1,2,4),8,16)"
    assert str(thr.partition_fragment_C((32, 16))) == "((2,2),1,1):((1,2),0,0)"
    # a K-major source keeps its order in the rest modes (make_fragment_like)
    k_major = Layout((64, 32), (32, 1))
    assert str(thr.partition_fragment_A(k_major)) == "((2,2,2),2,2):((1,2,4),16,8)"
    assert thr.partition_A((32, 16)).shape == ((2, 2, 2), 1, 1)


def test_partition_offsets_follow_the_thread():
    m = seed_mma()
    F = m.get_layoutA_TV()
    for t in (0, 5, 37, 100):
        s = m.get_slice(t)
        assert s.partition_offset("A", (32, 16)) == F((t, 0))


def test_gmma_ss_fragments_are_descriptors():
    m = sc.make_tiled_mma("SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>")
    with pytest.raises(SymcuteError, match="descriptor"):
        m.get_slice(0).partition_fragment_A((64, 16))
    assert str(m.get_slice(0).partition_fragment_C((64, 64))) == "((2,2,8),1,1):((1,2,4),0,0)"


@pytest.mark.parametrize("args,match", [
    ((SEED_ATOM, (2, 2, 1, 1)), "rank-3 AtomLayoutMNK"),
    ((SEED_ATOM, (1, 1, 1), (16, 8, 16, 1)), "rank-3 PermutationMNK"),
    ((SEED_ATOM, (1, 1, 1), (0,)), "must be positive"),
    ((SEED_ATOM, (1, 1, 1), ("x",)), "x"),
    (("SM80_16x8x16_F16F16F16F16_XX",), "did you mean"),
    # CuTe refuses these at compile time with the same conditions (tests/differential checks them)
    ((SEED_ATOM, (1, 1, 1), (Layout((2, 8), (3, 1)),)), "Non-injective Layout detected in complement"),
    ((SEED_ATOM, (1, 1, 1), (16, 8, 12)), "Shape Divisibility Condition"),
])
def test_refused_inputs(args, match):
    with pytest.raises(SymcuteError, match=match):
        m = sc.make_tiled_mma(*args)
        m.get_layoutA_TV()


def test_defective_upstream_atom_is_refused_where_cute_refuses_it():
    m = sc.make_tiled_mma("SM80_16x8x128_S32U1U1S32_TN_XORPOPC", (2, 1, 1))
    # as CuTe prints it (checked by tests/differential): B and C are usable, A is not
    assert str(m.get_layoutC_TV()) == "((4,8,2),((2,2),(1,1))):((64,1,16),((32,8),(0,0)))"
    with pytest.raises(LayoutError, match="malformed"):
        m.get_layoutA_TV()


def test_print_is_cutes():
    text = str(seed_mma())
    assert text.startswith("TiledMMA\n  ThrLayoutVMNK:  (32,2,2,1):(1,32,64,0)\n  PermutationMNK: (_,_,_)\nMMA_Atom\n")


# --- CuTe's post-conditions, on every catalogued warp atom ---------------------------------------------

def _image_counts(layout: Layout, total: int):
    from symcute.atoms.lint import _flat, _offsets
    off = _offsets(*_flat(layout))
    assert off.min() >= 0 and off.max() < total
    return np.bincount(off, minlength=total)


WARP = [r.atom.name for r in sc.mma_atoms() if not r.name.startswith(("SM90_64x", "SM90::GMMA::SPARSE"))
        and r.arch not in ("sm100", "sm103") and not r.atom.defects]
GMMA = [r.atom.name for r in sc.mma_atoms(extended=False) if r.name.startswith("SM90_64x")]


CONFIGS = st.one_of(
    st.tuples(st.sampled_from(WARP), st.sampled_from([1, 2, 4]), st.sampled_from([1, 2, 4]), st.sampled_from([1, 2])),
    st.tuples(st.sampled_from(GMMA[::3]), st.sampled_from([1, 2]), st.sampled_from([1, 2]), st.just(1)))


@given(CONFIGS)
def test_tv_layouts_cover_their_tiles(config):
    """@post each TV layout reaches every element of its tile equally often (A: at least size(ThrN) times,
    B: size(ThrM) times, C: once per atom broadcast).  CuTe's get_layoutC_TV ignores ThrK: with a K-split
    atom layout the extra threads run past the C tile (see test_c_layout_of_a_k_split), so C is checked for wk == 1."""
    name, wm, wn, wk = config
    m = sc.make_tiled_mma(name, (wm, wn, wk))
    M, N, K = m.tile_shape()
    atom = m.atom
    assert (M, N, K) == (atom.shape_mnk[0] * wm, atom.shape_mnk[1] * wn, atom.shape_mnk[2] * wk)
    vmnk = m.get_thr_layout_vmnk()
    assert vmnk.size() == atom.thr_id.size() * wm * wn * wk
    # the thread domain is thr_idx over (vmnk, complement(vmnk)): SM70's quad pairs leave holes
    nthr = sc.make_layout(vmnk, sc.complement(vmnk)).size()
    for op, total, mult in (("A", M * K, wn), ("B", N * K, wm), ("C", M * N, 1)):
        if op == "C" and wk > 1:
            continue
        lay = m.get_layout_TV(op)
        assert lay[0].size() == nthr
        counts = _image_counts(lay, total)
        # every element reached equally often: by the atom's own broadcast times the broadcast over threads
        assert counts.min() == counts.max() >= mult
        assert counts.sum() == lay.size()


def test_c_layout_of_a_k_split():
    """CuTe's get_layoutC_TV has no K broadcast: threads of the second K group map past the C tile (as CuTe prints)."""
    m = sc.make_tiled_mma(SEED_ATOM, (2, 2, 2))
    assert str(m.get_layoutC_TV()) == "((4,8,2,4),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))"
    assert m.get_layoutC_TV()((255, 0)) >= 32 * 16
    assert str(sc.make_tiled_mma("SM61_DP4A", (1, 2, 2)).get_layoutC_TV()) == "(4,(1,(1,1))):(1,(0,(0,0)))"


def test_universal_fma_is_cutes_template_with_its_defaults():
    # cute/arch/mma.hpp: template <class D, class A = D, class B = A, class C = D> struct UniversalFMA
    a = sc.mma_atom("UniversalFMA<float,float,float>")
    assert a.name == "UniversalFMA<float,float,float,float>" and a.shape_mnk == (1, 1, 1)
    assert str(a.a_layout) == str(a.c_layout) == "(1,1):(0,0)" and str(a.thr_id) == "1:0"
    assert sc.mma_atom("UniversalFMA<int32_t,int8_t>").name == "UniversalFMA<int32_t,int8_t,int8_t,int32_t>"
    assert sc.mma_atom("cute::UniversalFMA<double>") is sc.mma_atom("UniversalFMA<double,double,double,double>")
    # sgemm_sm80's TiledMMA: 16x16 threads, one FMA each per k
    m = sc.make_tiled_mma("UniversalFMA<float,float,float>", (16, 16, 1))
    assert (m.tile_size(0), m.tile_size(1), m.tile_size(2)) == (16, 16, 1) and m.get_layoutC_TV().size() == 256
    for bad in ("UniversalFMA", "UniversalFMA<float,float,float,float,float>", "UniversalFMA<16>"):
        with pytest.raises(SymcuteError):
            sc.mma_atom(bad)
