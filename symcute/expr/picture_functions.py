"""CuTe's pictures in the expression language: ``print_latex``, ``print_latex_tv``, ``print_svg``."""

from __future__ import annotations

from ..errors import LayoutError
from ..report.pictures import Picture, print_latex, print_latex_tv, print_svg
from .language import TypeName
from .registry import register_function


def _no_type(x, fn: str):
    if isinstance(x, TypeName):
        raise LayoutError(f"{fn}: got the type {x}; write a value ({x}{{}}, or make_tiled_mma(...))")
    return x


register_function("print_latex", lambda x: Picture(print_latex(_no_type(x, "print_latex"))))
register_function("print_latex_tv", lambda tv, tile: Picture(print_latex_tv(tv, tile)))
register_function("print_svg", lambda x: Picture(print_svg(_no_type(x, "print_svg"))))
