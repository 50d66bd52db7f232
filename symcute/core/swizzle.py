"""Swizzle<B, M, S>: CuTe's bit-permuting functor (``cute/swizzle.hpp``).

``Swizzle(B, M, S)(x) = x ^ ((x & yyy_msk) >> S)``: the B bits starting at bit
``M + max(0, S)`` are xor-ed into the B bits starting at ``M - min(0, S)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError


@dataclass(frozen=True)
class Swizzle:
    bits: int
    base: int
    shift: int

    def __post_init__(self):
        for name, v in (("B", self.bits), ("M", self.base), ("S", self.shift)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise LayoutError(f"Swizzle {name} must be an integer, got {v!r}")
        if self.base < 0:
            raise LayoutError(f"Swizzle<{self.bits},{self.base},{self.shift}>: MBase must be positive.")
        if self.bits < 0:
            raise LayoutError(f"Swizzle<{self.bits},{self.base},{self.shift}>: BBits must be positive.")
        if abs(self.shift) < self.bits:
            raise LayoutError(f"Swizzle<{self.bits},{self.base},{self.shift}>: abs(SShift) must be more than BBits.")
        if self.bits + self.base + abs(self.shift) > 62:
            raise LayoutError(f"Swizzle<{self.bits},{self.base},{self.shift}> touches bits beyond 62")

    @property
    def bit_msk(self) -> int:
        return (1 << self.bits) - 1

    @property
    def yyy_msk(self) -> int:
        return self.bit_msk << (self.base + max(0, self.shift))

    @property
    def zzz_msk(self) -> int:
        return self.bit_msk << (self.base - min(0, self.shift))

    def __call__(self, offset: int) -> int:
        y = offset & self.yyy_msk
        return offset ^ (y >> self.shift if self.shift >= 0 else y << -self.shift)

    def is_identity(self) -> bool:
        return self.bits == 0

    def size(self) -> int:
        """The period of the swizzle: ``1 << (M + B + |S|)`` (CuTe's ``size(Swizzle)``)."""
        return 1 << (self.base + self.bits + abs(self.shift))

    cosize = size

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"
