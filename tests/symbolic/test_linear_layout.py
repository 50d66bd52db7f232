"""Linear-layout interop: Triton-form bases of CuTe layouts, round trips, refusals, optional triton check."""

import random

import pytest

import symcute as sc
import symcute.core as core
import symcute.symbolic as sym
from symcute.errors import SymcuteError

from ..strategies import random_pow2_layout, random_swizzle


def _index_bits(L, dims, q):
    """``{in_dim: value}`` of index q: the bits of q, split over the modes in order."""
    out, shift = {}, 0
    for name, vectors in dims.items():
        out[name] = (q >> shift) & ((1 << len(vectors)) - 1)
        shift += len(vectors)
    return out


def _random_bijective_swizzled(rng):
    while True:
        L = random_pow2_layout(rng, max_bits=9, compact_bias=1.0)
        sw = random_swizzle(rng, max_bits=9)
        C = core.ComposedLayout(sw, 0, L)
        try:
            sym.to_linear_layout(C)
        except SymcuteError:
            continue
        return C


def test_bases_apply_to_the_layout_values_and_round_trip():
    rng = random.Random(5)
    for _ in range(150):
        L = _random_bijective_swizzled(rng) if rng.random() < 0.7 else random_pow2_layout(rng, max_bits=9)
        try:
            ll = sym.to_linear_layout(L)
        except SymcuteError as e:
            assert "carries" in str(e) or "power of two" in str(e)
            continue
        for q in range(L.size()):
            assert ll.apply(_index_bits(L, ll.bases, q)) == [L(q)]
        try:
            back = sym.from_linear_layout(ll.bases, ll.out_dims)
        except SymcuteError as e:   # e.g. a broadcast basis 0 twice is fine, but shared bits are no layout
            assert "no CuTe layout" in str(e)
            continue
        assert [back(q) for q in range(L.size())] == [L(q) for q in range(L.size())]
        assert list(sym.to_linear_layout(back).bases.values()) == list(ll.bases.values())


def test_tv_layout_register_lane_warp_and_tile_coordinates():
    m = sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 1, 1))
    A = m.get_layoutA_TV()
    ll = sym.to_linear_layout(A, tv=True, tile=(32, 16))
    assert [len(ll.bases[k]) for k in ("register", "lane", "warp")] == [3, 5, 1]
    for t in range(64):
        for v in range(8):
            idx = A(t, v)
            got = ll.apply({"register": v, "lane": t % 32, "warp": t // 32})
            assert got == [idx % 32, idx // 32]


def test_refusals_name_the_cause():
    with pytest.raises(SymcuteError, match="mode 0 has extent 3"):
        sym.to_linear_layout(core.Layout((3, 4), (4, 1)))
    with pytest.raises(SymcuteError, match="carries"):
        sym.to_linear_layout(core.Layout((4, 4), (1, 2)))
    with pytest.raises(SymcuteError, match="share an offset bit"):
        sym.from_linear_layout({"x": [[1], [1]]}, [("offset", 4)])
    with pytest.raises(SymcuteError, match="outside the output sizes"):
        sym.from_linear_layout({"x": [[4]]}, [("offset", 4)])


def test_swizzled_bases_give_a_swizzled_layout():
    L = sc.parse_layout("Sw<3,3,3> o 0 o (8,64):(64,1)")
    ll = sym.to_linear_layout(L, names=("r", "c"))
    back = sym.from_linear_layout(ll.bases, ll.out_dims)
    assert isinstance(back, core.ComposedLayout)
    assert [back(q) for q in range(512)] == [L(q) for q in range(512)]


def _triton(tl, ll):
    bases, out_dims = ll.to_triton()
    return tl.LinearLayout.from_bases([(k, v) for k, v in bases], [d[0] for d in out_dims], [d[1] for d in out_dims],
                                      False)


def test_against_triton_linear_layout():
    """Where triton is installed: its LinearLayout built from symcute's bases applies, decides injectivity and
    surjectivity, and composes as symcute does (apply = core at every input)."""
    tl = pytest.importorskip("triton._C.libtriton.linear_layout", reason="triton is not installed")
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        L = _random_bijective_swizzled(rng) if rng.random() < 0.7 else random_pow2_layout(rng, max_bits=8)
        try:
            ll = sym.to_linear_layout(L)
        except SymcuteError:
            continue
        t = _triton(tl, ll)
        for q in range(L.size()):
            assert t.apply(_index_bits(L, ll.bases, q)) == {"offset": L(q)}
        assert t.is_injective() == sym.is_injective(L).proved
        n = ll.out_dims[0][1]
        assert t.is_surjective() == sym.is_surjective(L, n).proved
        checked += 1
    # composition: the smem address of a TV layout's (thread, value), Triton's compose vs symcute's bits view
    tv = core.Layout((32, 4), (4, 1))
    smem = sc.parse_layout("Sw<3,4,3> o 0 o 128:1")
    inner = _triton(tl, sym.to_linear_layout(tv, tv=True))
    outer = tl.LinearLayout.from_bases([("offset", [[smem(1 << j)] for j in range(7)])], ["offset"], [128], False)
    both = inner.compose(outer)
    for t in range(32):
        for v in range(4):
            assert both.apply({"register": v, "lane": t, "warp": 0}) == {"offset": smem(tv(t, v))}


def test_from_linear_layout_takes_what_to_linear_layout_returns():
    # the docstring's round trip, written as it reads (the LinearLayout itself, not its .bases)
    from symcute import ComposedLayout, Layout, Swizzle
    for L in (Layout.parse("(4,8):(8,1)"), Layout.parse("(8,8):(1,8)"),
              ComposedLayout(Swizzle(3, 3, 3), 0, Layout.parse("(8,64):(64,1)"))):
        back = sym.from_linear_layout(sym.to_linear_layout(L))
        assert [back(i) for i in range(L.size())] == [L(i) for i in range(L.size())]


def test_contract_is_reached_as_the_docs_write_it():
    from symcute import Layout
    p = sym.contract("right_inverse", Layout.parse("(4,8):(8,1)"))
    assert p.verdict is sym.Verdict.PROVED and "L(R(i)) == i" in str(p)
    with pytest.raises(AttributeError):
        sym.no_such_name
