"""Confirm contract violations found by ``contract_sweep.py`` with real CuTe (the differential oracle).

For up to ``--per-class`` cases of each (operation, class): CuTe compiles the same
call on static layouts and prints its value, which must equal symcute's (so the
violation is CuTe's own); for compositions, divides and products CuTe also
evaluates both sides of the broken postcondition at the counterexample index
(``R(i)`` and ``A(B(i))``), which must differ.

Usage::

    python benchmarks/confirm_defects.py /tmp/sweep.jsonl [--per-class 20]

Prints one line per class: cases compiled, CuTe value equal to symcute's, both sides differ in CuTe.
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
from symcute.core.parse import parse_int_tuple, parse_layout  # noqa: E402
from symcute.oracle import CuteOracle, cpp_value, normalize  # noqa: E402
from tests.differential.core_cases import TYPES, cpp_tiler  # noqa: E402


def _closes_at_end(text) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i == len(text) - 1
    return False


def _arg(text):
    if text.startswith("(") and _closes_at_end(text):   # a tiler tuple; a layout's shape closes before ':'
        return _tiler(text)
    if ":" in text:
        return parse_layout(text)
    if text.lstrip("-").isdigit():
        return int(text)
    if text.startswith("("):
        return _tiler(text)
    return text


def _tiler(text):
    """A tiler tuple printed as ``(2,4:1,_)`` back to values."""
    from symcute.core.layout import _
    inner = text[1:-1]
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    items.append(cur)
    return tuple(_ if t == "_" else _arg(t) for t in items)


def cpp_of(op, args) -> str:
    a0 = cpp_value(str(args[0]))
    if op in ("right_inverse", "left_inverse", "coalesce", "filter"):
        return f"{op}({a0})"
    if op == "complement":
        return f"complement({a0})" if len(args) == 1 else f"complement({a0}, Int<{args[1]}>{{}})"
    if op in ("upcast", "downcast"):
        return f"{op}<{args[1]}>({a0})"
    if op == "recast_layout":
        return f"recast_layout<{TYPES[args[1]]}, {TYPES[args[2]]}>({a0})"
    b = args[1]
    cb = cpp_tiler(b) if isinstance(b, tuple) else f"Int<{b}>{{}}" if isinstance(b, int) else cpp_value(str(b))
    return f"{op}({a0}, {cb})"


def sides(op, args, index):
    """C++ for both sides of the broken postcondition at ``index``, evaluated by CuTe itself: compositions
    ``(R(i), A(B(i)))``; a logical_divide by a layout ``(D(i), L(B(i)))`` with ``B = (T, complement(T,
    size(L)))``; a logical_product by a layout ``(P1(i), C(B(i)))`` with ``C = complement(A,
    size(A)*cosize(B))``.  None where the contract is checked by mode."""
    if len(args) < 2 or isinstance(args[1], tuple) or not hasattr(args[1], "shape"):
        return None
    a, b, i = cpp_value(str(args[0])), cpp_value(str(args[1])), f"int({index})"
    if op == "composition":
        return f"cute::make_tuple(composition({a}, {b})({i}), {a}({b}({i})))"
    if op == "logical_divide":
        return (f"cute::make_tuple(logical_divide({a}, {b})({i}), "
                f"{a}(make_layout({b}, complement({b}, size({a})))({i})))")
    if op == "logical_product":
        return (f"cute::make_tuple(layout<1>(logical_product({a}, {b}))({i}), "
                f"complement({a}, size({a}) * cosize({b}))({b}({i})))")
    return None


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep", nargs="+")
    ap.add_argument("--per-class", type=int, default=20)
    a = ap.parse_args(argv)
    rows = [json.loads(line) for f in a.sweep for line in open(f, encoding="utf-8") if line.strip()]
    picked = defaultdict(list)
    for r in rows:
        if r["verdict"] == "refuted" and len(picked[(r["op"], r["class"])]) < a.per_class:
            picked[(r["op"], r["class"])].append(r)
    exprs, meta = {}, {}
    for key, rs in picked.items():
        for i, r in enumerate(rs):
            args = [_arg(t) for t in r["args"]]
            value = getattr(sc, r["op"])(*args)
            name = f"{key[0]}#{key[1].replace(' ', '_')}#{i}"
            exprs[name] = cpp_of(r["op"], args)
            meta[name] = (key, str(value), r)
            idx = r["counterexample"].get("index")
            s = sides(r["op"], args, idx) if idx is not None else None
            if s:
                exprs[name + "#sides"] = s
    res = CuteOracle().run_exprs(exprs)
    out = defaultdict(lambda: {"cases": 0, "same value": 0, "sides differ": 0, "sides checked": 0})
    examples = {}
    for name, (key, value, r) in meta.items():
        c = out[key]
        c["cases"] += 1
        got = res[name]
        if got.ok and normalize(got.output) == normalize(value):
            c["same value"] += 1
        sres = res.get(name + "#sides")
        if sres is not None and sres.ok:
            c["sides checked"] += 1
            left, right = sres.output.strip("()").split(",")[:2]
            if left != right:
                c["sides differ"] += 1
        examples.setdefault(key, (r["op"], r["args"], value, got.output if got.ok else got.status,
                                  sres.output if sres is not None and sres.ok else None))
    for key, c in sorted(out.items()):
        print(f"{key[0]} / {key[1]}: {c}  e.g. {examples[key]}")


if __name__ == "__main__":
    main()
