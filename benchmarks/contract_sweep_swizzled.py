"""Sweep CuTe's contracts over swizzled layouts (ComposedLayouts): how often does CuTe's value break them?

The plain-layout sweep is ``contract_sweep.py``; this one draws ``Sw<B,M,S> o off o L`` with L a
permuted compact layout of power-of-two extents (the swizzles' home), or any layout of the
differential suite's generators, offsets 0 or a small power of two or not, and nested compositions
(``composition(Sw o off o L, L2)``, itself a ComposedLayout).  For each drawn input that core accepts
(inputs core refuses are CuTe-invalid and skipped), ``sym.contract`` decides the contract by numpy
enumeration (``enumerate_up_to=2^20``).  Every refuted case is written to ``--out`` (JSON lines) with
its class: the input's features and the broken part.

Usage::

    nice -n 19 python benchmarks/contract_sweep_swizzled.py --cases 20000 --out /tmp/swz.jsonl [--ops right_inverse] \\
        [--max-size 65536]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import symcute as sc  # noqa: E402
from symcute import ComposedLayout, Layout, Swizzle  # noqa: E402
from symcute.errors import SymcuteError  # noqa: E402
from symcute.symbolic.contracts import contract  # noqa: E402
from tests.differential.core_cases import compact, leaves, like, rand_layout, rand_shape  # noqa: E402

OPS = ["right_inverse", "left_inverse", "composition", "logical_divide", "zipped_divide", "tiled_divide",
       "flat_divide", "upcast", "downcast", "recast_layout"]
POW2 = [1, 2, 2, 4, 4, 8, 16]


MAX_SIZE = [0]   # --max-size: redraw inner layouts past this size (0: no cap)


def draw_swizzled(rng: random.Random):
    """(ComposedLayout, features): a swizzle over a layout, with an offset, sometimes nested."""
    while True:
        C, features = _draw_swizzled(rng)
        if not MAX_SIZE[0] or C.size() <= MAX_SIZE[0]:
            return C, features


def _draw_swizzled(rng: random.Random):
    b = rng.randint(1, 3)
    m = rng.randint(0, 4)
    s = rng.choice([x for x in range(-5, 6) if abs(x) >= b])
    sw = Swizzle(b, m, s)
    pow2 = rng.random() < 0.7
    inner = compact(rng, rand_shape(rng, 4, 2, POW2), gaps=rng.random() < 0.2) if pow2 else rand_layout(rng)
    offset = rng.choice([0, 0, 0, 1, 4, 8, 16, 32, 3])
    C = ComposedLayout(sw, offset, inner)
    features = ["pow2" if pow2 else "other", "offset" if offset else "no-offset"]
    if rng.random() < 0.2:
        try:
            C = sc.composition(C, compact(rng, rand_shape(rng, 2, 1, POW2), gaps=False))
            features.append("nested")
        except SymcuteError:   # CuTe refuses this nesting: keep the unnested layout
            pass
    return C, features


def draw(op: str, rng: random.Random):
    C, features = draw_swizzled(rng)
    if op in ("right_inverse", "left_inverse"):
        return (C,), features
    if op == "composition":
        n = max(int(C.size()), 1)
        B = rand_layout(rng, max_rank=2, kind=rng.choice(["compact", "any"]))
        if rng.random() < 0.5:   # keep B's image mostly inside C's domain
            B = Layout(B.shape, like(B.shape, [d % n if d > 0 else d for d in leaves(B.stride)]))
        return (C, B), features
    if op.endswith("_divide"):
        n = max(int(C.size()), 1)
        t = rng.choice([d for d in (1, 2, 4, 8, 3) if n % d == 0] or [1])
        T = Layout(t, rng.choice([1, 1, 2])) if rng.random() < 0.6 else Layout((min(t, 2), 2), (1, rng.choice([2, 4])))
        return (C, T), features
    if op in ("upcast", "downcast"):
        return (C, rng.choice([2, 4, 8])), features
    if op == "recast_layout":
        return (C, *rng.choice([(8, 16), (16, 8), (32, 8), (8, 32), (16, 32), (32, 16)])), features
    raise ValueError(op)


def _part(proof) -> str:
    """The broken part's statement kind (the class's second half)."""
    why = getattr(proof.reason, "args", {}).get("part") if proof.reason is not None else None
    kind = getattr(why, "kind", None) or getattr(proof.statement, "kind", None)
    inner = getattr(proof.statement, "args", {}).get("claim")
    return str(getattr(kind, "name", kind)) + ("/" + inner.kind.name if getattr(inner, "kind", None) else "")


def sweep(op: str, cases: int, seed: int, out, seconds: float):
    rng = random.Random(f"{seed}:swizzled:{op}")
    counts, classes = Counter(), Counter()
    t0 = time.time()
    while counts["valid"] < cases and time.time() - t0 < seconds:
        args, features = draw(op, rng)
        try:
            p = contract(op, *args, enumerate_up_to=1 << 20)
        except SymcuteError:
            counts["refused"] += 1
            continue
        counts["valid"] += 1
        counts[str(p.verdict)] += 1
        if p.method == "vacuous":
            counts["vacuous"] += 1
        if p.refuted:
            cls = "+".join(features) + " / " + _part(p)
            classes[cls] += 1
            out.write(json.dumps({"op": op, "class": cls, "args": [str(a) for a in args],
                                  "value": str(p.statement.args.get("result", "")),
                                  "counterexample": {str(k): str(v) for k, v in (p.counterexample or {}).items()}})
                      + "\n")
            out.flush()
    return counts, classes, time.time() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--out", default="/tmp/swizzled_sweep.jsonl")
    ap.add_argument("--seconds-per-op", type=float, default=900)
    ap.add_argument("--max-size", type=int, default=0,
                    help="redraw layouts of more elements (the casts' injectivity check past 2^20 inputs "
                         "goes to the prover, ~17 s a case)")
    a = ap.parse_args(argv)
    MAX_SIZE[0] = a.max_size
    with open(a.out, "w") as out:
        for op in a.ops.split(","):
            counts, classes, secs = sweep(op, a.cases, a.seed, out, a.seconds_per_op)
            print(f"{op}: valid={counts['valid']} proved={counts['proved']} (vacuous {counts['vacuous']}) "
                  f"refuted={counts['refuted']} unknown={counts['unknown']} refused={counts['refused']} "
                  f"seconds={secs:.0f}", flush=True)
            for cls, n in classes.most_common():
                print(f"    {cls}: {n}", flush=True)


if __name__ == "__main__":
    main()
