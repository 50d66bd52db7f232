"""Image claims: disjointness and containment, on sub-domains, small (enumerated) and large (exact back-ends)."""

from symcute import Layout
from symcute.core.parse import parse_layout
from symcute.symbolic.claims import image_contains, images_disjoint


def test_disjoint_and_contains_small():
    a, b = Layout((4, 2), (1, 8)), Layout(4, 4)
    p = images_disjoint(a, b)
    assert p.refuted and a(p.counterexample["index of a"]) == b(p.counterexample["index of b"])
    odd = parse_layout("Sw<0,4,0> o 1 o 8:2")          # 1, 3, ..., 15: an offset keeps 0 out
    assert images_disjoint(Layout(8, 2), odd).proved
    assert images_disjoint(Layout(9, 2), odd).proved
    p = images_disjoint(Layout(8, 1), odd)
    assert p.refuted and p.counterexample["value"] % 2 == 1
    assert image_contains(Layout(8, 1), Layout(4, 2)).proved
    p = image_contains(Layout(4, 2), Layout(3, 3))
    assert p.refuted and p.counterexample == {"index of a": 1, "value": 3}
    assert image_contains(Layout(4, 2), Layout(3, 3), domain_a=1).proved   # a sub-domain: only the value 0


def test_disjoint_and_contains_large():
    evens = Layout((1 << 20, 1 << 20), (2, 1 << 21))      # the even numbers below 2^41
    odds = parse_layout(f"Sw<0,4,0> o 1 o {1 << 40}:2")
    assert images_disjoint(evens, odds).proved
    p = images_disjoint(Layout((1 << 20, 1 << 20), (1, 1 << 20)), odds)
    assert p.refuted and p.counterexample["value"] % 2 == 1
    assert image_contains(evens, Layout(1 << 30, 2)).proved
    p = image_contains(evens, Layout(1 << 30, 3))          # 3 is odd
    assert p.refuted and p.counterexample["value"] % 2 == 1


def test_contains_on_a_sub_domain_of_the_same_function():
    L = Layout((6, 1 << 30), (1 << 30, 1))
    assert image_contains(L, L, domain_b=L.size(), domain_a=12345).proved
