"""An independent fuzz run (issue 16): own generators, own harness, per-input CPU and memory caps.

Generators (seeded ``random.Random``, no hypothesis, nothing shared with the other fuzz tests):

* ``expr``: grammar-based nested calls of the expression language (layout algebra, atoms, methods,
  templates), over hostile leaves: empty and rank-0 layouts, empty modes, negative, zero and huge
  extents, basis strides, swizzles, tilers with ``_``;
* ``cli``: the same texts and hostile options through ``symcute.cli.main`` (calc, formula, prove,
  derive expr), a positional value starting with ``-``;
* ``huge``: inputs under the text limit that ask for a lot (thousands of modes, prefix products,
  repeated variables, nested products);
* ``json:*``: hostile JSON for every reader: derivations, formulas, proofs (mutations of genuine
  documents: types swapped, keys dropped or renamed, values edited, numbers at the limits, nesting),
  hwcheck results lines, manifests, user-atom files, evidence files;
* ``fs``: file-system scenarios: ``hwcheck --emit`` / ``--copy-headers`` / ``derive -o`` into
  directories with planted links, files where directories go, read-only folders; a victim file
  outside the target must keep its bytes and mode.

Harness: every input runs under a CPU-time alarm (``signal.setitimer(ITIMER_PROF)``); the process
runs under ``RLIMIT_AS``.  An outcome is a value, a SymcuteError (by class), a CLI exit status
(with one line on stderr for status 2), a *crash* (any other exception, MemoryError included),
a *hang* (past the CPU bound) or a *write outside the target*.  ``run(kind, n, seed)`` returns
the counts; ``python -m tests.robustness.fuzz16 OUT.json N SEED`` runs every generator.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import signal
import stat
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from symcute.errors import SymcuteError

from .. import cli_runner
from .harness import INTERNAL_MESSAGE

CPU_BOUND = {"expr": 3.0, "cli": 6.0, "huge": 8.0, "fs": 10.0}
DEFAULT_BOUND = 3.0
MEMORY_CAP = 3 << 30


class Hang(BaseException):
    pass


def _alarm(signum, frame):
    raise Hang()


@contextlib.contextmanager
def cpu_bound(seconds: float):
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


# --- leaves and the grammar -------------------------------------------------------------------------

EXTENTS = [1, 2, 2, 3, 4, 4, 8, 16, 0, -1, -4, 1 << 31, 1 << 62, 3 ** 40]
STRIDES = [0, 1, 1, 2, 4, 8, -1, -2, 1 << 40]


def r_int(rng):
    return rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 64, 128, -1, -3, 1 << 20, 1 << 63, 10 ** 30])


def r_shape(rng, depth=0):
    x = rng.random()
    if depth > 2 or x < 0.45:
        return str(rng.choice(EXTENTS))
    if x < 0.5:
        return "()"
    n = rng.choice([1, 1, 2, 2, 3, 4])
    return "(" + ",".join(r_shape(rng, depth + 1) for _ in range(n)) + ")"


def _congruent_stride(rng, shape: str) -> str:
    out, i = [], 0
    while i < len(shape):
        c = shape[i]
        if c.isdigit() or c == "-":
            j = i + 1
            while j < len(shape) and shape[j].isdigit():
                j += 1
            x = rng.random()
            if x < 0.1:
                out.append(f"{rng.choice([1, 2])}@{rng.choice([0, 1, 2])}")
            else:
                out.append(str(rng.choice(STRIDES)))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def r_layout(rng):
    x = rng.random()
    if x < 0.05:
        return "():()"
    if x < 0.08:
        return "((),4):((),1)"
    if x < 0.12:
        b, m, s = rng.choice([(3, 4, 3), (2, 0, 2), (1, 1, 1), (0, 4, 3)])
        return f"Sw<{b},{m},{s}> o {rng.choice([0, 0, 3])} o {r_layout_plain(rng)}"
    return r_layout_plain(rng)


def r_layout_plain(rng):
    shape = r_shape(rng)
    if rng.random() < 0.2:
        return shape if shape != "()" else "4"
    stride = _congruent_stride(rng, shape)
    return f"{shape}:{stride}"


FUNCS1 = ["coalesce", "filter", "filter_zeros", "right_inverse", "left_inverse", "complement", "size", "cosize",
          "rank", "depth", "flatten", "nullspace", "make_layout_like", "shape", "stride", "make_layout"]
FUNCS2 = ["composition", "complement", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
          "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
          "raked_product", "max_common_layout", "max_common_vector", "tile_to_shape", "make_layout",
          "make_ordered_layout", "coalesce", "append", "prepend"]
TEMPLATES = ["upcast<{n}>", "downcast<{n}>", "get<{n}>", "select<{n}>", "take<{n},{m}>", "append<{n}>",
             "recast_layout<{a},{b}>", "group<{n},{m}>", "prepend<{n}>"]
ATOMS = ["SM80_16x8x16_F16F16F16F16_TN{}", "SM80_16x8x8_F16F16F16F16_TN{}", "SM70_8x8x4_F16F16F16F16_NT{}",
         "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}", "SM80_16x8x16_F16F16F16F16_NT{}",
         "Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}", "Copy_Atom<UniversalCopy<uint32_t>, half_t>{}"]
METHODS = [".with_shape({a})", ".get_layoutA_TV()", ".get_layoutC_TV()", ".tile_size()", "({a})", "({a},{b})"]


def r_expr(rng, depth=0) -> str:
    x = rng.random()
    if depth >= rng.choice([1, 2, 3, 4, 6]) or x < 0.25:
        y = rng.random()
        if y < 0.6:
            return r_layout(rng)
        if y < 0.75:
            return str(r_int(rng))
        if y < 0.85:
            return r_shape(rng)
        if y < 0.9:
            return "_"
        return "X"
    if x < 0.5:
        return f"{rng.choice(FUNCS1)}({r_expr(rng, depth + 1)})"
    if x < 0.75:
        return f"{rng.choice(FUNCS2)}({r_expr(rng, depth + 1)}, {r_expr(rng, depth + 1)})"
    if x < 0.85:
        t = rng.choice(TEMPLATES).format(n=rng.choice([0, 1, 2, 3, 4, 1000, -1]), m=rng.choice([0, 1, 2, 5]),
                                         a=rng.choice([8, 16, 32, 3]), b=rng.choice([8, 16, 32, 7]))
        return f"{t}({r_expr(rng, depth + 1)})"
    if x < 0.92:
        atom = rng.choice(ATOMS)
        if rng.random() < 0.5:
            return f"make_tiled_mma({atom}, {r_shape(rng)})" + rng.choice(METHODS).format(
                a=r_expr(rng, depth + 1), b=r_int(rng))
        return atom
    return f"({r_expr(rng, depth + 1)})" + rng.choice(METHODS).format(a=r_expr(rng, depth + 1), b=r_int(rng))


def gen_expr(rng):
    text = r_expr(rng)
    return text, {"X": r_layout(rng)} if "X" in text else {}


# --- entry points ---------------------------------------------------------------------------------

def run_expr(inp):
    from symcute import expr as language
    text, env = inp
    return language.evaluate(text, env)


def gen_cli(rng):
    text, env = gen_expr(rng)
    lets = [a for k, v in env.items() for a in ("--let", f"{k}={v}")]
    x = rng.random()
    if x < 0.4:
        return ["calc", text, *lets]
    if x < 0.55:
        return ["formula", rng.choice([text, r_layout(rng), "-3:2"]), *lets,
                *rng.choice([[], ["--names", rng.choice(["(a,b)", "(a,a)", "x", "((a))", "(\x1b,b)"])]])]
    if x < 0.8:
        claim = rng.choice(["injective", "surjective", "bijective", "right-inverse", "left-inverse", "equal"])
        args = [r_layout(rng)] + ([r_layout(rng)] if claim == "equal" else [])
        opts = rng.choice([[], ["--cotarget", str(r_int(rng))], ["--limit", rng.choice(["0", "-1", "10"])],
                           ["--inverse", r_layout(rng)], ["--domain", str(r_int(rng))], ["--json"]])
        return ["prove", claim, *args, *opts]
    return ["derive", "expr", text, *lets, *rng.choice([[], ["--format", "json"], ["--lang", "zh"]])]


class InternalMessage(Exception):
    """A clean error (exit 2, one line) whose text is Python's own message."""


