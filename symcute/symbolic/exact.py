"""The exact back-ends in the order the prover asks them: probing, then Z3 for existential claims, then ISL.

``decide(question, *args)`` returns ``(holds, witness, evidence, method)`` from the
first back-end that decides (``method`` is ``"probe"``: a refutation found by
evaluating with core at cheap inputs, :mod:`symcute.symbolic.probe`; ``"z3"`` or
``"isl"``), or
``(None, None, why none did, "none")`` (why: a :class:`~symcute.symbolic.vocabulary.Phrase`; a
decided query's evidence is the back-end's own text).  Z3 answers within its
own resource budget (a count of its steps, the same on any machine:
:func:`z3_backend.rlimit`); ISL has no reliable interrupt (its operation bound does not cover
every step), so each ISL query runs in a forked child that is stopped after
``ISL_SECONDS``.  Neither back-end is trusted for a counterexample: the prover
re-evaluates every witness with core.
"""

from __future__ import annotations

import contextlib
import os

from . import isl_backend, probe, z3_backend
from .. import environment
from .vocabulary import Phrase, Reason

ISL_SECONDS = environment.seconds("SYMCUTE_ISL_SECONDS", 10.0)

# SYMCUTE_EXACT=0 (or set_enabled(False)) turns the exact back-ends off: refinement, the chain
# arguments and enumeration only (to measure what each method decides, and to exercise the limits).
ENABLED = environment.flag("SYMCUTE_EXACT", True)


def set_enabled(flag: bool) -> bool:
    """Turn the exact back-ends on or off; returns the previous setting."""
    global ENABLED
    old, ENABLED = ENABLED, bool(flag)
    return old

# Which back-ends can answer which question (coverage needs a projection: ISL only).
_Z3 = {"equal": z3_backend.equal, "injective": z3_backend.injective, "inside": z3_backend.inside,
       "disjoint": z3_backend.disjoint, "increasing": z3_backend.increasing, "hits": z3_backend.hits,
       "block_injective": z3_backend.block_injective, "block_contiguous": z3_backend.block_contiguous,
       "block_aligned": z3_backend.block_aligned}
_ISL = {"equal": isl_backend.equal, "injective": isl_backend.injective, "inside": isl_backend.inside,
        "covers": isl_backend.covers, "same_image": isl_backend.same_image,
        "subset": lambda a, na, b, nb, a_from=0: isl_backend.image_relation(a, na, b, nb, "subset", a_from),
        "disjoint": lambda a, na, b, nb, a_from=0: isl_backend.image_relation(a, na, b, nb, "disjoint", a_from)}


# The encodings grow with the modes (Z3 took 34 s to build and decide a 4,000-mode coalesce contract, ISL's
# child is only stopped by its alarm): past this many flat modes in a question, they are not asked.
MAX_MODES = 256


def _modes(x) -> int:
    from ..core import int_tuple as it
    from ..core.composed import ComposedLayout
    from ..core.layout import Layout
    if isinstance(x, Layout):
        return len(it.flatten_to_tuple(x.shape))
    if isinstance(x, ComposedLayout):
        return _modes(x.inner) + 1
    for attr in ("layout", "outer", "inner"):   # Formula, SwizzledFormula, Compose
        if hasattr(x, attr) and not isinstance(x, (int, str)):
            return sum(_modes(getattr(x, a)) for a in ("layout", "outer", "inner") if hasattr(x, a))
    return 0


@contextlib.contextmanager
def time_budget(z3_ms: int, isl_seconds: float):
    """Within the block, Z3 gives up after ``z3_ms`` worth of its resource units (a work budget:
    ``z3_backend.RLIMIT_PER_MS`` units per millisecond, the same stop on any machine) and ISL after
    ``isl_seconds`` (for quick checks such as calc's contract warning, which must not hold up printing
    CuTe's value)."""
    global ISL_SECONDS
    old = z3_backend.TIMEOUT_MS, ISL_SECONDS
    z3_backend.TIMEOUT_MS, ISL_SECONDS = min(z3_ms, old[0]), min(isl_seconds, old[1])
    try:
        yield
    finally:
        z3_backend.TIMEOUT_MS, ISL_SECONDS = old


# Domains up to this many inputs are cheap to enumerate (numpy): there Z3 and ISL are bounded by
# CHEAP_Z3_MS / CHEAP_ISL_SECONDS, so that a question they find hard falls to enumeration quickly.
CHEAP_ENUMERATION = 1 << 20
CHEAP_Z3_MS, CHEAP_ISL_SECONDS = 1000, 2.0


def cheap_budget(n: int, limit=None):
    """The short solver bound for a claim of at most ``n`` inputs when enumeration decides it cheaply (``n``
    within :data:`CHEAP_ENUMERATION` and the exhaustive limit), else no bound: one policy for every entry
    point (the prover's functions and ``prove_claim``), so every spelling of a claim gets the same answer."""
    from .limits import exhaustive_limit
    if n <= min(CHEAP_ENUMERATION, exhaustive_limit(limit)):
        return time_budget(CHEAP_Z3_MS, CHEAP_ISL_SECONDS)
    return contextlib.nullcontext()


