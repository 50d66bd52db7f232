"""The kinds of value core's public functions take, and the refusal of any other kind (CuTe's overload set).

CuTe picks an overload by the C++ type of each argument; a call no overload takes fails to compile.
symcute's functions are Python functions, so a value of a kind CuTe would not take there (a Layout where
``shape_div`` takes an IntTuple, a ScaledBasis as ``select``'s mode index) must be refused by name before
Python's own operators meet it: otherwise the user reads ``bad operand type for abs(): 'Layout'``.

The kinds, as :func:`kind_of` names them: an integer (a static ``int`` or a run-time ``DynamicInt``), a
tuple, an ArithmeticTuple, a ScaledBasis, a Layout, a ComposedLayout, a Tensor, a Swizzle, an Underscore.
Each check is one ``type`` test per argument (an IntTuple check walks the tuple once, as the operation
does anyway).  This module sits below the classes it names: ``Layout``, ``ComposedLayout``, ``Tensor`` and
``Underscore`` register themselves here (:func:`register`) where they are defined.
"""

from __future__ import annotations

from ..errors import LayoutError
from .basis import ArithmeticTuple, ScaledBasis
from .int_text import format_int_tuple

_CLASSES: dict = {}   # "Layout", "ComposedLayout", "Tensor", "Underscore" -> the class (set by register)


def register(name: str, cls: type) -> None:
    """Name ``cls`` for the checks here (called by the module that defines it)."""
    _CLASSES[name] = cls


def is_kind(x, name: str) -> bool:
    """``x`` is an instance of the registered class ``name`` (``"Tensor"``, ...), for modules below it."""
    return _is(x, name)


def _is(x, name: str) -> bool:
    cls = _CLASSES.get(name)
    return cls is not None and isinstance(x, cls)


_KIND_NAMES = {
    "ArithmeticTuple": "an ArithmeticTuple", "ScaledBasis": "a ScaledBasis", "Layout": "a Layout",
    "ComposedLayout": "a ComposedLayout", "Tensor": "a Tensor", "Swizzle": "a Swizzle",
    "Underscore": "an Underscore (_)", "bytes": "bytes", "str": "a string",
}


def is_integer(x) -> bool:
    """A static ``int`` or a run-time ``DynamicInt`` (never a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


def kind_of(x) -> str:
    """The kind of ``x`` in words, for an error message: ``"a Layout"``, ``"an integer"``, ``"a tuple"``."""
    if x is None:
        return "None"
    if isinstance(x, bool):
        return "a bool"
    if isinstance(x, int):
        return "an integer"
    if type(x) is tuple:
        return "a tuple"
    name = type(x).__name__
    return _KIND_NAMES.get(name, f"a Python {name}")


def shown(x) -> str:
    """``x`` as CuTe prints it (for a tuple of ints), cut to a readable length."""
    text = format_int_tuple(x) if isinstance(x, tuple) else str(x)
    return text if len(text) <= 200 else text[:200] + "..."


def _call(op: str, args: tuple) -> str:
    return f"{op}({', '.join(shown(a) for a in args)})"


def refuse(op: str, args: tuple, i: int, wanted: str) -> LayoutError:
    """The error for argument ``i`` (0-based) of ``op(*args)``: it is of a kind CuTe's ``op`` does not take."""
    return LayoutError(f"{_call(op, args)}: argument {i + 1} is {kind_of(args[i])}; CuTe's {op} takes "
                       f"{wanted} there (no overload of {op} takes {kind_of(args[i])})")


def _int_tuple_leaves(x, basis: bool) -> bool:
    # loops with exact type tests, not all() over generators: this runs on every public IntTuple call
    t = type(x)
    if t is int:
        return True
    if t is tuple:
        for y in x:
            ty = type(y)
            if ty is int:
                continue
            if ty is tuple:
                if not _int_tuple_leaves(y, basis):
                    return False
            elif not _leaf(y, basis):
                return False
        return True
    return _leaf(x, basis)


def _leaf(x, basis: bool) -> bool:
    if isinstance(x, int):
        return not isinstance(x, bool)
    return basis and isinstance(x, ScaledBasis)


def int_tuple(op: str, args: tuple, *positions: int, basis: bool = False) -> None:
    """Refuse unless each argument at ``positions`` is an IntTuple: an integer or a (nested) tuple of integers
    (``basis``: ScaledBasis leaves too, as in a stride)."""
    for i in positions:
        if i < len(args) and type(args[i]) is not int and not _int_tuple_leaves(args[i], basis):
            x = args[i]
            what = "an IntTuple (an integer or a tuple of integers" + (", or of ScaledBasis strides)" if basis else ")")
            if type(x) is tuple:   # name the leaf that is no integer
                bad = _first_bad_leaf(x, basis)
                raise LayoutError(f"{_call(op, args)}: argument {i + 1} holds {kind_of(bad)} ({shown(bad)}); "
                                  f"CuTe's {op} takes {what} there")
            raise refuse(op, args, i, what)


def _first_bad_leaf(x, basis: bool):
    if type(x) is tuple:
        for y in x:
            bad = _first_bad_leaf(y, basis)
            if bad is not None:
                return bad
        return None
    return None if _int_tuple_leaves(x, basis) else x


def coordinate(op: str, args: tuple, *positions: int) -> None:
    """Refuse unless each argument at ``positions`` is a coordinate: an IntTuple or an ArithmeticTuple (a
    tuple to CuTe), whose leaves may be ``_`` where the operation slices."""
    def ok(x):
        if type(x) is tuple:
            return all(ok(y) for y in x)
        if type(x) is ArithmeticTuple:
            return ok(x.items)
        return (isinstance(x, int) and not isinstance(x, bool)) or _is(x, "Underscore")
    for i in positions:
        if i < len(args) and not ok(args[i]):
            raise refuse(op, args, i, "a coordinate (an integer, a tuple of them, an ArithmeticTuple, or _)")


def mode_index(op: str, args: tuple, *positions: int, none: bool = False) -> None:
    """Refuse unless each argument at ``positions`` is an integer: a template argument of CuTe's ``op``
    (``select<I...>``, ``take<B,E>``, ``append<N>``), which no other kind can be (``none``: or None)."""
    for i in positions:
        if i < len(args):
            x = args[i]
            if none and x is None:
                continue
            if isinstance(x, bool) or not isinstance(x, int):
                raise refuse(op, args, i, "an integer (a template argument: a mode index or a rank)")


def layout_like(op: str, args: tuple, i: int, *, composed: bool = True, tensor: bool = False) -> None:
    """Refuse unless argument ``i`` is a Layout (``composed``: or a ComposedLayout; ``tensor``: or a Tensor)."""
    x = args[i]
    if _is(x, "Layout") or (composed and _is(x, "ComposedLayout")) or (tensor and _is(x, "Tensor")):
        return
    wanted = "a Layout" + (", a ComposedLayout" if composed else "") + (" or a Tensor" if tensor else "")
    raise refuse(op, args, i, wanted)


__all__ = ["coordinate", "int_tuple", "is_integer", "is_kind", "kind_of", "layout_like", "mode_index", "refuse", "register"]
