"""The bits view (symcute.symbolic.bits): every value equals core's; refusals name the cause."""

import random

import pytest

from symcute.core import ComposedLayout, Layout, Swizzle
from symcute.core.parse import parse_layout
from symcute.symbolic.bits import NotF2Linear, bit_layout

from ..strategies import random_pow2_layout, random_swizzled


def _agrees(L, names=None):
    b = bit_layout(L, names)
    for q in range(L.size()):
        assert b(q) == L(q), (str(L), q)
    return b


def test_example_sw333():
    L = parse_layout("Sw<3,3,3> o 0 o (8,64):(64,1)")
    b = _agrees(L, ("r", "c"))
    assert [x.name for x in b.inputs] == ["r_0", "r_1", "r_2"] + [f"c_{i}" for i in range(6)]
    assert b.row_names(3) == ("r_0", "c_3")
    assert b.row_names(6) == ("r_0",)
    assert b.matrix.is_injective() and b.is_box


def test_random_swizzled_layouts_agree_with_core():
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        L = random_swizzled(rng)
        try:
            _agrees(L)
        except NotF2Linear:
            continue
        checked += 1
    assert checked > 150


def test_random_pow2_layouts_agree_with_core():
    rng = random.Random(8)
    for _ in range(200):
        L = random_pow2_layout(rng)
        try:
            _agrees(L)
        except NotF2Linear as e:
            assert "carries" in str(e) or "power of two" in str(e)


def test_non_pow2_extent_is_a_subset_of_the_box():
    L = parse_layout("Sw<2,2,2> o 0 o (3,16):(16,1)")
    b = _agrees(L)
    assert not b.is_box and b.index_of(b.bits_of(17)) == 17


def test_then_composes_on_values():
    tv = Layout((32, 4), (4, 1))
    smem = parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    b = bit_layout(tv, ("t", "v")).then(smem)
    for q in range(128):
        assert b(q) == smem(tv(q))


@pytest.mark.parametrize("text, why", [
    ("(4,4):(1,2)", "carries"),
    ("(4,2):(3,16)", "not a power of two"),
    ("(4,2):(-1,16)", "negative"),
    ("Sw<1,1,1> o 1 o (2,2):(1,2)", "offset 1"),
])
def test_refusals_name_the_cause(text, why):
    with pytest.raises(NotF2Linear, match=why):
        bit_layout(parse_layout(text))
