"""Bank conflicts of a (thread, value) access to shared memory, exact for every lane.

``shared_access(tv_layout, smem_layout, value_bits, vector_bits=None)``: the
threads of ``tv_layout`` (grouped into warps of 32 consecutive threads) access
their values in vectors of ``vector_bits``; instruction ``k`` of a warp is
every lane's ``k``-th vector.  ``bank_conflicts(tiled_copy, smem_layout)``:
the same for the shared-memory side of a TiledCopy, with the copy atom's own
instruction (ldmatrix/stmatrix rows, cp.async widths, UniversalCopy widths).

The count is exact: every lane's address is evaluated (``smem_layout(tv(t,
v))``, swizzle included) and the wavefronts of each phase are the largest
number of distinct 4-byte words one bank serves (see :mod:`.model`).  Where
the addresses are F2-linear in the lane bits the result also carries a
kernel-dimension certificate (see :mod:`.certificate`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from ..core import Layout
from ..core import int_tuple as it
from ..errors import LayoutError, SymcuteError
from . import model
from .addresses import bit_addresses

class BankMethod(str, Enum):
    """How a bank result was counted: every lane of every phase exactly, and, where the worst instruction's
    addresses are F2-linear, also an F2 kernel certificate (:mod:`.certificate`).  A report words each with
    its own template; the value is the text the result has always carried."""
    EXACT = "exact per-lane count"
    EXACT_CERTIFIED = "exact per-lane count + F2 kernel certificate"


METHOD_EXACT = BankMethod.EXACT


class NoteKey(str, Enum):
    """What the H200 showed beyond the per-instruction model, by kind of access (docs/memory.md, "Store
    streams", "cp.async"); a report words each with its own template."""
    STORE_STREAM_TIMING = "store_stream_timing"
    STORE_STREAM = "store_stream"
    STORE_CONCURRENT = "store_concurrent"
    CP_ASYNC = "cp_async"
    CP_ASYNC_STREAM = "cp_async_stream"
    CP_ASYNC_CG = "cp_async_cg"


@dataclass(frozen=True)
class Note:
    """A note of a result: its ``key`` and the one-line ``text`` that ``symcute bank`` prints (``str(note)``)."""
    key: NoteKey
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class VectorWidth:
    """The widest access each thread can use, and why it is not wider."""
    bits: int               # bits per access (a power of two)
    values: int             # values per access
    reason: str             # why 2x wider fails: 'limit', 'values', 'contiguity', 'alignment', 'atom'
    detail: str             # the same in words, with the witness thread/values/addresses
    thread: int | None = None
    value: int | None = None


@dataclass(frozen=True)
class LaneAxes:
    """A lane of the witness: its warp lane, thread index and named thread sub-axes."""
    lane: int
    thread: int
    axes: tuple             # ((name, digit value), ...) of the thread mode's leaves (size 1 omitted)
    byte_address: int


@dataclass(frozen=True)
class Witness:
    """The worst phase: lanes hitting one bank in distinct words (each word a broadcast)."""
    warp: int
    instruction: int        # which of the warp's instructions (vector index / rest tile)
    phase: int
    bank: int
    words: tuple            # the distinct 4-byte words of that bank (byte address / 4)
    lanes: tuple            # per word: the LaneAxes touching it

    @property
    def ways(self) -> int:
        return len(self.words)


@dataclass(frozen=True, eq=False)
class SharedAccess:
    """Result of a shared-memory analysis (every warp, every instruction, every lane).

    ``wavefronts``: total over all warps and instructions; ``ideal_wavefronts``:
    the same with no conflict (per phase ``ceil(distinct words / 32)``);
    ``ways``: the worst bank multiplicity of any phase; ``conflicts``:
    ``wavefronts - ideal_wavefronts`` (Nsight Compute's bank-conflict count).
    """
    instruction: model.Instruction
    value_bits: int
    vector: VectorWidth
    threads: int
    warps: int
    instructions_per_warp: int
    wavefronts: int
    ideal_wavefronts: int
    ways: int
    witness: Witness
    method: str
    per_instruction: tuple          # ((warp, k, wavefronts, ideal), ...)
    lane_addresses: object          # numpy [warp, instruction, lane]: byte address, -1 for an inactive lane
    thread_names: tuple             # names of the thread mode's flat leaves
    thread_shape: tuple             # extents of those leaves
    certificate: object = None      # an F2 kernel certificate where the addresses are F2-linear
    notes: tuple = field(default=())   # Note, ...
    stream_extra: int = 0           # store streams: wavefronts the H200 adds (model.store_stream)
    timing_dependent: bool = False  # a store stream with a conflicting instruction, or a cp.async stream

    @property
    def counter_wavefronts(self):
        """What Nsight Compute's wavefront counter shows when the warps run one at a time, each issuing its
        instructions back to back: ``wavefronts`` plus the store-stream extra; None where that count
        depends on timing (docs/memory.md, "Store streams", "cp.async": a store stream with a conflicting
        instruction, several cp.async instructions)."""
        if self.timing_dependent:
            return None
        return self.wavefronts + self.stream_extra

    @property
    def conflict_free(self) -> bool:
        return self.wavefronts == self.ideal_wavefronts

    @property
    def conflicts(self) -> int:
        return self.wavefronts - self.ideal_wavefronts

    def phases(self, warp: int = 0, k: int = 0) -> list:
        """The phases (with their worst banks) of one instruction of warp 0."""
        return model.instruction_phases(self.instruction, self.addresses(warp, k))

    def addresses(self, warp: int = 0, k: int = 0) -> list:
        """The 32 lanes' byte addresses of instruction ``k`` of ``warp`` (None: inactive lane)."""
        return [None if a < 0 else int(a) for a in self.lane_addresses[warp, k]]

    def summary(self) -> tuple:
        """``((what, value), ...)``: the result in a few words (its repr and notebook display), never the
        per-lane arrays."""
        counted = self.counter_wavefronts
        return (("instruction", self.instruction.name),
                ("accesses", f"{self.warps} warp(s) x {self.instructions_per_warp} instruction(s), {self.threads} "
                             f"threads"),
                ("wavefronts", f"{self.wavefronts} (ideal {self.ideal_wavefronts}; {self.conflicts} conflicts; "
                               f"worst bank {self.ways}-way)"),
                ("counter", "depends on timing" if counted is None else str(counted)),
                ("vector", f"{self.vector.bits} bits ({self.vector.values} values; {self.vector.reason})"),
                ("method", str(getattr(self.method, "value", self.method))))

    def __repr__(self) -> str:
        verdict = "conflict-free" if self.conflict_free else f"{self.conflicts} conflicts"
        return (f"SharedAccess({self.instruction.name}: {self.wavefronts} wavefronts, ideal {self.ideal_wavefronts}, "
                f"{verdict}, worst {self.ways}-way; {self.warps} warp(s) x {self.instructions_per_warp} "
                f"instruction(s); {self.vector.bits}-bit vectors)")


# --- helpers --------------------------------------------------------------------------------------------

def _mode_leaves(layout: Layout, mode: int) -> tuple:
    return it.flatten_to_tuple(layout.shape[mode]) if isinstance(layout.shape, tuple) else (layout.shape,)


def _tv_bit_addresses(tv_layout: Layout, smem_layout, value_bits: int) -> np.ndarray:
    """``bits[t, v]`` = bit address of thread t's value v."""
    if not isinstance(tv_layout, Layout) or tv_layout.rank != 2:
        raise LayoutError(f"shared_access: tv_layout must be a rank-2 (thread, value) Layout, got {tv_layout}")
    nt, nv = tv_layout[0].size(), tv_layout[1].size()
    t = np.arange(nt, dtype=np.int64)[:, None]
    v = np.arange(nv, dtype=np.int64)[None, :]
    idx = (t + nt * v).astype(np.int64)
    from .addresses import element_offsets
    tile = element_offsets(tv_layout, idx)
    size = smem_layout.size()
    if tile.size and (tile.min() < 0 or tile.max() >= size):
        raise LayoutError(f"shared_access: tv_layout {tv_layout} reaches index {int(tile.max())}, outside the "
                          f"smem layout {smem_layout} of size {size}")
    return bit_addresses(smem_layout, value_bits, tile)


def max_vector(bits: np.ndarray, value_bits: int, limit_bits: int = model.MAX_SHARED_VECTOR_BITS,
               limit_reason: str = "") -> VectorWidth:
    """The widest power-of-two group of consecutive values every thread finds contiguous and aligned.

    ``bits[t, v]``: bit addresses (a 2-D integer array, as :func:`shared_access` computes them from a TV
    layout and a smem layout: ``shared_access(tv, smem, value_bits).vector`` answers the same question from
    layouts).  Exact: every thread and every group is checked.
    @raises LayoutError naming the argument that is not of that kind
    """
    if not (isinstance(bits, np.ndarray) and bits.ndim == 2 and np.issubdtype(bits.dtype, np.integer)):
        raise LayoutError(f"max_vector: bits must be a 2-D integer array of bit addresses [thread, value], got "
                          f"{_short(bits)} (from layouts: shared_access(tv_layout, smem_layout, value_bits).vector)")
    for name, x in (("value_bits", value_bits), ("limit_bits", limit_bits)):
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x <= 0:
            raise LayoutError(f"max_vector: {name} must be a positive integer, got {_short(x)}")
    nt, nv = bits.shape
    n = 1
    while True:
        m = 2 * n
        if m * value_bits > limit_bits:
            why = limit_reason or (f"{limit_bits} bits is the widest shared-memory access of one lane "
                                   f"(ld.shared.v4.b32)")
            return VectorWidth(n * value_bits, n, "limit", why)
        if nv % m:
            return VectorWidth(n * value_bits, n, "values",
                               f"each thread has {nv} values, not a multiple of {m}")
        g = bits.reshape(nt, nv // m, m)
        contiguous = g - g[:, :, :1] == np.arange(m) * value_bits
        bad = np.argwhere(~contiguous.all(axis=2)) if not contiguous.all() else ()
        if len(bad):
            t, j = (int(x) for x in bad[0])
            addrs = [int(a) for a in g[t, j]]
            return VectorWidth(n * value_bits, n, "contiguity",
                               f"thread {t}'s values {j * m}..{j * m + m - 1} are at bit addresses {addrs}, "
                               f"not {m} consecutive elements", t, j * m)
        aligned = g[:, :, 0] % (m * value_bits) == 0
        bad = np.argwhere(~aligned) if not aligned.all() else ()
        if len(bad):
            t, j = (int(x) for x in bad[0])
            return VectorWidth(n * value_bits, n, "alignment",
                               f"thread {t}'s values {j * m}..{j * m + m - 1} start at byte "
                               f"{int(g[t, j, 0]) // 8}, not a multiple of {m * value_bits // 8} bytes", t, j * m)
        n = m


def _short(x) -> str:
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def _lane_axes(thread: int, lane: int, names: tuple, shape: tuple, byte: int) -> LaneAxes:
    axes, r = [], thread
    for i, (nm, s) in enumerate(zip(names, shape)):
        last = i == len(shape) - 1
        d = r if last else r % s
        r = 0 if last else r // s
        if s > 1:
            axes.append((nm, d))
    return LaneAxes(lane, thread, tuple(axes), byte)


def analyse(bits: np.ndarray, value_bits: int, per_access: int, instr: model.Instruction,
            thread_names: tuple, thread_shape: tuple, vector: VectorWidth, notes: tuple = ()) -> SharedAccess:
    """Count the wavefronts of every warp instruction: lane l of warp w is thread 32w + l; its k-th access
    starts at ``bits[32w+l, k*per_access]``."""
    nt, nv = bits.shape
    if nv % per_access:
        raise LayoutError(f"shared access: {nv} values per thread is not a multiple of {per_access} per access")
    starts = bits[:, ::per_access]
    if (starts % 8).any():
        t, k = (int(x) for x in np.argwhere(starts % 8)[0])
        raise LayoutError(f"shared access: thread {t}'s access {k} starts at bit {int(starts[t, k])}, inside a byte")
    byte = starts // 8
    nk = byte.shape[1]
    warps = -(-nt // model.WARP)
    pad = warps * model.WARP - nt
    lane_byte = np.concatenate([byte, np.full((pad, nk), -1, dtype=np.int64)]) if pad else byte
    lane_byte = lane_byte.reshape(warps, model.WARP, nk).transpose(0, 2, 1)        # [w, k, lane]
    active = np.zeros(model.WARP, dtype=bool)
    active[:instr.active_lanes] = True
    lanes = np.arange(model.WARP)
    phase = lanes // instr.phase_lanes
    nph = model.WARP // instr.phase_lanes
    nwords = -(-instr.lane_bytes // model.BANK_BYTES) + 1   # one more for an access straddling a word
    # each lane's words (a sub-word or unaligned access may touch one more word than its size says)
    w0 = lane_byte // model.BANK_BYTES
    w_last = (lane_byte + instr.lane_bytes - 1) // model.BANK_BYTES
    words = w0[..., None] + np.arange(nwords)                               # [w, k, lane, j]
    valid = (words <= w_last[..., None]) & (lane_byte[..., None] >= 0) & active[None, None, :, None]
    group = ((np.arange(warps)[:, None, None, None] * nk + np.arange(nk)[None, :, None, None]) * nph
             + phase[None, None, :, None])
    g = np.broadcast_to(group, words.shape)[valid]
    wd = words[valid]
    ngroups = warps * nk * nph
    # distinct (phase, word) pairs through one int64 key (a 1-D unique is far cheaper than unique(axis=1))
    span = int(wd.max()) + 1 if wd.size else 1
    key = _distinct(g * span + wd)
    pair = np.stack([key // span, key % span])
    if instr.broadcast:
        counted = pair
    else:                                                 # every lane's word counts (cp.async writes)
        ln = np.broadcast_to(lanes[None, None, :, None], words.shape)[valid]
        k3 = _distinct((g * model.WARP + ln) * span + wd)
        counted = np.stack([k3 // span // model.WARP, k3 % span])
    gbank = counted[0] * model.BANKS + counted[1] % model.BANKS
    per_bank = np.bincount(gbank, minlength=ngroups * model.BANKS).reshape(ngroups, model.BANKS)
    wave = per_bank.max(axis=1)
    wave_wk = wave.reshape(warps, nk, nph).sum(axis=2)
    if instr.op == "ldgsts":   # cp.async (model.cp_async_cost), every instruction at once
        wave_wk, ideal_wk = _cp_async_costs(instr, lane_byte, active)
        ideal = ideal_wk
    elif instr.pair_merge:     # wide loads (model.pair_cost)
        lb, act = lane_byte.tolist(), active.tolist()      # plain ints: the per-instruction rules are Python
        cost = [[model.instruction_cost(instr, [None if (a < 0 or not act[l]) else a for l, a in enumerate(lb[w][k])])
                 for k in range(nk)] for w in range(warps)]
        wave_wk = np.array([[c[0] for c in row] for row in cost], dtype=np.int64).reshape(warps, nk)
        ideal_wk = np.array([[c[1] for c in row] for row in cost], dtype=np.int64).reshape(warps, nk)
        ideal = ideal_wk
    else:
        distinct = np.bincount(pair[0], minlength=ngroups)
        ideal = -(-distinct // model.BANKS)
        ideal_wk = ideal.reshape(warps, nk, nph).sum(axis=2)
    worst = int(np.argmax(wave))
    ww, wk, wp = worst // (nk * nph), (worst // nph) % nk, worst % nph
    sel = {int(l): int(lane_byte[ww, wk, l]) for l in range(model.WARP)
           if active[l] and phase[l] == wp and lane_byte[ww, wk, l] >= 0}
    ph = model.phase_wavefronts(wp, sel, instr.lane_bytes, instr.broadcast)
    if callable(thread_names):       # names are only needed for the witness: computed once, here
        thread_names = thread_names()
    wit = Witness(ww, wk, wp, ph.bank, ph.bank_words,
                  tuple(tuple(_lane_axes(ww * model.WARP + l, l, thread_names, thread_shape, sel[l]) for l in ls)
                        for ls in ph.bank_lanes))
    wl, il = wave_wk.tolist(), ideal_wk.tolist()      # plain ints, once (not one numpy scalar per instruction)
    per = tuple((w, k, wl[w][k], il[w][k]) for w in range(warps) for k in range(nk))
    addrs = np.where(active[None, None, :], lane_byte, -1)
    lanes_on = ((lane_byte >= 0) & active[None, None, :]).sum(axis=2).tolist()
    extra, timing = 0, instr.op == "ldgsts" and warps * nk > 1
    for w in range(warps):
        x, t = model.store_stream(instr, list(zip(wl[w], il[w])), lanes_on[w])
        extra, timing = extra + x, timing or t
    notes = tuple(notes) + _model_notes(instr, warps, nk, extra, timing)
    res = SharedAccess(instr, value_bits, vector, nt, warps, nk, int(wave_wk.sum()), int(ideal.sum()),
                       int(wave.max()), wit, METHOD_EXACT, per, addrs, tuple(thread_names), tuple(thread_shape),
                       notes=notes, stream_extra=0 if timing else extra, timing_dependent=timing)
    from .certificate import certify
    return certify(res)


def _distinct(keys: np.ndarray) -> np.ndarray:
    """The distinct values of ``keys``, ascending (``np.unique``'s result; a sort and a mask are several times
    faster than numpy 2's hashing ``unique`` on these few thousand keys)."""
    k = np.sort(keys)
    if k.size:
        keep = np.empty(k.size, dtype=bool)
        keep[0] = True
        np.not_equal(k[1:], k[:-1], out=keep[1:])
        k = k[keep]
    return k


def _cp_async_costs(instr: model.Instruction, lane_byte: np.ndarray, active: np.ndarray) -> tuple:
    """``(wavefronts[w, k], ideal[w, k])`` of every cp.async instruction at once: :func:`model.cp_async_cost`
    with its default sources (lane ``l`` reads ``l * instr.source_stride``), vectorised.

    ``lane_byte[w, k, lane]``: shared byte addresses (-1: no address); ``active[lane]``: the lanes taking part.
    The per-bank greedy of ``cp_async_cost`` (each word at the earliest wavefront ``>= g``, its group, that
    its bank has free) visits a bank's words in nondecreasing ``g``, so the bank's last wavefront is
    ``max over g of (g + words of groups >= g) - 1`` (each word after the first of a run waits one more):
    counts per (batch, bank, group) give every batch's cost without a loop over words.
    """
    warps, nk, _ = lane_byte.shape
    n_i, pl, nb = warps * nk, instr.phase_lanes, instr.lane_bytes
    nph = model.WARP // pl
    lanes = np.arange(model.WARP)
    phase = lanes // pl
    line = lanes * instr.source_stride // model.LINE_BYTES
    line_rel = line - line[phase * pl]                               # the line within its phase, from 0
    nlines = int(line_rel.max()) + 1
    a = lane_byte.reshape(n_i, model.WARP)
    valid = (a >= 0) & (active & (lanes < instr.active_lanes))[None, :]
    ii, ll = np.nonzero(valid)
    # groups: the phase's lines that have a lane, in order (lines grow with the lane: order of first lane)
    present = np.zeros((n_i, nph, nlines), dtype=bool)
    present[ii, phase[ll], line_rel[ll]] = True
    rank = np.cumsum(present, axis=2) - 1
    r = rank[ii, phase[ll], line_rel[ll]]
    batch, g = r // model.CP_ASYNC_BATCH, r % model.CP_ASYNC_BATCH
    nbatch = -(-nlines // model.CP_ASYNC_BATCH)
    addr = a[ii, ll]
    first, last = addr // model.BANK_BYTES, (addr + nb - 1) // model.BANK_BYTES
    base = ((ii * nph + phase[ll]) * nbatch + batch) * model.BANKS
    keys = []
    for j in range(-(-nb // model.BANK_BYTES) + 1):      # each lane's words (an unaligned copy touches one more)
        w = first + j
        ok = w <= last
        keys.append(((base[ok] + w[ok] % model.BANKS) * model.CP_ASYNC_BATCH) + g[ok])
    cells = n_i * nph * nbatch * model.BANKS
    cnt = np.bincount(np.concatenate(keys), minlength=cells * model.CP_ASYNC_BATCH).reshape(
        cells, model.CP_ASYNC_BATCH)
    suffix = np.cumsum(cnt[:, ::-1], axis=1)[:, ::-1]                # words of groups >= g
    finish = np.where(cnt > 0, np.arange(model.CP_ASYNC_BATCH) + suffix, 0).max(axis=1)   # last wavefront + 1
    end = finish.reshape(n_i, nph, nbatch, model.BANKS).max(axis=3)
    wave = end.sum(axis=(1, 2)).reshape(warps, nk)
    ideal = (end > 0).sum(axis=(1, 2)).reshape(warps, nk)
    return wave.astype(np.int64), ideal.astype(np.int64)


def _model_notes(instr: model.Instruction, warps: int, nk: int, extra: int, timing: bool) -> tuple:
    """What the H200 showed beyond the per-instruction model for this kind of access (docs/memory.md)."""
    out = []
    if instr.op == "st" and nk > 1 and timing:
        out.append(Note(NoteKey.STORE_STREAM_TIMING,
                        "store stream timing: a warp's stream of store instructions with a conflicting one: on the "
                        "H200 its wavefront count depends on the spacing of the instructions (+0 to +2 per warp "
                        "measured for one launch), so only the per-instruction count is given"))
    elif instr.op == "st" and extra:
        out.append(Note(NoteKey.STORE_STREAM,
                        f"store stream: every second 512-byte conflict-free store of a warp costs one more wavefront "
                        f"on the H200: Nsight Compute counts {extra} more than the per-instruction total"))
    if instr.op == "st" and warps > 1:
        out.append(Note(NoteKey.STORE_CONCURRENT,
                        "store concurrent: warps storing at the same time can add wavefronts (timing-dependent); "
                        "the counts assume the warps' stores do not overlap"))
    if instr.op == "ldgsts":
        out.append(Note(NoteKey.CP_ASYNC,
                        "cp.async: the shared-memory write is served by the 128-byte lines of the global source, each "
                        "lane's source assumed 16 bytes after the previous lane's (CUTLASS's copies); exact on the "
                        "H200 for one instruction with such sources (docs/memory.md, 'cp.async')"))
        if timing:
            out.append(Note(NoteKey.CP_ASYNC_STREAM,
                            "cp.async stream: several cp.async instructions: the counter moved by up to 2% between "
                            "identical launches on the H200, so only the per-instruction count is given"))
        if ".cg." in instr.name:
            out.append(Note(NoteKey.CP_ASYNC_CG,
                            "cp.async.cg: its shared-memory write is not visible to Nsight Compute's counters"))
    return tuple(out)


def _default_names(layout: Layout) -> tuple:
    return tuple(f"t{i}" for i in range(len(_mode_leaves(layout, 0))))


def _flat_names(tree) -> tuple:
    return it.flatten_to_tuple(tree)


# --- the public analyses --------------------------------------------------------------------------------

def shared_access(tv_layout, smem_layout, value_bits: int, vector_bits: int | None = None, op: str = "ld",
                  thread_names=None) -> SharedAccess:
    """Wavefronts and bank conflicts of ``tv_layout`` (thread, value) -> tile index over ``smem_layout``.

    ``value_bits``: element size in bits; ``vector_bits``: bits per access of each
    thread (default: the widest vector every thread can use, see :func:`max_vector`);
    ``op``: 'ld' or 'st'.  Warps are threads 32w..32w+31; a warp's k-th instruction
    is every lane's k-th vector.
    @pre vector_bits is 8, 16, 32, 64 or 128 and every thread's vectors are contiguous and aligned
    """
    tv_layout = _as_layout(tv_layout, "tv_layout")
    smem_layout = _as_layout(smem_layout, "smem_layout", swizzled=True)
    _check_bits(value_bits)
    bits = _tv_bit_addresses(tv_layout, smem_layout, value_bits)
    vec = max_vector(bits, value_bits)
    if vector_bits is None:
        if vec.bits < 8:
            raise LayoutError(f"shared_access: each thread's widest access is {vec.bits} bits, less than a byte "
                              f"({vec.detail})")
        n = vec.values
    else:
        if vector_bits not in (8, 16, 32, 64, 128) or vector_bits % value_bits:
            raise LayoutError(f"shared_access: vector_bits must be 8, 16, 32, 64 or 128 and a multiple of "
                              f"value_bits={value_bits}, got {vector_bits}")
        n = vector_bits // value_bits
        if n > vec.values:
            raise LayoutError(f"shared_access: {vector_bits}-bit accesses are not possible: the widest is "
                              f"{vec.bits} bits ({vec.detail})")
    instr = model.ld_st(op, n * value_bits)
    names = _flat_names(thread_names) if thread_names is not None else _default_names(tv_layout)
    return analyse(bits, value_bits, n, instr, names, _mode_leaves(tv_layout, 0), vec)


def _as_layout(x, what: str, swizzled: bool = False):
    from ..core import ComposedLayout, parse_layout
    if isinstance(x, str):
        try:
            x = parse_layout(x)
        except SymcuteError as e:
            raise LayoutError(f"{what}: {e}") from None
    if isinstance(x, Layout) or (swizzled and isinstance(x, ComposedLayout)):
        _check_extents(x.inner if isinstance(x, ComposedLayout) else x, what)
        return x
    raise LayoutError(f"{what}: expected a {'layout or swizzled layout' if swizzled else 'layout'}, got {x!r}")


MAX_ELEMENTS = 1 << 15   # elements of one smem or TV layout the bank model walks (an H200 SM has 228 KiB of smem)


def _check_extents(layout, what: str) -> None:
    """Bank analysis walks every element: extents positive integers, strides integers, the size bounded
    (``(32,-64):(64,1)`` and ``(10^30,0):(2,4)`` reached numpy's ``need at least one array``, issue 31)."""
    from ..core import int_tuple as it
    from ..errors import LimitError
    if not isinstance(layout, Layout):
        return
    shape, stride = it.flatten_to_tuple(layout.shape), it.flatten_to_tuple(layout.stride)
    if not shape:
        raise LayoutError(f"{what}: {layout} has no modes")
    for e in shape:
        if type(e) is not int or e < 1:
            raise LayoutError(f"{what}: {layout} has the extent {e}; a memory layout's extents are positive integers")
    for d in stride:
        if type(d) is not int:
            raise LayoutError(f"{what}: {layout} has the stride {d}; a memory layout's strides are integers")
        if abs(d) >= 1 << 40:   # numpy's int64 addresses (a 2^64 stride was an OverflowError)
            raise LimitError(f"{what}: {layout} has the stride {d}, past the 2^40 the bank model addresses")
    n = 1
    for e in shape:
        n *= e
    if n > MAX_ELEMENTS:
        raise LimitError(f"{what}: {layout} has {n} elements, more than the limit of {MAX_ELEMENTS} "
                         f"(symcute.memory.shared.MAX_ELEMENTS)")


def _check_bits(value_bits):
    if isinstance(value_bits, bool) or not isinstance(value_bits, int) or value_bits not in (1, 2, 4, 6, 8, 16,
                                                                                              32, 64, 128):
        raise LayoutError(f"value_bits must be an element size in bits (1, 2, 4, 6, 8, 16, 32, 64, 128), "
                          f"got {value_bits!r}")
