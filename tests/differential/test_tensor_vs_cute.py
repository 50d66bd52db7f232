"""Tensors, partitions and console tables against real CuTe.

Each case is a C++ body over ``make_tensor(counting_iterator<int>(d), L)`` (or an identity tensor):
partitions print their layout and where they start (``raw_pointer_cast(t.data())``), tables print
themselves.  A case agrees when CuTe prints what symcute returns (static-integer underscores aside),
or when CuTe refuses it (does not compile) and symcute raises a SymcuteError.
"""

from __future__ import annotations

import random
import re

import pytest

from symcute import Layout, _, make_fragment_like, parse_layout, to_cpp
from symcute.core.tensor import (
    dice, inner_partition, local_partition, local_tile, make_identity_tensor, make_tensor, outer_partition,
)
from symcute.errors import SymcuteError
from symcute.report.console import print_layout, print_tensor

from .core_cases import compact, rand_layout, rand_shape
from .harness import COUNTS, large, oracle_or_skip

PREAMBLE = "#include <cute/tensor.hpp>\n#include <cute/util/print_tensor.hpp>\nusing namespace cute;\n"
_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9_])_(?=-?[0-9])")


def _cpp(x) -> str:
    """C++ for a tiler / coordinate / step: static ints in tilers, dynamic ints in coordinates."""
    if x is _:
        return "_"
    if isinstance(x, tuple):
        return "make_tuple(" + ", ".join(_cpp(y) for y in x) + ")"
    if isinstance(x, Layout):
        return to_cpp(x)
    return to_cpp(x)


def _coord(x) -> str:
    if x is _:
        return "_"
    if isinstance(x, tuple):
        return "make_coord(" + ", ".join(_coord(y) for y in x) + ")"
    return f"int({x})"


def _show_tensor(t) -> str:
    return f"{t.layout()} {t.data()}"


PRINT_PART = ' print(t.layout()); print(" "); print(raw_pointer_cast(t.data()));'


def rank2_layout(rng, max_size=256) -> Layout:
    while True:
        L = compact(rng, (rand_shape(rng, 2, 1), rand_shape(rng, 2, 1)))
        if L.rank == 2 and L.size() <= max_size:
            return L


def _divisor(rng, n: int) -> int:
    return rng.choice([d for d in range(1, n + 1) if n % d == 0])


