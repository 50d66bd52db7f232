"""Parametric tensors against real CuTe with run-time ints: local_tile, partition_A, partition_S.

Each case builds ``make_tensor(counting_iterator<int>(0), make_layout(make_shape(M, K),
make_stride(K, Int<1>{})))`` with run-time ``int M, K``, tiles it with ``local_tile`` at a
run-time tile coordinate, and partitions it with a TiledMMA (SM80 16x8x16, 2x2x1) or a
TiledCopy (128-bit cp.async, 32x4 threads x 8 values) for a run-time thread index.  CuTe
prints the partition's layout (``_n`` static, run-time values plain) and its offset; the
parametric result, printed at the same values, must be the same text.
"""

from __future__ import annotations

import os
import random
import re

import pytest
import sympy

import symcute as sc
from symcute.atoms import make_tiled_copy
from symcute.atoms.copy_catalog import copy_atom
from symcute.symbolic import parametric as P
from symcute.symbolic.parametric import tensor as T
from .harness import COUNTS, large, oracle_or_skip

CASES_CI = 40
CASES_LARGE = 200
SEED = int(os.environ.get("SYMCUTE_DIFF_SEED", "2026"))
MMA = sc.atoms.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
MMA_CPP = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})"
COPY = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"),
                       sc.Layout((32, 4), (4, 1)), sc.Layout((1, 8)))
COPY_CPP = ("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, "
            "Layout<Shape<_32,_4>, Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})")
PRINT = ' print(p.layout()); print(" "); print(raw_pointer_cast(p.data()));'


def _ws(text: str) -> str:
    return re.sub(r"\s+", "", text)


def cases(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = ["local_tile", "partition_A", "partition_S"][i % 3]
        BM, BK = (rng.choice([32, 64, 128]), rng.choice([16, 32])) if kind != "partition_S" else (128, 32)
        mult = {"M": BM, "K": BK} if rng.random() < 0.7 else {"M": BM}
        ps = P.params("M K", multiple_of=mult)
        vals = ps.random_values(rng, span=4)
        if "K" not in mult:   # K any positive integer: the last tile may be partial
            vals["K"] = rng.randint(BK, 3 * BK)
        cb, ck = rng.randrange(-(-vals["M"] // BM)), rng.randrange(-(-vals["K"] // BK))
        t = rng.randrange(128)
        A = P.layout((ps["M"], ps["K"]), (ps["K"], 1), ps)
        body = (f"int M = {vals['M']}; int K = {vals['K']}; int cb = {cb}; int ck = {ck}; int tid = {t};\n"
                f"auto mA = make_tensor(counting_iterator<int>(0), make_layout(make_shape(M, K), "
                f"make_stride(K, Int<1>{{}})));\n"
                f"auto gA = local_tile(mA, make_tile(Int<{BM}>{{}}, Int<{BK}>{{}}), make_coord(cb, ck)); (void)tid;\n")
        if kind == "local_tile":
            body += "auto p = gA;" + PRINT

            def compute(A=A):
                return T.local_tile(A, (BM, BK), (cb, ck))
        elif kind == "partition_A":
            body += f"auto mma = {MMA_CPP}; auto p = mma.get_slice(tid).partition_A(gA);" + PRINT

            def compute(A=A, BM=BM, BK=BK, cb=cb, ck=ck, t=t):
                return T.partition(MMA, "A", T.local_tile(A, (BM, BK), (cb, ck)), t)
        else:
            body += f"auto tc = {COPY_CPP}; auto p = tc.get_slice(tid).partition_S(gA);" + PRINT

            def compute(A=A, cb=cb, ck=ck, t=t):
                return T.partition_copy(COPY, "S", T.local_tile(A, (128, 32), (cb, ck)), t)
        if kind == "local_tile":
            def compute(A=A, BM=BM, BK=BK, cb=cb, ck=ck):
                return T.local_tile(A, (BM, BK), (cb, ck))
        out.append((f"param-tensor-{kind}#{i}", kind, ps, vals, body, compute))
    return out


def test_parametric_tensors_vs_cute():
    oracle = oracle_or_skip()
    cs = cases(CASES_LARGE if large() else CASES_CI, SEED)
    results = oracle.run({key: body for key, _, _, _, body, _ in cs})
    bad = []
    for key, kind, ps, vals, body, compute in cs:
        c = COUNTS[f"param-tensor:{kind}"]
        c["cases"] += 1
        res = results[key]
        assert res.ok, (key, res.status, res.error)
        c["valid"] += 1
        tensor = compute()
        offset = ps.evaluate(ps.inner(tensor.offset_expr()), ps.check_values(vals))
        mine = f"{tensor.layout.cute_str(vals)} {offset}"
        if _ws(mine) != _ws(res.raw_output):
            c["mismatch"] += 1
            bad.append(f"{key} at {vals}:\n  CuTe:    {res.raw_output.strip()}\n  symcute: {mine}")
    assert not bad, "\n".join(bad[:10])
