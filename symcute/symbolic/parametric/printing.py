"""How parametric values print: closed forms in the declared names, CuTe-like and compact.

``ceiling(M/128)`` prints as ``ceil_div(M,128)`` (CuTe's name); sums and
products print without spaces so that a layout reads like CuTe's own print,
``((128,32),(ceil_div(M,128),ceil_div(K,32))):((K,1),(128*K,32))``.
"""

from __future__ import annotations

from functools import cache

from .lazy_sympy import sympy


@cache
def _printer():
    """The printer, made on the first print (its base class is SymPy's, loaded then)."""
    from sympy.printing.str import StrPrinter

    class _Printer(StrPrinter):
        def _print_ceiling(self, e):
            p, q = sympy.fraction(sympy.together(e.args[0]))
            if q != 1:
                return f"ceil_div({self._print(p)},{self._print(q)})"
            return f"ceil({self._print(e.args[0])})"

        def _print_floor(self, e):
            p, q = sympy.fraction(sympy.together(e.args[0]))
            if q != 1:
                return f"floor_div({self._print(p)},{self._print(q)})"
            return f"floor({self._print(e.args[0])})"

        def _print_Mod(self, e):
            return f"mod({self._print(e.args[0])},{self._print(e.args[1])})"

        def _print_Min(self, e):
            return "min(" + ",".join(self._print(a) for a in e.args) + ")"

        def _print_Max(self, e):
            return "max(" + ",".join(self._print(a) for a in e.args) + ")"

    return _Printer({"order": "none"})


def show_expr(e) -> str:
    """One value: an int as itself, an expression in closed form without spaces."""
    if type(e) is int:
        return str(e)
    if isinstance(e, sympy.Integer):
        return str(int(e))
    return _printer().doprint(e).replace(" ", "")


def show_tree(t, leaf) -> str:
    if type(t) is tuple:
        return "(" + ",".join(show_tree(x, leaf) for x in t) + ")"
    return leaf(t)
