"""Global-memory coalescing: 32-byte sectors (and 128-byte lines) per warp request against the ideal.

A warp request touches every 32-byte sector that any lane's bytes fall in; the
ideal is ``ceil(distinct bytes / 32)`` (CUDA C++ Best Practices Guide,
"Coalesced Access to Global Memory"; Nsight Compute's
``l1tex__t_sectors_pipe_lsu_mem_global_op_ld`` per
``l1tex__t_requests_pipe_lsu_mem_global_op_ld``).  Warps and instructions as in
:func:`symcute.memory.shared_access`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import model
from .shared import VectorWidth, _as_layout, _check_bits, _tv_bit_addresses, max_vector


@dataclass(frozen=True, eq=False)
class GlobalAccess:
    """``sectors``/``ideal_sectors``/``lines``: totals over every request (warp instruction)."""
    access_bits: int
    vector: VectorWidth
    requests: int
    sectors: int
    ideal_sectors: int
    lines: int
    per_request: tuple      # ((warp, k, sectors, ideal), ...)
    lane_addresses: object  # numpy [warp, instruction, lane] byte offsets, -1 inactive

    @property
    def coalesced(self) -> bool:
        return self.sectors == self.ideal_sectors

    @property
    def sectors_per_request(self) -> float:
        return self.sectors / self.requests

    def addresses(self, warp: int = 0, k: int = 0) -> list:
        return [None if a < 0 else int(a) for a in self.lane_addresses[warp, k]]


def global_access(tv_layout, gmem_layout, value_bits: int, vector_bits: int | None = None) -> GlobalAccess:
    """Sectors per warp request of ``tv_layout`` over ``gmem_layout`` (elements of ``value_bits``).

    @pre each thread's vector of ``vector_bits`` is contiguous and aligned (default: the widest that is)
    """
    tv_layout = _as_layout(tv_layout, "tv_layout")
    gmem_layout = _as_layout(gmem_layout, "gmem_layout", swizzled=True)
    _check_bits(value_bits)
    bits = _tv_bit_addresses(tv_layout, gmem_layout, value_bits)
    vec = max_vector(bits, value_bits, limit_reason="128 bits is the widest global access of one lane "
                                                    "(ld.global.v4.b32)")
    n = vec.values if vector_bits is None else vector_bits // value_bits
    if vector_bits is not None and (vector_bits % value_bits or n > vec.values or vector_bits not in (8, 16, 32,
                                                                                                   64, 128)):
        from ..errors import LayoutError
        raise LayoutError(f"global_access: {vector_bits}-bit accesses are not possible: the widest is "
                          f"{vec.bits} bits ({vec.detail})")
    nbytes = max(1, n * value_bits // 8)
    byte = bits[:, ::n] // 8
    nt, nk = byte.shape
    warps = -(-nt // model.WARP)
    pad = warps * model.WARP - nt
    if pad:
        byte = np.concatenate([byte, np.full((pad, nk), -1, dtype=np.int64)])
    lane = byte.reshape(warps, model.WARP, nk).transpose(0, 2, 1)
    per, tot, ideal, lines = [], 0, 0, 0
    for w in range(warps):
        for k in range(nk):
            addrs = [None if a < 0 else int(a) for a in lane[w, k]]
            s, l, i = model.sectors(addrs, nbytes)
            per.append((w, k, s, i))
            tot, ideal, lines = tot + s, ideal + i, lines + l
    return GlobalAccess(n * value_bits, vec, warps * nk, tot, ideal, lines, tuple(per), lane)
