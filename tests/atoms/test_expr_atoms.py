"""The atoms in the expression language: C++ spellings evaluate as in CuTe."""

import pytest

from symcute import expr as language
from symcute.errors import SymcuteError

MMA = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})"
SEED_F = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def ev(text, **lets):
    return language.evaluate(text, lets)


def test_seed_expression():
    assert str(ev(MMA + ".get_layoutA_TV()")) == SEED_F
    assert str(ev("make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, make_layout(make_shape(2,2,1))).get_layoutA_TV()"))\
        == SEED_F


def test_methods_and_free_functions():
    assert ev("tile_size<0>(mma)", mma=MMA) == 32
    assert ev("mma.tile_size(2)", mma=MMA) == 16
    assert ev("size(mma)", mma=MMA) == 128
    assert str(ev("mma.get_thr_layout_vmnk()", mma=MMA)) == "(32,2,2,1):(1,32,64,0)"
    assert str(ev("mma.get_slice(0).partition_fragment_A(make_tensor<half_t>(Shape<_32,_16>{}))", mma=MMA)) \
        == "((2,2,2),1,1):((1,2,4),0,0)"
    assert ev("tv_names(mma, A)", mma=MMA)[0] == ("t0", "t1", "wm", "wn")


def test_copies():
    tc = "make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma)"
    assert str(ev(tc + ".get_layoutS_TV()", mma=MMA)) == "((16,2,2,2),(8,2)):((1,0,16,0),(32,256))"
    frg = "mma.get_slice(0).partition_fragment_A(make_tensor<half_t>(Shape<_32,_16>{}))"
    assert str(ev(f"{tc}.get_slice(0).retile_D({frg})", mma=MMA)) == "((4,2),1,1):((1,4),0,0)"
    assert ev("copy_atom(SM75_U32x2_LDSM_N, half_t)").num_val_dst == 4
    assert str(ev("Copy_Atom<UniversalCopy<uint128_t>, half_t>{}").val_layout_src) == "(1,8):(0,1)"


def test_gmma_and_permutations():
    e = ("make_tiled_mma(SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{}, "
         "Tile<_128,Layout<Shape<_32,_4>,Stride<_4,_1>>,_>{})")
    assert ev(f"tile_size<1>({e})") == 128
    assert ev("mma_atom(SM90_64x8x8_F32TF32TF32_SS_TN<>{})").shape_mnk == (64, 8, 8)
    assert ev("MMA_Atom<SM61_DP4A>{}").shape_mnk == (1, 1, 4)
    m = ev("make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<Underscore,_32,_>{})")
    assert m.tile_shape() == (32, 32, 16)


@pytest.mark.parametrize("text", ["make_tiled_mma(SM80_16x8x16_F16F16F16F16_TX{})",
                                  "make_tiled_mma(Layout<Shape<_2>>{})",
                                  "make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, 3)",
                                  "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, half_t)"])
def test_errors_are_symcute_errors(text):
    with pytest.raises(SymcuteError):
        ev(text)
