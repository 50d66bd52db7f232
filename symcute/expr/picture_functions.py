"""CuTe's pictures in the expression language: ``print_latex``, ``print_latex_tv``, ``print_svg``,
and its console tables ``print_layout``, ``print_tensor``."""

from __future__ import annotations

from ..errors import LayoutError
from ..report.console import print_layout, print_tensor
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
register_function("print_layout", lambda x: Picture(print_layout(_no_type(x, "print_layout"))))
register_function("print_tensor", lambda t, print_type=True: Picture(print_tensor(_no_type(t, "print_tensor"),
                                                                                  bool(print_type))))
