"""symcute's core vs pycute, side by side on the same inputs, in one process.

For every operation both libraries have, time each library on the same
random layouts (inputs that either library rejects are dropped for both),
report the best-of-N mean CPU time per call (runs interleaved) and the ratio pycute/symcute (>= 1.0 means
symcute is at least as fast).  Also measures the cost of the trace hook when
no derivation is active (a traced op vs its undecorated body).

    python benchmarks/bench_core.py [--cases 300] [--repeat 5] [--markdown]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pycute  # noqa: E402  (ships in the nvidia-cutlass wheel)

import symcute as sc  # noqa: E402
from tests.differential.core_cases import compact, rand_layout, rand_shape  # noqa: E402


def to_pycute(L: sc.Layout):
    return pycute.Layout(L.shape, L.stride)


def _inputs(rng, kind, n):
    out = []
    while len(out) < n:
        if kind == "one":
            out.append((rand_layout(rng),))
        elif kind == "injective":
            out.append((compact(rng, rand_shape(rng)),))
        elif kind == "pair":
            out.append((rand_layout(rng), rand_layout(rng, max_rank=2)))
        elif kind == "tile":
            L = compact(rng, rand_shape(rng), gaps=False)
            out.append((L, sc.Layout(rng.choice([1, 2, 4]), 1)))
        elif kind == "product":
            out.append((compact(rng, rand_shape(rng, 2, 1), gaps=False),
                        compact(rng, rand_shape(rng, 2, 1), gaps=False)))
        elif kind == "shape":
            out.append((rand_shape(rng),))
        elif kind == "index":
            L = rand_layout(rng)
            out.append((L, rng.randrange(L.size())))
        elif kind in ("ctor", "ctor-new"):
            L = rand_layout(rng)
            out.append((L.shape, L.stride))
        elif kind == "coord":   # a coordinate congruent to the shape (a nested one where the shape nests)
            L = rand_layout(rng)
            out.append((L, _coordinate(rng, L.shape)))
    return out


def _coordinate(rng, shape):
    if isinstance(shape, tuple):
        return tuple(_coordinate(rng, s) for s in shape)
    return rng.randrange(max(shape, 1))


SEED_TV = ((4, 8, 2, 2), ((2, 2, 2), (1, 1))), ((64, 1, 16, 0), ((32, 8, 256), (0, 0)))
SEED_TEXT = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


# (name, input kind, symcute call, pycute call)
OPS = [
    ("coalesce", "one", sc.coalesce, pycute.coalesce),
    ("filter", "one", sc.filter, pycute.filter),
    ("composition", "pair", sc.composition, pycute.composition),
    ("complement", "injective", sc.complement, pycute.complement),
    ("right_inverse", "one", sc.right_inverse, pycute.right_inverse),
    ("left_inverse", "injective", sc.left_inverse, pycute.left_inverse),
    ("logical_divide", "tile", sc.logical_divide, pycute.logical_divide),
    ("zipped_divide", "tile", sc.zipped_divide, pycute.zipped_divide),
    ("tiled_divide", "tile", sc.tiled_divide, pycute.tiled_divide),
    ("logical_product", "product", sc.logical_product, pycute.logical_product),
    ("zipped_product", "product", sc.zipped_product, pycute.zipped_product),
    ("tiled_product", "product", sc.tiled_product, pycute.tiled_product),
    # the public constructor twice: from the same tuple objects again (symcute remembers the pairs of
    # tuple objects it checked), and from new tuple objects at every call (each one checked)
    ("Layout(shape, stride), tuples seen before", "ctor", lambda s, d: sc.Layout(s, d),
     lambda s, d: pycute.Layout(s, d)),
    ("Layout(shape, stride), new tuples", "ctor-new", lambda s, d: sc.Layout(s, d),
     lambda s, d: pycute.Layout(s, d)),
    ("evaluate (idx)", "index", lambda L, i: L(i), lambda L, i: L(i)),
    ("evaluate (nested coord)", "coord", lambda L, c: L(c), lambda L, c: L(c)),
    ("size", "one", sc.size, pycute.size),
    ("cosize", "one", sc.cosize, pycute.cosize),
    ("flatten (shape)", "shape", sc.core.int_tuple.flatten, pycute.flatten),
]


def convert(args):
    return tuple(to_pycute(a) if isinstance(a, sc.Layout) else a for a in args)


# CPU time of this process by default: on a shared machine wall-clock time also counts the time
# other jobs hold the cores (--clock wall measures that instead)
CLOCK = time.process_time


def _once(fn, inputs):
    t = CLOCK()
    for args in inputs:
        fn(*args)
    return (CLOCK() - t) / len(inputs)


def time_calls(fn, inputs, repeat):
    """Best of `repeat` runs of the mean time per call (seconds): the least disturbed run."""
    return min(_once(fn, inputs) for _ in range(repeat))


def time_pair(f, a, g, b, repeat):
    """Interleave the two libraries' runs so both see the same machine load; best of each."""
    ta, tb = [], []
    for _ in range(repeat):
        ta.append(_once(f, a))
        tb.append(_once(g, b))
    return min(ta), min(tb)


