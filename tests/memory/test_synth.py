"""Swizzle synthesis against CuTe's own choices and the published per-swizzle conflict tables."""

import pytest

from symcute import Layout, Swizzle, upcast
from symcute.atoms import copy_atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma
from symcute.atoms.smem_layouts import smem_layout_atom
from symcute.errors import LayoutError
from symcute.memory import shared_access
from symcute.memory.synth import copy_side, synthesize_swizzle, tv_side

MMA = "SM80_16x8x16_F16F16F16F16_TN"


def _sm80_sides(k):
    base = Layout((32, k), (k, 1))
    write = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"),
                            Layout((16, k // 8), (k // 8, 1)), Layout((1, 8)))
    read = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"), make_tiled_mma(MMA, (2, 2, 1)))
    return base, [copy_side(write, base, "cp.async 128-bit write"), copy_side(read, base, "ldmatrix.x4 read")]


@pytest.mark.parametrize("k, cute", [(64, Swizzle(3, 3, 3)), (32, Swizzle(2, 3, 3)), (16, Swizzle(1, 3, 3))])
def test_sm80_cp_async_plus_ldmatrix_finds_cutes_swizzle(k, cute):
    base, sides = _sm80_sides(k)
    res = synthesize_swizzle(base, sides)
    assert res.conflict_free and res.best.swizzle == cute
    assert res.best.total == sum(res.ideal) < res.unswizzled.total
    assert all(c.total > res.best.total for c in res.alternatives)


@pytest.mark.parametrize("name, k", [("K_SW128", 64), ("K_SW64", 32), ("K_SW32", 16)])
def test_gmma_atoms_are_the_synthesised_swizzle_on_bytes(name, k):
    # GMMA's Sw<B,4,3> acts on byte addresses: for 16-bit elements it is Sw<B,3,3> on element offsets
    base, sides = _sm80_sides(k)
    res = synthesize_swizzle(base, sides)
    atom = smem_layout_atom(f"GMMA::Layout_{name}_Atom", "half_t")
    assert atom.outer.base - 1 == res.best.swizzle.base and atom.outer.bits == res.best.swizzle.bits
    # and the analysis of the GMMA atom itself (pointer swizzle on bytes) is conflict-free for both sides
    from symcute import tile_to_shape
    from symcute.memory import bank_conflicts
    read = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"), make_tiled_mma(MMA, (2, 2, 1)))
    assert bank_conflicts(read, tile_to_shape(atom, (32, k))).conflict_free


def test_cuda_oxide_column_tables():
    # a warp reading one column of a 32x32 float tile (row stride 32): 32-way unswizzled,
    # Swizzle<5,0,5> 1-way, Swizzle<3,0,5> 4-way
    ways = {s: shared_access("(32,1):(1,0)", f"{s} o 0 o (32,32):(32,1)", 32).ways
            for s in ("Sw<5,0,5>", "Sw<4,0,5>", "Sw<3,0,5>", "Sw<2,0,5>", "Sw<1,0,5>")}
    assert ways == {"Sw<5,0,5>": 1, "Sw<4,0,5>": 2, "Sw<3,0,5>": 4, "Sw<2,0,5>": 8, "Sw<1,0,5>": 16}
    assert shared_access("(32,1):(1,0)", "(32,32):(32,1)", 32).ways == 32


def test_impossible_when_the_write_vectors_pin_the_bits_the_read_needs():
    base = Layout((32, 64), (64, 1))
    tv = Layout((32, 64), (1, 32))      # lane t owns row t
    res = synthesize_swizzle(base, [tv_side(tv, base, 16, 128, "st", "row write"),
                                    tv_side(tv, base, 16, 16, "ld", "column read")])
    assert not res.conflict_free
    assert any("breaks row write's 128-bit accesses" in r for r in res.reasons)
    # the column read alone is conflict-free with a swizzle below the 16-byte vector
    alone = synthesize_swizzle(base, [tv_side(tv, base, 16, 16, "ld", "column read")])
    assert alone.conflict_free and alone.best.swizzle.base < 3


def test_synthesis_needs_an_access():
    with pytest.raises(LayoutError, match="at least one access"):
        synthesize_swizzle(Layout((8, 8), (8, 1)), [])


def test_the_reasons_are_the_provers_phrases_worded_in_both_languages():
    from symcute.report.templates import Text
    from symcute.symbolic.vocabulary import Phrase, Reason, read_phrase
    base = Layout((32, 64), (64, 1))
    tv = Layout((32, 64), (1, 32))
    res = synthesize_swizzle(base, [tv_side(tv, base, 16, 128, "st", "row write"),
                                    tv_side(tv, base, 16, 16, "ld", "column read")])
    assert res.reasons and all(isinstance(r, Phrase) and r.kind.name.startswith("SYNTH_") for r in res.reasons)
    but = res.reasons[0]    # the row write alone is fine, but then the column read needs more wavefronts
    assert but.kind is Reason.SYNTH_ALONE_BUT and but.args["side"] == "row write"
    assert but.args["why"].kind is Reason.SYNTH_THEN_NEEDS and but.args["why"].args["side"] == "column read"
    zh = Text("zh").phrase(but)
    assert "可以无冲突" in zh and "is conflict-free" not in zh
    # one side that no swizzle fixes: its reason reads back from its text as the same phrase
    worst = Phrase(Reason.SYNTH_NONE_ALONE, side="column read", best=8, ideal=4, swizzle="Sw<2,3,3>")
    back = read_phrase(str(worst), (Reason,))
    assert back.kind is Reason.SYNTH_NONE_ALONE and back.args == worst.args
    assert "即使单独考虑" in Text("zh").phrase(back)
