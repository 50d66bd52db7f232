"""CopyAtom: CuTe's ``Copy_Atom<Copy_Traits<Op>, ValType>`` as data.

``Copy_Traits`` give three layouts in *bits*: ``(thread, value) -> bit`` for the
source, the destination, and the reference the TiledCopy tiles with.  Given a
value type, ``Copy_Atom`` recasts them to values (``recast_layout<uint1_t,
ValType>``) and requires each to keep ``size(ThrID)`` threads.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core import Layout, recast_layout, size, sizeof_bits
from ..errors import LayoutError


@dataclass(frozen=True, eq=False)
class CopyAtom:
    """One copy instruction's traits; ``value_type`` (e.g. ``"half_t"``) turns bit layouts into value layouts.

    ``CopyAtom(name, thr_id, src_layout, dst_layout, ref_layout)`` accepts Layouts or CuTe notation.
    """
    name: str
    thr_id: Layout
    src_layout: Layout
    dst_layout: Layout
    ref_layout: Layout
    value_type: str | None = None
    header: str = ""
    ptx: str = ""
    arch: str = ""
    val_id: Layout | None = None   # TMEM atoms: CuTe's ValID, logical bit -> TMEM address (lane << 21 | column)

    def __post_init__(self):
        for attr in ("thr_id", "src_layout", "dst_layout", "ref_layout", "val_id"):
            v = getattr(self, attr)
            if v is None and attr == "val_id":
                continue
            if isinstance(v, str):
                v = Layout.parse(v)
            elif isinstance(v, int) and not isinstance(v, bool):
                v = Layout(v)
            if not isinstance(v, Layout):
                raise LayoutError(f"CopyAtom {self.name!r}: {attr} must be a Layout, got {v!r}")
            if attr not in ("thr_id", "val_id") and v.rank != 2:
                raise LayoutError(f"CopyAtom {self.name!r}: {attr} {v} must have rank 2 (thread, value)")
            object.__setattr__(self, attr, v)
        if self.value_type is not None:
            self._check_value_type()

    # --- value layouts (Copy_Atom<Op, ValType>) ---------------------------------------------------
    def with_value_type(self, value_type) -> "CopyAtom":
        """``Copy_Atom<Op, value_type>``: the same traits seen in values of ``value_type``."""
        return replace(self, value_type=_type_text(value_type))

    def _bits(self) -> int:
        if self.value_type is None:
            raise LayoutError(f"copy atom {self.name}: no value type given (Copy_Atom<{self.name}, T> needs T)")
        return sizeof_bits(self.value_type)

    def _recast(self, bit_layout: Layout) -> Layout:
        return recast_layout(bit_layout, 1, self._bits())

    @property
    def val_layout_src(self) -> Layout:
        """CuTe's ``ValLayoutSrc``: (src-thr, src-val) -> value offset."""
        return self._recast(self.src_layout)

    @property
    def val_layout_dst(self) -> Layout:
        return self._recast(self.dst_layout)

    @property
    def val_layout_ref(self) -> Layout:
        return self._recast(self.ref_layout)

    @property
    def num_val_src(self) -> int:
        return size(self.val_layout_src[1])

    @property
    def num_val_dst(self) -> int:
        return size(self.val_layout_dst[1])

    def _check_value_type(self):
        where = f"Copy_Atom<{self.name}, {self.value_type}>"
        nthr = self.thr_id.size()
        for role, lay in (("Src", self.src_layout), ("Dst", self.dst_layout), ("Ref", self.ref_layout)):
            try:
                val = self._recast(lay)
            except LayoutError as e:
                raise LayoutError(f"{where}: recast of the {role} layout {lay} to values fails: {e}") from None
            if size(val[0]) != nthr:
                raise LayoutError(f"{where}: CopyOperation is not valid for {role} of ValType "
                                  f"(size<0>({val}) != size(ThrID) = {nthr})")

    def __str__(self) -> str:
        """CuTe's ``print(Copy_Atom)`` (needs a value type)."""
        return ("Copy_Atom\n"
                f"  ThrID:        {self.thr_id}\n"
                f"  ValLayoutSrc: {self.val_layout_src}\n"
                f"  ValLayoutDst: {self.val_layout_dst}\n"
                f"  ValLayoutRef: {self.val_layout_ref}\n"
                f"  ValueType:    {self._bits()}b\n")

    def __repr__(self) -> str:
        vt = f", {self.value_type!r}" if self.value_type else ""
        return f"CopyAtom({self.name!r}{vt})"

    def _key(self):
        return (self.name, self.thr_id, self.src_layout, self.dst_layout, self.ref_layout, self.value_type)

    def __eq__(self, other) -> bool:
        return isinstance(other, CopyAtom) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def _type_text(t) -> str | None:
    if t is None:
        return None
    if isinstance(t, int) and not isinstance(t, bool):
        return _bits_name(t)
    from .spelling import type_name
    return type_name(str(t))


def _bits_name(bits: int) -> str:
    """A bit width as a type CuTe knows (``uint_bit_t<N>`` spelled as the standard unsigned type)."""
    names = {1: "uint1b_t", 2: "uint2b_t", 4: "uint4b_t", 8: "uint8_t", 16: "uint16_t", 32: "uint32_t",
             64: "uint64_t", 128: "uint128_t"}
    if bits not in names:
        raise LayoutError(f"no value type of {bits} bits")
    return names[bits]
