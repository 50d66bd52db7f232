"""composition's O(log n) division through many lhs modes (``_divide_through``) against CuTe's step loop.

The step loop (``_impl`` without a cache) is the transcription of CuTe's loop that the differential suite checks
against real CuTe; the bisection path must give the same (shape, stride), or the same error text, on every
input it takes, including the refused ones.
"""

from __future__ import annotations

import random

import pytest

import symcute as sc
import importlib

comp = importlib.import_module("symcute.core.composition")
from symcute.errors import LayoutError


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except LayoutError as e:
        return ("error", str(e))


def _lhs_modes(rng, n):
    shape = tuple(rng.choice((2, 2, 3, 4, 6, 8)) for _ in range(n))
    stride = tuple(rng.choice((0, 1, 2, 3, 5, 64)) * rng.choice((1, -1, 7)) for _ in range(n))
    return shape, stride


def _prefix(shape):
    out, p = [1], 1
    for s in shape[:-1]:
        p *= s
        out.append(p)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_divide_through_equals_the_step_loop(seed):
    rng = random.Random(f"divide-through:{seed}")
    lhs, rhs = sc.Layout(4, 1), sc.Layout(2, 1)   # only named in the error texts
    checked = refused = 0
    for _ in range(400):
        n = rng.randint(2, 40)
        lshape, lstride = _lhs_modes(rng, n)
        prefix = _prefix(lshape)
        # strides at, between and past the prefix products (exact divisions, inexact ones, past the end)
        p = rng.choice(prefix + [prefix[-1] * lshape[-1]])
        rstride = rng.choice((p, p * rng.randint(1, 9), max(1, p // rng.randint(1, 5)), p + 1, rng.randint(1, 50)))
        rshape = rng.choice((1, 2, 3, 4, 8, 16, 12, 1000, rng.randint(1, 5000)))
        fast = _outcome(comp._divide_through, prefix, lshape, lstride, rshape, rstride, lhs, rhs)
        slow = _outcome(comp._impl, lshape, lstride, rshape, rstride, lhs, rhs, None)   # the step loop
        assert fast == slow, (lshape, lstride, rshape, rstride)
        checked += 1
        refused += fast[0] == "error"
    assert refused and refused < checked   # both kinds of outcome were exercised


def test_high_rank_composition_is_the_identity_through_a_right_inverse():
    rng = random.Random("rank-sweep")
    n = 300
    shape = tuple(rng.choice((2, 3, 4)) for _ in range(n))
    order = list(range(n))
    rng.shuffle(order)
    stride, p = [0] * n, 1
    for k in order:
        stride[k], p = p, p * shape[k]
    L = sc.Layout(shape, tuple(stride))
    R = sc.right_inverse(L)
    C = sc.composition(L, R)
    assert sc.coalesce(C) == sc.Layout(sc.size(L), 1)
    # the same call with the bisection path disabled (every lhs below the threshold)
    saved = comp._FAST_RANK
    comp._FAST_RANK = 1 << 30
    try:
        assert sc.composition(L, R) == C
    finally:
        comp._FAST_RANK = saved
