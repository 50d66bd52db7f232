"""``symcute derive`` for the seed, cold and warm, next to compiling and running the same chain with g++ and CuTe.

Measures, on this machine, in one run:

- cold: ``python -m symcute derive > /dev/null`` in a fresh process (median of --runs);
- warm: ``markdown(derive_retile(**SEED))`` in this process (median of --warm-runs), split into
  the recipe (recording, formulas, proofs) and the rendering;
- CuTe: the equivalent C++ program (make_tiled_mma, get_layoutA_TV, right_inverse, with_shape,
  upcast<1024>, upcast<512>, make_tiled_copy_A, partition_fragment_A, retile) compiled with g++
  against CUTLASS 4.2's headers and run, through ``symcute.oracle`` with the precompiled header on
  and the result cache off (median of --cute-runs); its output is checked against the recipe's;
- start-up: the CPU time of each stage of a fresh process (interpreter, each layer's import, the first
  recipe and rendering), to see where the cold start goes.

    python benchmarks/bench_derive.py [--runs 7] [--warm-runs 30] [--cute-runs 3] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symcute.report import markdown  # noqa: E402
from symcute.recipes import SEED, derive_retile  # noqa: E402

# The seed's chain in C++; each line prints one value the recipe labels.
CUTE_SEED = {
    "F": "auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}); "
         "print(mma.get_layoutA_TV());",
    "G": "auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}); "
         "print(right_inverse(mma.get_layoutA_TV()));",
    "H": "auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}); "
         "print(right_inverse(mma.get_layoutA_TV()).with_shape(make_shape(_32{}, _16{})));",
    "frg_layout_mn": "auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}); "
                     "print(upcast<1024>(right_inverse(mma.get_layoutA_TV()).with_shape(make_shape(_32{}, _16{}))));",
    "contrast": "auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}); "
                "print(upcast<512>(right_inverse(mma.get_layoutA_TV()).with_shape(make_shape(_32{}, _16{}))));",
    "retile": "auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}); "
              "auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma); "
              "auto frag = mma.get_slice(0).partition_fragment_A(make_tensor<half_t>(Shape<_32,_16>{})); "
              "print(tc.retile(frag.layout()));",
}


def _median(xs):
    return statistics.median(xs)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _bytecode_env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cold(runs: int) -> tuple[list, list]:
    """Wall and CPU seconds (user+sys of the process and what it waited for) of each fresh run."""
    # As installed (pip writes the bytecode at install time): a cold process loads cached bytecode. Under
    # PYTHONDONTWRITEBYTECODE (set on some machines) every run would compile all of symcute's sources
    # again (~0.16 s here), which measures the compiler, not symcute; one untimed run writes the cache.
    env = _bytecode_env()
    command = [sys.executable, "-m", "symcute", "derive"]
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, cwd=ROOT, env=env)
    times, cpu = [], []
    for _ in range(runs):
        c0, began = _children_cpu(), time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True, cwd=ROOT, env=env)
        times.append(time.perf_counter() - began)
        cpu.append(_children_cpu() - c0)
    return times, cpu


def warm(runs: int) -> tuple[list, list, list, list]:
    markdown(derive_retile(**SEED))  # first call: imports and caches
    total, recipe, render, cpu = [], [], [], []
    for _ in range(runs):
        c0 = time.process_time()
        t0 = time.perf_counter()
        d = derive_retile(**SEED)
        t1 = time.perf_counter()
        markdown(d, "en")
        t2 = time.perf_counter()
        cpu.append(time.process_time() - c0)
        total.append(t2 - t0)
        recipe.append(t1 - t0)
        render.append(t2 - t1)
    return total, recipe, render, cpu


def cute(runs: int):
    """Median wall time of compiling and running the seed's chain (PCH on, cache off), and its outputs."""
    try:
        from symcute.oracle import CuteOracle, OracleUnavailable
    except ImportError:
        return None, "symcute.oracle is missing"
    try:
        oracle = CuteOracle(pch=True, cache=False, jobs=1)
    except OracleUnavailable as e:
        return None, str(e)
    oracle.toolchain.ensure_pch()   # build the precompiled header once, outside the timing
    body = {"seed": " print(\"\\n\"); ".join(CUTE_SEED.values()).replace(
        "auto mma", "{ auto mma").replace("; print(\"\\n\");", "; } print(\"\\n\");") + " }"}
    times, cpu, result = [], [], None
    for _ in range(runs):
        c0, began = _children_cpu(), time.perf_counter()
        result = oracle.run(body)["seed"]
        times.append(time.perf_counter() - began)
        cpu.append(_children_cpu() - c0)   # g++ (and cc1plus, which it waits for) and the program
    return (times, cpu), result


