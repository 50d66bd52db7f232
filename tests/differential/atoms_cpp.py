"""C++ spellings of atoms, TiledMMAs and TiledCopies for the differential tests of ``symcute.atoms``.

Each helper returns the C++ expression that builds in real CuTe the object
symcute builds from the same arguments, so a test can print both and compare.
"""

from __future__ import annotations

from symcute.core import Layout, Underscore
from symcute.oracle import cpp_type

# Extended GMMA shapes (N = 24, 40, ...) are compiled only with this macro; the headers are
# guarded by #pragma once and not yet included by the precompiled header, so this works.
PREAMBLE = ("#define CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED\n"
            "#include <cute/arch/mma_sm90_gmma_ext.hpp>\n"
            "#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>\n"
            "using namespace cute;\n")


def layout_type(layout) -> str:
    if not isinstance(layout, Layout):
        layout = Layout(layout)
    return cpp_type(str(layout))


def perm_type(p) -> str:
    if p is None or isinstance(p, Underscore):
        return "Underscore"
    if isinstance(p, int):
        return f"Int<{p}>"
    if isinstance(p, Layout):
        return layout_type(p)
    if isinstance(p, str):
        return layout_type(Layout.parse(p))
    raise TypeError(p)


def tiled_mma_expr(atom_name: str, atom_layout=None, perms=None) -> str:
    args = [f"{atom_name}{{}}"]
    if atom_layout is not None or perms is not None:
        lay = atom_layout if atom_layout is not None else (1, 1, 1)
        args.append(layout_type(lay if isinstance(lay, Layout) else Layout(tuple(lay))) + "{}")
    if perms is not None:
        args.append("Tile<" + ",".join(perm_type(p) for p in perms) + ">{}")
    return "make_tiled_mma(" + ", ".join(args) + ")"


def copy_atom_type(op: str, value_type: str) -> str:
    return f"Copy_Atom<{op}, {value_type}>"


def sep_prints(*exprs: str) -> str:
    """Statements printing each expression, separated by '|'."""
    return ' print("|"); '.join(f"print({e});" for e in exprs)
