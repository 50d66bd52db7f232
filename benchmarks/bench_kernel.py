"""Time ``symcute kernel check`` on the shipped kernel descriptions, beside a per-thread enumeration.

For each examples/kernels/*.toml (and the tests' SM80 tensor-op LDSM mainloop): load the description
and decide every claim (fresh objects each run; best of N, wall and CPU seconds).  The peer is what a
user does without the checker: enumerate every thread's slice through CuTe's per-thread views
(``ThrCopy.partition_D`` plus its offset for each thread, then every value) to check the G2S cover of
A alone, one claim of the eight.

    python benchmarks/bench_kernel.py [--repeat 3] [--markdown]
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
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
