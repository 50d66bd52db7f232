"""symcute.check on parametric certificates: claims for every admissible value of the parameters.

Random parametric layouts (the parametric trust test's generator) give equality, injectivity and closed-form
claims; every verdict's certificate is validated against the schema and re-checked: none fails, every chain,
same-digits and polynomial-identity proof is re-verified by the checker's own polynomial arithmetic (or said
"not re-checked", never ok, where a leaf is no polynomial), Z3's proofs are "not re-checked", every refutation
is re-evaluated with core at its instantiation.  Mutations (a stride, a side condition, the verdict, the chain's
order, the expected expression, the witness) that make the certificate prove nothing are refused: a mutated
claim counts as false when enumeration with core finds it false at a random admissible instantiation.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections import Counter

import jsonschema
import pytest
import sympy

from symcute import check
from symcute.core.parse import parse_layout
from symcute.symbolic import parametric as P
from symcute.symbolic.parametric import prover as R
from tests.differential.param_cases import rand_layout, rand_params
from tests.large import large_run
from tests.symbolic.test_parametric_trust import _perturb

SCHEMA = json.loads(check.SCHEMA_PATH.read_text())
N_CLAIMS = 1200 if large_run() else 150


def claims(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        ps, _vals = rand_params(rng)
        L = rand_layout(rng, ps, max_rank=2)
        kind = rng.choice(["equal", "injective", "formula"])
        if kind == "equal":
            out.append(R.prove_equal(L, _perturb(rng, L) if rng.random() < 0.6 else P.coalesce(L)))
        elif kind == "injective":
            out.append(R.prove_injective(_perturb(rng, L) if rng.random() < 0.4 else L))
        else:
            f = R.formula(L)
            expected = f.expr
            if f.symbols() and rng.random() < 0.5:
                expected += rng.choice([1, -1, 2]) * rng.choice(f.symbols())
            out.append(R.prove_formula(f, expected))
    return out


def _instance(c: dict, w: dict):
    """The claim's layouts at the values ``w`` (core), by substituting the names in the printed leaves."""
    out = []
    for t in c["terms"]:
        text = t
        for name, v in sorted(w.items(), key=lambda kv: -len(kv[0])):
            text = re.sub(rf"\b{name}\b", f"({v})", text)
        shape, stride = (sympy.sympify(x) for x in text.split(":"))   # test-side only: the prover's own print
        def flat(x):
            if isinstance(x, tuple):
                return [v for y in x for v in flat(y)]
            if not x.is_Integer:
                raise ValueError(f"leaf {x} is no integer")
            return [int(x)]
        from symcute.core.layout import Layout
        out.append(Layout(tuple(flat(shape)), tuple(flat(stride))))
    return out


