"""Right-inverse proofs by refinement vs exhaustive numpy evaluation, sizes 2^10 .. 2^40.

    python benchmarks/bench_prove.py [--repeat N] [--markdown]

For each size it builds two layouts and proves ``L(R(i)) == i`` for all
``i < size(R)`` with ``R = right_inverse(L)`` (core):

- ``perm``: the permuted (2,2,...,2) layout whose strides are the powers of
  two in a random (seeded) order (a bijection of [0, 2^k));
- ``wide``: four modes of extent about 2^(k/4), strides permuted (few large
  modes: the number of digits stays 4 whatever the size);
- ``tv``: a TV-like layout ``((4,8,2,...),(2,2,...))`` where every fourth
  extra mode is a broadcast (stride 0), as ``get_layoutA_TV`` makes for A.

Times are medians over ``--repeat`` runs.  The exhaustive column evaluates
``L(R(i))`` on every ``i`` with numpy (``symcute.symbolic.exhaustive``) and is
run only up to 2^24 inputs.  The refinement time includes the prover's
self-check (each certificate coefficient re-evaluated with core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from symcute import Layout
import symcute.core as core
import symcute.symbolic as sym
from symcute.symbolic import exhaustive

SIZES = (10, 16, 24, 32, 40)
EXHAUSTIVE_MAX = 24


def perm_layout(k: int, rng: random.Random) -> Layout:
    strides = [1 << i for i in range(k)]
    rng.shuffle(strides)
    return Layout((2,) * k, tuple(strides))


def tv_layout(k: int, rng: random.Random) -> Layout:
    """((4,8, 2...), (2...)) of size 2^k; every fourth extra thread mode is a broadcast."""
    n_thr = (k - 5) // 2
    n_val = k - 5 - n_thr
    thr = [4, 8] + [2] * n_thr
    val = [2] * n_val
    broadcast = {2 + i for i in range(n_thr) if i % 4 == 1}
    live = [i for i in range(len(thr) + len(val)) if i not in broadcast]
    extents = thr + val
    order = live[:]
    rng.shuffle(order)
    strides, w = [0] * len(extents), 1
    for i in order:
        strides[i] = w
        w *= extents[i]
    return Layout((tuple(thr), tuple(val)), (tuple(strides[:len(thr)]), tuple(strides[len(thr):])))


def wide_layout(k: int, rng: random.Random) -> Layout:
    """Four modes whose extents multiply to 2^k (few, large modes), strides permuted."""
    bits = [k // 4 + (1 if i < k % 4 else 0) for i in range(4)]
    extents = [1 << b for b in bits]
    order = list(range(4))
    rng.shuffle(order)
    strides, w = [0] * 4, 1
    for i in order:
        strides[i] = w
        w *= extents[i]
    return Layout(tuple(extents), tuple(strides))


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def exhaustive_check(L: Layout, R: Layout) -> bool:
    i = np.arange(R.size(), dtype=np.int64)
    return bool((exhaustive.apply(L, exhaustive.apply(R, i)) == i).all())


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    rng = random.Random(2024)
    rows = []
    for kind, make in (("perm", perm_layout), ("tv", tv_layout), ("wide", wide_layout)):
        for k in SIZES:
            L = make(k, rng)
            R = core.right_inverse(L)
            proof = sym.prove_right_inverse(L, R)
            assert proof.proved and proof.method == "refinement", proof
            t_core = median_time(lambda: core.right_inverse(L), args.repeat)
            t_ref = median_time(lambda: sym.prove_right_inverse(L, R), args.repeat)
            t_exh = None
            if R.size() <= 1 << EXHAUSTIVE_MAX:
                assert exhaustive_check(L, R)
                t_exh = median_time(lambda: exhaustive_check(L, R), 3 if k <= 16 else 1)
            n_modes = len(core.flatten(L).shape)
            rows.append((kind, f"2^{k}", f"2^{R.size().bit_length() - 1}", n_modes, len(proof.certificate.table.rows),
                         fmt(t_core), fmt(t_ref), fmt(t_exh)))
    header = ("layout", "size(L)", "size(R)", "modes", "digits", "core right_inverse", "refinement proof",
              "exhaustive (numpy)")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            print("| " + " | ".join(str(c) for c in r) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
        for r in (header, *rows):
            print("  ".join(str(c).rjust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
