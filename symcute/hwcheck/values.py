"""Value types of MMA operands for the hardware check: bits, register encoding, exact small integers.

Every CuTe value type an mma.sync atom uses (``half_t``, ``bfloat16_t``,
``tfloat32_t``, ``float``, ``double``, ``int8_t`` ... ``uint1b_t``,
``float_e4m3_t``, ``float_e5m2_t``, ``complex<double>``, the Gauss complex
accumulator) is described here by its width in bits, how a value is encoded
into register bits, how register bits decode back, and the range of small
integers that the check draws from.  All ranges are chosen so that every
value, every product and every partial sum of a K <= 256 product is exact in
the type that holds it (an f16 accumulator is exact up to 2048, e5m2 up to 8),
so the hardware's D must equal the predicted D bit for bit.

Register packing follows CuTe's ``recast<RegType>`` of a compact fragment:
value ``v`` of a thread occupies bits ``[v*bits, (v+1)*bits)`` of the
thread's register array, little-endian (sub-byte values share a byte).

Complex values are pairs ``(re, im)`` of ints; the Gauss complex accumulator
of ``SM80_8x8x4_GC64C64C64GC64_TN`` is a triple ``(t0, t1, t2)`` (its three
real products are ``re*re``, ``im*im`` and ``(re+im)*(re+im)``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..errors import SymcuteError

GAUSS = "GaussComplex"


@dataclass(frozen=True)
class ValueType:
    """One operand value type: C++ name, width, kind and the small-integer range drawn from."""
    name: str
    bits: int
    kind: str            # 'int', 'uint', 'ieee', 'minifloat', 'complex', 'gauss'
    lo: int
    hi: int
    exp_bits: int = 0    # ieee / minifloat layouts
    man_bits: int = 0

    def encode(self, value) -> int:
        """The register bits (an unsigned int of ``bits`` bits) holding ``value``."""
        if self.kind in ("int", "uint"):
            lo, hi = ((0, 1 << self.bits) if self.kind == "uint"
                      else (-(1 << (self.bits - 1)), 1 << (self.bits - 1)))
            if not lo <= value < hi:
                raise SymcuteError(f"{self.name}: {value} is not representable in {self.bits} bits")
            return value & ((1 << self.bits) - 1)
        if self.kind == "ieee":
            return _encode_ieee(self, float(value))
        if self.kind == "minifloat":
            return _encode_minifloat(self, value)
        if self.kind == "complex":
            re, im = value
            return _f64_bits(re) | (_f64_bits(im) << 64)
        if self.kind == "gauss":
            t0, t1, t2 = value
            return _f64_bits(t0) | (_f64_bits(t1) << 64) | (_f64_bits(t2) << 128)
        raise AssertionError(self.kind)

    def decode(self, raw: int):
        """The value held by ``bits`` register bits: an int when integral, else a float (or tuple)."""
        if self.kind == "int":
            return raw - (1 << self.bits) if raw >> (self.bits - 1) else raw
        if self.kind == "uint":
            return raw
        if self.kind == "ieee":
            return _integral(_decode_ieee(self, raw))
        if self.kind == "minifloat":
            return _integral(_decode_minifloat(self, raw))
        if self.kind == "complex":
            return (_integral(_bits_f64(raw & _M64)), _integral(_bits_f64(raw >> 64)))
        if self.kind == "gauss":
            return tuple(_integral(_bits_f64((raw >> (64 * i)) & _M64)) for i in range(3))
        raise AssertionError(self.kind)

    def draw(self, rng) -> object:
        """A random small value exact in this type (``rng`` is a :class:`SplitMix64`)."""
        if self.kind == "complex":
            return (rng.between(self.lo, self.hi), rng.between(self.lo, self.hi))
        if self.kind == "gauss":
            return tuple(rng.between(self.lo, self.hi) for _ in range(3))
        return rng.between(self.lo, self.hi)


_M64 = (1 << 64) - 1


def _integral(x: float):
    return int(x) if x == x and x not in (float("inf"), float("-inf")) and x == int(x) else x


def _f64_bits(x) -> int:
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def _bits_f64(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def _encode_ieee(t: ValueType, x: float) -> int:
    if t.bits == 64:
        return _f64_bits(x)
    f32 = struct.unpack("<I", struct.pack("<f", x))[0]
    if t.name == "half_t":
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if t.name == "bfloat16_t":
        if f32 & 0xFFFF:
            raise SymcuteError(f"bfloat16_t: {x} is not exact")
        return f32 >> 16
    if t.name == "tfloat32_t":
        if f32 & 0x1FFF:
            raise SymcuteError(f"tfloat32_t: {x} is not exact")
        return f32
    return f32


def _decode_ieee(t: ValueType, raw: int) -> float:
    if t.bits == 64:
        return _bits_f64(raw)
    if t.name == "half_t":
        return struct.unpack("<e", struct.pack("<H", raw))[0]
    if t.name == "bfloat16_t":
        return struct.unpack("<f", struct.pack("<I", raw << 16))[0]
    return struct.unpack("<f", struct.pack("<I", raw))[0]


def _encode_minifloat(t: ValueType, value: int) -> int:
    """fp8 (e4m3 / e5m2) bits of a small integer; refuses values the format cannot hold exactly."""
    sign = 0x80 if value < 0 else 0
    mag = abs(int(value))
    if mag == 0:
        return sign
    bias = (1 << (t.exp_bits - 1)) - 1
    e = mag.bit_length() - 1                      # mag = 1.f * 2^e
    frac = mag - (1 << e)
    if e >= t.man_bits:
        if frac & ((1 << (e - t.man_bits)) - 1):
            raise SymcuteError(f"{t.name}: {value} is not exact")
        man = frac >> (e - t.man_bits)
    else:
        man = frac << (t.man_bits - e)
    return sign | ((e + bias) << t.man_bits) | man


def _decode_minifloat(t: ValueType, raw: int) -> float:
    bias = (1 << (t.exp_bits - 1)) - 1
    sign = -1.0 if raw & 0x80 else 1.0
    e = (raw >> t.man_bits) & ((1 << t.exp_bits) - 1)
    man = raw & ((1 << t.man_bits) - 1)
    if e == 0:
        return sign * man * 2.0 ** (1 - bias - t.man_bits)
    return sign * (1 + man / (1 << t.man_bits)) * 2.0 ** (e - bias)


# Ranges: operands small enough that K <= 256 products stay exact in every accumulator.
_TYPES = [
    ValueType("half_t", 16, "ieee", -4, 4, 5, 10),
    ValueType("bfloat16_t", 16, "ieee", -4, 4, 8, 7),
    ValueType("tfloat32_t", 32, "ieee", -8, 8, 8, 10),
    ValueType("float", 32, "ieee", -1000, 1000, 8, 23),
    ValueType("double", 64, "ieee", -16, 16, 11, 52),
    ValueType("int8_t", 8, "int", -128, 127),
    ValueType("uint8_t", 8, "uint", 0, 255),
    ValueType("int16_t", 16, "int", -1000, 1000),
    ValueType("int32_t", 32, "int", -1000000, 1000000),
    ValueType("int4b_t", 4, "int", -8, 7),
    ValueType("uint4b_t", 4, "uint", 0, 15),
    ValueType("uint1b_t", 1, "uint", 0, 1),
    ValueType("float_e4m3_t", 8, "minifloat", -6, 6, 4, 3),
    ValueType("float_e5m2_t", 8, "minifloat", -6, 6, 5, 2),
    ValueType("complex<double>", 128, "complex", -8, 8),
    ValueType(GAUSS, 192, "gauss", -64, 64),
]
VALUE_TYPES = {t.name: t for t in _TYPES}

# Accumulator (C) ranges where the D type is narrower than the drawn default would allow.
_C_RANGE = {"half_t": (-64, 64)}


def value_type(name: str, role: str = "A") -> ValueType:
    """The :class:`ValueType` named ``name`` (a Gauss complex accumulator's C++ name ends in GaussComplex).

    ``role`` 'C' narrows the range of narrow accumulators so that D stays exact.
    """
    key = GAUSS if name.endswith("::" + GAUSS) or name == GAUSS else name
    t = VALUE_TYPES.get(key)
    if t is None:
        raise SymcuteError(f"hwcheck: value type {name!r} is not supported (known: {', '.join(VALUE_TYPES)})")
    if role == "C" and key in _C_RANGE:
        lo, hi = _C_RANGE[key]
        t = ValueType(t.name, t.bits, t.kind, lo, hi, t.exp_bits, t.man_bits)
    return t


def pack(values: list, t: ValueType) -> bytes:
    """CuTe's register image of a compact fragment: value v at bits [v*bits, (v+1)*bits), little-endian."""
    acc = 0
    for v, x in enumerate(values):
        acc |= t.encode(x) << (v * t.bits)
    nbytes = (len(values) * t.bits + 7) // 8
    return acc.to_bytes(nbytes, "little")


def unpack(data: bytes, t: ValueType, count: int) -> list:
    """The inverse of :func:`pack`: ``count`` values of type ``t`` from a register image."""
    acc = int.from_bytes(data, "little")
    mask = (1 << t.bits) - 1
    return [t.decode((acc >> (v * t.bits)) & mask) for v in range(count)]


class SplitMix64:
    """A tiny deterministic PRNG (SplitMix64), so that a manifest's seed regenerates its inputs forever."""

    def __init__(self, seed: int):
        self.state = seed & _M64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def between(self, lo: int, hi: int) -> int:
        """Uniform in [lo, hi] (the modulo bias of 64-bit draws over tiny ranges is negligible)."""
        return lo + self.next() % (hi - lo + 1)
