"""Static and run-time integers in core (symcute.core.integer): CuTe's type rules, notation, same functions.

The values of mixed static/run-time operations are checked against real CuTe in
tests/differential/test_dynamic_vs_cute.py; here: the arithmetic type rules of
``integral_constant.hpp``, the notation round trip, and that a run-time code
path computes the same function as the static one wherever both give a value.
"""

from __future__ import annotations

import pickle
import random

import pytest

import symcute as sc
from symcute import Layout
from symcute.core import int_tuple as it
from symcute.core.integer import DynamicInt, cmax, cmin, dynamic, is_constant, is_static, signum
from symcute.errors import LayoutError, SymcuteError
from tests.differential.core_cases import rand_layout
from tests.differential.dynamic_cases import mix

D = DynamicInt


def kind(x):
    return type(x).__name__


@pytest.mark.parametrize("expr, value, static", [
    (lambda: 2 * 3, 6, True),
    (lambda: D(2) * 3, 6, False),
    (lambda: 3 * D(2), 6, False),
    (lambda: 0 * D(5), 0, True),        # _0 * x
    (lambda: D(5) * 0, 0, True),        # x * _0
    (lambda: D(0) * 5, 0, False),       # a run-time 0 is not static
    (lambda: 0 // D(5), 0, True),       # _0 / x
    (lambda: D(5) % 1, 0, True),        # x % _1
    (lambda: D(5) % -1, 0, True),       # x % _-1
    (lambda: 0 % D(5), 0, True),        # _0 % x
    (lambda: D(7) % 4, 3, False),
    (lambda: 0 & D(5), 0, True),
    (lambda: D(5) + 0, 5, False),
    (lambda: -D(5), -5, False),
    (lambda: abs(D(-5)), 5, False),
    (lambda: D(7) // 2, 3, False),
    (lambda: it.cdiv(D(-7), 2), -3, False),
    (lambda: it.cmod(D(-7), 2), -1, False),
    (lambda: it.cmod(D(-7), 1), 0, True),
    (lambda: it.ceil_div(D(7), 2), 4, False),
    (lambda: it.ceil_div(7, 2), 4, True),
    (lambda: cmin(D(3), 5), 3, False),
    (lambda: cmin(3, D(5)), 3, False),   # cute::min of a run-time value is run-time, whichever is smaller
    (lambda: cmin(3, 5), 3, True),
    (lambda: cmax(3, D(5)), 5, False),
    (lambda: signum(D(-4)), -1, False),
    (lambda: signum(-4), -1, True),
    (lambda: it.product((2, D(3), 4)), 24, False),
    (lambda: it.product((2, 3)), 6, True),
])
def test_integral_constant_rules(expr, value, static):
    got = expr()
    assert got == value
    assert (type(got) is int) == static, (got, kind(got))


def test_dynamic_int_is_an_int_value():
    x = D(4)
    assert x == 4 and hash(x) == hash(4) and str(x) == "4" and f"{x}" == "4" and repr(x) == "4"
    assert pickle.loads(pickle.dumps(x)) == 4 and type(pickle.loads(pickle.dumps(x))) is D
    assert Layout((2, D(3)), (1, 2)) == Layout((2, 3), (1, 2))   # equality of values, as CuTe's operator==
    assert is_static((2, (3, 4))) and not is_static((2, (D(3), 4)))
    assert is_constant(1, 1) and not is_constant(1, D(1))
    assert dynamic((1, (2, 3))) == (1, (2, 3)) and not is_static(dynamic((1, (2, 3))))
    with pytest.raises(LayoutError):
        dynamic("4")
    with pytest.raises(LayoutError, match="needs an int, got a bool"):   # a symcute error (issue 28 item 4)
        D(True)


def test_notation_round_trip():
    L = Layout.parse("((_4,8),_2):((_1,4),32)")
    assert L.cute_str() == "((_4,8),_2):((_1,4),32)"
    assert str(L) == "((4,8),2):((1,4),32)" and not L.is_static()
    assert Layout.parse("((4,8),2):((1,4),32)").is_static()           # no `_n`: symcute's notation, static
    assert Layout.parse("((_4,_8),_2):((_1,_4),_32)").is_static()     # CuTe's print of a static layout
    assert Layout.parse("(_2,-3):(_-1,4)").cute_str() == "(_2,-3):(_-1,4)"
    assert sc.parse_int_tuple("(_32,16)") == (32, 16) and type(sc.parse_int_tuple("(_32,16)")[1]) is D
    assert it.format_int_tuple((2, D(3)), static_marks=True) == "(_2,3)"
    rng = random.Random(5)
    for _ in range(300):
        base = rand_layout(rng)
        L = Layout(mix(rng, base.shape, 0.4), mix(rng, base.stride, 0.4))
        text = L.cute_str()
        again = Layout.parse(text)
        if "_" in text:
            assert again == L and again.cute_str() == text, text
        else:   # every leaf run-time: a text without `_n` is symcute's notation, all static
            assert again == L and again.is_static(), text


def test_issue_examples():
    assert sc.coalesce(Layout.parse("(_2,1,_3):(3,_3,_1)")).cute_str() == "(_2,1,_3):(3,_3,_1)"
    assert sc.coalesce(Layout.parse("(2,1,3):(3,3,1)")).cute_str() == "(_2,_3):(_3,_1)"
    assert sc.composition(Layout.parse("(256,_4):(_1,256)"), 128).cute_str() == "(128,1):(_1,256)"
    with pytest.raises(LayoutError, match="Dynamic-stride complement only for rank-1"):
        sc.complement(Layout((2, 4), (D(1), 2)), 16)
    with pytest.raises(LayoutError, match="Left inverse requires static strides"):
        sc.left_inverse(Layout((2, 4), (D(1), 2)))


def _same_function(a: Layout, b: Layout, n: int) -> bool:
    return all(a(i) == b(i) for i in range(n))


@pytest.mark.parametrize("op", ["coalesce", "upcast"])
def test_run_time_paths_compute_the_same_function(op):
    """Where both the all-static and the mixed input give a value, it is the same function on the domain.

    (The run-time path may keep more modes; upcast of a run-time stride assumes it divisible, so those
    inputs are drawn with strides that are.  composition and the divides are not in this list on purpose:
    on run-time values CuTe does not check the Divisibility Conditions, and the run-time path divides
    through a differently coalesced layout, so CuTe's value can be another function, e.g.
    logical_divide((3,4):(1,3), 2:1) with a run-time 3 has size 16, the static one 12.)"""
    rng = random.Random(f"same:{op}")
    compared = 0
    for _ in range(200):
        base = rand_layout(rng)
        L = Layout(mix(rng, base.shape, 0.3), mix(rng, base.stride, 0.3))
        if op == "coalesce":
            args_static, args_mixed = (base,), (L,)
        else:
            n = rng.choice([2, 4])
            base = Layout(base.shape, it.transform_leaf(base.stride, lambda d: d * n * 2))
            L = Layout(mix(rng, base.shape, 0.3), mix(rng, base.stride, 0.3))
            args_static, args_mixed = (base, n), (L, n)
        fn = getattr(sc, op)
        try:
            want, got = fn(*args_static), fn(*args_mixed)
        except SymcuteError:
            continue
        size = int(want.size())
        assert got.size() == size and _same_function(want, got, min(size, 1024)), (op, args_mixed, want, got)
        compared += 1
    assert compared >= 100, compared