def run_cli(argv):
    code, out, err = cli_runner.run_cli(argv)
    if code == 2 and not (err.endswith("\n") and err.count("\n") == 1):
        raise AssertionError(f"exit 2 without exactly one line on stderr: {err[:300]!r}")
    if "Traceback" in err:
        raise AssertionError(f"traceback on stderr: {err[-500:]}")
    if code == 2 and INTERNAL_MESSAGE.search(err):
        raise InternalMessage(err.strip()[:400])
    if code not in (0, 1, 2, 3):
        raise AssertionError(f"exit status {code}")
    return code


def gen_huge(rng):
    n = rng.choice([1000, 4000, 8000, 20000])
    k = rng.random()
    ext = lambda: str(rng.choice([1, 2, 3, 4]))  # noqa: E731
    if k < 0.3:
        shape = ",".join(ext() for _ in range(n))
        stride = ",".join(str(rng.choice([0, 1, 2, 4, 8, 16])) for _ in range(n))
        L = f"({shape}):({stride})"
    elif k < 0.5:
        L = "(" + ",".join(ext() for _ in range(n)) + ")"
    elif k < 0.7:
        L = "(" * 60 + "2" + ",2)" * 60
    else:
        L = f"({','.join(['2'] * n)}):({','.join(['0'] * n)})"
    op = rng.choice(["coalesce(L)", "right_inverse(L)", "left_inverse(L)", "nullspace(L)", "complement(L)",
                     "make_ordered_layout(shape(L), shape(L))", "logical_product(L, L)", "composition(L, L)",
                     "filter(L)", "upcast<2>(L)", "make_layout_like(L)", "size(logical_product(L, logical_product(L, L)))",
                     "blocked_product(L, 4:1)", "max_common_vector(L, L)", "L(123456789)", "cosize(L)"])
    cmd = rng.choice(["calc", "calc", "formula", "derive"])
    if cmd == "derive":
        return ["derive", "expr", op, "--let", f"L={L}"]
    if cmd == "formula":
        return ["formula", "L", "--let", f"L={L}"]
    return ["calc", op, "--let", f"L={L}"]


