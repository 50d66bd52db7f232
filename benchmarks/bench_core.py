"""symcute's core vs its two pycute peers, side by side on the same inputs, in one process.

The peers: NVIDIA's pure-Python CuTe reference, NVlabs/CuTe ``pycute`` (SymPy
sizes, XOR swizzle strides; the project's named speed peer), and the older
``pycute`` that ships in the ``nvidia-cutlass`` wheel.  NVlabs' pycute is not
installable from a registry (the PyPI name ``pycute`` is an unrelated package):
point ``--nvlabs`` (or the environment variable ``SYMCUTE_NVLABS_PYCUTE``) at a
checkout, either the repository root or its ``pycute/`` package folder.  It is
imported under the module name ``nvlabs_pycute`` so that both peers load in
this one process; without it that column says "not measured".

For every operation, time symcute and each peer on the same random layouts
(inputs that symcute or that peer rejects are dropped for that comparison only)
and report the best-of-N mean CPU time per call, all contenders' runs
interleaved, with the ratio peer/symcute (>= 1.0 means symcute is at least as
fast).  Where a peer has no such operation, the table says so.  Also measures
the cost of the trace hook when no derivation is active (a traced op vs its
undecorated body).

    python benchmarks/bench_core.py [--cases 300] [--repeat 5] [--markdown] [--nvlabs PATH]

``--sweep`` measures the rank sweep instead: each operation on layouts of rank
8, 64, 512, 4096 and 32,768 (``--ranks`` to change), one call per run, the
median of several runs of CPU time, symcute and the peers interleaved in this
one process, the load average printed beside the table.  A peer's case whose
single call is predicted (from its smaller ranks) to take more than
``--cap`` seconds (default 20) is left out and the table says so.

    python benchmarks/bench_core.py --sweep [--ranks 8,64,512,4096,32768] [--cap 20] [--markdown]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pycute  # noqa: E402  (ships in the nvidia-cutlass wheel)

import symcute as sc  # noqa: E402
from tests.differential.core_cases import compact, rand_layout, rand_shape  # noqa: E402

NVLABS_ENV = "SYMCUTE_NVLABS_PYCUTE"
NVLABS_MODULE = "nvlabs_pycute"


def load_nvlabs(path: str | os.PathLike):
    """Import NVlabs/CuTe's ``pycute`` package from ``path`` as module ``nvlabs_pycute``.

    ``path`` is the repository root (holding ``pycute/``) or the package folder
    itself.  A distinct module name lets it live beside the wheel's ``pycute``.
    Raises SystemExit with one line when the folder holds no such package.
    """
    root = Path(path)
    pkg = root if (root / "__init__.py").is_file() else root / "pycute"
    init = pkg / "__init__.py"
    if not init.is_file():
        raise SystemExit(f"bench_core: --nvlabs {path}: no pycute package there (no {init})")
    if NVLABS_MODULE in sys.modules:
        return sys.modules[NVLABS_MODULE]
    spec = importlib.util.spec_from_file_location(NVLABS_MODULE, init, submodule_search_locations=[str(pkg)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[NVLABS_MODULE] = mod
    spec.loader.exec_module(mod)
    if not hasattr(mod, "prefix_product"):
        raise SystemExit(f"bench_core: --nvlabs {path}: {init} is not NVlabs' pycute (no prefix_product)")
    return mod


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


class Peer:
    """One peer library: its name, how a symcute Layout becomes its Layout, and its calls by row."""

    def __init__(self, name: str, mod, calls: dict):
        self.name, self.mod, self.calls = name, mod, calls

    def convert(self, args):
        return tuple(self.mod.Layout(a.shape, a.stride) if isinstance(a, sc.Layout) else a for a in args)


def _ctor(mod):
    return lambda s, d: mod.Layout(s, d)


def _evaluate(L, c):
    return L(c)


def wheel_calls(pc) -> dict:
    """The wheel's pycute: every row has a call of the same CuTe name."""
    return {
        "coalesce": pc.coalesce, "filter": pc.filter, "composition": pc.composition,
        "complement": pc.complement, "right_inverse": pc.right_inverse, "left_inverse": pc.left_inverse,
        "logical_divide": pc.logical_divide, "zipped_divide": pc.zipped_divide, "tiled_divide": pc.tiled_divide,
        "logical_product": pc.logical_product, "zipped_product": pc.zipped_product,
        "tiled_product": pc.tiled_product, "ctor": _ctor(pc), "evaluate": _evaluate,
        "size": pc.size, "cosize": pc.cosize, "flatten": pc.flatten,
    }


