"""Static and run-time integers, as CuTe has them (``cute/numeric/integral_constant.hpp``).

CuTe distinguishes compile-time integers (``Int<4>{}``, printed ``_4``) from
run-time ones (``int``, printed ``4``), and several of its algorithms branch on
that *type*, not on the value: ``coalesce`` merges two modes only when the
merge is known at compile time, ``filter`` drops only static-0 strides, the
Divisibility Conditions are ``static_assert``\\ s on static values only, and so
on.  In symcute a plain Python ``int`` is static (the default, so every
all-static layout behaves as before) and a :class:`DynamicInt` is a run-time
integer.  Arithmetic follows CuTe's rules: static op static is static,
anything with a run-time operand is run-time, except the mixed special cases
``_0 * x``, ``x * _0``, ``_0 / x``, ``_0 % x``, ``x % _1``, ``x % _-1`` and
``_0 & x``, which are static ``_0``.
"""

from __future__ import annotations

from ..errors import LayoutError

__all__ = ["DynamicInt", "dynamic", "is_static", "is_constant", "is_dynamic_leaf", "cmin", "cmax",
           "signum"]


def _rt(v: int) -> "DynamicInt":
    return int.__new__(DynamicInt, v)


def _wrap(v):
    return v if v is NotImplemented else _rt(v)


def _static_zero(x) -> bool:
    return type(x) is int and x == 0


class DynamicInt(int):
    """A run-time integer (CuTe's ``int``): equal to and hashing as the same ``int``, printed ``4``.

    ``str`` and ``repr`` are the number, as for an ``int`` (messages that show a coordinate or a shape
    read as before); ``format_int_tuple(t, static_marks=True)`` and ``Layout.cute_str()`` show the kinds.
    """

    __slots__ = ()

    def __new__(cls, value=0):
        if isinstance(value, bool) or not isinstance(value, int):
            raise LayoutError(f"DynamicInt({value!r}): a run-time integer needs an int, got a {type(value).__name__}")
        return int.__new__(cls, value)

    __str__ = int.__repr__
    __repr__ = int.__repr__

    def __getnewargs__(self):
        return (int(self),)

    # arithmetic: run-time unless one of CuTe's static-_0 special cases applies
    def __add__(self, o):
        return _wrap(int.__add__(self, o))

    def __radd__(self, o):
        return _wrap(int.__radd__(self, o))

    def __sub__(self, o):
        return _wrap(int.__sub__(self, o))

    def __rsub__(self, o):
        return _wrap(int.__rsub__(self, o))

    def __mul__(self, o):
        if _static_zero(o):
            return 0
        return _wrap(int.__mul__(self, o))

    def __rmul__(self, o):
        if _static_zero(o):
            return 0
        return _wrap(int.__rmul__(self, o))

    def __floordiv__(self, o):
        return _wrap(int.__floordiv__(self, o))

    def __rfloordiv__(self, o):
        if _static_zero(o):
            return 0
        return _wrap(int.__rfloordiv__(self, o))

    def __mod__(self, o):
        if type(o) is int and (o == 1 or o == -1):
            return 0
        return _wrap(int.__mod__(self, o))

    def __rmod__(self, o):
        if _static_zero(o):
            return 0
        return _wrap(int.__rmod__(self, o))

    def __divmod__(self, o):
        q, r = int.__divmod__(self, o)
        return _rt(q), (0 if type(o) is int and o in (1, -1) else _rt(r))

    def __rdivmod__(self, o):
        q, r = int.__rdivmod__(self, o)
        return _rt(q), _rt(r)

    def __pow__(self, o, m=None):
        return _wrap(int.__pow__(self, o, m))

    def __rpow__(self, o, m=None):
        return _wrap(int.__rpow__(self, o, m))

    def __and__(self, o):
        if _static_zero(o):
            return 0
        return _wrap(int.__and__(self, o))

    def __rand__(self, o):
        if _static_zero(o):
            return 0
        return _wrap(int.__rand__(self, o))

    def __or__(self, o):
        return _wrap(int.__or__(self, o))

    __ror__ = __or__

    def __xor__(self, o):
        return _wrap(int.__xor__(self, o))

    __rxor__ = __xor__

    def __lshift__(self, o):
        return _wrap(int.__lshift__(self, o))

    def __rlshift__(self, o):
        return _wrap(int.__rlshift__(self, o))

    def __rshift__(self, o):
        return _wrap(int.__rshift__(self, o))

    def __rrshift__(self, o):
        return _wrap(int.__rrshift__(self, o))

    def __neg__(self):
        return _rt(-int(self))

    def __pos__(self):
        return self

    def __abs__(self):
        return _rt(abs(int(self)))


def dynamic(t):
    """The IntTuple ``t`` with every integer leaf made run-time (CuTe's ``int`` instead of ``Int<n>{}``)."""
    if isinstance(t, (tuple, list)):
        return tuple(dynamic(x) for x in t)
    if isinstance(t, bool) or not isinstance(t, int):
        raise LayoutError(f"dynamic: {t!r} is not an integer or a tuple of integers")
    return t if type(t) is DynamicInt else _rt(t)


def is_dynamic_leaf(x) -> bool:
    """A run-time integer leaf (a basis stride counts by its scale)."""
    t = type(x)
    if t is int:
        return False
    if t is DynamicInt:
        return True
    return type(getattr(x, "value", None)) is DynamicInt


def is_static(t) -> bool:
    """CuTe's ``is_static``: every leaf is a compile-time integer (a plain ``int``)."""
    if type(t) is tuple:
        return all(is_static(x) for x in t)
    return not is_dynamic_leaf(t)


def is_constant(v: int, x) -> bool:
    """CuTe's ``is_constant<v, X>``: ``x`` is a static integer equal to ``v``."""
    return type(x) is int and x == v


def cmin(a, b):
    """``cute::min``: static of two static values, else the run-time minimum."""
    m = a if a < b else b
    if type(a) is int and type(b) is int:
        return m
    return m if type(m) is DynamicInt else _rt(m)


def cmax(a, b):
    """``cute::max``: static of two static values, else the run-time maximum."""
    m = a if a > b else b
    if type(a) is int and type(b) is int:
        return m
    return m if type(m) is DynamicInt else _rt(m)


def signum(a):
    """CuTe's ``signum``: static for a static argument, an ``int`` (run-time) otherwise."""
    s = (a > 0) - (a < 0)
    return s if type(a) is int else _rt(s)
