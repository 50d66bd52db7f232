"""symcute.check re-verifies every certificate the prover writes, and refuses mutated ones.

Claims of every kind symcute decides (equal, injective, surjective, bijective; disjoint, contains,
contiguous, aligned, forall, vector, through the claim language's one path) over plain, swizzled and
composed layouts are proved, written as certificates (validated against the package's JSON Schema) and
re-checked: 0 failures, and every refinement/chain/GF(2)/exhaustive/refutation certificate is re-verified
(never "not re-checked" within the bound).  The truth of every claim is decided here by enumeration with
core, apart from both the prover and the checker (a vector claim from its definition, thread by thread).
``SYMCUTE_LARGE=1``: 6,000 claims of the four image kinds and 3,000 of the six others.
"""

from __future__ import annotations

import copy
import json
import pathlib
import random
import re
from collections import Counter

import jsonschema
import pytest

from symcute import check
from symcute.core import coalesce
from symcute.core.composed import ComposedLayout
from symcute.core.int_tuple import product
from symcute.errors import SymcuteError
from symcute.core.parse import parse_layout
from symcute.symbolic import claim as C
from symcute.symbolic import prover
from symcute.symbolic.certfile import term_of
from symcute.symbolic.linear import Compose
from tests.large import large_run

SCHEMA = json.loads(check.SCHEMA_PATH.read_text())
N_CLAIMS = 6000 if large_run() else 300
N_SET_CLAIMS = 3000 if large_run() else 150
SET_KINDS = ("disjoint", "contains", "contiguous", "aligned", "forall", "vector")


def _plain(rng, pow2=False):
    r = rng.randint(1, 3)
    ext = [rng.choice([1, 2, 4, 8]) if pow2 else rng.randint(1, 6) for _ in range(r)]
    st = [rng.choice([0, 1, 2, 4, 8, 16, 32]) if pow2 else rng.randint(-6, 16) for _ in range(r)]
    if rng.random() < 0.4:   # a compact layout: injective and onto by construction, unless permuted
        w = 1
        for k in rng.sample(range(r), r):
            st[k], w = w, w * ext[k]
    return f"({','.join(map(str, ext))}):({','.join(map(str, st))})"


def _tile(rng):
    """A swizzled shared-memory tile whose size need not be a power of two (the block decomposition's family):
    rows of ``2^B * r`` (r = 3: three stages, 5, 6, 7) or stages stacked above a power-of-two tile, at times
    with one stride edited; column-major tiles, whose non-power-of-two digit sits under the swizzle."""
    b, m = rng.randint(1, 3), rng.randint(0, 2)
    s = rng.randint(b, 3)
    cols, r = 1 << (m + s), rng.choice([1, 3, 3, 5, 6, 7])
    rows = (1 << b) * r
    while rows * cols > 4096:
        rows //= 2
    pick = rng.random()
    if pick < 0.4:
        shape, stride = [rows, cols], [cols, 1]
    elif pick < 0.6:   # column-major: no split (a non-power-of-two digit below q), the swizzle a bijection
        shape, stride = [cols, rows], [1, cols]
    else:
        shape, stride = [1 << b, cols, r], [cols, 1, rng.choice([1, 2]) * (cols << b)]
    if rng.random() < 0.3:
        stride[rng.randrange(len(stride))] = rng.choice([0, 1, 2, 3, 8, cols, 2 * cols])
    return f"Sw<{b},{m},{s}> o 0 o ({','.join(map(str, shape))}):({','.join(map(str, stride))})"


def _term(rng):
    pick = rng.random()
    if pick < 0.2:
        return _tile(rng)
    if pick < 0.5:
        return _plain(rng)
    if pick < 0.8:
        b, m = rng.randint(1, 3), rng.randint(0, 3)
        s = rng.randint(b, 4)
        return f"Sw<{b},{m},{s}> o {rng.choice([0, 0, 64, 3])} o {_plain(rng, pow2=True)}"
    inner = parse_layout(_plain(rng))
    outer = parse_layout(_plain(rng))
    return Compose(outer, inner)


def truth(c: dict) -> bool:
    """The claim decided by enumeration with core (neither the prover nor the checker)."""
    ts = [term_of(t) for t in c["terms"]]
    kind = c["kind"]
    if kind in SET_KINDS:
        return _set_failure(c, ts) is None
    n = c["n"] if kind in ("equal", "injective") else c["size"]
    v = [ts[0](q) for q in range(n)]
    if kind == "equal":
        return all(v[q] == ts[1](q) for q in range(n))
    inj = len(set(v)) == n
    if kind == "injective":
        return inj
    onto = set(range(c["onto"])) <= set(v)
    return onto if kind == "surjective" else inj and onto and all(0 <= x < c["onto"] for x in v)


