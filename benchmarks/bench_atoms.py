"""Time the atoms layer: every catalogued TiledMMA and its TV layouts, the whole-catalog lint, and real CuTe.

For each catalogued MMA atom (warp-level and every GMMA family member, base and
extended shapes) and each atom layout 1x1x1, 2x2x1, 2x1x1, 1x2x1, 4x1x1, 2x4x1,
build ``make_tiled_mma`` and compute ``get_layoutA_TV``, ``get_layoutB_TV`` and
``get_layoutC_TV`` (fresh objects each run; best of N runs).  Neither pycute
(the wheel's nor NVlabs/CuTe's) has MMA atoms, so the peer is real CuTe:
compiling and running the equivalent C++ program through the oracle (no
result memo) for a sample of configurations.

    python benchmarks/bench_atoms.py [--repeat 3] [--cute-sample 24] [--markdown]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import symcute as sc  # noqa: E402
from symcute.errors import SymcuteError  # noqa: E402

LAYOUTS = [(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1), (2, 4, 1)]


def configs():
    for entry in sc.mma_atoms():
        for lay in LAYOUTS:
            yield entry.atom, lay


def build_all(items) -> tuple[float, int, dict, float]:
    """Seconds to build every TiledMMA and its three TV layouts; per-family seconds; CPU seconds."""
    per = {"warp": 0.0, "gmma": 0.0, "umma": 0.0}
    count = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for atom, lay in items:
        t0 = time.perf_counter()
        m = sc.make_tiled_mma(atom, lay)
        for op in "ABC":
            try:
                m.get_layout_TV(op)
            except SymcuteError:      # the upstream-defective A of SM80_16x8x128 (CuTe refuses it too)
                pass
        per[_family(atom)] += time.perf_counter() - t0
        count += 1
    return time.perf_counter() - start, count, per, time.process_time() - cpu


def _family(atom) -> str:
    """warp (mma.sync, SM120 included), gmma (dense and sparse wgmma) or umma (SM100/SM103 tcgen05.mma)."""
    if atom.arch in ("sm100", "sm103"):
        return "umma"
    return "gmma" if atom.name.startswith(("SM90_64x", "SM90::GMMA::SPARSE")) else "warp"


def time_cute(sample: list) -> float | None:
    """Mean seconds per configuration for g++ + run of the same program (no memo), or None without g++."""
    try:
        from symcute.oracle import CuteOracle, OracleUnavailable
        from tests.differential.atoms_cases import tiled_mma_case
        from tests.differential.atoms_cpp import PREAMBLE
    except ImportError:
        return None
    try:
        oracle = CuteOracle(cache=False)
    except OracleUnavailable:
        return None
    from tests.differential.atoms_sm100_cases import _expr_name
    from tests.differential.test_atoms_sm100_vs_cute import SPARSE_EXT
    cases = {f"c{i}": tiled_mma_case(_expr_name(atom.name), lay, None).cpp for i, (atom, lay) in enumerate(sample)}
    t0 = time.perf_counter()
    oracle.run(cases, preamble=PREAMBLE + SPARSE_EXT)
    return (time.perf_counter() - t0) / len(cases)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cute-sample", type=int, default=24, help="configurations compiled with g++ (0: skip)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)

    items = list(configs())
    atoms = len({a.name for a, _ in items})
    runs = [build_all(items) for _ in range(args.repeat)]
    best = min(runs, key=lambda r: r[0])
    total, count, per, cpu = best
    n_warp = sum(1 for a, _ in items if _family(a) == "warp")
    n_gmma = sum(1 for a, _ in items if _family(a) == "gmma")
    n_umma = count - n_warp - n_gmma

    t0 = time.perf_counter()
    reports = sc.lint_catalog()
    lint_s = time.perf_counter() - t0

    step = max(1, len(items) // max(1, args.cute_sample)) if args.cute_sample else 0
    cute = time_cute(items[::step][:args.cute_sample]) if args.cute_sample else None

    rows = [
        ("TiledMMAs built (atoms x layouts)", f"{count} ({atoms} atoms x {len(LAYOUTS)})"),
        ("all of them + get_layoutA/B/C_TV, best of %d" % args.repeat, f"{total:.2f} s"),
        ("  of which CPU time (process_time)", f"{cpu:.2f} s"),
        ("mean per TiledMMA (3 TV layouts)", f"{1e3 * total / count:.2f} ms"),
        ("mean per atom (6 layouts)", f"{1e3 * total / atoms:.1f} ms"),
        ("warp-level atoms: mean per TiledMMA", f"{1e3 * per['warp'] / max(1, n_warp):.2f} ms"),
        ("GMMA atoms (dense and sparse): mean per TiledMMA", f"{1e3 * per['gmma'] / max(1, n_gmma):.2f} ms"),
        ("UMMA atoms (SM100/SM103): mean per TiledMMA", f"{1e3 * per['umma'] / max(1, n_umma):.2f} ms"),
        ("run-to-run spread (max/min)", f"{max(r[0] for r in runs) / total:.2f}x"),
        (f"lint of the whole catalog ({len(reports)} atoms)", f"{lint_s:.2f} s"),
    ]
    if cute is not None:
        rows.append((f"real CuTe: g++ + run per configuration ({args.cute_sample} sampled, no memo)",
                     f"{cute:.2f} s ({cute / (total / count):.0f}x symcute)"))
    if args.markdown:
        print("| measurement | value |\n|---|---|")
        for k, v in rows:
            print(f"| {k} | {v} |")
    else:
        w = max(len(k) for k, _ in rows)
        for k, v in rows:
            print(f"{k:{w}s}  {v}")
    print(f"(python {sys.version.split()[0]}; medians of per-run totals: "
          f"{statistics.median(r[0] for r in runs):.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
