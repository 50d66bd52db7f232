"""CuTe's shared-memory layout atoms that the memory analyses are checked against.

GMMA's atoms (``cute/atom/mma_traits_sm90_gmma.hpp``, CUTLASS 4.2,
``GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom_Bits``) are defined in bits
and upcast to the element type: ``Layout_K_SW128_Atom<T> =
upcast<sizeof_bits<T>>(Layout_K_SW128_Atom_Bits)``.  They carry the smem_ptr
flag: the swizzle acts on byte addresses (see :mod:`.addresses`).
"""

from __future__ import annotations

from ..core import ComposedLayout, Layout, Swizzle, upcast
from ..core.composed import SmemPtrFlag
from ..errors import LayoutError

HEADER = "cute/atom/mma_traits_sm90_gmma.hpp"

# name -> (B of Swizzle<B,4,3>, shape, stride) in bits
_GMMA_BITS = {
    "MN_INTER": (0, (128, 8), (1, 128)),
    "MN_SW32": (1, (256, 8), (1, 256)),
    "MN_SW64": (2, (512, 8), (1, 512)),
    "MN_SW128": (3, (1024, 8), (1, 1024)),
    "K_INTER": (0, (8, 128), (128, 1)),
    "K_SW32": (1, (8, 256), (256, 1)),
    "K_SW64": (2, (8, 512), (512, 1)),
    "K_SW128": (3, (8, 1024), (1024, 1)),
}


def gmma_atom_bits(name: str) -> ComposedLayout:
    """``GMMA::Layout_<name>_Atom_Bits``, e.g. ``gmma_atom_bits('K_SW128')``."""
    if name not in _GMMA_BITS:
        raise LayoutError(f"unknown GMMA layout atom {name!r}; known: {', '.join(_GMMA_BITS)}")
    b, shape, stride = _GMMA_BITS[name]
    return ComposedLayout(Swizzle(b, 4, 3), SmemPtrFlag(1), Layout(shape, stride))


def gmma_atom(name: str, value_bits: int) -> ComposedLayout:
    """``GMMA::Layout_<name>_Atom<T>`` for a T of ``value_bits``: ``upcast<value_bits>`` of the bit atom."""
    return upcast(gmma_atom_bits(name), value_bits)


def gmma_atoms() -> list:
    return list(_GMMA_BITS)
