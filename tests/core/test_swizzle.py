"""Swizzle<B,M,S> as CuTe defines it (``cute/swizzle.hpp``): the functor, make_swizzle, merging, casts."""

import re

import pytest
from hypothesis import assume, given, strategies as st

from symcute import LayoutError
from symcute.core.swizzle import Swizzle, compose_swizzles, downcast_swizzle, make_swizzle, upcast_swizzle

from ..strategies import swizzles


# --- the functor ---------------------------------------------------------------------

def test_cute_example_masks():
    """Swizzle<3,4,3> (the SW128 atom): Y = bits 7..9, Z = bits 4..6."""
    sw = Swizzle(3, 4, 3)
    assert (sw.yyy_msk, sw.zzz_msk, sw.swizzle_code) == (0b1110000000, 0b1110000, 0b1111110000)
    assert sw(0b1010000000) == 0b1010000000 ^ 0b1010000
    assert str(sw) == "Sw<3,4,3>"


@given(swizzles())
def test_swizzle_is_a_bijection_on_its_period(sw):
    n = sw.size()
    assert n == 1 << (sw.bits + sw.base + abs(sw.shift))
    assert sorted(sw(x) for x in range(n)) == list(range(n))


@given(swizzles(), st.integers(-(1 << 20), 1 << 20))
def test_swizzle_is_an_involution_that_keeps_the_base_bits(sw, x):
    assert sw(sw(x)) == x
    assert sw(x) % (1 << sw.base) == x % (1 << sw.base)
    assert sw(x) ^ x == ((x & sw.yyy_msk) >> sw.shift if sw.shift >= 0 else (x & sw.yyy_msk) << -sw.shift)


@given(swizzles(), st.integers(0, 1 << 12), st.integers(0, 8))
def test_swizzle_is_periodic(sw, x, k):
    assert sw(x + k * sw.size()) == sw(x) + k * sw.size()


@pytest.mark.parametrize("b,m,s,why", [
    (1, -1, 1, "MBase must be positive."),
    (-1, 0, 1, "BBits must be positive."),
    (3, 0, 2, "abs(SShift) must be more than BBits."),
    (2, 0, -1, "abs(SShift) must be more than BBits."),
    (1, 31, 1, "32-bit int"),
    (31, 0, 31, "32-bit int"),
])
def test_invalid_swizzles_are_refused_with_cutes_words(b, m, s, why):
    with pytest.raises(LayoutError, match=re.escape(why)):
        Swizzle(b, m, s)


def test_widest_swizzles_cute_compiles():
    assert Swizzle(1, 30, 1)(5) == 5
    assert Swizzle(1, 0, 31)(5) == 5
    assert Swizzle(1, 30, 1).yyy_msk == -(1 << 31)  # CuTe's int mask has the sign bit


# --- make_swizzle and merging ----------------------------------------------------------

def test_make_swizzle_examples_from_cute():
    assert make_swizzle(0b1000, 0b0100) == Swizzle(1, 2, 1)
    assert make_swizzle(0b11000000, 0b00000110) == Swizzle(2, 1, 5)


@given(swizzles(max_bits=4).filter(lambda sw: sw.bits > 0))
def test_make_swizzle_recovers_a_swizzle_from_its_masks(sw):
    assert make_swizzle(sw.yyy_msk, sw.zzz_msk) == sw


def test_make_swizzle_of_nothing_is_the_identity():
    assert make_swizzle(0, 0) == Swizzle(0, 0, 0)


@pytest.mark.parametrize("y,z,why", [
    (0b1100, 0b1, "Number of bits in Y and Z don't match"),
    (0b1010, 0b0101, "Something went wrong."),
    (0b110, 0b011, "abs(SShift) must be more than BBits."),
    (-1, 1, "not a uint32_t"),
])
def test_make_swizzle_refusals(y, z, why):
    with pytest.raises(LayoutError, match=re.escape(why)):
        make_swizzle(y, z)


@given(swizzles(max_bits=3), swizzles(max_bits=3))
def test_merged_swizzles_compose_as_functions_when_their_bits_are_disjoint(a, b):
    """composition(Sw0, Sw1) xors the masks; with disjoint bits that is exactly Sw0 o Sw1."""
    b = Swizzle(b.bits, b.base, a.shift) if abs(a.shift) >= b.bits else Swizzle(0, b.base, a.shift)
    try:
        merged = compose_swizzles(a, b)
    except LayoutError:
        assume(False)  # CuTe refuses the merge when the xor-ed masks are not a swizzle's
    if a.swizzle_code & b.swizzle_code == 0:
        period = max(a.size(), b.size(), merged.size())
        assert all(merged(x) == a(b(x)) for x in range(period))


def test_merging_needs_equal_shifts():
    with pytest.raises(LayoutError, match="Can only merge swizzles of the same shift."):
        compose_swizzles(Swizzle(1, 0, 2), Swizzle(1, 0, 3))


def test_a_swizzle_merged_with_itself_is_the_identity():
    assert compose_swizzles(Swizzle(3, 4, 3), Swizzle(3, 4, 3)) == Swizzle(0, 0, 0)


# --- upcast / downcast ---------------------------------------------------------------------

@given(swizzles(), st.integers(0, 6))
def test_downcast_then_upcast_restores_the_swizzle(sw, k):
    assert upcast_swizzle(downcast_swizzle(sw, 1 << k), 1 << k) == sw


@given(swizzles(), st.integers(0, 6))
def test_upcast_acts_on_whole_elements(sw, k):
    """upcast<N> sees N offsets as one: for M >= log2 N, Sw'(x) * N == Sw(x * N)."""
    up = upcast_swizzle(sw, 1 << k)
    if sw.base >= k:
        assert all(up(x) << k == sw(x << k) for x in range(up.size()))
    else:  # CuTe clamps the base to 0 and drops the swizzled bits below the element
        assert (up.bits, up.base, up.shift) == (max(sw.bits + sw.base - k, 0), 0, sw.shift)


def test_casts_need_a_power_of_two():
    with pytest.raises(LayoutError, match="N must be a power of two"):
        upcast_swizzle(Swizzle(3, 4, 3), 3)
    with pytest.raises(LayoutError, match="N must be a power of two"):
        downcast_swizzle(Swizzle(3, 4, 3), 6)
