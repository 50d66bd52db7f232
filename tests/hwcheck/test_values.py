"""Value types of the hardware check: register encodings and exactness of the drawn small integers."""

import pytest
from hypothesis import given, strategies as st

from symcute.hwcheck.values import VALUE_TYPES, SplitMix64, pack, unpack, value_type
from symcute.errors import SymcuteError


@pytest.mark.parametrize("name,value,bits", [
    ("half_t", 1, 0x3C00), ("half_t", -2, 0xC000), ("bfloat16_t", 1, 0x3F80), ("bfloat16_t", -3, 0xC040),
    ("tfloat32_t", 1, 0x3F800000), ("float", 1000, 0x447A0000), ("double", 1, 0x3FF0000000000000),
    ("int8_t", -1, 0xFF), ("uint8_t", 200, 0xC8), ("int4b_t", -8, 0x8), ("uint4b_t", 15, 0xF),
    ("uint1b_t", 1, 0x1), ("float_e4m3_t", 1, 0x38), ("float_e4m3_t", -6, 0xCC), ("float_e5m2_t", 1, 0x3C),
    ("float_e5m2_t", 6, 0x46), ("float_e4m3_t", 0, 0x00),
])
def test_known_encodings(name, value, bits):
    t = VALUE_TYPES[name]
    assert t.encode(value) == bits
    assert t.decode(bits) == value


@pytest.mark.parametrize("name", sorted(VALUE_TYPES))
def test_every_drawable_value_round_trips(name):
    t = VALUE_TYPES[name]
    if t.kind in ("complex", "gauss"):
        values = [(a, -a) for a in range(t.lo, t.hi + 1)] if t.kind == "complex" else \
                 [(a, a + 1, -a) for a in range(t.lo, t.hi)]
    else:
        step = max(1, (t.hi - t.lo) // 600)     # the wide ranges (int32, float) are sampled
        values = list(range(t.lo, t.hi + 1, step)) + [t.hi]
    assert unpack(pack(values, t), t, len(values)) == values


def test_sub_byte_packing_is_cute_recast_order():
    # value v at bits [4v, 4v+4): the fragment (1, -1, 7, -8) packs little-endian into 0x87F1
    assert pack([1, -1, 7, -8], VALUE_TYPES["int4b_t"]) == bytes([0xF1, 0x87])
    assert pack([1, 0, 1, 1, 0, 0, 0, 1], VALUE_TYPES["uint1b_t"]) == bytes([0b10001101])


def test_inexact_values_are_refused():
    with pytest.raises(SymcuteError):
        VALUE_TYPES["float_e5m2_t"].encode(9)     # 1.001b * 2^3 needs 3 mantissa bits
    with pytest.raises(SymcuteError):
        VALUE_TYPES["float_e4m3_t"].encode(17)
    with pytest.raises(SymcuteError):
        VALUE_TYPES["int4b_t"].encode(8)
    with pytest.raises(SymcuteError):
        VALUE_TYPES["uint8_t"].encode(-1)
    with pytest.raises(SymcuteError):
        VALUE_TYPES["bfloat16_t"].encode(257)


def test_accumulator_range_keeps_f16_exact():
    # worst case of the fp8 atoms with f16 accumulators: K=32 products of 6*6 plus C
    c = value_type("half_t", "C")
    a = value_type("float_e5m2_t")
    assert 32 * max(abs(a.lo), a.hi) ** 2 + max(abs(c.lo), c.hi) <= 2048


def test_unknown_type_is_an_error():
    with pytest.raises(SymcuteError, match="not supported"):
        value_type("float_e2m1_t")


def test_gauss_complex_name():
    assert value_type("SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex").kind == "gauss"


def test_splitmix_is_deterministic_and_in_range():
    a, b = SplitMix64(7), SplitMix64(7)
    xs = [a.between(-3, 3) for _ in range(200)]
    assert xs == [b.between(-3, 3) for _ in range(200)]
    assert set(xs) == set(range(-3, 4))
    # the published first output of SplitMix64 seeded with 0
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


@given(st.sampled_from(sorted(n for n, t in VALUE_TYPES.items() if t.kind not in ("complex", "gauss"))),
       st.data())
def test_pack_unpack_property(name, data):
    t = VALUE_TYPES[name]
    values = data.draw(st.lists(st.integers(t.lo, t.hi), min_size=1, max_size=40))
    assert unpack(pack(values, t), t, len(values)) == values
