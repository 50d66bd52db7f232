"""Random cases on core layouts that mix static and run-time integers.

Each case takes a random input of the core suite (``core_cases``), turns some of its
integers into run-time ones (:class:`symcute.core.integer.DynamicInt`), and is
written twice: a C++ expression that builds the input with ``Int<n>{}`` for the
static leaves and ``int(n)`` for the run-time ones (``cpp_as_printed`` of the
input's ``cute_str()``), and the core call.  CuTe's print of the result marks
static leaves ``_n``; symcute's ``cute_str()`` must be that text exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

import symcute as sc
from symcute import Layout
from symcute.core.integer import DynamicInt, dynamic
from symcute.core.layout import format_int_tuple
from symcute.oracle import cpp_as_printed

from .core_cases import compact, leaves, like, rand_layout, rand_shape, rand_tile_layout, rand_tiler


@dataclass(frozen=True)
class DCase:
    key: str
    op: str
    text: str          # the call, inputs in CuTe's notation (paste into ``symcute calc --cute-print``)
    cpp: str
    compute: Callable
    inputs: tuple = ()


def cute_show(value) -> str:
    """CuTe's print of a core value (static leaves ``_n``)."""
    if isinstance(value, Layout):
        return value.cute_str()
    return format_int_tuple(value, static_marks=True)


def mix(rng: random.Random, t, p: float):
    """``t`` with each integer leaf made run-time with probability ``p``."""
    if isinstance(t, tuple):
        return tuple(mix(rng, x, p) for x in t)
    return dynamic(t) if rng.random() < p else t


def mixed(rng: random.Random, L: Layout, p_shape: float = 0.3, p_stride: float = 0.3) -> Layout:
    return Layout(mix(rng, L.shape, p_shape), mix(rng, L.stride, p_stride))


def static_strides(rng: random.Random, L: Layout, p_shape: float = 0.3) -> Layout:
    return Layout(mix(rng, L.shape, p_shape), L.stride)


def cpp_of(x) -> str:
    """C++ for a core value with run-time leaves ``int(n)`` and static ones ``Int<n>{}``."""
    if isinstance(x, Layout):
        return cpp_as_printed(x.cute_str())
    if x is sc._:
        return "_"
    if isinstance(x, tuple) and any(isinstance(y, Layout) or y is sc._ for y in x):
        return "make_tile(" + ", ".join(cpp_of(y) for y in x) + ")"
    return cpp_as_printed(format_int_tuple(x, static_marks=True))


def text_of(x) -> str:
    if isinstance(x, Layout):
        return x.cute_str()
    if x is sc._:
        return "_"
    if isinstance(x, tuple):
        return "(" + ",".join(text_of(y) for y in x) + ")"
    return format_int_tuple(x, static_marks=True)


def _call(op, i, name, args, fn, cpp_call=None):
    text = f"{name}({', '.join(text_of(a) for a in args)})"
    cpp = cpp_call or f"{name}({', '.join(cpp_of(a) for a in args)})"
    return DCase(f"dyn-{op}#{i}", op, text, cpp, fn, tuple(args))


