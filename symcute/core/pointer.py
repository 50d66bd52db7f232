"""Pointers: the engines of non-owning tensors (CuTe's ``pointer.hpp``, ``pointer_swizzle.hpp``).

A :class:`Pointer` is a typed pointer into one memory space, as CuTe tags them:
``gmem_ptr<T*>``, ``smem_ptr<T*>``, ``rmem_ptr<T*>``, ``tmem_ptr<T>``, a raw ``T*`` (the
iterator of an owning register tensor, ``make_tensor<T>(layout)``), and ``swizzle_ptr<Sw,
smem_ptr<T*>>`` (``make_smem_ptr(p, Sw)``; what ``make_tensor(smem_ptr, Sw o smem_ptr_flag o L)``
builds).  symcute's pointers hold no data: the base address is 0 (CuTe's ``nullptr``), and the
pointer is where it points, in elements of its type from that base.

- ``p + n`` advances by ``n`` elements (a tmem pointer by CuTe's ``rotr(n, OffsetShift)`` columns);
- ``p.element(i)``: the index, in elements from the base, of ``p[i]``; through a swizzle_ptr the
  swizzle applies to the byte address, as ``swizzle_ptr::apply_swizzle`` does;
- ``str(p)`` is CuTe's ``print(p)``: ``smem_ptr[16b](0x40)``, ``Sw<3,4,3>_smem_ptr[16b]((nil))``
  (glibc's ``%p`` prints a null pointer as ``(nil)``), ``tmem_[32b](0x0000.0000)``.

@pre a pointer's type is at least 8 bits wide (CuTe points at narrower types with
     ``subbyte_iterator``, which symcute does not model)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError
from .numeric import sizeof_bits
from .swizzle import Swizzle

SPACES = ("gmem", "smem", "rmem", "tmem", "")   # "" is a raw T*

_U32 = 0xFFFFFFFF


@dataclass(frozen=True)
class Pointer:
    """A typed pointer ``space_ptr<value_type*>`` at ``offset`` elements from address 0."""

    space: str
    value_type: str
    offset: int = 0
    swizzle: Swizzle | None = None   # swizzle_ptr's function (on byte addresses); smem only

    def __post_init__(self):
        if self.space not in SPACES:
            raise LayoutError(f"pointer: unknown memory space {self.space!r} (one of gmem, smem, rmem, tmem)")
        bits = sizeof_bits(self.value_type)
        if bits < 8:
            raise LayoutError(f"{self.space}_ptr<{self.value_type}>: a type of {bits} bits is addressed through "
                              f"CuTe's subbyte_iterator, which symcute's pointers do not model")
        if isinstance(self.offset, bool) or not isinstance(self.offset, int):
            raise LayoutError(f"{self.space}_ptr<{self.value_type}>: the offset {self.offset!r} is not an integer")
        if self.swizzle is not None and self.space != "smem":
            raise LayoutError(f"make_smem_ptr(p, {self.swizzle}): a swizzle_ptr is a shared-memory pointer, "
                              f"got a {self.space or 'raw'} pointer")

    @property
    def bits(self) -> int:
        """``sizeof_bits<value_type>``."""
        return sizeof_bits(self.value_type)

    def __add__(self, n):
        if isinstance(n, bool) or not isinstance(n, int):
            return NotImplemented
        return Pointer(self.space, self.value_type, self.offset + int(n), self.swizzle)

    __radd__ = __add__

    def address(self) -> int:
        """The byte address (the pointer's ``get()``, before any swizzle)."""
        return self.offset * self.bits // 8

    def element(self, i: int) -> int:
        """The element ``p[i]`` refers to, in elements from the base (after a swizzle_ptr's swizzle)."""
        k = self.offset + int(i)
        if self.swizzle is None:
            return k
        nbytes = self.bits // 8
        return self.swizzle(k * nbytes) // nbytes

    def tmem_addr(self) -> int:
        """A tmem_ptr's ``addr_``: ``rotr(offset, OffsetShift)`` with ``OffsetShift = log2(32 / bits)``."""
        shift = max(0, (32 // self.bits).bit_length() - 1) if self.bits < 32 else 0
        v = self.offset & _U32
        return ((v >> shift) | (v << (32 - shift))) & _U32 if shift else v

    def __str__(self) -> str:
        if self.space == "tmem":
            a = self.tmem_addr()
            return f"tmem_[{self.bits}b](0x{a >> 16:04x}.{a & 0xFFFF:04x})"
        addr = self.address()
        text = "((nil))" if addr == 0 else f"(0x{addr:x})"   # glibc prints a null %p as (nil)
        base = f"{self.space + '_' if self.space else ''}ptr[{self.bits}b]{text}"
        return f"{self.swizzle}_{base}" if self.swizzle is not None else base

    def __repr__(self) -> str:
        sw = f", swizzle={self.swizzle}" if self.swizzle is not None else ""
        return f"Pointer({self.space!r}, {self.value_type!r}, offset={self.offset}{sw})"


def _make(space: str, value_type, offset: int = 0) -> Pointer:
    return Pointer(space, str(value_type), offset)


def make_gmem_ptr(value_type, offset: int = 0) -> Pointer:
    """``make_gmem_ptr((T*)nullptr + offset)``."""
    return _make("gmem", value_type, offset)


def make_smem_ptr(value_type, offset: int = 0, swizzle: Swizzle | None = None) -> Pointer:
    """``make_smem_ptr((T*)nullptr + offset)``, or with a swizzle ``make_smem_ptr(p, Sw)`` (a swizzle_ptr;
    ``Swizzle<0,M,S>`` decays to the plain pointer, as ``make_swizzle_ptr`` does)."""
    if swizzle is not None and not isinstance(swizzle, Swizzle):
        raise LayoutError(f"make_smem_ptr: {swizzle!r} is not a Swizzle")
    if swizzle is not None and swizzle.bits == 0:
        swizzle = None
    p = _make("smem", value_type, offset)
    return Pointer("smem", p.value_type, offset, swizzle)


def make_rmem_ptr(value_type, offset: int = 0) -> Pointer:
    """``make_rmem_ptr((T*)nullptr + offset)``."""
    return _make("rmem", value_type, offset)


def make_tmem_ptr(value_type="uint32_t", offset: int = 0) -> Pointer:
    """``make_tmem_ptr<T>(0)`` advanced by ``offset`` elements."""
    return _make("tmem", value_type, offset)


def raw_ptr(value_type, offset: int = 0) -> Pointer:
    """A raw ``T*`` (the iterator of ``make_tensor<T>(layout)``'s owning engine)."""
    return _make("", value_type, offset)


@dataclass(frozen=True)
class DescriptorIterator:
    """CuTe's ``GMMA::DescriptorIterator`` / ``UMMA::DescriptorIterator`` over the descriptor of an smem tensor.

    ``start`` is the descriptor's start address in 16-byte units; ``+ n`` adds ``n`` to it, as
    ``DescriptorIterator::operator+`` adds to the descriptor's low 32 bits (the start address field).
    ``fields`` holds the descriptor's other fields (layout type, leading/stride byte offsets).
    """

    family: str        # "GMMA" | "UMMA"
    start: int
    fields: tuple = ()

    def __add__(self, n):
        if isinstance(n, bool) or not isinstance(n, int):
            return NotImplemented
        return DescriptorIterator(self.family, self.start + int(n), self.fields)

    __radd__ = __add__

    def element(self, i: int) -> int:
        """The start address (16-byte units) of the descriptor ``i`` steps on."""
        return self.start + int(i)

    def __str__(self) -> str:
        return f"{self.family}::DescriptorIterator"
