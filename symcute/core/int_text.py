"""The text of an IntTuple as CuTe prints it (the package's one IntTuple formatter).

A leaf module: ``basis`` (ScaledBasis, ArithmeticTuple) prints through it, and ``int_tuple``
(which knows ArithmeticTuples) re-exports it.
"""

from __future__ import annotations

from typing import Any

from .integer import DynamicInt

IntTuple = Any


def format_int_tuple(t: IntTuple, static_marks: bool = False) -> str:
    """CuTe's ``print`` of an IntTuple, without underscores: ``((2),1)`` keeps 1-tuples.

    A list prints as a tuple (a tuple read back from JSON); any other leaf prints as ``str`` (``_``, a
    ScaledBasis, a SymPy extent).  This is the one IntTuple text formatter of the package.
    With ``static_marks``, CuTe's own print: a static integer is ``_4``, a run-time one
    (:class:`~symcute.core.integer.DynamicInt`) ``4``, a basis stride ``_1@0``.
    """
    if isinstance(t, (tuple, list)):
        return "(" + ",".join(format_int_tuple(x, static_marks) for x in t) + ")"
    if static_marks:
        return _marked(t)
    return str(t)


def _marked(x) -> str:
    t = type(x)
    if t is int:
        return f"_{x}"
    if t is DynamicInt:
        return str(x)
    modes = getattr(x, "modes", None)
    if type(modes) is tuple and isinstance(getattr(x, "value", None), int):   # a ScaledBasis: its scale is marked
        return _marked(x.value) + "".join(f"@{m}" for m in reversed(modes))
    return str(x)
