"""Exceptions raised by symcute.

Every failure a user can cause is a :class:`SymcuteError`; the CLI turns it into
one line on stderr and exit code 2.
"""


class SymcuteError(Exception):
    """Base class of every error symcute raises on purpose."""


class LayoutError(SymcuteError):
    """A CuTe precondition does not hold (CuTe would refuse the input at compile time)."""


class ParseError(SymcuteError):
    """Text in CuTe notation or in the expression language could not be read."""


class LimitError(SymcuteError):
    """A computation would exceed a configured limit (enumeration size, nesting depth)."""


class SymcuteWarning(UserWarning):
    """Base class of every warning symcute issues: the value returned is CuTe's, with a caveat."""


class IntOverflowWarning(SymcuteWarning):
    """A run-time (dynamic) value does not fit CuTe's 32-bit ``int``: compiled CuTe would overflow
    (undefined behaviour, in practice a wrapped value) where symcute keeps the exact integer."""
