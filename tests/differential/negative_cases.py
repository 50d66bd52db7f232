"""Random cases on layouts with negative extents, static and run-time, for real CuTe.

CuTe splits an index over a shape with C++'s ``/`` and ``%`` (``crd2idx``'s
``divmod``, ``idx2crd``'s ``(i / d) % s``): they truncate toward zero, so a
negative extent gives digits of either sign, and a nested mode is split by the
product of its extents (positive for ``(-3,-5)``) before its leaves are.  Every
place core divides by an extent is drawn here: evaluation at an int index (of
either sign) and at hierarchical coordinates, ``get_hier_coord`` /
``get_flat_coord`` / ``get_1d_coord``, the free ``crd2idx`` / ``idx2crd``, and
the algebra that divides by extents (coalesce, composition, complement,
inverses, divides, products, upcast/downcast).  Each case is written twice (a
C++ expression and a core call); run-time leaves are ``int(n)`` on the CuTe side
and :class:`~symcute.core.integer.DynamicInt` on symcute's.
"""

from __future__ import annotations

import random

import symcute as sc
from symcute import Layout
from symcute.core import int_tuple as it
from symcute.core.integer import dynamic as run_time
from symcute.core.layout import format_int_tuple

from .core_cases import leaves, like, rand_shape
from .dynamic_cases import DCase, cpp_of, cute_show, mix, text_of

EXTENTS = [1, 2, 2, 3, 4, 5, -1, -2, -2, -3, -4, -5, -8]
STRIDES = [0, 1, 1, 2, 3, 4, 8, 12, -1, -2, -3, -4, -12]


def negative_layout(rng: random.Random, max_rank=3, depth=2, zero_strides=True) -> Layout:
    """A layout with at least one negative extent (strides of either sign)."""
    while True:
        shape = rand_shape(rng, max_rank, depth, EXTENTS)
        if any(s < 0 for s in leaves(shape)):
            break
    strides = [rng.choice(STRIDES if zero_strides else [d for d in STRIDES if d]) for _ in leaves(shape)]
    return Layout(shape, like(shape, strides))


def maybe_dynamic(rng: random.Random, L: Layout, dynamic: bool) -> Layout:
    return Layout(mix(rng, L.shape, 0.4), mix(rng, L.stride, 0.4)) if dynamic else L


def hier_coord(rng: random.Random, shape, bound: int):
    """A coordinate congruent to ``shape`` or coarser (an int where a mode is nested), of either sign."""
    if isinstance(shape, tuple) and rng.random() < 0.75:
        return tuple(hier_coord(rng, s, bound) for s in shape)
    return rng.randint(-bound, bound)


def show(value) -> str:
    return cute_show(value) if isinstance(value, Layout) else format_int_tuple(value, static_marks=True)


def gen(op: str, rng: random.Random, i: int, dynamic: bool) -> DCase:
    key = f"neg{'-dyn' if dynamic else ''}-{op}#{i}"

    def case(text, cpp, fn, inputs):
        return DCase(key, op, text, cpp, fn, inputs)

    L = maybe_dynamic(rng, negative_layout(rng), dynamic)
    n = max(abs(int(it.product(L.shape))), 1)
    if op == "evaluate":
        idx = run_time(rng.randint(-2 * n, 2 * n))   # int(idx) in C++: the value is run-time
        return case(f"{text_of(L)}({idx})", f"{cpp_of(L)}(int({idx}))", lambda: L(idx), (L,))
    if op == "evaluate_coord":
        c = hier_coord(rng, L.shape, n)
        return case(f"{text_of(L)}({text_of(c)})", f"{cpp_of(L)}({cpp_of(c)})", lambda: L(c), (L,))
    if op in ("get_hier_coord", "get_flat_coord", "get_1d_coord"):
        # no stride 0 under an extent other than 1: that is C++'s division by zero (a crash)
        L = maybe_dynamic(rng, negative_layout(rng, zero_strides=False), dynamic)
        idx = run_time(rng.randint(-2 * n, 2 * n))
        return case(f"{text_of(L)}.{op}({idx})", f"{cpp_of(L)}.{op}(int({idx}))",
                    lambda: getattr(L, op)(idx), (L,))
    if op == "idx2crd":
        idx = run_time(rng.randint(-2 * n, 2 * n))
        return case(f"idx2crd({idx}, {text_of(L.shape)})", f"idx2crd(int({idx}), {cpp_of(L.shape)})",
                    lambda: sc.idx2crd(idx, L.shape), (L,))
    if op == "crd2idx":
        c = hier_coord(rng, L.shape, n)
        return case(f"crd2idx({text_of(c)}, {text_of(L.shape)}, {text_of(L.stride)})",
                    f"crd2idx({cpp_of(c)}, {cpp_of(L.shape)}, {cpp_of(L.stride)})",
                    lambda: sc.crd2idx(c, L.shape, L.stride), (L,))
    if op in ("coalesce", "filter", "right_inverse", "left_inverse", "cosize", "nullspace"):
        fn = getattr(sc, op)
        return case(f"{op}({text_of(L)})", f"{op}({cpp_of(L)})", lambda: fn(L), (L,))
    if op == "composition":
        B = maybe_dynamic(rng, negative_layout(rng, max_rank=2, depth=1) if rng.random() < 0.5
                          else Layout(rng.choice([2, 3, 4, 6]), rng.choice([1, 2, -1, 3])), dynamic)
        A, B = (L, B) if rng.random() < 0.7 else (B, L)   # negative extents on either side
        return case(f"composition({text_of(A)}, {text_of(B)})", f"composition({cpp_of(A)}, {cpp_of(B)})",
                    lambda: sc.composition(A, B), (A, B))
    if op == "complement":
        m = rng.choice([8, 16, 32, 64, 100])
        return case(f"complement({text_of(L)}, {m})", f"complement({cpp_of(L)}, Int<{m}>{{}})",
                    lambda: sc.complement(L, m), (L,))
    if op in ("logical_divide", "logical_product"):
        T = maybe_dynamic(rng, Layout(rng.choice([2, 3, 4, -2]), rng.choice([1, 2, -1])), dynamic)
        fn = getattr(sc, op)
        return case(f"{op}({text_of(L)}, {text_of(T)})", f"{op}({cpp_of(L)}, {cpp_of(T)})",
                    lambda: fn(L, T), (L, T))
    if op in ("upcast", "downcast"):
        k = rng.choice([2, 3, 4])
        fn = getattr(sc, op)
        return case(f"{op}<{k}>({text_of(L)})", f"{op}<{k}>({cpp_of(L)})", lambda: fn(L, k), (L,))
    raise ValueError(op)


EVAL_OPS = ["evaluate", "evaluate_coord", "get_hier_coord", "get_flat_coord", "get_1d_coord", "idx2crd", "crd2idx"]
ALGEBRA_OPS = ["coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
               "logical_divide", "logical_product", "upcast", "downcast", "cosize", "nullspace"]
OPS = EVAL_OPS + ALGEBRA_OPS


def cases(op: str, n: int, seed: int, dynamic: bool) -> list[DCase]:
    rng = random.Random(f"{seed}:negative:{op}:{dynamic}")
    return [gen(op, rng, i, dynamic) for i in range(n)]
