"""The seed document's layout values, computed by the core (every number is a test case)."""

import symcute
from symcute import Layout, right_inverse, upcast, coalesce, product
from symcute.core.int_tuple import product_each

F_TEXT = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def seed_F():
    return Layout.parse(F_TEXT)


def test_F_prints_as_cute():
    F = seed_F()
    assert str(F) == F_TEXT
    assert F.size() == 1024 and symcute.cosize(F) == 512


def test_F_coalesced_is_the_seed_sub_axis_table():
    # sub-axes t0 t1 wm wn v0 v1 v2 with shapes 4 8 2 2 2 2 2 and q-strides 64 1 16 0 32 8 256
    assert str(coalesce(seed_F())) == "(4,8,2,2,2,2,2):(64,1,16,0,32,8,256)"


def test_broadcast_pair_hits_the_same_element():
    F = seed_F()
    # lane 0, value 4 in both N warps: TV numbers 0 + 128*4 and 64 + 128*4
    assert F(0 + 128 * 4) == F(64 + 128 * 4) == 256
    assert F((0, 4)) == F((64, 4)) == 256


def test_right_inverse_G():
    G = right_inverse(seed_F())
    assert str(G) == "(8,2,2,2,4,2):(4,256,32,128,1,512)"
    assert G.size() == 512
    assert G(256) == 512
    F = seed_F()
    assert G(F(576)) == 512 != 576
    assert all(F(G(q)) == q for q in range(512))


def test_with_shape_H_and_its_table():
    H = right_inverse(seed_F()).with_shape(32, 16)
    assert str(H) == "((8,2,2),(2,4,2)):((4,256,32),(128,1,512))"
    assert str(right_inverse(seed_F()).with_shape((32, 16))) == str(H)
    # (m,k) -> q -> (t,v) -> tv, as in the seed's table
    for (m, k), q, (t, v) in [((0, 0), 0, (0, 0)), ((0, 8), 256, (0, 4)), ((0, 9), 288, (0, 5))]:
        assert m + 32 * k == q
        assert H((m, k)) == t + 128 * v
    assert max(H(i) for i in range(H.size())) == 959


def test_upcast_1024_and_512():
    H = right_inverse(seed_F()).with_shape(32, 16)
    up = upcast(H, 1024)
    assert str(up) == "((1,1,1),(1,1,1)):((1,1,1),(1,1,1))"
    assert product_each(up.shape) == (1, 1)
    up512 = upcast(H, 512)
    assert str(up512) == "((1,1,1),(1,1,2)):((1,1,1),(1,1,1))"
    assert product_each(up512.shape) == (1, 2)
    assert product(up512.shape) == 2
