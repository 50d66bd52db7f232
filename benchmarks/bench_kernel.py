"""Time ``symcute kernel check`` on the shipped kernel descriptions, beside a per-thread enumeration.

For each examples/kernels/*.toml (and the tests' SM80 tensor-op LDSM mainloop): load the description
and decide every claim (fresh objects each run; best of N, wall and CPU seconds).  The peer is what a
user does without the checker: enumerate every thread's slice through CuTe's per-thread views
(``ThrCopy.partition_D`` plus its offset for each thread, then every value) to check the G2S cover of
A alone, one claim of the eight.

With ``--run``: time ``symcute kernel run`` of one 256x256x64 problem (the whole grid, both schedules)
for each description, beside two peers in the same process: numpy's ``A @ B.T`` (the reference the run
compares with) and a scalar Python loop over every thread's accumulators through CuTe's per-thread view
(``ThrMMA.partition_C`` plus its offset, one k at a time, no copies: the least a per-thread reference
run does).

    python benchmarks/bench_kernel.py [--repeat 3] [--markdown] [--run]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symcute.core import make_layout  # noqa: E402
from symcute.kernel import check, from_dict, load  # noqa: E402


def _files():
    import tomllib
    out = [(p.name, lambda p=p: load(p)) for p in sorted((ROOT / "examples" / "kernels").glob("*.toml"))]
    sys.path.insert(0, str(ROOT / "tests"))
    from kernel.test_kernel_check import HGEMM  # noqa: E402
    out.append(("tensor-op LDSM (tests)", lambda: from_dict(tomllib.loads(HGEMM), "hgemm")))
    return out


def best(fn, repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


def first_call(name: str) -> tuple[float, float]:
    """Wall and CPU seconds of the first check in a fresh process (imports done before the clock starts)."""
    import subprocess
    code = ("import sys, time, tomllib; sys.path.insert(0, %r); sys.path.insert(0, %r)\n"
            "from symcute.kernel import check, load, from_dict\n"
            "import symcute.symbolic, symcute.expr\n"
            "from kernel.test_kernel_check import HGEMM\n"
            "t, c = time.perf_counter(), time.process_time()\n"
            "k = load(%r) if %r.endswith('.toml') else from_dict(tomllib.loads(HGEMM), 'hgemm')\n"
            "check(k)\n"
            "print(time.perf_counter() - t, time.process_time() - c)\n") % (str(ROOT), str(ROOT / "tests"),
                                                    str(ROOT / "examples" / "kernels" / name), name)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def enumerate_cover(k) -> bool:
    ref = make_layout(k.tile_shape("a"))
    seen = set()
    for t in range(k.a.g2s.size()):
        thr = k.a.g2s.get_slice(t)
        part, off = thr.partition_D(ref), thr.partition_offset("D", ref)
        for v in range(part.size()):
            seen.add(off + part(v))
    return len(seen) == ref.size()


RUN_SHAPE = (256, 256, 64)


def scalar_peer(k, A, B) -> list:
    """C by a scalar loop over every CTA, thread and accumulator (partition_C's per-thread view)."""
    M, N, K = RUN_SHAPE
    BM, BN, _ = k.cta
    ref = make_layout((BM, BN))
    C = [[0] * N for _ in range(M)]
    for t in range(k.mma.size()):
        thr = k.mma.get_slice(t)
        part, off = thr.partition_C(ref), thr.partition_offset("C", ref)
        for r in range(part.size()):
            i = off + part(r)
            m0, n0 = i % BM, i // BM
            for bm in range(M // BM):
                for bn in range(N // BN):
                    m, n = bm * BM + m0, bn * BN + n0
                    a, b = A[m], B[n]
                    C[m][n] = sum(a[kk] * b[kk] for kk in range(K))
    return C


def first_run(name: str) -> tuple[float, float]:
    """Wall and CPU seconds of the first run (description loaded, maps built) in a fresh process."""
    import subprocess
    code = ("import sys, time, tomllib; sys.path.insert(0, %r); sys.path.insert(0, %r)\n"
            "from symcute.kernel import run, load, from_dict\n"
            "import symcute.symbolic, symcute.expr, numpy\n"
            "from kernel.test_kernel_check import HGEMM\n"
            "t, c = time.perf_counter(), time.process_time()\n"
            "k = load(%r) if %r.endswith('.toml') else from_dict(tomllib.loads(HGEMM), 'hgemm')\n"
            "assert run(k, %r).exit_status == 0\n"
            "print(time.perf_counter() - t, time.process_time() - c)\n") % (str(ROOT), str(ROOT / "tests"),
                                                    str(ROOT / "examples" / "kernels" / name), name, RUN_SHAPE)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def run_rows(repeat: int) -> list:
    import numpy as np
    from symcute.kernel import run
    rows = []
    for name, make in _files():
        k = make()
        res = run(k, RUN_SHAPE)
        wall, cpu = best(lambda: run(k, RUN_SHAPE), repeat)
        rng = np.random.default_rng(0)
        A = rng.integers(-255, 256, size=(RUN_SHAPE[0], RUN_SHAPE[2])).tolist()
        B = rng.integers(-255, 256, size=(RUN_SHAPE[1], RUN_SHAPE[2])).tolist()
        An, Bn = np.asarray(A), np.asarray(B)
        nw, _nc = best(lambda: An @ Bn.T, repeat)
        t0 = time.perf_counter()
        C = scalar_peer(k, A, B)
        sw = time.perf_counter() - t0
        assert np.array_equal(np.asarray(C), An @ Bn.T)
        rows.append((name, res.exit_status == 0, len(res.ctas), first_run(name), wall, cpu, nw, sw))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--run", action="store_true", help="time kernel run of a 256x256x64 problem instead")
    args = ap.parse_args(argv)
    if args.run:
        rows = run_rows(args.repeat)
        load_avg = os.getloadavg()[0]
        print(f"| kernel (load {load_avg:.2f}) | C equals numpy | CTAs | first run in a fresh process, wall / CPU s | "
              f"run, best of {args.repeat}, wall s | CPU s | peer: numpy A @ B.T, s | peer: scalar loop over "
              f"partition_C, s |")
        print("|---|---|---|---|---|---|---|---|")
        for n, eq, ctas, cold, w, c, nw, sw in rows:
            print(f"| {n} | {'yes' if eq else 'no'} | {ctas} | {cold[0]:.3f} / {cold[1]:.3f} | {w:.3f} | {c:.3f} | "
                  f"{nw:.5f} | {sw:.2f} |")
        return 0
    rows = []
    for name, make in _files():
        k = make()
        verdicts = {c: r.verdict for c, r in check(k).claims.items()}
        wall, cpu = best(lambda: check(make()), args.repeat)
        pw, pc = best(lambda: enumerate_cover(k), args.repeat)
        cold = first_call(name)
        rows.append((name, len(verdicts), sum(v == "proved" for v in verdicts.values()), wall, cpu, pw, cold))
    load_avg = os.getloadavg()[0]
    if args.markdown:
        print(f"| kernel (load {load_avg:.2f}) | claims | proved | first check in a fresh process, wall / CPU s | check, best of "
              f"{args.repeat}, wall s | CPU s | peer: the G2S cover of A alone by per-thread enumeration, s |")
        print("|---|---|---|---|---|---|---|")
        for n, c, p, w, cp, pw, cold in rows:
            print(f"| {n} | {c} | {p} | {cold[0]:.3f} / {cold[1]:.3f} | {w:.3f} | {cp:.3f} | {pw:.3f} |")
    else:
        for n, c, p, w, cp, pw, cold in rows:
            print(f"{n:28} {p}/{c} proved  first {cold[0]:.3f} s ({cold[1]:.3f} s CPU)  check {w:.3f} s wall {cp:.3f} s CPU  "
                  f"peer (one claim) {pw:.3f} s")
        print(f"load average {load_avg:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
