"""Trust: the prover against exhaustive evaluation with core on thousands of random claims.

Each claim is decided twice: by refinement alone (``limit=0``: no enumeration
allowed, so "unknown" is the only way out), and with the default limit (the
exhaustive fallback).  Every "proved" must hold on every input, every
"refuted" must come with a counterexample that core's evaluation confirms.
The reference is plain Python evaluation with ``Layout.__call__``, independent
of the prover's numpy fallback.
"""

import random
from collections import Counter

from symcute import Layout
import symcute.core as core
from symcute.errors import LayoutError
import symcute.symbolic as sym

from ..strategies import random_bijection, random_layout
from .trust_counts import COUNTS

N_CLAIMS = 3000
SEED = 20240531


def _ev(term, x):
    if isinstance(term, sym.Compose):
        return _ev(term.outer, _ev(term.inner, x))
    return term(x)


def _vals(term, n):
    return [_ev(term, i) for i in range(n)]


def _size(term):
    return term.size() if isinstance(term, sym.Compose) else term.size()


def _perturb(rng, L):
    flat_s = core.flatten(L).shape
    flat_d = list(core.flatten(L).stride) if isinstance(core.flatten(L).stride, tuple) else [L.stride]
    flat_s = flat_s if isinstance(flat_s, tuple) else (flat_s,)
    k = rng.randrange(len(flat_d))
    flat_d[k] = flat_d[k] + rng.choice([1, -1, 2, 4])
    return Layout(flat_s, tuple(flat_d))


def make_claims(rng):
    claims = []
    while len(claims) < N_CLAIMS:
        L = random_layout(rng, negative=rng.random() < 0.15, max_size=256)
        kind = rng.choice(["equal", "equal", "right", "right", "left", "injective", "surjective", "bijective"])
        if kind == "equal":
            how = rng.randrange(5)
            if how == 0:
                claims.append(("equal", L, core.coalesce(L)))
            elif how == 1:
                claims.append(("equal", L, _perturb(rng, L)))
            elif how == 2:
                M = random_layout(rng, max_size=256)
                if M.size() == L.size():
                    claims.append(("equal", L, M))
                else:
                    claims.append(("equal", L, core.make_layout(L.size(), 1)))
            else:
                R = random_bijection(rng, 3)
                try:
                    C = core.composition(L, R)
                except LayoutError:
                    continue
                if R.size() <= 256:
                    claims.append(("equal", sym.Compose(L, R), C))
        elif kind == "right":
            R = rng.choice([core.right_inverse(L), random_layout(rng, max_size=256), random_bijection(rng)])
            claims.append(("right", L, R))
        elif kind == "left":
            try:
                R = core.left_inverse(L)
            except LayoutError:
                R = random_layout(rng, max_size=256)
            if rng.random() < 0.3:
                R = core.right_inverse(L)
            claims.append(("left", L, R))
        elif kind == "injective":
            claims.append(("injective", L if rng.random() < 0.6 else random_bijection(rng)))
        elif kind == "surjective":
            top = max(_vals(L, L.size())) + 2
            claims.append(("surjective", L, rng.randint(1, max(1, top))))
        else:
            B = L if rng.random() < 0.5 else random_bijection(rng)
            claims.append(("bijective", B, rng.choice([B.size(), B.size(), max(1, B.size() - 1), B.size() + 1])))
    return claims


def decide(claim, limit):
    kind = claim[0]
    if kind == "equal":
        return sym.prove(claim[1], claim[2], limit=limit)
    if kind == "right":
        return sym.prove_right_inverse(claim[1], claim[2], limit=limit)
    if kind == "left":
        return sym.prove_left_inverse(claim[1], claim[2], limit=limit)
    if kind == "injective":
        return sym.is_injective(claim[1], limit=limit)
    if kind == "surjective":
        return sym.is_surjective(claim[1], claim[2], limit=limit)
    return sym.is_bijective(claim[1], claim[2], limit=limit)


def truth(claim) -> bool:
    kind = claim[0]
    if kind == "equal":
        a, b = claim[1], claim[2]
        return _size(a) == _size(b) and _vals(a, _size(a)) == _vals(b, _size(b))
    if kind == "right":
        L, R = claim[1], claim[2]
        return all(L(R(i)) == i for i in range(R.size()))
    if kind == "left":
        L, R = claim[1], claim[2]
        return all(R(L(x)) == x for x in range(L.size()))
    L = claim[1]
    v = _vals(L, L.size())
    if kind == "injective":
        return len(set(v)) == len(v)
    if kind == "surjective":
        return set(range(claim[2])) <= set(v)
    return sorted(v) == list(range(claim[2]))


def counterexample_is_real(claim, ce) -> bool:
    kind = claim[0]
    if kind == "equal":
        a, b = claim[1], claim[2]
        q = ce["index"]
        if _size(a) != _size(b):
            return min(_size(a), _size(b)) == q
        return _ev(a, q) != _ev(b, q)
    if kind == "right":
        q = ce["index"]
        return 0 <= q < claim[2].size() and claim[1](claim[2](q)) != q
    if kind == "left":
        x = ce["index"]
        return 0 <= x < claim[1].size() and claim[2](claim[1](x)) != x
    L = claim[1]
    if "indices" in ce:
        x, y = ce["indices"]
        return x != y and 0 <= x < L.size() and 0 <= y < L.size() and L(x) == L(y)
    if "missing value" in ce:
        y = ce["missing value"]
        return 0 <= y < claim[2] and y not in set(_vals(L, L.size()))
    x = ce["index"]  # a value outside the target range
    return 0 <= x < L.size() and not 0 <= L(x) < claim[2]


def test_prover_agrees_with_exhaustive_evaluation():
    rng = random.Random(SEED)
    claims = make_claims(rng)
    counts = {"refinement only": Counter(), "with fallback": Counter()}
    methods = Counter()
    per_kind = Counter()
    for claim in claims:
        t = truth(claim)
        per_kind[(claim[0], t)] += 1
        for mode, limit in (("refinement only", 0), ("with fallback", None)):
            p = decide(claim, limit)
            counts[mode][p.verdict] += 1
            methods[(mode, p.method)] += 1
            if p.verdict == "proved":
                assert t, f"false proof ({mode}): {claim} -> {p}"
            elif p.verdict == "refuted":
                assert not t, f"false refutation ({mode}): {claim} -> {p}"
                assert counterexample_is_real(claim, p.counterexample), f"bogus counterexample: {claim} -> {p}"
            else:
                assert mode == "refinement only", f"unknown although the domain is small: {claim} -> {p}"
    lines = [f"{len(claims)} random claims (seed {SEED}); truth by core evaluation: "
             f"{sum(v for (k, t), v in per_kind.items() if t)} true, "
             f"{sum(v for (k, t), v in per_kind.items() if not t)} false"]
    for mode, c in counts.items():
        lines.append(f"  {mode:16s} proved={c['proved']:5d} refuted={c['refuted']:5d} unknown={c['unknown']:5d}")
    lines.append("  methods: " + ", ".join(f"{m}/{k}={v}" for (m, k), v in sorted(methods.items())))
    lines.append("  claims by kind (true/false): " + ", ".join(
        f"{k}={per_kind[(k, True)]}/{per_kind[(k, False)]}"
        for k in ("equal", "right", "left", "injective", "surjective", "bijective")))
    COUNTS["lines"] = COUNTS.get("lines", []) + lines
    print("\n".join(lines))
    assert len(claims) >= 2000
    assert counts["refinement only"]["proved"] + counts["refinement only"]["refuted"] > len(claims) // 2