# Operations NVlabs' pycute does not have, with what it offers instead (said in the table)
NVLABS_LACKS = {
    "filter": "no filter",
    "tiled_divide": "no tiled_divide",
    "zipped_product": "no zipped_product",
    "tiled_product": "no tiled_product (has blocked_/raked_product)",
    "cosize": "no cosize (has coshape)",
}


def nvlabs_calls(nv) -> dict:
    """NVlabs' pycute under CuTe's names; the rows it lacks map to a reason (a str)."""
    calls = {
        "coalesce": nv.coalesce, "composition": nv.composition, "complement": nv.complement,
        "right_inverse": nv.right_inverse, "left_inverse": nv.left_inverse,
        "logical_divide": nv.logical_divide, "zipped_divide": nv.zipped_divide,
        "logical_product": nv.logical_product, "ctor": _ctor(nv), "evaluate": _evaluate,
        "size": nv.size, "flatten": nv.flatten,
    }
    calls.update(NVLABS_LACKS)
    return calls


# (name, input kind, symcute call, the peers' call key)
OPS = [
    ("coalesce", "one", sc.coalesce, "coalesce"),
    ("filter", "one", sc.filter, "filter"),
    ("composition", "pair", sc.composition, "composition"),
    ("complement", "injective", sc.complement, "complement"),
    ("right_inverse", "one", sc.right_inverse, "right_inverse"),
    ("left_inverse", "injective", sc.left_inverse, "left_inverse"),
    ("logical_divide", "tile", sc.logical_divide, "logical_divide"),
    ("zipped_divide", "tile", sc.zipped_divide, "zipped_divide"),
    ("tiled_divide", "tile", sc.tiled_divide, "tiled_divide"),
    ("logical_product", "product", sc.logical_product, "logical_product"),
    ("zipped_product", "product", sc.zipped_product, "zipped_product"),
    ("tiled_product", "product", sc.tiled_product, "tiled_product"),
    # the public constructor twice: from the same tuple objects again (symcute remembers the pairs of
    # tuple objects it checked), and from new tuple objects at every call (each one checked)
    ("Layout(shape, stride), tuples seen before", "ctor", lambda s, d: sc.Layout(s, d), "ctor"),
    ("Layout(shape, stride), new tuples", "ctor-new", lambda s, d: sc.Layout(s, d), "ctor"),
    ("evaluate (idx)", "index", _evaluate, "evaluate"),
    ("evaluate (nested coord)", "coord", _evaluate, "evaluate"),
    ("size", "one", sc.size, "size"),
    ("cosize", "one", sc.cosize, "cosize"),
    ("flatten (shape)", "shape", sc.core.int_tuple.flatten, "flatten"),
]


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


def new_tuples(t):
    """An equal IntTuple made of new tuple objects (``tuple(t)`` of a tuple is ``t`` itself)."""
    return tuple([new_tuples(x) for x in t]) if isinstance(t, tuple) else t


def time_interleaved(contenders, repeat, fresh=False):
    """Best of `repeat` runs for each (call, inputs), the contenders' runs interleaved so all see
    the same machine load.  With `fresh`, every run gets tuple objects never passed to a call before."""
    times = [[] for _ in contenders]
    for _ in range(repeat):
        for k, (fn, inputs) in enumerate(contenders):
            if fresh:
                inputs = [tuple(new_tuples(x) for x in args) for args in inputs]
            times[k].append(_once(fn, inputs))
    return [min(t) for t in times]


def runnable(fn, args) -> bool:
    try:
        fn(*args)
        return True
    except Exception:  # noqa: BLE001 - a peer rejecting an input only drops that input
        return False


class Cell:
    """One peer's side of a row: inputs kept, symcute's and the peer's time, or why not measured."""

    def __init__(self, n=0, t_sym=None, t_peer=None, note=None):
        self.n, self.t_sym, self.t_peer, self.note = n, t_sym, t_peer, note

    @property
    def ratio(self):
        return self.t_peer / self.t_sym if self.t_peer is not None else None


