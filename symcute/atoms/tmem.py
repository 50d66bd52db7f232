"""Tensor memory (SM100 TMEM) layouts: UMMA's TMEM fragments and ``make_tmem_copy`` / ``make_cotiled_copy``.

TMEM is addressed as ``lane << 16 | column`` in 32-bit words; CuTe's
``tmem_ptr<T>`` addresses ``T`` values, so one data path (lane) is
``TMEM::DP<T> = (1 << 16) << log2(32 / sizeof_bits(T))`` values apart
(``cute/arch/tmem_allocator_sm100.hpp``) and the bit-addressed ``ValID`` of
the TMEM copy atoms uses ``TMEM::DP_b = 1 << 21``.

* ``tmem_frg(value, storage, n_sm, alloc, shape)`` is ``UMMA::tmem_frg<...>::make``
  (``cute/atom/mma_traits_sm100.hpp``): the TMEM allocation CuTe makes for a
  UMMA accumulator (and for the TMEM-sourced A of ``_TS``) from the
  partitioned shape ``((M_MMA, N_MMA), MMA_M, MMA_N, ...)``.
* ``make_cotiled_copy(atom, atom_tv, data)`` and ``make_tmem_copy(atom, tmem)``
  are CuTe's (``cute/atom/copy_atom.hpp``, ``copy_traits_sm100.hpp``): the four
  warps of a warpgroup each reach their own 32-lane sub-partition.
"""

from __future__ import annotations

from ..core import Layout, coalesce, composition, filter, left_inverse, make_layout, sizeof_bits, tiled_product, upcast
from ..core import int_tuple as it
from ..core.hook import traced
from ..errors import LayoutError

DP_B = 1 << 21
HEADER = "cute/atom/mma_traits_sm100.hpp"
INTERLEAVED, NON_INTERLEAVED, DUPLICATED = "Interleaved", "NonInterleaved", "Duplicated"


