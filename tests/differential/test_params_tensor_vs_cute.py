"""Parametric tensors against real CuTe with run-time ints: local_tile, partition_A/B/C, partition_S/D.

Each case builds ``make_tensor(counting_iterator<int>(0), make_layout(make_shape(M, K),
make_stride(K, Int<1>{})))`` with run-time ``int M, K``, tiles it with ``local_tile`` at a
run-time tile coordinate, and partitions it with a TiledMMA (SM80 16x8x16, 2x2x1) or a
TiledCopy (128-bit cp.async, 32x4 threads x 8 values) for a run-time thread index.  CuTe
prints the partition's layout (``_n`` static, run-time values plain) and its offset; the
parametric result, printed at the same values, must be the same text.

``test_parametric_partitions_vs_cute`` does the same for the other operands: partition_B of an (N, K)
tensor, partition_C of an (M, N) tensor and partition_D of an (M, K) tensor (the cp.async TiledCopy, whose
destination layout is its source layout, and an ldmatrix TiledCopy built by ``make_tiled_copy_A``, whose
destination is the register fragment), each tensor row- or column-major, with random CTA tiles, partial
last tiles where a parameter is not a multiple of its tile.
"""

from __future__ import annotations

import os
import random
import re

import pytest
import sympy

import symcute as sc
from symcute.atoms import make_tiled_copy, make_tiled_copy_A
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
LDSM = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"), MMA)
LDSM_CPP = f"make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{{}}, {MMA_CPP})"
PARTITIONS_CI = 12      # per kind; the large run takes PARTITIONS_LARGE
PARTITIONS_LARGE = 300
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


def _compare_with_cute(oracle, cs):
    """Compile every case's CuTe program in one batch; each instantiated tensor's layout (CuTe's notation)
    and offset must print as CuTe prints them. Counts go to COUNTS under param-tensor:<kind>."""
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


def test_parametric_tensors_vs_cute():
    oracle = oracle_or_skip()
    cs = cases(CASES_LARGE if large() else CASES_CI, SEED)
    _compare_with_cute(oracle, cs)


# --- partition_B, partition_C, partition_D ------------------------------------------------------------------

PARTITION_KINDS = {   # kind: (parameter names, tile extents to pick from per mode)
    "partition_B": ("N K", ([16, 32, 64], [16, 32])),
    "partition_C": ("M N", ([32, 64, 128], [16, 32, 64])),
    "partition_D": ("M K", ([32, 64, 128], [16, 32])),
}


def partition_cases(kind: str, n: int, seed: int):
    """``n`` random (tensor, tile, tile coordinate, thread) cases of one partition kind."""
    rng = random.Random(f"{seed}-{kind}")
    names, (tiles0, tiles1) = PARTITION_KINDS[kind]
    X, Y = names.split()
    out = []
    for i in range(n):
        copy, copy_cpp = (COPY, COPY_CPP) if kind == "partition_D" and rng.random() < 0.5 else (LDSM, LDSM_CPP)
        b0, b1 = (128, 32) if copy is COPY and kind == "partition_D" else (rng.choice(tiles0), rng.choice(tiles1))
        r = rng.random()
        mult = {X: b0, Y: b1} if r < 0.6 else {X: b0} if r < 0.8 else {}
        ps = P.params(names, multiple_of=mult)
        vals = ps.random_values(rng, span=4)
        for name, b in ((X, b0), (Y, b1)):
            if name not in mult:   # any positive extent: the last tile may be partial
                vals[name] = rng.randint(b, 3 * b)
        c0, c1 = rng.randrange(-(-vals[X] // b0)), rng.randrange(-(-vals[Y] // b1))
        t = rng.randrange(128)
        row_major = rng.random() < 0.5
        stride, stride_cpp = (((ps[Y], 1), f"make_stride({Y}, Int<1>{{}})") if row_major
                              else ((1, ps[X]), f"make_stride(Int<1>{{}}, {X})"))
        L = P.layout((ps[X], ps[Y]), stride, ps)
        body = (f"int {X} = {vals[X]}; int {Y} = {vals[Y]}; int c0 = {c0}; int c1 = {c1}; int tid = {t};\n"
                f"auto mT = make_tensor(counting_iterator<int>(0), make_layout(make_shape({X}, {Y}), {stride_cpp}));\n"
                f"auto gT = local_tile(mT, make_tile(Int<{b0}>{{}}, Int<{b1}>{{}}), make_coord(c0, c1));\n")
        if kind == "partition_D":
            body += f"auto tc = {copy_cpp}; auto p = tc.get_slice(tid).partition_D(gT);" + PRINT

            def compute(L=L, copy=copy, b=(b0, b1), c=(c0, c1), t=t):
                return T.partition_copy(copy, "D", T.local_tile(L, b, c), t)
        else:
            op = kind[-1]
            body += f"auto mma = {MMA_CPP}; auto p = mma.get_slice(tid).partition_{op}(gT);" + PRINT

            def compute(L=L, op=op, b=(b0, b1), c=(c0, c1), t=t):
                return T.partition(MMA, op, T.local_tile(L, b, c), t)
        major = "row" if row_major else "col"
        out.append((f"param-{kind}-{major}#{i}", kind, ps, vals, body, compute))
    return out


def test_parametric_partitions_vs_cute():
    oracle = oracle_or_skip()
    n = PARTITIONS_LARGE if large() else PARTITIONS_CI
    cs = [c for kind in PARTITION_KINDS for c in partition_cases(kind, n, SEED)]
    _compare_with_cute(oracle, cs)
