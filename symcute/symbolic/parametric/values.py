"""CuTe's integers, static and dynamic, with the arithmetic rules of ``integral_constant.hpp``.

A *static* integer (CuTe's ``Int<4>{}``, ``_4``) is a Python ``int``; a
*dynamic* one (a run-time ``int``) is a SymPy expression over the parameters'
inner symbols (a dynamic constant is a ``sympy.Integer``).  The type rules are
CuTe's: static op static is static; anything with a dynamic operand is
dynamic, except the mixed special cases ``_0 * x``, ``x * _0``, ``_0 / x``,
``_0 % x`` and ``x % _1`` which are static ``_0``.  Division is C++'s
(truncating); on dynamic operands it is taken as a floor where the side
conditions show both operands non-negative, and refused otherwise.

Decisions a value needs (``min``, ``abs``, a sign) are asked of the current
:class:`Env` (the operation's parameters); each settled fact is recorded as a
condition the result used.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager

from .lazy_sympy import sympy

from ...errors import LayoutError
from ...core import int_tuple as it
from .conditions import Params, missing

_ENV: contextvars.ContextVar = contextvars.ContextVar("symcute_param_env", default=None)


class Env:
    """The parameters of one operation and the facts it relied on."""

    def __init__(self, params: Params):
        self.params = params
        self.used: list[str] = []

    def require(self, fact, what: str, text: str | None = None) -> None:
        """``fact`` must hold for every admissible value, else a LayoutError naming it."""
        if fact is sympy.true or fact is True:
            return
        v = self.params.decide(fact)
        shown = text or self.show(fact)
        if not v.proved:
            raise missing(what, shown, v)
        self._use(shown)

    def holds(self, fact) -> bool:
        """Whether ``fact`` is proved (recorded when it is); False means unproved, not refuted."""
        if fact is sympy.true or fact is True:
            return True
        if fact is sympy.false or fact is False:
            return False
        if self.params.decide(fact).proved:
            self._use(self.show(fact))
            return True
        return False

    def _use(self, text: str) -> None:
        if text not in self.used:
            self.used.append(text)

    def show(self, expr) -> str:
        from .printing import show_expr
        return show_expr(self.params.user(expr))


def env() -> Env:
    e = _ENV.get()
    if e is None:
        raise RuntimeError("parametric arithmetic outside of an operation (no Env)")
    return e


@contextmanager
def using(params: Params):
    outer = _ENV.get()
    if outer is not None and outer.params == params:
        yield outer
        return
    e = Env(params if outer is None else outer.params.union(params))
    token = _ENV.set(e)
    try:
        yield e
    finally:
        _ENV.reset(token)
        if outer is not None:
            for u in e.used:
                outer._use(u)


# --- kinds -----------------------------------------------------------------------------

def is_static(t) -> bool:
    if type(t) is tuple:
        return all(is_static(x) for x in t)
    return type(t) is int


def is_constant(v: int, x) -> bool:
    """CuTe's ``is_constant<v, X>``: a static integer equal to v."""
    return type(x) is int and x == v


def dyn(x):
    """The run-time integer with the value of ``x``."""
    return sympy.Integer(x) if type(x) is int else x


def _expr(x):
    return sympy.Integer(x) if type(x) is int else x


def _known_int(x):
    """The integer value of a dynamic constant, else None."""
    if type(x) is int:
        return x
    if isinstance(x, sympy.Integer):
        return int(x)
    return None


# --- arithmetic ---------------------------------------------------------------------------

def add(a, b):
    if type(a) is int and type(b) is int:
        return a + b
    return _expr(a) + _expr(b)


def sub(a, b):
    if type(a) is int and type(b) is int:
        return a - b
    return _expr(a) - _expr(b)


def neg(a):
    return -a


def mul(a, b):
    if type(a) is int and type(b) is int:
        return a * b
    if is_constant(0, a) or is_constant(0, b):
        return 0
    return _expr(a) * _expr(b)


def _nonneg(x) -> bool:
    k = _known_int(x)
    if k is not None:
        return k >= 0
    return env().holds(sympy.Ge(x, 0))


def _positive(x) -> bool:
    k = _known_int(x)
    if k is not None:
        return k > 0
    return env().holds(sympy.Gt(x, 0))


