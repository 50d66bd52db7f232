"""Measure the oracle's costs: ``python -m symcute.oracle.bench [--cases FILE.jsonl]``.

Prints, on this machine: the PCH build, one tiny program with and without
the PCH, the compile time of N cases split into batches of several sizes
(``print`` versus ``SYMCUTE_PRINT``), and end-to-end :meth:`CuteOracle.run`
wall time with 1 and all cores. The numbers in ``docs/oracle.md`` come from it.
Cases: CuTe's unit cases from ``--cases`` (JSONL with ``op``/``args``), else a
fixed pseudo-random mix of right_inverse/coalesce/composition/logical_divide.
Compile costs are CPU seconds of g++ (minimum over ``--repeat`` runs), which
other load on the machine barely moves; end-to-end runs report wall time.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from symcute.oracle import program
from symcute.oracle.cpp import cpp_call
from symcute.oracle.runner import CuteOracle, _DIAG_FLAGS
from symcute.oracle.toolchain import PCH_HEADER, Toolchain


def _synthetic(count: int, seed: int = 7) -> list[tuple[str, list[str]]]:
    rng = random.Random(seed)

    def layout(rank: int) -> str:
        shape = [rng.choice([2, 3, 4, 6, 8]) for _ in range(rank)]
        stride = [rng.choice([0, 1, 2, 4, 8, 16, 32]) for _ in range(rank)]
        return f"({','.join(map(str, shape))}):({','.join(map(str, stride))})"

    cases = []
    for _ in range(count):
        op = rng.choice(["right_inverse", "coalesce", "composition", "logical_divide"])
        if op in ("composition", "logical_divide"):
            cases.append((op, [layout(rng.randint(1, 3)), f"{rng.choice([2, 4, 8])}:1"]))
        else:
            cases.append((op, [layout(rng.randint(1, 4))]))
    return cases


def _timed(cmd: list[str]) -> float:
    """CPU seconds (user + system) of the compiler: unlike wall time, barely moved by other load."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit("benchmark program failed to compile:\n" + proc.stderr[-3000:])
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _compile_seconds(chain: Toolchain, bodies: list[str], pch: Path | None, tmp: Path, repeat: int) -> float:
    source = tmp / "bench.cpp"
    source.write_text(program.render(bodies, includes="" if pch else PCH_HEADER))
    cmd = chain.command(source, tmp / "bench", pch)
    cmd[1:1] = _DIAG_FLAGS
    return min(_timed(cmd) for _ in range(repeat))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, help="JSONL of {op, args} (e.g. tests/data/cute_unit_cases.jsonl)")
    parser.add_argument("--sizes", default="10,25,50,100,200", help="batch sizes to compare")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)

    if args.cases:
        with open(args.cases, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        cases = [(r["op"], r["args"]) for r in records]
    else:
        cases = _synthetic(200)
    random.Random(1).shuffle(cases)
    calls = [cpp_call(op, *call_args) for op, call_args in cases]

    oracle = CuteOracle(cache=False)
    chain = oracle.toolchain

    # End to end first (wall time, sensitive to other load); it also tells
    # which cases CuTe rejects, which the batch-size comparison leaves out.
    exprs = {str(i): call for i, call in enumerate(calls)}
    verdicts = {}
    for jobs in sorted({1, oracle.jobs}):
        runner = CuteOracle(cache=False, jobs=jobs)
        began = time.perf_counter()
        verdicts = runner.run_exprs(exprs)
        stats = runner.last_stats
        rejected = sum(v.rejected for v in verdicts.values())
        print(f"run_exprs, {jobs} job(s): {time.perf_counter() - began:.1f} s wall for {len(calls)} cases "
              f"({rejected} rejected), {stats.batches} batches, {stats.compiles} compiles, "
              f"{stats.compile_seconds:.1f} compile-s")
    calls = [call for i, call in enumerate(calls) if verdicts[str(i)].ok]

    with tempfile.TemporaryDirectory(prefix="symcute-bench-") as tmp_name:
        tmp = Path(tmp_name)
        fresh = Toolchain(chain.cxx, chain.include_dirs, chain.flags, tmp / "cache", chain.compiler_version, chain.key)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        pch = fresh.ensure_pch()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        size = (pch.parent / (pch.name + ".gch")).stat().st_size / 2**20
        print(f"PCH build: {cpu:.1f} CPU-s, {size:.0f} MiB")

        tiny = ["print(cute::Layout<cute::Int<4>,cute::Int<1>>{});"]
        with_pch = _compile_seconds(fresh, tiny, pch, tmp, args.repeat)
        without = _compile_seconds(fresh, tiny, None, tmp, args.repeat)
        print(f"tiny program: {with_pch:.2f} CPU-s with PCH, {without:.2f} CPU-s without")

        print(f"{len(calls)} valid cases, total compile CPU-s by batch size:")
        for size in [int(s) for s in args.sizes.split(",")]:
            row = []
            for name, wrap in (("print", "print({});"), ("SYMCUTE_PRINT", "SYMCUTE_PRINT({});")):
                bodies = [wrap.format(call) for call in calls]
                batches = [bodies[i:i + size] for i in range(0, len(bodies), size)]
                total = sum(_compile_seconds(fresh, batch, pch, tmp, 1) for batch in batches)
                row.append(f"{name} {total:6.1f} CPU-s ({1000 * total / len(bodies):4.0f} ms/case)")
            print(f"  batch {size:4d}: " + "   ".join(row))


if __name__ == "__main__":
    main()
