"""The swizzle recipe: its bank collisions agree with core evaluation; its report renders in en and zh."""

import pytest

from symcute.errors import SymcuteError
from symcute.recipes import derive_swizzle
from symcute.report import markdown


def _banks_by_core(layout_text, element_bits):
    from symcute import parse_layout
    L = parse_layout(layout_text)
    return [((L(r, 0) * element_bits // 8) >> 2) % 32 for r in range(L.shape[0])]


@pytest.mark.parametrize("layout, bits, ways", [
    ("Sw<3,4,3> o 0 o (8,64):(64,1)", 16, 2), ("Sw<3,3,3> o 0 o (8,64):(64,1)", 16, 1),
    ("Sw<2,4,3> o 0 o (8,32):(32,1)", 32, 4), ("Sw<3,4,3> o 0 o (8,128):(128,1)", 8, 1),
])
def test_bank_collisions_are_the_kernel_and_agree_with_core(layout, bits, ways):
    d = derive_swizzle(layout, ("r", "c"), element_bits=bits)
    banks = d.last("table").details["swizzled"]
    assert banks["banks"] == _banks_by_core(layout, bits)
    assert banks["ways"] == ways
    same = {(a, b) for a in range(8) for b in range(a + 1, 8) if banks["banks"][a] == banks["banks"][b]}
    assert same == {tuple(p) for p in banks["pairs"]}


def test_report_in_both_languages():
    d = derive_swizzle()
    en, zh = markdown(d, "en"), markdown(d, "zh")
    assert "(64*r + c) ^ ((r >> 1) << 4)" in en and "`0~1, 2~3, 4~5, 6~7`" in en
    assert "位表" in zh and "**proved**" not in zh


def test_refusals():
    with pytest.raises(SymcuteError, match="rank-2"):
        derive_swizzle("Sw<3,4,3> o 0 o 64:1")
    with pytest.raises(SymcuteError, match="element_bits"):
        derive_swizzle(element_bits=12)


def test_a_gmma_tile_with_nested_modes():
    from symcute.expr import evaluate
    L = evaluate("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, (64,64))")
    d = derive_swizzle(L, (("r", "R"), ("c", "C")))
    banks = d.last("table").details["swizzled"]
    want = [((L(r, 0) * 2) >> 2) % 32 for r in range(64)]
    assert banks["banks"] == want and banks["kernel"] == [["r_0"], ["R_0"], ["R_1"], ["R_2"]]
    assert ", ... (" in markdown(d)
