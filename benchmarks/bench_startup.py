"""Start-up: the CPU time of a fresh process for the entry points users wait on, this tree beside another.

Measures, each in a fresh interpreter (CPU = user + system of the child, median of --runs), with cached
bytecode (as an installed package runs: one untimed run first, ``PYTHONDONTWRITEBYTECODE`` cleared and
the bytecode written under a private ``PYTHONPYCACHEPREFIX`` so neither tree's directories change):

- ``import symcute.expr`` (the expression language; should build no atom catalog);
- ``symcute prove equal 4:1 4:1`` (a claim that names no atom);
- ``import symcute.symbolic.parametric.prover`` (the parametric prover);
- ``symcute derive gmem`` (the gmem recipe, its cross-check included);
- ``symcute derive`` (the seed, for reference).

For each it also reports whether the process parsed any atom of the catalog (the catalog data modules in
``sys.modules`` at exit). With ``--baseline DIR`` the same commands run against the checkout in DIR,
interleaved run by run with this tree's, so both see the same load; the load average is printed.

    python benchmarks/bench_startup.py [--runs 7] [--baseline /path/to/other/checkout] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The catalog's data modules: present in sys.modules iff some atom was looked up (or the catalog listed).
_CATALOG = ("symcute.atoms.mma_gmma", "symcute.atoms.mma_umma", "symcute.atoms.mma_sm120",
            "symcute.atoms.mma_catalog", "symcute.atoms.mma_gmma_sparse", "symcute.atoms.copy_sm100_data")
_PROBE = ("import sys, atexit\n"
          "atexit.register(lambda f=sys.argv.pop(1): open(f, 'w').write("
          "str(int(any(m in sys.modules for m in %r)))))\n" % (_CATALOG,))

CASES = [
    ("import symcute.expr", ["-c", "import symcute.expr"]),
    ("symcute prove equal '4:1' '4:1'", ["-m", "symcute", "prove", "equal", "4:1", "4:1"]),
    ("import symcute.symbolic.parametric.prover", ["-c", "import symcute.symbolic.parametric.prover"]),
    ("symcute derive gmem", ["-m", "symcute", "derive", "gmem"]),
    ("symcute derive (seed)", ["-m", "symcute", "derive"]),
]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(tree: Path, argv: list[str], env: dict) -> tuple[float, bool]:
    """CPU seconds of one fresh process running ``argv`` against ``tree``; and whether it loaded the catalog."""
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as flag:
        if argv[0] == "-c":
            argv = ["-c", _PROBE + argv[1], flag.name]
        else:   # -m module args...: run the module through runpy after installing the probe
            argv = ["-c", _PROBE + "import runpy; "
                    f"runpy.run_module({argv[1]!r}, run_name='__main__', alter_sys=True)",
                    flag.name, *argv[2:]]
        before = _children_cpu()
        subprocess.run([sys.executable, *argv], cwd=tree, env={**env, "PYTHONPATH": str(tree)},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        cpu = _children_cpu() - before
        return cpu, flag.read().strip() == "1"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--baseline", type=Path, help="another checkout to measure side by side")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    trees = [("this tree", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as cache:
        results = {}
        for label, argv in CASES:
            envs = {name: {**env, "PYTHONPYCACHEPREFIX": os.path.join(cache, name.replace(" ", "_"))}
                    for name, _ in trees}
            for name, tree in trees:   # untimed: writes the bytecode
                _run(tree, argv, envs[name])
            times = {name: [] for name, _ in trees}
            loaded = {}
            for _ in range(args.runs):
                for name, tree in trees:
                    cpu, cat = _run(tree, argv, envs[name])
                    times[name].append(cpu)
                    loaded[name] = cat
            results[label] = {name: (statistics.median(times[name]), loaded[name]) for name, _ in trees}
    load = os.getloadavg()
    names = [name for name, _ in trees]
    head = "| command | " + " | ".join(f"{n}: CPU (catalog data read?)" for n in names) + " |"
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} cores; "
          f"median of {args.runs} fresh processes each, cached bytecode")
    print(head)
    print("|---|" + "---|" * len(names))
    for label, row in results.items():
        cells = " | ".join(f"{row[n][0]:.3f} s ({'yes' if row[n][1] else 'no'})" for n in names)
        print(f"| `{label}` | {cells} |")


if __name__ == "__main__":
    main()
