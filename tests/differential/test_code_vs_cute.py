"""Code out, through real CuTe: to_cpp's spelling compiled and printed is the value it came from, and
Formula.to_c's function returns CuTe's value at every coordinate of the layout's domain."""

from __future__ import annotations

import random

import json
from pathlib import Path

from symcute import Layout, parse_layout, to_cpp, to_dsl
from symcute.symbolic import formula

from .code_corpus import corpus, dsl_corpus
from .core_cases import rand_layout
from .harness import COUNTS, large, oracle_or_skip

SEED_A = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def test_cpp_spelling_prints_the_same_layout():
    oracle = oracle_or_skip()
    values = corpus(2000 if large() else 300)
    results = oracle.run_exprs({f"cpp-{i}": to_cpp(v) for i, v in enumerate(values)})
    c = COUNTS["code:to_cpp"]
    bad = []
    for i, v in enumerate(values):
        res = results[f"cpp-{i}"]
        c["cases"] += 1
        if not res.ok:
            c["mismatch"] += 1
            bad.append(f"{v}: {to_cpp(v)}\n    CuTe refused it: {res.error}")
            continue
        c["valid"] += 1
        if parse_layout(res.output) != v or res.output != str(v):
            c["mismatch"] += 1
            bad.append(f"{v}: {to_cpp(v)}\n    CuTe printed: {res.output}")
    assert not bad, f"{len(bad)} of {len(values)} spellings do not round-trip:\n" + "\n".join(bad[:10])


def _c_cases(n: int, seed: int = 1803) -> list:
    rng = random.Random(seed)
    out = [formula(Layout.parse(SEED_A), "((t0,t1,wm,wn),((v0,v1,v2),(_a,_b)))"),
           formula(Layout.parse("(8,2,2,2,4,2):(4,256,32,128,1,512)"))]
    while len(out) < n:
        L = rand_layout(rng)
        if L.size() <= 512 and all(isinstance(d, int) for d in _leaves(L.stride)):
            out.append(formula(L))
    return out + _swizzled_c_cases(n // 3, rng)


def _swizzled_c_cases(n: int, rng) -> list:
    """Swizzled layouts (SwizzledFormula.to_c): production tiles, an offset, a nested swizzle, random ones."""
    from symcute.core import ComposedLayout, Swizzle
    out = [formula(parse_layout(t), names) for t, names in (
        ("Sw<3,4,3> o 0 o (8,64):(64,1)", "(r,c)"), ("Sw<3,3,3> o 0 o ((8,2),(64,1)):((64,512),(1,0))", None),
        ("Sw<2,0,-2> o 16 o (4,8):(8,1)", None), ("Sw<2,5,2> o 0 o (32,4):(1,32)", None))]
    nested = ComposedLayout(Swizzle(2, 3, 3), 0, Layout((8, 16), (16, 1)))
    out.append(formula(ComposedLayout(Swizzle(1, 1, 2), 0, nested)))
    while len(out) < n:
        L = rand_layout(rng)
        if L.size() <= 512 and all(isinstance(d, int) and d >= 0 for d in _leaves(L.stride)):
            b = rng.randint(1, 3)
            s = rng.choice([1, -1]) * rng.randint(b, 4)
            out.append(formula(ComposedLayout(Swizzle(b, rng.randint(0, 3), s), 0, L)))
    return out


def _leaves(t):
    return [x for s in t for x in _leaves(s)] if isinstance(t, tuple) else [t]


def test_to_c_equals_cute_at_every_coordinate():
    """Each case defines the generated function in the preamble and compares it with the CuTe layout at
    every coordinate (one index per top-level mode), printing the number of disagreements."""
    oracle = oracle_or_skip()
    formulas = _c_cases(200 if large() else 60)
    preamble, bodies = [], {}
    for i, f in enumerate(formulas):
        preamble.append(f.to_c(name=f"f{i}"))
        modes = f.layout.shape if isinstance(f.layout.shape, tuple) else (f.layout.shape,)
        rank = len(modes)
        sizes = [Layout(m).size() for m in modes]
        loops = "".join(f"for (int c{k} = 0; c{k} < {s}; ++c{k}) " for k, s in enumerate(sizes))
        args = ", ".join(f"c{k}" for k in range(rank))
        call = f"L({args})" if rank else "L()"
        mine = f"f{i}({args})"
        bodies[f"c-{i}"] = (f"auto L = {to_cpp(f.layout)}; int bad = 0; long n = 0; "
                            f"{loops}{{ ++n; if ({mine} != {call}) ++bad; }} "
                            f"printf(\"%d of %ld\\n\", bad, n);")
    results = oracle.run(bodies, preamble="#include <cstdio>\nusing namespace cute;\n" + "\n".join(preamble) + "\n")
    c = COUNTS["code:to_c"]
    bad = []
    for i, f in enumerate(formulas):
        res = results[f"c-{i}"]
        c["cases"] += 1
        assert res.ok, f"{f.layout}: the C did not compile or run ({res.status}: {res.error})\n{f.to_c()}"
        c["valid"] += 1
        wrong, _, total = res.raw_output.strip().partition(" of ")
        if wrong != "0" or int(total) != f.size():
            c["mismatch"] += 1
            bad.append(f"{f.layout}: {res.raw_output.strip()}\n{f.to_c()}")
    assert not bad, f"{len(bad)} of {len(formulas)} C functions disagree with CuTe:\n" + "\n".join(bad[:5])


DSL_RECORDS = Path(__file__).resolve().parents[1] / "data" / "dsl_printed.jsonl"


def test_dsl_spelling_printed_by_cute_dsl_reads_back():
    """CuTe DSL (recorded by tests/differential/record_dsl.py): the value each to_dsl spelling builds
    prints as the layout it came from, and symcute reads both the print and the MLIR type back."""
    records = [json.loads(line) for line in DSL_RECORDS.read_text(encoding="utf-8").splitlines()]
    wanted = {to_dsl(v): v for v in dsl_corpus()}
    assert len(records) == len(wanted), "tests/data/dsl_printed.jsonl is stale: run record_dsl.py"
    c = COUNTS["code:to_dsl (recorded CuTe DSL)"]
    bad = []
    for r in records:
        c["cases"] += 1
        c["valid"] += 1
        v = wanted[r["dsl"]]
        if parse_layout(r["printed"]) != v or parse_layout(r["type"]) != v or \
                r["printed"].replace("S<", "Sw<") != str(v):
            c["mismatch"] += 1
            bad.append(f"{v}: {r}")
    assert not bad, "\n".join(bad[:10])