def _admissible(c: dict, rng):
    w = {}
    for p in c["params"]:
        lo = max(p["lo"], 1)
        k = -(-lo // p["multiple"]) + rng.randint(0, 3)
        w[p["name"]] = p["multiple"] * k
        if p["hi"] is not None and w[p["name"]] > p["hi"]:
            return None
    return w


def false_somewhere(c: dict, rng, tries: int = 6) -> bool:
    """Enumeration with core finds the claim false at some random admissible instantiation."""
    for _ in range(tries):
        w = _admissible(c, rng)
        if w is None:
            continue
        try:
            Ls = _instance(c, w)
        except Exception:
            return True   # a leaf that is no integer at an admissible value: no layout, no claim
        n = Ls[0].size()
        if n > 1 << 12:
            continue
        if c["kind"] == "param-injective" and len({Ls[0](i) for i in range(n)}) != n:
            return True
        if c["kind"] == "param-equal" and (n != Ls[1].size() or any(Ls[0](i) != Ls[1](i) for i in range(n))):
            return True
        if c["kind"] == "param-formula":
            names = c["axes"]
            local = {a: sympy.Symbol(a) for a in list(w) + [a for a in names if a]}
            exp = sympy.sympify(c["expected"], locals=local).subs({local[k]: v for k, v in w.items()})
            shape = [int(s) for s in Ls[0].shape] if isinstance(Ls[0].shape, tuple) else [int(Ls[0].shape)]
            for coord in itertools.islice(itertools.product(*[range(s) for s in shape]), 512):
                q, run = 0, 1
                for x, s in zip(coord, shape):
                    q, run = q + x * run, run * s
                vals = {local[a]: v for a, v in zip(names, coord) if a}
                if Ls[0](q) != int(exp.subs({s: vals.get(s, 0) for s in exp.free_symbols})):
                    return True
    return False


@pytest.fixture(scope="module")
def certificates():
    return [(p, json.loads(json.dumps(p.certificate_file()))) for p in claims(2027, N_CLAIMS)
            if p.proved or p.refuted]


ARITHMETIC = ("param-chain", "param-digits", "param-polynomial")


def test_every_parametric_certificate_is_re_checked(certificates):
    counts = Counter()
    for p, c in certificates:
        jsonschema.validate(c, SCHEMA)
        r = check.check(c)
        assert r.status != "failed", (r, c)
        if r.status == "unchecked":
            assert "parametric" in r.why and (c["method"] not in ARITHMETIC or "polynomial" in r.why), (r, c)
        if p.refuted:
            assert r.status == "ok", (r, c)   # a refutation is re-evaluated with core at its instantiation
        counts[(c["claim"]["kind"], c["method"], c["verdict"], r.status)] += 1
    print("\nparametric certificates:", dict(sorted(counts.items())))
    ok_proofs = sum(v for (_k, m, verdict, st), v in counts.items() if verdict == "proved" and st == "ok")
    assert ok_proofs >= 0.3 * sum(v for (_k, _m, verdict, _s), v in counts.items() if verdict == "proved")
    assert {m for (_k, m, v, s) in counts if v == "proved" and s == "ok"} >= set(ARITHMETIC)


def _edit_leaf(text: str, rng) -> str:
    """One number of the stride (after ':') made one larger."""
    shape, stride = text.split(":")
    nums = [m for m in re.finditer(r"\d+", stride)]
    if not nums:
        return shape + ":" + stride + "+1" if "(" not in stride else shape + ":" + stride.replace(")", "+1)", 1)
    m = rng.choice(nums)
    return shape + ":" + stride[:m.start()] + str(int(m.group()) + rng.choice([1, 2])) + stride[m.end():]


def mutate(c: dict, what: str, rng):
    m = copy.deepcopy(c)
    cl, ev = m["claim"], m["evidence"]
    if what == "stride":
        cl["terms"][0] = _edit_leaf(cl["terms"][0], rng)
    elif what == "condition" and cl["params"]:
        p = rng.choice(cl["params"])
        if p["multiple"] > 1:
            p["multiple"] //= 2
        else:
            p["lo"] = 1 - rng.randint(1, 3)   # a value the claim was not made for
    elif what == "verdict":
        m["verdict"] = "refuted" if m["verdict"] == "proved" else "proved"
    elif what == "order" and len(ev.get("order") or []) > 1:
        i, j = rng.sample(range(len(ev["order"])), 2)
        ev["order"][i], ev["order"][j] = ev["order"][j], ev["order"][i]
    elif what == "expected" and "expected" in cl:
        cl["expected"] = f"{cl['expected']}+{rng.choice([1, 2])}*{rng.choice([a for a in cl['axes'] if a] or ['1'])}"
    elif what == "witness" and ev.get("witness"):
        k = rng.choice(sorted(ev["witness"]))
        ev["witness"][k] += 1
    else:
        return None
    return m


MUTATIONS = ("stride", "condition", "verdict", "order", "expected", "witness")


def test_mutated_parametric_certificates_are_refused(certificates):
    rng = random.Random(5)
    tried, required, refused = Counter(), Counter(), Counter()
    for _p, c in certificates:
        for what in MUTATIONS:
            m = mutate(c, what, rng)
            if m is None:
                continue
            tried[what] += 1
            r = check.check(m)
            # an edited proof's claim found false, an edited chain order, a swapped verdict of a proof found
            # true nowhere false: each must be refused; a refutation's witness moved off the multiples too
            must = (m["verdict"] == "proved" and (what == "order" or false_somewhere(m["claim"], rng))) or \
                (what == "verdict" and m["verdict"] == "refuted") or \
                (what == "witness" and any(v % p["multiple"] for p in m["claim"]["params"]
                                           for k, v in m["evidence"]["witness"].items() if k == p["name"]))
            if must:
                required[what] += 1
                refused[what] += r.status != "ok"
    print("\nparametric mutations tried:", dict(tried), "\nrequired refusals:", dict(required),
          "\nrefused:", dict(refused))
    assert sum(required.values()) > 0.3 * len(certificates)
    assert refused == required


def test_a_leaf_that_is_no_polynomial_is_not_re_checked():
    """``ceil_div(M,128)`` (M no multiple of 128) is outside the checker's polynomials: "not re-checked",
    never ok; the same claim with M a multiple of 128 is re-verified."""
    loose = P.params("M K")
    T = P.zipped_divide(P.layout((loose["M"], loose["K"]), (loose["K"], 1), loose), (128, 32))
    c = R.prove_injective(T).certificate_file()
    r = check.check(c)
    assert "ceil_div" in c["claim"]["terms"][0] and r.status == "unchecked" and "parametric" in r.why, r
    ps = P.params("M K", multiple_of={"M": 128, "K": 32})
    T = P.zipped_divide(P.layout((ps["M"], ps["K"]), (ps["K"], 1), ps), (128, 32))
    c = R.prove_injective(T).certificate_file()
    assert c["method"] == "param-chain" and check.check(c).status == "ok"
    next(p for p in c["claim"]["params"] if p["name"] == "M")["multiple"] = 64   # M/128 is no integer then
    assert check.check(c).status == "failed"


def test_powers_of_a_parameter_are_re_checked():
    """A stride ``K**2`` (the checker's own power): the chain of ``(K,K,K):(1,K,K**2)`` is re-verified, and the
    claim edited to ``K**2-1`` (a collision for every K > 1) is refused; the formula with ``K**2`` is an
    identity, with ``K**2 + K`` it is not."""
    ps = P.params("K", multiple_of={"K": 4})
    K = ps["K"]
    L = P.layout((K, K, K), (1, K, K ** 2), ps)
    p = R.prove_injective(L)
    c = p.certificate_file()
    assert p.proved and "K**2" in c["claim"]["terms"][0] and check.check(c).status == "ok", c
    c["claim"]["terms"][0] = c["claim"]["terms"][0].replace("K**2", "(K**2-1)")
    assert check.check(c).status == "failed"
    f = R.formula(L)
    x = f.symbols()
    c = R.prove_formula(f, x[0] + K * x[1] + K ** 2 * x[2]).certificate_file()
    assert c["method"] == "param-polynomial" and check.check(c).status == "ok", c
    c["claim"]["expected"] += "+K*x2"
    assert check.check(c).status == "failed"


def test_symcute_check_reads_block_and_parametric_certificates(cli, tmp_path):
    """The command re-checks a block certificate written by ``prove --certificate`` and a file of parametric
    certificates: ok where re-verified (exit 0), "not re-checked" for Z3's parametric proof (exit 3)."""
    b = tmp_path / "b.json"
    code, _, _ = cli("prove", "bijective", "Sw<3,3,3> o 0 o (192,64):(64,1)", "--certificate", str(b))
    assert code == 0 and json.loads(b.read_text())["method"] == "block-split"
    ps = P.params("M K", multiple_of={"M": 128, "K": 32})
    T = P.zipped_divide(P.layout((ps["M"], ps["K"]), (ps["K"], 1), ps), (128, 32))
    certs = [R.prove_injective(T).certificate_file(), R.prove_equal(T, P.coalesce(T)).certificate_file()]
    (tmp_path / "p.json").write_text(json.dumps({"certificates": certs}))
    code, out, _ = cli("check", str(b), str(tmp_path / "p.json"))
    assert code == 0 and "3 ok, 0 failed, 0 not re-checked" in out, out
    z3 = dict(certs[0], method="param-z3", evidence={})
    (tmp_path / "z.json").write_text(json.dumps(z3))
    code, out, _ = cli("check", str(tmp_path / "z.json"))
    assert code == 3 and "not re-checked: parametric" in out and ": ok:" not in out, out