# --- hostile JSON -------------------------------------------------------------------------------

_DOCS: dict = {}


def _docs():
    if not _DOCS:
        import symcute as sc
        import symcute.symbolic as sym
        from symcute.expr import derive_expr
        _DOCS["derivation"] = [derive_expr(t, {}, {}).to_json() for t in
                               ("right_inverse((4,8):(8,1))", "coalesce((4,(2,2)):(1,(4,8)))",
                                "composition((8,8):(1,8), (4,4):(1,4))", "logical_divide((8,8):(1,8), (2,2))")]
        _DOCS["formula"] = [sc.formula(sc.Layout.parse(t)).to_json() for t in ("(4,8):(8,1)", "((4,8),2):((1,4),32)")]
        _DOCS["proof"] = [sym.prove_right_inverse(sc.Layout.parse("(4,8):(8,1)")).to_json(),
                          sym.is_injective(sc.Layout.parse("(4,2):(1,1)")).to_json()]
        d = tempfile.mkdtemp(prefix="fuzz16-emit-")
        code, _, err = cli_runner.run_cli(["hwcheck", "--atom", "SM80_16x8x8_F16F16F16F16_TN", "--emit", d])
        assert code == 0, err
        _DOCS["manifest"] = [Path(d, "manifest.json").read_text()]
        _DOCS["results"] = ['{"kind":"env","manifest":"%s","device":"x","start":0}' % json.loads(
            _DOCS["manifest"][0])["id"], '{"kind":"case","index":0,"status":"ok","d":["%s"]}' % ("00" * 8)]
        _DOCS["user_atoms"] = ['[{"name": "u1", "base": "SM80_16x8x8_F16F16F16F16_TN", '
                               '"c": "((4,8),(2,2)):((32,1),(8,16))"}]']
        from symcute.hwcheck.evidence import EVIDENCE_PATH
        _DOCS["evidence"] = [Path(EVIDENCE_PATH).read_text()]
    return _DOCS


