"""One dispatch for the ComposedLayout/Swizzle overloads (``core/dispatch.py``), and a core without cycles."""

from __future__ import annotations

import ast
import pathlib

import pytest

import symcute.core as core
from symcute.core.composed import ComposedLayout
from symcute.core.dispatch import member, operation
from symcute.core.layout import Layout
from symcute.core.parse import parse_layout
from symcute.core.swizzle import Swizzle
from symcute.trace import Derivation

CORE = pathlib.Path(core.__file__).parent
SWIZZLED = "Sw<3,4,3> o 0 o (8,64):(64,1)"


def test_the_body_is_the_layout_overload_and_registered_types_take_their_own():
    @operation()
    def kind(x, y=None):
        return "default"

    @kind.register(ComposedLayout)
    def _(x, y=None):
        return "composed"

    @kind.register(Layout, Swizzle)
    def _(x, y):
        return "layout, swizzle"

    c, L, sw = parse_layout(SWIZZLED), Layout(4), Swizzle(1, 0, 1)
    assert kind(L) == "default" and kind((4, 2)) == "default" and kind(c) == "composed"
    assert kind(L, sw) == "layout, swizzle" and kind(L, L) == "default" and kind(c, sw) == "composed"
    assert set(kind.overloads()) == {(ComposedLayout,), (Layout, Swizzle)}


def test_dispatch_follows_the_mro_and_a_later_registration_wins():
    class Sub(Layout):
        pass

    @operation()
    def which(x):
        return "default"
    which.register(Layout)(lambda x: "layout")
    assert which(Layout._make(4, 1)) == "layout" and which(Sub._make(4, 1)) == "layout"
    which.register(Sub)(lambda x: "sub")            # clears the per-type cache
    assert which(Sub._make(4, 1)) == "sub" and which(Layout._make(4, 1)) == "layout"


def test_register_refuses_what_is_not_one_or_two_types():
    @operation()
    def f(x):
        return x
    with pytest.raises(TypeError):
        f.register()
    with pytest.raises(TypeError):
        f.register("Layout")


def test_member_defines_a_method_on_each_class():
    class A:
        pass

    class B:
        pass

    @member(A, B)
    def twice(self):
        return 2
    assert A().twice() == 2 and B().twice() == 2


@pytest.mark.parametrize("name", ["coalesce", "filter", "composition", "complement", "right_inverse",
                                  "left_inverse", "upcast", "downcast", "recast_layout", "logical_divide",
                                  "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
                                  "zipped_product", "tiled_product", "flat_product", "blocked_product",
                                  "raked_product", "tile_to_shape", "max_common_layout", "max_common_vector",
                                  "nullspace", "slice_", "slice_and_offset", "domain_offset", "flatten", "append",
                                  "group", "take", "zip_layouts", "rank", "depth", "shape", "make_layout"])
def test_every_public_operation_with_a_composed_form_has_it_registered(name):
    op = getattr(core, name)
    types = {t for key in op.overloads() for t in key}
    assert ComposedLayout in types or Swizzle in types, name


@pytest.mark.parametrize("call, rule", [
    (lambda c: core.upcast(c, 2), "upcast"),
    (lambda c: core.downcast(c, 2), "downcast"),
    (lambda c: core.recast_layout(c, "uint16_t", "uint32_t"), "recast_layout"),
    (lambda c: core.coalesce(c), "coalesce"),
    (lambda c: core.logical_divide(c, Layout(8)), "logical_divide"),
    (lambda c: core.right_inverse(parse_layout("Sw<2,0,2> o 0 o 16:1")), "right_inverse"),
    (lambda c: core.composition(c, Layout(16, 2)), "composition"),
    (lambda c: core.slice_and_offset((2, core._), c), "slice_and_offset"),
])
def test_a_swizzled_operation_is_one_step(call, rule):
    # the overload runs under the public call's step: no second step of the same rule inside it
    c = parse_layout(SWIZZLED)
    with Derivation(rule) as d:
        result = call(c)
    top = d.steps(top_level_only=True)
    assert [s.rule for s in top] == [rule]
    assert [s.rule for s in d.steps()].count(rule) == 1
    assert top[0].output is not None and d.graph.nodes[top[0].output]["obj"] == result


def _core_imports(path: pathlib.Path) -> set[str]:
    """The core modules ``path`` imports, anywhere in the file (functions included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
    return {m for m in found if (CORE / f"{m}.py").is_file()}


def test_core_imports_form_no_cycle():
    # the overload modules import the operations; no operation imports them back (not even in a function)
    graph = {p.stem: _core_imports(p) for p in CORE.glob("*.py") if p.stem != "__init__"}
    state: dict = {}

    def visit(m, path):
        if state.get(m) == "done":
            return
        assert state.get(m) != "open", f"import cycle in core: {' -> '.join(path + [m])}"
        state[m] = "open"
        for n in sorted(graph[m]):
            visit(n, path + [m])
        state[m] = "done"
    for m in sorted(graph):
        visit(m, [])


def test_no_function_level_import_inside_core():
    for p in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # symcute's own modules only: a lazy third-party import (numpy on a slow path) keeps
                # `import symcute.core` light and cannot form a cycle inside the package
                inner = [n for n in ast.walk(node)
                         if (isinstance(n, ast.ImportFrom) and (n.level or (n.module or "").startswith("symcute")))
                         or (isinstance(n, ast.Import) and any(a.name.startswith("symcute") for a in n.names))]
                assert not inner, f"{p.name}:{inner[0].lineno}: an import inside {node.name}()"
