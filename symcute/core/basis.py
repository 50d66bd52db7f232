"""Scaled basis strides (CuTe's ``ScaledBasis``, ``E<...>``), for identity-like layouts.

A stride ``v@1@0`` (CuTe's print of ``v * E<0,1>``) sends a coordinate to the
codomain mode ``get<0,1>``; CuTe prints the mode path in reverse, so the text
``1@1@0`` holds ``modes == (0, 1)``.  Composition with a basis-strided right-hand
side selects that mode of the left-hand side (``basis_get``).

A stride may also be a multi-term ``ArithmeticTuple`` (``make_arithmetic_tuple(1,1)``,
or ``E<0>{} + E<1>{}``): ``(4,4):((1,1),(3,1))``.  CuTe 4.2 compiles such a layout
and prints it, its size, rank, depth, shape, stride, modes, ``append`` and
``select``, but no evaluation and no algebra: ``arithmetic_tuple.hpp`` has no
``operator*`` of an integer and an ArithmeticTuple, so ``L(1)``, ``cosize``,
``coalesce``, ``composition`` ... fail to compile.  symcute keeps the stride as
an :class:`ArithmeticTuple` leaf and raises a LayoutError naming the stride
(:func:`arithmetic_stride_error`) wherever CuTe would need that product.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError, LimitError
from .int_text import format_int_tuple

MAX_MODES = 1 << 12  # largest mode index (and nesting) of a basis stride that is turned into a coordinate


@dataclass(frozen=True)
class ScaledBasis:
    value: int
    modes: tuple  # the path for CuTe's get<modes...>

    def __post_init__(self):
        # CuTe's ScaledBasis<T, Ns...>: an integer scale T and a path of mode indices Ns (template ints >= 0)
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise LayoutError(f"ScaledBasis({self.value!r}, {self.modes!r}): the scale {self.value!r} is no integer "
                              f"(CuTe's ScaledBasis<T,Ns...> scales a basis element E<Ns...> by an integer)")
        if type(self.modes) is not tuple or \
                any(isinstance(m, bool) or not isinstance(m, int) or m < 0 for m in self.modes):
            raise LayoutError(f"ScaledBasis({self.value!r}, {self.modes!r}): the modes must be a tuple of mode "
                              f"indices, integers >= 0 (CuTe's E<Ns...>)")

    def __mul__(self, k):
        if isinstance(k, int) and not isinstance(k, bool):
            return ScaledBasis(self.value * k, self.modes)
        return NotImplemented

    __rmul__ = __mul__

    def __abs__(self):
        """CuTe's ``abs(ScaledBasis)``: the scale's absolute value on the same mode."""
        return ScaledBasis(abs(self.value), self.modes)

    def __add__(self, other):
        if other == 0:
            return self
        if _is_int(other):
            # arithmetic_tuple.hpp: ScaledBasis + C<u> static_asserts u == 0; no overload for a dynamic int
            _refuse("ScaledBasis", self, other)
        if isinstance(other, tuple):
            raise LayoutError(f"{self} + {_text(other)}: CuTe adds a ScaledBasis to an ArithmeticTuple, a basis "
                              f"element or a static 0 only (no operator+ of a ScaledBasis and a tuple)")
        # arithmetic_tuple.hpp: ScaledBasis + ScaledBasis is as_arithmetic_tuple(t) + as_arithmetic_tuple(u),
        # an ArithmeticTuple even when both have the same mode (E<0>{} + E<0>{} prints (2))
        return ArithmeticTuple.of(self) + other

    def __radd__(self, other):  # other + self, where other is no basis value (those have __add__)
        if other == 0:
            return self
        if _is_int(other):
            _refuse("ScaledBasis", other, self)  # C<t> + ScaledBasis static_asserts t == 0
        if isinstance(other, tuple):   # arithmetic_tuple.hpp adds a ScaledBasis to an ArithmeticTuple only
            raise LayoutError(f"{_text(other)} + {self}: CuTe adds a ScaledBasis to an ArithmeticTuple, a basis "
                              f"element or a static 0 only (no operator+ of a tuple and a ScaledBasis)")
        return NotImplemented

    def __str__(self) -> str:
        return str(self.value) + "".join(f"@{m}" for m in reversed(self.modes))

    def __repr__(self) -> str:
        return f"ScaledBasis({self.value}, {self.modes})"

    def basis_get(self, t):
        """``get<modes...>(t)``."""
        for m in self.modes:
            if not isinstance(t, tuple) or m >= len(t):
                if m == 0 and not isinstance(t, tuple):
                    continue
                raise LayoutError(f"basis stride {self} selects a mode that {t} does not have")
            t = t[m]
        return t


def arithmetic_stride_error(message: str, reason: str | None = None) -> LayoutError:
    """CuTe's refusal of an operation on an arithmetic-tuple stride (it needs ``int * ArithmeticTuple``, or an
    order of them, which CuTe lacks): a LayoutError whose ``reason`` is the stride's own message, marked so that
    the operations around it reword the message to name the user's call (``hook.arithmetic_stride_failure``)."""
    err = LayoutError(message)
    err.reason = reason or message
    err.arithmetic_stride = True
    return err