HOSTILE = [None, True, False, 0, -1, 1.5, 1e308, "", "x", "\x1b[2J", "\\input{/etc/passwd}", [], {}, [1], {"a": 1},
           "((((((((((1))))))))))", "right_inverse(20000:1)", "Sw<3,4,3> o 0 o 8:1", "(8,4):(1,8)", 2 ** 64,
           "v" + "1" * 60, "s0", "proved", "refuted", "layout", "tuple", "Formula", "Proof", "0" * 400]


def _mutate_value(rng, v, depth=0):
    if depth > 6:
        return v
    if isinstance(v, dict) and v and rng.random() < 0.8:
        k = rng.choice(sorted(v))
        w = dict(v)
        x = rng.random()
        if x < 0.2:
            del w[k]
        elif x < 0.3:
            w[k + rng.choice(["_", "X", ""])] = w.pop(k)
        elif x < 0.6:
            w[k] = _mutate_value(rng, v[k], depth + 1)
        else:
            w[k] = rng.choice(HOSTILE)
        return w
    if isinstance(v, list) and v and rng.random() < 0.8:
        i = rng.randrange(len(v))
        w = list(v)
        x = rng.random()
        if x < 0.2:
            del w[i]
        elif x < 0.3:
            w.append(rng.choice(v))
        elif x < 0.7:
            w[i] = _mutate_value(rng, v[i], depth + 1)
        else:
            w[i] = rng.choice(HOSTILE)
        return w
    if isinstance(v, str) and v.startswith("{") and rng.random() < 0.5:   # JSON inside a string (Formula text)
        try:
            return json.dumps(_mutate_value(rng, json.loads(v), depth + 1))
        except ValueError:
            return v
    if isinstance(v, str) and ":" in v and rng.random() < 0.5:
        return r_layout(rng)
    return rng.choice(HOSTILE)


def _text_mutation(rng, text):
    x = rng.random()
    if x < 0.3:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(["[" * 100, "{", "}", ",", "1e400", "NaN", "9" * 5000, '"', "\\u0000",
                                      "-0", "\xff"]) + text[i:]
    if x < 0.5:
        i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        return text[:i] + text[j:]
    if x < 0.6:
        return "[" * rng.choice([65, 2000, 100000]) + "]" * rng.choice([0, 65, 2000])
    return text


def gen_json(rng, kind):
    base = rng.choice(_docs()[kind])
    if kind == "results":
        base = "\n".join(_docs()["results"])
        lines = base.split("\n")
        i = rng.randrange(len(lines))
        obj = json.loads(lines[i])
        for _ in range(rng.randint(1, 3)):
            obj = _mutate_value(rng, obj)
        lines[i] = json.dumps(obj) if rng.random() < 0.8 else _text_mutation(rng, lines[i])
        return "\n".join(lines)
    if rng.random() < 0.25:
        return _text_mutation(rng, base)
    obj = json.loads(base)
    for _ in range(rng.randint(1, 4)):
        obj = _mutate_value(rng, obj)
    return json.dumps(obj)


