"""The shared generators of the property tests: hypothesis strategies and seeded ``random.Random`` generators
for shapes, layouts, swizzles and slice coordinates (small extents, so that exhaustive checks stay cheap).

- Nested layouts (``shapes``, ``layouts``, ``compact_layouts``, ``injective_layouts``, ``pow2_layouts``,
  ``same_shape_pairs``): core's algebra, up to depth 2.
- Flat layouts (``flat_layouts``, ``flat_compact_layouts``): at most four modes, split once into two
  groups at most, sizes up to 8^4, for tests that enumerate every input (the prover, the symbolic ops).
- Swizzles on bit layouts (``swizzles``, ``layout_swizzles``, ``bit_layouts``, ``fitting_swizzles``,
  ``slice_coords``): ``Sw o O o L`` where ``L`` maps whole bits.
- Seeded generators (``random_layout``, ``random_bijection``, ``random_pow2_layout``, ``random_swizzle``,
  ``random_swizzled``): for loops that count their cases (trust, exact, bits).

The differential suite keeps its own seeded case generators (tests/differential/*_cases.py): their case
sets are fixed by seed and counted in the docs.
"""

from __future__ import annotations

import random

from hypothesis import assume, strategies as st

from symcute import Layout, make_ordered_layout
import symcute.core as core
from symcute.core.layout import _

EXTENTS = (1, 2, 2, 3, 4, 4, 6, 8)
STRIDES = (0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 32)
FLAT_EXTENTS = (1, 2, 2, 2, 3, 4, 4, 8)
FLAT_STRIDES = (0, 1, 1, 2, 2, 3, 4, 4, 6, 8, 8, 16, 16, 32, 64, 128)
NEGATIVE_STRIDES = (-1, -2, -4)


def leaves(t) -> list:
    """The leaves of an IntTuple (or of a coordinate), left to right."""
    return [y for x in t for y in leaves(x)] if isinstance(t, tuple) else [t]


def like(shape, values):
    """``values`` (one per leaf of ``shape``) arranged as ``shape``."""
    it = iter(values)

    def go(s):
        return tuple(go(x) for x in s) if isinstance(s, tuple) else next(it)
    return go(shape)


# --- nested layouts ----------------------------------------------------------------------

@st.composite
def shapes(draw, max_rank=3, max_depth=2, extents=EXTENTS):
    pick = st.sampled_from(extents)

    def node(depth):
        if depth >= max_depth or draw(st.booleans()):
            return draw(pick)
        return tuple(node(depth + 1) for _i in range(draw(st.integers(1, max_rank))))
    if draw(st.booleans()):
        return draw(pick)
    return tuple(node(1) for _i in range(draw(st.integers(1, max_rank))))


@st.composite
def layouts(draw, max_rank=3, max_depth=2):
    """Any layout: arbitrary small strides (broadcasts, overlaps, gaps)."""
    shape = draw(shapes(max_rank, max_depth))
    strides = [draw(st.sampled_from(STRIDES)) for _i in leaves(shape)]
    return Layout(shape, like(shape, strides))


@st.composite
def injective_layouts(draw, max_rank=3, max_depth=2):
    """A permutation of a compact layout, with optional gaps between modes (still injective)."""
    shape = draw(shapes(max_rank, max_depth))
    n = len(leaves(shape))
    order = draw(st.permutations(list(range(n))))
    base = make_ordered_layout(shape, like(shape, order))
    # stretch: multiply the strides of modes above some rank in the order by a factor
    flat = leaves(base.stride)
    cut = draw(st.integers(0, n))
    factor = draw(st.sampled_from([1, 1, 2, 3]))
    ranked = sorted(range(n), key=lambda i: order[i])
    stretched = list(flat)
    for i in ranked[cut:]:
        stretched[i] = flat[i] * factor
    return Layout(shape, like(shape, stretched))


@st.composite
def compact_layouts(draw, max_rank=3, max_depth=2):
    shape = draw(shapes(max_rank, max_depth))
    n = len(leaves(shape))
    order = draw(st.permutations(list(range(n))))
    return make_ordered_layout(shape, like(shape, order))


@st.composite
def same_shape_pairs(draw):
    """Two compact layouts of one shape with independent mode orders."""
    shape = draw(shapes())
    n = len(leaves(shape))
    a = make_ordered_layout(shape, like(shape, draw(st.permutations(list(range(n))))))
    b = make_ordered_layout(shape, like(shape, draw(st.permutations(list(range(n))))))
    return a, b


@st.composite
def pow2_layouts(draw, max_rank=3, max_depth=2):
    """Layouts whose extents and strides are powers of two (or stride 0): CuTe's strong
    divisibility condition always holds for them, so composition is exact."""
    shape = draw(shapes(max_rank, max_depth))
    shape = like(shape, [1 << (x.bit_length() - 1) for x in leaves(shape)])
    strides = [draw(st.sampled_from([0, 1, 2, 4, 8, 16, 32])) for _i in leaves(shape)]
    return Layout(shape, like(shape, strides))


# --- flat layouts (small enough to enumerate) --------------------------------------------

