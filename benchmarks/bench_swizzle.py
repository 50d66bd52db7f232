"""Bijectivity of swizzled shared-memory layouts: the GF(2) proof vs exhaustive numpy evaluation, 2^16 .. 2^40.

    python benchmarks/bench_swizzle.py [--repeat N] [--markdown]

Layouts (each a bijection of [0, 2^k), checked by the proof itself):

- ``gmma``: ``tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (2^a, 2^b))``,
  the smem tile of every SM90 kernel, grown to 2^k elements;
- ``perm``: ``Sw<3,4,3> o 0 o L`` with ``L`` the (2,...,2) layout whose strides
  are the powers of two in a seeded random order.

The proof (``symcute.symbolic.is_bijective``, method ``gf2``) builds the bit
matrix from core evaluations at the unit inputs, checks it against core, and
decides rank and image by Gaussian elimination: O(k^2) word operations.  The
exhaustive column evaluates every input with numpy
(``symcute.symbolic.exhaustive``) and checks the values are a permutation of
[0, 2^k); it runs up to 2^24.  Times are medians over ``--repeat`` runs.
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
from symcute.atoms.smem_layouts import smem_layout_atom
from symcute.symbolic import exhaustive

SIZES = (16, 20, 24, 32, 40)
EXHAUSTIVE_MAX = 24


def gmma_tile(k: int, rng: random.Random):
    a = k // 2
    return core.tile_to_shape(smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t"), (1 << a, 1 << (k - a)))


def perm_swizzled(k: int, rng: random.Random):
    strides = [1 << i for i in range(k)]
    rng.shuffle(strides)
    return core.ComposedLayout(core.Swizzle(3, 4, 3), 0, Layout((2,) * k, tuple(strides)))


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def exhaustive_bijective(L) -> bool:
    v = exhaustive.apply(L, np.arange(L.size(), dtype=np.int64))
    return bool((np.sort(v) == np.arange(L.size())).all())


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    rng = random.Random(2026)
    rows = []
    for kind, make in (("GMMA K_SW128<half_t> tile", gmma_tile), ("Sw<3,4,3> o permuted (2,...,2)", perm_swizzled)):
        for k in SIZES:
            L = make(k, rng)
            assert L.size() == 1 << k
            proof = sym.is_bijective(L, limit=0)
            assert proof.proved and proof.method == "gf2", proof
            t_proof = median_time(lambda: sym.is_bijective(L, limit=0), args.repeat)
            t_exh = None
            if k <= EXHAUSTIVE_MAX:
                assert exhaustive_bijective(L)
                t_exh = median_time(lambda: exhaustive_bijective(L), 3 if k <= 20 else 1)
            ratio = f"{t_exh / t_proof:,.0f}x" if t_exh else "-"
            rows.append((kind, f"2^{k}", str(L) if k <= 16 else "...", fmt(t_proof), fmt(t_exh), ratio))
    header = ("layout", "size", "value (small sizes)", "GF(2) proof", "exhaustive (numpy)", "exhaustive / proof")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            print("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
        for r in (header, *rows):
            print("  ".join(str(c).rjust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
