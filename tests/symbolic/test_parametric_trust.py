"""Trust in parametric claims: every "proved" holds at many random admissible instantiations
(checked by enumeration with core), every "refuted" carries a real admissible counterexample.

A false proof here would be a claim the prover says holds for all parameter
values while some admissible instantiation breaks it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
import sympy

from symcute.errors import SymcuteError
from symcute.symbolic import parametric as P
from symcute.symbolic.parametric import prover as R

from tests.differential.param_cases import rand_layout, rand_params

CLAIMS = 150
INSTANCES = 12
COUNTS: Counter = Counter()


def _perturb(rng, L):
    """L with one stride changed (a claim that may or may not hold, depending on extents that may be 1)."""
    from symcute.symbolic.parametric.layout import ParamLayout, _leaves
    flat = _leaves(L.stride)
    k = rng.randrange(len(flat))
    ps = L.params
    d = flat[k]
    choice = rng.random()
    if choice < 0.4:
        new = (d if type(d) is not int else sympy.Integer(d)) + 1 if type(d) is not int else d + 1
    elif choice < 0.7:
        new = d * 2 if type(d) is int else d * 2
    else:
        new = d  # unchanged: the claim is true
    flat[k] = new

    def like(t, it):
        return tuple(like(x, it) for x in t) if type(t) is tuple else next(it)
    return ParamLayout(L.shape, like(L.stride, iter(flat)), ps)


def _enumerate_equal(A, B):
    if A.size() != B.size():
        return False
    return all(A(i) == B(i) for i in range(min(A.size(), 4096)))


def _enumerate_injective(A):
    n = A.size()
    return len({A(i) for i in range(n)}) == n


def _check(proof, holds_at, rng, ps):
    COUNTS[proof.verdict] += 1
    if proof.proved:
        for _ in range(INSTANCES):
            w = ps.random_values(rng, span=4)
            assert holds_at(w), f"FALSE PROOF: {proof} fails at {w}"
    elif proof.refuted:
        assert proof.witness is not None
        ps.check_values(proof.witness)   # admissible
        assert not holds_at(proof.witness), f"refutation without a counterexample: {proof}"


@pytest.mark.parametrize("seed", range(3))
def test_parametric_equality_claims(seed):
    rng = random.Random(100 + seed)
    seen = Counter()
    for _ in range(CLAIMS // 3):
        ps, _vals = rand_params(rng)
        L = rand_layout(rng, ps, max_rank=2)
        L2 = _perturb(rng, L) if rng.random() < 0.7 else P.coalesce(L)
        proof = R.prove_equal(L, L2)
        seen[proof.verdict] += 1
        _check(proof, lambda w: _enumerate_equal(L.subs(w), L2.subs(w)), rng, ps)
    assert seen["proved"] and seen["refuted"], seen


@pytest.mark.parametrize("seed", range(3))
def test_parametric_injectivity_claims(seed):
    rng = random.Random(200 + seed)
    seen = Counter()
    for _ in range(CLAIMS // 3):
        ps, _vals = rand_params(rng)
        L = rand_layout(rng, ps, max_rank=2)
        if rng.random() < 0.4:
            L = _perturb(rng, L)
        proof = R.prove_injective(L)
        seen[proof.verdict] += 1
        _check(proof, lambda w: _enumerate_injective(L.subs(w)), rng, ps)
    assert seen["proved"] and seen["refuted"], seen


def test_closed_form_claims():
    rng = random.Random(7)
    seen = Counter()
    for _ in range(60):
        ps, _vals = rand_params(rng)
        L = rand_layout(rng, ps, max_rank=2)
        f = R.formula(L)
        syms = f.symbols()
        expected = f.expr
        if syms and rng.random() < 0.6:
            expected = expected + rng.choice([1, -1, 2]) * syms[rng.randrange(len(syms))]
        proof = R.prove_formula(f, expected)
        seen[proof.verdict] += 1
        inner_expected = expected

        def holds(w, f=f, e=inner_expected, L=L):
            C = L.subs(w)
            subs = {p.symbol: w[p.name] for p in ps.params}
            from symcute.symbolic.parametric.layout import _leaves
            extents = [int(ps.user(a.extent).subs(subs)) if type(a.extent) is not int else a.extent
                       for a in f.axes]
            import itertools
            ranges = [range(x) for x in extents]
            if 1 + sum(extents) > 64 and len(list(itertools.islice(itertools.product(*ranges), 5000))) >= 5000:
                ranges = [range(min(x, 4)) for x in extents]
            for coord in itertools.product(*ranges):
                c = dict(zip((a.name for a in f.axes), coord))
                lhs = R._eval_axes(f, w, c)
                rhs = int(e.subs({**subs, **{s: c[s.name] for s in syms}}))
                if lhs != rhs:
                    return False
            return True
        _check(proof, holds, rng, ps)
    assert seen["proved"] and seen["refuted"], seen
