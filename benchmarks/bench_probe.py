"""Refutations by probing vs the solver path, side by side in one process (issue 23, item 4).

    python benchmarks/bench_probe.py [--cases N] [--markdown]

Rows:

- ``wrong inverse 2^k``: ``L`` a permuted compact layout with extents 5, 6 and
  a power of two (as benchmarks/bench_exact.py), ``W`` = ``right_inverse(L)``
  with two strides swapped such that the values carry (refinement alone cannot
  decide ``L(W(i)) == i``); ``--cases`` seeded cases per size;
- ``perm``/``tv`` ``swapped inverses 2^k``: benchmarks/bench_prove.py's permuted
  (2,...,2) and TV-like layouts, ``right_inverse`` with two random strides
  swapped (27 per size, all of them: refinement refutes most, a few carry);
- ``right inverse 2^k``: the true claim ``L(R(i)) == i`` (its verdict must not
  change: probing only ever refutes);
- ``Sw<3,4,3> o 0 o (8,2^k):(2^(k-1),1) injective``: two inputs with one value
  (``1`` and ``2^(k+2)``), which the solvers leave "unknown" from 2^23 up.

Each row is decided twice: with probing (the prover as it is) and with
``probe.set_enabled(False)`` (Z3, then ISL, as before).  A claim's time is the
best of 3 runs (1 for the solvers on the swizzle rows); the table gives the
median and maximum over the cases; the verdicts column counts verdicts and
methods.  Every refutation's counterexample is re-checked here with core.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import time
from collections import Counter

from symcute import Layout
import symcute.core as core
from symcute.core.composed import ComposedLayout
from symcute.core.int_tuple import flatten_to_tuple
from symcute.core.swizzle import Swizzle
import symcute.symbolic as sym
from symcute.symbolic import exact, probe

from bench_exact import carrying_swaps   # the same wrong inverses as the exact back-ends' benchmark
from bench_prove import perm_layout, tv_layout   # the same layouts as the refinement benchmark


def wrong_inverses(k: int, count: int, rng: random.Random):
    """``count`` (L, W) pairs of about 2^k inputs whose swap carries (refinement leaves them open)."""
    return [(L, W) for L, _R, W in itertools.islice(carrying_swaps(k, rng, tries=100 * count), count)]


def swapped(make, k: int, count: int, rng: random.Random):
    """``count`` (L, W): ``L = make(k)``, ``W`` its right inverse with two random strides swapped."""
    out = []
    while len(out) < count:
        L = make(k, rng)
        R = core.right_inverse(L)
        shape, stride = flatten_to_tuple(R.shape), list(flatten_to_tuple(R.stride))
        i, j = rng.sample(range(len(stride)), 2)
        stride[i], stride[j] = stride[j], stride[i]
        out.append((L, Layout(shape, tuple(stride))))
    return out


def run(claims, probing: bool, repeat: int = 3):
    """(verdict counts, median s, max s) of deciding each ``(decide, check)``; ``check`` re-evaluates.

    A claim's time is the best of ``repeat`` runs (the machine is shared: the best run is the prover's own
    cost, the others include waiting for a core)."""
    old = probe.set_enabled(probing)
    try:
        times, verdicts = [], Counter()
        for decide, check in claims:
            best = None
            for _ in range(repeat):
                t = time.perf_counter()
                p = decide()
                dt = time.perf_counter() - t
                best = dt if best is None else min(best, dt)
            times.append(best)
            verdicts[f"{p.verdict} ({p.method})"] += 1
            if p.refuted:
                assert check(p), p
        return verdicts, statistics.median(times), max(times)
    finally:
        probe.set_enabled(old)


def fmt(s: float) -> str:
    return f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def counts(c: Counter) -> str:
    return ", ".join(f"{n} {v}" for v, n in sorted(c.items()))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=27)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    rng = random.Random(11)
    rows = []
    sym.is_injective(Layout((3, 4), (2, 2)))   # warm the imports, so the first row times the prover alone
    for k in (32, 40):
        pairs = wrong_inverses(k, a.cases, rng)
        wrong = [(lambda L=L, W=W: sym.prove_right_inverse(L, W),
                  lambda p, L=L, W=W: L(W(p.counterexample["index"])) != p.counterexample["index"]) for L, W in pairs]
        right = [(lambda L=L: sym.prove_right_inverse(L, core.right_inverse(L)), None) for L, _ in pairs]
        rows.append((f"wrong inverse 2^{k}", len(wrong), run(wrong, True), run(wrong, False)))
        rows.append((f"right inverse 2^{k}", len(right), run(right, True), run(right, False)))
    for family, make in (("perm", perm_layout), ("tv", tv_layout)):
        for k in (32, 40):
            claims = []
            for L, W in swapped(make, k, a.cases, rng):
                claims.append((lambda L=L, W=W: sym.prove_right_inverse(L, W),
                               lambda p, L=L, W=W: L(W(p.counterexample["index"])) != p.counterexample["index"]))
            rows.append((f"{family} swapped inverses 2^{k}", len(claims), run(claims, True),
                         run(claims, False, repeat=1)))   # the solvers take up to 15 s: one run
    for k in (23, 26, 30):
        L = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 1 << k), (1 << (k - 1), 1)))

        def check(p, L=L):
            x, y = p.counterexample["indices"]
            return x != y and L(x) == L(y)
        claims = [(lambda L=L: sym.is_injective(L), check)]
        rows.append((f"Sw<3,4,3> o 0 o (8,2^{k}):(2^{k - 1},1) injective", 1, run(claims, True),
                     run(claims, False, repeat=1)))   # the solvers take up to 15 s here: one run
    load = os.getloadavg()
    if a.markdown:
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
        print("| claims | n | probing: verdicts | median | max | solvers only: verdicts | median | max |")
        print("|---|---|---|---|---|---|---|---|")
        for name, n, (v1, m1, x1), (v2, m2, x2) in rows:
            print(f"| {name} | {n} | {counts(v1)} | {fmt(m1)} | {fmt(x1)} | {counts(v2)} | {fmt(m2)} | {fmt(x2)} |")
    else:
        print(f"load average {load}")
        for r in rows:
            print(r)


if __name__ == "__main__":
    main()