def claims(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        t = _term(rng)
        L = parse_layout(t) if isinstance(t, str) else t
        size = L.size() if not isinstance(L, Compose) else L.inner.size()
        if size > 4096:
            continue
        kind = rng.choice(["equal", "injective", "surjective", "bijective"])
        if kind == "equal" and isinstance(L, ComposedLayout) and rng.random() < 0.7:
            # one swizzle on both sides: the swizzle-bijection argument (the layouts coalesced, or a stride edited)
            inner = coalesce(L.inner) if rng.random() < 0.5 else parse_layout(_tile(rng).partition(" o 0 o ")[2])
            p = prover.prove(L, ComposedLayout(L.outer, 0, inner), domain=size) if inner.size() >= size else None
            if p is None:
                continue
        elif kind == "equal":
            other = coalesce(L) if isinstance(L, type(parse_layout("1:1"))) and rng.random() < 0.6 else \
                parse_layout(_plain(rng)) if not isinstance(L, Compose) else L.outer
            p = prover.prove(L, other, domain=size) if other.size() >= size or rng.random() < 0.5 else None
            if p is None:
                continue
        elif kind == "injective":
            p = prover.is_injective(L)
        else:
            onto = size if rng.random() < 0.7 else max(1, size // 2)
            p = (prover.is_surjective if kind == "surjective" else prover.is_bijective)(L, onto)
        out.append(p)
    return out


def _offset_term(rng):
    """A swizzled layout with an offset (plain layouts all start at 0: nothing disjoint, everything aligned)."""
    b, m = rng.randint(1, 3), rng.randint(0, 3)
    return parse_layout(f"Sw<{b},{m},{rng.randint(b, 4)}> o {rng.choice([0, 16, 64, 96, 256, 1000, -64])} o "
                        f"{_plain(rng, pow2=True)}")


def _tv(rng):
    """A rank-2 (thread, value) layout, mostly a permuted compact one (so some vector claims hold)."""
    nt, nv = rng.choice([1, 2, 4, 8, 32]), rng.choice([2, 4, 8])
    if rng.random() < 0.7:
        return parse_layout(f"({nt},{nv}):({nv},1)" if rng.random() < 0.6 else f"({nt},{nv}):(1,{nt})")
    return parse_layout(f"({nt},{nv}):({rng.randint(0, 16)},{rng.choice([1, 1, 2, -1])})")


def set_claim(rng, kind):
    """A claim of the six set and block kinds, decided through prove_claim (the one path of every spelling)."""
    lim = 0 if rng.random() < 0.5 else None   # limit 0: the arguments and the solvers, not enumeration
    pick = (lambda: _term(rng)) if rng.random() < 0.6 else (lambda: _offset_term(rng))
    if kind in ("disjoint", "contains"):
        a = pick()
        a = parse_layout(a) if isinstance(a, str) else a
        size = a.inner.size() if isinstance(a, Compose) else a.size()
        b = a if kind == "contains" and rng.random() < 0.3 else pick()
        b = parse_layout(b) if isinstance(b, str) else b
        nb = rng.randint(1, size) if b is a else None
        return (C.disjoint if kind == "disjoint" else C.contains)(a, b, None, nb), lim
    if kind == "vector":
        tv = _tv(rng)
        nt, nv = product(tv.shape[0]), product(tv.shape[1])
        cols = rng.choice([8, 16, 32])
        rows = max(1, -(-nt * nv // cols))
        mem = parse_layout(rng.choice([f"{nt * nv}:1", f"({rows},{cols}):({cols},1)",
                                       f"Sw<{rng.randint(1, 3)},{rng.randint(0, 3)},3> o 0 o ({rows},{cols}):({cols},1)"]))
        return C.vector(tv, mem, rng.choice([w for w in (1, 2, 4, 8) if nv % w == 0]),
                        rng.choice([None, None, 1, 2, 16])), lim
    body_kind = kind if kind != "forall" else rng.choice(["injective", "contiguous", "aligned"])
    L = _tv(rng) if kind == "forall" and rng.random() < 0.5 else pick()
    L = parse_layout(L) if isinstance(L, str) else L
    body = (C.injective(L) if body_kind == "injective" else
            C.contiguous(L, rng.choice([1, 1, 2, -1])) if body_kind == "contiguous" else
            C.aligned(L, rng.choice([1, 2, 4, 8, 3])))
    return (C.forall(rng.choice([0, 1]), body) if kind == "forall" else body), lim


def set_claims(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        kind = SET_KINDS[len(out) % len(SET_KINDS)]
        try:
            c, lim = set_claim(rng, kind)
            if C._inputs(c) > 4096:
                continue
        except SymcuteError:   # a forall over a mode of extent 1, a domain past a size: no claim
            continue
        out.append(C.prove_claim(c, lim))
    return out


def _values(t, n):
    return [t(q) for q in range(n)]


def _set_failure(c, ts):
    """The claim's first failure by enumeration from its definition (None: it holds); raises ValueError for
    a claim that states nothing (blocks that do not cut the domain, an order that is no permutation)."""
    kind = c["kind"]
    if kind == "disjoint":
        vb = set(_values(ts[1], c["nb"]))
        return next((x for x in range(c["na"]) if ts[0](x) in vb), None)
    if kind == "contains":
        va = set(_values(ts[0], c["na"]))
        return next((y for y in range(c["nb"]) if ts[1](y) not in va), None)
    if kind == "vector":
        tv, mem = ts
        nt, nv, w = product(tv.shape[0]), product(tv.shape[1]), c["width"]
        if len(tv.shape) != 2 or nv % w:
            raise ValueError("no vector claim")
        for t in range(nt):
            for v in range(nv):
                first = mem(tv(t + nt * (v - v % w)))
                if mem(tv(t + nt * v)) != first + v % w or first % c["align"]:
                    return t, v
        return None
    if kind == "forall":
        n, m, P = c["n"], c["m"], ts[1]
        if sorted(_values(P, n)) != list(range(n)):
            raise ValueError("the order is no permutation")
        G, of = (lambda i: ts[0](P(i))), c["of"]
    else:
        G, n, m, of = ts[0], c["n"], c["n"], kind
    if m < 1 or n % m:
        raise ValueError("the blocks do not cut the domain")
    v = _values(G, n)
    for s in range(0, n, m):
        block = v[s:s + m]
        if of == "injective" and len(set(block)) != m or of == "aligned" and block[0] % c["alignment"] or \
                of == "contiguous" and block != [block[0] + c["step"] * j for j in range(m)]:
            return s
    return None


def _set_witnesses(c, ce) -> bool:
    ts = [term_of(t) for t in c["terms"]]
    kind = c["kind"]
    if kind == "disjoint":
        x, y = ce["indices"]
        return 0 <= x < c["na"] and 0 <= y < c["nb"] and ts[0](x) == ts[1](y)
    if kind == "contains":
        return 0 <= ce["index"] < c["nb"] and ts[1](ce["index"]) not in set(_values(ts[0], c["na"]))
    if kind == "vector":
        tv, mem = ts
        nt, w, i = product(tv.shape[0]), c["width"], ce.get("index", -1)
        t, g, j = i // w % nt, i // (w * nt), i % w   # input i of the claim's order: j + w*(t + nt*g)
        first = mem(tv(t + nt * g * w))
        return 0 <= i < nt * product(tv.shape[1]) and (mem(tv(t + nt * (g * w + j))) != first + j or
                                                       j == 0 and first % c["align"] != 0)
    G = (lambda i: ts[0](ts[1](i))) if kind == "forall" else ts[0]
    n, m, of = (c["n"], c["m"], c["of"]) if kind == "forall" else (c["n"], c["n"], kind)
    if of == "injective":
        x, y = ce.get("indices", (0, 0))
        return x != y and x // m == y // m and 0 <= min(x, y) and max(x, y) < n and G(x) == G(y)
    i = ce.get("index", -1)
    s = i - i % m if i >= 0 else 0
    return 0 <= i < n and (G(i) - G(s) != c["step"] * (i - s) if of == "contiguous" else
                           i == s and G(i) % c["alignment"] != 0)


@pytest.fixture(scope="module")
def certificates():
    certs = []
    for p in claims(2026, N_CLAIMS) + set_claims(2027, N_SET_CLAIMS):
        if p.verdict == "unknown":
            continue
        certs.append((p, json.loads(json.dumps(p.certificate_file()))))
    return certs


def test_every_certificate_is_re_verified(certificates):
    counts, unchecked = Counter(), []
    for p, c in certificates:
        jsonschema.validate(c, SCHEMA)
        r = check.check(c)
        assert r.status != "failed", (r, c)
        assert (p.verdict == "proved") == truth(c["claim"]), c   # the prover itself, against enumeration
        counts[(c["method"], c["verdict"], r.status)] += 1
        if r.status == "unchecked":
            unchecked.append((c["method"], r.why))
            assert c["claim"]["kind"] not in SET_KINDS, r   # the six kinds: re-decided within the bound whatever the method
    print("\ncertificates:", dict(sorted(counts.items())))
    # every method with an arithmetic certificate is re-checked: nothing left unchecked on these sizes
    assert [u for u in unchecked if u[0] in ("refinement", "chain", "gf2", "exhaustive", "block-split",
                                             "swizzle-bijection")] == []
    assert {m for (m, _v, _s) in counts} >= {"refinement", "chain", "gf2", "block-split", "swizzle-bijection"}
    kinds = Counter(c["claim"]["kind"] for _p, c in certificates)
    print("claims by kind:", dict(kinds), "\nby kind and method:",
          dict(sorted(Counter((c["claim"]["kind"], c["method"], c["verdict"]) for _p, c in certificates).items())))
    assert set(kinds) >= {"equal", "injective", "surjective", "bijective", *SET_KINDS}
    assert sum(counts.values()) >= 0.9 * (N_CLAIMS + N_SET_CLAIMS)


def witnesses(c: dict, ce: dict) -> bool:
    """The counterexample shows the claim false (decided by enumeration with core)."""
    if c["kind"] in SET_KINDS:
        try:
            return _set_witnesses(c, ce)
        except (KeyError, TypeError, ValueError):
            return False
    ts = [term_of(t) for t in c["terms"]]
    kind = c["kind"]
    n = c["n"] if kind in ("equal", "injective") else c["size"]
    if "index" in ce and kind in ("equal", "bijective"):
        q = ce["index"]
        return 0 <= q < n and (ts[0](q) != ts[1](q) if kind == "equal" else not 0 <= ts[0](q) < c["onto"])
    if "indices" in ce and kind in ("injective", "bijective"):
        x, y = ce["indices"]
        return x != y and 0 <= x < n and 0 <= y < n and ts[0](x) == ts[0](y)
    if "missing" in ce and kind in ("surjective", "bijective"):
        return 0 <= ce["missing"] < c["onto"] and ce["missing"] not in {ts[0](q) for q in range(n)}
    return False


MUTATIONS = ("stride", "extent", "domain", "verdict", "digit", "column", "constant", "rank", "counterexample",
             "split", "part")
EVIDENCE_EDITS = ("digit", "column", "constant", "rank", "split", "part")


def _edit_part(ev: dict, rng) -> bool:
    """One edit of a block's own evidence (a column, the constant, a digit's coefficient, the rank)."""
    if "part" in ev:
        ev = ev["part"]["evidence"]
    else:
        ev = rng.choice(ev["parts"])["evidence"]
    if "split" in ev or "part" in ev:
        return _edit_part(ev, rng)
    keys = [k for k in ("columns", "constant", "digits", "rank") if ev.get(k) not in (None, [])]
    if not keys:
        return False
    key = rng.choice(keys)
    if key == "columns":
        ev[key][rng.randrange(len(ev[key]))] ^= 1 << rng.randrange(0, 10)
    elif key == "digits":
        row = rng.choice(ev[key])
        row[rng.choice([k for k in row if k in ("coef", "lhs", "rhs")])] += rng.choice([1, -1, 2])
    else:
        ev[key] ^= 1 << rng.randrange(0, 3)
    return True


def _edit_split(sp: dict, rng) -> None:
    """One edit of a block decomposition: q off a power of two, a digit's coefficient, a digit moved to the
    other block."""
    what = rng.choice(["q", "coef", "block"])
    if what == "q":
        sp["q"] += rng.choice([1, -1])
    else:
        row = rng.choice(sp["digits"])
        if what == "coef":
            row["coef"] += rng.choice([1, -1, 2])
        else:
            row["block"] = "low" if row["block"] == "high" else "high"


def mutate(c: dict, what: str, rng):
    """A copy of ``c`` with one semantic edit (``None`` where the certificate has no such field)."""
    m = copy.deepcopy(c)
    cl, ev = m["claim"], m["evidence"]
    parts = [p for p in ("contiguous", "aligned") if p in ev]   # a vector's two arguments: edit one
    ev = ev[rng.choice(parts)] if parts else ev["same"]["evidence"] if "same" in ev and what != "counterexample" else ev
    if what in ("stride", "extent"):
        j = rng.randrange(len(cl["terms"])) if cl["kind"] in SET_KINDS else 0
        t = cl["terms"][j]
        if not isinstance(t, str):
            return None
        shape, _, stride = t.rpartition(" o ")[2].partition(":")
        head = t[:len(t) - len(shape) - len(stride) - 1]
        part = stride if what == "stride" else shape
        nums = [k for k, ch in enumerate(part) if ch.isdigit() and (k == 0 or not part[k - 1].isdigit())]
        k = rng.choice(nums)
        end = k
        while end < len(part) and part[end].isdigit():
            end += 1
        new = part[:k] + str(int(part[k:end]) + rng.choice([1, 2])) + part[end:]
        cl["terms"][j] = head + (f"{shape}:{new}" if what == "stride" else f"{new}:{stride}")
    elif what == "domain" and cl["kind"] in SET_KINDS:
        key = rng.choice([k for k in ("n", "na", "nb", "m", "step", "alignment", "width", "align") if k in cl])
        cl[key] = cl[key] * 2 if rng.random() < 0.5 else cl[key] + 1
    elif what == "domain":
        key = "n" if "n" in cl else rng.choice(["size", "onto"])
        cl[key] = cl[key] * 2 if rng.random() < 0.5 else cl[key] + 1
    elif what == "verdict":
        m["verdict"] = "refuted" if m["verdict"] == "proved" else "proved"
    elif what == "digit" and ev.get("digits"):
        row = rng.choice(ev["digits"])
        key = rng.choice([k for k in row])
        row[key] += rng.choice([1, -1, 2])
    elif what == "column" and ev.get("columns"):
        j = rng.randrange(len(ev["columns"]))
        ev["columns"][j] ^= 1 << rng.randrange(0, 10)
    elif what == "constant" and "constant" in ev:
        ev["constant"] ^= 1 << rng.randrange(0, 6)
    elif what == "rank" and "rank" in ev:
        ev["rank"] += rng.choice([1, -1])
    elif what == "split" and "split" in ev:
        _edit_split(ev["split"], rng)
    elif what == "part" and ("parts" in ev or "part" in ev):
        if not _edit_part(ev, rng):
            return None
    elif what == "counterexample" and ev.get("counterexample"):
        ce = ev["counterexample"]
        key = rng.choice(sorted(k for k in ce if k != "value"))
        if key == "indices":
            ce[key][rng.randrange(2)] += 1
        else:
            ce[key] += 1
    else:
        return None
    return m


def test_mutated_certificates_that_no_longer_prove_are_refused(certificates):
    rng = random.Random(7)
    refused, required, accepted_true, tried = Counter(), Counter(), Counter(), Counter()
    for _p, c in certificates:
        for what in MUTATIONS:
            m = mutate(c, what, rng)
            if m is None:
                continue
            try:
                holds = truth(m["claim"])
            except Exception:   # the edit made a layout CuTe refuses: no claim at all, it must fail
                holds = None
            r = check.check(m)
            tried[what] += 1
            still_proves = holds is not None and (m["verdict"] == "proved") == holds
            if still_proves and m["verdict"] == "refuted":
                still_proves = witnesses(m["claim"], m["evidence"].get("counterexample") or {})
            # the evidence of a proof is what the checker re-verifies: an edited one proves nothing (a refutation
            # stands on its counterexample alone, so an edit elsewhere in it leaves it a proof)
            evidence_edit = what in EVIDENCE_EDITS and m["verdict"] == "proved"
            if not still_proves or evidence_edit:
                required[what] += 1
                refused[what] += r.status != "ok"
            elif r.status == "ok":
                accepted_true[what] += 1
    print("\nmutations tried:", dict(tried), "\nrequired refusals:", dict(required), "\nrefused:", dict(refused),
          "\naccepted (still a true claim):", dict(accepted_true))
    assert sum(required.values()) > 0.5 * len(certificates)
    assert refused == required


def test_every_certificate_of_proofs_is_re_verified():
    """CI re-checks the committed proofs/ certificates: every one ok (none failed, none left unchecked)."""
    root = pathlib.Path(__file__).resolve().parents[2] / "proofs"
    files = sorted(root.glob("*.certificates.json"))
    results = [r for _p, r in check.check_files(files)]
    for f in files:
        for c in json.loads(f.read_text())["certificates"]:
            jsonschema.validate(c, SCHEMA)
    assert files and results and [r for r in results if r.status != "ok"] == []
    assert len(results) >= 60


def test_exact_verdicts_are_re_decided_by_cvc5():
    """Z3/ISL verdicts (the enumeration switched off): cvc5 re-decides the checker's own query; a mutated
    stride that breaks the claim is refused."""
    pytest.importorskip("cvc5")
    rng = random.Random(11)
    statuses, refused, required = Counter(), 0, 0
    for _ in range(120):
        L = parse_layout(_plain(rng))
        for p in (prover.is_injective(L, limit=0), prover.is_bijective(L, limit=0),
                  prover.prove(L, parse_layout(_plain(rng)), domain=L.size(), limit=0)):
            if str(p.method) not in ("z3", "isl") or not p.proved:
                continue
            c = p.certificate_file()
            r = check.check(c)
            statuses[r.status] += 1
            assert r.status == "ok", r
            m = mutate(c, "stride", rng)
            if m is not None and not truth(m["claim"]):
                required += 1
                refused += check.check(m).status != "ok"
    print("\nexact verdicts:", dict(statuses), "stride mutations refused:", refused, "/", required)
    assert statuses["ok"] >= 5 and refused == required


def test_probe_refutations_of_wrong_inverses_at_2_32_are_re_evaluated():
    """A wrong right inverse of a 2^32 bijection (two strides swapped) is refuted by probing; the checker
    re-evaluates its counterexample with core, and refuses it moved to an input where both sides agree."""
    L = parse_layout("(2,65536,2,16384):(1,4,2,262144)")
    R = parse_layout("(2,2,65536,16384):(1,2,131072,262144)")   # right_inverse(L), strides 2 and 3 swapped
    p = prover.prove_right_inverse(L, R)
    assert p.refuted
    c = p.certificate_file()
    assert check.check(c).status == "ok"
    m = copy.deepcopy(c)
    m["evidence"]["counterexample"]["index"] = 0   # L(R(0)) == 0: no counterexample
    assert check.check(m).status == "failed"


def test_the_commands_write_and_re_check(cli, tmp_path):
    c = tmp_path / "c.json"
    code, out, _ = cli("prove", "injective", "(4,8):(8,1)", "--certificate", str(c))
    assert code == 0
    code, out, _ = cli("check", str(c))
    assert code == 0 and "1 ok, 0 failed, 0 not re-checked" in out
    forged = json.loads(c.read_text())
    forged["claim"]["terms"] = ["(4,8):(8,2)"]          # the claim edited: the digits no longer fit it
    (tmp_path / "f.json").write_text(json.dumps(forged))
    code, out, _ = cli("check", str(tmp_path / "f.json"))
    assert code == 1 and "failed" in out
    forged = json.loads(c.read_text())
    forged["method"] = "parametric"                      # a kind the checker does not re-check: never ok
    (tmp_path / "u.json").write_text(json.dumps(forged))
    code, out, _ = cli("check", str(tmp_path / "u.json"))
    assert code == 3 and "not re-checked" in out and ": ok:" not in out
    d = tmp_path / "d.json"
    code, _, _ = cli("derive", "swizzle", "Sw<2,0,2> o 0 o (4,4):(4,1)", "--certificates", str(d))
    code, _, _ = cli("check", str(d))
    assert code == 0


TILES = ["Sw<3,3,3> o 0 o (192,64):(64,1)", "Sw<3,3,3> o 0 o (768,64):(64,1)",
         f"Sw<3,3,3> o 0 o ({3 << 26},64):(64,1)",                       # 3 * 2^32 inputs
         "Sw<3,3,3> o 0 o ((8,16),(64,1),3):((64,512),(1,0),8192)",      # the SM80 3-stage tile (128,64,3)
         "Sw<3,3,3> o 0 o (8,64,5,7):(64,1,512,2560)", "Sw<2,0,2> o 0 o (12,4):(4,1)"]


@pytest.mark.parametrize("text", TILES)
def test_block_certificates_of_swizzled_tiles_are_re_verified(text):
    """The split's certificate (q, the digits and their blocks, each block's own certificate) is re-checked at
    any size; forged splits and blocks are refused."""
    L = parse_layout(text)
    certs = {}
    for kind, p in (("injective", prover.is_injective(L)), ("bijective", prover.is_bijective(L, L.size())),
                    ("surjective", prover.is_surjective(L, L.size()))):
        assert p.proved, p
        certs[kind] = c = p.certificate_file()
        jsonschema.validate(c, SCHEMA)
        assert c["method"] == "block-split" and check.check(c).status == "ok", check.check(c)
    c = certs["bijective"]

    def edited(edit):
        m = copy.deepcopy(c)
        edit(m)
        return check.check(m)
    low = next(r for r in c["evidence"]["split"]["digits"] if r["block"] == "low")
    head, _, stride = text.rpartition(":")
    forgeries = {
        "q below the swizzle's bits": lambda m: m["evidence"]["split"].update(q=c["evidence"]["split"]["q"] // 2),
        "a low digit moved high": lambda m: m["evidence"]["split"]["digits"][c["evidence"]["split"]["digits"]
                                                                            .index(low)].update(block="high"),
        "a coefficient": lambda m: m["evidence"]["split"]["digits"][-1].update(coef=low["coef"] + 1),
        "a block dropped": lambda m: m["evidence"]["parts"].pop(),
        "a block's rank": lambda m: next(p for p in m["evidence"]["parts"] if p["block"] == "low")["evidence"]
        .update(rank=1),
        "the claim's stride 1 made 2": lambda m: m["claim"]["terms"].__setitem__(0, head + ":" + re.sub(
            r"\b1\b", "2", stride, count=1)),
        "a false claim": lambda m: m["claim"].update(onto=c["claim"]["onto"] + 1),
    }
    for what, edit in forgeries.items():
        assert edited(edit).status == "failed", what


def test_block_refutations_of_a_missed_value_are_re_checked_past_the_bound():
    """A 3-stage tile whose stages leave gaps misses 512: the checker splits 512 = 0 + 512*1 and re-checks that
    the linear block misses 1 (1.6e9 inputs, far past re-enumeration); a value that is hit is refused."""
    L = parse_layout(f"Sw<3,3,3> o 0 o (8,64,{3 << 20}):(64,1,4096)")
    p = prover.is_surjective(L, L.size())
    assert p.refuted
    c = p.certificate_file()
    r = check.check(c)
    assert r.status == "ok" and "never hit" in r.why, r
    m = copy.deepcopy(c)
    m["evidence"]["counterexample"]["missing"] = 4096   # L(512) = Sw(4096) = 4096: hit
    assert check.check(m).status == "failed"


def test_swizzle_bijection_certificates_re_check_the_layouts_claim():
    """``Sw o 0 o L`` collides where ``L`` does when the swizzle keeps the bits it reads; the layouts' own
    certificate is re-checked, and a swizzle that writes a bit it reads is refused."""
    L = parse_layout("Sw<3,4,3> o 0 o (8,64,3):(64,1,512)")
    c = prover.is_injective(L).certificate_file()
    assert c["method"] == "swizzle-bijection" and check.check(c).status == "ok"
    m = copy.deepcopy(c)
    m["claim"]["terms"] = ["Sw<3,0,2> o 0 o (8,64,3):(64,1,512)"]   # yyy = 28 and zzz = 7 share bit 2
    assert check.check(m).status == "failed"
    m = copy.deepcopy(c)
    m["evidence"]["part"]["evidence"]["digits"][1]["coef"] += 1
    assert check.check(m).status == "failed"
    A, B = parse_layout("Sw<2,0,2> o 0 o (3,5):(5,1)"), parse_layout("Sw<2,0,2> o 0 o (3,(5,1)):(5,(1,7))")
    c = prover.prove(A, B, domain=15).certificate_file()
    assert c["method"] == "swizzle-bijection" and check.check(c).status == "ok", c
    m = copy.deepcopy(c)
    m["claim"]["terms"][1] = "Sw<2,0,3> o 0 o (3,(5,1)):(5,(1,7))"   # another swizzle on one side
    assert check.check(m).status == "failed"
    # onto a union of the swizzle's aligned blocks (48 = 3 * 16): the layout's own surjectivity decides
    T = parse_layout("Sw<2,0,2> o 0 o (12,4):(1,12)")
    for p in (prover.is_surjective(T, 48, limit=0), prover.is_bijective(T, 48, limit=0)):
        c = p.certificate_file()
        assert p.proved and c["method"] == "swizzle-bijection" and check.check(c).status == "ok", c
        m = copy.deepcopy(c)
        m["claim"]["terms"] = ["Sw<3,0,3> o 0 o (12,4):(1,12)"]   # period 64: [0, 48) is no union of its blocks
        assert check.check(m).status == "failed"
    # a gap in the layout: the swizzled term misses Sw(y), re-checked past re-enumeration (1.6e9 inputs)
    p = prover.is_surjective(parse_layout(f"Sw<3,3,3> o 0 o (8,64,{3 << 20}):(64,2,512)"), 3 << 29)
    c = p.certificate_file()
    assert p.refuted and check.check(c).status == "ok" and "misses" in check.check(c).why, c


def test_set_and_block_claims_write_and_re_check(cli, tmp_path):
    """Every keyword of the six set and block kinds writes a certificate symcute check re-verifies; a solver's
    verdict is re-decided by enumeration within the bound and named not re-checked past it, never ok."""
    runs = [(["disjoint", "4:2", "4:2"], 1), (["contains", "16:1", "8:1", "--limit", "0"], 0),
            (["contiguous", "(4,8):(1,4)", "--forall", "1", "--limit", "0"], 0),
            (["aligned", "(4,8):(1,6)", "--forall", "1", "--alignment", "4"], 1),
            (["vector", "(32,8):(8,1)", "Sw<3,3,3> o 0 o 256:1", "--width", "8", "--limit", "0"], 0)]
    for k, (argv, want) in enumerate(runs):
        f = tmp_path / f"c{k}.json"
        code, out, _ = cli("prove", *argv, "--certificate", str(f))
        assert code == want, (argv, out)
        jsonschema.validate(json.loads(f.read_text()), SCHEMA)
        code, out, _ = cli("check", str(f))
        assert code == 0 and "1 ok, 0 failed, 0 not re-checked" in out, (argv, out)
    p = C.prove_claim(C.disjoint(parse_layout("(4,4):(2,16)"), parse_layout("Sw<1,1,2> o 1 o (4,4):(2,8)")), 0)
    assert p.proved and str(p.method) in ("z3", "isl")   # even values against odd ones, by a solver
    r = check.check(p.certificate_file())
    assert r.status == "ok" and "re-enumerated" in r.why, r   # within the bound: re-decided by enumeration
    r = check.check(p.certificate_file(), bound=16)
    assert r.status == "unchecked" and "disjoint by" in r.why, r   # past it: named, never ok


def test_a_vector_certificate_is_tied_to_its_claim():
    """The checker builds a vector claim's order itself: the same evidence under another tv, width or memory
    is refused, and a counterexample moved to a contiguous input is refused."""
    tv, mem = parse_layout("(32,8):(8,1)"), parse_layout("256:1")
    c = C.prove_claim(C.vector(tv, mem, 8), 0).certificate_file()
    assert c["verdict"] == "proved" and check.check(c).status == "ok"
    for key, value in (("terms", ["(32,8):(1,32)", "256:1"]), ("terms", ["(32,8):(8,1)", "256:2"]), ("align", 16)):
        m = copy.deepcopy(c)
        m["claim"][key] = value
        assert check.check(m).status == "failed", (key, value)
    r = C.prove_claim(C.vector(parse_layout("(32,8):(1,32)"), mem, 8)).certificate_file()
    assert r["verdict"] == "refuted" and check.check(r).status == "ok"
    r["evidence"]["counterexample"]["index"] = 0
    assert check.check(r).status == "failed"


def test_forall_of_equal_states_the_equality():
    """forall(axes, equal(a, b)) holds iff a == b on the whole domain: its certificate is the equality's."""
    a = parse_layout("(4,8):(8,1)")
    p = C.prove_claim(C.forall(0, C.equal(a, parse_layout("(4,8):(8,1)"))))
    c = p.certificate_file()
    assert c["claim"]["kind"] == "equal" and check.check(c).status == "ok"


def test_every_document_that_prints_a_verdict_ships_its_certificates_or_says_why():
    """A document of proofs/ that prints a proved or refuted verdict has certificates beside it, or lists the
    verdicts it cannot certify under not_stated (the global-memory and catalog documents keep table verdicts)."""
    root = pathlib.Path(__file__).resolve().parents[2] / "proofs"
    printing = 0
    for doc in sorted(root.glob("*.en.md")):
        if not re.search(r"\b(proved|refuted)\b", doc.read_text()):
            continue
        printing += 1
        d = json.loads((root / f"{doc.name.split('.')[0]}.certificates.json").read_text())
        assert d["certificates"] or d["not_stated"], doc.name
    assert printing >= 10


def test_a_sub_domain_verdict_decided_on_the_whole_domain_ships_the_whole_domains_certificate():
    """injective on [0, size) implies injective on [0, n); a value missed on [0, size) is missed on [0, n): the
    certificate states the whole domain's claim the prover decided (these verdicts had no certificate)."""
    L = parse_layout("(4,8):(1,4)")
    p = C.prove_claim(C.injective(L, 8))
    c = p.certificate_file()
    assert p.proved and c["claim"] == {"kind": "injective", "terms": ["(4,8):(1,4)"], "n": 32}
    assert check.check(c).status == "ok"
    q = C.prove_claim(C.surjective(parse_layout("(4,8):(2,8)"), 4, 8))
    c = q.certificate_file()
    assert q.refuted and c["claim"]["size"] == 32 and check.check(c).status == "ok"


def test_the_smt_encoding_must_agree_with_core_at_every_probe(monkeypatch):
    """cvc5's query is tied to core at every probe input, not at one of them: a term whose core value differs
    from the encoding at its last input only is refused (the probes were one conjunction of inequalities, so
    the agreement held when any single probe agreed)."""
    pytest.importorskip("cvc5")
    from symcute.core.layout import Layout

    class OffAtTheEnd(Layout):
        def __call__(self, *a):
            v = super().__call__(*a)
            return v + 1 if a == (self.size() - 1,) else v
    p = prover.is_injective(parse_layout("(5,4):(8,10)"), limit=0)
    assert p.proved and str(p.method) == "z3"
    c = p.certificate_file()
    assert check.check(c).status == "ok"
    real = check.term
    monkeypatch.setattr(check, "term", lambda t: (lambda L: OffAtTheEnd(L.shape, L.stride))(real(t)))
    r = check.check(c)
    assert r.status == "failed" and "differ from core" in r.why, r


def test_tiles_past_enumeration_are_decided_by_blocks_and_re_checked():
    """Swizzled tiles with the prover's enumeration switched off (``limit=0``, the path of large tiles): every
    verdict agrees with enumeration here, its certificate is re-checked (never failed), the block methods
    decide most, and the mutation fuzz refuses every edit that no longer proves its claim."""
    rng = random.Random(31)
    certs, methods = [], Counter()
    for _ in range(240 if large_run() else 60):
        L = parse_layout(_tile(rng))
        for kind in ("injective", "surjective", "bijective"):
            p = prover.is_injective(L, limit=0) if kind == "injective" else \
                (prover.is_surjective if kind == "surjective" else prover.is_bijective)(L, L.size(), limit=0)
            if p.verdict == "unknown":
                continue
            c = json.loads(json.dumps(p.certificate_file()))
            assert (p.verdict == "proved") == truth(c["claim"]), c
            r = check.check(c)
            assert r.status != "failed", (r, c)
            methods[(c["method"], c["verdict"], r.status)] += 1
            certs.append((p, c))
    print("\ntiles, enumeration off:", dict(sorted(methods.items())))
    assert methods[("swizzle-bijection", "proved", "ok")] and methods[("block-split", "proved", "ok")]
    test_mutated_certificates_that_no_longer_prove_are_refused(certs)
