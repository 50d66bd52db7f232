"""The work budget: what one command may ask of the algebra, measured inside the algorithms.

A short text can ask for a lot: ``make_layout((2,2,...,2))`` with 33,000 modes
has strides up to ``2^33000`` (164 MB of digits), a layout of 20,000 modes
through a chain of operations builds layout after layout.  Limits on the
text (``core.parse.MAX_TEXT``) and its literals (``expr.language.MAX_INTEGER_BITS``)
do not bound that; this budget does, where the work happens:

* every layout the algebra builds (``Layout``, ``Layout._make``, compact
  strides as they are computed) is charged its flat modes plus its
  integers' 64-bit words; past ``MAX_WORK`` units in all, the computation
  stops with a :class:`LimitError`;
* one value whose integers total more than ``MAX_VALUE_BITS`` bits is refused
  as it is built (its decimal text alone would pass a megabyte);
* formulas are charged the same way (``symbolic.formula``), so a document of
  a derivation cannot grow past the budget either.

The budget is active while a :func:`limited` context is: the ``symcute``
command runs every command in one, the expression language evaluates in one
and ``Derivation.from_json`` re-checks in one.  Direct Python calls run
unmetered unless the caller opens one (``with budget.limited(): ...``); the
check costs one list read while no budget is open anywhere (``OPEN``), one
``ContextVar.get`` while one is.
"""

from __future__ import annotations

from contextvars import ContextVar

from ..errors import LimitError

MAX_WORK = 1 << 22          # units: flat modes + 64-bit words of every layout built, per command
MAX_VALUE_BITS = 1 << 22    # bits of the integers of one layout (about 1.26 million decimal digits)

current: ContextVar = ContextVar("symcute_budget", default=None)

# How many `limited` contexts have set a budget and not yet left, in every thread.  While it is 0 no
# context can see a budget, so the hot constructors test `OPEN[0]` (a list read) before paying for
# `current.get()`; when it is not 0 they ask `current` as before (a thread with no budget of its own
# still gets None there).  A list, so that importers read the live count.
OPEN = [0]


class Budget:
    """A running account of work; :meth:`charge` raises LimitError past the limit."""

    __slots__ = ("work", "used", "value_bits")

    def __init__(self, work: int | None = None, value_bits: int | None = None):
        self.work = MAX_WORK if work is None else work
        self.value_bits = MAX_VALUE_BITS if value_bits is None else value_bits
        self.used = 0

    def charge(self, units: int, what: str = "the computation") -> None:
        self.used += units
        if self.used > self.work:
            raise LimitError(f"{what}: the computation exceeds the work budget of {self.work} units "
                             f"(flat modes and 64-bit words of every layout it builds; "
                             f"symcute.core.budget.MAX_WORK)")

    def value(self, modes: int, bits: int, what: str = "a computed layout") -> None:
        """Charge one value of ``modes`` flat modes whose integers total ``bits`` bits."""
        if bits > self.value_bits:
            raise LimitError(f"{what}: integers of more than {self.value_bits} bits in all, past "
                             f"symcute.core.budget.MAX_VALUE_BITS (their text would pass "
                             f"{self.value_bits * 3 // 10} digits)")
        self.charge(modes + (bits >> 6), what)


class limited:
    """Context manager: run under a budget (a fresh one, unless one is already active: budgets nest into the outer)."""

    def __init__(self, work: int | None = None, value_bits: int | None = None):
        self._args = (work, value_bits)
        self._token = None

    def __enter__(self) -> Budget:
        outer = current.get()
        if outer is not None and self._args == (None, None):
            return outer
        b = Budget(*self._args)
        self._token = current.set(b)
        OPEN[0] += 1
        return b

    def __exit__(self, *exc) -> None:
        if self._token is not None:
            current.reset(self._token)
            self._token = None
            OPEN[0] -= 1


def charge_tuple(shape, stride, what: str = "a computed layout") -> None:
    """Charge a layout's shape and stride to the active budget (nothing when none is active)."""
    b = current.get() if OPEN[0] else None
    if b is None:
        return
    modes, bits = 0, 0
    stack = [shape, stride]
    while stack:
        x = stack.pop()
        if type(x) is tuple:
            stack.extend(x)
        elif type(x) is int:
            modes += 1
            bits += x.bit_length()
        else:
            modes += 1
    b.value(modes // 2, bits, f"{what} of {modes // 2} modes" if what == "a computed layout" else what)