def run_json(kind, text):
    if kind == "derivation":
        from symcute.report import markdown
        from symcute.trace import Derivation
        d = Derivation.from_json(text)
        markdown(d, "en")
        return d
    if kind == "formula":
        from symcute.symbolic.formula import Formula
        f = Formula.from_json(text)
        str(f), f.latex()
        return f
    if kind == "proof":
        from symcute.symbolic.proof import Proof
        p = Proof.from_json(text)
        return str(p)
    if kind == "results":
        from symcute.hwcheck.api import read_results
        man = json.loads(_docs()["manifest"][0])
        return read_results(text, man).to_text()
    with tempfile.TemporaryDirectory(prefix="fuzz16-json-") as d:
        p = Path(d) / "doc.json"
        p.write_text(text, errors="surrogateescape")
        if kind == "manifest":
            from symcute.hwcheck.api import read_results
            (Path(d) / "results.jsonl").write_text("\n".join(_docs()["results"]) + "\n")
            return read_results(str(Path(d) / "results.jsonl"), str(p)).to_text()
        if kind == "user_atoms":
            return run_cli(["hwcheck", "--user-json", str(p), "--emit", str(Path(d) / "out")])
        if kind == "evidence":
            from symcute.hwcheck.evidence import check_evidence, load_evidence
            return check_evidence(load_evidence(p))
    raise ValueError(kind)


# --- file-system scenarios ------------------------------------------------------------------------

def gen_fs(rng):
    return {"cmd": rng.choice(["emit", "emit", "headers", "derive", "evidence"]),
            "plant": rng.choice(["link_file", "link_dir", "file_for_dir", "readonly", "dangling", "none",
                                 "link_include", "link_include_cute"]),
            "name": rng.choice(["run.sh", "manifest.json", "hwcheck.cu", "inputs.bin", "proof.md", "ev.json"])}


def run_fs(sc):
    with tempfile.TemporaryDirectory(prefix="fuzz16-fs-") as tmp:
        tmp = Path(tmp)
        victim = tmp / "victim"
        victim.mkdir()
        vf = victim / "secret"
        vf.write_bytes(b"secret\n")
        vf.chmod(0o600)
        (victim / "cute").mkdir()
        (victim / "cute" / "keep").write_bytes(b"keep\n")
        out = tmp / "out"
        out.mkdir()
        plant, name = sc["plant"], sc["name"]
        if plant == "link_file":
            (out / name).symlink_to(vf)
        elif plant == "link_dir":
            (out / name).symlink_to(victim)
        elif plant == "file_for_dir":
            out.rmdir()
            out.write_bytes(b"not a directory")
        elif plant == "readonly":
            out.chmod(0o500)
        elif plant == "dangling":
            (out / name).symlink_to(tmp / "nowhere")
        elif plant == "link_include":
            (out / "include").symlink_to(victim)
        elif plant == "link_include_cute":
            (out / "include").mkdir()
            (out / "include" / "cute").symlink_to(victim / "cute")
        cmd = sc["cmd"]
        if cmd in ("emit", "headers"):
            argv = ["hwcheck", "--atom", "SM80_16x8x8_F16F16F16F16_TN", "--emit", str(out)]
            if cmd == "headers":
                argv.append("--copy-headers")
        elif cmd == "derive":
            argv = ["derive", "expr", "right_inverse((4,8):(8,1))", "-o", str(out / name)]
        else:
            rdir = tmp / "run"
            rdir.mkdir()
            d0 = json.loads(_docs()["manifest"][0])
            (rdir / "manifest.json").write_text(json.dumps(d0))
            (rdir / "results.jsonl").write_text("\n".join(_docs()["results"]) + "\n")
            argv = ["hwcheck", "--results", str(rdir / "results.jsonl"), "--evidence-out", str(out / name)]
        code = run_cli(argv)
        if plant == "readonly":
            out.chmod(0o700)
        if vf.read_bytes() != b"secret\n" or stat.S_IMODE(vf.stat().st_mode) != 0o600 or \
                (victim / "cute" / "keep").read_bytes() != b"keep\n" or \
                sorted(p.name for p in victim.iterdir()) != ["cute", "secret"]:
            raise WroteOutside(f"{sc}: the victim directory changed")
        if out.is_dir():
            for p in out.rglob("*"):
                if p.name.endswith(".tmp"):
                    raise WroteOutside(f"{sc}: a temporary file was left: {p}")
        return code


