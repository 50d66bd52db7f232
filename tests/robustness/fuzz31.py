"""Round three of hostile input (issue 31): own generators over the entry points that round found weak.

Generators (seeded ``random.Random``):

* ``prove``: keyword claims (bijective, equal, injective, aligned, contiguous, vector, ...) over hostile
  ``--let`` layouts (basis strides, 2^64 extents, zero and negative extents, rank 0) and hostile options
  (``--alignment 2^64``, ``--domain -1``, ``--step 0``);
* ``calc``: printers and pictures (``print_layout``, ``print_tensor(make_identity_tensor(...))``,
  ``print_latex``, ``print_svg``) and casts (``upcast``/``downcast``/``recast_layout``) over zero, negative
  and huge extents and factors;
* ``bank``: ``bank --smem`` hostile layouts, ``--fix``, ``--tv`` hostile TV layouts, bit widths;
* ``derive``: ``derive gmem --tile/--param`` (huge tiles, 16+ parameters), ``derive swizzle``
  (hostile tiles, element bits, columns), ``derive bank``, ``derive tv``;
* ``read``: every file reader (``hwcheck --results``, ``--manifest``, ``--user-json``, the Python
  readers) on FIFOs, ``/dev/zero``, directories, ``/proc`` entries, gzip bombs, oversized files, a FIFO
  ``sass_mma.txt``, UTF-16 GraphML with entities;
* ``write``: every writer (``derive -o``, ``bank --svg``, ``hwcheck --evidence-out``,
  ``sparse.emit``, ``files.write``) onto links (symbolic and hard), FIFOs, device nodes (a copy of
  ``/dev/null`` made with ``mknod`` when run as root), ``/proc`` links, directories: a victim must keep
  its bytes, a device node must stay a device, nothing may block;
* ``emit``: concurrent ``hwcheck --emit`` runs into one directory: the program and the manifest always
  come from one run.

Outcomes: a value / an exit status, a SymcuteError by class, a *crash* (any other exception, MemoryError
included, or a traceback on stderr), a *hang* (past the CPU or wall-clock bound), an *unsafe write*, and
an *internal message* (a clean error whose text is Python's, not symcute's: ``index out of range``,
``object has no attribute``, ...).  ``python -m tests.robustness.fuzz31 OUT.json SCALE SEED [MINUTES]``.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import random
import re
import resource
import signal
import stat
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

from symcute.errors import SymcuteError

from .. import cli_runner
from .fuzz16 import r_layout, r_shape
from .harness import INTERNAL_MESSAGE

CPU_BOUND = 2.0          # seconds of CPU per input (the bound)
WALL_BOUND = 60.0        # seconds of wall-clock per input (a blocked open)
MEMORY_HEADROOM = 500 << 20   # bytes of address space past the warmed-up process, per input

INTERNAL = INTERNAL_MESSAGE   # the name the reproducer tests import


class Hang(BaseException):
    pass


class Unsafe(Exception):
    pass


def _alarm(signum, frame):
    raise Hang("CPU" if signum == signal.SIGPROF else "wall")


@contextlib.contextmanager
def bounded(cpu: float = CPU_BOUND, wall: float = WALL_BOUND):
    old = {s: signal.signal(s, _alarm) for s in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, cpu)
    signal.setitimer(signal.ITIMER_REAL, wall)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for s, h in old.items():
            signal.signal(s, h)


# --- hostile leaves -----------------------------------------------------------------------------------

BIG = ["18446744073709551616", "4294967296", "1099511627776", str(1 << 62), str(10 ** 30), "-1", "0", "-64"]


def r_int(rng) -> str:
    return rng.choice(["0", "1", "2", "3", "4", "8", "16", "32", "128", "-1", "-4"] + BIG)


def r_hostile_layout(rng) -> str:
    x = rng.random()
    if x < 0.5:
        return r_layout(rng)
    if x < 0.6:
        return f"({r_int(rng)},{r_int(rng)}):(1,{r_int(rng)})"
    if x < 0.7:
        return rng.choice(["(1,(5,1)):(2@0,(8,8))", "(2,2):(1@0,1@1)", "(4,4):(1@1,1@0)", "((),()):((),())",
                           "(0,1099511627776):(1,1)", "(32,-64):(64,1)", "(4096,4096):(4096,1)",
                           "(18446744073709551616,2):(1,18446744073709551616)", "(8,8):(1@0,8)",
                           "Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<3,4,3> o (8,128):(64,1)", "():()",
                           "(2,(2,2)):(2@1,(1@0,4))", "((8,8),2):((8,1),0)"])
    if x < 0.8:
        return f"({r_int(rng)},{r_int(rng)}):({r_int(rng)},{r_int(rng)})"
    b, m, s = rng.choice([(3, 4, 3), (2, 0, 2), (1, 1, 1), (0, 4, 3), (3, 3, 3), (5, 0, 5)])
    return f"Sw<{b},{m},{s}> o {rng.choice([0, 3])} o {r_layout(rng)}"


# --- command generators ------------------------------------------------------------------------------

CLAIMS1 = ["bijective", "injective", "surjective", "right-inverse", "left-inverse", "contiguous", "aligned"]
CLAIMS2 = ["equal", "disjoint", "contains"]
CLAIM_EXPRS = ["equal(L, L)", "bijective(L)", "injective(L)", "forall(t, injective(L))", "aligned(L, 16)",
               "contiguous(L)", "vector(L, L, 8)", "equal(L, coalesce(L))", "bijective(right_inverse(L))",
               "injective(composition(L, L))", "surjective(L, 16)", "equal(Compose(L, L), L)"]


def gen_prove(rng):
    L = r_hostile_layout(rng)
    opts = []
    for _ in range(rng.choice([0, 1, 1, 2])):
        o = rng.choice(["--alignment", "--cotarget", "--domain", "--domain-b", "--step", "--width", "--align",
                        "--limit", "--forall", "--inverse", "--names"])
        v = {"--forall": rng.choice(["t", "0", "x0,x1", "", "9"]), "--inverse": r_hostile_layout(rng),
             "--names": rng.choice(["(a,b)", "(a,(b,c))", "x", "()"]), "--limit": rng.choice(["0", "10", "-1"])}
        opts += [o, v.get(o, r_int(rng))]
    x = rng.random()
    if x < 0.45:
        argv = ["prove", rng.choice(CLAIMS1), L]
    elif x < 0.6:
        argv = ["prove", rng.choice(CLAIMS2), L, r_hostile_layout(rng)]
    elif x < 0.7:
        argv = ["prove", "vector", L, r_hostile_layout(rng)]
    else:
        argv = ["prove", rng.choice(CLAIM_EXPRS), "--let", f"L={L}"]
    return argv + opts + (["--json"] if rng.random() < 0.2 else [])


PRINTERS = ["print_layout({L})", "print_tensor(make_identity_tensor({S}))", "print_latex({L})",
            "print_svg({L})", "print_tensor(make_tensor(make_counting_iterator(0), {L}))",
            "print_layout(make_layout({S}))", "print_latex_tv({L}, {S})"]
CASTS = ["upcast({L}, {n})", "downcast({L}, {n})", "upcast<{n}>({L})", "downcast<{n}>({L})",
         "recast_layout<{n},{m}>({L})", "max_common_vector({L}, {L2})", "zipped_divide({L}, {S})",
         "logical_divide({L}, {S})", "blocked_product({L}, {L2})", "make_identity_tensor({S})",
         "depth({S}, {n})", "get<{n}>({L})", "take<{n},{m}>({L})", "composition({L}, {L2})"]


def r_big_shape(rng) -> str:
    return "(" + ",".join(r_int(rng) for _ in range(rng.choice([1, 2, 3, 4]))) + ")" if rng.random() < 0.6 \
        else r_shape(rng)


def gen_calc(rng):
    t = rng.choice(PRINTERS if rng.random() < 0.5 else CASTS)
    text = t.format(L=r_hostile_layout(rng), L2=r_hostile_layout(rng), S=r_big_shape(rng), n=r_int(rng),
                    m=r_int(rng))
    opts = rng.choice([[], [], ["--max-cells", rng.choice(["0", "1", "-1", "100000000", "abc"])], ["--cute-print"]])
    return ["calc", text, *opts]


MMAS = ["SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F16F16F16F16_TN", "SM70_8x8x4_F16F16F16F16_NT", "bogus"]


def gen_bank(rng):
    argv = ["bank", "--smem", r_hostile_layout(rng)]
    x = rng.random()
    if x < 0.4:
        argv += ["--tv", r_hostile_layout(rng)]
        if rng.random() < 0.5:
            argv += ["--value-bits", rng.choice(["16", "8", "0", "-8", "3", "4096", "18446744073709551616"])]
        if rng.random() < 0.3:
            argv += ["--vector-bits", rng.choice(["32", "128", "0", "7", "-1"])]
    elif x < 0.7:
        argv += ["--mma", rng.choice(MMAS), "--operand", rng.choice("ABC")]
        if rng.random() < 0.3:
            argv += ["--atom-layout", rng.choice(["2,2,1", "0,1,1", "1048576,1,1", "-1,2,1", "x"])]
    if rng.random() < 0.4:
        argv += ["--fix"]
    return argv


def gen_derive(rng):
    x = rng.random()
    if x < 0.35:
        argv = ["derive", "gmem"]
        if rng.random() < 0.7:
            argv += ["--tile", f"{r_int(rng)},{r_int(rng)}"]
        for _ in range(rng.choice([0, 1, 2, 4, 17])):
            argv += ["--param", f"{rng.choice('MKNX')}:{rng.choice(['1', '8', '128', '0', '-1', '4294967296'])}"]
        if rng.random() < 0.2:
            argv += ["--atom-layout", rng.choice(["2,2,1", "64,64,1", "0,1,1"])]
        return argv
    if x < 0.7:
        argv = ["derive", "swizzle", r_hostile_layout(rng)]
        if rng.random() < 0.4:
            argv += ["--element-bits", rng.choice(["16", "0", "-8", "1", "4096", "18446744073709551616"])]
        if rng.random() < 0.3:
            argv += ["--column", r_int(rng)]
        return argv
    if x < 0.85:
        return ["derive", "bank", "--smem", r_hostile_layout(rng)] if "bank" in _DERIVE_CMDS else gen_bank(rng)
    return ["derive", "tv", "--mma", rng.choice(MMAS), "--atom-layout", rng.choice(["2,2,1", "1,1,1", "0,2,1",
                                                                                   "4096,4096,1"])]


_DERIVE_CMDS = {"gmem", "swizzle", "bank", "tv"}


def run_cli(argv):
    code, out, err = cli_runner.run_cli(argv)
    if "Traceback" in err:
        raise AssertionError(f"traceback on stderr: {err[-600:]}")
    if code == 2 and not (err.endswith("\n") and err.count("\n") == 1):
        raise AssertionError(f"exit 2 without exactly one line on stderr: {err[:300]!r}")
    if code == 2 and INTERNAL.search(err):
        raise InternalMessage(err.strip()[:400])
    if code not in (0, 1, 2, 3):
        raise AssertionError(f"exit status {code}")
    return code


class InternalMessage(Exception):
    pass


# --- readers -------------------------------------------------------------------------------------------

def _special(rng, d: Path, kind: str) -> Path:
    """A hostile file named ``d/<name>`` of ``kind``."""
    p = d / rng.choice(["results.jsonl", "results.jsonl.gz", "manifest.json", "atoms.json", "in.graphml"])
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "zero":
        p.symlink_to("/dev/zero")
    elif kind == "urandom":
        p.symlink_to("/dev/urandom")
    elif kind == "dir":
        p.mkdir()
    elif kind == "proc":
        p.symlink_to(rng.choice(["/proc/self/status", "/proc/self/mem", "/proc/self/fd/0", "/proc/kmsg"]))
    elif kind == "bomb":
        with gzip.open(p, "wb", compresslevel=9) as g:
            chunk = b'{"kind":"case"' + b" " * (1 << 20)
            for _ in range(rng.choice([64, 256])):
                g.write(chunk)
    elif kind == "big":
        with open(p, "wb") as f:
            f.truncate(rng.choice([65 << 20, 1 << 30]))   # sparse: costs no disk
    elif kind == "utf16":
        doc = ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE g [<!ENTITY a "aaaaaaaaaa">'
               '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><graphml><graph><node id="&b;"/></graph></graphml>')
        p.write_bytes(doc.encode(rng.choice(["utf-16", "utf-16-le", "utf-16-be", "utf-32"])))
    return p


READ_KINDS = ["fifo", "zero", "urandom", "dir", "proc", "bomb", "big", "utf16"]


def gen_read(rng):
    return rng.choice(READ_KINDS), rng.choice(["results", "manifest", "user-json", "sass-fifo", "api-results",
                                               "api-graphml", "api-derivation"]), rng.random()


def run_read(inp):
    kind, how, salt = inp
    rng = random.Random(salt)
    with tempfile.TemporaryDirectory(prefix="fuzz31-read-") as td:
        d = Path(td)
        p = _special(rng, d, kind)
        if how == "sass-fifo":   # a genuine results file beside a FIFO named sass_mma.txt
            p = d / "results.jsonl"
            if p.exists() or p.is_symlink():
                p = d / "r2" / "results.jsonl"
                p.parent.mkdir()
            p.write_text('{"kind":"env","manifest":"x","device":"x","start":0}\n')
            os.mkfifo(p.parent / "sass_mma.txt")
            return run_cli(["hwcheck", "--results", str(p)])
        if how == "results":
            return run_cli(["hwcheck", "--results", str(p)])
        if how == "manifest":
            ok = d / "ok.jsonl"
            ok.write_text('{"kind":"env","manifest":"x","device":"x","start":0}\n')
            return run_cli(["hwcheck", "--results", str(ok), "--manifest", str(p)])
        if how == "user-json":
            return run_cli(["hwcheck", "--user-json", str(p), "--atom", "SM80_16x8x8_F16F16F16F16_TN"])
        if how == "api-results":
            from symcute.hwcheck import api
            return api.read_results(str(p))
        from symcute.trace import Derivation
        if how == "api-graphml":
            return Derivation.from_graphml(str(p))
        return Derivation.from_graphml(p.read_bytes()[:1 << 16] if p.is_file() else str(p))


# --- writers -------------------------------------------------------------------------------------------

def _mknod_null(p: Path) -> bool:
    try:
        st = os.stat("/dev/null")
        os.mknod(p, 0o666 | stat.S_IFCHR, st.st_rdev)
        return True
    except (PermissionError, OSError):
        return False


WRITE_TARGETS = ["symlink", "hardlink", "fifo", "device", "proc", "dir", "dangling", "regular", "missing-dir"]
WRITERS = ["derive-o", "bank-svg", "evidence-out", "sparse-emit", "files-write", "formula-o"]


def gen_write(rng):
    return rng.choice(WRITE_TARGETS), rng.choice(WRITERS), rng.random()


def run_write(inp):
    target_kind, writer, salt = inp
    with tempfile.TemporaryDirectory(prefix="fuzz31-write-") as td:
        d = Path(td)
        victim = d / "victim"
        victim.write_text("keep\n")
        os.chmod(victim, 0o600)
        t = d / "out" / "target.svg"
        t.parent.mkdir()
        if target_kind == "symlink":
            t.symlink_to(victim)
        elif target_kind == "hardlink":
            os.link(victim, t)
        elif target_kind == "fifo":
            os.mkfifo(t)
        elif target_kind == "device":
            if not _mknod_null(t):
                t.symlink_to("/dev/null")
        elif target_kind == "proc":
            t.symlink_to("/proc/self/fd/1")
        elif target_kind == "dir":
            t.mkdir()
        elif target_kind == "dangling":
            t.symlink_to(d / "nowhere" / "x")
        elif target_kind == "regular":
            t.write_text("old\n")
        elif target_kind == "missing-dir":
            t = d / "no" / "such" / "target.svg"
        before = os.lstat(t) if (t.exists() or t.is_symlink()) else None
        if writer == "derive-o":
            code = run_cli(["derive", "expr", "coalesce((4,2):(1,4))", "-o", str(t)])
        elif writer == "formula-o":
            code = run_cli(["derive", "swizzle", "-o", str(t)])
        elif writer == "bank-svg":
            code = run_cli(["bank", "--smem", "(8,64):(64,1)", "--tv", "(32,8):(8,1)", "--value-bits", "16",
                            "--svg", str(t)])
        elif writer == "evidence-out":
            code = run_cli(["hwcheck", "--results", "/nonexistent/results.jsonl", "--evidence-out", str(t)])
        elif writer == "sparse-emit":
            from symcute.hwcheck import sparse
            try:
                sparse.emit(t)
            except SymcuteError:
                pass
            code = 0
        else:
            from symcute import files
            try:
                files.write(t, "new\n")
            except SymcuteError:
                pass
            code = 0
        if victim.read_text() != "keep\n" or stat.S_IMODE(victim.stat().st_mode) != 0o600:
            raise Unsafe(f"{writer} onto a {target_kind}: the victim changed")
        if writer == "sparse-emit" and target_kind == "dir":
            # a tree writer's target is a directory, swapped whole (files.write_tree): a new inode by design
            if not t.is_dir() or t.is_symlink() or not (t / "manifest.json").is_file():
                raise Unsafe(f"{writer} onto a dir: no directory of the probe at the target")
        elif before is not None and target_kind in ("fifo", "device", "proc", "dir", "symlink", "hardlink"):
            now = os.lstat(t) if (t.exists() or t.is_symlink()) else None
            if now is None or stat.S_IFMT(now.st_mode) != stat.S_IFMT(before.st_mode) or now.st_ino != before.st_ino:
                raise Unsafe(f"{writer} replaced a {target_kind} at the target")
        for p in d.rglob("*"):
            if ".symcute-" in p.name and p.name.endswith(".tmp"):
                raise Unsafe(f"{writer}: a temporary file was left: {p}")
        return code


# --- concurrent emits --------------------------------------------------------------------------------

def gen_emit(rng):
    return rng.sample(["SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x16_F16F16F16F16_TN",
                       "SM70_8x8x4_F16F16F16F16_NT"], 2)


def run_emit(atoms):
    """Two ``hwcheck --emit`` runs of different atoms into one directory, at once: the manifest and the
    program left behind must come from the same run."""
    with tempfile.TemporaryDirectory(prefix="fuzz31-emit-") as td:
        out = Path(td) / "emit"
        from symcute.hwcheck import api
        errors = []

        def one(atom):
            try:
                api.hwcheck([atom], emit=str(out))
            except SymcuteError as e:
                errors.append(e)
        threads = [threading.Thread(target=one, args=(a,)) for a in atoms]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        manifest = json.loads((out / "manifest.json").read_text())
        program = next(p for p in out.iterdir() if p.suffix == ".cu").read_text()
        names = [c.get("atom", c.get("name", "")) for c in manifest.get("cases", manifest.get("atoms", []))]
        for a in atoms:
            if any(a in str(n) for n in names) != (a in program):
                raise Unsafe(f"concurrent emits of {atoms}: the manifest and the program come from different runs")
        return 0


# --- the runner ----------------------------------------------------------------------------------------

ENTRIES = {"prove": (gen_prove, run_cli), "calc": (gen_calc, run_cli), "bank": (gen_bank, run_cli),
           "derive": (gen_derive, run_cli), "read": (gen_read, run_read), "write": (gen_write, run_write),
           "emit": (gen_emit, run_emit)}


# sparse.emit generates the whole sparse probe (10 atoms x 4 trials: about 3.5 s of CPU) whatever the target:
# a constant of the writer, not a cost of the input, so it gets a bound that fits it (refusals stay cheap:
# a FIFO or a file at the target is refused before the probe is generated)
SPARSE_EMIT_CPU = 15.0


def _cpu_bound(kind: str, inp) -> float:
    if kind == "write" and isinstance(inp, tuple) and len(inp) > 1 and inp[1] == "sparse-emit":
        return SPARSE_EMIT_CPU
    return CPU_BOUND


def run(kind: str, n: int, seed: int = 31, deadline: float | None = None, log=None) -> Counter:
    """Run ``n`` inputs of ``kind``; counts by outcome (crash, hang, unsafe, internal-message must stay 0)."""
    gen, fn = ENTRIES[kind]
    rng = random.Random(f"{kind}:{seed}")
    counts: Counter = Counter()
    digits = sys.get_int_max_str_digits()
    for i in range(n):
        if deadline is not None and time.time() > deadline:
            break
        inp = gen(rng)
        try:
            with bounded(cpu=_cpu_bound(kind, inp)):
                v = fn(inp)
            outcome = f"exit {v}" if isinstance(v, int) else "value"
        except SymcuteError as e:
            outcome = type(e).__name__
            if INTERNAL.search(str(e)):
                outcome = "internal-message"
                _report(log, kind, i, inp, str(e)[:400])
        except Hang as e:
            outcome = "hang"
            _report(log, kind, i, inp, f"past the {e} bound")
        except Unsafe as e:
            outcome = "unsafe-write"
            _report(log, kind, i, inp, str(e))
        except InternalMessage as e:
            outcome = "internal-message"
            _report(log, kind, i, inp, str(e))
        except (Exception, MemoryError) as e:  # noqa: BLE001  (the point: nothing else may escape)
            outcome = "crash"
            _report(log, kind, i, inp, "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-4)))
        finally:
            sys.set_int_max_str_digits(digits)
        counts[outcome] += 1
    counts["inputs"] = sum(v for k, v in counts.items() if k != "inputs")
    return counts


BAD = ("crash", "hang", "unsafe-write", "internal-message")


def _report(log, kind, i, inp, what):
    if log is None:
        return
    text = repr(inp)
    with open(log, "a", encoding="utf-8") as fh:
        fh.write(f"{kind} #{i}: {text[:1500]}\n{what}\n\n")


PLAN = {"prove": 50_000, "calc": 50_000, "bank": 20_000, "derive": 20_000, "read": 6_000, "write": 6_000,
        "emit": 200}


def cap_memory(headroom: int = MEMORY_HEADROOM) -> None:
    """Address space capped at what the warmed-up process maps plus ``headroom``."""
    with open("/proc/self/status") as fh:
        vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + headroom, vm + headroom))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out, scale, seed = argv[0], float(argv[1]), int(argv[2])
    minutes = float(argv[3]) if len(argv) > 3 else 60.0
    kinds = argv[4].split(",") if len(argv) > 4 else list(PLAN)
    for k in ("calc", "prove", "bank", "derive"):   # warm the imports before the memory cap is measured
        run(k, 3, seed)
    cap_memory()
    log = out + ".failures.txt"
    start = time.time()
    results = {}
    total = sum(PLAN[k] for k in kinds)
    for kind in kinds:
        t0 = time.time()
        counts = run(kind, int(PLAN[kind] * scale), seed, deadline=t0 + minutes * 60 * PLAN[kind] / total, log=log)
        results[kind] = dict(counts, seconds=round(time.time() - t0, 1))
        Path(out).write_text(json.dumps({"seed": seed, "scale": scale, "results": results,
                                         "elapsed": round(time.time() - start, 1)}, indent=1))
        print(kind, dict(counts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
