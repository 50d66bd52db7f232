"""Wrong inverses refuted at 2^24, 2^32 and 2^40 (previously "unknown"), next to the proof of the right one.

    python benchmarks/bench_exact.py [--repeat N] [--markdown]

For each size 2^k: ``L`` is a permuted compact layout with non-power-of-two
extents (``(5, 2^(k-5), 6)`` with strides in a seeded order, so values carry
across digits when a stride is wrong), ``R = right_inverse(L)`` (core), and
``W`` is ``R`` with two strides swapped.  Side by side:

- ``right``: ``L(R(i)) == i`` proved (refinement);
- ``wrong, exact off``: ``L(W(i)) == i`` with ``SYMCUTE_EXACT=0`` (refinement,
  then enumeration up to 2^24: what the prover did before the exact back-ends);
- ``wrong``: the same claim with the exact back-ends (Z3, then ISL): refuted,
  the counterexample re-evaluated with core.

Times are medians over ``--repeat`` runs (the cases whose refinement already
refutes are skipped: the table shows only swaps that make the values carry).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from symcute import Layout
import symcute.core as core
from symcute.core.int_tuple import flatten_to_tuple
import symcute.symbolic as sym
from symcute.symbolic import exact

SIZES = (24, 32, 40)


def carrying_swaps(k: int, rng: random.Random, tries: int = 200):
    """Layouts of about 2^k inputs, each with its right inverse and a swapped-stride wrong inverse that
    carries (refinement alone leaves ``L(W(i)) == i`` open): ``(L, R, W)``, from ``tries`` draws."""
    for _ in range(tries):
        shape = [5, 1 << (k - 5), 6]
        rng.shuffle(shape)
        L = core.make_ordered_layout(tuple(shape), tuple(rng.sample(range(3), 3)))
        R = core.right_inverse(L)
        shape, stride = flatten_to_tuple(R.shape), list(flatten_to_tuple(R.stride))
        if len(stride) < 2:
            continue
        i, j = rng.sample(range(len(stride)), 2)
        stride[i], stride[j] = stride[j], stride[i]
        W = Layout(shape, tuple(stride))
        old = exact.set_enabled(False)
        try:
            before = sym.prove_right_inverse(L, W, limit=0)
        finally:
            exact.set_enabled(old)
        if before.verdict == "unknown":
            yield L, R, W


def case(k: int, rng: random.Random):
    """A layout of about 2^k inputs, its right inverse, and a swapped-stride wrong inverse that carries."""
    found = next(carrying_swaps(k, rng), None)
    if found is None:
        raise RuntimeError(f"no carrying swap found at 2^{k}")
    return found


def timed(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    rng = random.Random(11)
    rows = []
    for k in SIZES:
        L, R, W = case(k, rng)
        t_right, p_right = timed(lambda: sym.prove_right_inverse(L, R), a.repeat)

        def off():
            old = exact.set_enabled(False)
            try:
                return sym.prove_right_inverse(L, W)
            finally:
                exact.set_enabled(old)
        t_off, p_off = timed(off, 1 if k <= 24 else a.repeat)
        t_wrong, p_wrong = timed(lambda: sym.prove_right_inverse(L, W), a.repeat)
        i = p_wrong.counterexample["index"] if p_wrong.refuted else None
        assert p_right.proved and (i is None or L(W(i)) != i)
        rows.append((k, str(L), str(W), f"{p_right.verdict} ({p_right.method})", t_right,
                     f"{p_off.verdict} ({p_off.method})", t_off, f"{p_wrong.verdict} ({p_wrong.method})", t_wrong, i))
    if a.markdown:
        print("| size | L | wrong inverse W | right: verdict | time | wrong, exact off | time | wrong | time "
              "| counterexample i |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for k, L, W, v1, t1, v2, t2, v3, t3, i in rows:
            print(f"| 2^{k} | `{L}` | `{W}` | {v1} | {t1 * 1e3:.2f} ms | {v2} | {t2 * 1e3:.1f} ms | {v3} | "
                  f"{t3 * 1e3:.1f} ms | {i} |")
    else:
        for r in rows:
            print(r)


if __name__ == "__main__":
    main()
