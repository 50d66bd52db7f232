"""Reproducible random cases for the core differential suite.

Each case is one CuTe call on static layouts, written twice: as a C++ body for
real CuTe (through ``symcute.oracle``) and as a symcute call.  Generators draw
both valid and invalid inputs (CuTe must refuse what symcute refuses).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

import symcute as sc
from symcute import Layout
from symcute.core.layout import format_int_tuple
from symcute.oracle import cpp_value


@dataclass(frozen=True)
class Case:
    key: str
    op: str
    text: str            # the call in symcute's expression language (a reproducer)
    cpp: str             # the C++ expression whose value CuTe prints
    compute: Callable    # () -> the symcute value (or raises SymcuteError)


def show(value) -> str:
    if isinstance(value, tuple):
        return format_int_tuple(value)
    return str(value)


# --- random values -------------------------------------------------------------------

EXTENTS = [1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 16]


def rand_shape(rng: random.Random, max_rank=3, depth=2, extents=EXTENTS):
    if depth == 0 or rng.random() < 0.35:
        return rng.choice(extents)
    return tuple(rand_shape(rng, max_rank, depth - 1, extents) for _ in range(rng.randint(1, max_rank)))


def leaves(t):
    return [x for s in t for x in leaves(s)] if isinstance(t, tuple) else [t]


def like(shape, values):
    it = iter(values)

    def go(s):
        return tuple(go(x) for x in s) if isinstance(s, tuple) else next(it)
    return go(shape)


def compact(rng, shape, gaps=True):
    """A permuted compact layout of ``shape``, sometimes with gaps (injective)."""
    n = len(leaves(shape))
    order = list(range(n))
    rng.shuffle(order)
    L = sc.make_ordered_layout(shape, like(shape, order))
    if gaps and rng.random() < 0.3:
        k = rng.choice([2, 3])
        cut = rng.randint(0, n)
        rank_of = sorted(range(n), key=lambda i: order[i])
        flat = leaves(L.stride)
        for i in rank_of[cut:]:
            flat[i] *= k
        L = Layout(shape, like(shape, flat))
    return L


def rand_layout(rng: random.Random, max_rank=3, depth=2, kind=None):
    """Mostly compact/permuted layouts (CuTe's algebra is about them), some arbitrary."""
    shape = rand_shape(rng, max_rank, depth)
    kind = kind or rng.choices(["compact", "any", "broadcast"], [6, 3, 1])[0]
    if kind == "compact":
        return compact(rng, shape)
    if kind == "broadcast":
        L = compact(rng, shape, gaps=False)
        flat = leaves(L.stride)
        flat[rng.randrange(len(flat))] = 0
        return Layout(shape, like(shape, flat))
    strides = [rng.choice([0, 1, 1, 2, 3, 4, 8, 16, 32, -1]) for _ in leaves(shape)]
    return Layout(shape, like(shape, strides))


def rand_tiler(rng, layout: Layout):
    """A tiler for ``layout``: a layout, an int, or a tuple of layouts/ints/_ (one per mode or fewer)."""
    r = rng.random()
    if r < 0.35 or layout.rank == 1:
        return rand_tile_layout(rng, layout.size())
    if r < 0.45:
        return rng.choice([1, 2, 4, 8])
    n = rng.randint(1, layout.rank)
    out = []
    for i in range(n):
        mode = layout[i]
        c = rng.random()
        if c < 0.15:
            out.append(sc._)
        elif c < 0.4:
            out.append(rng.choice([1, 2, 4]))
        else:
            out.append(rand_tile_layout(rng, mode.size()))
    return tuple(out)


def rand_tile_layout(rng, size: int) -> Layout:
    divisors = [d for d in range(1, size + 1) if size % d == 0] or [1]
    t = rng.choice(divisors + [2, 4])
    if rng.random() < 0.5:
        return Layout(t, rng.choice([1, 1, 2]))
    a = rng.choice([d for d in (1, 2, 4) if t % d == 0] or [1])
    return Layout((a, max(t // a, 1)), (rng.choice([1, 2]), rng.choice([2, 4, 8])))


# --- C++ text ----------------------------------------------------------------------

def cpp_tiler(t) -> str:
    if isinstance(t, tuple):
        return "make_tile(" + ", ".join(cpp_tiler(x) for x in t) + ")"
    if t is sc._:
        return "_"
    if isinstance(t, int):
        return f"Int<{t}>{{}}"
    return cpp_value(str(t))


def text_of(t) -> str:
    if isinstance(t, tuple):
        return "(" + ", ".join(text_of(x) for x in t) + ")"
    return str(t)


def cpp_shape(s) -> str:
    return cpp_value(format_int_tuple(s))


# --- the operations ------------------------------------------------------------------

TYPES = {8: "uint8_t", 16: "cute::half_t", 32: "uint32_t", 64: "uint64_t"}


def _case(op, i, text, cpp, compute):
    return Case(f"{op}#{i}", op, text, cpp, compute)


def gen(op: str, rng: random.Random, i: int) -> Case:
    L = rand_layout(rng)
    c = cpp_value(str(L))
    if op == "coalesce":
        if L.rank > 1 and rng.random() < 0.3:
            prof = tuple(rng.choice([1, (1, 1)]) for _ in range(rng.randint(1, L.rank)))
            return _case(op, i, f"coalesce({L}, {text_of(prof)})", f"coalesce({c}, {cpp_shape(prof)})",
                         lambda: sc.coalesce(L, prof))
        return _case(op, i, f"coalesce({L})", f"coalesce({c})", lambda: sc.coalesce(L))
    if op == "filter":
        return _case(op, i, f"filter({L})", f"filter({c})", lambda: sc.filter(L))
    if op == "filter_zeros":
        return _case(op, i, f"filter_zeros({L})", f"filter_zeros({c})", lambda: sc.filter_zeros(L))
    if op == "composition":
        if rng.random() < 0.25 and L.rank > 1:
            T = rand_tiler(rng, L)
            T = T if isinstance(T, tuple) else (T,)
            T = tuple(x for x in T)
            return _case(op, i, f"composition({L}, {text_of(T)})", f"composition({c}, {cpp_tiler(T)})",
                         lambda: sc.composition(L, T))
        B = rand_layout(rng, max_rank=2, kind=rng.choice(["compact", "any"]))
        if rng.random() < 0.5:  # keep B's image mostly inside A's domain
            B = Layout(B.shape, like(B.shape, [d % max(L.size(), 1) if d > 0 else d for d in leaves(B.stride)]))
        return _case(op, i, f"composition({L}, {B})", f"composition({c}, {cpp_value(str(B))})",
                     lambda: sc.composition(L, B))
    if op == "complement":
        L = rand_layout(rng, kind=rng.choices(["compact", "any", "broadcast"], [7, 2, 1])[0])
        c = cpp_value(str(L))
        r = rng.random()
        if r < 0.3:
            return _case(op, i, f"complement({L})", f"complement({c})", lambda: sc.complement(L))
        if r < 0.8:
            n = rng.choice([1, 2, 5, 8, 16, 32, 64, 100, 128, 256]) * rng.choice([1, 2])
            return _case(op, i, f"complement({L}, {n})", f"complement({c}, Int<{n}>{{}})",
                         lambda: sc.complement(L, n))
        s = rand_shape(rng, 3, 1, [2, 4, 8, 16])
        return _case(op, i, f"complement({L}, {show(s)})", f"complement({c}, {cpp_shape(s)})",
                     lambda: sc.complement(L, s))
    if op == "right_inverse":
        return _case(op, i, f"right_inverse({L})", f"right_inverse({c})", lambda: sc.right_inverse(L))
    if op == "left_inverse":
        return _case(op, i, f"left_inverse({L})", f"left_inverse({c})", lambda: sc.left_inverse(L))
    if op == "with_shape":
        size = L.size()
        s = rng.choice([size, (size,), _factor(rng, size), _factor(rng, size * rng.choice([1, 2]))])
        return _case(op, i, f"{L}.with_shape({show(s)})", f"{c}.with_shape({cpp_shape(s)})",
                     lambda: L.with_shape(s))
    if op == "upcast":
        n = rng.choice([1, 2, 4, 8, 16, 3])
        return _case(op, i, f"upcast<{n}>({L})", f"upcast<{n}>({c})", lambda: sc.upcast(L, n))
    if op == "downcast":
        n = rng.choice([2, 4, 8])
        return _case(op, i, f"downcast<{n}>({L})", f"downcast<{n}>({c})", lambda: sc.downcast(L, n))
    if op == "recast_layout":
        a, b = rng.choice(list(TYPES)), rng.choice(list(TYPES))
        return _case(op, i, f"recast_layout<{a},{b}>({L})",
                     f"recast_layout<{TYPES[a]}, {TYPES[b]}>({c})", lambda: sc.recast_layout(L, a, b))
    if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        L = rand_layout(rng, kind=rng.choice(["compact", "compact", "any"]))
        c = cpp_value(str(L))
        T = rand_tiler(rng, L)
        if op != "logical_divide" and isinstance(T, tuple) and any(x is sc._ for x in T):
            T = tuple(1 if x is sc._ else x for x in T)
        fn = getattr(sc, op)
        return _case(op, i, f"{op}({L}, {text_of(T)})", f"{op}({c}, {cpp_tiler(T)})", lambda: fn(L, T))
    if op in ("logical_product", "zipped_product", "tiled_product", "flat_product"):
        L = rand_layout(rng, max_rank=2, kind="compact")
        c = cpp_value(str(L))
        if rng.random() < 0.6 or L.rank == 1:
            T = rand_layout(rng, max_rank=2, depth=1, kind=rng.choice(["compact", "any"]))
        else:
            T = tuple(rand_layout(rng, max_rank=2, depth=1, kind="compact") for _ in range(rng.randint(1, L.rank)))
        fn = getattr(sc, op)
        return _case(op, i, f"{op}({L}, {text_of(T)})", f"{op}({c}, {cpp_tiler(T)})", lambda: fn(L, T))
    if op in ("blocked_product", "raked_product"):
        A = rand_layout(rng, max_rank=3, depth=1, kind="compact")
        B = rand_layout(rng, max_rank=3, depth=1, kind=rng.choice(["compact", "any"]))
        fn = getattr(sc, op)
        return _case(op, i, f"{op}({A}, {B})", f"{op}({cpp_value(str(A))}, {cpp_value(str(B))})",
                     lambda: fn(A, B))
    if op == "tile_to_shape":
        A = rand_layout(rng, max_rank=2, depth=1, kind="compact")
        trg = tuple(_leaf_size(x) * rng.choice([1, 2, 4, 3]) for x in _modes(A.shape))
        trg = trg + tuple(rng.choice([1, 2, 4]) for _ in range(rng.randint(0, 1)))
        if rng.random() < 0.2:
            trg = tuple(rng.choice([2, 3, 4, 8]) for _ in trg)
        if rng.random() < 0.3:
            order = tuple(rng.sample(range(len(trg)), len(trg)))
            return _case(op, i, f"tile_to_shape({A}, {show(trg)}, {show(order)})",
                         f"tile_to_shape({cpp_value(str(A))}, {cpp_shape(trg)}, {cpp_shape(order)})",
                         lambda: sc.tile_to_shape(A, trg, order))
        return _case(op, i, f"tile_to_shape({A}, {show(trg)})",
                     f"tile_to_shape({cpp_value(str(A))}, {cpp_shape(trg)})",
                     lambda: sc.tile_to_shape(A, trg))
    if op in ("max_common_layout", "max_common_vector"):
        s = rand_shape(rng)
        A = compact(rng, s, gaps=False)
        B = compact(rng, s, gaps=rng.random() < 0.3) if rng.random() < 0.8 else rand_layout(rng)
        fn = getattr(sc, op)
        return _case(op, i, f"{op}({A}, {B})", f"{op}({cpp_value(str(A))}, {cpp_value(str(B))})",
                     lambda: fn(A, B))
    if op == "nullspace":
        L = rand_layout(rng, kind=rng.choice(["broadcast", "any", "compact"]))
        c = cpp_value(str(L))
        return _case(op, i, f"nullspace({L})", f"nullspace({c})", lambda: sc.nullspace(L))
    if op == "make_ordered_layout":
        s = rand_shape(rng, 3, 1)
        order = like(s, rng.sample(range(len(leaves(s))), len(leaves(s))))
        return _case(op, i, f"make_ordered_layout({show(s)}, {show(order)})",
                     f"make_ordered_layout({cpp_shape(s)}, {cpp_shape(order)})",
                     lambda: sc.make_ordered_layout(s, order))
    if op == "make_layout_major":   # CuTe's major-ness tags and their aliases GenColMajor/GenRowMajor
        s = rand_shape(rng, 3, 1)
        tag = rng.choice(["LayoutLeft", "LayoutRight", "GenColMajor", "GenRowMajor"])
        if rng.random() < 0.5:
            return _case(op, i, f"make_layout({show(s)}, {tag}{{}})", f"make_layout({cpp_shape(s)}, cute::{tag}{{}})",
                         lambda: sc.make_layout(s, tag))
        A = rand_layout(rng, max_rank=2, depth=1, kind="compact")
        trg = tuple(_leaf_size(x) * rng.choice([1, 2, 4, 3]) for x in _modes(A.shape))
        return _case(op, i, f"tile_to_shape({A}, {show(trg)}, {tag}{{}})",
                     f"tile_to_shape({cpp_value(str(A))}, {cpp_shape(trg)}, cute::{tag}{{}})",
                     lambda: sc.tile_to_shape(A, trg, tag))
    if op == "make_layout_like":
        return _case(op, i, f"make_layout_like({L})", f"make_layout_like({c})",
                     lambda: sc.make_layout_like(L))
    if op == "evaluate":
        idx = rng.randrange(max(L.size() * 2, 1))
        return _case(op, i, f"{L}({idx})", f"{c}({idx})", lambda: L(idx))
    if op == "evaluate_basis":
        # identity-like layouts: some strides are scaled bases E<k> (CuTe adds an int to a basis coordinate
        # only when it is a static 0, so mixed strides are refused at some indices and not at others)
        from symcute.core.basis import ScaledBasis
        strides = [ScaledBasis(rng.choice([1, 1, 2, 3]), (rng.randrange(3),)) if rng.random() < 0.6 else d
                   for d in leaves(L.stride)]
        B = Layout(L.shape, like(L.shape, strides))
        idx = rng.randrange(max(B.size(), 1))
        # a static index (symcute's semantics are CuTe's on static values): with a dynamic int index
        # every int term is an int, and CuTe refuses int + ScaledBasis even when the int is 0
        return _case(op, i, f"{B}({idx})", f"{cpp_value(str(B))}(cute::Int<{idx}>{{}})", lambda: B(idx))
    if op in ("get_hier_coord", "get_flat_coord", "get_1d_coord"):
        # no stride 0 under an extent > 1: that is C++'s division by zero (a crash, tested by hand)
        L = Layout(L.shape, like(L.shape, [d if d else 1 for d in leaves(L.stride)]))
        idx = rng.randrange(max(L.cosize() * 2, 1))
        return _case(op, i, f"{L}.{op}({idx})", f"{cpp_value(str(L))}.{op}(int({idx}))",
                     lambda: getattr(L, op)(idx))
    if op == "make_layout_like_basis":
        from symcute.core.basis import ScaledBasis
        strides = [ScaledBasis(1, (rng.randrange(2),)) if rng.random() < 0.5 else d for d in leaves(L.stride)]
        B = Layout(L.shape, like(L.shape, strides))
        return _case(op, i, f"make_layout_like({B})", f"make_layout_like({cpp_value(str(B))})",
                     lambda: sc.make_layout_like(B))
    if op == "cosize":
        return _case(op, i, f"cosize({L})", f"cosize({c})", lambda: sc.cosize(L))
    raise ValueError(op)


def _modes(s):
    return s if isinstance(s, tuple) else (s,)


def _leaf_size(x):
    return sc.product(x)


def _factor(rng, n):
    """A random 2-mode factorisation of n (or a non-divisor pair, to exercise refusals)."""
    ds = [d for d in range(1, n + 1) if n % d == 0]
    d = rng.choice(ds)
    if rng.random() < 0.1:
        return (d, n // d + 1)
    return (d, n // d)


OPS = [
    "coalesce", "filter", "filter_zeros", "composition", "complement", "right_inverse", "left_inverse",
    "with_shape", "upcast", "downcast", "recast_layout", "logical_divide", "zipped_divide", "tiled_divide",
    "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
    "raked_product", "tile_to_shape", "max_common_layout", "max_common_vector", "nullspace",
    "make_ordered_layout", "make_layout_major", "make_layout_like", "evaluate", "evaluate_basis", "cosize",
    "get_hier_coord", "get_flat_coord", "get_1d_coord", "make_layout_like_basis",
]


def cases(op: str, n: int, seed: int) -> list[Case]:
    rng = random.Random(f"{op}:{seed}")
    return [gen(op, rng, i) for i in range(n)]