def decide(question: str, *args, isl: bool = True):
    """See the module doc; ``isl=False`` asks Z3 only (the caller enumerates next, which decides exactly and
    sooner than ISL's worker could start and answer)."""
    if not ENABLED:
        return None, None, Phrase(Reason.EXACT_OFF), "none"
    args = tuple(_plain(a) for a in args)
    refuted = probe.refute(question, args)   # before any solver: a refutation at a cheap input, or None
    if refuted is not None:
        return False, refuted[0], refuted[1], "probe"
    modes = sum(_modes(a) for a in args)
    if modes > MAX_MODES:
        return None, None, Phrase(Reason.TOO_MANY_MODES, modes=modes, limit=MAX_MODES), "none"
    notes = []
    if question in _Z3:
        if z3_backend.available():
            try:
                return _Z3[question](*args) + ("z3",)
            except (isl_backend.NotRepresentable, isl_backend.Exhausted) as e:
                notes.append(Phrase(Reason.BACKEND_NOTE, backend="Z3", detail=str(e)))
        else:
            notes.append(z3_backend.INSTALL_HINT)
    if question in _ISL and isl:
        if isl_backend.available():
            try:
                return _bounded(_ISL[question], args, ISL_SECONDS) + ("isl",)
            except (isl_backend.NotRepresentable, isl_backend.Exhausted) as e:
                notes.append(Phrase(Reason.BACKEND_NOTE, backend="ISL", detail=str(e)))
        else:
            notes.append(isl_backend.INSTALL_HINT)
    if not notes:
        return None, None, Phrase(Reason.NO_BACKEND, question=repr(question)), "none"
    why = notes[0]
    for note in notes[1:]:
        why = Phrase(Reason.BOTH, first=why, second=note)
    return None, None, why, "none"


def _plain(x):
    """A named formula as the core value it evaluates (the encoders take layouts, swizzles, composed layouts
    and Compose terms): every spelling of a term reaches the same query."""
    from .formula import Formula
    from .linear import Compose
    from .swizzled import SwizzledFormula
    if isinstance(x, (Formula, SwizzledFormula)):
        return x.layout
    if isinstance(x, Compose):
        return Compose(_plain(x.outer), _plain(x.inner))
    return x


def _die_with_parent(parent_pid: int) -> None:
    """In a worker: end when the process that forked it ends, however it ends (SIGTERM, SIGKILL).

    A worker is stopped by its parent after ISL_SECONDS; a parent killed before that could not stop
    it (six orphans of killed parents ran for 8-36 minutes).  On Linux the kernel sends SIGKILL
    when the parent dies (prctl PR_SET_PDEATHSIG); elsewhere a daemon thread watches the parent's
    pid.  A parent that died before the prctl took effect is caught by the getppid() check after it.
    """
    import signal
    import sys
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0:
                if os.getppid() != parent_pid:
                    os._exit(1)
                return
        except (OSError, AttributeError):   # no libc to load: the watchdog below
            pass
    import threading
    import time

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(0.2)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


def _child(conn, fn, args, parent_pid=None):
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    try:
        conn.send(("ok", fn(*args)))
    except isl_backend.NotRepresentable as e:
        conn.send(("not", str(e)))
    except isl_backend.Exhausted as e:
        conn.send(("exhausted", str(e)))
    except BaseException as e:  # anything else: report it to the parent, which raises it there
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _bounded(fn, args, seconds: float):
    """``fn(*args)`` in a forked child, stopped after ``seconds`` (then Exhausted)."""
    # imported here, not at the top: multiprocessing (and the socket, pickle and selectors modules it
    # loads) is ~7 ms of every cold start, and only a bounded ISL query needs it
    import multiprocessing
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform: run in-process, bounded by ISL's operation count only
        return fn(*args)
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(child, fn, args, os.getpid()), daemon=True)
    p.start()
    child.close()
    try:
        if not parent.poll(seconds):
            raise isl_backend.Exhausted(f"ISL did not finish within {seconds:g} s "
                                        f"(symcute.symbolic.exact.ISL_SECONDS, env SYMCUTE_ISL_SECONDS)")
        status, value = parent.recv()
    except EOFError:
        raise isl_backend.Exhausted("the ISL worker died without an answer") from None
    finally:
        parent.close()
        if p.is_alive():
            p.kill()
        p.join()
    if status == "ok":
        return value
    if status == "not":
        raise isl_backend.NotRepresentable(value)
    if status == "exhausted":
        raise isl_backend.Exhausted(value)
    raise RuntimeError(f"ISL worker failed: {value}")
