"""The shared-memory and global-memory model: banks, phases, wavefronts, sectors.

Every rule below is a constant or a small function with the source it follows
(see docs/memory.md for the citations in full and the H200 measurements that
confirm them):

* Shared memory has 32 banks, each 4 bytes wide; successive 4-byte words go to
  successive banks (CUDA C++ Programming Guide, "Shared Memory", compute
  capability 5.x and later: bank = (byte address / 4) mod 32).
* A warp's request is served in *wavefronts*: in one wavefront each bank
  delivers one 4-byte word; several lanes reading the same word are served by
  one access (broadcast, or multicast for several words).  So a group of lanes
  served together needs ``max over banks of (distinct words of that bank)``
  wavefronts (Nsight Compute Kernel Profiling Guide, "Shared Memory": "a
  wavefront is the maximum unit that can pass through the pipeline stage per
  cycle"; ``l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st``).
* The lanes served together (a *phase*) depend on the access: accesses of at
  most 32 bits per lane are served for all 32 lanes together; 64-bit accesses
  by half-warps (lanes 0-15, 16-31) and 128-bit accesses by quarter-warps
  (8 lanes), since one phase moves at most 32 x 4 bytes.
* ``ldmatrix``/``stmatrix`` (PTX ISA, "Warp-level matrix load/store"): each
  8x8 matrix of 16-bit elements is given by 8 row addresses of 16 contiguous
  bytes, from lanes 8i..8i+7 for matrix i; .x1/.x2/.x4 use lanes 0-7, 0-15,
  0-31.  One matrix (128 bytes) is one phase.  ``.trans`` changes only the
  register distribution, not the addresses.
* ``cp.async`` writes shared memory with the width of its copy (4, 8 or 16
  bytes per lane); its shared-memory wavefronts and conflicts are counted
  apart (``..._op_ldgsts``).
* Global memory is served in 32-byte sectors of 128-byte lines (CUDA C++ Best
  Practices Guide, "Coalesced Access to Global Memory"; Nsight Compute
  ``l1tex__t_sectors_pipe_lsu_mem_global_op_ld``).

Where the H200 disagrees with a document, the rule here follows the hardware
and docs/memory.md says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SymcuteError

BANKS = 32
BANK_BYTES = 4
WARP = 32
SECTOR_BYTES = 32
LINE_BYTES = 128
MAX_SHARED_VECTOR_BITS = 128   # ld.shared.v4.b32: the widest shared access of one lane


@dataclass(frozen=True)
class Instruction:
    """One warp-wide shared-memory instruction: how many bytes each lane's address covers and
    which lanes are served together.

    ``name``: the PTX spelling; ``op``: ``ld``, ``st`` or ``ldgsts`` (the Nsight Compute counter
    family it is measured with); ``lane_bytes``: bytes addressed by one lane's address;
    ``active_lanes``: lanes that give an address (ldmatrix.x1: 8); ``phase_lanes``: lanes
    served together.
    """
    name: str
    op: str
    lane_bytes: int
    active_lanes: int
    phase_lanes: int
    broadcast: bool = True      # lanes reading the same word are served once (False: cp.async writes)
    pair_merge: bool = False    # 64/128-bit loads: adjacent phases share a wavefront (see pair_cost)
    source_stride: int = 0      # cp.async: lane l's global source at l * source_stride (see cp_async_cost)

    @property
    def phases(self) -> int:
        return -(-self.active_lanes // self.phase_lanes)

    def phase_of(self, lane: int) -> int:
        return lane // self.phase_lanes


def _phase_lanes(access_bytes: int) -> int:
    """Lanes per phase for a plain ld/st of ``access_bytes`` per lane: 32 lanes x 4 bytes at most."""
    return WARP if access_bytes <= BANK_BYTES else WARP * BANK_BYTES // access_bytes


def ld_st(op: str, access_bits: int) -> Instruction:
    """``ld.shared``/``st.shared`` of ``access_bits`` (8, 16, 32, 64 or 128) per lane."""
    if op not in ("ld", "st"):
        raise SymcuteError(f"shared access: op must be 'ld' or 'st', got {op!r}")
    if access_bits not in (8, 16, 32, 64, 128):
        raise SymcuteError(f"shared access: a lane accesses 8, 16, 32, 64 or 128 bits, not {access_bits}")
    nbytes = access_bits // 8
    vec = {1: ".u8", 2: ".u16", 4: ".b32", 8: ".v2.b32", 16: ".v4.b32"}[nbytes]
    return Instruction(f"{op}.shared{vec}", op, nbytes, WARP, _phase_lanes(nbytes),
                       pair_merge=op == "ld" and nbytes > BANK_BYTES)


def matrix(op: str, num: int, trans: bool = False) -> Instruction:
    """``ldmatrix``/``stmatrix`` ``.x{num}`` (``.trans``): 8 row addresses of 16 bytes per matrix."""
    if op not in ("ld", "st") or num not in (1, 2, 4):
        raise SymcuteError(f"matrix access: op 'ld'/'st' and .x1/.x2/.x4, got {op!r}, x{num}")
    t = ".trans" if trans else ""
    name = f"{op}matrix.sync.aligned.m8n8.x{num}{t}.shared.b16"
    return Instruction(name, op, 16, 8 * num, 8)


def cp_async(access_bytes: int, cache: str = "ca", source_stride: int = 16) -> Instruction:
    """``cp.async.{ca,cg}.shared.global`` of 4, 8 or 16 bytes per lane (the shared-memory write).

    Measured on the H200 (docs/memory.md, "cp.async"; :func:`cp_async_cost`): the
    write is split into the phases of a store of that width (32, 16 or 8 lanes);
    within a phase the lanes whose global sources share a 128-byte line form one
    *line group*; groups are served four at a time (a *batch*), group ``g`` of a
    batch entering one wavefront after group ``g - 1``, each bank writing one word
    per wavefront, with no broadcast (two lanes writing one word cost two); batches
    follow one another.  The ideal is one wavefront per batch.  Claimed where each lane's source is
    ``l * source_stride`` (:func:`cp_async_strided`; H200 runs 1-3 and 7); an estimate for other
    sources (runs 4-7).  ``source_stride``:
    the global source of lane ``l`` is ``l * source_stride`` bytes unless the
    sources are given (16: CUTLASS's 16-byte-per-thread copies).
    """
    if access_bytes not in (4, 8, 16) or (cache == "cg" and access_bytes != 16):
        raise SymcuteError(f"cp.async.{cache}: copies 4, 8 or 16 bytes (cg: 16), not {access_bytes}")
    if source_stride < access_bytes or source_stride % access_bytes:
        raise SymcuteError(f"cp.async: source_stride must be a multiple of the copy size {access_bytes}, "
                           f"got {source_stride}")
    return Instruction(f"cp.async.{cache}.shared.global ({access_bytes} B)", "ldgsts", access_bytes, WARP,
                       _phase_lanes(access_bytes), broadcast=False, source_stride=source_stride)


CP_ASYNC_BATCH = 4      # line groups served together (the ideal is one wavefront per batch): measured


def cp_async_strided(sources: list) -> bool:
    """Whether one cp.async instruction's lanes read their global sources at a constant stride
    (``src(l) = src(0) + l * stride``, CUTLASS's coalesced copies): the domain where :func:`cp_async_cost`
    is claimed (H200 runs 1-3 and 7: every such single instruction agrees; sources over scattered lines
    or lanes assigned to lines at random measured other counts, runs 5-7)."""
    d = sources[1] - sources[0]
    return all(sources[l] - sources[l - 1] == d for l in range(2, len(sources))) and d > 0


def cp_async_cost(instr: Instruction, addresses: list, sources: list | None = None) -> tuple:
    """``(wavefronts, ideal)`` of one cp.async warp instruction as the H200 serves its shared-memory write.

    ``addresses[lane]``: the shared byte address (None: inactive); ``sources[lane]``: the global byte
    address (default ``lane * instr.source_stride``).  Per phase (32/16/8 lanes for 4/8/16-byte copies)
    the lanes are grouped by the 128-byte line of their source (in order of their first lane), the groups
    taken four at a time; in a batch, group ``g``'s words are written at the earliest wavefronts ``>= g``
    where their bank is free (one word per bank per wavefront, no broadcast); a batch costs its last
    wavefront, its ideal is 1.  Exact for strided sources (every single instruction of runs 1-3 and 7's 45
    fresh ones, hw/h200_2026-12-01_memory/); with sources over scattered lines the wavefronts mostly hold
    but the ideal does not, and lanes assigned to lines at random break both (runs 5-7).
    """
    if sources is None:
        sources = [lane * instr.source_stride for lane in range(WARP)]
    wave = ideal = 0
    nb = instr.lane_bytes
    for p in range(0, WARP, instr.phase_lanes):
        groups: dict = {}
        for lane in range(p, min(p + instr.phase_lanes, instr.active_lanes)):
            a = addresses[lane]
            if a is not None:
                groups.setdefault(sources[lane] // LINE_BYTES, []).append(a)
        order = list(groups.values())
        for b in range(0, len(order), CP_ASYNC_BATCH):
            busy = [0] * BANKS           # per bank: a bit mask of the wavefronts it already writes in
            end = 0
            for g, lanes in enumerate(order[b:b + CP_ASYNC_BATCH]):
                for a in lanes:
                    for w in range(a // BANK_BYTES, (a + nb - 1) // BANK_BYTES + 1):
                        m, c = busy[w % BANKS], g
                        while m >> c & 1:
                            c += 1
                        busy[w % BANKS] = m | (1 << c)
                        end = max(end, c + 1)
            wave += end
            ideal += 1
    return wave, ideal


@dataclass(frozen=True)
class Phase:
    """The wavefronts of one phase: ``lanes`` served together and the worst bank."""
    index: int
    lanes: tuple            # the active lanes of this phase
    wavefronts: int         # max over banks of distinct 4-byte words
    ideal: int              # ceil(distinct words / 32): what a conflict-free placement needs
    bank: int               # a bank with `wavefronts` distinct words
    bank_words: tuple       # those words (byte address / 4), ascending
    bank_lanes: tuple       # for each of those words, the lanes that touch it


def lane_words(address: int, nbytes: int) -> range:
    """The 4-byte words that ``nbytes`` bytes starting at byte ``address`` touch."""
    return range(address // BANK_BYTES, (address + nbytes - 1) // BANK_BYTES + 1)


def phase_wavefronts(index: int, addresses: dict, nbytes: int, broadcast: bool = True) -> Phase:
    """Exact wavefront count of one phase: ``addresses`` maps lane -> byte address.

    The rule (the same word in one bank is served once; distinct words of one bank
    need one wavefront each) is evaluated lane by lane, so it is exact for any
    addresses, F2-linear or not.  Without ``broadcast`` (cp.async) every lane's
    word counts, equal or not.
    """
    per_bank: dict = {}
    words = set()
    for lane, a in addresses.items():
        for w in lane_words(a, nbytes):
            key = w if broadcast else (w, lane)
            per_bank.setdefault(w % BANKS, {}).setdefault(key, []).append(lane)
            words.add(w)
    if not per_bank:
        return Phase(index, (), 0, 0, 0, (), ())
    bank = max(sorted(per_bank), key=lambda b: len(per_bank[b]))
    ws = sorted(per_bank[bank])
    return Phase(index, tuple(sorted(addresses)), len(ws), -(-len(words) // BANKS), bank,
                 tuple(k if broadcast else k[0] for k in ws),
                 tuple(tuple(sorted(set(per_bank[bank][k]))) for k in ws))


def instruction_phases(instr: Instruction, addresses: list) -> list:
    """Split one warp instruction (``addresses[lane]`` = byte address, None = lane inactive) into phases."""
    groups: dict = {}
    for lane, a in enumerate(addresses[:instr.active_lanes]):
        if a is not None:
            groups.setdefault(instr.phase_of(lane), {})[lane] = a
    return [phase_wavefronts(p, groups[p], instr.lane_bytes, instr.broadcast) for p in sorted(groups)]


def _bank_words(addresses: dict, nbytes: int) -> dict:
    per: dict = {}
    for a in addresses.values():
        for w in lane_words(a, nbytes):
            per.setdefault(w % BANKS, set()).add(w)
    return per


def pair_cost(instr: Instruction, addresses: list) -> tuple:
    """``(wavefronts, ideal)`` of a 64- or 128-bit ld.shared, as the H200 serves it (docs/memory.md).

    The phases (half-warps for 64 bits, quarter-warps for 128 bits) go in pairs
    ((0,1) for 64 bits; (0,1), (2,3) for 128 bits), 256 bytes of requests each:

    * when every pair of the warp reads one single address, each pair is one wavefront;
    * a pair whose two phases touch disjoint banks (at most one word per bank in both
      together) is one wavefront;
    * otherwise the pair costs the sum of its phases' wavefronts (a word shared by both
      phases is not broadcast across them), and its ideal is the sum of the phases'
      ideals when they share a word, else ``ceil(words of both / 32)``.
    """
    groups: dict = {}
    for lane, a in enumerate(addresses[:instr.active_lanes]):
        if a is not None:
            groups.setdefault(instr.phase_of(lane), {})[lane] = a
    nph = WARP // instr.phase_lanes
    pairs = [(groups.get(p, {}), groups.get(p + 1, {})) for p in range(0, nph, 2)]
    if all(len(set(a.values()) | set(b.values())) == 1 for a, b in pairs if a or b):
        n = sum(1 for a, b in pairs if a or b)
        return n, n
    wave = ideal = 0
    for a, b in pairs:
        wa, wb = _bank_words(a, instr.lane_bytes), _bank_words(b, instr.lane_bytes)
        if not wa and not wb:
            continue
        ca = max((len(v) for v in wa.values()), default=0)
        cb = max((len(v) for v in wb.values()), default=0)
        na = sum(len(v) for v in wa.values())
        nb = sum(len(v) for v in wb.values())
        if all(len(wa.get(k, ())) + len(wb.get(k, ())) <= 1 for k in range(BANKS)):
            wave, ideal = wave + 1, ideal + 1
            continue
        wave += ca + cb
        shared = any(wa.get(k, set()) & wb.get(k, set()) for k in range(BANKS))
        ideal += (-(-na // 32) - (-nb // 32)) if shared else -(-(na + nb) // 32)
    return wave, ideal


def instruction_cost(instr: Instruction, addresses: list, sources: list | None = None) -> tuple:
    """``(wavefronts, ideal)`` of one warp instruction (``sources``: cp.async's global byte addresses)."""
    if instr.op == "ldgsts":
        return cp_async_cost(instr, addresses, sources)
    if instr.pair_merge:
        return pair_cost(instr, addresses)
    phases = instruction_phases(instr, addresses)
    wave = sum(p.wavefronts for p in phases)
    return wave, sum(p.ideal for p in phases)


STREAM_PAIR_BYTES = 512   # a full warp's st.shared.v4 / stmatrix.x4: every second one costs one more wavefront


def store_stream(instr: Instruction, costs: list, active: list) -> tuple:
    """``(extra wavefronts, timing_dependent)`` of one warp's stream of store instructions issued back to back.

    ``costs``: the per-instruction ``(wavefronts, ideal)`` in issue order; ``active``: lanes giving an
    address, per instruction.  Measured on the H200 (docs/memory.md, "Store streams"; runs 2-4): in a stream
    of conflict-free stores, every second instruction moving 512 bytes (``st.shared.v4`` by 32 lanes,
    ``stmatrix.x4``) costs one more wavefront (``n // 2`` for ``n`` of them, back to back or 2 us apart, same
    or other addresses); narrower conflict-free stores cost exactly their sum.  A stream with a conflicting
    instruction is *timing-dependent*: the same launch measured +0, +1 or +2 per warp depending on the
    spacing of its instructions, so no count is claimed for it.
    """
    if instr.op != "st" or len(costs) < 2:
        return 0, False
    if any(w > i for w, i in costs):
        return 0, True
    wide = sum(1 for n in active if n * instr.lane_bytes == STREAM_PAIR_BYTES)
    return wide // 2, False


def sectors(addresses: list, nbytes: int) -> tuple:
    """(sectors, lines, ideal sectors) of one global-memory warp request."""
    secs, lines, touched = set(), set(), set()
    for a in addresses:
        if a is None:
            continue
        secs.update(range(a // SECTOR_BYTES, (a + nbytes - 1) // SECTOR_BYTES + 1))
        lines.update(range(a // LINE_BYTES, (a + nbytes - 1) // LINE_BYTES + 1))
        touched.update(range(a, a + nbytes))
    return len(secs), len(lines), -(-len(touched) // SECTOR_BYTES)


# TMA (cp.async.bulk.tensor) swizzle modes: the tensor map's CU_TENSOR_MAP_SWIZZLE_32B/64B/128B permute the
# 16-byte chunks of each 32/64/128-byte span of shared memory by the XOR of address bits 7.. (PTX ISA,
# "Tensor Memory Access: swizzling modes"; CUDA C++ Programming Guide, "Using TMA to transfer
# multi-dimensional arrays", swizzle patterns): that is Swizzle<B,4,3> on the shared byte address, B = 1, 2, 3,
# which is how CuTe maps its layout swizzles to TMA (cute/atom/copy_traits_sm90_tma_swizzle.hpp,
# get_tma_swizzle_bits: Swizzle<3,4,3> -> B128, <2,4,3> -> B64, <1,4,3> -> B32, <0,4,3> -> DISABLE).
TMA_SWIZZLE_BITS = {0: 0, 32: 1, 64: 2, 128: 3}


def tma_swizzle(span_bytes: int):
    """The ``Swizzle<B,4,3>`` (on shared byte addresses) of TMA's ``span_bytes`` swizzle mode (0: none)."""
    from ..core.swizzle import Swizzle
    if span_bytes not in TMA_SWIZZLE_BITS:
        raise SymcuteError(f"TMA swizzle mode: 0 (none), 32, 64 or 128 bytes, not {span_bytes!r}")
    return Swizzle(TMA_SWIZZLE_BITS[span_bytes], 4, 3)


def tma_smem_byte(span_bytes: int, row: int, column_byte: int, row_bytes: int, base: int = 0) -> int:
    """Where TMA puts byte ``column_byte`` of box row ``row`` (rows ``row_bytes`` apart, dense) in shared
    memory whose box starts at byte ``base``: the swizzle acts on the absolute address, as CuTe's
    ``swizzle_ptr`` does (the offset returned is relative to ``base``)."""
    return tma_swizzle(span_bytes)(base + row * row_bytes + column_byte) - base


def tma_box_layout(span_bytes: int, rows: int, inner: int, value_bits: int):
    """The shared-memory layout a TMA load writes (and a TMA store reads) for a dense box of ``rows`` rows of
    ``inner`` elements under the ``span_bytes`` swizzle mode: ``Sw<B,4,3> o smem_ptr[value_bits] o
    (rows,inner):(inner,1)``, the swizzle on byte addresses as CuTe's GMMA atoms write it (with 16-bit values
    and 128-byte rows it is ``GMMA::Layout_K_SW128_Atom<half_t>``).  Any lane analysis of the tile (an
    ldmatrix read of a TMA-loaded tile) takes it as its smem layout.
    @pre a row is at most one swizzle span (``inner * value_bits / 8 <= span_bytes``, any width unswizzled)
    """
    from ..core.composed import ComposedLayout, SmemPtrFlag
    from ..core.layout import Layout
    sw = tma_swizzle(span_bytes)
    if span_bytes and inner * value_bits > 8 * span_bytes:
        raise SymcuteError(f"TMA {span_bytes}B swizzle: a box row of {inner} x {value_bits} bits is wider than "
                           f"the {span_bytes}-byte swizzle span")
    return ComposedLayout(sw, SmemPtrFlag(value_bits), Layout((rows, inner), (inner, 1)))
