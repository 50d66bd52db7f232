"""The F2 kernel certificate of one instruction's phases (see :mod:`.certificate`).

Input bits of a phase: the lane bits inside the phase, then the sub-word bits of
a lane's own access (a 16-byte row touches 4 words: 2 more input bits, images
4 and 8).  The address map is checked affine on every lane before any
dimension is read off it.
"""

from __future__ import annotations

from ..symbolic.f2 import F2Matrix
from . import model
from .certificate import KernelCertificate

ADDRESS_BITS = 32


def _phase_matrix(addrs: list, lane_bytes: int):
    """``(columns, ok)``: images of the lane bits and sub-word bits; ok when XOR-affine on every lane."""
    n = len(addrs)
    if n & (n - 1) or any(a is None for a in addrs):
        return None
    a0 = addrs[0]
    lane_cols = [addrs[1 << i] ^ a0 for i in range(n.bit_length() - 1)]
    for j, a in enumerate(addrs):
        x = a0
        for i, c in enumerate(lane_cols):
            if j >> i & 1:
                x ^= c
        if x != a:
            return None
    sub = []
    if lane_bytes > model.BANK_BYTES:
        if any(a % lane_bytes for a in addrs):
            return None
        sub = [model.BANK_BYTES << s for s in range((lane_bytes // model.BANK_BYTES).bit_length() - 1)]
    return lane_cols + sub


def kernel_certificate(result):
    """The certificate of the witness instruction, or None when a phase is not F2-affine in its lanes."""
    w = result.witness
    instr = result.instruction
    addrs = result.addresses(w.warp, w.instruction)
    dims = []
    bits_per_phase = instr.phase_lanes.bit_length() - 1
    images = None
    for p in range(instr.phases):
        lanes = addrs[p * instr.phase_lanes:(p + 1) * instr.phase_lanes]
        cols = _phase_matrix(lanes, instr.lane_bytes)
        if cols is None:
            return None
        A = F2Matrix(tuple(cols), ADDRESS_BITS)
        word = F2Matrix(tuple(c >> 2 for c in cols), ADDRESS_BITS - 2)
        bank = F2Matrix(tuple((c >> 2) & (model.BANKS - 1) for c in cols), 5)
        # without broadcast (cp.async) every (lane, word) pair counts: no word kernel to divide by
        kb, kw = len(bank.kernel()), (len(word.kernel()) if instr.broadcast else 0)
        dims.append((kb, kw))
        if p == w.phase:
            images = tuple(A.columns)
    kb, kw = dims[w.phase]
    cert = KernelCertificate(w.instruction, tuple(range(bits_per_phase)), images, kb, kw)
    if cert.wavefronts != w.ways:
        raise AssertionError(f"F2 certificate {cert.wavefronts} != exact count {w.ways}: an internal error")
    return cert
