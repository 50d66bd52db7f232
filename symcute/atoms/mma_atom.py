"""MMAAtom: the traits of one MMA instruction (CuTe's ``MMA_Traits<Op>``), as plain data.

An atom is a matrix product ``D(M,N) = A(M,K) * B(N,K) + C(M,N)`` executed by
``size(thr_id)`` threads.  Its three TV layouts map ``(thread, value)`` to a
coordinate of the operand's tile, encoded column-major (``m + M*k`` for A,
``n + N*k`` for B, ``m + M*n`` for C), exactly as in CuTe's headers.  Users
build their own atoms with the same constructor the catalog uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..core import Layout
from ..errors import LayoutError
from .operand import OPERANDS, get_operand


@dataclass(frozen=True)
class UpstreamDefect:
    """A catalogue entry that CuTe itself defines wrongly (kept as CuTe has it: fidelity first)."""
    operand: str
    what: str
    counterexample: str
    upstream_text: str = ""


@lru_cache(maxsize=1024)
def _parse(text: str) -> Layout:
    return Layout.parse(text)   # the catalog repeats a few dozen layouts hundreds of times


def _as_layout(x, what: str, name: str) -> Layout | None:
    if x is None or isinstance(x, Layout):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return Layout(x)
    if isinstance(x, str):
        try:
            return _parse(x)
        except LayoutError as e:
            raise LayoutError(f"MMAAtom {name!r}: {what} {x!r} is not a layout: {e}") from None
    raise LayoutError(f"MMAAtom {name!r}: {what} must be a Layout or CuTe notation, got {x!r}")


@dataclass(frozen=True, eq=False)
class MMAAtom:
    """CuTe's ``MMA_Atom<MMA_Traits<Op>>``: shape, thread ids and the A/B/C TV layouts.

    ``MMAAtom(name, shape_mnk, thr_id, a_layout, b_layout, c_layout)`` accepts
    Layouts or CuTe notation (``"((4,8),(2,2)):((32,1),(16,8))"``); ``thr_id``
    may be an int ``n`` (``n:1``).  ``frg_type_a``/``frg_type_b`` name a
    fragment type that is not a value (GMMA's shared-memory descriptors).
    @pre shape_mnk has three positive extents; each TV layout has rank 2
    """
    name: str
    shape_mnk: tuple
    thr_id: Layout
    a_layout: Layout | None
    b_layout: Layout | None
    c_layout: Layout | None
    val_type_d: str | None = None
    val_type_a: str | None = None
    val_type_b: str | None = None
    val_type_c: str | None = None
    header: str = ""
    ptx: str = ""
    arch: str = ""
    frg_type_a: str | None = None
    frg_type_b: str | None = None
    frg_type_c: str | None = None   # UMMA: the TMEM fragment type of the accumulator
    defects: tuple = field(default=())
    extra_layouts: tuple = field(default=())   # (("ELayout", L), ("SFALayout", L), ...): sparse / block-scaled traits

    def __post_init__(self):
        name = self.name
        if not isinstance(name, str) or not name:
            raise LayoutError(f"MMAAtom: name must be non-empty text, got {name!r}")
        shape = self.shape_mnk
        if isinstance(shape, str):
            from ..core import parse_int_tuple
            shape = parse_int_tuple(shape)
        if (not isinstance(shape, (tuple, list)) or len(shape) != 3
                or any(isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in shape)):
            raise LayoutError(f"MMAAtom {name!r}: shape_mnk must be three positive integers (M,N,K), got {shape!r}")
        object.__setattr__(self, "shape_mnk", tuple(shape))
        object.__setattr__(self, "thr_id", _as_layout(self.thr_id, "thr_id", name))
        if self.thr_id is None:
            raise LayoutError(f"MMAAtom {name!r}: thr_id is required")
        for op in OPERANDS:
            attr = op.lower() + "_layout"
            lay = _as_layout(getattr(self, attr), f"{op} layout", name)
            if lay is None and not any(d.operand == op for d in self.defects):
                raise LayoutError(f"MMAAtom {name!r}: the {op} layout is required")
            if lay is not None and lay.rank != 2:
                raise LayoutError(f"MMAAtom {name!r}: the {op} TV layout {lay} must have rank 2 (thread, value)")
            object.__setattr__(self, attr, lay)
        object.__setattr__(self, "defects", tuple(self.defects))
        extra = []
        for pair in self.extra_layouts:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
                raise LayoutError(f"MMAAtom {name!r}: extra_layouts must be (name, layout) pairs, got {pair!r}")
            extra.append((pair[0], _as_layout(pair[1], pair[0], name)))
        object.__setattr__(self, "extra_layouts", tuple(extra))

    # CuTe's names for the same things
    @property
    def Shape_MNK(self) -> tuple:
        return self.shape_mnk

    def layout(self, operand: str) -> Layout:
        """The TV layout of ``operand`` ('A', 'B' or 'C'); a defective upstream definition raises."""
        op = get_operand(operand).name
        lay = getattr(self, op.lower() + "_layout")
        if lay is None:
            d = next(d for d in self.defects if d.operand == op)
            raise LayoutError(f"{self.name}: CuTe's {op}Layout {d.upstream_text} is malformed ({d.what}); "
                              f"CuTe rejects every use of it")
        return lay

    def extra_layout(self, trait: str) -> Layout | None:
        """A further layout of the traits (``ELayout`` of sparse atoms, ``SFALayout``/``SFBLayout``), or None."""
        return dict(self.extra_layouts).get(trait)

    def tile_shape(self, operand: str) -> tuple:
        """The (rows, cols) of the operand's tile: (M,K), (N,K) or (M,N)."""
        return get_operand(operand).tile_shape(self.shape_mnk)

    def val_type(self, operand: str) -> str | None:
        return getattr(self, "val_type_" + operand.lower())

    def __eq__(self, other) -> bool:
        return isinstance(other, MMAAtom) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self):
        return (self.name, self.shape_mnk, self.thr_id, self.a_layout, self.b_layout, self.c_layout,
                self.extra_layouts)

    def __str__(self) -> str:
        """CuTe's ``print(MMA_Atom)``."""
        def show(op):
            lay = getattr(self, op.lower() + "_layout")
            return str(lay) if lay is not None else next(d.upstream_text for d in self.defects if d.operand == op)
        return ("MMA_Atom\n"
                f"  ThrID:      {self.thr_id}\n"
                f"  Shape_MNK:  ({','.join(map(str, self.shape_mnk))})\n"
                f"  LayoutA_TV: {show('A')}\n"
                f"  LayoutB_TV: {show('B')}\n"
                f"  LayoutC_TV: {show('C')}\n")

    def __repr__(self) -> str:
        return f"MMAAtom({self.name!r})"
