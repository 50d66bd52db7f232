"""Swizzle<B, M, S>: CuTe's bit-permuting functor (``cute/swizzle.hpp``).

``Swizzle(B, M, S)(x) = x ^ ((x & yyy_msk) >> S)``: the B bits starting at bit
``M + max(0, S)`` (the Y bits) are xor-ed into the B bits starting at
``M - min(0, S)`` (the Z bits).  A swizzle is its own inverse and a bijection on
``[0, 2^(B+M+|S|))``.

CuTe keeps the masks in a 32-bit ``int``; they are stored here with the same
two's-complement value so that evaluation agrees bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError


def _int32(v: int) -> int:
    """The value of the 32-bit pattern ``v`` as a C++ ``int``."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


@dataclass(frozen=True)
class Swizzle:
    """CuTe's ``Swizzle<BBits, MBase, SShift>``.

    @pre MBase >= 0, BBits >= 0, abs(SShift) >= BBits (CuTe's static_asserts)
    @pre the masks fit CuTe's 32-bit ``int`` (a wider shift does not compile)
    @post self(self(x)) == x for every int x
    """

    bits: int
    base: int
    shift: int

    def __post_init__(self):
        for name, v in (("B", self.bits), ("M", self.base), ("S", self.shift)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise LayoutError(f"Swizzle {name} must be an integer, got {v!r}")
        b, m, s = self.bits, self.base, self.shift
        if m < 0:
            raise LayoutError(f"Swizzle<{b},{m},{s}>: MBase must be positive.")
        if b < 0:
            raise LayoutError(f"Swizzle<{b},{m},{s}>: BBits must be positive.")
        if abs(s) < b:
            raise LayoutError(f"Swizzle<{b},{m},{s}>: abs(SShift) must be more than BBits.")
        # bit_msk = (1 << B) - 1 and bit_msk << shift are int constant expressions in CuTe:
        # a shift of 32 or more, or bits beyond the 32-bit pattern, do not compile.
        if b > 30 or any(sh > 31 or b + sh > 32 for sh in (m + max(0, s), m - min(0, s))):
            raise LayoutError(
                f"Swizzle<{b},{m},{s}>: its masks do not fit CuTe's 32-bit int (B + M + |S| must be at most 32)")

    # --- CuTe's constants ----------------------------------------------------
    @property
    def bit_msk(self) -> int:
        return (1 << self.bits) - 1

    @property
    def yyy_msk(self) -> int:
        return _int32(self.bit_msk << (self.base + max(0, self.shift)))

    @property
    def zzz_msk(self) -> int:
        return _int32(self.bit_msk << (self.base - min(0, self.shift)))

    @property
    def swizzle_code(self) -> int:
        """``uint32_t(yyy_msk | zzz_msk)``: every bit the swizzle reads or writes."""
        return (self.yyy_msk | self.zzz_msk) & 0xFFFFFFFF

    # --- the function --------------------------------------------------------
    def __call__(self, offset):
        """``offset ^ shiftr(offset & yyy_msk, S)`` (``Swizzle::apply``)."""
        if isinstance(offset, bool) or not isinstance(offset, int):
            offset = _as_int(offset, self)
        y = offset & self.yyy_msk
        return offset ^ (y >> self.shift if self.shift >= 0 else y << -self.shift)

    def is_identity(self) -> bool:
        return self.bits == 0

    def size(self) -> int:
        """The period of the swizzle, ``1 << (M + B + |S|)``: it is a bijection on ``[0, size)``."""
        return 1 << (self.base + self.bits + abs(self.shift))

    cosize = size

    def max_alignment(self) -> int:
        """CuTe's ``max_alignment(Swizzle)``: ``1 << M`` (the bits the swizzle never touches)."""
        return 1 << self.base

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"


def _as_int(x, sw) -> int:
    try:
        return int(x.__index__())
    except AttributeError:
        raise LayoutError(f"{sw} applies to integer offsets, got {x!r}") from None


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _countr_zero(x: int) -> int:
    """``cute::countr_zero`` on ``uint32_t``: 32 for zero."""
    return 32 if x == 0 else (x & -x).bit_length() - 1


def make_swizzle(y: int, z: int) -> Swizzle:
    """CuTe's ``make_swizzle<Y, Z>()``: the swizzle whose Y and Z masks are the given bit sets.

    ``make_swizzle(0b1000, 0b0100) == Swizzle(1, 2, 1)``.
    @pre Y and Z are uint32 values with the same number of bits, each a
         contiguous run, forming a valid Swizzle ("Something went wrong." otherwise)
    """
    for name, v in (("Y", y), ("Z", z)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < (1 << 32):
            raise LayoutError(
                f"make_swizzle<{y},{z}>: {name} = {v} is not a uint32_t value (a narrowing conversion in CuTe)")
    bz, by = _popcount(y), _popcount(z)
    if bz != by:
        raise LayoutError(f"make_swizzle<{y},{z}>: Number of bits in Y and Z don't match")
    tz_y, tz_z = _countr_zero(y), _countr_zero(z)
    base = min(tz_y, tz_z) % 32
    shift = tz_y - tz_z
    bit_msk = (1 << bz) - 1
    code = ((bit_msk << (base + max(0, shift))) | (bit_msk << (base - min(0, shift)))) & 0xFFFFFFFF
    wrong = (f"Something went wrong. (Y|Z = {y | z} is not the code {code} of Swizzle<{bz},{base},{shift}>: "
             f"the bits of Y and Z are not two equal contiguous runs)") if (y | z) != code else ""
    try:  # CuTe reports the Swizzle's own assertions first, then this one
        sw = Swizzle(bz, base, shift)
    except LayoutError as e:
        raise LayoutError(f"make_swizzle<{y},{z}>: {e}" + (f"; {wrong}" if wrong else "")) from None
    if wrong:
        raise LayoutError(f"make_swizzle<{y},{z}>: {wrong}")
    return sw


def compose_swizzles(a: Swizzle, b: Swizzle) -> Swizzle:
    """CuTe's ``composition(Swizzle, Swizzle)``: merge two swizzles of the same shift.

    @pre a.shift == b.shift ("Can only merge swizzles of the same shift.")
    @result make_swizzle(Y_a ^ Y_b, Z_a ^ Z_b)
    """
    if a.shift != b.shift:
        raise LayoutError(f"composition({a}, {b}): Can only merge swizzles of the same shift.")
    return make_swizzle((a.yyy_msk ^ b.yyy_msk) & 0xFFFFFFFF, (a.zzz_msk ^ b.zzz_msk) & 0xFFFFFFFF)


def _log2_pow2(n, op: str, sw: Swizzle) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0 or n & (n - 1):
        raise LayoutError(f"{op}<{n}>({sw}): N must be a power of two")
    return n.bit_length() - 1


def upcast_swizzle(sw: Swizzle, n: int) -> Swizzle:
    """CuTe's ``upcast<N>(Swizzle<B,M,S>)``: ``Swizzle<B, M - log2 N, S>``.

    When ``log2 N > M`` the base is clamped to 0 and B shrinks by the excess (to at least 0).
    @pre N is a power of two
    """
    new_m = sw.base - _log2_pow2(n, "upcast", sw)
    if new_m >= 0:
        return Swizzle(sw.bits, new_m, sw.shift)
    return Swizzle(max(sw.bits + new_m, 0), 0, sw.shift)


def downcast_swizzle(sw: Swizzle, n: int) -> Swizzle:
    """CuTe's ``downcast<N>(Swizzle<B,M,S>)``: ``Swizzle<B, M + log2 N, S>``.

    @pre N is a power of two
    """
    return Swizzle(sw.bits, sw.base + _log2_pow2(n, "downcast", sw), sw.shift)
