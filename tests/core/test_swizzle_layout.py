"""Swizzle-composed layouts ``Sw o O o L`` (``cute/swizzle_layout.hpp``, ``cute/layout_composed.hpp``).

Hypothesis checks the post-conditions CuTe's constructions are built for, on
layouts whose modes map whole bits (power-of-2 extents on disjoint bit ranges),
which is where swizzles live.  Several of CuTe's rules are exact only there:
pushing a swizzle through a layout (``L o Sw == make_swizzle<L(Y),L(Z)> o L``)
needs ``L`` to carry the Y bits and the Z bits in order; slicing needs the
offset not to carry into the layout's bits.  The tests state those conditions.
"""

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st

from symcute import Layout, LayoutError
import symcute.core as core
from symcute.core.composed import ComposedLayout, SmemPtrFlag, UInt32, composition3, through_layout_b
from symcute.core.composition import composition
from symcute.core.dispatch import operation
from symcute.core.int_tuple import idx2crd
from symcute.core.inverse import left_inverse, right_inverse
from symcute.core.layout import _, slice_
from symcute.core.parse import parse_layout
from symcute.core.swizzle import Swizzle

from ..strategies import bit_layouts, fitting_swizzles, layout_swizzles, leaves, slice_coords

UNIT_CASES = Path(__file__).resolve().parent.parent / "data" / "cute_unit_cases.jsonl"


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _bits(sw: Swizzle, which: str) -> list[int]:
    first = sw.base + max(0, sw.shift) if which == "y" else sw.base - min(0, sw.shift)
    return [first + t for t in range(sw.bits)]


def xor_linear(layout: Layout) -> bool:
    """``L(x ^ y) == L(x) ^ L(y)`` on its domain: L moves bits (a stride-0 mode drops them)."""
    n = layout.size()
    return all(layout(x) == _xor_of_bits(layout, x) for x in range(n))


def _xor_of_bits(layout, x):
    acc = 0
    for p in range(x.bit_length()):
        if x >> p & 1:
            acc ^= layout(1 << p)
    return acc


def pushes_exactly(layout: Layout, sw: Swizzle) -> bool:
    """CuTe's ``L o Sw == make_swizzle<L(Y),L(Z)> o L`` holds: L moves bits, the Y and the Z bits in order."""
    if not xor_linear(layout):
        return False
    for which in ("y", "z"):
        images = [layout(1 << p) for p in _bits(sw, which)]
        if any(v <= 0 or v & (v - 1) for v in images):
            return False
        if any(images[t] != images[0] << t for t in range(len(images))):
            return False
    return True


def values(f, n):
    return [f(i) for i in range(n)]


# --- CuTe's own unit tests ---------------------------------------------------------------

def _unit_cases():
    rows = [json.loads(line) for line in UNIT_CASES.read_text().splitlines() if line.strip()]
    return [r for r in rows if "Sw<" in "".join(r["args"]) + r["cute"]]


@pytest.mark.parametrize("row", _unit_cases(), ids=lambda r: f"{r['op']}({', '.join(r['args'])})")
def test_cute_unit_cases(row):
    fn = {"composition": composition, "right_inverse": right_inverse, "left_inverse": left_inverse}[row["op"]]
    assert str(fn(*(parse_layout(a) for a in row["args"]))) == row["cute"]


# --- composition ----------------------------------------------------------------------------

@given(layout_swizzles(), bit_layouts())
def test_swizzle_o_layout_is_function_composition(sw, L):
    R = composition(sw, L)
    assert values(R, L.size()) == [sw(L(i)) for i in range(L.size())]
    assert (R == L) if sw.bits == 0 else (R == ComposedLayout(sw, 0, L))


@given(bit_layouts(gaps=False), st.data())
def test_layout_o_swizzle_moves_the_swizzle_left(L, data):
    """``composition(L, Sw) = Sw' o 0 o L`` with ``Sw'(L(i)) == L(Sw(i))`` where the push is exact."""
    sw = data.draw(fitting_swizzles(_log2(L.size())))
    assume(pushes_exactly(L, sw))
    R = composition(L, sw)
    assert all(R(i) == L(sw(i)) for i in range(L.size()))


def test_layout_o_swizzle_follows_cute_where_the_push_is_not_exact():
    """(2,2,4):(2,1,4) swaps the two Z bits: CuTe still answers Sw<2,0,2> o 0 o L, which is not L o Sw."""
    L, sw = Layout((2, 2, 4), (2, 1, 4)), Swizzle(2, 0, 2)
    R = composition(L, sw)
    assert str(R) == "Sw<2,0,2> o 0 o (2,2,4):(2,1,4)"  # CuTe's print
    assert not pushes_exactly(L, sw) and R(4) != L(sw(4))


