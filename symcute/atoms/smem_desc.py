"""Shared-memory descriptor fragments of GMMA/UMMA atoms (``mma_traits_sm90_gmma.hpp``, ``mma_traits_sm100.hpp``).

An SS GMMA atom's A/B fragment type is ``GMMA::smem_desc<Major>``; ``make_fragment_A/B`` of an
smem tensor goes through CuTe's ``MakeTensor<smem_desc<Major>>``::

    make_tensor(DescriptorIterator{make_gmma_desc<Major>(tensor<0>(smem_tensor))},
                replace<0>(recast<uint128_t const>(smem_tensor).layout(), Layout<_1,_0>{}))

so the fragment's layout is the partition's layout in 16-byte units with the MMA mode replaced
by ``1:0``: each element is one descriptor, whose start address advances by the layout's value.
``make_gmma_desc`` static_asserts the canonical GMMA layouts; :func:`make_gmma_desc` applies the
same checks and computes the descriptor's fields.  ``make_umma_desc``'s checks are not modelled:
an UMMA descriptor tensor has CuTe's layout, its fields are not computed.
"""

from __future__ import annotations

from ..core import Layout, logical_divide, size
from ..core import int_tuple as it
from ..core.pointer import DescriptorIterator, Pointer
from ..core.swizzle import Swizzle
from ..core.tensor import Tensor, recast
from ..errors import LayoutError

LAYOUT_TYPES = {0: "INTERLEAVE", 1: "B32", 2: "B64", 3: "B128"}


def _major(frg: str) -> str:
    return "MN" if frg.rstrip(">").endswith("MN") else "K"


def _bare(t) -> str:
    return str(t).replace("cutlass::", "").replace("cute::", "").strip() if t is not None else ""


