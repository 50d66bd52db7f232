"""Sweep CuTe's contracts over random inputs that CuTe accepts: how often does CuTe's value break them?

For each operation: draw random arguments (the differential suite's generators),
compute CuTe's value with core (inputs core refuses are CuTe-invalid and are
skipped, not counted: core raises CuTe's static_assert for them, and the
differential suite checks that CuTe refuses them too), check the value's
contract with ``sym.contract`` and count proved / refuted / unknown.  Every part
of a contract whose domain has at most ``--enumerate-up-to`` inputs (default
2^20, nearly every random case) is decided by numpy enumeration, exactly; the
rare larger ones go to the prover within a short time budget.  Every refuted case is written to
``--out`` (JSON lines: op, call, value, counterexample) so that
``benchmarks/confirm_defects.py`` can compile it with real CuTe.

Usage::

    nice -n 19 timeout 3600 python benchmarks/contract_sweep.py --cases 100000 --out /tmp/sweep.jsonl \\
        [--ops composition,complement] [--seconds-per-op 600] [--summary /tmp/sweep.json]

Prints one summary line per operation: valid cases, proved, refuted, unknown, seconds, and the
violation classes (``input feature/broken part:verdict=count``).
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
from symcute import Layout  # noqa: E402
from symcute.errors import SymcuteError  # noqa: E402
from symcute.symbolic import exact  # noqa: E402
from symcute.symbolic.contracts import CONTRACT_OPS, contract  # noqa: E402
from tests.differential.core_cases import TYPES, rand_layout, rand_tile_layout, rand_tiler  # noqa: E402


def _text(x) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_text(y) for y in x) + ")"
    return str(x)


def draw(op: str, rng: random.Random):
    """Random arguments for ``op`` (as the differential suite draws them)."""
    L = rand_layout(rng)
    if op == "composition":
        if rng.random() < 0.25 and L.rank > 1:
            T = rand_tiler(rng, L)
            return L, (T if isinstance(T, tuple) else (T,))
        B = rand_layout(rng, max_rank=2, kind=rng.choice(["compact", "any"]))
        if rng.random() < 0.5:
            from tests.differential.core_cases import leaves, like
            B = Layout(B.shape, like(B.shape, [d % max(L.size(), 1) if d > 0 else d for d in leaves(B.stride)]))
        return L, B
    if op == "complement":
        L = rand_layout(rng, kind=rng.choices(["compact", "any", "broadcast"], [7, 2, 1])[0])
        r = rng.random()
        if r < 0.3:
            return (L,)
        return L, rng.choice([1, 2, 5, 8, 16, 32, 64, 100, 128, 256]) * rng.choice([1, 2])
    if op in ("right_inverse", "left_inverse", "coalesce", "filter"):
        return (L,)
    if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        L = rand_layout(rng, kind=rng.choice(["compact", "compact", "any"]))
        return L, rand_tiler(rng, L)
    if op in ("logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
              "raked_product"):
        A = rand_layout(rng, max_rank=2, kind="compact")
        if op not in ("blocked_product", "raked_product") and A.rank > 1 and rng.random() < 0.25:
            n = rng.randint(1, A.rank)
            return A, tuple(_product_tile(rng) for _ in range(n))
        return A, rand_layout(rng, max_rank=2, depth=1, kind=rng.choice(["compact", "any"]))
    if op == "upcast":
        return L, rng.choice([1, 2, 4, 8, 16, 3])
    if op == "downcast":
        return L, rng.choice([2, 4, 8])
    if op == "recast_layout":
        return L, rng.choice(list(TYPES)), rng.choice(list(TYPES))
    raise ValueError(op)


def _product_tile(rng):
    """One mode of a product's tiler: a small layout, an int or ``_``."""
    c = rng.random()
    if c < 0.15:
        return sc._
    if c < 0.35:
        return rng.choice([1, 2, 3, 4])
    return rand_layout(rng, max_rank=2, depth=1, kind=rng.choice(["compact", "any"]))


