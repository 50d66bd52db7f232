"""The recording hook: a leaf of ``core`` that every traced operation calls into (it imports only errors).

While a derivation is active (``symcute.trace.Derivation`` as a context manager)
``current`` holds its recorder; otherwise it holds ``None`` and a traced
operation costs one ``ContextVar.get`` more than the bare function.

Recorder protocol (implemented by ``trace.derivation``):
  ``rec.call(rule, fn, args, kwargs)`` runs ``fn`` as a recorded step;
  ``rec.note(**details)`` attaches intermediate quantities to the running step.
"""

from __future__ import annotations

import functools
from contextvars import ContextVar

from ..errors import LayoutError

current: ContextVar = ContextVar("symcute_recorder", default=None)


def recording():
    """The active recorder, or ``None`` (the common, free case)."""
    return current.get()


def traced(rule: str, leaf: bool = False):
    """Mark a public operation as a derivation step with rule id ``rule``.

    ``leaf``: a constructor or accessor (``get``, ``make_layout``) that does not
    recurse: a RecursionError inside it comes from the operation that recursed
    into it (``composition`` of a deep tiler calls ``lhs[i]``), which names it.
    """
    caught = ZeroDivisionError if leaf else (RecursionError, ZeroDivisionError)

    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            rec = current.get()
            try:
                if rec is None:
                    return fn(*args, **kwargs)
                return rec.call(rule, fn, args, kwargs)
            except caught as e:
                raise failure(rule, args, e) from None
            except LayoutError as e:
                if getattr(e, "arithmetic_stride", False):
                    raise arithmetic_stride_failure(rule, args, e) from None
                raise
        wrapper.rule = rule
        return wrapper
    return deco


def failure(rule: str, args: tuple, e: BaseException) -> LayoutError:
    """The user's error for a Python failure inside operation ``rule`` (deep nesting, a division by zero)."""
    if isinstance(e, RecursionError):
        # only a Python value nested thousands deep gets here (text is depth-limited by the
        # readers); checking depth up front would cost every call, catching it costs nothing
        return LayoutError(f"{rule}: an argument is nested too deeply to be a CuTe value "
                           f"(layouts, coordinates and tilers nest a few levels)")
    # CuTe has no value here (a static division by zero fails to compile or traps)
    shown = ", ".join(str(a) for a in args)
    return LayoutError(f"{rule}({shown}): the computation divides by zero")


def arithmetic_stride_failure(rule: str, args: tuple, e: LayoutError) -> LayoutError:
    """The user's error for operation ``rule`` on a layout with a multi-term ArithmeticTuple stride: CuTe
    refuses it.  Each traced level rewords it, so the message names the call the user made."""
    reason = getattr(e, "reason", str(e))
    shown = ", ".join(str(a) for a in args)
    err = LayoutError(f"{rule}({shown}): CuTe refuses {rule} here: {reason}")
    err.reason = reason
    err.arithmetic_stride = True   # outer traced levels reword it again (hook imports nothing but errors)
    return err


def note(**details) -> None:
    """Attach intermediate quantities to the running step (no-op when not recording)."""
    rec = current.get()
    if rec is not None:
        rec.note(**details)
