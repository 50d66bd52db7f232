"""Time symcute.memory: a 128x128 tile's copy analysed for every lane, and swizzle synthesis for one tile.

The peer is the obvious per-lane loop: for each warp instruction and each phase, evaluate every lane's
address with symcute.core (``smem(tv(t, v))``) and count distinct words per bank in Python dicts (what
tests/memory/test_shared.py's brute force does).  Best of N runs, in CPU time (process_time).

    python benchmarks/bench_memory.py [--repeat 5] [--markdown]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from symcute import ComposedLayout, Layout, Swizzle, tile_to_shape  # noqa: E402
from symcute.atoms import copy_atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma  # noqa: E402
from symcute.memory import bank_conflicts, shared_access  # noqa: E402
from symcute.memory.synth import copy_side, synthesize_swizzle  # noqa: E402

SW = tile_to_shape(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))), (128, 128))
PLAIN = Layout((128, 128), (128, 1))


def cases():
    g2s = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"), Layout((16, 8), (8, 1)),
                          Layout((1, 8)))
    ldsm = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"),
                             make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)))
    return [
        ("cp.async 128-bit write of a 128x128 half tile, Sw<3,3,3>", lambda: bank_conflicts(g2s, SW), None),
        ("ldmatrix.x4 read of A over a 128x128 half tile, unswizzled", lambda: bank_conflicts(ldsm, PLAIN), None),
        ("column reads of a 128x128 float tile (32 threads x 128 values)",
         lambda: shared_access(Layout((32, 128), (128, 1)), Layout((128, 128), (128, 1)), 32, 32),
         (Layout((32, 128), (128, 1)), Layout((128, 128), (128, 1)))),
    ]


def naive(tv, smem, value_bits=32) -> int:
    """The per-lane loop with core's evaluation (32-bit accesses: one phase of 32 lanes)."""
    nt, nv = tv[0].size(), tv[1].size()
    total = 0
    for w in range(-(-nt // 32)):
        for k in range(nv):
            banks = {}
            for lane in range(32):
                t = 32 * w + lane
                if t < nt:
                    word = smem(tv(t, k)) * value_bits // 32
                    banks.setdefault(word % 32, set()).add(word)
            total += max(len(s) for s in banks.values())
    return total


def best(fn, repeat):
    """(result, best CPU seconds): process time, so that a shared, loaded machine does not inflate it."""
    out, best_t = None, float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best_t = min(best_t, time.process_time() - t0)
    return out, best_t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    for name, fn, peer in cases():
        r, t = best(fn, args.repeat)
        row = [name, f"{r.warps} warps x {r.instructions_per_warp}", r.wavefronts, f"{t * 1e3:.2f} ms"]
        if peer is not None:
            n, tp = best(lambda: naive(*peer), max(1, args.repeat // 2))
            assert n == r.wavefronts
            row += [f"{tp * 1e3:.1f} ms", f"{tp / t:.0f}x"]
        else:
            row += ["-", "-"]
        rows.append(row)
    for k in (64, 32):
        base = Layout((32, k), (k, 1))
        w = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"),
                            Layout((16, k // 8), (k // 8, 1)), Layout((1, 8)))
        r = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"),
                              make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)))
        sides = [copy_side(w, base), copy_side(r, base)]
        s, t = best(lambda: synthesize_swizzle(base, sides), max(1, args.repeat // 2))
        rows.append([f"synthesis: cp.async write + ldmatrix.x4 read of a 32x{k} half tile", f"{s.searched} swizzles",
                     f"best {s.best.swizzle}", f"{t * 1e3:.0f} ms", "-", "-"])
    from symcute.memory.atom_synth import copy_access, synthesize_smem_layout
    for k in (64, 32):
        w = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"),
                            Layout((16, k // 8), (k // 8, 1)), Layout((1, 8)))
        r = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"),
                              make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)))
        acc = [copy_access(w), copy_access(r)]
        s, t = best(lambda: synthesize_smem_layout((32, k), acc, "half_t"), max(1, args.repeat // 2))
        rows.append([f"atom synthesis: the same accesses, 32x{k}", f"{len(s.candidates)} layouts",
                     f"best {s.best.name}", f"{t * 1e3:.0f} ms", "-", "-"])
    head = ["case", "instructions", "wavefronts", "symcute", "per-lane loop", "ratio"]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        for r in rows:
            print("  ".join(str(x) for x in r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
