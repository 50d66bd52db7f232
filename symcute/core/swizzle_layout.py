"""Operations on swizzle-composed layouts (``cute/swizzle_layout.hpp``, ``layout_composed.hpp``)."""

from __future__ import annotations

from ..errors import LayoutError


def composition_composed(lhs, rhs):
    raise LayoutError(f"composition of swizzled layouts is not supported yet: {lhs} o {rhs}")


def right_inverse_composed(layout):
    raise LayoutError(f"right_inverse of a swizzled layout is not supported yet: {layout}")


def left_inverse_composed(layout):
    raise LayoutError(f"left_inverse of a swizzled layout is not supported yet: {layout}")
