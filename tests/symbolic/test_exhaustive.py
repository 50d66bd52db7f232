"""The vectorised, chunked enumeration (symcute.symbolic.exhaustive) against core's scalar evaluation.

Random plain layouts (negative, zero and int64-overflowing strides), swizzled composed layouts (negative
shifts, negative and uint32 offsets), layouts composed with layouts, and Compose terms, evaluated at
negative and positive inputs: every value equal to core's.  The set questions (first collision, first
difference, first missing value, shared and outside values) against plain Python on the same values, with
a chunk small enough that the answers cross chunk boundaries.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from symcute.core import ComposedLayout, Layout, Swizzle
from symcute.core.composed import UInt32
from symcute.errors import LayoutError, LimitError
from symcute.symbolic import exhaustive
from symcute.symbolic.linear import Compose, evaluate

STRIDES = (0, 1, 2, 3, -1, -2, -5, 7, 16, 64, -64, 9, 1 << 40, -(1 << 61), 1 << 62, 1 << 70)


def _layout(rng, wide=False):
    r = rng.randint(1, 4)
    shape = tuple(rng.choice((1, 2, 3, 4, 5, 7, 8, 16)) for _ in range(r))
    stride = tuple(rng.choice(STRIDES if wide else STRIDES[:12]) for _ in range(r))
    if rng.random() < 0.3 and r > 1:   # a nested mode
        return Layout((shape[:2],) + shape[2:], ((stride[:2],) + stride[2:]))
    return Layout(shape, stride)


def _swizzle(rng):
    b = rng.randint(0, 3)
    return Swizzle(b, rng.randint(0, 4), rng.choice((1, -1)) * rng.randint(max(b, 1), b + 2))


def _term(rng):
    k = rng.randrange(6)
    L = _layout(rng, wide=rng.random() < 0.15)
    if k == 1:
        return ComposedLayout(_swizzle(rng), rng.choice((0, 1, 5, -7, UInt32(3), UInt32(0xFFFFFFF0))), L)
    if k == 2:
        return Compose(_layout(rng), L)
    if k == 3:
        return ComposedLayout(_layout(rng), rng.choice((0, 3, -4)), L)
    if k == 4:
        return Compose(ComposedLayout(_swizzle(rng), 0, _layout(rng)), L)
    if k == 5:
        return Compose(_swizzle(rng), Compose(_layout(rng), L))
    return L


def _core(term, xs):
    return [evaluate(term, int(x)) for x in xs]


def test_values_are_cores_on_random_terms():
    rng = random.Random(20261202)
    compared = 0
    for _ in range(1500):
        T = _term(rng)
        n = rng.randint(1, 700)
        inputs = np.arange(-(n // 3), n, dtype=np.int64)
        try:
            want = _core(T, inputs)
        except (LayoutError, ZeroDivisionError):
            continue
        got = exhaustive.apply(T, inputs)
        assert [int(v) for v in got.tolist()] == want, T
        compared += 1
    assert compared > 1200


def test_values_across_chunks_and_past_int64(monkeypatch):
    monkeypatch.setattr(exhaustive, "CHUNK", 64)
    rng = random.Random(7)
    for _ in range(200):
        T = _term(rng)
        n = rng.randint(1, 1000)
        try:
            want = _core(T, range(n))
        except (LayoutError, ZeroDivisionError):
            continue
        assert [int(v) for v in exhaustive.values(T, n).tolist()] == want, T
    # the top mode's unreduced digit times a stride near 2^62 passes int64: exact Python ints
    L = Layout((4, 8), (1, 1 << 61))
    assert exhaustive.values(L, 32).tolist() == _core(L, range(32))


def test_a_non_positive_extent_is_evaluated_by_core():
    L = Layout((-2, 3), (1, 4))
    assert exhaustive.values(L, 5).tolist() == _core(L, range(5))


def _first_collision(v):
    seen = {}
    for j, x in enumerate(v):
        if x in seen:
            return seen[x], j
        seen[x] = j
    return None


@pytest.mark.parametrize("seed", range(6))
def test_set_questions_agree_with_plain_python(monkeypatch, seed):
    monkeypatch.setattr(exhaustive, "CHUNK", 32)
    rng = random.Random(seed)
    for _ in range(150):
        n = rng.randint(1, 400)
        spread = rng.choice((2, n, 3 * n, 100 * n))   # a narrow range (bitmap) and a wide one (sorted)
        a = np.array([rng.randrange(-spread, spread) for _ in range(n)], dtype=np.int64)
        if rng.random() < 0.4:                         # distinct values: no collision at all
            a = np.array(rng.sample(range(-spread, 2 * n + spread), n), dtype=np.int64)
        b = np.array([rng.randrange(-spread, spread) for _ in range(rng.randint(1, 300))], dtype=np.int64)
        la, lb = a.tolist(), b.tolist()
        assert exhaustive.first_collision(a) == _first_collision(la)
        assert exhaustive.first_collision(a.astype(object)) == _first_collision(la)
        target = rng.randint(1, 2 * n)
        assert exhaustive.first_missing(a, target) == next((y for y in range(target) if y not in set(la)), None)
        x = next((x for x, v in enumerate(la) if v in set(lb)), None)
        assert exhaustive.first_shared(a, b) == (None if x is None else (x, lb.index(la[x])))
        assert exhaustive.first_outside(a, b) == next((x for x, v in enumerate(la) if v not in set(lb)), None)


def test_first_difference_is_the_smallest_across_chunks(monkeypatch):
    monkeypatch.setattr(exhaustive, "CHUNK", 16)
    rng = random.Random(3)
    found = 0
    for _ in range(300):
        L = _term(rng)
        shape = (rng.choice((2, 3, 5)), rng.choice((4, 7)), rng.choice((3, 8)))
        late = rng.random() < 0.5   # differs from N from the top mode on only (past the first chunk)
        M = Compose(L, Layout(shape, (1, shape[0], shape[0] * shape[1] + rng.randint(1, 3)) if late else
                              tuple(rng.choice((1, 2, 3, 5, 8, 0)) for _ in shape)))
        N = Compose(L, Layout(shape, (1, shape[0], shape[0] * shape[1])))   # L itself on size(shape) inputs
        n = shape[0] * shape[1] * shape[2]
        try:
            want = next((i for i in range(n) if evaluate(M, i) != evaluate(N, i)), None)
        except (LayoutError, ZeroDivisionError):
            continue
        assert exhaustive.first_difference(M, N, n) == want
        found += want is not None and want >= 16
    assert found > 20   # differences past the first chunk were looked for and found


def test_the_limit_is_checked_before_evaluating():
    with pytest.raises(LimitError):
        exhaustive.values(Layout(1 << 20, 1), 1 << 20, limit=1 << 10)
    with pytest.raises(LimitError):
        exhaustive.first_difference(Layout(1 << 20, 1), Layout(1 << 20, 1), 1 << 20, limit=1 << 10)


def test_a_small_domain_is_enumerated_before_any_solver(monkeypatch):
    """Up to limits.ENUMERATE_BEFORE_SOLVERS inputs the claim is enumerated: no solver is asked, so neither
    the verdict nor the method depends on a solver's budget; the bound is the checker's default one."""
    from symcute import check
    from symcute.symbolic import exact, limits
    import symcute.symbolic as sym
    assert limits.ENUMERATE_BEFORE_SOLVERS <= check.BOUND

    def no_solver(*a, **k):
        raise AssertionError("a solver was asked before enumeration")
    monkeypatch.setattr(exact, "decide", no_solver)
    m = (1 << 16) // 48 * 48
    sw = ComposedLayout(Swizzle(2, 3, 3), 0, Layout((m // 48, 48), (48, 1)))
    p = sym.is_injective(Compose(sw, Layout((16, m // 16), (m // 16, 1))))
    assert p.proved and p.method == "exhaustive"
    p = sym.is_injective(Compose(sw, Layout((16, m // 16), (m // 16 - 1, 1))))
    x, y = p.counterexample["indices"]
    assert p.refuted and p.method == "exhaustive" and x < y
    term = Compose(sw, Layout((16, m // 16), (m // 16 - 1, 1)))
    assert evaluate(term, x) == evaluate(term, y)
    assert len({evaluate(term, i) for i in range(y)}) == y      # y is the first input that repeats a value


def test_z3s_budget_is_a_count_of_its_steps():
    """The same query under a budget of 1,000 resource units stops, every time, and is decided under the
    default one (no clock involved)."""
    pytest.importorskip("z3")
    from symcute.symbolic import exact, z3_backend
    from symcute.symbolic.isl_backend import Exhausted
    L = Layout((5, 3, 1 << 16), (3, 4, 15))
    for _ in range(2):
        with exact.time_budget(1, 1.0):
            with pytest.raises(Exhausted, match="1000 resource units"):
                z3_backend.injective(L, L.size())
    assert z3_backend.injective(L, L.size())[0] is True
