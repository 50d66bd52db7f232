"""Scaled basis strides (CuTe's ``ScaledBasis``, ``E<...>``), for identity-like layouts.

A stride ``v@1@0`` (CuTe's print of ``v * E<0,1>``) sends a coordinate to the
codomain mode ``get<0,1>``; CuTe prints the mode path in reverse, so the text
``1@1@0`` holds ``modes == (0, 1)``.  Composition with a basis-strided right-hand
side selects that mode of the left-hand side (``basis_get``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError, LimitError
from .int_tuple import format_int_tuple

MAX_MODES = 1 << 12  # largest mode index (and nesting) of a basis stride that is turned into a coordinate


@dataclass(frozen=True)
class ScaledBasis:
    value: int
    modes: tuple  # the path for CuTe's get<modes...>

    def __mul__(self, k):
        if isinstance(k, int) and not isinstance(k, bool):
            return ScaledBasis(self.value * k, self.modes)
        return NotImplemented

    __rmul__ = __mul__

    def __add__(self, other):
        if other == 0:
            return self
        if _is_int(other):
            # arithmetic_tuple.hpp: ScaledBasis + C<u> static_asserts u == 0; no overload for a dynamic int
            _refuse("ScaledBasis", self, other)
        # arithmetic_tuple.hpp: ScaledBasis + ScaledBasis is as_arithmetic_tuple(t) + as_arithmetic_tuple(u),
        # an ArithmeticTuple even when both have the same mode (E<0>{} + E<0>{} prints (2))
        return ArithmeticTuple.of(self) + other

    def __radd__(self, other):  # other + self, where other is no basis value (those have __add__)
        if other == 0:
            return self
        if _is_int(other):
            _refuse("ScaledBasis", other, self)  # C<t> + ScaledBasis static_asserts t == 0
        return NotImplemented

    def __str__(self) -> str:
        return str(self.value) + "".join(f"@{m}" for m in reversed(self.modes))

    def __repr__(self) -> str:
        return f"ScaledBasis({self.value}, {self.modes})"

    def basis_get(self, t):
        """``get<modes...>(t)``."""
        for m in self.modes:
            if not isinstance(t, tuple) or m >= len(t):
                if m == 0 and not isinstance(t, tuple):
                    continue
                raise LayoutError(f"basis stride {self} selects a mode that {t} does not have")
            t = t[m]
        return t


@dataclass(frozen=True)
class ArithmeticTuple:
    """A codomain coordinate: what a basis-strided layout returns (CuTe's ``ArithmeticTuple``)."""

    items: tuple

    @staticmethod
    def of(e: ScaledBasis) -> "ArithmeticTuple":
        if len(e.modes) > MAX_MODES or any(m > MAX_MODES for m in e.modes):  # _embed makes m+1 entries per level
            raise LimitError(f"basis stride {e}: a mode index or nesting beyond {MAX_MODES} is no CuTe coordinate")
        return ArithmeticTuple(_embed(e.value, e.modes))

    def __add__(self, other):
        if other == 0:
            return self
        if isinstance(other, ScaledBasis):
            other = ArithmeticTuple.of(other)
        if isinstance(other, ArithmeticTuple):
            return ArithmeticTuple(_add(self.items, other.items))
        if _is_int(other):
            # arithmetic_tuple.hpp adds only C<0> to an ArithmeticTuple (static_assert) and has no int overload
            _refuse("Arithmetic tuple", self, other)
        return NotImplemented

    def __radd__(self, other):  # other + self, where other is no basis value
        if other == 0:
            return self
        if _is_int(other):
            _refuse("Arithmetic tuple", other, self)
        return NotImplemented

    def __str__(self) -> str:
        return format_int_tuple(self.items)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _refuse(kind: str, left, right):
    raise LayoutError(f"{kind} op+ error!: {left} + {right} (CuTe adds an integer to a coordinate of basis "
                      f"strides only when it is a static 0)")


def _embed(v, modes):
    if not modes:
        return v
    m = modes[0]
    return tuple(_embed(v, modes[1:]) if i == m else 0 for i in range(m + 1))


def _add(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        a = a if isinstance(a, tuple) else (a,)
        b = b if isinstance(b, tuple) else (b,)
        n = max(len(a), len(b))
        a = a + (0,) * (n - len(a))
        b = b + (0,) * (n - len(b))
        return tuple(_add(x, y) for x, y in zip(a, b))
    return a + b
