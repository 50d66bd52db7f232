"""Run many C++ snippets through real CuTe and report each one's verdict.

Contract of :meth:`CuteOracle.run` (``{name: C++ statements} -> {name: CaseResult}``):

* every case gets exactly one :class:`CaseResult`, in the input order;
* ``ok``: it compiled and ran; ``output`` is what it printed, normalised
  (``program.normalize``: CuTe's text minus static-int underscores);
* ``rejected``: g++ refused it (CuTe's static_asserts, hard errors);
  ``error`` is the most telling message (the first static_assert, else the
  first error) and ``diagnostics`` the g++ messages attributed to it;
* ``crashed``: it compiled but died at run time (signal, non-zero exit,
  20 s alarm); ``error`` names the signal, ``output`` keeps what it printed;
* ``failed``: the machinery could not decide (compiler killed or timed out);
  never cached, worth a rerun.

One bad case never spoils the others: a batch that does not compile is split
by the errors' ``symcute-case-N`` locations (``diagnostics.attribute``), the
blamed cases are rejected and the rest recompiled; errors that name no case
make the batch be bisected. Batches run in parallel, one g++ per core.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from symcute import environment
from symcute.oracle import diagnostics as diag
from symcute.oracle import program
from symcute.oracle.cache import ResultCache, enabled_by_env
from symcute.oracle.toolchain import PCH_HEADER, OracleError, Toolchain, locate

# Measured on the 2-core machine (docs/oracle.md): one g++ costs ~0.5 s fixed
# plus a per-case cost that *falls* with batch size up to ~200 cases (shared
# template instantiations) and is flat beyond; memory grows ~1.8 MB a case.
# So: one batch per core, split further only above 500 cases (~1.1 GB each).
DEFAULT_BATCH_SIZE = 500
CASE_SECONDS = 20  # alarm per case at run time
_DIAG_FLAGS = ("-fdiagnostics-color=never", "-fno-diagnostics-show-caret", "-ftemplate-backtrace-limit=10")


@dataclass(frozen=True)
class CaseResult:
    """The verdict on one case; see the module docstring for the four statuses."""

    name: str
    status: str
    output: str = ""
    raw_output: str = ""
    error: str | None = None
    diagnostics: str = ""
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def rejected(self) -> bool:
        return self.status == "rejected"

    @property
    def crashed(self) -> bool:
        return self.status == "crashed"

    @property
    def condition(self) -> str | None:
        """For a static_assert rejection, its text (``"Stride Divisibility Condition"``)."""
        if not self.rejected or not self.error:
            return None
        return diag.Diagnostic(self.error).condition

    def record(self) -> dict:
        return {k: getattr(self, k) for k in ("status", "output", "raw_output", "error", "diagnostics")}


@dataclass
class RunStats:
    """What the last :meth:`CuteOracle.run` did (for timing reports and tests)."""

    cases: int = 0
    unique: int = 0
    cache_hits: int = 0
    batches: int = 0
    compiles: int = 0
    compile_seconds: float = 0.0
    wall_seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


def _env_int(name: str, most: int) -> int | None:
    """A positive whole-number variable (None when unset); a bad value is a one-line SymcuteError."""
    return environment.count(name, None, most)


def _available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class CuteOracle:
    """Real CuTe, compiled with g++ from the wheel headers.

    ``CuteOracle()`` raises :class:`OracleUnavailable` (with the reason) when
    g++ or the headers are missing. Settings default to the environment:
    ``SYMCUTE_ORACLE_JOBS`` (parallel compiles; default: usable cores),
    ``SYMCUTE_ORACLE_BATCH`` (most cases per program; default 500),
    ``SYMCUTE_ORACLE_PCH=0`` (no precompiled header),
    ``SYMCUTE_ORACLE_CACHE=0`` (no result memo), ``SYMCUTE_CXX`` (compiler),
    ``SYMCUTE_CACHE_DIR`` (default ``$XDG_CACHE_HOME/symcute`` or ``~/.cache/symcute``).
    """

    def __init__(
        self,
        *,
        cxx: str | None = None,
        include_dirs: list[Path] | None = None,
        cache_dir: Path | None = None,
        jobs: int | None = None,
        batch_size: int | None = None,
        pch: bool | None = None,
        cache: bool | None = None,
        compile_timeout: float = 900.0,
    ):
        self.toolchain: Toolchain = locate(cxx, include_dirs, cache_dir)
        self.jobs = jobs or _env_int("SYMCUTE_ORACLE_JOBS", 4096) or _available_cores()
        self.batch_size = batch_size or _env_int("SYMCUTE_ORACLE_BATCH", 1 << 20) or DEFAULT_BATCH_SIZE
        self.use_pch = pch if pch is not None else environment.flag("SYMCUTE_ORACLE_PCH", True)
        use_cache = cache if cache is not None else enabled_by_env()
        self.cache = ResultCache(self.toolchain.cache_dir / "results", self.toolchain.key) if use_cache else None
        self.compile_timeout = compile_timeout
        self.last_stats = RunStats()
        self._good_preambles: set[str] = set()

    # -- public API -------------------------------------------------------

    def run(self, cases: Mapping[str, str] | Iterable[tuple[str, str]], *, preamble: str = "") -> dict[str, CaseResult]:
        """Compile and run each case's C++ statements (``using namespace cute;`` is in effect).

        ``preamble`` is shared code (helpers) placed before the cases; an error
        in it raises :class:`OracleError` instead of rejecting every case.
        """
        start = time.perf_counter()
        items = list(cases.items()) if isinstance(cases, Mapping) else list(cases)
        names = [name for name, _ in items]
        if len(set(names)) != len(names):
            raise ValueError("case names must be unique")
        stats = self.last_stats = RunStats(cases=len(items))

        by_body: dict[str, list[str]] = {}  # identical bodies are compiled once
        for name, body in items:
            by_body.setdefault(body, []).append(name)
        stats.unique = len(by_body)

        verdicts: dict[str, CaseResult] = {}  # body -> result (name filled in below)
        todo: list[str] = []
        for body in by_body:
            record = self.cache.get(self.cache.key(preamble, body)) if self.cache else None
            if record is not None:
                verdicts[body] = CaseResult(name="", cached=True, **record)
                stats.cache_hits += 1
            else:
                todo.append(body)

        if todo:
            pch = self.toolchain.ensure_pch() if self.use_pch else None
            if preamble and preamble not in self._good_preambles:
                self._check_preamble(preamble, pch)
            batches = self._plan(todo)
            stats.batches = len(batches)
            with ThreadPoolExecutor(max_workers=min(self.jobs, len(batches))) as pool:
                for found in pool.map(lambda batch: self._settle(batch, preamble, pch), batches):
                    verdicts.update(found)
            if self.cache:
                for body in todo:
                    if verdicts[body].status in ("ok", "rejected", "crashed"):
                        self.cache.put(self.cache.key(preamble, body), verdicts[body].record())

        results = {}
        for name, body in items:
            v = verdicts[body]
            results[name] = CaseResult(name, v.status, v.output, v.raw_output, v.error, v.diagnostics, v.cached)
        stats.wall_seconds = time.perf_counter() - start
        return results

    def run_exprs(self, exprs: Mapping[str, str], *, preamble: str = "") -> dict[str, CaseResult]:
        """Like :meth:`run`, each case printing one C++ expression.

        Uses ``SYMCUTE_PRINT(expr);`` (see ``prelude.py``): the same text as
        ``print(expr);`` at ~2.5x less compile time when the result is static.
        """
        return self.run({name: f"SYMCUTE_PRINT({expr});" for name, expr in exprs.items()}, preamble=preamble)

    def source(self, bodies: list[str], preamble: str = "") -> str:
        """The C++ program that :meth:`run` would compile for ``bodies`` (for debugging)."""
        return program.render(bodies, preamble, CASE_SECONDS, includes=PCH_HEADER)

    # -- batching ---------------------------------------------------------

    def _check_preamble(self, preamble: str, pch: Path | None) -> None:
        """Compile the preamble alone (syntax only): its errors would otherwise look like the first case's."""
        with tempfile.TemporaryDirectory(prefix="symcute-oracle-") as tmp:
            source = Path(tmp) / "preamble.cpp"
            source.write_text(program.render([], preamble, CASE_SECONDS, includes="" if pch else PCH_HEADER))
            cmd = self.toolchain.command(source, Path(tmp) / "unused", pch)
            cmd = [c for c in cmd if c not in ("-o", str(Path(tmp) / "unused"))] + ["-fsyntax-only", *_DIAG_FLAGS]
            returncode, _, stderr = _run_group(cmd, dict(os.environ, LC_ALL="C"), self.compile_timeout)
        if returncode != 0:
            raise OracleError("the preamble does not compile:\n" + stderr.decode("utf-8", errors="replace")[-4000:])
        self._good_preambles.add(preamble)

    def _plan(self, bodies: list[str]) -> list[list[str]]:
        """Near-equal contiguous batches: at least one per core, none above batch_size."""
        count = max(min(self.jobs, len(bodies)), -(-len(bodies) // self.batch_size))
        size, extra = divmod(len(bodies), count)
        batches, start = [], 0
        for i in range(count):
            end = start + size + (1 if i < extra else 0)
            batches.append(bodies[start:end])
            start = end
        return batches

    def _settle(self, bodies: list[str], preamble: str, pch: Path | None) -> dict[str, CaseResult]:
        """Verdicts for one batch: compile, blame, recompile the rest, bisect when blame fails."""
        verdicts: dict[str, CaseResult] = {}
        stack: list[tuple[list[str], int]] = [(bodies, 0)]  # (group, attribution rounds so far)
        with tempfile.TemporaryDirectory(prefix="symcute-oracle-") as tmp:
            while stack:
                group, rounds = stack.pop()
                returncode, stderr, exe = self._compile(group, preamble, pch, Path(tmp))
                if returncode == 0:
                    verdicts.update(self._execute(exe, group))
                    continue
                if returncode is None:  # compiler timed out: no verdict possible
                    for body in group:
                        verdicts[body] = CaseResult("", "failed", error="compilation timed out")
                    continue
                grouped = diag.attribute(stderr)
                blamed = {i: d for i, d in grouped.items() if i is not None and i < len(group)}
                if blamed:
                    for i, found in blamed.items():
                        verdicts[group[i]] = _rejection(found)
                    rest = [body for i, body in enumerate(group) if i not in blamed]
                    # Cases sharing a failing instantiation surface one per round;
                    # after two rounds split, so such runs cost log(n) compiles.
                    if rounds >= 2 and len(rest) > 1:
                        half = len(rest) // 2
                        stack += [(rest[:half], 0), (rest[half:], 0)]
                    elif rest:
                        stack.append((rest, rounds + 1))
                    continue
                loose = grouped.get(None, [])
                if any(d.location.startswith(("symcute-preamble", "symcute-main")) for d in loose):
                    raise OracleError("the oracle's preamble does not compile:\n" + stderr[-4000:])
                if len(group) > 1:
                    half = len(group) // 2
                    stack += [(group[:half], 0), (group[half:], 0)]
                elif loose and not any(_machine_trouble(d.message) for d in loose):
                    verdicts[group[0]] = _rejection(loose)
                else:
                    verdicts[group[0]] = CaseResult("", "failed", error="compiler failed: " + stderr.strip()[-2000:])
        return verdicts

    def _compile(self, group: list[str], preamble: str, pch: Path | None, tmp: Path) -> tuple[int | None, str, Path]:
        # Fixed names inside a fresh folder: messages that quote the program
        # name (assert) are then the same on every run, hence cacheable.
        folder = Path(tempfile.mkdtemp(dir=tmp))
        source, exe = folder / "cases.cpp", folder / "symcute-oracle"
        source.write_text(program.render(group, preamble, CASE_SECONDS, includes="" if pch else PCH_HEADER))
        cmd = self.toolchain.command(source, exe, pch)
        cmd[1:1] = _DIAG_FLAGS
        env = dict(os.environ, LC_ALL="C")  # ASCII quotes in messages, whatever the user's locale
        began = time.perf_counter()
        returncode, _, stderr = _run_group(cmd, env, self.compile_timeout)
        outcome = (returncode, stderr.decode("utf-8", errors="replace"))
        with self.last_stats.lock:
            self.last_stats.compiles += 1
            self.last_stats.compile_seconds += time.perf_counter() - began
        return outcome[0], outcome[1], exe

    def _execute(self, exe: Path, group: list[str]) -> dict[str, CaseResult]:
        _, out, _ = _run_group([str(exe)], None, CASE_SECONDS * len(group) + 60)
        stdout = out.decode("utf-8", errors="replace")
        found = program.split_output(stdout)
        dying = program.last_started(stdout)
        verdicts = {}
        for i, body in enumerate(group):
            if i not in found:
                why = "the case runner died during this case" if i == dying else "the case runner stopped before this case"
                verdicts[body] = CaseResult("", "failed", error=why)
                continue
            raw, sig, code = found[i]
            if sig == 0 and code == 0:
                verdicts[body] = CaseResult("", "ok", program.normalize(raw), raw)
            else:
                verdicts[body] = CaseResult("", "crashed", program.normalize(raw), raw, error=_death(sig, code, raw))
        return verdicts


def _run_group(cmd: list[str], env: dict | None, timeout: float) -> tuple[int | None, bytes, bytes]:
    """Run ``cmd`` in its own process group; on time-out kill the whole group (cc1plus, forked cases).

    Returns (exit status or None on time-out, stdout, stderr).
    """
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        return None, out, err
    except BaseException:  # Ctrl-C: the group is in its own session, so end it ourselves
        _kill_group(proc.pid)
        proc.wait()
        raise


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _machine_trouble(message: str) -> bool:
    """Messages about the compiler's own failure (OOM kill, crash), not about the case."""
    return any(s in message for s in ("Killed signal", "internal compiler error", "virtual memory exhausted", "cannot allocate"))


def _rejection(found: list[diag.Diagnostic]) -> CaseResult:
    text = "\n\n".join(d.text() for d in found[:10])[:20000]  # enough to read; cache entries stay small
    return CaseResult("", "rejected", error=diag.summary(found), diagnostics=text)


def _death(sig: int, code: int, raw: str) -> str:
    if sig == signal.SIGALRM:
        why = f"timed out (SIGALRM; the limit is {CASE_SECONDS} s)"
    elif sig > 0:
        try:
            why = f"killed by {signal.Signals(sig).name}"
        except ValueError:
            why = f"killed by signal {sig}"
    elif code >= 0:
        why = f"exited with status {code}"
    else:
        why = "could not be started"
    last = [line for line in raw.strip().splitlines() if line.strip()]
    return f"{why}: {last[-1].strip()}" if last else why
