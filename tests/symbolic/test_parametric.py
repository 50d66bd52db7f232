"""Parametric layouts: construction, the issue's examples, refusals, and instantiation against core.

The C++ comparison (the specification) is tests/differential/test_params_vs_cute.py;
here core stands in where CuTe's run-time and compile-time paths take the
same branches, so that no compiler is needed.
"""

from __future__ import annotations

import random

import pytest
import sympy

import symcute as sc
from symcute.errors import LayoutError, ParseError, SymcuteError
from symcute.symbolic import parametric as P
from symcute.symbolic.parametric import tensor as T

from tests.differential.param_cases import OPS, cases


@pytest.fixture
def MK():
    ps = P.params("M K", multiple_of={"M": 128, "K": 32})
    return ps, ps["M"], ps["K"]


def test_zipped_divide_closed_form(MK):
    ps, M, K = MK
    A = P.layout((M, K), (K, 1))
    assert str(A) == "(M,K):(K,1)"
    assert A.cute_str() == "(M,K):(K,_1)"
    Z = P.zipped_divide(A, (128, 32))
    assert str(Z) == "((128,32),(M/128,K/32)):((K,1),(128*K,32))"
    assert Z.cute_str({"M": 256, "K": 64}) == "((_128,_32),(2,2)):((64,_1),(8192,_32))"
    assert Z.subs({"M": 256, "K": 64}) == sc.Layout(((128, 32), (2, 2)), ((64, 1), (8192, 32)))


def test_without_divisibility_the_tile_count_is_a_ceil_div():
    ps = P.params("M K")
    Z = P.zipped_divide(P.layout((ps["M"], ps["K"]), (ps["K"], 1)), (128, 32))
    assert str(Z) == "((128,32),(ceil_div(M,128),ceil_div(K,32))):((K,1),(128*K,32))"
    assert Z.subs({"M": 300, "K": 40}).shape == ((128, 32), (3, 2))


def test_pasted_cute_print_keeps_dynamic_integers():
    # the example: 1 and 3 are run-time ints in CuTe's print, so nothing merges
    L = P.parse("(_2,1,_3):(3,_3,_1)", P.params(""))
    assert P.coalesce(L).cute_str() == "(_2,1,_3):(3,_3,_1)"
    assert str(P.coalesce(P.parse("(2,1,3):(3,3,1)", P.params("")))) == str(sc.coalesce(sc.Layout((2, 1, 3), (3, 3, 1))))


def test_dynamic_strides_do_not_coalesce(MK):
    ps, M, K = MK
    assert str(P.coalesce(P.layout((M, K), (1, M)))) == "(M,K):(1,M)"
    # subs keeps the run-time leaves (core's DynamicInt): core then takes CuTe's run-time path too
    inst = P.layout((M, K), (1, M)).subs({"M": 128, "K": 32})
    assert sc.coalesce(inst).cute_str() == "(128,32):(_1,128)"
    # the same values all static merge, as CuTe's compile-time path does
    assert sc.coalesce(sc.Layout((128, 32), (1, 128))) == sc.Layout(4096, 1)


def test_missing_condition_is_named():
    ps = P.params("N")
    with pytest.raises(LayoutError, match=r"Shape Divisibility Condition: needs 128 divisible by min\(128,N\)"):
        P.composition(P.layout((ps["N"], 4), (1, ps["N"])), 128)
    ok = P.params("N", multiple_of={"N": 128})
    R = P.composition(P.layout((ok["N"], 4), (1, ok["N"])), 128)
    assert R.cute_str({"N": 256}) == "(128,1):(_1,256)"   # cute::min of a run-time N is run-time


def test_refusal_names_a_real_counterexample():
    ps = P.params("K")
    with pytest.raises(LayoutError, match="fails for the admissible values K="):
        P.upcast(P.layout((2, 4), (ps["K"], 2)), 8)
    P.params("K", multiple_of={"K": 8})
    assert str(P.upcast(P.layout((2, 4), (P.params("K", multiple_of={"K": 8})["K"], 2)), 8)) == "(2,1):(K/8,1)"


def test_subs_checks_side_conditions(MK):
    ps, M, K = MK
    A = P.layout((M, K), (K, 1))
    with pytest.raises(SymcuteError, match="violates its side condition"):
        A.subs({"M": 100, "K": 64})
    with pytest.raises(SymcuteError, match="no value for parameter K"):
        A.subs({"M": 128})


def test_parse_refuses_undeclared_and_never_evaluates(MK):
    ps, M, K = MK
    assert P.parse("(M,K):(K,1)", ps) == P.layout((M, K), (K, 1))
    assert str(P.parse("(M,(4,K)):(1,(M,4*M))", ps)) == "(M,(4,K)):(1,(M,4*M))"
    with pytest.raises(ParseError, match="N is not a declared parameter"):
        P.parse("(M,N):(1,M)", ps)
    with pytest.raises(ParseError):
        P.parse("(M,K):(__import__('os'),1)", ps)


def test_static_inverses_only(MK):
    ps, M, K = MK
    with pytest.raises(LayoutError, match="is_static"):
        P.right_inverse(P.layout((M, K), (K, 1)))
    L = P.layout((4, 8), (8, 1), ps)
    assert P.right_inverse(L).subs({"M": 128, "K": 32}) == sc.right_inverse(sc.Layout((4, 8), (8, 1)))