def gen(op: str, rng: random.Random, i: int) -> DCase:
    L = mixed(rng, rand_layout(rng))
    if op == "make_fragment_like":
        return _call(op, i, op, (L,), lambda: sc.make_fragment_like(L))
    if op in ("coalesce", "filter", "right_inverse", "nullspace", "cosize"):
        fn = getattr(sc, op)
        return _call(op, i, op, (L,), lambda: fn(L))
    if op == "left_inverse":
        if rng.random() < 0.8:   # CuTe static_asserts static strides: mostly run-time extents
            L = static_strides(rng, rand_layout(rng, kind="compact"))
        return _call(op, i, op, (L,), lambda: sc.left_inverse(L))
    if op == "make_layout_like":   # CuTe orders the modes by their strides: run-time ones after the static
        return _call(op, i, op, (L,), lambda: sc.make_layout_like(L))
    if op == "make_ordered_layout":
        s = mix(rng, rand_shape(rng, 3, 1), 0.3)
        n = len(leaves(s))
        order = mix(rng, like(s, rng.sample(range(n), n)), 0.3)
        return _call(op, i, op, (s, order), lambda: sc.make_ordered_layout(s, order))
    if op == "composition":
        A = mixed(rng, rand_layout(rng))
        if rng.random() < 0.25 and A.rank > 1:
            T = rand_tiler(rng, A)
            T = T if isinstance(T, tuple) else (T,)
            return _call(op, i, op, (A, T), lambda: sc.composition(A, T))
        B = rand_layout(rng, max_rank=2, kind=rng.choice(["compact", "any"]))
        if rng.random() < 0.5:
            B = Layout(B.shape, like(B.shape, [d % max(A.size(), 1) if d > 0 else d for d in leaves(B.stride)]))
        B = mixed(rng, B, 0.25, 0.25)
        return _call(op, i, op, (A, B), lambda: sc.composition(A, B))
    if op == "complement":
        base = rand_layout(rng, kind=rng.choices(["compact", "any", "broadcast"], [7, 2, 1])[0])
        A = mixed(rng, base, 0.3, 0.3 if base.rank == 1 or rng.random() < 0.2 else 0.0)
        if rng.random() < 0.25:
            A = Layout(mix(rng, rng.choice([2, 4, 8]), 0.5), mix(rng, rng.choice([1, 2, 4]), 0.7))
        r = rng.random()
        if r < 0.2:
            return _call(op, i, op, (A,), lambda: sc.complement(A))
        if r < 0.7:
            n = mix(rng, rng.choice([1, 2, 8, 16, 32, 64, 128, 256]) * rng.choice([1, 2]), 0.5)
            return _call(op, i, op, (A, n), lambda: sc.complement(A, n))
        s = mix(rng, rand_shape(rng, 3, 1, [2, 4, 8, 16]), 0.5)
        return _call(op, i, op, (A, s), lambda: sc.complement(A, s))
    if op == "with_shape":
        size = int(L.size())
        a = rng.choice([d for d in (1, 2, 4) if size % d == 0])
        s = mix(rng, rng.choice([size, (a, size // a), (size // a, a)]), 0.4)
        return DCase(f"dyn-{op}#{i}", op, f"{text_of(L)}.with_shape({text_of(s)})",
                     f"{cpp_of(L)}.with_shape({cpp_of(s)})", lambda: L.with_shape(s), (L, s))
    if op in ("upcast", "downcast"):
        n = rng.choice([2, 4, 8] + ([1, 16] if op == "upcast" else []))
        if op == "downcast" and rng.random() < 0.7:   # keep a static stride 1 in most cases
            base = rand_layout(rng, kind="compact")
            L = Layout(mix(rng, base.shape, 0.3), like(base.stride, [d if d == 1 else mix(rng, d, 0.3)
                                                                     for d in leaves(base.stride)]))
        fn = getattr(sc, op)
        return DCase(f"dyn-{op}#{i}", op, f"{op}<{n}>({text_of(L)})", f"{op}<{n}>({cpp_of(L)})",
                     lambda: fn(L, n), (L,))
    if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        base = rand_layout(rng, kind=rng.choice(["compact", "compact", "any"]))
        T = rand_tiler(rng, base)
        if op != "logical_divide" and isinstance(T, tuple) and any(x is sc._ for x in T):
            T = tuple(1 if x is sc._ else x for x in T)
        A = mixed(rng, base)
        fn = getattr(sc, op)
        return _call(op, i, op, (A, T), lambda: fn(A, T))
    if op in ("logical_product", "zipped_product", "tiled_product"):
        # CuTe's complement inside needs static strides once the block has several modes
        A = static_strides(rng, rand_layout(rng, max_rank=2, kind="compact"))
        T = rand_layout(rng, max_rank=2, depth=1, kind=rng.choice(["compact", "any"]))
        T = static_strides(rng, T, 0.3)
        fn = getattr(sc, op)
        return _call(op, i, op, (A, T), lambda: fn(A, T))
    if op in ("blocked_product", "raked_product"):
        A = static_strides(rng, rand_layout(rng, max_rank=3, depth=1, kind="compact"))
        B = static_strides(rng, rand_layout(rng, max_rank=3, depth=1, kind=rng.choice(["compact", "any"])))
        fn = getattr(sc, op)
        return _call(op, i, op, (A, B), lambda: fn(A, B))
    if op in ("max_common_layout", "max_common_vector"):
        s = rand_shape(rng)
        A = mixed(rng, compact(rng, s, gaps=False), 0.2, 0.2)
        B = mixed(rng, compact(rng, s, gaps=rng.random() < 0.3), 0.2, 0.2)
        fn = getattr(sc, op)
        return _call(op, i, op, (A, B), lambda: fn(A, B))
    raise ValueError(op)


OPS = ["coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse", "with_shape",
       "upcast", "downcast", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
       "logical_product", "zipped_product", "tiled_product", "blocked_product", "raked_product",
       "make_layout_like", "make_ordered_layout", "make_fragment_like", "max_common_layout", "max_common_vector", "nullspace", "cosize"]


def documented_cases() -> list[DCase]:
    """The examples docs/core.md shows, each checked against CuTe."""
    P = Layout.parse
    examples = [
        ("coalesce", (P("(_2,1,_3):(3,_3,_1)"),), sc.coalesce),
        ("coalesce", (Layout(dynamic((2, 1, 3)), dynamic((3, 3, 1))),), sc.coalesce),
        ("composition", (P("(256,_4):(_1,256)"), 128), sc.composition),
        ("logical_divide", (P("(3,_4):(_1,_3)"), P("_2:_1")), sc.logical_divide),
        ("logical_divide", (P("(_3,_4):(_1,_3)"), P("_2:_1")), sc.logical_divide),
        ("right_inverse", (P("(_4,8,_2):(_1,_4,32)"),), sc.right_inverse),
        ("upcast", (P("(_4,8):(_1,4)"), 2), lambda L, n: sc.upcast(L, n)),
    ]
    out = []
    for i, (op, args, fn) in enumerate(examples):
        if op == "upcast":
            out.append(DCase(f"dyn-doc#{i}", op, f"upcast<{args[1]}>({text_of(args[0])})",
                             f"upcast<{args[1]}>({cpp_of(args[0])})", lambda a=args, f=fn: f(*a), args[:1]))
        else:
            c = _call(op, i, op, args, lambda a=args, f=fn: f(*a))
            out.append(DCase(f"dyn-doc#{i}", op, c.text, c.cpp, c.compute, c.inputs))
    return out


def cases(op: str, n: int, seed: int) -> list[DCase]:
    rng = random.Random(f"{seed}:dyn:{op}")
    return [gen(op, rng, i) for i in range(n)]


def is_mixed(case: DCase) -> bool:
    """The input has at least one run-time integer (a case drawn all static tests nothing new)."""
    def dyn(x):
        if isinstance(x, Layout):
            return not x.is_static()
        if isinstance(x, tuple):
            return any(dyn(y) for y in x)
        return type(x) is DynamicInt
    return any(dyn(x) for x in case.inputs)


__all__ = ["DCase", "OPS", "cases", "cute_show", "is_mixed", "DynamicInt"]
