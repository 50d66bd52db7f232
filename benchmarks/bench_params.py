"""Parametric proofs (all M, K at once) next to checking instantiations one by one with core.

    python benchmarks/bench_params.py [--repeat N] [--markdown]

Claims, over the SM80 16x8x16 2x2x1 TiledMMA's A on a row-major (M, K) tensor
tiled 128x32 (the gmem derivation's objects, built once outside the timing):

- ``closed form``: the CTA tile's (thread, value) address formula equals
  ``(128*bm + m)*K + 32*bk + k`` for every admissible M, K (``prove_formula``:
  a polynomial identity over the sub-axes and the parameters);
- ``injective``: distinct (thread, value), the wn broadcast filtered, read
  distinct addresses for every K >= 32 with K % 32 == 0 (``prove_injective``:
  a sorted-coefficient chain, each comparison decided for all K);
- ``tile count``: ``zipped_divide((M,K):(K,1), (128,32))`` from the layout
  literal, with the closed form ``ceil_div(M,128)`` (the parametric algebra).

The instantiation column evaluates the same claim at ONE admissible (M, K)
with core (every (thread, value) of one tile, 8192 points): the parametric
proof covers every (M, K) for about the cost of a few such instantiations.
Times are medians over ``--repeat`` runs (the first, which imports SymPy/Z3
and fills caches, is dropped).
"""

from __future__ import annotations

import argparse
import statistics
import time

import sympy

import symcute as sc
from symcute.symbolic import parametric as P
from symcute.symbolic.parametric import prover as R
from symcute.symbolic.parametric import tensor as T
from symcute.symbolic.parametric.conditions import _decide_cached


def setup():
    ps = P.params("M K", multiple_of={"M": 128, "K": 32})
    M, K = ps
    bm, bk = sympy.symbols("bm bk", integer=True, nonnegative=True)
    gA = T.local_tile(P.layout((M, K), (K, 1), ps), (128, 32), (bm, bk))
    mma = sc.atoms.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    tv = T.layout_tv(mma, "A", gA).layout
    f = R.formula(tv, ["t0", "t1", "wm", "wn", "v0", "v1", "v2", "rm", "rk"])
    s = dict(zip([a.name for a in f.axes], f.symbols()))
    m = s["t1"] + 8 * s["v1"] + 16 * s["wm"] + 32 * s["rm"]
    k = s["v0"] + 2 * s["t0"] + 8 * s["v2"] + 16 * s["rk"]
    closed = m * K + k
    return ps, mma, tv, f, closed


def timed(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        _decide_cached.cache_clear()   # every run decides its facts again
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def instantiation(mma, M=256, K=64):
    """One (M, K): core's TV layout of the tile, every (thread, value) against the closed form."""
    tile = sc.slice_(((sc._, sc._), (1, 1)), sc.zipped_divide(sc.Layout((M, K), (K, 1)), (128, 32)))
    thr = mma.thrfrg_A(tile)
    n = 0
    for i in range(thr.size()):
        thr(i)
        n += 1
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    ps, mma, tv, f, closed = setup()
    rows = []
    t_closed, p1 = timed(lambda: R.prove_formula(f, closed), a.repeat)
    t_inj, p2 = timed(lambda: R.prove_injective(P.filter(tv)), a.repeat)
    M, K = ps
    t_div, z = timed(lambda: P.zipped_divide(P.parse("(M,K):(K,1)", P.params("M K")), (128, 32)), a.repeat)
    t_inst, n = timed(lambda: instantiation(mma), max(3, a.repeat // 4))
    rows.append(("closed form, all M, K", p1.verdict, t_closed))
    rows.append(("injective, all K", p2.verdict, t_inj))
    rows.append(("zipped_divide closed form", str(z), t_div))
    rows.append((f"one instantiation (M=256, K=64), {n} points, core", "-", t_inst))
    if a.markdown:
        print("| claim | result | time |\n|---|---|---|")
        for name, res, t in rows:
            print(f"| {name} | {res} | {t * 1e3:.2f} ms |")
    else:
        for name, res, t in rows:
            print(f"{name:55s} {res:10.60s} {t * 1e3:9.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