def cases(n: int, seed: int = 1804) -> dict:
    """{key: (C++ body, symcute thunk returning the text CuTe prints, normalised)}."""
    rng = random.Random(seed)
    out = {}
    for i in range(n):
        L = rank2_layout(rng)
        d = rng.randrange(0, 100)
        tensor = f"make_tensor(counting_iterator<int>({d}), {to_cpp(L)})"
        m, k = L[0].size(), L[1].size()
        tiler = (_divisor(rng, m), _divisor(rng, k))
        rest = (m // tiler[0], k // tiler[1])
        coord = (rng.randrange(rest[0]), rng.randrange(rest[1])) if rng.random() < 0.8 else rng.randrange(rest[0] * rest[1])
        out[f"local_tile#{i}"] = (
            f"auto t = local_tile({tensor}, {_cpp(tiler)}, {_coord(coord)});" + PRINT_PART,
            lambda L=L, d=d, tiler=tiler, coord=coord: _show_tensor(local_tile(make_tensor(L, d), tiler, coord)))
        # the CTA idiom: a rank-3 tiler projected with Step<_1,X,_1>, the K coordinate left as _
        tiler3 = (tiler[0], rng.choice([1, 2, 4]), tiler[1])
        coord3 = (rng.randrange(rest[0]), rng.randrange(3), _)
        step = (1, _, 1)
        out[f"local_tile_proj#{i}"] = (
            f"auto t = local_tile({tensor}, {_cpp(tiler3)}, {_coord(coord3)}, Step<_1, X, _1>{{}});" + PRINT_PART,
            lambda L=L, d=d, t3=tiler3, c3=coord3, s=step: _show_tensor(local_tile(make_tensor(L, d), t3, c3, s)))
        thr = compact(rng, (_divisor(rng, m), _divisor(rng, k)), gaps=False)
        idx = rng.randrange(thr.size())
        out[f"local_partition#{i}"] = (
            f"auto t = local_partition({tensor}, {to_cpp(thr)}, {idx});" + PRINT_PART,
            lambda L=L, d=d, thr=thr, idx=idx: _show_tensor(local_partition(make_tensor(L, d), thr, idx)))
        thr3 = Layout((thr.shape[0], 2, thr.shape[1]), (thr.stride[0], 0, thr.stride[1])) \
            if all(isinstance(s, int) for s in thr.shape) else None
        if thr3 is not None:
            out[f"local_partition_proj#{i}"] = (
                f"auto t = local_partition({tensor}, {to_cpp(thr3)}, {idx}, Step<_1, X, _1>{{}});" + PRINT_PART,
                lambda L=L, d=d, thr3=thr3, idx=idx: _show_tensor(local_partition(make_tensor(L, d), thr3, idx,
                                                                                   (1, _, 1))))
        oc = (rng.randrange(tiler[0]),)
        out[f"outer_partition#{i}"] = (
            f"auto t = outer_partition({tensor}, {_cpp(tiler)}, {_coord(oc)});" + PRINT_PART,
            lambda L=L, d=d, tiler=tiler, oc=oc: _show_tensor(outer_partition(make_tensor(L, d), tiler, oc)))
        out[f"inner_partition#{i}"] = (
            f"auto t = inner_partition({tensor}, {_cpp(tiler)}, {_coord(coord)});" + PRINT_PART,
            lambda L=L, d=d, tiler=tiler, coord=coord: _show_tensor(inner_partition(make_tensor(L, d), tiler, coord)))
        out[f"print_layout#{i}"] = (f"print_layout({to_cpp(L)});", lambda L=L: print_layout(L))
        T = rand_layout(rng, max_rank=4, depth=1)
        if T.size() <= 512 and 1 <= T.rank <= 4:
            out[f"print_tensor#{i}"] = (
                f"print_tensor(make_tensor(counting_iterator<int>({d}), {to_cpp(T)}), false);",
                lambda T=T, d=d: print_tensor(make_tensor(T, d), False))
        shape = (m, k)
        ic = (rng.randrange(rest[0]), rng.randrange(rest[1]))
        out[f"identity_tile#{i}"] = (
            f"auto t = local_tile(make_identity_tensor({_cpp(shape)}), {_cpp(tiler)}, {_coord(ic)}); print(t);"
            f" print(\"\\n\"); print_tensor(t, false);",
            lambda shape=shape, tiler=tiler, ic=ic: _identity(local_tile(make_identity_tensor(shape), tiler, ic)))
        F = rand_layout(rng)
        out[f"make_fragment_like#{i}"] = (f"print(make_fragment_like({to_cpp(F)}));",
                                          lambda F=F: str(make_fragment_like(F)))
        a = tuple(rng.choice([1, _]) for _i in range(3))
        b = (2, 3, 4)
        out[f"dice#{i}"] = (f"print(dice({_cpp(a)}, {_cpp(b)}));", lambda a=a, b=b: _tuple_text(dice(a, b)))
    for j, text in enumerate(SWIZZLED):
        S = parse_layout(text)
        out[f"print_layout_swizzled#{j}"] = (f"print_layout({to_cpp(S)});", lambda S=S: print_layout(S))
    return out


SWIZZLED = ["Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<2,0,2> o 0 o (4,4):(4,1)", "Sw<1,1,2> o 2 o (4,8):(1,4)"]


def _identity(t) -> str:
    return f"{t}\n" + print_tensor(t, False)


def _tuple_text(t) -> str:
    if isinstance(t, tuple):
        return "(" + ",".join(_tuple_text(x) for x in t) + ")"
    return str(t)


def test_tensors_partitions_and_tables_equal_cute():
    oracle = oracle_or_skip()
    table = cases(150 if large() else 30)
    results = oracle.run({k: body for k, (body, _t) in table.items()}, preamble=PREAMBLE)
    bad = []
    for key, (body, thunk) in table.items():
        op = key.split("#")[0]
        c = COUNTS[f"tensor:{op}"]
        c["cases"] += 1
        res = results[key]
        try:
            mine, ok = thunk(), True
        except SymcuteError as e:
            mine, ok = f"{type(e).__name__}: {e}", False
        if res.ok:
            c["valid"] += 1
            cute = _UNDERSCORE.sub("", res.raw_output)
            if not ok or mine.rstrip("\n") != cute.rstrip("\n"):
                c["mismatch"] += 1
                bad.append(f"{key}: {body}\n  CuTe:    {cute!r}\n  symcute: {mine!r}")
        else:
            c["refused"] += 1
            if ok:
                c["mismatch"] += 1
                bad.append(f"{key}: {body}\n  CuTe refused it ({res.status}: {(res.error or '')[:200]})\n"
                           f"  symcute: {mine!r}")
    assert not bad, f"{len(bad)} of {len(table)} cases differ from CuTe:\n" + "\n".join(bad[:8])


def test_local_partition_refuses_a_non_integer_index():
    with pytest.raises(SymcuteError, match="is_integral"):
        local_partition(make_tensor(Layout((8, 8))), Layout((2, 4)), (1, 2))