@given(layout_swizzles(), st.integers(0, 64), bit_layouts(), st.data())
def test_composed_o_tiler_is_function_composition(sw, offset, L, data):
    C = ComposedLayout(sw, offset, L)
    n = data.draw(st.sampled_from([d for d in range(1, L.size() + 1) if L.size() % d == 0]))
    T = Layout(n, data.draw(st.sampled_from([1, 2]))) if L.size() >= 2 * n else Layout(n, 1)
    try:
        R = composition(C, T)
    except LayoutError:
        assume(False)  # CuTe's divisibility conditions (checked against CuTe in the differential suite)
    assert all(R(i) == C(T(i)) for i in range(T.size()))


@given(bit_layouts(gaps=False), bit_layouts(), st.data())
def test_layout_o_composed_is_function_composition(A, L, data):
    sw = data.draw(fitting_swizzles(_log2(A.size())))
    assume(pushes_exactly(A, sw))
    R = composition(A, ComposedLayout(sw, 0, L))
    domain = [i for i in range(L.size()) if 0 <= sw(L(i)) < A.size()]
    assert all(R(i) == A(sw(L(i))) for i in domain)


def test_composition_refusals():
    C = parse_layout("Sw<2,0,3> o 4 o (8,8):(8,1)")
    with pytest.raises(LayoutError, match="Require offset == 0."):
        composition(Layout((8, 8), (8, 1)), C)
    with pytest.raises(LayoutError, match="no matching function"):
        composition(Swizzle(2, 0, 3), 8)
    with pytest.raises(LayoutError, match="no matching function"):
        composition(Swizzle(2, 0, 3), C)
    with pytest.raises(LayoutError, match="Something went wrong."):
        composition(Layout((2, 2, 2, 2), (1, 2, 4, 16)), Swizzle(2, 0, 2))  # the Y bits land apart


def test_identity_swizzle_collapses_only_with_the_static_zero():
    L = Layout((8, 8), (8, 1))
    assert composition3(Swizzle(0, 4, 3), 0, L) == L
    assert isinstance(composition3(Swizzle(0, 4, 3), UInt32(0), L), ComposedLayout)
    assert isinstance(composition3(Swizzle(0, 4, 3), SmemPtrFlag(16), L), ComposedLayout)
    assert composition(parse_layout("Sw<0,4,3> o 0 o (8,64):(64,1)"), 8) == Layout(8, 64)


# --- inverses -------------------------------------------------------------------------------

@given(bit_layouts(gaps=False), st.data())
def test_right_inverse_post_condition(L, data):
    """``C(R(i)) == i`` for ``i < size(R)``, where CuTe's push of the swizzle through ``right_inverse(L)`` is exact."""
    sw = data.draw(fitting_swizzles(_log2(L.size())))
    assume(pushes_exactly(right_inverse(L), sw))
    C = ComposedLayout(sw, 0, L)
    R = right_inverse(C)
    assert all(C(R(i)) == i for i in range(R.size()))


@given(layout_swizzles(), bit_layouts(), st.integers(1, 64))
def test_right_inverse_with_an_offset_subtracts_it(sw, L, offset):
    """``right_inverse(Sw o O o L) = right_inverse(L) o -O o Sw``."""
    C = ComposedLayout(sw, offset, L)
    R = right_inverse(C)
    assert R == ComposedLayout(right_inverse(L), -offset, sw)
    Rl = right_inverse(L)
    domain = [i for i in range(sw.size()) if 0 <= sw(i) - offset < Rl.size()]
    assert all(C(R(i)) == i for i in domain)


@given(bit_layouts(), st.data())
def test_left_inverse_post_condition(L, data):
    """``R(C(i)) == i`` for ``i < size(C)``, where the push through ``left_inverse(L)`` is exact."""
    Ll = left_inverse(L)
    sw = data.draw(fitting_swizzles(_log2(Ll.size())))
    assume(pushes_exactly(Ll, sw))
    C = ComposedLayout(sw, 0, L)
    R = left_inverse(C)
    assert all(R(C(i)) == i for i in range(C.size()) if C(i) < Ll.size())


def test_inverse_of_a_swizzle_is_itself():
    assert right_inverse(Swizzle(3, 4, 3)) == left_inverse(Swizzle(3, 4, 3)) == Swizzle(3, 4, 3)


def test_unsigned_offsets_wrap_as_in_cute():
    """upcast makes the offset a uint32_t constant; negating it wraps (CuTe prints 4294967294)."""
    C = core.upcast(parse_layout("Sw<2,0,3> o 4 o 8:1"), 2)
    assert str(C) == "Sw<1,0,3> o 2 o 4:1"
    assert str(right_inverse(C)) == "4:1 o 4294967294 o Sw<1,0,3>"


# --- slicing -------------------------------------------------------------------------------

def _fill(coord, rest):
    it = iter(rest)

    def go(c):
        if isinstance(c, tuple):
            return tuple(go(x) for x in c)
        return next(it) if c is _ else c
    return go(coord)


