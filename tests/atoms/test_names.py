"""Semantic names of TV layouts and tiles."""

from __future__ import annotations

from hypothesis import given, strategies as st

import symcute as sc
from symcute.core import int_tuple as it


def seed_mma():
    return sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))


def test_seed_names_exactly():
    names = sc.tv_names(seed_mma(), "A")
    assert names[0] == ("t0", "t1", "wm", "wn")
    assert names[1][0] == ("v0", "v1", "v2")
    assert all(n.startswith("_") for n in names[1][1])   # the size-1 Rest modes get placeholders
    assert seed_mma().layoutA_TV_names() == names


def test_seed_tile_names():
    shape, names = sc.tile_names(seed_mma(), "A")
    assert shape == ((8, 2, 2), (2, 4, 2))
    assert names == (("m0", "m1", "m2"), ("k0", "k1", "k2"))
    # the refinement is the seed's H = right_inverse(F).with_shape(32,16)
    H = sc.right_inverse(seed_mma().get_layoutA_TV()).with_shape(32, 16)
    assert H.shape == shape


def test_rest_modes_and_atom_layout_names():
    m = sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (64, 32, 32))
    names = m.layoutC_TV_names()
    assert names[0] == ("t0", "t1", "wm", "wn")
    assert names[1] == (("v0", "v1"), ("rm", "rn"))
    assert m.layoutA_TV_names()[1] == (("v0", "v1", "v2"), ("rm", "rk"))


def test_quadpair_thread_digits_follow_thr_id():
    m = sc.make_tiled_mma("SM70_8x8x4_F32F16F16F32_NT", (2, 2, 1))
    # ThrID (4,2):(1,16) puts the atom's second quad at thread 16: wm and wn sit in between
    assert m.get_layoutC_TV().shape[0] == ((2, 2), (2, 2), 2)
    assert m.layoutC_TV_names()[0] == (("t0", "t1"), ("wm", "wn"), "t2")


def test_copy_names_share_thread_digits_with_the_mma():
    tc = sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x2_LDSM_N", "half_t"), seed_mma())
    assert sc.tv_names(tc, "TV") == sc.tv_names(seed_mma(), "A")
    # ldmatrix sources: 16 row addresses from lanes 0..15 (t0 and the low part of t1), lanes 16..31 broadcast
    assert sc.tv_names(tc, "S") == (("t0t1_0", "t1_1", "wm", "wn"), ("sv0", "v2"))
    assert sc.tv_names(tc, "D") == (("t0", "t1", "wm", "wn"), (("dv0", "dv1"), "v2"))


def _congruent(names, shape) -> bool:
    if isinstance(shape, tuple):
        return isinstance(names, tuple) and len(names) == len(shape) and all(
            _congruent(n, s) for n, s in zip(names, shape))
    return isinstance(names, str)


NAMES = [r.atom.name for r in sc.mma_atoms(extended=False) if not r.atom.defects][::3]


@given(st.sampled_from(NAMES), st.sampled_from([(1, 1, 1), (2, 2, 1), (4, 1, 1), (2, 4, 1), (1, 2, 2)]),
       st.sampled_from("ABC"))
def test_names_are_congruent_and_distinct(name, lay, op):
    m = sc.make_tiled_mma(name, lay)
    layout = m.get_layout_TV(op)
    names = sc.tv_names(m, op)
    assert _congruent(names, layout.shape)
    flat = it.flatten_to_tuple(names)
    assert len(set(flat)) == len(flat)
    shapes = it.flatten_to_tuple(layout.shape)
    for n, s in zip(flat, shapes):
        assert n.startswith("_") == (s == 1)
        assert n.isidentifier() and not n.startswith("x")   # every leaf is named from where it was born
    tshape, tnames = sc.tile_names(m, op)
    assert it.product(tshape) == {"A": m.tile_size(0) * m.tile_size(2), "B": m.tile_size(1) * m.tile_size(2),
                                  "C": m.tile_size(0) * m.tile_size(1)}[op]