def div(a, b, what: str = "division"):
    """C++ ``a / b`` (truncating)."""
    if type(a) is int and type(b) is int:
        return it.cdiv(a, b)
    if is_constant(0, a):
        return 0
    ka, kb = _known_int(a), _known_int(b)
    if ka is not None and kb is not None:
        return sympy.Integer(it.cdiv(ka, kb))
    ea, eb = _expr(a), _expr(b)
    if kb == 0:
        raise LayoutError(f"{what}: division by zero")
    if _nonneg(ea) and _positive(eb):
        return sympy.floor(ea / eb)
    if _nonneg(-ea) and _positive(eb):
        return -sympy.floor(-ea / eb)
    raise LayoutError(f"{what}: the signs of {env().show(ea)} and {env().show(eb)} are not settled by the side "
                      f"conditions (C++ truncating division needs them)")


def mod(a, b, what: str = "remainder"):
    """C++ ``a % b``."""
    if type(a) is int and type(b) is int:
        return it.cmod(a, b)
    if is_constant(1, b) or is_constant(-1, b) or is_constant(0, a):
        return 0
    ka, kb = _known_int(a), _known_int(b)
    if ka is not None and kb is not None:
        return sympy.Integer(it.cmod(ka, kb))
    ea, eb = _expr(a), _expr(b)
    if _nonneg(ea) and _positive(eb):
        return sympy.Mod(ea, eb)
    raise LayoutError(f"{what}: the signs of {env().show(ea)} and {env().show(eb)} are not settled by the side "
                      f"conditions")


def ceil_div(a, b):
    """CuTe's ``ceil_div`` on integers: ``(a + b - _1) / b``."""
    if type(a) is int and type(b) is int:
        return it.cdiv(a + b - 1, b)
    ea, eb = _expr(a), _expr(b)
    ka, kb = _known_int(a), _known_int(b)
    if ka is not None and kb is not None:
        return sympy.Integer(it.cdiv(ka + kb - 1, kb))
    if _nonneg(ea) and _positive(eb):
        return sympy.ceiling(ea / eb)   # equal to floor((a + b - 1) / b) for a >= 0, b > 0
    return div(add(add(a, b), -1), b, "ceil_div")


def shape_div(a, b):
    """CuTe 4.2's ``shape_div`` on integers: the Divisibility Condition, then ``ceil_div``."""
    if type(a) is int and type(b) is int:
        return it.shape_div(a, b)
    return ceil_div(a, b)


def cmin(a, b):
    """``cute::min``: static when both are, else the run-time minimum."""
    if type(a) is int and type(b) is int:
        return min(a, b)
    ea, eb = _expr(a), _expr(b)
    if env().holds(sympy.Le(ea, eb)):
        return ea
    if env().holds(sympy.Le(eb, ea)):
        return eb
    return sympy.Min(ea, eb)


def cmax(a, b):
    if type(a) is int and type(b) is int:
        return max(a, b)
    ea, eb = _expr(a), _expr(b)
    if env().holds(sympy.Ge(ea, eb)):
        return ea
    if env().holds(sympy.Ge(eb, ea)):
        return eb
    return sympy.Max(ea, eb)


def cabs(a):
    if type(a) is int:
        return abs(a)
    if _nonneg(a):
        return a
    if _nonneg(-a):
        return -a
    return sympy.Abs(a)


def signum(a):
    """CuTe's ``signum``: an ``int`` (dynamic) for a dynamic argument."""
    if type(a) is int:
        return it.signum(a)
    if _positive(a):
        return sympy.Integer(1)
    if _positive(-a):
        return sympy.Integer(-1)
    if env().holds(sympy.Eq(a, 0)):
        return sympy.Integer(0)
    return sympy.sign(a)


def static_eq(a, b) -> bool:
    """``is_constant<true, decltype(a == b)>``: both static and equal."""
    return type(a) is int and type(b) is int and a == b


# --- facts ---------------------------------------------------------------------------------

def divides_fact(d, n):
    """The SymPy fact ``n % d == 0`` (d > 0; a zero ``d`` divides only 0)."""
    if _known_int(d) == 0:
        return sympy.Eq(_expr(n), 0)
    return sympy.Eq(sympy.Mod(_expr(n), _expr(d)), 0)


def less_fact(a, b):
    return sympy.Lt(_expr(a), _expr(b))
