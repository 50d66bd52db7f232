"""Hypothesis strategies for random CuTe layouts (small extents, so exhaustive checks stay cheap)."""

from hypothesis import strategies as st

from symcute import Layout, make_ordered_layout

EXTENTS = st.sampled_from([1, 2, 2, 3, 4, 4, 6, 8])
STRIDES = st.sampled_from([0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 32])


@st.composite
def shapes(draw, max_rank=3, max_depth=2):
    def node(depth):
        if depth >= max_depth or draw(st.booleans()):
            return draw(EXTENTS)
        return tuple(node(depth + 1) for _ in range(draw(st.integers(1, max_rank))))
    if draw(st.booleans()):
        return draw(EXTENTS)
    return tuple(node(1) for _ in range(draw(st.integers(1, max_rank))))


def _like(shape, leaves):
    it = iter(leaves)

    def go(s):
        return tuple(go(x) for x in s) if isinstance(s, tuple) else next(it)
    return go(shape)


def _leaves(shape):
    return [x for s in shape for x in _leaves(s)] if isinstance(shape, tuple) else [shape]


@st.composite
def layouts(draw, max_rank=3, max_depth=2):
    """Any layout: arbitrary small strides (broadcasts, overlaps, gaps)."""
    shape = draw(shapes(max_rank, max_depth))
    strides = [draw(STRIDES) for _ in _leaves(shape)]
    return Layout(shape, _like(shape, strides))


@st.composite
def injective_layouts(draw, max_rank=3, max_depth=2):
    """A permutation of a compact layout, with optional gaps between modes (still injective)."""
    shape = draw(shapes(max_rank, max_depth))
    n = len(_leaves(shape))
    order = draw(st.permutations(list(range(n))))
    base = make_ordered_layout(shape, _like(shape, order))
    # stretch: multiply the strides of modes above some rank in the order by a factor
    flat = _leaves(base.stride)
    cut = draw(st.integers(0, n))
    factor = draw(st.sampled_from([1, 1, 2, 3]))
    ranked = sorted(range(n), key=lambda i: order[i])
    stretched = list(flat)
    for i in ranked[cut:]:
        stretched[i] = flat[i] * factor
    return Layout(shape, _like(shape, stretched))


@st.composite
def compact_layouts(draw, max_rank=3, max_depth=2):
    shape = draw(shapes(max_rank, max_depth))
    n = len(_leaves(shape))
    order = draw(st.permutations(list(range(n))))
    return make_ordered_layout(shape, _like(shape, order))


@st.composite
def same_shape_pairs(draw):
    """Two compact layouts of one shape with independent mode orders."""
    shape = draw(shapes())
    n = len(_leaves(shape))
    a = make_ordered_layout(shape, _like(shape, draw(st.permutations(list(range(n))))))
    b = make_ordered_layout(shape, _like(shape, draw(st.permutations(list(range(n))))))
    return a, b


@st.composite
def pow2_layouts(draw, max_rank=3, max_depth=2):
    """Layouts whose extents and strides are powers of two (or stride 0): CuTe's strong
    divisibility condition always holds for them, so composition is exact."""
    shape = draw(shapes(max_rank, max_depth))
    shape = _like(shape, [1 << (x.bit_length() - 1) for x in _leaves(shape)])
    strides = [draw(st.sampled_from([0, 1, 2, 4, 8, 16, 32])) for _ in _leaves(shape)]
    return Layout(shape, _like(shape, strides))