class WroteOutside(Exception):
    pass


# --- the runner -----------------------------------------------------------------------------------

ENTRIES = {
    "expr": (gen_expr, run_expr),
    "cli": (gen_cli, run_cli),
    "huge": (gen_huge, run_cli),
    "fs": (gen_fs, run_fs),
}
for _k in ("derivation", "formula", "proof", "results", "manifest", "user_atoms", "evidence"):
    ENTRIES[f"json:{_k}"] = ((lambda k: lambda rng: gen_json(rng, k))(_k), (lambda k: lambda t: run_json(k, t))(_k))


def run(kind: str, n: int, seed: int = 16, deadline: float | None = None, log=None) -> Counter:
    """Run ``n`` inputs of ``kind``; counts by outcome (``crash``, ``hang``, ``wrote-outside`` and
    ``internal-message`` -- a clean error carrying Python's own text -- must stay 0)."""
    gen, fn = ENTRIES[kind]
    rng = random.Random(f"{kind}:{seed}")
    bound = CPU_BOUND.get(kind.split(":")[0], DEFAULT_BOUND)
    counts: Counter = Counter()
    digits = sys.get_int_max_str_digits()
    for i in range(n):
        if deadline is not None and time.time() > deadline:
            break
        inp = gen(rng)
        try:
            with cpu_bound(bound):
                v = fn(inp)
            outcome = f"exit {v}" if kind in ("cli", "huge", "fs", "json:user_atoms") else "value"
        except SymcuteError as e:
            outcome = type(e).__name__
            if INTERNAL_MESSAGE.search(str(e)):
                outcome = "internal-message"
                _report(log, kind, i, inp, str(e)[:400])
        except InternalMessage as e:
            outcome = "internal-message"
            _report(log, kind, i, inp, str(e))
        except Hang:
            outcome = "hang"
        except WroteOutside as e:
            outcome = "wrote-outside"
            _report(log, kind, i, inp, repr(e))
        except (Exception, MemoryError) as e:  # noqa: BLE001  (the point: nothing else may escape)
            outcome = "crash"
            _report(log, kind, i, inp, "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-5)))
        finally:
            sys.set_int_max_str_digits(digits)
        if outcome == "hang":
            _report(log, kind, i, inp, f"past {bound} s of CPU")
        counts[outcome] += 1
    counts["inputs"] = sum(v for k, v in counts.items() if k != "inputs")
    return counts


def _report(log, kind, i, inp, what):
    if log is None:
        return
    text = repr(inp)
    with open(log, "a", encoding="utf-8") as fh:
        fh.write(f"{kind} #{i}: {text[:2000]}{'...' if len(text) > 2000 else ''}\n{what}\n\n")


PLAN = {"expr": 45_000, "cli": 20_000, "huge": 600, "fs": 1_500, "json:derivation": 6_000, "json:formula": 12_000,
        "json:proof": 12_000, "json:results": 10_000, "json:manifest": 2_500, "json:user_atoms": 1_500,
        "json:evidence": 1_500}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out, scale, seed = argv[0], float(argv[1]), int(argv[2])
    minutes = float(argv[3]) if len(argv) > 3 else 60.0
    kinds = argv[4].split(",") if len(argv) > 4 else list(PLAN)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    log = out + ".failures.txt"
    start = time.time()
    weight = {k: PLAN[k] * (1 if k.startswith(("expr", "json")) else 4) for k in kinds}
    results = {}
    for kind in kinds:
        n = PLAN[kind]
        per_kind_deadline = minutes * 60 * weight[kind] / sum(weight.values())
        t0 = time.time()
        counts = run(kind, int(n * scale), seed, deadline=t0 + per_kind_deadline, log=log)
        results[kind] = dict(counts, seconds=round(time.time() - t0, 1))
        Path(out).write_text(json.dumps({"seed": seed, "scale": scale, "results": results,
                                         "elapsed": round(time.time() - start, 1)}, indent=1))
        print(kind, dict(counts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
