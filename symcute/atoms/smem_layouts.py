"""CuTe's shared-memory layout atoms for GMMA (SM90) and UMMA (SM100), as data.

Each atom is defined in bits and upcast to the element type, as in CuTe:
``Layout_K_SW128_Atom<T> = upcast<sizeof_bits<T>>(Layout_K_SW128_Atom_Bits)``,
where ``Layout_K_SW128_Atom_Bits = Sw<3,4,3> o smem_ptr_flag o (8,1024):(1024,1)``
(one row of 1024 bits = 128 bytes per K-major row, 8 rows).  The offset is
CuTe's ``smem_ptr_flag``: the swizzle acts on the byte address of the smem
pointer, which is why its ``M`` stays 4 (16-byte units) whatever ``T`` is.

    >>> str(smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t"))
    'Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)'

UMMA (``cute/atom/mma_traits_sm100.hpp``) re-uses GMMA's eight atoms
(``using cute::GMMA::Layout_K_SW128_Atom;``) and adds ``Layout_MN_SW128_32B_Atom``.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.composed import ComposedLayout, SmemPtrFlag
from ..core.layout import Layout
from ..core.numeric import sizeof_bits
from ..core.recast import upcast
from ..core.swizzle import Swizzle
from ..errors import LayoutError

CUTLASS_VERSION = "4.2"


class SmemAtomBits(NamedTuple):
    """``ComposedLayout<Swizzle<B,M,S>, smem_ptr_flag, Layout<shape, stride>>`` in bits."""
    swizzle: tuple
    shape: tuple
    stride: tuple
    header: str


_GMMA = "cute/atom/mma_traits_sm90_gmma.hpp"
_UMMA = "cute/atom/mma_traits_sm100.hpp"

# name -> the _Bits definition; one line each, as the header writes it.
SMEM_LAYOUT_ATOMS = {
    "GMMA::Layout_MN_INTER_Atom": SmemAtomBits((0, 4, 3), (128, 8), (1, 128), _GMMA),
    "GMMA::Layout_MN_SW32_Atom": SmemAtomBits((1, 4, 3), (256, 8), (1, 256), _GMMA),
    "GMMA::Layout_MN_SW64_Atom": SmemAtomBits((2, 4, 3), (512, 8), (1, 512), _GMMA),
    "GMMA::Layout_MN_SW128_Atom": SmemAtomBits((3, 4, 3), (1024, 8), (1, 1024), _GMMA),
    "GMMA::Layout_K_INTER_Atom": SmemAtomBits((0, 4, 3), (8, 128), (128, 1), _GMMA),
    "GMMA::Layout_K_SW32_Atom": SmemAtomBits((1, 4, 3), (8, 256), (256, 1), _GMMA),
    "GMMA::Layout_K_SW64_Atom": SmemAtomBits((2, 4, 3), (8, 512), (512, 1), _GMMA),
    "GMMA::Layout_K_SW128_Atom": SmemAtomBits((3, 4, 3), (8, 1024), (1024, 1), _GMMA),
    "UMMA::Layout_MN_SW128_32B_Atom": SmemAtomBits((2, 5, 2), (1024, 4), (1, 1024), _UMMA),
}

# UMMA's using-declarations of GMMA's atoms (cute/atom/mma_traits_sm100.hpp, namespace UMMA)
ALIASES = {"UMMA::" + n.split("::", 1)[1]: n for n in SMEM_LAYOUT_ATOMS if n.startswith("GMMA::")}


def smem_layout_atom_names() -> list:
    """Every spelled name, ``GMMA::...`` and ``UMMA::...`` (aliases included)."""
    return list(SMEM_LAYOUT_ATOMS) + list(ALIASES)


def _entry(name: str) -> SmemAtomBits:
    key = ALIASES.get(name, name)
    if key not in SMEM_LAYOUT_ATOMS:
        raise LayoutError(f"unknown shared-memory layout atom {name!r}; known: {', '.join(smem_layout_atom_names())}")
    return SMEM_LAYOUT_ATOMS[key]


def smem_layout_atom_bits(name: str) -> ComposedLayout:
    """``<name>_Bits``: the atom over bits, e.g. ``smem_layout_atom_bits("GMMA::Layout_K_SW128_Atom")``."""
    e = _entry(name)
    return ComposedLayout(Swizzle(*e.swizzle), SmemPtrFlag(1), Layout(e.shape, e.stride))


def smem_layout_atom(name: str, value_type) -> ComposedLayout:
    """``<name><T>`` = ``upcast<sizeof_bits<T>>(<name>_Bits)`` (``value_type``: a type name or a bit width).

    @pre sizeof_bits<T> divides the atom's row (CuTe's upcast otherwise rounds the shape up)
    """
    return upcast(smem_layout_atom_bits(name), sizeof_bits(value_type))