def new_tuples(t):
    """An equal IntTuple made of new tuple objects (``tuple(t)`` of a tuple is ``t`` itself)."""
    return tuple([new_tuples(x) for x in t]) if isinstance(t, tuple) else t


def time_pair_new(f, g, inputs, repeat):
    """Like time_pair, each call on tuple objects never passed to a constructor before."""
    ta, tb = [], []
    for _ in range(repeat):
        ta.append(_once(f, [tuple(new_tuples(x) for x in args) for args in inputs]))
        tb.append(_once(g, [tuple(new_tuples(x) for x in args) for args in inputs]))
    return min(ta), min(tb)


def runnable(fn, args) -> bool:
    try:
        fn(*args)
        return True
    except Exception:  # noqa: BLE001 - a peer rejecting an input only drops that input
        return False


def bench(cases: int, repeat: int, seed: int = 1):
    rows = []
    for name, kind, mine, theirs in OPS:
        rng = random.Random(f"bench:{name}:{seed}")
        inputs = _inputs(rng, kind, cases)
        both = [(a, convert(a)) for a in inputs if runnable(mine, a) and runnable(theirs, convert(a))]
        if kind == "ctor-new":
            t_sym, t_py = time_pair_new(mine, theirs, [a for a, _ in both], repeat)
        else:
            t_sym, t_py = time_pair(mine, [a for a, _ in both], theirs, [b for _, b in both], repeat)
        rows.append((name, len(both), t_sym, t_py, t_py / t_sym))
    return rows


def seed_rows(repeat: int):
    """The seed's TV layout: the public constructor against pycute's, and Layout.parse of its text."""
    n = 2000
    ctor = [SEED_TV] * n
    mine, theirs = (lambda s, d: sc.Layout(s, d)), (lambda s, d: pycute.Layout(s, d))
    t_sym, t_py = time_pair(mine, ctor, theirs, ctor, repeat)
    t_sym_new, t_py_new = time_pair_new(mine, theirs, ctor, repeat)
    t_parse = time_calls(sc.Layout.parse, [(SEED_TEXT,)] * n, repeat)
    return [("Layout(shape, stride) of the seed's TV layout, tuples seen before", t_sym, t_py),
            ("Layout(shape, stride) of the seed's TV layout, new tuples", t_sym_new, t_py_new),
            ("Layout.parse of its text", t_parse, None)]


def hook_overhead(cases: int, repeat: int):
    """A traced op (right_inverse, coalesce) vs its undecorated body, no derivation active."""
    rng = random.Random("bench:hook")
    inputs = _inputs(rng, "one", cases)
    out = []
    for name, fn in (("right_inverse", sc.right_inverse), ("coalesce", sc.coalesce)):
        traced, bare = time_pair(fn, inputs, fn.__wrapped__, inputs, repeat)
        out.append((name, traced, bare))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table for docs/performance.md")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="time.process_time (default) or time.perf_counter")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    rows = bench(args.cases, args.repeat)
    seed = seed_rows(args.repeat)
    hook = hook_overhead(args.cases, args.repeat)
    if args.markdown:
        print("| operation | inputs | symcute (µs/call) | pycute (µs/call) | ratio pycute/symcute |")
        print("|---|---:|---:|---:|---:|")
        for name, n, ts, tp, r in rows:
            print(f"| {name} | {n} | {ts * 1e6:.2f} | {tp * 1e6:.2f} | {r:.2f} |")
        print()
        print("| the seed's TV layout | symcute (µs/call) | pycute (µs/call) | ratio pycute/symcute |")
        print("|---|---:|---:|---:|")
        for name, ts, tp in seed:
            peer = f"{tp * 1e6:.2f} | {tp / ts:.2f}" if tp else "- (pycute has no reader) | -"
            print(f"| {name} | {ts * 1e6:.2f} | {peer} |")
        print()
        print("| traced op, no derivation active | traced (µs/call) | undecorated (µs/call) | overhead |")
        print("|---|---:|---:|---:|")
        for name, t, b in hook:
            print(f"| {name} | {t * 1e6:.2f} | {b * 1e6:.2f} | {(t / b - 1) * 100:+.1f}% |")
    else:
        print(f"{'operation':18s} {'inputs':>6s} {'symcute us':>11s} {'pycute us':>10s} {'ratio':>6s}")
        for name, n, ts, tp, r in rows:
            print(f"{name:18s} {n:6d} {ts * 1e6:11.2f} {tp * 1e6:10.2f} {r:6.2f}")
        for name, ts, tp in seed:
            print(f"{name}: symcute {ts * 1e6:.2f} us" + (f", pycute {tp * 1e6:.2f} us, ratio {tp / ts:.2f}" if tp else ""))
        for name, t, b in hook:
            print(f"hook {name}: traced {t * 1e6:.2f} us, bare {b * 1e6:.2f} us ({(t / b - 1) * 100:+.1f}%)")
    return rows


if __name__ == "__main__":
    main()
