"""Confirm the swizzled-layout contract violations of ``contract_sweep_swizzled.py`` with real CuTe.

For the ``--per-class`` shortest cases of each (operation, class): CuTe compiles the call and prints its
value, which must be symcute's; for the inverses and compositions CuTe also evaluates the broken side
at the counterexample index (``L(R(i))``, ``L(R(L(i)))``, ``R(c)`` and ``A(B(c))``), which must print the
numbers of symcute's counterexample.

    python benchmarks/confirm_swizzled.py /tmp/swz1.jsonl /tmp/swz2.jsonl [--per-class 3]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import symcute as sc  # noqa: E402
from symcute.core.parse import parse_layout  # noqa: E402
from symcute.oracle import CuteOracle, cpp_value  # noqa: E402
from tests.differential.core_cases import TYPES  # noqa: E402


def calls(row) -> dict:
    """C++ expressions: the value, and the sides of the broken claim at the counterexample."""
    op, args, ce = row["op"], row["args"], row["counterexample"]
    X = cpp_value(args[0])
    out = {}
    if op in ("right_inverse", "left_inverse"):
        out["value"] = f"{op}({X})"
        i = ce.get("index")
        if i is not None:
            if op == "right_inverse":
                out["lhs"] = f"{X}(right_inverse({X})(int({i})))"
            else:
                out["lhs"] = f"{X}(left_inverse({X})({X}(int({i}))))"
                out["rhs"] = f"{X}(int({i}))"
    elif op == "composition" or op.endswith("_divide"):
        out["value"] = f"{op}({X}, {cpp_value(args[1])})"
        c = ce.get("index")
        if c is not None and op == "composition":
            out["lhs"] = f"{out['value']}(int({c}))"
            out["rhs"] = f"{X}({cpp_value(args[1])}(int({c})))"
    elif op in ("upcast", "downcast"):
        out["value"] = f"{op}<{args[1]}>({X})"
    elif op == "recast_layout":
        out["value"] = f"recast_layout<{TYPES[int(args[1])]}, {TYPES[int(args[2])]}>({X})"
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--per-class", type=int, default=3)
    a = ap.parse_args(argv)
    rows = [json.loads(line) for f in a.files for line in Path(f).read_text().splitlines() if line.strip()]
    by_class = defaultdict(list)
    for r in rows:
        by_class[(r["op"], r["class"])].append(r)
    chosen = {k: sorted(v, key=lambda r: len(" ".join(r["args"])))[:a.per_class] for k, v in by_class.items()}
    exprs = {}
    for k, rs in chosen.items():
        for j, r in enumerate(rs):
            for side, e in calls(r).items():
                exprs[f"{k[0]}|{k[1]}|{j}|{side}"] = e
    res = CuteOracle().run_exprs(exprs)
    for k, rs in sorted(chosen.items()):
        same = 0
        for j, r in enumerate(rs):
            got = res[f"{k[0]}|{k[1]}|{j}|value"]
            mine = r["value"]
            ok = got.ok and got.output.replace(" ", "") == mine.replace(" ", "")
            same += ok
            sides = {s: res[f"{k[0]}|{k[1]}|{j}|{s}"] for s in ("lhs", "rhs") if f"{k[0]}|{k[1]}|{j}|{s}" in res}
            shown = ", ".join(f"{s}={v.output if v.ok else v.status}" for s, v in sides.items())
            print(f"  {r['op']}({', '.join(r['args'])}) = {got.output if got.ok else got.status}"
                  f" [{'same as symcute' if ok else 'DIFFERS: symcute ' + mine}] {shown} ce={r['counterexample']}")
        print(f"{k[0]} / {k[1]}: {len(rs)} compiled, CuTe printed symcute's value in {same} "
              f"(of {len(by_class[k])} in the class)")


if __name__ == "__main__":
    main()
