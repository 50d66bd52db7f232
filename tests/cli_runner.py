"""The one way tests run the ``symcute`` command: in-process (:func:`run_cli`, also the ``cli`` fixture of
``tests/conftest.py``) or as a fresh ``python -m symcute`` process (:func:`run_cli_process`).

Both return a :class:`CliRun` ``(code, out, err)`` that unpacks as a tuple.  In-process, stdout and stderr
are text streams over bytes, as the real ones are: a command that writes bytes to ``sys.stdout.buffer``
(``derive``) is captured too, and the bytes are decoded as UTF-8.  Lone surrogates (hostile argv) pass
through unchanged, so a message that quotes such an input reads back as it was printed.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from symcute.cli import main

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class CliRun:
    code: int
    out: str
    err: str

    def __iter__(self):
        return iter((self.code, self.out, self.err))


def _argv(args) -> list:
    # run_cli(["calc", "4:1"]) and run_cli("calc", "4:1") are the same call
    return list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)


def _stream() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogatepass", write_through=True)


def _read(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", "surrogatepass")


def run_cli(*argv) -> CliRun:
    """``symcute.cli.main(argv)`` in this process; argv as one list or as separate words."""
    out, err = _stream(), _stream()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(_argv(argv))
    return CliRun(code, _read(out), _read(err))


def run_cli_process(*argv, env: dict | None = None, timeout: float = 300, **popen) -> CliRun:
    """``python -m symcute argv`` in a fresh process from the repository root (its own imports, real argv
    and encodings); ``env`` replaces the environment (``PYTHONPATH`` is set to the repository when absent)."""
    env = dict(os.environ if env is None else env)
    env.setdefault("PYTHONPATH", str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "symcute", *_argv(argv)], capture_output=True, env=env,
                          cwd=ROOT, timeout=timeout, **popen)
    return CliRun(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


def start_cli_process(*argv, env: dict | None = None) -> subprocess.Popen:
    """``python -m symcute argv`` started and left running (``symcute serve``): a Popen with text pipes,
    from the repository root, ``PYTHONPATH`` as :func:`run_cli_process` sets it.  The caller stops it."""
    env = dict(os.environ if env is None else env)
    env.setdefault("PYTHONPATH", str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "symcute", *_argv(argv)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