def _flat_strides(x):
    from symcute.core import int_tuple as it
    if isinstance(x, Layout):
        return [d for d in it.flatten_to_tuple(x.stride) if type(d) is int]
    if isinstance(x, tuple):
        return [d for y in x for d in _flat_strides(y)]
    return []


def violation_class(op: str, args) -> str:
    """A coarse class of a contract violation, by what its inputs have (refined by hand in
    docs/cute_defects.md)."""
    from symcute.symbolic.prover import is_injective
    if any(d < 0 for a in args for d in _flat_strides(a)):
        return "negative stride"
    L = args[0]
    if op == "composition" or op.endswith(("_divide", "_product")):
        B = args[1]
        if op == "composition" and isinstance(B, Layout) and B.size() and max(abs(B(i)) for i in range(
                min(B.size(), 4096))) >= L.size():
            return "B's image past size(A)"
        return "tiler by mode" if isinstance(B, tuple) else "in-domain"
    if op in ("left_inverse", "complement") and not is_injective(L).proved:
        return "non-injective input"
    return "other"


def broken_part(p) -> str:
    """Which part of the contract failed, read from the conjunction's reason."""
    text = p.reason or p.statement
    for key, name in (("size(R) =", "size bound"), ("R(i-1) < R(i)", "order"), ("R(i) != L(j)", "disjoint"),
                      ("block part", "block part"), ("tile part", "tile part"), ("no stride-0", "stride-0 mode"),
                      ("image(R)", "image"), ("the same function as", "kept mode")):
        if key in text:
            return name
    return "value"


def sweep(op: str, cases: int, seconds: float, seed: int, out, enumerate_up_to: int = 1 << 20) -> Counter:
    rng = random.Random(f"contract:{op}:{seed}")
    counts = Counter()
    start = time.monotonic()
    while counts["valid"] < cases and time.monotonic() - start < seconds:
        args = draw(op, rng)
        try:
            with exact.time_budget(300, 1.0):
                p = contract(op, *args, limit=1 << 12, enumerate_up_to=enumerate_up_to)
        except SymcuteError:
            counts["refused"] += 1  # CuTe refuses these inputs too (the differential suite checks that)
            continue
        counts["valid"] += 1
        counts["vacuous" if p.method == "vacuous" else p.verdict] += 1
        if p.verdict != "proved":
            cls = f"{violation_class(op, args)}/{broken_part(p)}"
            counts[f"class:{cls}:{p.verdict}"] += 1
            out.write(json.dumps({"op": op, "class": cls, "args": [_text(a) for a in args],
                                  "verdict": p.verdict,
                                  "statement": p.statement, "reason": p.reason,
                                  "counterexample": {k: str(v) for k, v in (p.counterexample or {}).items()}})
                      + "\n")
            out.flush()
    counts["seconds"] = round(time.monotonic() - start)
    return counts


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--ops", default=",".join(CONTRACT_OPS))
    ap.add_argument("--seconds-per-op", type=float, default=1e9)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="contract_sweep.jsonl")
    ap.add_argument("--summary", default=None, help="write the per-operation counts as JSON here")
    ap.add_argument("--enumerate-up-to", type=int, default=1 << 20)
    a = ap.parse_args(argv)
    summary = {}
    with open(a.out, "a", encoding="utf-8") as out:
        for op in a.ops.split(","):
            c = sweep(op, a.cases, a.seconds_per_op, a.seed, out, a.enumerate_up_to)
            summary[op] = dict(c)
            if a.summary:
                Path(a.summary).write_text(json.dumps(summary, indent=1, sort_keys=True), encoding="utf-8")
            classes = " ".join(f"{k[6:]}={v}" for k, v in sorted(c.items()) if k.startswith("class:"))
            print(f"{op}: valid={c['valid']} proved={c['proved']} vacuous={c['vacuous']} "
                  f"refuted={c['refuted']} unknown={c['unknown']} refused={c['refused']} seconds={c['seconds']} "
                  f"{classes}", flush=True)


if __name__ == "__main__":
    main()
