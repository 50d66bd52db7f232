"""CuTe's shared-memory layout atoms through the expression language, against real CuTe.

Every GMMA atom (``GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>``) and
UMMA's ``Layout_MN_SW128_32B_Atom`` (plus one UMMA alias of a GMMA atom), for
several element types: the value, its ``_Bits`` form, ``tile_to_shape`` to
several tile shapes with and without ``Step<_2,_1>``, ``composition`` with a
layout, ``upcast``/``downcast``/``recast_layout``, evaluation at sample
indices, and ``composition(Swizzle<B,M,S>{}, L)``.  symcute's side is the text
a user types (``symcute.expr.evaluate``), so the catalog, the registry and the
core algebra are checked together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest

from symcute.atoms.smem_layouts import smem_layout_atom_names
from symcute.expr import evaluate

from .harness import compare, large, oracle_or_skip, run_guided

oracle_pkg = pytest.importorskip("symcute.oracle")

TYPES = {"half_t": "cute::half_t", "bfloat16_t": "cute::bfloat16_t", "float": "float",
         "tfloat32_t": "cute::tfloat32_t", "uint8_t": "uint8_t", "float_e4m3_t": "cute::float_e4m3_t",
         "double": "double"}
# the algebra on the atoms for these types (all four with SYMCUTE_LARGE=1: about 700 cases, 2 minutes)
TILED_TYPES = ("half_t", "float", "uint8_t", "tfloat32_t") if large() else ("half_t", "uint8_t")
NAMES = [n for n in smem_layout_atom_names() if n.startswith("GMMA::")] + \
    ["UMMA::Layout_MN_SW128_32B_Atom", "UMMA::Layout_K_SW64_Atom"]


def cpp_name(name: str) -> str:
    ns, atom = name.split("::")
    return f"cute::SM90::GMMA::{atom}" if ns == "GMMA" else f"cute::UMMA::{atom}"


def V(x) -> str:
    if isinstance(x, tuple):
        return oracle_pkg.cpp_value("(" + ",".join(str(v) for v in x) + ")")
    return oracle_pkg.cpp_value(str(x))


def show(x) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(show(v) for v in x) + ")"
    return str(x)


@dataclass
class Case:
    key: str
    op: str
    text: str          # the expression-language text (symcute's side)
    cpp: str           # what CuTe prints
    compute: Callable


def _cases() -> list[Case]:
    cases: list[Case] = []

    def add(op, text, cpp, compute=None):
        cases.append(Case(f"smem{len(cases)}", op, text, cpp, compute or (lambda text=text: evaluate(text))))

    def at(text, points):  # a value of the language evaluated at indices (Python API: L(i))
        return lambda: tuple(evaluate(text)(p) for p in points)

    for name in NAMES:
        add("bits", f"{name}_Bits{{}}", f"{cpp_name(name)}_Bits{{}}")
        for t, tc in TYPES.items():
            atom, atom_cpp = f"{name}<{t}>{{}}", f"{cpp_name(name)}<{tc}>{{}}"
            add("value", atom, atom_cpp)
            value = evaluate(atom)
            rows, cols = value.shape
            n = value.size()
            points = tuple(sorted({0, 1, 7, n // 3, n // 2 + 5, n - 1}))
            add("eval", f"{atom} at {points}", f"cute::make_tuple({', '.join(f'{atom_cpp}({p})' for p in points)})",
                at(atom, points))
            if t not in TILED_TYPES:
                continue
            for target, order in (((rows * 2, cols * 2), None), ((rows * 4, cols), None), ((rows * 2, cols * 4), None),
                                  ((rows * 2, cols * 2), (2, 1)), ((rows * 4, cols * 2), (2, 1)),
                                  ((rows * 2, cols * 2, 3), None)):
                targs = f"({','.join(map(str, target))})"
                order_text = ", Step<_2,_1>{}" if order else ""
                order_cpp = ", cute::Step<cute::_2,cute::_1>{}" if order else ""
                tiled = f"tile_to_shape({atom}, {targs}{order_text})"
                tiled_cpp = f"cute::tile_to_shape({atom_cpp}, {V(target)}{order_cpp})"
                add("tile_to_shape", tiled, tiled_cpp)
                if len(target) == 2 and order is None and target[0] == rows * 2:
                    m = rows * cols * 4
                    add("eval tiled", f"{tiled} at (1, {m // 3}, {m - 1})",
                        f"cute::make_tuple({tiled_cpp}(1), {tiled_cpp}({m // 3}), {tiled_cpp}({m - 1}))",
                        at(tiled, (1, m // 3, m - 1)))
            add("composition", f"composition({atom}, ({rows},{cols}):({cols},1))",
                f"cute::composition({atom_cpp}, {V(f'({rows},{cols}):({cols},1)')})")
            add("composition", f"composition({atom}, {n // 2}:2)",
                f"cute::composition({atom_cpp}, {V(f'{n // 2}:2')})")
            add("upcast", f"upcast<2>({atom})", f"cute::upcast<2>({atom_cpp})")
            add("downcast", f"downcast<2>({atom})", f"cute::downcast<2>({atom_cpp})")
            other = "float" if t != "float" else "half_t"
            add("recast_layout", f"recast_layout<{t},{other}>({atom})",
                f"cute::recast_layout<{tc},{TYPES[other]}>({atom_cpp})")
    for b, m, s, layout in ((3, 4, 3, "(8,64):(64,1)"), (3, 3, 3, "(8,64):(64,1)"), (2, 3, 3, "(8,32):(32,1)"),
                            (1, 4, 3, "(8,16):(16,1)"), (2, 5, 2, "(32,4):(1,32)"), (3, 3, 3, "(64,8):(1,64)"),
                            (2, 0, -3, "(4,16):(16,1)")):
        add("composition(Swizzle,L)", f"composition(Swizzle<{b},{m},{s}>{{}}, {layout})",
            f"cute::composition(cute::Swizzle<{b},{m},{s}>{{}}, {V(layout)})")
        add("Swizzle{}", f"Swizzle<{b},{m},{s}>{{}}", f"cute::Swizzle<{b},{m},{s}>{{}}")
    return cases


@pytest.fixture(scope="module")
def results():
    oracle = oracle_or_skip()
    cases = _cases()
    return cases, run_guided(oracle, cases, show)


def test_smem_layout_atoms_vs_cute(results):
    cases, res = results
    assert len(cases) >= 300
    bad = compare(cases, res, show, "smem atoms")
    assert not any(bad.values()), "\n".join(f"{op}: {len(v)} differ, e.g. {v[0]}" for op, v in bad.items() if v)
