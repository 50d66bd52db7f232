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
