"""Swizzled tiles whose size is not a power of two, with and without the bit split, in one process (issue 30, item 1).

    python benchmarks/bench_bitsplit.py [--before-max N]

Families (``k`` the domain is ``3 * 2^k`` or so): ``Sw<3,3,3> o 0 o (R,64):(64,1)`` for R = 192, 768 and
3*2^(k-6) up to 2^60 inputs; ``tile_to_shape(Sw<3,3,3> o 0 o (8,64):(64,1), (128,64,3))`` (the 3-stage SM80
HGEMM tile); 5x7 tiles of that atom; a byte SW128 atom ``Sw<3,4,3> o 0 o (8,128):(128,1)`` tiled 3x5.
Claims: injective (true), bijective (true), surjective onto size+1 (false), and injectivity of the layout with a
mode (2):(1) prepended (two modes given one stride: false).  "after": the prover as it is (median of 5 runs, CPU
and wall time); "before": the same claim with the bit split switched off (one run, only domains up to --before-max, as the
solvers take seconds each).  Every verdict is checked here against the expected one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from symcute.core import tile_to_shape
from symcute.core.composed import ComposedLayout
from symcute.core.layout import Layout
from symcute.core.parse import parse_layout
from symcute.symbolic import bitsplit, prover


def families():
    atom = parse_layout("Sw<3,3,3> o 0 o (8,64):(64,1)")
    out = [("192 rows", parse_layout("Sw<3,3,3> o 0 o (192,64):(64,1)")),
           ("768 rows", parse_layout("Sw<3,3,3> o 0 o (768,64):(64,1)")),
           ("3-stage (128,64,3)", tile_to_shape(atom, (128, 64, 3))),
           ("5x7 tiles", tile_to_shape(atom, (40, 448))),
           ("SW128 byte atom 3x5", tile_to_shape(parse_layout("Sw<3,4,3> o 0 o (8,128):(128,1)"), (24, 640)))]
    for k in (32, 40, 50, 60):
        out.append((f"3*2^{k - 8} rows x 64", parse_layout(f"Sw<3,3,3> o 0 o ({3 << (k - 8)},64):(64,1)")))
    return out


def claims(L):
    n = L.size()
    bad = ComposedLayout(L.outer, 0, Layout((2,) + tuple(L.inner.shape), (1,) + tuple(L.inner.stride)))
    return [("injective", lambda: prover.is_injective(L), "proved"),
            ("bijective", lambda: prover.is_bijective(L), "proved"),
            ("surjective onto n+1", lambda: prover.is_surjective(L, n + 1), "refuted"),
            ("injective, 2 modes 1 stride", lambda: prover.is_injective(bad), "refuted")]


def timed(f, runs):
    ts, ws, p = [], [], None
    for _ in range(runs):
        t, w = time.process_time(), time.perf_counter()
        p = f()
        ts.append(time.process_time() - t)
        ws.append(time.perf_counter() - w)
    return statistics.median(ts), statistics.median(ws), p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before-max", type=int, default=1 << 16)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print("| family | inputs | claim | after (ms CPU / wall) | verdict, method | before (ms CPU / wall) | verdict, method |")
    print("|---|---|---|---|---|---|---|")
    original = bitsplit.decide
    for name, L in families():
        for claim, f, want in claims(L):
            t, w, p = timed(f, 5)
            assert str(p.verdict) == want, (name, claim, p.verdict, p.reason)
            before = "-", "not run"
            if L.size() <= args.before_max:
                bitsplit.decide = lambda *a, **k: None
                try:
                    tb, wb, pb = timed(f, 1)
                finally:
                    bitsplit.decide = original
                before = f"{tb * 1e3:.0f} / {wb * 1e3:.0f}", f"{pb.verdict}, {pb.method}"
            print(f"| {name} | {L.size()} | {claim} | {t * 1e3:.2f} / {w * 1e3:.2f} | {p.verdict}, {p.method} | {before[0]} | "
                  f"{before[1]} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
