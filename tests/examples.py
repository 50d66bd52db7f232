"""Every documented example, run against an *installed* symcute with only its runtime dependencies.

``.ci/run`` calls this file in a fresh virtual environment after ``pip install .`` and before the test
extra is installed, so an import that only the test extra satisfies (numpy once was one) fails CI:

* every module of the installed package is imported;
* every ``$ symcute ...`` line of a ``console`` block in README.md and docs/*.md runs through the
  installed ``symcute`` script, with a documented exit status, no traceback, and the lines shown
  under it in its output, in order (``...`` skips lines; a line ending in ``...`` is a prefix);
* every ``symcute ...`` / ``python -m symcute ...`` line of an ``sh`` block in README.md and
  docs/tutorial.md runs the same way (their ``# ...`` comments are not checked);
* the ``python`` blocks of README.md and docs/tutorial.md run, each file's blocks in order, in one
  interpreter.

Standard library only (it runs before pytest exists). Run from anywhere:
``python tests/examples.py`` (its directory, not the repository, goes first on ``sys.path``, so the
installed package is the one under test). tests/report/test_docs.py reuses the extraction below.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# the exit statuses docs/cli.md documents: 0, 1 refuted / new finding / disagreement, 2 bad input, 3 unknown
DOCUMENTED_EXIT = {0, 1, 2, 3}
SH_FILES = ("README.md", "docs/tutorial.md")
PYTHON_FILES = ("README.md", "docs/tutorial.md")


def blocks(name: str, lang: str) -> list[str]:
    return [body for kind, body in FENCE.findall((ROOT / name).read_text(encoding="utf-8")) if kind == lang]


def console_cases(name: str) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each ``$ `` line of the file's console blocks."""
    cases = []
    for body in blocks(name, "console"):
        cmd, expected = None, []
        for line in body.splitlines():
            if line.startswith("$ "):
                if cmd is not None:
                    cases.append((cmd, expected))
                cmd, expected = line[2:], []
            else:
                expected.append(line)
        if cmd is not None:
            cases.append((cmd, expected))
    return cases


def sh_commands(name: str) -> list[list[str]]:
    """argv of each symcute line of the file's sh blocks (continuations joined, comments dropped)."""
    out = []
    for body in blocks(name, "sh"):
        for line in body.replace("\\\n", " ").splitlines():
            argv = shlex.split(line, comments=True)
            if argv[:1] == ["symcute"] or argv[:3] == ["python", "-m", "symcute"]:
                out.append(argv)
    return out


def documented_files() -> list[str]:
    return ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))


def lines_in_order(expected: list[str], output: str) -> str | None:
    """None when every expected line appears in ``output`` in order, else the first missing one."""
    lines = [line.rstrip() for line in output.splitlines()]
    pos = 0
    for want in expected:
        want = want.rstrip()
        if want.strip() == "...":
            continue
        prefix = want.endswith("...")
        while pos < len(lines) and not (lines[pos].startswith(want[:-3]) if prefix else lines[pos] == want):
            pos += 1
        if pos == len(lines):
            return want
        pos += 1
    return None


def _run(command: str, cwd: str) -> subprocess.CompletedProcess:
    """Run a documented command line through bash, as a reader would paste it (pipes included), with the
    environment's ``symcute`` and ``python`` first on PATH."""
    bindir = str(Path(sys.executable).parent)
    env = dict(os.environ, PYTHONPATH="", COLUMNS="100", PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def main() -> int:
    import importlib
    import pkgutil

    import symcute

    failures = []
    # the source package is ROOT/symcute; an install may well sit under ROOT (CI's venv is ROOT/.venv)
    if Path(symcute.__file__).resolve().is_relative_to(ROOT / "symcute"):
        failures.append(f"symcute was imported from the source tree ({symcute.__file__}), not the install")
    modules = 0
    for info in pkgutil.walk_packages(symcute.__path__, "symcute."):
        if info.name.endswith(".__main__"):  # importing it runs the command
            continue
        try:
            importlib.import_module(info.name)
            modules += 1
        except Exception as e:  # noqa: BLE001 - every failure is reported, then CI fails
            failures.append(f"import {info.name}: {type(e).__name__}: {e}")

    ran = 0
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(f, c, exp) for f in documented_files() for c, exp in console_cases(f)]
        cases += [(f, shlex.join(argv), []) for f in SH_FILES for argv in sh_commands(f)]
        for where, command, expected in cases:
            proc = _run(command, tmp)
            ran += 1
            shown = command[:120]
            output = proc.stdout + proc.stderr
            if "Traceback (most recent call last)" in output:
                failures.append(f"{where}: {shown}: traceback:\n{proc.stderr[-2000:]}")
            elif proc.returncode not in DOCUMENTED_EXIT:
                failures.append(f"{where}: {shown}: exit {proc.returncode}: {proc.stderr[-500:]}")
            elif proc.returncode == 2 and "error" not in where and where != "docs/errors.md":
                failures.append(f"{where}: {shown}: bad input (exit 2): {proc.stderr.strip()[:500]}")
            else:
                missing = lines_in_order(expected, output)
                if missing is not None:
                    failures.append(f"{where}: {shown}: expected line not in output: {missing!r}")
        for name in PYTHON_FILES:
            code = "\n".join(blocks(name, "python"))
            if not code:
                continue
            proc = _run("python -c " + shlex.quote(code), tmp)
            ran += 1
            if proc.returncode != 0:
                failures.append(f"{name}: python blocks: exit {proc.returncode}:\n{proc.stderr[-2000:]}")

    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    print(f"examples: {modules} modules imported, {ran} documented examples run, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
