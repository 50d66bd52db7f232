"""Hypothesis strategies and a seeded generator for small layouts (shared by the symbolic tests)."""

import random

from hypothesis import strategies as st

from symcute import Layout
import symcute.core as core

EXTENTS = [1, 2, 2, 2, 3, 4, 4, 8]
STRIDES = [0, 1, 1, 2, 2, 3, 4, 4, 6, 8, 8, 16, 16, 32, 64, 128]


@st.composite
def layouts(draw, max_modes=4, negative=False):
    n = draw(st.integers(1, max_modes))
    shape = [draw(st.sampled_from(EXTENTS)) for _ in range(n)]
    pool = STRIDES + ([-1, -2, -4] if negative else [])
    stride = [draw(st.sampled_from(pool)) for _ in range(n)]
    if n >= 3 and draw(st.booleans()):
        k = draw(st.integers(1, n - 1))
        return Layout((tuple(shape[:k]), tuple(shape[k:])), (tuple(stride[:k]), tuple(stride[k:])))
    return Layout(tuple(shape), tuple(stride))


@st.composite
def compact_layouts(draw, max_modes=3):
    n = draw(st.integers(1, max_modes))
    shape = tuple(draw(st.sampled_from([2, 2, 4, 3, 8])) for _ in range(n))
    order = draw(st.permutations(list(range(n))))
    return core.make_ordered_layout(shape, tuple(order))


def random_layout(rng: random.Random, max_modes=4, negative=False, max_size=512) -> Layout:
    while True:
        n = rng.randint(1, max_modes)
        shape = [rng.choice(EXTENTS) for _ in range(n)]
        pool = STRIDES + ([-1, -2, -4] if negative else [])
        stride = [rng.choice(pool) for _ in range(n)]
        size = 1
        for s in shape:
            size *= s
        if size > max_size:
            continue
        if n >= 3 and rng.random() < 0.4:
            k = rng.randint(1, n - 1)
            return Layout((tuple(shape[:k]), tuple(shape[k:])), (tuple(stride[:k]), tuple(stride[k:])))
        return Layout(tuple(shape), tuple(stride))


def random_bijection(rng: random.Random, max_modes=4) -> Layout:
    """A compact layout with permuted strides (a bijection onto [0, size))."""
    n = rng.randint(1, max_modes)
    shape = tuple(rng.choice([2, 3, 4, 2, 8]) for _ in range(n))
    order = list(range(n))
    rng.shuffle(order)
    return core.make_ordered_layout(shape, tuple(order))


def random_pow2_layout(rng: random.Random, max_bits=10, compact_bias=0.6) -> Layout:
    """A layout whose extents and strides are powers of two (often a permutation of the offset bits)."""
    n = rng.randint(1, 4)
    logs = [rng.randint(0, 3) for _ in range(n)]
    while sum(logs) > max_bits:
        logs[rng.randrange(n)] = 0
    shape = tuple(1 << e for e in logs)
    if rng.random() < compact_bias:
        return core.make_ordered_layout(shape, tuple(rng.sample(range(n), n)))
    stride = tuple(rng.choice([0, 1, 2, 4, 8, 16, 32, 64]) for _ in range(n))
    return Layout(shape, stride)


def random_swizzle(rng: random.Random, max_bits=12) -> "core.Swizzle":
    while True:
        b = rng.randint(0, 3)
        s = rng.choice([1, -1]) * rng.randint(max(b, 1), 4)
        m = rng.randint(0, 4)
        if b + m + abs(s) <= max_bits:
            return core.Swizzle(b, m, s)


def random_swizzled(rng: random.Random, nested=0.2, non_pow2=0.1):
    """``Sw<B,M,S> o O o L`` with L a power-of-two layout (sometimes a non-power-of-two extent, an offset
    or a swizzle inside)."""
    L = random_pow2_layout(rng)
    if rng.random() < non_pow2:
        L = Layout((3,) + (L.shape if isinstance(L.shape, tuple) else (L.shape,)),
                   (L.cosize(),) + (L.stride if isinstance(L.stride, tuple) else (L.stride,)))
    inner = L
    if rng.random() < nested:
        inner = core.ComposedLayout(random_swizzle(rng), 0, L)
    offset = rng.choice([0, 0, 0, 1 << rng.randint(8, 12)])
    return core.ComposedLayout(random_swizzle(rng), offset, inner)