@settings(max_examples=200)
@given(layout_swizzles(), bit_layouts(), st.integers(0, 7), st.data())
def test_slice_and_offset_splits_the_function(sw, L, high, data):
    """``C(coord with rest) == sliced(rest) + offset`` (mod 2^32), for offsets that do not carry into L's bits."""
    offset = high << (L.cosize().bit_length() + 1)
    C = ComposedLayout(sw, offset, L)
    coord = data.draw(slice_coords(L.shape))
    S, off = core.slice_and_offset(coord, C)
    rest_shape = slice_(coord, Layout(L.shape)).shape  # one mode per _ (CuTe's slice)
    for i in range(Layout(rest_shape).size()):
        rest = idx2crd(i, rest_shape)
        full = rest if coord is _ else _fill(coord, rest)
        assert C(full) % (1 << 32) == (S(rest) + off) % (1 << 32)


def test_slice_examples_from_cute():
    """CuTe prints these for Sw<3,4,3> o 0 o (8,64):(64,1) (the SW128 K-major half_t atom)."""
    C = parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert core.slice_and_offset((_, 3), C) == (Layout(((2, 4),), ((64, 144),)), 3)
    assert core.slice_and_offset((3, _), C) == (Layout(((16, 2, 2),), ((1, -16, 32),)), 208)
    assert C(_, 3) == Layout(((2, 4),), ((64, 144),))


# --- casts, common vectors, products, the rest ----------------------------------------------------

@given(layout_swizzles(), bit_layouts(), st.integers(0, 4))
def test_upcast_undoes_downcast(sw, L, k):
    C = ComposedLayout(sw, 0, L)
    assume(1 in leaves(L.stride))
    assert core.upcast(core.downcast(C, 1 << k), 1 << k) == C


@given(layout_swizzles(), bit_layouts(gaps=False))
def test_max_common_vector_is_contiguous_in_both(sw, L):
    C = ComposedLayout(sw, 0, L)
    n = core.max_common_vector(C, L)
    inv = right_inverse(L)
    assert 1 <= n <= 1 << sw.base
    assert all(C(inv(i)) == i == L(inv(i)) for i in range(n))


def test_gmma_atoms_keep_their_swizzle_under_upcast():
    """``GMMA::Layout_K_SW128_Atom<half_t>`` as CuTe prints it."""
    bits = ComposedLayout(Swizzle(3, 4, 3), SmemPtrFlag(1), Layout((8, 1024), (1024, 1)))
    atom = core.upcast(bits, 16)
    assert str(atom) == "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"
    assert str(core.tile_to_shape(atom, (128, 64))) == \
        "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1)):((64,512),(1,0))"


def test_make_layout_of_a_swizzle_uses_the_bit_count():
    """CuTe's make_layout(Swizzle<B,M,S>) is Sw o 0 o (M+B+|S|):1 (not 2^(M+B+|S|))."""
    assert str(core.make_layout(Swizzle(3, 4, 3))) == "Sw<3,4,3> o 0 o 10:1"


def test_domain_operations_apply_to_layout_b():
    C = parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert str(core.logical_divide(C, (8, 8))) == "Sw<3,4,3> o 0 o ((8,1),(8,8)):((64,0),(1,8))"
    assert str(C[1]) == "Sw<3,4,3> o 0 o 64:1"
    assert core.coalesce(parse_layout("Sw<0,4,3> o 0 o (2,4):(1,2)")) == Layout(8, 1)
    with pytest.raises(LayoutError, match="target profile"):
        core.filter(C)


def test_through_layout_b_gives_an_operation_cutes_composed_overload():
    @operation()
    def transpose(layout):
        return Layout((layout.shape[1], layout.shape[0]), (layout.stride[1], layout.stride[0]))
    transpose.register(ComposedLayout)(through_layout_b(transpose))

    C = parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert str(transpose(C)) == "Sw<3,4,3> o 0 o (64,8):(1,64)"
    assert transpose(parse_layout("Sw<0,4,3> o 0 o (8,64):(64,1)")) == Layout((64, 8), (1, 64))


def test_refusals_of_the_swizzle_overloads():
    C = parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    with pytest.raises(LayoutError, match="no matching function"):
        core.max_common_layout(C, C)
    with pytest.raises(LayoutError, match="Require Swizzle offset == 0."):
        core.logical_product(Layout(2), parse_layout("Sw<3,4,3> o 8 o (8,64):(64,1)"))
    with pytest.raises(LayoutError, match="Static safe_div requires t % u == 0"):
        core.upcast(parse_layout("Sw<3,4,3> o 3 o (8,64):(64,1)"), 2)
    with pytest.raises(LayoutError, match="N must be a power of two"):
        core.upcast(C, 3)
    with pytest.raises(LayoutError, match="Mismatched Ranks"):
        core.slice_((_, 1), ComposedLayout(Swizzle(1, 0, 1), 0, C))
