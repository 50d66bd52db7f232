"""The bit split (symbolic/bitsplit.py) against enumeration: random swizzled layouts of any size, true and
false injectivity, surjectivity and bijectivity claims; 0 false proofs, 0 false refutations, every
counterexample re-evaluated with core.  SYMCUTE_LARGE=1 runs ten times as many."""

import random

import numpy as np
import pytest

from symcute.core.composed import ComposedLayout
from symcute.core.layout import Layout
from symcute.core.parse import parse_layout
from symcute.core.swizzle import Swizzle
from symcute.errors import SymcuteError
from symcute.symbolic import bitsplit, prover
from symcute.symbolic.vocabulary import CounterexampleKey as Key, Phrase, Statement
from tests.large import large_run

CASES = 20000 if large_run() else 2000


def _random_layout(rng):
    """A swizzled layout whose size is often not a power of two: power-of-two low modes, any modes above."""
    b, m = rng.randint(1, 3), rng.randint(0, 3)
    s = rng.choice([x for x in range(-4, 5) if abs(x) >= b] or [b])
    sw = Swizzle(b, m, s)
    rank = rng.randint(1, 4)
    shape = tuple(rng.choice([1, 2, 3, 4, 5, 6, 8, 12, 16]) for _ in range(rank))
    stride = tuple(rng.choice([0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 3, 6, 24, 96]) for _ in range(rank))
    if rng.random() < 0.4:   # a compact layout (modes in a random order): bijective, a true claim
        order = list(range(rank))
        rng.shuffle(order)
        stride, w = [0] * rank, 1
        for k in order:
            stride[k], w = w, w * shape[k]
        stride = tuple(stride)
    return ComposedLayout(sw, 0, Layout(shape, stride))


def _values(L):
    return np.array([L(i) for i in range(L.size())], dtype=np.int64)


def _check(kind, L, n, onto, p, v, counts):
    """``p`` (the split's answer) agrees with the values ``v``; a counterexample is real."""
    if kind == "injective":
        truth = len(set(v.tolist())) == n
    elif kind == "surjective":
        truth = set(range(onto)) <= set(v.tolist())
    else:
        truth = sorted(v.tolist()) == list(range(onto))
    assert p.verdict in ("proved", "refuted"), (kind, str(L), p.verdict)
    assert p.proved == truth, (kind, str(L), onto, p.verdict, p.reason)
    ce = p.counterexample or {}
    if Key.INDICES in ce:
        x, y = ce[Key.INDICES]
        assert x != y and L(x) == L(y) == ce[Key.VALUE]
    elif Key.MISSING_VALUE in ce:
        assert ce[Key.MISSING_VALUE] < onto and ce[Key.MISSING_VALUE] not in set(v.tolist())
    elif p.refuted:
        x = ce[Key.INDEX]
        assert L(x) == ce[Key.VALUE] and not 0 <= L(x) < onto
    counts[(kind, p.verdict)] = counts.get((kind, p.verdict), 0) + 1


