"""The fuzzing contract: every outcome is a value or a SymcuteError, within a time bound.

``outcome(fn, *args)`` runs one input under a CPU-time alarm (SIGPROF, and a
wider wall-clock one; signals need the main thread, as pytest runs tests) and returns ``("value", v)`` or
``("error", e)`` for a :class:`SymcuteError`; anything else -- another
exception, a RecursionError, a MemoryError, a run past the time bound, a SymcuteError whose text is
Python's own (``tuple index out of range``: ``INTERNAL_MESSAGE``) -- fails the test with the input that
caused it.

Sizes: a small sample in CI; ``SYMCUTE_LARGE=1`` runs at least 100,000
generated inputs per entry point (``SYMCUTE_FUZZ_EXAMPLES=N`` sets any count).
The number of inputs each entry point really ran is counted in ``COUNTS`` and
printed at the end of the session (``conftest.py``), so a large run reports
what it did, not what it was asked to do.
"""

from __future__ import annotations

import collections
import contextlib
import os
import re
import resource
import signal
import traceback

from hypothesis import HealthCheck, settings

from symcute.errors import SymcuteError

from ..large import large_run

LARGE = large_run()
TIME_BOUND = float(os.environ.get("SYMCUTE_FUZZ_TIMEOUT", "2"))
CLI_TIME_BOUND = float(os.environ.get("SYMCUTE_FUZZ_CLI_TIMEOUT", "10"))  # derive renders whole proofs
WALL_FACTOR = 30  # the wall-clock bound, as a multiple of the CPU bound (CI machines are shared)

# Python's own messages: a clean error must never carry one (it means an internal exception was wrapped)
INTERNAL_MESSAGE = re.compile(r"index out of range|object has no attribute|not subscriptable|object is not iterable|"
                      r"unsupported operand type|takes \d+ positional argument|missing \d+ required|"
                      r"unhashable type|cannot unpack|too many values to unpack|not enough values to unpack|"
                      r"object is not callable|NoneType|invalid literal for int\(\)|could not convert string|"
                      r"division by zero(?! \()|modulo by zero|int too large to convert|need at least one array|"
                      r"maximum recursion depth|bad operand type|has no len\(\)|Traceback")

COUNTS: collections.Counter = collections.Counter()    # entry point -> inputs run
OUTCOMES: collections.Counter = collections.Counter()  # (entry point, "value" | error class) -> count


def examples(ci: int, large: int = 100_000) -> int:
    """Inputs per hypothesis test: ``ci`` in CI, ``large`` in the large run, or SYMCUTE_FUZZ_EXAMPLES."""
    if os.environ.get("SYMCUTE_FUZZ_EXAMPLES"):
        return int(os.environ["SYMCUTE_FUZZ_EXAMPLES"])
    return large if LARGE else ci


def fuzz_settings(ci: int, large: int = 100_000):
    """Settings of a fuzz test; tests that only widen an entry point's coverage pass a smaller ``large``."""
    return settings(max_examples=examples(ci, large), deadline=None, database=None, derandomize=not LARGE,
                    suppress_health_check=list(HealthCheck), print_blob=True)


class Hang(BaseException):
    """Raised by the alarm; a BaseException so that no ``except Exception`` in the code swallows it."""


_FIRED: list = []  # the alarms that fired during the current input


def _alarm(signum, frame):
    # remembered as well as raised: an alarm that lands inside a garbage-collector callback is
    # swallowed by Python ("Exception ignored in ..."), and the input would pass as if in time
    _FIRED.append("CPU time" if signum == signal.SIGPROF else "wall-clock time")
    raise Hang(_FIRED[-1])


@contextlib.contextmanager
def time_bound(seconds: float):
    """Bound the process's CPU time by ``seconds`` and its wall-clock time by ``WALL_FACTOR`` times that.

    CPU time is the measure of a hang (symcute computes; it does not wait), and it
    does not depend on how loaded the machine is; the wall-clock bound catches
    anything that would block.
    """
    _FIRED.clear()
    old = {s: signal.signal(s, _alarm) for s in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for s, handler in old.items():
            signal.signal(s, handler)


def outcome(entry: str, fn, *args, seconds: float | None = None, **kwargs):
    """Run ``fn(*args, **kwargs)`` as one fuzz input of ``entry``; see the module docstring."""
    COUNTS[entry] += 1
    bound = TIME_BOUND if seconds is None else seconds
    try:
        with time_bound(bound):
            value = fn(*args, **kwargs)
        result = ("value", value)
    except SymcuteError as e:
        result = ("error", e)
    except KeyboardInterrupt:
        raise
    except Hang as e:
        _fail(f"{entry}: no result within {bound} s of {e} (x{WALL_FACTOR} for wall-clock time) "
              f"for input {_show(args, kwargs)}")
    except BaseException as e:  # noqa: BLE001  (the point: nothing else may escape)
        where = "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-4))
        _fail(f"{entry}: {type(e).__name__} (not a SymcuteError) for input {_show(args, kwargs)}:\n{where}")
    if _FIRED:  # the Hang was raised where Python ignores it (a gc callback); the bound was passed all the same
        _fail(f"{entry}: past {bound} s of {_FIRED[0]} (the alarm was swallowed; the input then gave "
              f"{result[0]} {_clip(result[1], 120)}) for input {_show(args, kwargs)}")
    kind, v = result
    if kind == "error" and INTERNAL_MESSAGE.search(str(v)):
        _fail(f"{entry}: the {type(v).__name__} carries Python's own message (an internal exception was wrapped) "
              f"for input {_show(args, kwargs)}: {_clip(str(v), 300)}")
    OUTCOMES[entry, "value" if kind == "value" else type(v).__name__] += 1
    return result


def _fail(message: str):
    """Fail the input; in a long run, also append the failure to SYMCUTE_FUZZ_LOG at once (pytest reports at the end)."""
    log = os.environ.get("SYMCUTE_FUZZ_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(message + "\n" + "-" * 80 + "\n")
    raise AssertionError(message) from None


def _show(args, kwargs) -> str:
    text = ", ".join([_clip(a) for a in args] + [f"{k}={_clip(v)}" for k, v in kwargs.items()])
    return text


def _clip(x, n: int = 400) -> str:
    try:
        r = repr(x)
    except RecursionError:
        r = f"<{type(x).__name__} nested too deeply to print>"
    return r if len(r) <= n else r[:n] + f"... ({len(r)} characters)"


@contextlib.contextmanager
def memory_cap(extra_bytes: int = 3 << 30):
    """Cap this process's address space at its current size plus ``extra_bytes`` (Linux only).

    An input that tries to allocate without bound then raises MemoryError (a
    failure of the contract) instead of exhausting the machine.
    """
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as fh:
            current = int(fh.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, AttributeError):
        yield
        return
    cap = current + extra_bytes
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
