"""A small model of the sgemm_sm80 mainloop's schedule, and the ``pipeline`` claim (docs/kernel.md, "pipeline").

The model runs one thread's program of CUTLASS's ``gemm_device`` (examples/cute/tutorial/sgemm_sm80.cu)
for ``P`` stages, ``cp_async_wait<W>``, ``KB`` k-blocks per k-tile and ``n`` k-tiles, event by event:

- ``ISSUE(tile, stage)``: the G2S ``copy(copy_a, tAgA(_,_,_,k_tile_next), tAsA(_,_,_,smem_pipe_write))``,
  asynchronous (it lands at an unknown time until a wait retires its group);
- ``FENCE``: ``cp_async_fence()`` commits the group of the issues since the last fence;
- ``WAIT``: ``cp_async_wait<W>()``: every committed group but the ``W`` most recent is complete;
- ``SYNC``: ``__syncthreads()``: what every thread retired before it is visible to all, and every read
  before it has happened in every thread;
- ``READ(stage, k_block)``: the S2R copy of one k-block into its register slice;
- ``GEMM(k_block)``: the MMA of one k-block, which must find its register slice holding the k-tile of the
  current iteration and that k-block, read after the tile's copy was visible, and not overwritten by a
  later copy that may have landed before some thread's read (all threads run the same program, so a
  read after the last ``SYNC`` may still be pending in another thread).

Only hazards whose value an MMA consumes are reported (the tutorial's last prefetch reads a stage for
an iteration that never runs).  The checks of one iteration depend only on its distance to the first
and last k-tile and on the stage indices modulo ``P``, so every ``n`` behaves as one of
``n <= 3P + 2`` with ``n`` congruent modulo ``P`` (a longer run adds middle iterations identical to
the ones a shorter run has); the claim runs those.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Hazard:
    """The first consumed hazard of one run: what the MMA of ``iteration``/``k_block`` found wrong."""
    k_tiles: int
    iteration: int
    k_block: int
    stage: int | None
    kind: str          # "raw": read before its copy was visible; "war": overwritten while possibly unread;
                       # "stale": the register holds another k-tile's or k-block's data
    expected: str
    found: str


def events(stages: int, k_blocks: int, k_tiles: int):
    """The program of one thread of ``gemm_device``'s mainloop (sgemm_sm80.cu), event by event:
    ``("issue", k_tile, stage)``, ``("fence",)``, ``("wait",)``, ``("sync",)``, ``("read", stage, k_block)``
    (the S2R copy into register slice ``k_block``), ``("gemm", iteration, k_block)``.  The same program
    drives the claim's model (:func:`run`) and the CPU run (:mod:`.simulate`)."""
    P, KB, n = stages, k_blocks, k_tiles
    count, nxt = n, 0
    for k_pipe in range(P - 1):      # the prologue: P-1 k-tiles in flight
        yield ("issue", nxt, k_pipe)
        yield ("fence",)
        count -= 1
        if count > 0:
            nxt += 1
    read_stage, write_stage = 0, P - 1
    p_stage = read_stage
    if KB > 1:                       # the first k-block's registers, before the loop
        yield ("wait",)
        yield ("sync",)
        yield ("read", p_stage, 0)
    it = 0
    while count > -(P - 1):
        for kb in range(KB):
            if kb == KB - 1:
                p_stage = read_stage
                yield ("wait",)
                yield ("sync",)
            yield ("read", p_stage, (kb + 1) % KB)
            if kb == 0:
                yield ("issue", nxt, write_stage)
                yield ("fence",)
                count -= 1
                if count > 0:
                    nxt += 1
                write_stage = read_stage
                read_stage = (read_stage + 1) % P
            yield ("gemm", it, kb)
        it += 1


def run(stages: int, wait: int, k_blocks: int, k_tiles: int) -> Hazard | None:
    """The first consumed hazard of the sgemm_sm80 schedule, or None (the run is correct)."""
    P, W, KB, n = stages, wait, k_blocks, k_tiles
    content = [None] * P            # stage -> (tile, group) of its last issue
    committed: list[int] = []       # group ids, in commit order
    open_group = 0
    retired: set[int] = set()       # this thread's groups a wait retired
    visible: set[int] = set()       # every thread's retired groups, after a sync
    reads_since_sync: dict[int, list] = {s: [] for s in range(P)}
    regs: dict[int, dict] = {}

    def issue(tile: int, s: int):
        nonlocal open_group
        for rd in reads_since_sync[s]:   # another thread may not have done this read yet
            rd["war"] = True
        content[s] = (tile, open_group)

    def fence():
        nonlocal open_group
        committed.append(open_group)
        open_group += 1

    def wait_():
        done = committed[:len(committed) - W] if W else committed[:]
        retired.update(done)

    def sync():
        visible.clear()
        visible.update(retired)
        for s in range(P):
            reads_since_sync[s] = []

    def read(s: int, kb: int):
        c = content[s]
        rd = {"stage": s, "tile": None if c is None else c[0], "kb": kb,
              "raw": c is None or c[1] not in visible, "war": False}
        reads_since_sync[s].append(rd)
        regs[kb] = rd

    for ev in events(P, KB, n):
        kind = ev[0]
        if kind == "issue":
            issue(ev[1], ev[2])
        elif kind == "fence":
            fence()
        elif kind == "wait":
            wait_()
        elif kind == "sync":
            sync()
        elif kind == "read":
            read(ev[1], ev[2])
        else:   # ("gemm", iteration, k_block)
            it, kb = ev[1], ev[2]
            rd = regs.get(kb)
            want = f"k-tile {it} k-block {kb}"
            if rd is None or rd["tile"] != it or rd["kb"] != kb:
                got = "nothing" if rd is None else f"k-tile {rd['tile']} k-block {rd['kb']} (stage {rd['stage']})"
                return Hazard(n, it, kb, None if rd is None else rd["stage"], "stale", want, got)
            if rd["raw"]:
                return Hazard(n, it, kb, rd["stage"], "raw", want + " after its copy completed",
                              f"stage {rd['stage']} read while the copy of k-tile {it} may be in flight")
            if rd["war"]:
                return Hazard(n, it, kb, rd["stage"], "war", want,
                              f"stage {rd['stage']} overwritten by a later copy before every thread read it")
    return None


def tile_counts(k_extent, divisor: int, bk: int, stages: int) -> list[int]:
    """The k-tile counts ``ceil(K / BLK_K)`` the claim runs: every admissible one up to ``3P + 2``, and for
    each residue modulo ``P`` of the larger admissible ones its representative in ``[2P + 2, 3P + 2)``."""
    P = stages
    if isinstance(k_extent, int):
        n = math.ceil(k_extent / bk)
        return [n if n < 2 * P + 2 else 2 * P + 2 + (n - 2 * P - 2) % P]
    small, residues = set(), set()
    # K = divisor * q: the set of counts ceil(K / bk) repeats with period lcm(divisor, bk) / bk in n, so a
    # window of P periods past 3P + 2 meets every residue modulo P the large counts take
    period = math.lcm(divisor, bk) // bk
    hi = 3 * P + 2 + period * P
    q = 1
    while (n := math.ceil(divisor * q / bk)) <= hi:
        if n <= 3 * P + 1:
            small.add(n)
        if n >= 2 * P + 2:
            residues.add(n % P)
        q += 1
    reps = {r for r in range(2 * P + 2, 3 * P + 2) if r % P in residues}
    return sorted(small | reps)