def measure_row(kind, mine, inputs, peers, key, repeat):
    """The cells of one row, one per peer.  Peers that accept the same inputs are timed in one
    interleaved loop with symcute; a peer that drops other inputs gets its own loop with symcute."""
    cells = [None] * len(peers)
    groups = {}   # the kept input indices -> [(peer index, peer's converted inputs)]
    for k, peer in enumerate(peers):
        if peer is None:
            cells[k] = Cell(note="not measured")
            continue
        theirs = peer.calls[key]
        if isinstance(theirs, str):
            cells[k] = Cell(note=theirs)
            continue
        kept, conv = [], []
        for i, a in enumerate(inputs):
            b = peer.convert(a)
            if runnable(mine, a) and runnable(theirs, b):
                kept.append(i)
                conv.append(b)
        groups.setdefault(tuple(kept), []).append((k, theirs, conv))
    for kept, members in groups.items():
        contenders = [(mine, [inputs[i] for i in kept])] + [(theirs, conv) for _, theirs, conv in members]
        times = time_interleaved(contenders, repeat, fresh=(kind == "ctor-new"))
        for (k, _, _), t_peer in zip(members, times[1:]):
            cells[k] = Cell(len(kept), times[0], t_peer)
    return cells


def bench(cases: int, repeat: int, peers, seed: int = 1):
    """Rows of (name, [Cell per peer]) for every operation."""
    rows = []
    for name, kind, mine, key in OPS:
        rng = random.Random(f"bench:{name}:{seed}")
        rows.append((name, measure_row(kind, mine, _inputs(rng, kind, cases), peers, key, repeat)))
    return rows


def seed_rows(repeat: int, peers):
    """The seed's TV layout: the public constructor against each peer's, and Layout.parse of its text."""
    n = 2000
    ctor = [SEED_TV] * n
    mine = lambda s, d: sc.Layout(s, d)  # noqa: E731
    rows = []
    for label, fresh in (("tuples seen before", False), ("new tuples", True)):
        live = [p for p in peers if p is not None]
        times = time_interleaved([(mine, ctor)] + [(p.calls["ctor"], ctor) for p in live], repeat, fresh)
        it = iter(times[1:])
        cells = [Cell(n, times[0], next(it)) if p is not None else Cell(note="not measured") for p in peers]
        rows.append((f"Layout(shape, stride) of the seed's TV layout, {label}", cells))
    t_parse = time_calls(sc.Layout.parse, [(SEED_TEXT,)] * n, repeat)
    rows.append(("Layout.parse of its text",
                 [Cell(n, t_parse, None, "no reader") if p is not None else Cell(note="not measured")
                  for p in peers]))
    return rows


def time_first_evaluation(contenders, repeat):
    """Best of `repeat` runs of the mean time of ``L(i)`` on Layouts built just before the run (each
    library its own, from new tuple objects): the first evaluation of a fresh Layout, set-up included."""
    times = [[] for _ in contenders]
    for _ in range(repeat):
        for k, (mod, cases) in enumerate(contenders):
            built = [(mod.Layout(new_tuples(s), new_tuples(d)), i) for s, d, i in cases]
            t = CLOCK()
            for L, i in built:
                L(i)
            times[k].append((CLOCK() - t) / len(built))
    return [min(t) for t in times]


def first_evaluation_rows(cases: int, repeat: int, peers):
    """The first evaluation ``L(i)`` of a fresh Layout: on the random layouts and on the seed's TV layout."""
    rng = random.Random("bench:first-evaluation")
    rand = []
    while len(rand) < cases:
        L = rand_layout(rng)
        if L.size() > 0:
            rand.append((L.shape, L.stride, rng.randrange(L.size())))
    seed = [(SEED_TV[0], SEED_TV[1], 37)] * 2000
    rows = []
    live = [p for p in peers if p is not None]
    for label, inputs in (("first evaluation L(i) of a fresh Layout, random layouts", rand),
                          ("first evaluation L(i) of a fresh Layout, the seed's TV layout", seed)):
        times = time_first_evaluation([(sc, inputs)] + [(p.mod, inputs) for p in live], repeat)
        it_ = iter(times[1:])
        rows.append((label, [Cell(len(inputs), times[0], next(it_)) if p is not None else Cell(note="not measured")
                             for p in peers]))
    big = (tuple(2 for _ in range(4096)), tuple(1 << i for i in range(4096)))
    ctor = [big] * 20
    times = time_interleaved([(lambda s, d: sc.Layout(s, d), ctor)] + [(p.calls["ctor"], ctor) for p in live],
                             repeat, fresh=True)
    it_ = iter(times[1:])
    rows.append(("Layout(shape, stride) of rank 4096 ((2,...,2):(1,2,4,...)), new tuples",
                 [Cell(len(ctor), times[0], next(it_)) if p is not None else Cell(note="not measured")
                  for p in peers]))
    return rows