@st.composite
def flat_layouts(draw, max_modes=4, negative=False, extents=FLAT_EXTENTS, strides=FLAT_STRIDES):
    """At most ``max_modes`` modes (three or more are sometimes split into two nested groups)."""
    n = draw(st.integers(1, max_modes))
    shape = [draw(st.sampled_from(extents)) for _i in range(n)]
    pool = tuple(strides) + (NEGATIVE_STRIDES if negative else ())
    stride = [draw(st.sampled_from(pool)) for _i in range(n)]
    if n >= 3 and draw(st.booleans()):
        k = draw(st.integers(1, n - 1))
        return Layout((tuple(shape[:k]), tuple(shape[k:])), (tuple(stride[:k]), tuple(stride[k:])))
    return Layout(tuple(shape), tuple(stride))


@st.composite
def flat_compact_layouts(draw, max_modes=3):
    n = draw(st.integers(1, max_modes))
    shape = tuple(draw(st.sampled_from([2, 2, 4, 3, 8])) for _i in range(n))
    order = draw(st.permutations(list(range(n))))
    return core.make_ordered_layout(shape, tuple(order))


# --- swizzles and the bit layouts they act on -------------------------------------------

@st.composite
def swizzles(draw, max_bits=4, max_base=5, min_shift=0, max_extra_shift=4):
    """``Swizzle<B,M,S>`` with ``B <= max_bits``, ``M <= max_base`` and ``max(B, min_shift) <= |S| <=
    B + max_extra_shift``, either sign."""
    b = draw(st.integers(0, max_bits))
    m = draw(st.integers(0, max_base))
    s = draw(st.integers(max(b, min_shift), b + max_extra_shift)) * draw(st.sampled_from((1, -1)))
    return core.Swizzle(b, m, s)


def layout_swizzles():
    """Small swizzles with a non-zero shift, sized for :func:`bit_layouts`."""
    return swizzles(max_bits=3, max_base=3, min_shift=1, max_extra_shift=3)


@st.composite
def bit_layouts(draw, max_modes=3, gaps=True):
    """Modes of extent 2^k on disjoint bit ranges, in a random order, maybe with gaps and nesting."""
    ks = draw(st.lists(st.integers(1, 3), min_size=1, max_size=max_modes))
    order = draw(st.permutations(list(range(len(ks)))))
    strides = [0] * len(ks)
    bit = 0
    for i in order:
        if gaps and draw(st.integers(0, 4)) == 0:
            bit += 1
        strides[i] = 1 << bit
        bit += ks[i]
    shape, stride = tuple(1 << k for k in ks), tuple(strides)
    if len(ks) >= 2 and draw(st.booleans()):  # nest the first two modes
        shape, stride = (shape[:2],) + shape[2:], (stride[:2],) + stride[2:]
    if len(shape) == 1:
        shape, stride = shape[0], stride[0]
    return Layout(shape, stride)


@st.composite
def fitting_swizzles(draw, n_bits: int):
    """A non-trivial swizzle acting within the low ``n_bits`` bits (``size(Sw) <= 2^n_bits``)."""
    assume(n_bits >= 2)
    b = draw(st.integers(1, n_bits // 2))
    s = draw(st.integers(b, n_bits - b))
    m = draw(st.integers(0, n_bits - b - s))
    return core.Swizzle(b, m, s * draw(st.sampled_from((1, -1))))


@st.composite
def slice_coords(draw, shape):
    """A slice coordinate congruent to (a prefix of the nesting of) ``shape`` with at least one ``_``."""
    def go(s, top):
        if isinstance(s, tuple) and (top or draw(st.booleans())):
            return tuple(go(x, False) for x in s)
        return _ if draw(st.booleans()) else draw(st.integers(0, Layout(s).size() - 1))
    c = go(shape, True)
    assume(c is _ or (isinstance(c, tuple) and _ in leaves(c)))
    return c


# --- seeded generators -------------------------------------------------------------------

def random_layout(rng: random.Random, max_modes=4, negative=False, max_size=512) -> Layout:
    """The seeded twin of :func:`flat_layouts`, of size at most ``max_size``."""
    while True:
        n = rng.randint(1, max_modes)
        shape = [rng.choice(FLAT_EXTENTS) for _i in range(n)]
        pool = FLAT_STRIDES + (NEGATIVE_STRIDES if negative else ())
        stride = [rng.choice(pool) for _i in range(n)]
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
    shape = tuple(rng.choice([2, 3, 4, 2, 8]) for _i in range(n))
    order = list(range(n))
    rng.shuffle(order)
    return core.make_ordered_layout(shape, tuple(order))


def random_pow2_layout(rng: random.Random, max_bits=10, compact_bias=0.6) -> Layout:
    """A layout whose extents and strides are powers of two (often a permutation of the offset bits)."""
    n = rng.randint(1, 4)
    logs = [rng.randint(0, 3) for _i in range(n)]
    while sum(logs) > max_bits:
        logs[rng.randrange(n)] = 0
    shape = tuple(1 << e for e in logs)
    if rng.random() < compact_bias:
        return core.make_ordered_layout(shape, tuple(rng.sample(range(n), n)))
    stride = tuple(rng.choice([0, 1, 2, 4, 8, 16, 32, 64]) for _i in range(n))
    return Layout(shape, stride)


def random_swizzle(rng: random.Random, max_bits=12) -> core.Swizzle:
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