def test_split_agrees_with_enumeration():
    rng = random.Random(30)
    counts, decided, tried = {}, 0, 0
    while tried < CASES:
        try:
            L = _random_layout(rng)
        except SymcuteError:
            continue
        n = L.size()
        if n > 1 << 11:
            continue
        tried += 1
        v = _values(L)
        for kind in bitsplit.KINDS:
            onto = n if kind != "surjective" else rng.choice([n, max(1, n // 2), int(v.max()) + 1, n + 1])
            if kind == "bijective" and rng.random() < 0.3:
                onto = max(1, n - 1)
            st = Phrase(Statement.INJECTIVE, a=str(L), n=n)
            p = bitsplit.decide(kind, L, st, n, None if kind == "injective" else onto)
            if p is None:
                continue
            decided += 1
            _check(kind, L, n, onto, p, v, counts)
    # the split decides a good share of the corpus, both ways (not a vacuous pass)
    for kind in bitsplit.KINDS:
        assert counts.get((kind, "proved"), 0) > 20 and counts.get((kind, "refuted"), 0) > 20, counts
    assert decided > CASES // 2


FAMILIES = [
    "Sw<3,3,3> o 0 o (192,64):(64,1)",
    "Sw<3,3,3> o 0 o (768,64):(64,1)",
    "Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))",   # tile_to_shape(atom, (128,64,3))
    "Sw<3,3,3> o 0 o ((8,5),(64,7)):((64,512),(1,2560))",                # 5x7 tiles of the atom
    "Sw<3,4,3> o 0 o ((8,3),(128,5)):((128,1024),(1,3072))",             # a byte SW128 atom tiled 3x5
    "Sw<3,3,3> o 0 o (3377699720527872,64):(64,1)",                      # 3 * 2^50 inputs
]


@pytest.mark.parametrize("text", FAMILIES)
def test_families_decided_without_enumeration(text):
    L = parse_layout(text)
    n = L.size()
    assert prover.is_injective(L).method in ("gf2+chain", "gf2")
    b = prover.is_bijective(L)
    assert b.proved and b.method == "gf2+chain" and b.certificate.kind == "block-split"
    assert b.certificate.data["split"]["q"] >= 512
    s = prover.is_surjective(L, n + 1)
    assert s.refuted and s.counterexample[Key.MISSING_VALUE] == n
    # two modes given one stride: false injectivity, refuted with a real collision
    bad = ComposedLayout(L.outer, 0, Layout((2,) + tuple(L.inner.shape), (1,) + tuple(L.inner.stride)))
    p = prover.is_injective(bad)
    x, y = p.counterexample[Key.INDICES]
    assert p.refuted and bad(x) == bad(y) and x != y
    assert p.certificate.kind in ("block-split", "swizzle-bijection")


def test_equal_through_one_swizzle_agrees_with_enumeration():
    """``Sw o 0 o A == Sw o 0 o B`` (random A, and B = A with a stride or an extent changed, or A coalesced)."""
    rng = random.Random(31)
    counts = {}
    while sum(counts.values()) < CASES // 4:
        try:
            T = _random_layout(rng)
        except SymcuteError:
            continue
        A = T.inner
        shape, stride = list(A.shape), list(A.stride)
        k = rng.randrange(len(shape))
        if rng.random() < 0.5:
            stride[k] = rng.choice([0, 1, 2, 4, 8, 64, 3])
        B = ComposedLayout(T.outer, 0, Layout(tuple(shape), tuple(stride)))
        n = T.size()
        if n > 1 << 11:
            continue
        p = prover.prove(T, B)
        truth = all(T(i) == B(i) for i in range(n))
        assert p.verdict in ("proved", "refuted") and p.proved == truth, (str(T), str(B), p.verdict)
        if p.refuted:
            q = p.counterexample[Key.INDEX]
            assert T(q) != B(q)
        counts[str(p.verdict)] = counts.get(str(p.verdict), 0) + 1
    assert counts.get("proved", 0) > 20 and counts.get("refuted", 0) > 20, counts


def test_equal_through_one_swizzle_at_3_2_50():
    """The same tile written with its rows refined (true) and with two strides swapped (false), 3 * 2^50 inputs."""
    r = 3 << 44
    L = parse_layout(f"Sw<3,3,3> o 0 o ({r},64):(64,1)")
    good = prover.prove(L, parse_layout(f"Sw<3,3,3> o 0 o ((8,{r // 8}),64):((64,512),1)"))
    assert good.proved and good.certificate.kind == "swizzle-bijection"
    other = parse_layout(f"Sw<3,3,3> o 0 o ((8,{r // 8}),64):((512,64),1)")
    bad = prover.prove(L, other)
    q = bad.counterexample[Key.INDEX]
    assert bad.refuted and L(q) != other(q)


def test_split_data_rebuilds_the_layout():
    """The certificate's split, read as plain data, gives back T's value at sample inputs (what a checker does)."""
    L = parse_layout("Sw<3,3,3> o 0 o ((8,5),(64,7)):((64,512),(1,2560))")
    d = prover.is_bijective(L).certificate.data["split"]
    P = Layout(tuple(d["permutation"]["shape"]), tuple(d["permutation"]["stride"]))
    F = ComposedLayout(Swizzle(*d["swizzle"]), 0, Layout(tuple(d["low"]["shape"]), tuple(d["low"]["stride"])))
    H = Layout(tuple(d["high"]["shape"]), tuple(d["high"]["stride"]))
    for i in range(0, L.size(), 7):
        a, b = i % F.size(), i // F.size()
        assert L(P(i)) == F(a) + d["q"] * H(b)