def test_local_tile_and_partition_agree_with_core(MK):
    ps, M, K = MK
    mma = sc.atoms.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    bm, bk = sympy.symbols("bm bk", integer=True, nonnegative=True)
    g = T.local_tile(P.layout((M, K), (K, 1)), (128, 32), (bm, bk))
    rng = random.Random(5)
    for _ in range(12):
        vals = ps.random_values(rng, span=3)
        tiles = sc.zipped_divide(sc.Layout((vals["M"], vals["K"]), (vals["K"], 1)), (128, 32))
        cb, ck = rng.randrange(vals["M"] // 128), rng.randrange(vals["K"] // 32)
        core_tile = sc.slice_(((sc._, sc._), (cb, ck)), tiles)
        base = tiles(((0, 0), (cb, ck)))
        t = rng.randrange(128)
        part = T.partition(mma, "A", g, t)
        off = int(part.offset_expr().subs({bm: cb, bk: ck, K: vals["K"], M: vals["M"]}))
        thr = mma.get_slice(t)
        assert part.layout.subs(vals) == thr.partition_A(core_tile)
        assert off == base + thr.partition_offset("A", core_tile)


def _core_agrees(case, result):
    """core on the instantiated input, as a function (its structure may differ: it is all-static)."""
    try:
        k = case.core()
    except SymcuteError:
        return None
    r = result.subs(case.values)
    n = r.size()
    return n == k.size() and all(r(i) == k(i) for i in range(min(n, 1024)))


def _same_branches(case) -> bool:
    """CuTe's static and run-time paths coincide: coalesce sees the same modes, no dynamic +-1 strides."""
    L = case.inputs[0]
    if str(P.coalesce(L).subs(case.values)) != str(sc.coalesce(L.subs(case.values))):
        return False
    flat = [L.stride] if not isinstance(L.stride, tuple) else list(sc.core.int_tuple.flatten_to_tuple(L.stride))
    return not any(type(d) is not int and abs(L.params.evaluate(d, L.params.check_values(case.values))) == 1
                   for d in flat)


@pytest.mark.parametrize("op", sorted(OPS))
def test_instantiation_agrees_with_core(op):
    """>= 300 random (parametric input, admissible values) per operation where subs equals core's function."""
    agree = 0
    for case in cases(op, 700, 11):
        try:
            result = case.compute()
        except SymcuteError:
            continue
        if not _same_branches(case):
            continue
        same = _core_agrees(case, result)
        if same is None:
            continue
        assert same, f"{case.text} at {case.values}: {result.subs(case.values)} vs core {case.core()}"
        agree += 1
        if agree == 300:
            break
    assert agree >= 300, (op, agree)


def test_tiled_copy_partition_S_agrees_with_core(MK):
    from symcute.atoms import make_tiled_copy
    from symcute.atoms.copy_catalog import copy_atom
    ps, M, K = MK
    tc = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"),
                         sc.Layout((32, 4), (4, 1)), sc.Layout((1, 8)))
    bm, bk = sympy.symbols("bm bk", integer=True, nonnegative=True)
    g = T.local_tile(P.layout((M, K), (K, 1), ps), (128, 32), (bm, bk))
    rng = random.Random(9)
    for _ in range(10):
        vals = ps.random_values(rng, span=3)
        tiles = sc.zipped_divide(sc.Layout((vals["M"], vals["K"]), (vals["K"], 1)), (128, 32))
        cb, ck = rng.randrange(vals["M"] // 128), rng.randrange(vals["K"] // 32)
        core_tile = sc.slice_(((sc._, sc._), (cb, ck)), tiles)
        base = tiles(((0, 0), (cb, ck)))
        t = rng.randrange(128)
        part = T.partition_copy(tc, "S", g, t)
        thr = tc.get_slice(t)
        assert part.layout.subs(vals) == thr.partition_S(core_tile)
        off = int(part.offset_expr().subs({bm: cb, bk: ck, K: vals["K"], M: vals["M"]}))
        assert off == base + thr.partition_offset("S", core_tile)


def test_local_partition_agrees_with_core(MK):
    ps, M, K = MK
    A = P.layout((M, K), (K, 1), ps)
    tile = sc.Layout((16, 8), (8, 1))
    rng = random.Random(3)
    for _ in range(10):
        vals = ps.random_values(rng, span=3)
        idx = rng.randrange(tile.size())
        mine = T.local_partition(A, tile, idx)
        core_A = sc.Layout((vals["M"], vals["K"]), (vals["K"], 1))
        # CuTe's outer_partition: zipped_divide by the tile's shape, slice the tile mode at the thread's coordinate
        from symcute.atoms.tiled_mma import get_flat_coord
        crd = get_flat_coord(tile, idx)
        tiled = sc.zipped_divide(core_A, (16, 8))
        expect = sc.slice_((crd, (sc._, sc._)), tiled)
        assert mine.layout.subs(vals) == expect
        assert int(mine.offset_expr().subs({K: vals["K"], M: vals["M"]})) == tiled((crd, (0, 0)))


@pytest.mark.parametrize("op,tile", [("B", (64, 32)), ("C", (128, 64))])
def test_partition_B_and_C_agree_with_core(MK, op, tile):
    ps, M, K = MK
    mma = sc.atoms.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    g = T.local_tile(P.layout((M, K), (K, 1), ps), tile, (1, 0))
    rng = random.Random(13)
    for _ in range(6):
        vals = ps.random_values(rng, span=3)
        vals["M"] = max(vals["M"], 256)
        core_tile = sc.slice_(((sc._, sc._), (1, 0)),
                              sc.zipped_divide(sc.Layout((vals["M"], vals["K"]), (vals["K"], 1)), tile))
        t = rng.randrange(128)
        part = T.partition(mma, op, g, t)
        thr = mma.get_slice(t)
        assert part.layout.subs(vals) == getattr(thr, f"partition_{op}")(core_tile)
