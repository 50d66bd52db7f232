"""composition through many lhs modes (the bisection path of core/composition.py) against real CuTe.

Past ``_FAST_RANK`` coalesced lhs modes, composition finds where each rhs mode's stride lands by bisecting
the prefix products of the lhs extents instead of CuTe's step-by-step division.  The core suite's random
layouts have a few modes, so they never take that path; these cases do (lhs of 17-30 modes that do not
coalesce, extents 2 and 3 so that CuTe's integers do not overflow), with strides at, between and past the
prefix products, refusals included (both divisibility conditions).
"""

from __future__ import annotations

import importlib
import random

import pytest

import symcute as sc
from symcute import Layout
from symcute.oracle import cpp_value
from .core_cases import Case, show
from .harness import compare, oracle_or_skip, run_guided

pytestmark = pytest.mark.cute

comp = importlib.import_module("symcute.core.composition")


def _lhs(rng, n):
    shape = tuple(rng.choice((2, 2, 3)) for _ in range(n))
    order = list(range(n))
    rng.shuffle(order)
    stride, p = [0] * n, 1
    for k in order:   # compact in a random mode order: neighbours rarely coalesce
        stride[k], p = p, p * shape[k]
    return Layout(shape, tuple(stride))


def cases() -> list[Case]:
    rng = random.Random("rank-composition")
    out = []
    for i in range(80):
        A = _lhs(rng, rng.randint(comp._FAST_RANK + 1, 30))
        prefix = [1]
        for s in A.shape[:-1]:
            prefix.append(prefix[-1] * s)
        modes = []
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(prefix))
            p = prefix[k]
            # mostly a stride at a prefix product and an extent spanning the next lhs modes (CuTe's value);
            # sometimes off by a little (a refusal or a partial mode)
            d = rng.choice((p,) * 8 + (p * rng.choice((2, 3)), p + rng.choice((1, 2)), max(1, p // 2)))
            span = 1
            for s in A.shape[k:k + rng.randint(0, 6)]:
                span *= s
            s = rng.choice((span,) * 8 + (span * rng.choice((2, 3)), rng.choice((1, 4, 6, 8, 12, 64))))
            modes.append((s, d))
        B = Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes)) if len(modes) > 1 \
            else Layout(*modes[0])
        out.append(Case(f"rank-composition#{i}", "composition", f"composition({A}, {B})",
                        f"composition({cpp_value(str(A))}, {cpp_value(str(B))})",
                        (lambda A=A, B=B: sc.composition(A, B))))
    return out


def test_high_rank_compositions_equal_cute():
    oracle = oracle_or_skip()
    all_cases = cases()
    results = run_guided(oracle, all_cases, show)
    bad = compare(all_cases, results, show, "rank-composition")
    counted = [c for c in all_cases if results[c.key].ok]
    assert counted and len(counted) < len(all_cases)   # values and refusals both compared
    assert not bad.get("composition"), "\n".join(bad["composition"][:5])