@dataclass(frozen=True, eq=False)
class ArithmeticTuple:
    """A codomain coordinate: what a basis-strided layout returns (CuTe's ``ArithmeticTuple``);
    also a multi-term stride leaf (``(4,4):((1,1),(3,1))``), which CuTe prints and sizes but never
    evaluates (see the module docstring)."""

    items: tuple

    def _reason(self, what: str) -> str:
        return (f"the arithmetic-tuple stride {self} {what}: CuTe (arithmetic_tuple.hpp) has no operator* of an "
                f"integer and an ArithmeticTuple, so it compiles and prints a layout with such a stride (and its "
                f"size, rank, shape, stride and modes) but refuses to evaluate it or compute on it")

    def _refused(self, what: str):
        raise arithmetic_stride_error(self._reason(what))

    def _refused_in(self, call: str):
        """Refuse ``call`` (the user's operation, named), as CuTe does."""
        reason = self._reason("is no integer")
        raise arithmetic_stride_error(f"{call}: CuTe refuses it: {reason}", reason)

    def __mul__(self, k):
        self._refused(f"times {k}")

    __rmul__ = __mul__

    def __lt__(self, other):
        self._refused("has no order")

    __le__ = __gt__ = __ge__ = __lt__

    def __abs__(self):
        self._refused("has no absolute value")

    def __floordiv__(self, other):
        self._refused(f"divided by {other}")

    __rfloordiv__ = __mod__ = __rmod__ = __truediv__ = __rtruediv__ = __floordiv__

    def __neg__(self):
        return ArithmeticTuple(_negate(self.items))

    def __eq__(self, other):
        """CuTe compares an ArithmeticTuple as the tuple it is: ``ArithmeticTuple(1,2,3) == (1,2,3)``."""
        if type(other) is ArithmeticTuple:
            return self.items == other.items
        if isinstance(other, tuple):
            return self.items == other
        return False   # a tuple is never equal to an int or a ScaledBasis (tuple.hpp, arithmetic_tuple.hpp)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.items)   # equal to its tuple, so it hashes as that tuple

    def __index__(self):
        self._refused("is no integer")

    def __int__(self):
        self._refused("is no integer")

    @staticmethod
    def of(e: ScaledBasis) -> "ArithmeticTuple":
        if len(e.modes) > MAX_MODES or any(m > MAX_MODES for m in e.modes):  # _embed makes m+1 entries per level
            raise LimitError(f"basis stride {e}: a mode index or nesting beyond {MAX_MODES} is no CuTe coordinate")
        return ArithmeticTuple(_embed(e.value, e.modes))

    def __add__(self, other):
        if other == 0:
            return self
        if isinstance(other, ScaledBasis):
            other = ArithmeticTuple.of(other)
        if isinstance(other, ArithmeticTuple):
            return ArithmeticTuple(_add(self.items, other.items))
        if isinstance(other, tuple):   # ArithmeticTuple + tuple: the tuple read as an ArithmeticTuple
            return ArithmeticTuple(_add(self.items, other))
        if _is_int(other):
            # arithmetic_tuple.hpp adds only C<0> to an ArithmeticTuple (static_assert) and has no int overload
            _refuse("Arithmetic tuple", self, other)
        return NotImplemented

    def __radd__(self, other):  # other + self, where other is no basis value
        if other == 0:
            return self
        if isinstance(other, tuple):
            return ArithmeticTuple(_add(other, self.items))
        if _is_int(other):
            _refuse("Arithmetic tuple", other, self)
        return NotImplemented

    def __sub__(self, other):
        """CuTe's ``operator-``: element-wise, the shorter side padded with 0 (``- C<0>`` only, of integers)."""
        if other == 0:
            return self
        if isinstance(other, ScaledBasis):   # CuTe has no ArithmeticTuple - ScaledBasis
            raise LayoutError(f"{self} - {other}: CuTe has no operator- of an ArithmeticTuple and a ScaledBasis")
        if type(other) is ArithmeticTuple:
            other = other.items
        if isinstance(other, tuple):
            return ArithmeticTuple(_add(self.items, _negate(other)))
        if _is_int(other):
            _refuse("Arithmetic tuple", self, other, "-")
        return NotImplemented

    def __rsub__(self, other):  # other - self
        if other == 0:
            return -self
        if isinstance(other, tuple):
            return ArithmeticTuple(_add(other, _negate(self.items)))
        if _is_int(other):
            _refuse("Arithmetic tuple", other, self, "-")
        return NotImplemented

    def __str__(self) -> str:
        return format_int_tuple(self.items)