def hook_overhead(cases: int, repeat: int):
    """A traced op (right_inverse, coalesce) vs its undecorated body, no derivation active."""
    rng = random.Random("bench:hook")
    inputs = _inputs(rng, "one", cases)
    out = []
    for name, fn in (("right_inverse", sc.right_inverse), ("coalesce", sc.coalesce)):
        traced, bare = time_interleaved([(fn, inputs), (fn.__wrapped__, inputs)], repeat)
        out.append((name, traced, bare))
    return out


def _us(t):
    return f"{t * 1e6:.2f}"


def _symcute_cell(cells):
    """symcute's time(s) for a row: one figure when every measured comparison used the same inputs."""
    seen = []
    for c in cells:
        if c.t_sym is not None and _us(c.t_sym) not in seen:
            seen.append(_us(c.t_sym))
    return " / ".join(seen) if seen else "-"


def _peer_cells(c: Cell, md: bool):
    if c.t_peer is None:
        return ["-", f"- ({c.note})" if c.note else "-", "-"]
    return [str(c.n), _us(c.t_peer), f"{c.ratio:.2f}"]


def print_tables(rows, seed, hook, peers, nvlabs_source, md=True):
    names = [p.name if p is not None else "NVlabs pycute" for p in peers]
    head = ["operation", "symcute (µs/call)"]
    for nm in names:
        head += [f"inputs vs {nm}", f"{nm} (µs/call)", f"{nm}/symcute"]
    if md:
        print(f"NVlabs pycute: {nvlabs_source}")
        print()
        for title, table in (("operation", rows), ("the seed's TV layout, first evaluation, rank 4096", seed)):
            print("| " + " | ".join([title] + head[1:]) + " |")
            print("|---|" + "---:|" * (len(head) - 1))
            for name, cells in table:
                line = [name, _symcute_cell(cells)]
                for c in cells:
                    line += _peer_cells(c, md)
                print("| " + " | ".join(line) + " |")
            print()
        print("Where a row shows two symcute figures, the peers kept different inputs: the first figure is "
              "on the inputs kept against NVlabs pycute, the second on those kept against the wheel's pycute.")
        print()
        print("| traced op, no derivation active | traced (µs/call) | undecorated (µs/call) | overhead |")
        print("|---|---:|---:|---:|")
        for name, t, b in hook:
            print(f"| {name} | {_us(t)} | {_us(b)} | {(t / b - 1) * 100:+.1f}% |")
    else:
        print(f"NVlabs pycute: {nvlabs_source}")
        for name, cells in rows + seed:
            parts = [f"symcute {_symcute_cell(cells)} us"]
            for nm, c in zip(names, cells):
                n, t, r = _peer_cells(c, md)
                parts.append(f"{nm} {t} (n={n}, ratio {r})")
            print(f"{name}: " + "; ".join(parts))
        for name, t, b in hook:
            print(f"hook {name}: traced {_us(t)} us, bare {_us(b)} us ({(t / b - 1) * 100:+.1f}%)")


# --- the rank sweep ----------------------------------------------------------------------------

SWEEP_RANKS = (8, 64, 512, 4096, 32768)
SLOW_CALL = 5.0   # seconds: a contender's call slower than this is run once, not three times


def _permuted_compact(rng, shape, gap=1):
    """Compact strides of ``shape`` in a random mode order, each mode's extent times ``gap`` (injective)."""
    n = len(shape)
    order = list(range(n))
    rng.shuffle(order)
    stride, p = [0] * n, 1
    for k in order:
        stride[k] = p
        p *= shape[k] * gap
    return tuple(stride)