def tmem_dp(value_type) -> int:
    """``TMEM::DP<T>``: the distance of two TMEM lanes in ``T`` addressing."""
    bits = sizeof_bits(value_type)
    if bits > 32 or 32 % bits:
        raise LayoutError(f"TMEM::DP<{value_type}>: tmem_ptr addresses types of 32 bits or a divisor of 32, "
                          f"got {bits} bits")
    return (1 << 16) << (32 // bits).bit_length() - 1


def _rest(shape: tuple) -> tuple:
    return shape[1:]


def tmem_frg(value_type: str, storage_type: str, n_sm: int, alloc: str, shape) -> Layout:
    """``UMMA::tmem_frg<ValueType, StorageType, N_SM, TmemAlloc>::make(shape)``: the TMEM layout CuTe allocates.

    @pre shape is ((M_MMA, N_MMA), rest...); CuTe's static_asserts on M_MMA, N_SM and TmemAlloc are checked
    """
    where = f"UMMA::tmem_frg<{value_type},{storage_type},{n_sm},UMMA::TmemAllocMode::{alloc}>"
    if sizeof_bits(value_type) > sizeof_bits(storage_type):
        raise LayoutError(f"{where}: TMEM MMA allocations require StorageType big enough for ValueType.")
    if not isinstance(shape, tuple) or not shape or not isinstance(shape[0], tuple) or len(shape[0]) != 2:
        raise LayoutError(f"{where}: Expected post-partitioned shape ((M_MMA,N_MMA),...), got {shape}")
    m_mma, n_mma = it.product(shape[0][0]), it.product(shape[0][1])
    rest = _rest(shape)
    col = sizeof_bits(storage_type) // sizeof_bits(value_type)
    restride = Layout((128, 16384), (tmem_dp(value_type), col))
    if it.product(shape) * sizeof_bits(storage_type) > 128 * 512 * 32:
        raise LayoutError(f"{where}: Requesting more TMEM than is available.")
    rest_layout = make_layout(rest) if rest else Layout(1, 0)
    if n_sm == 1:
        if alloc not in (INTERLEAVED, NON_INTERLEAVED):
            raise LayoutError(f"{where}: UMMA_1SM only accepts Interleaved or NonInterleaved")
        if m_mma == 64:
            atom = Layout(((16, 4), n_mma), ((1, 32), 128))
            step = 1 if alloc == INTERLEAVED else 2
            rest_layout = Layout(rest, it.compact_col_major(rest, step)) if rest else Layout(1, 0)
        elif m_mma == 128:
            atom = Layout((128, n_mma), (1, 128))
        else:
            raise LayoutError(f"{where}: UMMA_1SM M-mode size should be 64 or 128.")
    elif n_sm == 2:
        if alloc not in (INTERLEAVED, DUPLICATED):
            raise LayoutError(f"{where}: UMMA_2SM only accepts Interleaved or Duplicated")
        if m_mma == 32:
            if alloc != INTERLEAVED:
                raise LayoutError(f"{where}: Only TmemAllocMode::Interleaved is supported for UMMA_2SM M_MMA=32")
            atom = Layout((32, (n_mma // 4, 4)), (1, (128, 32)))
        elif m_mma == 64 and alloc == INTERLEAVED:
            atom = Layout((64, (n_mma // 2, 2)), (1, (128, 64)))
        elif m_mma in (64, 128):
            atom = Layout((128, n_mma), (1, 128))
        else:
            raise LayoutError(f"{where}: UMMA_2SM M-mode size should be 32 or 64 or 128.")
    else:
        raise LayoutError(f"{where}: UMMA expects N_SM == 1 or N_SM == 2")
    logical = tiled_product(atom, rest_layout)
    return composition(restride, logical)


def parse_frg(text: str) -> tuple | None:
    """``UMMA::tmem_frg_1sm<float,int32_t,UMMA::TmemAllocMode::NonInterleaved>`` -> (value, storage, n_sm, alloc)."""
    if not text or not text.startswith("UMMA::tmem_frg_"):
        return None
    n_sm = int(text[len("UMMA::tmem_frg_")])
    args = text[text.index("<") + 1:-1].split(",")
    value = args[0]
    storage = args[1] if len(args) > 1 else "uint32_t"
    alloc = args[2].rsplit("::", 1)[-1] if len(args) > 2 else INTERLEAVED
    return value, storage, n_sm, alloc


def frg_text(value: str, n_sm: int, storage: str | None = None, alloc: str | None = None) -> str:
    args = [value] + ([storage] if storage else []) + ([f"UMMA::TmemAllocMode::{alloc}"] if alloc else [])
    return f"UMMA::tmem_frg_{n_sm}sm<{','.join(args)}>"


# --- TMEM copies -----------------------------------------------------------------------------------------

@traced("make_cotiled_copy")
def make_cotiled_copy(copy_atom, atom_tv_layout: Layout, data_layout: Layout):
    """CuTe's ``make_cotiled_copy(copy_atom, atom (thr,val) -> data addr, coord -> data addr)``.

    @pre every address ``atom_tv_layout`` reaches exists in ``data_layout`` (CuTe's static assert)
    """
    from .tiled_copy import make_tiled_copy_impl
    inv_data = make_layout(left_inverse(data_layout), Layout(1, 0))
    layout_tv_data = composition(inv_data, atom_tv_layout)
    check = coalesce(composition(make_layout(data_layout, Layout(1, 0)), layout_tv_data[1]))
    if check != coalesce(atom_tv_layout[1]):
        raise LayoutError(f"make_cotiled_copy: The memory pointed to by AtomTVLayout {atom_tv_layout} does not exist "
                          f"in the DataLayout {data_layout} ({check} != {coalesce(atom_tv_layout[1])})")
    flat_shape = it.product_each(data_layout.shape)
    r = len(flat_shape)
    tiler = []
    for i in range(r):
        unit = tuple(1 if j == i else 0 for j in range(r))
        tiler.append(filter(composition(Layout(flat_shape, unit), layout_tv_data)))
    tiler = tuple(tiler)
    tile2data = composition(make_layout(flat_shape), tiler)
    layout_tv = composition(left_inverse(tile2data), layout_tv_data)
    return make_tiled_copy_impl(copy_atom, layout_tv, tiler, origin="make_cotiled_copy")


@traced("make_tmem_copy")
def make_tmem_copy(copy_atom, tmem_layout, value_type=None):
    """CuTe's ``make_tmem_copy(Copy_Atom<Op, T>, tmem_tensor)`` for a TMEM tensor of ``T`` with ``tmem_layout``.

    ``copy_atom`` is a TMEM load/store atom (with its value type, or ``value_type`` given here).
    @pre the atom's value type has the tensor's width; the atom has a ValID (a TMEM atom)
    """
    from .copy_catalog import copy_atom as lookup
    from .tiled_mma import _as_tensor_layout
    atom = lookup(copy_atom, value_type)
    if atom.value_type is None:
        raise LayoutError(f"make_tmem_copy: {atom.name} needs a value type (Copy_Atom<{atom.name}, T>)")
    if atom.val_id is None:
        raise LayoutError(f"make_tmem_copy: {atom.name} is not a TMEM copy (its Copy_Traits have no ValID)")
    tmem = _as_tensor_layout(tmem_layout, "make_tmem_copy")
    bits = sizeof_bits(atom.value_type)
    atom_t = Layout((32, 4), (0, 32 * tmem_dp(atom.value_type)))
    atom_v = coalesce(upcast(atom.val_id, bits))
    return make_cotiled_copy(atom, make_layout(atom_t, atom_v), tmem)


@traced("make_utccp_copy")
def make_utccp_copy(copy_atom, tmem_layout, value_type):
    """CuTe's ``make_utccp_copy(Op, tmem_tensor)`` (shared memory -> TMEM, ``SM100_UTCCP_*``) for a TMEM tensor of
    ``value_type`` with ``tmem_layout``: one "thread" per CTA (``size(ThrID)`` at stride 0), the atom's ValID in
    ``value_type`` units, then ``make_cotiled_copy``.
    """
    from .copy_catalog import copy_atom as lookup
    from .tiled_mma import _as_tensor_layout
    atom = lookup(copy_atom, value_type)
    if atom.val_id is None or not atom.name.startswith("SM100_UTCCP"):
        raise LayoutError(f"make_utccp_copy: {atom.name} is not a shared-memory -> TMEM copy (SM100_UTCCP_*)")
    tmem = _as_tensor_layout(tmem_layout, "make_utccp_copy")
    atom_t = Layout(atom.thr_id.size(), 0)
    atom_v = coalesce(upcast(atom.val_id, sizeof_bits(atom.value_type)))
    return make_cotiled_copy(atom, make_layout(atom_t, atom_v), tmem)