def _negate(t):
    if type(t) is ArithmeticTuple:
        t = t.items
    return tuple(_negate(x) for x in t) if isinstance(t, tuple) else -t


def arithmetic_tuple_stride(items, where: str) -> ArithmeticTuple:
    """The stride leaf ``items`` (a tuple of ints, nested tuples of ints) as an ArithmeticTuple, as CuTe's
    ``make_arithmetic_tuple`` builds it; ``where`` names the layout for the error."""
    def check(t):
        if isinstance(t, tuple):
            for x in t:
                check(x)
        elif isinstance(t, bool) or not isinstance(t, int):
            raise LayoutError(f"{where}: the arithmetic-tuple stride {_text(items)} holds {t}; symcute "
                              f"represents arithmetic-tuple strides of integers only")
    check(items)
    return ArithmeticTuple(items)


def _text(t) -> str:
    return "(" + ",".join(_text(x) for x in t) + ")" if isinstance(t, tuple) else str(t)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _refuse(kind: str, left, right, op: str = "+"):
    raise LayoutError(f"{kind} op{op} error!: {_text(left)} {op} {_text(right)} (CuTe adds an integer to (or "
                      f"subtracts one from) a coordinate of basis strides only when it is a static 0)")


def _embed(v, modes):
    if not modes:
        return v
    m = modes[0]
    return tuple(_embed(v, modes[1:]) if i == m else 0 for i in range(m + 1))


def _add(a, b):
    """Element-wise sum, the shorter tuple padded with 0 (CuTe's ``append<R>(t, Int<0>{})``).

    An integer meets a tuple only as a 0 (``C<0> + ArithmeticTuple``); any other integer there is CuTe's
    static_assert "Arithmetic tuple op+ error!"."""
    if type(a) is ArithmeticTuple:
        a = a.items
    if type(b) is ArithmeticTuple:
        b = b.items
    if isinstance(a, tuple) != isinstance(b, tuple):
        t, x = (a, b) if isinstance(a, tuple) else (b, a)
        if _is_int(x) and x == 0:
            return t
        _refuse("Arithmetic tuple", a, b)
    if isinstance(a, tuple):
        n = max(len(a), len(b))
        a = a + (0,) * (n - len(a))
        b = b + (0,) * (n - len(b))
        return tuple(_add(x, y) for x, y in zip(a, b))
    return a + b
