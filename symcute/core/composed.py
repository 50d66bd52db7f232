"""ComposedLayout ``A o O o B`` (CuTe's ``layout_composed.hpp``), used for swizzled layouts.

``(A o O o B)(c) = A(O + B(c))``: ``B`` is an ordinary layout that defines the
domain, ``O`` an offset, ``A`` a function on offsets (a Swizzle or a Layout).
Operations that reshape the domain apply to ``B`` only, as in CuTe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .layout import Layout, format_int_tuple


@dataclass(frozen=True)
class ComposedLayout:
    outer: Any      # Swizzle | Layout | ComposedLayout  (CuTe's layout_a)
    offset: Any     # int (or IntTuple)
    inner: Any      # Layout | ComposedLayout           (CuTe's layout_b)

    @property
    def layout_a(self):
        return self.outer

    @property
    def layout_b(self):
        return self.inner

    @property
    def shape(self):
        return self.inner.shape

    @property
    def rank(self) -> int:
        return self.inner.rank

    @property
    def depth(self) -> int:
        return self.inner.depth

    def size(self) -> int:
        return self.inner.size()

    def cosize(self):
        return self.inner.cosize()

    def __call__(self, *coord):
        return self.outer(self.offset + self.inner(*coord))

    def __str__(self) -> str:
        return f"{self.outer} o {format_int_tuple(self.offset)} o {self.inner}"

    def __repr__(self) -> str:
        return f"ComposedLayout({str(self)!r})"

    def with_shape(self, *shape):
        from .composition import composition
        s = shape[0] if len(shape) == 1 else tuple(shape)
        return composition(self, Layout(s))

    def compose(self, *others):
        from .composition import composition
        return composition(self, others[0] if len(others) == 1 else tuple(others))
