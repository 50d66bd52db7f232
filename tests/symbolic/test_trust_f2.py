"""Trust of the GF(2) back-end: random swizzled and power-of-two claims against exhaustive evaluation.

Each claim is decided with ``limit=0`` (no enumeration: the GF(2) back-end or
refinement must decide, or answer "unknown") and with the default limit.
Every "proved" must hold at every input (plain core evaluation), every
"refuted" must carry a counterexample that core confirms.
"""

import random
from collections import Counter

import symcute.core as core
from symcute.errors import LayoutError
import symcute.symbolic as sym

from ..strategies import random_pow2_layout, random_swizzle, random_swizzled
from .test_trust import counterexample_is_real, decide, truth
from .trust_counts import COUNTS

N_CLAIMS = 2400
SEED = 20261201


def _small(rng):
    while True:
        L = random_swizzled(rng) if rng.random() < 0.75 else random_pow2_layout(rng, max_bits=8)
        if L.size() <= 512:
            return L


def _other_swizzle(rng, L):
    """``L`` with another swizzle (often a different function), or the same layout built another way."""
    if isinstance(L, core.ComposedLayout):
        if rng.random() < 0.4:
            return core.ComposedLayout(L.outer, L.offset, core.coalesce(L.inner))
        return core.ComposedLayout(random_swizzle(rng), L.offset, L.inner)
    return core.ComposedLayout(random_swizzle(rng), 0, L)


def _inverse_or_random(rng, L, side):
    try:
        return core.right_inverse(L) if side == "right" else core.left_inverse(L)
    except LayoutError:
        return _small(rng)


def make_claims(rng):
    claims = []
    while len(claims) < N_CLAIMS:
        L = _small(rng)
        kind = rng.choice(["equal", "equal", "right", "left", "injective", "injective", "surjective",
                           "bijective", "bijective"])
        if kind == "equal":
            how = rng.randrange(3)
            if how == 0:
                claims.append(("equal", L, _other_swizzle(rng, L)))
            elif how == 1:
                R = random_pow2_layout(rng, max_bits=6)
                try:
                    C = core.composition(L, R)
                except LayoutError:
                    continue
                if R.size() > 512 or not isinstance(C, (core.Layout, core.ComposedLayout)):
                    continue
                claims.append(("equal", sym.Compose(L, R), C))
            else:
                claims.append(("equal", L, L))
        elif kind in ("right", "left"):
            claims.append((kind, L, _inverse_or_random(rng, L, kind)))
        elif kind == "injective":
            claims.append(("injective", L))
        elif kind == "surjective":
            top = max(L(i) for i in range(L.size())) + 2
            claims.append(("surjective", L, rng.randint(1, top)))
        else:
            n = L.size()
            claims.append(("bijective", L, rng.choice([n, n, n, max(1, n - 1), n + 1])))
    return claims


def test_gf2_back_end_agrees_with_exhaustive_evaluation():
    rng = random.Random(SEED)
    claims = make_claims(rng)
    counts = {"no enumeration": Counter(), "with fallback": Counter()}
    methods = Counter()
    per_kind = Counter()
    for claim in claims:
        t = truth(claim)
        per_kind[(claim[0], t)] += 1
        for mode, limit in (("no enumeration", 0), ("with fallback", None)):
            p = decide(claim, limit)
            counts[mode][p.verdict] += 1
            methods[(mode, p.method)] += 1
            if p.verdict == "proved":
                assert t, f"false proof ({mode}): {claim} -> {p}"
            elif p.verdict == "refuted":
                assert not t, f"false refutation ({mode}): {claim} -> {p}"
                assert counterexample_is_real(claim, p.counterexample), f"bogus counterexample: {claim} -> {p}"
            else:
                assert mode == "no enumeration", f"unknown although the domain is small: {claim} -> {p}"
    gf2 = methods[("no enumeration", "gf2")]
    lines = [f"{len(claims)} random swizzled / power-of-two claims (seed {SEED}); truth by core evaluation: "
             f"{sum(v for (k, t), v in per_kind.items() if t)} true, "
             f"{sum(v for (k, t), v in per_kind.items() if not t)} false; decided by GF(2): {gf2}"]
    for mode, c in counts.items():
        lines.append(f"  {mode:16s} proved={c['proved']:5d} refuted={c['refuted']:5d} unknown={c['unknown']:5d}")
    lines.append("  methods: " + ", ".join(f"{m}/{k}={v}" for (m, k), v in sorted(methods.items())))
    lines.append("  claims by kind (true/false): " + ", ".join(
        f"{k}={per_kind[(k, True)]}/{per_kind[(k, False)]}"
        for k in ("equal", "right", "left", "injective", "surjective", "bijective")))
    COUNTS["f2 lines"] = lines
    print("\n".join(lines))
    assert len(claims) >= 2000
    assert gf2 > len(claims) // 2
