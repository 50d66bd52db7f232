"""Tensor memory (SM100 TMEM) layouts: UMMA's TMEM fragments and the lane distance ``TMEM::DP<T>``.

TMEM is addressed as ``lane << 16 | column`` in 32-bit words; CuTe's
``tmem_ptr<T>`` addresses ``T`` values, so one data path (lane) is
``TMEM::DP<T> = (1 << 16) << log2(32 / sizeof_bits(T))`` values apart
(``cute/arch/tmem_allocator_sm100.hpp``) and the bit-addressed ``ValID`` of
the TMEM copy atoms uses ``TMEM::DP_b = 1 << 21``.

* ``tmem_frg(value, storage, n_sm, alloc, shape)`` is ``UMMA::tmem_frg<...>::make``
  (``cute/atom/mma_traits_sm100.hpp``): the TMEM allocation CuTe makes for a
  UMMA accumulator (and for the TMEM-sourced A of ``_TS``) from the
  partitioned shape ``((M_MMA, N_MMA), MMA_M, MMA_N, ...)``.

The TMEM copies built on these (``make_tmem_copy``, ``make_utccp_copy``) are in
``builders``, above the TiledCopy class: this module is below every atom class
that uses it (``mma_umma``, ``tiled_mma``).
"""

from __future__ import annotations

from ..core import Layout, composition, make_layout, sizeof_bits, tiled_product
from ..core import int_tuple as it
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