def sweep_inputs(n: int):
    """The rank-n inputs of every sweep operation, by row name (plain tuples: each library builds its own).

    L is rank n, extents 2-4, its compact strides in a random mode order (injective, hardly coalescing);
    composition composes L with its right inverse (rank n o rank n); the divides cut L by a tile of half
    its modes (``s_i : w_i``, ``w_i`` the mode's weight in L's index); the products repeat a rank-n/2 block
    with a gap after every mode by a rank-n/2 tiler of 2s.  complement takes L's modes with a gap after every
    mode (G: each mode's extent times 2 before the next stride), and G's cosize as its cotarget
    (CuTe's default; the wheel's pycute defaults to 1, a different layout), so every library computes the
    same layout.
    """
    rng = random.Random(f"sweep:{n}")
    shape = tuple(rng.choice((2, 3, 4)) for _ in range(n))
    L = (shape, _permuted_compact(rng, shape))
    R = sc.right_inverse(sc.Layout(*L))
    weights, p = [], 1
    for s in shape:
        weights.append(p)
        p *= s
    half = sorted(rng.sample(range(n), max(1, n // 2)))
    T = (tuple(shape[i] for i in half), tuple(weights[i] for i in half))
    h = max(1, n // 2)
    bshape = shape[:h]
    A = (bshape, _permuted_compact(rng, bshape, gap=2))
    B = ((2,) * h, _permuted_compact(rng, (2,) * h))
    one, pair, tile, prod = (L,), (L, (R.shape, R.stride)), (L, T), (A, B)
    G = (shape, _permuted_compact(rng, shape, gap=2))
    cotarget = sc.cosize(sc.Layout(*G))
    return {"coalesce": one, "composition": pair, "complement": (G, cotarget), "right_inverse": one,
            "left_inverse": one, "logical_divide": tile, "zipped_divide": tile, "tiled_divide": tile,
            "logical_product": prod, "zipped_product": prod, "tiled_product": prod}


SWEEP_OPS = [(name, fn, key) for name, _, fn, key in OPS if name in (
    "coalesce", "composition", "complement", "right_inverse", "left_inverse", "logical_divide", "zipped_divide",
    "tiled_divide", "logical_product", "zipped_product", "tiled_product")]


def _one_call(fn, args):
    t = CLOCK()
    fn(*args)
    return CLOCK() - t


def _median(xs):
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def sweep(ranks, peers, cap: float, budget: float = 1.0):
    """{row: {rank: [symcute time or None, (peer time or note) per peer]}}, medians of CPU seconds per call.

    Each run calls every contender once on the same rank-n input (converted to its own Layout outside the
    timing), interleaved; runs repeat while they take under ``budget`` seconds in all (at least 3, at most
    15).  A peer is left out at a rank where the growth of its last two ranks predicts a call over ``cap``.
    """
    out = {name: {} for name, _, _ in SWEEP_OPS}
    for n in ranks:
        cases = sweep_inputs(n)
        for name, mine, key in SWEEP_OPS:
            raw = cases[name]
            args = tuple(sc.Layout(*a) if type(a) is tuple else a for a in raw)
            contenders = [(mine, args)]
            cells = []
            for peer in peers:
                theirs = peer.calls[key] if peer is not None else "not measured"
                if isinstance(theirs, str):
                    cells.append(theirs)
                    continue
                prev = [out[name][r][1 + len(cells)] for r in ranks if r < n and r in out[name]]
                prev = [t for t in prev if isinstance(t, float)]
                if len(prev) >= 1:
                    growth = prev[-1] / prev[-2] if len(prev) >= 2 and prev[-2] > 0 else 64.0
                    predicted = prev[-1] * max(growth, 8.0)
                    if predicted > cap:
                        cells.append(f"left out: predicted {predicted:.0f} s a call")
                        continue
                if not runnable(theirs, peer.convert(args)):
                    cells.append("refused")
                    continue
                cells.append(len(contenders))
                contenders.append((theirs, peer.convert(args)))
            times = [[] for _ in contenders]
            spent, runs = 0.0, 0
            while runs < 3 or (spent < budget and runs < 15):
                for k, (fn, a) in enumerate(contenders):
                    if times[k] and times[k][0] > SLOW_CALL:
                        continue   # one run of a call this slow (the table marks it)
                    t = _one_call(fn, a)
                    times[k].append(t)
                    spent += t
                runs += 1
            med = [_median(t) for t in times]
            out[name][n] = [med[0]] + [med[c] if isinstance(c, int) else c for c in cells]
            once = [k for k, t in enumerate(times) if len(t) == 1]
            if once:
                out[name].setdefault("once", set()).update((n, k) for k in once)
            print(f"# sweep rank {n} {name}: " + ", ".join(
                f"{x * 1e3:.3f} ms" if isinstance(x, float) else str(x) for x in out[name][n]),
                file=sys.stderr, flush=True)
    return out


def _ms(t):
    return f"{t * 1e3:.3f}" if t < 10 else f"{t * 1e3:.0f}"


def print_sweep(result, ranks, peers, load_before, load_after):
    names = [p.name if p is not None else "NVlabs pycute" for p in peers]
    print(f"load average before: {load_before}; after: {load_after}")
    print()
    print(f"Medians of at least 3 runs of one call each (CPU time); a call over {SLOW_CALL:.0f} s is run once "
          f"(marked); growth is the time over the time at the rank 8x smaller.")
    print()
    head = ["operation", "rank", "symcute (ms/call)", "growth per 8x"]
    for nm in names:
        head += [f"{nm} (ms/call)", f"growth", f"{nm}/symcute"]
    print("| " + " | ".join(head) + " |")
    print("|---|---:|" + "---:|" * (len(head) - 2))
    for name, by_rank in result.items():
        once = by_rank.get("once", set())
        prev = None
        for n in ranks:
            if n not in by_rank:
                continue
            row = by_rank[n]
            line = [name, str(n), _ms(row[0]) + (" (1 run)" if (n, 0) in once else ""),
                    f"{row[0] / prev[0]:.1f}" if prev else "-"]
            for k, x in enumerate(row[1:], 1):
                if isinstance(x, float):
                    p = prev[k] if prev else None
                    line += [_ms(x) + (" (1 run)" if (n, k) in once else ""),
                             f"{x / p:.1f}" if isinstance(p, float) and p > 0 else "-", f"{x / row[0]:.2f}"]
                else:
                    line += [f"- ({x})", "-", "-"]
            print("| " + " | ".join(line) + " |")
            prev = row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables for docs/performance.md")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="time.process_time (default) or time.perf_counter")
    ap.add_argument("--nvlabs", metavar="PATH", default=os.environ.get(NVLABS_ENV),
                    help=f"NVlabs/CuTe checkout (or its pycute/ folder); default ${NVLABS_ENV}")
    ap.add_argument("--sweep", action="store_true", help="the rank sweep (see the module docstring)")
    ap.add_argument("--ranks", default=",".join(map(str, SWEEP_RANKS)), help="ranks of the sweep, comma-separated")
    ap.add_argument("--cap", type=float, default=20.0,
                    help="leave a peer's case out when its call is predicted to take more seconds than this")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    nv = load_nvlabs(args.nvlabs) if args.nvlabs else None
    peers = [Peer("NVlabs pycute", nv, nvlabs_calls(nv)) if nv is not None else None,
             Peer("wheel pycute", pycute, wheel_calls(pycute))]
    source = (f"{Path(nv.__file__).parent} (imported as {NVLABS_MODULE})" if nv is not None
              else f"not measured (pass --nvlabs PATH or set {NVLABS_ENV})")
    if args.sweep:
        ranks = [int(r) for r in args.ranks.split(",")]
        before = " ".join(f"{x:.2f}" for x in os.getloadavg())
        result = sweep(ranks, peers, args.cap)
        after = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"NVlabs pycute: {source}")
        print_sweep(result, ranks, peers, before, after)
        return result
    rows = bench(args.cases, args.repeat, peers)
    seed = seed_rows(args.repeat, peers) + first_evaluation_rows(args.cases, args.repeat, peers)
    hook = hook_overhead(args.cases, args.repeat)
    print_tables(rows, seed, hook, peers, source, md=args.markdown)
    return rows


if __name__ == "__main__":
    main()
