"""symcute's enumeration and its memory analysis of one copy, side by side with a plain numpy evaluation.

    python benchmarks/bench_numpy.py [--repeat 9] [--markdown]

Two tables, one process, interleaved runs, CPU time (``process_time``), medians; the load average is
printed with them.

Enumeration: claims that no refinement, GF(2) or bit-split argument decides, so the prover enumerates
(``method`` is printed: ``exhaustive``).  The peer is the plain numpy evaluation of the same term: the
whole domain as one ``arange``, one ``divmod`` per flat mode, the swizzle's XOR, then the check
(``bincount`` for injectivity, an array comparison for equality, a boolean table for surjectivity).
"symcute" is the whole prover call (the claim's certificate and counterexample included).

Memory: ``bank_conflicts`` of one TiledCopy over a 128x64 half tile (ldmatrix.x4 read, cp.async
write; swizzled and not).  The peer is a numpy brute force of the plain bank rule: every lane's byte
address (the TV layout from core, computed once outside the timing, as symcute keeps it per
TiledCopy; the smem layout and its swizzle evaluated with numpy), then per (instruction, phase) the
distinct 4-byte words of each bank and their maximum.  symcute also counts cp.async's line groups,
builds the witness and the F2 certificate.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from symcute import ComposedLayout, Layout, Swizzle, tile_to_shape  # noqa: E402
from symcute.core import int_tuple as it  # noqa: E402
from symcute.core import sizeof_bits  # noqa: E402
import symcute.symbolic as sym  # noqa: E402
from symcute.symbolic.linear import Compose  # noqa: E402


# --- the peer: plain numpy ------------------------------------------------------------------------------

def np_eval(term, q):
    """``term(q)`` by the textbook rule: divmod per flat mode (the last unreduced), swizzle XOR."""
    if isinstance(term, Compose):
        return np_eval(term.outer, np_eval(term.inner, q))
    if isinstance(term, Swizzle):
        return q ^ ((q & term.yyy_msk) >> term.shift)
    if isinstance(term, ComposedLayout):
        return np_eval(term.outer, int(term.offset) + np_eval(term.inner, q))
    shape, stride = it.flatten_to_tuple(term.shape), it.flatten_to_tuple(term.stride)
    total, rest = np.zeros_like(q), q
    for s, d in zip(shape[:-1], stride[:-1]):
        rest, r = np.divmod(rest, s)
        total += r * d
    return total + rest * stride[-1]


def np_injective(term, n):
    v = np_eval(term, np.arange(n, dtype=np.int64))
    return int(np.bincount(v - v.min()).max()) <= 1


def np_equal(a, b, n):
    q = np.arange(n, dtype=np.int64)
    return bool((np_eval(a, q) == np_eval(b, q)).all())


def np_surjective(term, size, n):
    v = np_eval(term, np.arange(size, dtype=np.int64))
    hit = np.zeros(n, dtype=bool)
    hit[v[(v >= 0) & (v < n)]] = True
    return bool(hit.all())


def enumeration_cases(k: int):
    """(name, symcute call, numpy call) on about 2^k inputs."""
    rows = (1 << k) // 48
    m = rows * 48
    sw = ComposedLayout(Swizzle(2, 3, 3), 0, Layout((rows, 48), (48, 1)))        # a 48-column swizzled tile
    walk = Layout((16, m // 16), (m // 16, 1))                                    # read 16 rows at a time
    wrong = Layout((16, m // 16), (m // 16 - 1, 1))                               # one stride short: collides
    cols = Layout((rows, 48), (1, rows))
    return [
        ("injective(Sw<2,3,3> o 0 o (m/48,48):(48,1) o (16,m/16):(m/16,1))",
         lambda: sym.is_injective(Compose(sw, walk)), lambda: np_injective(Compose(sw, walk), m)),
        ("the same, stride m/16-1 (a collision)",
         lambda: sym.is_injective(Compose(sw, wrong)), lambda: np_injective(Compose(sw, wrong), m)),
        ("surjective onto [0, m)",
         lambda: sym.is_surjective(Compose(sw, walk), m), lambda: np_surjective(Compose(sw, walk), m, m)),
        ("equal: the tile o (16,m/16):(m/16,1) vs o (m/48,48):(1,m/48)",
         lambda: sym.prove(Compose(sw, walk), Compose(sw, cols)),
         lambda: np_equal(Compose(sw, walk), Compose(sw, cols), m)),
    ]


# --- the peer: a numpy bank-conflict brute force ----------------------------------------------------------

def np_bank_brute(tv, smem, value_bits, lane_bytes, phase_lanes, tile, sshape):
    """Sum over instructions and phases of the max distinct words per bank (plain bank rule)."""
    nt, nv = tv[0].size(), tv[1].size()
    idx = np.arange(nt)[:, None] + nt * np.arange(nv)[None, :]
    tidx = np_eval(tv, idx)
    r0, c0 = tidx % tile[0], tidx // tile[0]
    rests = (sshape[0] // tile[0], sshape[1] // tile[1])
    q = np.arange(rests[0] * rests[1])
    full = (r0[:, None, :] + (q % rests[0])[None, :, None] * tile[0]) + \
        (c0[:, None, :] + (q // rests[0])[None, :, None] * tile[1]) * sshape[0]
    byte = np_eval(smem, full).reshape(nt, -1) * value_bits // 8
    per = lane_bytes * 8 // value_bits
    starts = byte[:, ::per]                                          # [thread, access]
    warps = nt // 32
    lanes = starts.reshape(warps, 32, -1).transpose(0, 2, 1).reshape(-1, 32 // phase_lanes, phase_lanes)
    words = (lanes[..., None] // 4 + np.arange(lane_bytes // 4)).reshape(lanes.shape[0], lanes.shape[1], -1)
    g = np.arange(words.shape[0] * words.shape[1]).reshape(words.shape[0], words.shape[1], 1)
    span = int(words.max()) + 1
    key = np.sort((g * span + words).ravel())            # distinct (phase, word) keys: a sort and a mask
    key = key[np.concatenate(([True], key[1:] != key[:-1]))]   # (faster than numpy 2's hashing unique)
    grp, wd = key // span, key % span
    per_bank = np.bincount(grp * 32 + wd % 32, minlength=g.size * 32).reshape(-1, 32)
    return int(per_bank.max(axis=1).sum())


def memory_cases():
    from symcute.atoms import copy_atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma
    from symcute.memory import bank_conflicts
    sw = tile_to_shape(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))), (128, 64))
    plain = Layout((128, 64), (64, 1))
    g2s = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"), Layout((16, 8), (8, 1)),
                          Layout((1, 8)))
    ldsm = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"),
                             make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)))
    out = []
    for name, tc, smem, side, lane_bytes, phase_lanes in (
            ("ldmatrix.x4 read of A, 128x64 half, Sw<3,3,3>", ldsm, sw, "S", 16, 8),
            ("ldmatrix.x4 read of A, 128x64 half, unswizzled", ldsm, plain, "S", 16, 8),
            ("cp.async 128-bit write, 128x64 half, Sw<3,3,3>", g2s, sw, "D", 16, 8),
            ("cp.async 128-bit write, 128x64 half, unswizzled", g2s, plain, "D", 16, 8)):
        tv = tc.get_layoutS_TV() if side == "S" else tc.get_layoutD_TV()
        tile = tuple(tc.tiler_mn)
        vb = sizeof_bits(tc.atom.value_type)
        out.append((name, (lambda tc=tc, smem=smem: bank_conflicts(tc, smem)),
                    (lambda tv=tv, smem=smem, vb=vb, tile=tile, lb=lane_bytes, pl=phase_lanes:
                     np_bank_brute(tv, smem, vb, lb, pl, tile, (128, 64)))))
    return out


# --- timing ---------------------------------------------------------------------------------------------

def interleaved(fns, repeat):
    """Median CPU seconds of each of ``fns``, run in turn ``repeat`` times (after one warm-up each)."""
    outs = [f() for f in fns]
    times = [[] for _ in fns]
    for _ in range(repeat):
        for i, f in enumerate(fns):
            t0 = time.process_time()
            f()
            times[i].append(time.process_time() - t0)
    return outs, [statistics.median(t) for t in times]


def fmt(t):
    return f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--sizes", default="16,20")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average before: {load}")
    rows = []
    for k in (int(x) for x in a.sizes.split(",")):
        for name, ours, peer in enumeration_cases(k):
            (p, ok), (t_ours, t_peer) = interleaved([ours, peer], a.repeat)
            assert p.verdict in ("proved", "refuted") and p.proved == ok, (name, p.verdict, ok)
            rows.append([f"2^{k}", name, f"{p.verdict} ({p.method})", fmt(t_ours), fmt(t_peer),
                         f"{t_ours / t_peer:.2f}x"])
    mrows = []
    for name, ours, peer in memory_cases():
        (r, _n), (t_ours, t_peer) = interleaved([ours, peer], a.repeat)
        mrows.append([name, r.wavefronts, fmt(t_ours), fmt(t_peer), f"{t_ours / t_peer:.2f}x"])
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for head, body in ((["inputs", "claim", "verdict", "symcute", "numpy", "symcute / numpy"], rows),
                       (["copy", "wavefronts", "symcute bank_conflicts", "numpy brute force", "symcute / numpy"],
                        mrows)):
        if a.markdown:
            print("| " + " | ".join(head) + " |")
            print("|" + "---|" * len(head))
            for r in body:
                print("| " + " | ".join(str(x) for x in r) + " |")
        else:
            for r in body:
                print("  ".join(str(x) for x in r))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