def make_gmma_desc(tensor: Tensor, major: str, where: str = "make_gmma_desc") -> DescriptorIterator:
    """CuTe's ``make_gmma_desc<Major>(tensor)`` of a rank-2 smem tensor: its static_asserts, and the
    descriptor (start address in 16-byte units; layout type, leading and stride byte offsets in
    ``fields``).

    @pre tensor is an smem tensor of a plain layout of rank 2 whose swizzle (the swizzle_ptr's, else
         ``Swizzle<0,4,3>``) is ``Swizzle<B,4,3>``, B <= 3, and whose 128-bit view is one of the
         canonical GMMA layouts of ``major`` (CuTe's "Not a canonical GMMA_K/MN Layout" asserts)
    """
    p = tensor.data()
    lay = tensor.layout()
    if not isinstance(p, Pointer) or p.space != "smem":
        raise LayoutError(f"{where}({tensor}): GMMA Descriptors can only be constructed on smem.")
    if not isinstance(lay, Layout):
        raise LayoutError(f"{where}({tensor}): the layout {lay} is not a plain layout (CuTe's layout_type takes "
                          f"Tensor<Engine, Layout<Shape,Stride>>; a swizzle belongs in the smem pointer)")
    if lay.rank != 2:
        raise LayoutError(f"{where}({tensor}): GMMA Descriptors can only be constructed on rank-2 tensors.")
    sw = p.swizzle or Swizzle(0, 4, 3)
    if sw.base != 4 or sw.shift != 3 or not 0 <= sw.bits <= 3:
        raise LayoutError(f"{where}({tensor}): Unsupported layout swizzle {sw} (CuTe: M == 4, S == 3, 0 <= B <= 3)")
    u128 = recast(tensor, "uint128_t")
    ul = u128.layout()
    w = 1 << sw.bits
    ltype = LAYOUT_TYPES[sw.bits]
    bits = p.bits
    try:
        if major == "MN":
            k = size(ul[1])
            if k not in (256 // bits, 128 // bits, 512 // bits):
                raise LayoutError(f"Not a canonical GMMA_MN Layout: Expected K-size 256/sizeof_bits<T> for dense or "
                                  f"(128|512)/sizeof_bits<T> for sparse (K-size {k}).")
            canon = logical_divide(ul, (Layout(w, 1), Layout(8, 1)))
        else:
            if size(ul[0]) % 8 != 0:
                raise LayoutError("Not a canonical GMMA_K Layout: Expected MN-size multiple of 8.")
            if size(ul[1]) not in (2, 4):
                raise LayoutError("Not a canonical GMMA_K Layout: Expected K-size 2 for dense or 4 for sparse "
                                  "(in units of uint128_t).")
            canon = logical_divide(ul, (Layout(8, 1), Layout(2, 1)))
    except LayoutError as e:
        raise LayoutError(f"{where}<GMMA::Major::{major}>({tensor}): {e}") from None
    if not it.congruent(canon.shape, ((1, 1), (1, 1))):
        raise LayoutError(f"{where}<GMMA::Major::{major}>({tensor}): Not a canonical GMMA_{major} Layout: "
                          f"Expected profile failure ({canon}).")
    d = canon.stride
    s00, s01, s10, s11 = d[0][0], d[0][1], d[1][0], d[1][1]
    inter = ltype == "INTERLEAVE"
    if major == "MN":
        ok = (inter or s00 == 1) and s10 == w
        sbo, lbo = (s01, s11) if inter else (s11, s01)
    else:
        ok = s00 == w and (inter or s10 == 1)
        sbo, lbo = s01, s10
    if not ok:
        raise LayoutError(f"{where}<GMMA::Major::{major}>({tensor}): Not a canonical GMMA_{major} Layout: "
                          f"Expected stride failure ({canon}).")
    start = (u128.data().address() >> 4) & 0x3FFF
    fields = (("layout_type", ltype), ("leading_byte_offset", int(lbo) & 0x3FFF),
              ("stride_byte_offset", int(sbo) & 0x3FFF), ("base_offset", 0))
    return DescriptorIterator("GMMA", start, fields)


def make_desc_tensor(frg: str, part: Tensor, where: str, atom_type=None, op: str = "A") -> Tensor:
    """``make_tensor<GMMA|UMMA::smem_desc<Major>>(part)`` of a partitioned smem tensor (V, M, K, ...).

    @pre part is an smem tensor (CuTe: "Expected SMEM Tensor to construct a GMMA Desc Tensor")
    """
    family = "UMMA" if frg.startswith("UMMA::") else "GMMA"
    check_value_type(atom_type, part, where, op)
    if "sparse" in frg:
        raise LayoutError(f"{where}: {frg} needs a sparse smem pointer, which symcute's tensors do not model")
    if not part.is_smem():
        raise LayoutError(f"{where}({part}): Expected SMEM Tensor to construct a {family} Desc Tensor")
    if not isinstance(part.layout(), Layout):
        raise LayoutError(f"{where}({part}): the smem tensor's layout {part.layout()} is a composed layout; CuTe's "
                          f"descriptors read the swizzle from the pointer (make_tensor(smem_ptr, "
                          f"Sw o smem_ptr_flag o L))")
    mode0 = Tensor(part.layout()[0], part.data())
    if family == "GMMA":
        it_ = make_gmma_desc(mode0, _major(frg), where)
    else:
        it_ = DescriptorIterator("UMMA", (recast(mode0, "uint128_t").data().address() >> 4) & 0x3FFF)
    u128 = recast(part, "uint128_t").layout()
    modes = [Layout(1, 0)] + [u128[i] for i in range(1, u128.rank)]
    desc_layout = Layout(tuple(m.shape for m in modes), tuple(m.stride for m in modes))
    return Tensor(desc_layout, it_)


def check_value_type(atom_type, part: Tensor, where: str, op: str) -> None:
    """``make_fragment_A/B``'s ``static_assert(is_same<ValTypeA, value_type>)`` for a descriptor fragment."""
    if atom_type is None or part.value_type is None:
        return
    from ..core.numeric import sizeof_bits
    if sizeof_bits(part.value_type) == 8 and sizeof_bits(atom_type) in (8, 6, 4):
        return   # CuTe accepts an 8-bit tensor for 8/6/4-bit atom types
    if _bare(atom_type) != _bare(part.value_type):
        raise LayoutError(f"{where}: Expecting ValType{op} type: the atom reads {atom_type}, the tensor holds "
                          f"{part.value_type}")