STARTUP = """
import time
marks = [("python", time.process_time())]
def mark(name):
    marks.append((name, time.process_time()))
import symcute; mark("import symcute (core)")
import symcute.atoms; mark("import symcute.atoms (catalogs)")
import symcute.symbolic, symcute.symbolic.prover; mark("import symcute.symbolic")
import symcute.recipes, symcute.report.retile, symcute.cli.derive; mark("import trace, report, cli")
from symcute.recipes import SEED, derive_retile
from symcute.report import markdown
d = derive_retile(**SEED); mark("first recipe")
markdown(d); mark("first markdown")
for (_, a), (name, b) in zip(marks, marks[1:]):
    print(f"{name}\t{(b - a) * 1000:.1f}")
"""


def startup() -> list:
    """CPU milliseconds of each stage of a fresh process running the seed's derive (imports first)."""
    proc = subprocess.run([sys.executable, "-c", STARTUP], capture_output=True, text=True, cwd=ROOT, check=True,
                          env=_bytecode_env())
    before = subprocess.run([sys.executable, "-c", "import time; print(time.process_time() * 1000)"],
                            capture_output=True, text=True, check=True)
    rows = [("python start (to the first line)", float(before.stdout))]
    for line in proc.stdout.splitlines():
        name, ms = line.split("\t")
        rows.append((name, float(ms)))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="cold process runs")
    ap.add_argument("--warm-runs", type=int, default=30, help="in-process runs")
    ap.add_argument("--cute-runs", type=int, default=3, help="g++ compile-and-run runs")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args(argv)

    c, c_cpu = cold(args.runs)
    w, r, m, w_cpu = warm(args.warm_runs)
    ct, out = cute(args.cute_runs)
    ct, ct_cpu = ct if ct is not None else (None, None)
    d = derive_retile(**SEED)
    if ct is not None:
        expected = "\n".join(d.text(d.labelled(k)) for k in CUTE_SEED)
        agree = out.ok and out.output.strip() == expected
    rows = [("symcute derive, fresh process (median)", _median(c), _median(c_cpu)),
            ("recipe + markdown, warm (median)", _median(w), _median(w_cpu)),
            ("  recipe (record, formulas, proofs)", _median(r), None),
            ("  markdown rendering", _median(m), None)]
    if ct is not None:
        rows.append(("CuTe: g++ compile + run, PCH on, cache off (median)", _median(ct), _median(ct_cpu)))
    if args.markdown:
        print("| measurement | wall s | CPU s |\n|---|---|---|")
        for name, v, cpu in rows:
            print(f"| {name} | {v:.3f} | {'' if cpu is None else f'{cpu:.3f}'} |")
    else:
        print(f"{'':58s} {'wall':>9s}    {'CPU':>9s}")
        for name, v, cpu in rows:
            print(f"{name:58s} {v * 1000:9.1f} ms " + ("" if cpu is None else f"{cpu * 1000:9.1f} ms"))
    if ct is not None:
        print(f"\ncold process vs g++: {_median(ct) / _median(c):.1f}x faster in wall time, "
              f"{_median(ct_cpu) / _median(c_cpu):.1f}x in CPU time (goal >= 3x); "
              f"warm: {_median(w) * 1000:.1f} ms wall, {_median(w_cpu) * 1000:.1f} ms CPU (goal < 50 ms)")
        print(f"CuTe's output {'equals' if agree else 'DIFFERS FROM'} the recipe's F, G, H, upcast<1024>, "
              f"upcast<512>, retile")
    else:
        print(f"\nCuTe timing skipped: {out}")
    print(f"\ncores: {os.cpu_count()}; load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("a fresh process, stage by stage (CPU time):")
    for name, ms in startup():
        print(f"  {name:45s} {ms:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
