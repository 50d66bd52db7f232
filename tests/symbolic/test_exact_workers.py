"""ISL workers die with their parent (issue 31): six orphans of killed parents once ran for 8-36 minutes.

A parent process starts a bounded ISL query whose worker would sleep for ten minutes, prints the
worker's pid, and is killed (SIGTERM, then SIGKILL in a second run); the worker must be gone (or a
zombie waiting to be reaped) within seconds.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from symcute.errors import SymcuteError

from ..cli_runner import run_cli_process

PARENT = textwrap.dedent("""
    import os, sys, time
    from symcute.symbolic import exact
    def sleeper():
        print(os.getpid(), flush=True)
        time.sleep(600)
    exact._bounded(sleeper, (), 600)
""")


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_isl_worker_dies_with_its_parent(sig):
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        assert not _gone(worker)
        parent.send_signal(sig)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 10
        while not _gone(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = not _gone(worker)
        if alive:
            os.kill(worker, signal.SIGKILL)
        assert not alive, f"the ISL worker {worker} outlived its parent killed by {sig.name}"
    finally:
        if parent.poll() is None:
            parent.kill()


@pytest.mark.parametrize("name,value", [("SYMCUTE_ISL_SECONDS", "abc"), ("SYMCUTE_ISL_SECONDS", "-1"),
                                        ("SYMCUTE_ISL_SECONDS", "nan"), ("SYMCUTE_ISL_SECONDS", "inf"),
                                        ("SYMCUTE_EXACT", "maybe")])
def test_bad_environment_values_are_one_line_errors(name, value):
    code, out, err = run_cli_process(["calc", "4:1"], env={**os.environ, name: value}, timeout=120)
    assert code == 2 and err.count("\n") == 1 and name in err and "Traceback" not in err, err


def test_environment_readers():
    from symcute import environment
    os.environ["SYMCUTE_TEST_SWITCH"] = "Off"
    try:
        assert environment.flag("SYMCUTE_TEST_SWITCH", True) is False
        os.environ["SYMCUTE_TEST_SWITCH"] = "2.5"
        assert environment.seconds("SYMCUTE_TEST_SWITCH", 10.0) == 2.5
        with pytest.raises(SymcuteError, match="SYMCUTE_TEST_SWITCH"):
            environment.flag("SYMCUTE_TEST_SWITCH", True)
    finally:
        del os.environ["SYMCUTE_TEST_SWITCH"]
