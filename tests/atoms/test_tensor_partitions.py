"""Tensors over pointers and their partitions (the values; CuTe's printed forms are checked in
tests/differential/test_tensor_partitions_vs_cute.py)."""

from __future__ import annotations

from collections import Counter

import pytest

import symcute as sc
from symcute.core import Layout, Swizzle
from symcute.core.pointer import DescriptorIterator, make_gmem_ptr, make_smem_ptr, make_tmem_ptr
from symcute.core.tensor import Tensor, local_tile, make_tensor, recast
from symcute.errors import SymcuteError

SM80 = ("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
GMMA_KK = "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"


def _elements(t: Tensor) -> list[int]:
    return [t(i) for i in range(t.size())]


def test_pointers_print_as_cute_and_advance_in_elements():
    p = make_smem_ptr("half_t")
    assert str(p) == "smem_ptr[16b]((nil))"
    assert str(p + 18) == "smem_ptr[16b](0x24)"
    assert str(make_gmem_ptr("float", 3)) == "gmem_ptr[32b](0xc)"
    assert str(make_smem_ptr("half_t", 0, Swizzle(3, 4, 3))) == "Sw<3,4,3>_smem_ptr[16b]((nil))"
    assert str(make_tmem_ptr("half_t") + 18) == "tmem_[16b](0x0000.0009)"   # rotr(18, 1)
    # a swizzle_ptr swizzles the byte address: element 64 (128 B) of Sw<3,4,3> over half_t is element 72
    assert make_smem_ptr("half_t", 0, Swizzle(3, 4, 3)).element(64) == 72


def test_subbyte_and_misplaced_pointers_are_refused():
    with pytest.raises(SymcuteError, match="subbyte"):
        make_smem_ptr("int4b_t")
    flagged = sc.smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t")
    with pytest.raises(SymcuteError, match="Expected smem"):
        make_tensor(make_gmem_ptr("half_t"), flagged)
    with pytest.raises(SymcuteError, match="16-bit pointer"):
        make_tensor(make_smem_ptr("float"), flagged)


def test_a_flagged_layout_moves_its_swizzle_into_the_pointer():
    flagged = sc.smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t")
    t = make_tensor(make_smem_ptr("half_t"), flagged)
    assert str(t) == "Sw<3,4,3>_smem_ptr[16b]((nil)) o (8,64):(64,1)"
    assert t.engine == "smem" and t.value_type == "half_t"
    # the elements are the flagged layout's values (its swizzle on bytes is Sw<3,3,3> on half_t elements)
    assert _elements(t) == [flagged.outer(flagged.inner(i) * 2) // 2 for i in range(t.size())]


def test_issue_reproducer_partition_A_of_a_composed_layout():
    m = sc.make_tiled_mma(*SM80)
    got = m.get_slice(0).partition_A(sc.parse_layout("Sw<1,3,3> o 0 o (32,16):(16,1)"))
    assert str(got) == "((2,2,2),1,1):((1,128,8),0,0)"


@pytest.mark.parametrize("spec", ["Sw<3,3,3> o 0 o (32,64,2):(64,1,2048)", "Sw<2,3,3> o 0 o (32,32):(32,1)",
                                  "(32,64,2):(64,1,2048)"])
def test_every_thread_partition_of_a_swizzled_tensor_covers_it(spec):
    """Over all threads, partition_A's elements are the tensor's, each once per ThrN (A is broadcast over N)."""
    m = sc.make_tiled_mma(*SM80)
    t = make_tensor(make_smem_ptr("half_t", 512), sc.parse_layout(spec))
    seen = Counter()
    for thr in range(m.size()):
        part = m.get_slice(thr).partition_A(t)
        assert isinstance(part, Tensor) and part.engine == "smem"
        seen.update(_elements(part))
    want = Counter(_elements(t))
    assert seen == Counter({k: 2 * v for k, v in want.items()})


def test_tensor_and_layout_partitions_agree():
    m = sc.make_tiled_mma(*SM80)
    lay = Layout((64, 32, 3), (32, 1, 2048))
    for thr in (0, 37, 101):
        s = m.get_slice(thr)
        part = s.partition_A(make_tensor(make_gmem_ptr("half_t", 7), lay))
        assert part.layout() == s.partition_A(lay)
        assert part.data() == make_gmem_ptr("half_t", 7 + s.partition_offset("A", lay))


def test_copy_partitions_and_retile_keep_the_iterator():
    m = sc.make_tiled_mma(*SM80)
    tc = sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x4_LDSM_N", "half_t"), m)
    sA = make_tensor(make_smem_ptr("half_t"), sc.parse_layout("Sw<3,3,3> o 0 o (32,64,3):(64,1,2048)"))
    s = tc.get_slice(9)
    part = s.partition_S(sA)
    assert isinstance(part, Tensor) and part.data().offset == s.partition_offset("S", sA)
    frg = m.get_slice(9).partition_fragment_A(sA)
    assert frg.engine == "ptr" and frg.value_type == "half_t"
    ret = s.retile_D(frg)
    assert ret.data() == frg.data() and ret.layout() == tc.retile(frg.layout())


def test_gmma_descriptor_fragment():
    g = sc.make_tiled_mma(GMMA_KK)
    G = sc.tile_to_shape(sc.smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t"), (64, 64, 3))
    frg = g.get_slice(0).partition_fragment_A(make_tensor(make_smem_ptr("half_t"), G))
    assert str(frg) == "GMMA::DescriptorIterator o (1,1,4,(1,3)):(0,0,2,(0,512))"
    assert isinstance(frg.data(), DescriptorIterator)
    assert dict(frg.data().fields) == {"layout_type": "B128", "leading_byte_offset": 1, "stride_byte_offset": 64,
                                       "base_offset": 0}
    # k-block 1 of stage 2 starts 2 + 2*512 16-byte units (32 + 16384 bytes) on
    assert frg((0, 0, 1, (0, 2))) == 2 + 1024


def test_gmma_descriptor_fragment_refusals():
    g = sc.make_tiled_mma(GMMA_KK).get_slice(0)
    with pytest.raises(SymcuteError, match="Expected SMEM Tensor"):
        g.partition_fragment_A(make_tensor(make_gmem_ptr("half_t"), Layout((64, 64), (64, 1))))
    with pytest.raises(SymcuteError, match="composed layout"):
        g.partition_fragment_A(make_tensor(make_smem_ptr("half_t"), sc.parse_layout("Sw<3,4,3> o 0 o (64,64):(64,1)")))
    with pytest.raises(SymcuteError, match="Not a canonical GMMA_K Layout"):
        g.partition_fragment_A(make_tensor(make_smem_ptr("half_t"), Layout((64, 64), (64, 1))))
    with pytest.raises(SymcuteError, match="Expecting ValTypeA"):
        G = sc.tile_to_shape(sc.smem_layout_atom("GMMA::Layout_K_SW128_Atom", "bfloat16_t"), (64, 64))
        g.partition_fragment_A(make_tensor(make_smem_ptr("bfloat16_t"), G))
    with pytest.raises(SymcuteError, match="descriptor tensor"):   # a layout has no smem pointer
        g.partition_fragment_A(Layout((64, 64), (64, 1)))


def test_recast_and_local_tile_of_pointer_tensors():
    t = make_tensor(make_smem_ptr("half_t", 16), Layout((16, 8), (8, 1)))
    r = recast(t, "uint128_t")
    assert str(r) == "smem_ptr[128b](0x20) o (16,1):(1,1)"   # upcast<8>: a stride-1 mode keeps stride 1
    tile = local_tile(make_tensor(make_gmem_ptr("float"), Layout((64, 64))), (16, 32), (1, 1))
    assert str(tile) == "gmem_ptr[32b](0x2040) o (16,32):(1,64)"


def test_a_run_time_thread_index_keeps_run_time_swizzle_strides():
    """CuTe's slice_and_offset at a run-time coordinate: the per-bit strides of a decayed swizzle are run-time
    ints (conditional_return on run-time bits), which coalesce does not merge; the values are the static ones."""
    from symcute.core.integer import dynamic
    m = sc.make_tiled_mma(*SM80)
    tc = sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x4_LDSM_N", "half_t"), m)
    t = make_tensor(make_smem_ptr("half_t"), sc.parse_layout("Sw<3,3,3> o 0 o (32,64,3):(64,1,2048)"))
    static, run_time = tc.get_slice(9).partition_S(t), tc.get_slice(dynamic(9)).partition_S(t)
    assert str(static.layout()) == "((8,1),1,4,3):((1,0),0,16,2048)"
    assert run_time.layout().cute_str() == "((_8,_1),_1,(_2,_2),_3):((_1,_0),_0,(16,32),_2048)"
    assert _elements(static) == _elements(run_time)


def test_mixed_bits_offset_of_a_swizzle_that_cannot_decay():
    from symcute.core.composed import MixedBits, make_mixed_bits, mixed_xor
    from symcute.core.integer import dynamic
    assert make_mixed_bits(16, 5, 16) == 16 and not isinstance(make_mixed_bits(16, 5, 16), MixedBits)
    x = mixed_xor(make_mixed_bits(0, 144, 400), 3)
    assert isinstance(x, MixedBits) and str(x) == "M_3|(144&400)=147"
    m = sc.make_tiled_mma(*SM80)
    t = make_tensor(make_smem_ptr("half_t"), sc.tile_to_shape(sc.parse_layout("Sw<3,3,3> o 0 o (64,8):(1,64)"),
                                                               (64, 64, 3)))
    part = m.get_slice(dynamic(37)).partition_A(t)
    assert str(part.layout()).startswith("Sw<3,3,3> o M_0|(144&400)=144 o ")
    assert _elements(part) == _elements(m.get_slice(37).partition_A(t))


def test_pointer_tensors_in_the_expression_language():
    from symcute import expr as language
    ev = language.evaluate
    assert str(ev("make_smem_ptr<half_t>(18)")) == "smem_ptr[16b](0x24)"
    assert str(ev("make_tensor(make_smem_ptr<half_t>(), GMMA::Layout_K_SW128_Atom<half_t>{})")) == \
        "Sw<3,4,3>_smem_ptr[16b]((nil)) o (8,64):(64,1)"
    frg = ev("make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}).get_slice(0)"
             ".partition_fragment_A(make_tensor(make_smem_ptr<half_t>(), "
             "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64,_3>{})))")
    assert str(frg) == "GMMA::DescriptorIterator o (1,1,4,(1,3)):(0,0,2,(0,512))"
    with pytest.raises(SymcuteError, match="subbyte"):
        ev("make_gmem_ptr<int4b_t>()")
    with pytest.raises(SymcuteError, match="make_smem_ptr"):
        ev("make_smem_ptr<half_t, float>()")


def test_a_bare_flagged_layout_gives_the_descriptor_fragment():
    """A GMMA atom layout names shared memory (its smem_ptr flag): its SS fragment is the descriptor tensor
    of make_tensor(smem_ptr, layout), the same as for the Tensor."""
    g = sc.make_tiled_mma(GMMA_KK).get_slice(0)
    G = sc.tile_to_shape(sc.smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t"), (64, 64, 3))
    assert g.partition_fragment_A(G) == g.partition_fragment_A(make_tensor(make_smem_ptr("half_t"), G))
    assert str(g.partition_fragment_B(G)) == "GMMA::DescriptorIterator o (1,1,4,(1,3)):(0,0,2,(0,512))"
