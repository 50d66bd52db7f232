"""Swizzles and swizzle-composed layouts: symcute against real CuTe.

Every case is one C++ expression that CuTe prints, next to the symcute call
that must print the same text (static-int underscores aside), or raise
``LayoutError`` exactly where CuTe refuses to compile; when the refusal comes
from symcute's swizzle modules, CuTe's static_assert text must appear in the
message.

Cases: CuTe's own unit-test inputs (``tests/data/cute_unit_cases.jsonl``), the
production swizzles and the GMMA shared-memory atoms, and random cases per
operation, reproducible from ``SYMCUTE_DIFF_SEED``.  Swizzle cases are costly
to compile (40-400 ms each), so CI runs ``CI_CASES[op]`` random cases per
operation (about a minute on 2 cores); ``SYMCUTE_DIFF_SWIZZLE_N=300`` runs 300
(or any number) per operation and ``SYMCUTE_LARGE=1`` runs 2000.
"""

from __future__ import annotations

import json
import os
import random
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

import symcute.core as core
from symcute.core.composed import ComposedLayout, SmemPtrFlag
from symcute.core.composition import composition
from symcute.core.inverse import left_inverse, right_inverse
from symcute.core.layout import Layout, _
from symcute.core.parse import parse_layout
from symcute.core.swizzle import Swizzle, make_swizzle
from symcute.errors import LayoutError

from .harness import COUNTS, large, oracle_or_skip

oracle_pkg = pytest.importorskip("symcute.oracle")

SEED = int(os.environ.get("SYMCUTE_DIFF_SEED", "2025"))
UNIT_CASES = Path(__file__).resolve().parent.parent / "data" / "cute_unit_cases.jsonl"

# Random cases per operation in CI, by compile cost: g++ spends 25-80 ms on a case of the
# first rows and 110-240 ms on one of the last (slicing builds a layout per swizzled bit).
CI_CASES = {
    "swizzle": 300, "make_swizzle": 300, "eval": 300, "right_inverse": 100, "left_inverse": 100,
    "upcast": 100, "downcast": 100, "composition": 120, "recast_layout": 80, "max_common_vector": 80,
    "max_common_layout": 40, "slice": 40, "logical_product(L,Sw)": 30, "domain": 60, "append": 40,
}
OPS = list(CI_CASES)


def cases_per_op(op: str) -> int:
    if os.environ.get("SYMCUTE_DIFF_SWIZZLE_N", "").isdigit():
        return int(os.environ["SYMCUTE_DIFF_SWIZZLE_N"])
    return 2000 if large() else CI_CASES[op]


def text(x) -> str:
    """CuTe notation of a symcute value, a tuple of them, or ``_``."""
    if isinstance(x, tuple):
        return "(" + ",".join(text(y) for y in x) + ")"
    return "_" if x is _ else str(x)


def V(x) -> str:
    """C++ expression of the static CuTe value ``x`` (a symcute value or notation text)."""
    return oracle_pkg.cpp_value(x if isinstance(x, str) else text(x))


# Refusals raised by these modules must carry CuTe's static_assert text.
_OWN_MODULES = ("swizzle.py", "composed.py", "swizzle_layout.py", "layout_composed.py", "common.py")


@dataclass
class Case:
    op: str
    text: str                   # the call, as a reproducer
    cpp: str                    # the C++ expression CuTe prints
    compute: Callable[[], object]

    def symcute(self) -> tuple[str, str, bool]:
        """(status, printed result or error message, whether the error was raised by the swizzle modules)."""
        try:
            return "ok", text(self.compute()), False
        except LayoutError as e:
            where = traceback.extract_tb(e.__traceback__)[-1].filename
            return "rejected", str(e), where.endswith(_OWN_MODULES)


# --- random values ------------------------------------------------------------------

def rand_swizzle(rng: random.Random, max_bits: int = 3) -> Swizzle:
    b = rng.randint(0, max_bits) if rng.random() < 0.9 else 0
    s = rng.randint(max(b, 1), b + 3) * rng.choice((1, -1))
    return Swizzle(b, rng.randint(0, 4), s)


def rand_bit_layout(rng: random.Random, max_leaves: int = 4, mutate: float = 0.25) -> Layout:
    """Power-of-2 extents on disjoint bit ranges (what swizzles are made for), sometimes perturbed."""
    n = rng.randint(1, max_leaves)
    ks = [rng.randint(0, 3) for _i in range(n)]
    order = list(range(n))
    rng.shuffle(order)
    strides = [0] * n
    cur = 1
    for i in order:
        if rng.random() < 0.2:
            cur <<= rng.randint(1, 2)
        strides[i] = cur if ks[i] or rng.random() < 0.5 else 0
        cur <<= ks[i]
    shapes = [1 << k for k in ks]
    if rng.random() < mutate:
        i = rng.randrange(n)
        kind = rng.random()
        if kind < 0.35:
            strides[i] = 0
        elif kind < 0.6:
            strides[i] = -strides[i]
        elif kind < 0.8:
            strides[i] = strides[i] * 3 or 3
        else:
            shapes[i] = rng.choice((3, 6, 12))
    return Layout(*_nest(rng, shapes, strides))


def _nest(rng, shapes, strides):
    """Group the flat modes into a random profile of rank 1-4 (some modes nested)."""
    modes = list(zip(shapes, strides))
    out = []
    i = 0
    while i < len(modes):
        if i + 1 < len(modes) and rng.random() < 0.3:
            k = rng.randint(2, min(3, len(modes) - i))
            group = modes[i:i + k]
            out.append((tuple(s for s, _d in group), tuple(d for _s, d in group)))
            i += k
        else:
            out.append(modes[i])
            i += 1
    if len(out) == 1 and rng.random() < 0.7:
        return out[0]
    return tuple(s for s, _d in out), tuple(d for _s, d in out)


def rand_offset(rng, sw: Swizzle) -> int:
    r = rng.random()
    if r < 0.75:
        return 0
    if r < 0.8:
        return -rng.randrange(1, 64)
    return rng.randrange(0, 1 << min(12, sw.base + sw.bits + abs(sw.shift) + 1))


def rand_composed(rng, offset: bool = True, max_leaves: int = 4, general: float = 0.0) -> ComposedLayout:
    """``Sw o O o L``; with probability ``general`` a Layout outer or a nested swizzle instead."""
    sw = rand_swizzle(rng)
    inner = rand_bit_layout(rng, max_leaves)
    off = rand_offset(rng, sw) if offset else 0
    r = rng.random()
    if r < general / 2:
        return ComposedLayout(Layout(rng.choice((4, 8, 16)), rng.choice((1, 2))), off, inner)
    if r < general:
        return ComposedLayout(rand_swizzle(rng), 0, ComposedLayout(sw, off, inner))
    return ComposedLayout(sw, off, inner)


def _size(shape) -> int:
    if isinstance(shape, tuple):
        p = 1
        for s in shape:
            p *= _size(s)
        return p
    return shape


def _divisor(rng, n: int) -> int:
    if rng.random() < 0.1:
        return rng.randint(1, max(2, n))  # sometimes not a divisor: CuTe may refuse
    return rng.choice([d for d in range(1, n + 1) if n % d == 0] or [1])


def rand_tiler(rng, shape):
    """A tiler of a domain: an int, a Layout, or a tuple of ints / layouts / ``_`` by mode."""
    size = _size(shape)
    kind = rng.random()
    if kind < 0.25:
        return _divisor(rng, size)
    if kind < 0.45:
        d = _divisor(rng, size)
        stride = rng.choice((1, 1, 2, 4, size // d or 1))
        return Layout(d, stride) if rng.random() < 0.8 else Layout((d, 2), (stride, d * stride))
    modes = shape if isinstance(shape, tuple) else (shape,)
    items = []
    for s in modes[:rng.randint(1, len(modes))]:
        r = rng.random()
        if r < 0.15:
            items.append(_)
        elif r < 0.7:
            items.append(_divisor(rng, _size(s)))
        else:
            items.append(Layout(_divisor(rng, _size(s)), rng.choice((1, 1, 2))))
    return tuple(items)


def rand_slice_coord(rng, shape):
    """``_`` or an in-range int per mode (recursively), with at least one ``_``."""
    def go(s, top):
        if isinstance(s, tuple) and (top or rng.random() < 0.5):
            return tuple(go(x, False) for x in s)
        return _ if rng.random() < 0.5 else rng.randrange(_size(s))
    c = go(shape, True)
    if not _has_underscore(c):
        c = (_,) + c[1:] if isinstance(c, tuple) else _
    return c


def _has_underscore(c) -> bool:
    return c is _ or (isinstance(c, tuple) and any(_has_underscore(x) for x in c))


def rand_index(rng, shape):
    if rng.random() < 0.5 or not isinstance(shape, tuple):
        return rng.randrange(_size(shape))
    return tuple(rng.randrange(_size(s)) for s in shape)


# --- random cases, by operation ------------------------------------------------------------

def gen_swizzle(rng, add):
    b, m = rng.randint(0, 4), rng.randint(0, 5)
    s = rng.randint(-6, 6) if rng.random() < 0.3 else rng.randint(b, b + 4) * rng.choice((1, -1))
    if rng.random() < 0.05:  # the 32-bit limits of CuTe's masks
        b, m, s = rng.choice([(1, 30, 1), (1, 31, 1), (2, 29, 2), (0, 31, 0), (3, 26, 3), (3, 27, 3), (1, 0, 31)])
    x = rng.randrange(-64, 1 << min(20, b + m + abs(s) + 1))
    add(f"Swizzle<{b},{m},{s}>({x})", f"cute::Swizzle<{b},{m},{s}>{{}}(cute::Int<{x}>{{}})",
        lambda: Swizzle(b, m, s)(x))


def gen_make_swizzle(rng, add):
    if rng.random() < 0.6:
        sw = rand_swizzle(rng)
        y, z = sw.yyy_msk & 0xFFFFFFFF, sw.zzz_msk & 0xFFFFFFFF
        if rng.random() < 0.3:
            y ^= 1 << rng.randrange(12)
    else:
        y, z = rng.randrange(1 << 12), rng.randrange(1 << 12)
    add(f"make_swizzle<{y},{z}>()", f"cute::make_swizzle<{y}u,{z}u>()", lambda: make_swizzle(y, z))


def gen_composition(rng, add):
    kind = rng.randrange(5)
    if kind == 0:
        a = rand_swizzle(rng)
        b = rand_swizzle(rng) if rng.random() < 0.3 else Swizzle(rng.randint(0, min(3, abs(a.shift))),
                                                                 rng.randint(0, 4), a.shift)
    elif kind == 1:
        a, b = rand_swizzle(rng), rand_bit_layout(rng)
    elif kind == 2:
        a, b = rand_bit_layout(rng), rand_swizzle(rng)
    elif kind == 3:
        a = rand_composed(rng, general=0.2)
        b = rand_tiler(rng, a.shape) if rng.random() < 0.85 else rand_composed(rng, offset=False)
    else:
        a, b = rand_bit_layout(rng), rand_composed(rng, general=0.2)
    add(f"composition({text(a)}, {text(b)})", f"cute::composition({V(a)}, {V(b)})", lambda: composition(a, b))


def _gen_inverse(fn):
    def gen(rng, add):
        c = rand_composed(rng, general=0.2)
        if rng.random() < 0.05:
            c = rand_swizzle(rng)
        add(f"{fn.__name__}({c})", f"cute::{fn.__name__}({V(c)})", lambda: fn(c))
    return gen


def gen_slice(rng, add):
    c = rand_composed(rng, general=0.15)
    coord = rand_slice_coord(rng, c.shape)
    r = rng.random()
    if r < 0.45:
        add(f"slice({text(coord)}, {c})", f"cute::slice({V(coord)}, {V(c)})", lambda: core.slice_(coord, c))
    elif r < 0.9:
        add(f"slice_and_offset({text(coord)}, {c})", f"cute::slice_and_offset({V(coord)}, {V(c)})",
            lambda: core.slice_and_offset(coord, c))
    else:
        index = rand_index(rng, c.shape)
        add(f"domain_offset({text(index)}, {c})", f"cute::domain_offset({V(index)}, {V(c)})",
            lambda: core.domain_offset(index, c))


def gen_eval(rng, add):
    c = rand_composed(rng, general=0.2)
    coord = rand_index(rng, c.shape)
    if rng.random() < 0.2:  # an unsigned offset (CuTe's upcast makes it a uint32_t constant)
        add(f"upcast<1>({c})({text(coord)})", f"cute::upcast<1>({V(c)})({V(coord)})",
            lambda: core.upcast(c, 1)(coord))
    else:
        add(f"({c})({text(coord)})", f"{V(c)}({V(coord)})", lambda: c(coord))


def gen_append(rng, add):
    """Plain ``append(composed, x)``: CuTe has only ``append<N>`` for composed layouts, so this is the
    tuple overload's pair ``make_tuple(a, x)``."""
    from symcute.core.layout import append
    c = rand_composed(rng)
    x = Layout(rng.choice((1, 2, 4)), rng.choice((0, 1, 8)))
    add(f"append({c}, {x})", f"cute::append({V(c)}, {V(str(x))})", lambda: append(c, x))


def _gen_cast(op, fn):
    def gen(rng, add):
        x = rand_composed(rng, general=0.15) if rng.random() < 0.85 else rand_swizzle(rng)
        k = rng.choice((1, 2, 2, 4, 4, 8, 16, 32, 3, 6))
        add(f"{op}<{k}>({x})", f"cute::{op}<{k}>({V(x)})", lambda: fn(x, k))
    return gen


_TYPES = ["uint8_t", "half_t", "float", "double", "int4b_t", "uint1b_t", "float_e2m3_t", "uint128_t"]


def gen_recast(rng, add):
    x = rand_composed(rng, general=0.15) if rng.random() < 0.85 else rand_swizzle(rng)
    old, new = rng.choice(_TYPES), rng.choice(_TYPES)
    add(f"recast_layout<{old},{new}>({x})", f"cute::recast_layout<{old},{new}>({V(x)})",
        lambda: core.recast_layout(x, old, new))


def _gen_common(op, fn):
    def gen(rng, add):
        c = rand_composed(rng)
        r = rng.random()
        other = c.inner if r < 0.3 else rand_bit_layout(rng, mutate=0.1)
        a, b = (c, other) if rng.random() < 0.5 else (other, c)
        if r > 0.85:
            a, b = c, ComposedLayout(c.outer, 0, rand_bit_layout(rng)) if rng.random() < 0.5 else rand_composed(rng)
        add(f"{op}({text(a)}, {text(b)})", f"cute::{op}({V(a)}, {V(b)})", lambda: fn(a, b))
    return gen


def gen_product_swizzled_tiler(rng, add):
    c = rand_composed(rng, offset=rng.random() < 0.1)
    lay = rand_bit_layout(rng, max_leaves=2)
    add(f"logical_product({lay}, {c})", f"cute::logical_product({V(lay)}, {V(c)})",
        lambda: core.logical_product(lay, c))


_TILER_OPS = ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
              "logical_product", "zipped_product", "tiled_product", "flat_product"]


def gen_domain(rng, add):
    """CuTe's ComposedLayout overloads that act on layout_b: ``A o O o op(B, ...)``."""
    c = rand_composed(rng, max_leaves=3, general=0.1)
    kind = rng.randrange(8)
    if kind < 2:
        op = rng.choice(_TILER_OPS)
        t = rand_tiler(rng, c.shape) if "divide" in op else _product_tiler(rng)
        fn = getattr(core, op)
        add(f"{op}({c}, {text(t)})", f"cute::{op}({V(c)}, {V(t)})", lambda: fn(c, t))
    elif kind == 2:
        op = rng.choice(("blocked_product", "raked_product"))
        t = rand_bit_layout(rng, max_leaves=2, mutate=0.1)
        fn = getattr(core, op)
        add(f"{op}({c}, {t})", f"cute::{op}({V(c)}, {V(t)})", lambda: fn(c, t))
    elif kind == 3:
        modes = c.shape if isinstance(c.shape, tuple) else (c.shape,)
        target = tuple(_size(s) * rng.choice((1, 2, 4, 3)) for s in modes) + (rng.choice((2, 3)),) * rng.randint(0, 1)
        if rng.random() < 0.1:
            target = tuple(t + 1 for t in target)
        order = tuple(rng.sample(range(1, len(target) + 1), len(target))) if rng.random() < 0.3 else None
        extra = f", {V(order)}" if order else ""
        add(f"tile_to_shape({c}, {text(target)}{', ' + text(order) if order else ''})",
            f"cute::tile_to_shape({V(c)}, {V(target)}{extra})",
            lambda: core.tile_to_shape(c, target, order))
    elif kind == 4:
        r = rng.random()
        if r < 0.4:
            add(f"coalesce({c})", f"cute::coalesce({V(c)})", lambda: core.coalesce(c))
        elif r < 0.6:
            p = tuple(0 for _m in range(rng.randint(1, c.rank)))
            add(f"filter({c}, {text(p)})", f"cute::filter({V(c)}, {V(p)})", lambda: core.filter(c, p))
        elif r < 0.7:
            add(f"nullspace({c})", f"cute::nullspace({V(c)})", lambda: core.nullspace(c))
        elif r < 0.8 and isinstance(c.outer, Swizzle):
            add(f"get_swizzle_portion({c}), get_nonswizzle_portion({c})",
                f"cute::make_tuple(cute::get_swizzle_portion({V(c)}), cute::get_nonswizzle_portion({V(c)}))",
                lambda: (core.get_swizzle_portion(c), core.get_nonswizzle_portion(c)))
        else:
            p = tuple(0 for _m in range(rng.randint(1, c.rank)))
            add(f"coalesce({c}, {text(p)})", f"cute::coalesce({V(c)}, {V(p)})", lambda: core.coalesce(c, p))
    elif kind == 5:
        _gen_mode_op(rng, c, add)
    elif kind == 6:
        if rng.random() < 0.5:
            add(f"complement({c})", f"cute::complement({V(c)})", lambda: core.complement(c))
        else:
            t = rng.choice((16, 32, 64, 256, 1024, 48))
            add(f"complement({c}, {t})", f"cute::complement({V(c)}, {V(t)})", lambda: core.complement(c, t))
    else:
        add(f"(size,cosize,rank,depth,shape)({c})",
            f"cute::make_tuple(cute::size({V(c)}), cute::cosize({V(c)}), cute::rank({V(c)}), "
            f"cute::depth({V(c)}), cute::shape({V(c)}))",
            lambda: (c.size(), c.cosize(), c.rank, c.depth, c.shape))


def _gen_mode_op(rng, c, add):
    r = c.rank
    kind = rng.randrange(6)
    if kind == 0:
        add(f"flatten({c})", f"cute::flatten({V(c)})", lambda: core.flatten(c))
    elif kind == 1:
        i = rng.randrange(r)
        add(f"layout<{i}>({c})", f"cute::layout<{i}>({V(c)})", lambda: c[i])
    elif kind == 2:
        b = rng.randrange(r)
        e = rng.randint(b + 1, r)
        add(f"take<{b},{e}>({c})", f"cute::take<{b},{e}>({V(c)})", lambda: core.take(c, b, e))
    elif kind == 3:
        b = rng.randrange(r + 1)
        e = rng.randint(b, r)
        add(f"group<{b},{e}>({c})", f"cute::group<{b},{e}>({V(c)})", lambda: core.group(c, b, e))
    elif kind == 5:
        add(f"zip({c})", f"cute::zip({V(c)})", lambda: core.zip_layouts(c))
    else:
        k = r + rng.randint(0, 2)
        add(f"append<{k}>({c}, 1:0)", f"cute::append<{k}>({V(c)}, {V('1:0')})",
            lambda: core.append(c, Layout(1, 0), k))


def _product_tiler(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice((2, 3, 4))
    if r < 0.7:
        return rng.choice((Layout(2), Layout(4), Layout((2, 2)), Layout((2, 3), (3, 1))))
    return tuple(rng.choice((2, 3, _)) for _i in range(rng.randint(1, 2)))


GENERATORS = {
    "swizzle": gen_swizzle,
    "make_swizzle": gen_make_swizzle,
    "composition": gen_composition,
    "right_inverse": _gen_inverse(right_inverse),
    "left_inverse": _gen_inverse(left_inverse),
    "slice": gen_slice,
    "eval": gen_eval,
    "upcast": _gen_cast("upcast", core.upcast),
    "downcast": _gen_cast("downcast", core.downcast),
    "recast_layout": gen_recast,
    "max_common_layout": _gen_common("max_common_layout", core.max_common_layout),
    "max_common_vector": _gen_common("max_common_vector", core.max_common_vector),
    "logical_product(L,Sw)": gen_product_swizzled_tiler,
    "domain": gen_domain,
    "append": gen_append,
}
assert set(GENERATORS) == set(OPS)


def random_cases(op: str, n: int, seed: int = SEED) -> list[Case]:
    rng = random.Random(f"swizzle/{op}/{seed}")
    out: list[Case] = []
    while len(out) < n:
        GENERATORS[op](rng, lambda t, cpp, fn: out.append(Case(op, t, cpp, fn)))
    return out


# --- fixed cases: CuTe's unit tests, production swizzles, GMMA atoms --------------------------

def unit_cases() -> list[Case]:
    fns = {"composition": composition, "right_inverse": right_inverse, "left_inverse": left_inverse}
    cases = []
    for line in UNIT_CASES.read_text().splitlines():
        rec = json.loads(line)
        if "Sw<" not in "".join(rec["args"]) + rec["cute"]:
            continue
        args = [parse_layout(a) for a in rec["args"]]
        fn = fns[rec["op"]]
        cases.append(Case("unit", f"{rec['op']}({', '.join(rec['args'])})",
                          f"cute::{rec['op']}({', '.join(V(a) for a in rec['args'])})",
                          lambda fn=fn, args=args: fn(*args)))
    return cases


GMMA_ATOMS = {  # name -> (swizzle, layout in bits), as in cute/atom/mma_traits_sm90_gmma.hpp
    "Layout_MN_INTER_Atom": (Swizzle(0, 4, 3), Layout((128, 8), (1, 128))),
    "Layout_MN_SW32_Atom": (Swizzle(1, 4, 3), Layout((256, 8), (1, 256))),
    "Layout_MN_SW64_Atom": (Swizzle(2, 4, 3), Layout((512, 8), (1, 512))),
    "Layout_MN_SW128_Atom": (Swizzle(3, 4, 3), Layout((1024, 8), (1, 1024))),
    "Layout_K_INTER_Atom": (Swizzle(0, 4, 3), Layout((8, 128), (128, 1))),
    "Layout_K_SW32_Atom": (Swizzle(1, 4, 3), Layout((8, 256), (256, 1))),
    "Layout_K_SW64_Atom": (Swizzle(2, 4, 3), Layout((8, 512), (512, 1))),
    "Layout_K_SW128_Atom": (Swizzle(3, 4, 3), Layout((8, 1024), (1024, 1))),
}
GMMA_TYPES = {"half_t": 16, "float": 32, "uint8_t": 8}


def gmma_atom(name: str, bits: int) -> ComposedLayout:
    """``GMMA::<name><T>`` = ``upcast<sizeof_bits<T>>(<name>_Bits)``, offset ``smem_ptr_flag``."""
    sw, lay = GMMA_ATOMS[name]
    return core.upcast(ComposedLayout(sw, SmemPtrFlag(1), lay), bits)


def gmma_cases() -> list[Case]:
    cases = []

    def add(t, cpp, fn):
        cases.append(Case("gmma", t, cpp, fn))

    for name in GMMA_ATOMS:
        for tname, bits in GMMA_TYPES.items():
            atom = gmma_atom(name, bits)
            cpp = f"cute::SM90::GMMA::{name}<{tname}>{{}}"
            add(f"GMMA::{name}<{tname}>", cpp, lambda atom=atom: atom)
            if tname != "half_t":
                continue
            rows, cols = atom.shape
            for target, order in (((128, 64, 3), None), ((rows * 4, cols * 2), (2, 1))):
                extra = f", {V(order)}" if order else ""
                add(f"tile_to_shape(GMMA::{name}<{tname}>, {text(target)}{', ' + text(order) if order else ''})",
                    f"cute::tile_to_shape({cpp}, {V(target)}{extra})",
                    lambda atom=atom, t=target, o=order: core.tile_to_shape(atom, t, o))
            add(f"slice((_,1), GMMA::{name}<{tname}>)", f"cute::slice({V((_, 1))}, {cpp})",
                lambda atom=atom: core.slice_((_, 1), atom))
            add(f"right_inverse(GMMA::{name}<{tname}>)", f"cute::right_inverse({cpp})",
                lambda atom=atom: right_inverse(atom))
            add(f"downcast<2>(GMMA::{name}<{tname}>)", f"cute::downcast<2>({cpp})",
                lambda atom=atom: core.downcast(atom, 2))
    return cases


PRODUCTION = ["Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<2,3,3> o 0 o (8,32):(32,1)", "Sw<3,3,3> o 0 o (8,64):(64,1)",
              "Sw<3,3,3> o 0 o (64,8):(1,64)", "Sw<2,4,3> o 0 o (8,32):(32,1)", "Sw<1,4,3> o 0 o (8,16):(16,1)",
              "Sw<3,4,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))", "Sw<2,5,2> o 0 o (32,4):(1,32)",
              "Sw<3,2,3> o 0 o (8,32):(32,1)", "Sw<2,2,3> o 0 o (8,32):(32,1)"]


def production_cases() -> list[Case]:
    cases = []

    def add(t, cpp, fn):
        cases.append(Case("production", t, cpp, fn))

    for notation in PRODUCTION:
        c = parse_layout(notation)
        for fn in (right_inverse, left_inverse):
            add(f"{fn.__name__}({c})", f"cute::{fn.__name__}({V(c)})", lambda fn=fn, c=c: fn(c))
        coord = ((_, 1), _) if isinstance(c.shape[0], tuple) else (_, 3)
        add(f"slice_and_offset({text(coord)}, {c})", f"cute::slice_and_offset({V(coord)}, {V(c)})",
            lambda c=c, coord=coord: core.slice_and_offset(coord, c))
        add(f"upcast<2>({c})", f"cute::upcast<2>({V(c)})", lambda c=c: core.upcast(c, 2))
        add(f"downcast<8>({c})", f"cute::downcast<8>({V(c)})", lambda c=c: core.downcast(c, 8))
        add(f"logical_divide({c}, (8,8))", f"cute::logical_divide({V(c)}, {V((8, 8))})",
            lambda c=c: core.logical_divide(c, (8, 8)))
        add(f"composition({c}, 32:1)", f"cute::composition({V(c)}, {V('32:1')})",
            lambda c=c: composition(c, Layout(32, 1)))
        add(f"max_common_vector({c}, {c.inner})", f"cute::max_common_vector({V(c)}, {V(c.inner)})",
            lambda c=c: core.max_common_vector(c, c.inner))
        add(f"logical_product((2,2):(1,2), {c})", f"cute::logical_product({V('(2,2):(1,2)')}, {V(c)})",
            lambda c=c: core.logical_product(Layout((2, 2), (1, 2)), c))
    for notation in ("Sw<3,4,3>", "Sw<2,3,3>", "Sw<3,3,3>", "Sw<2,0,-3>"):
        sw = parse_layout(notation + " o 0 o 1:1").outer
        add(f"make_layout({sw})", f"cute::make_layout({V(sw)})", lambda sw=sw: core.make_layout(sw))
    return cases


# --- the comparison --------------------------------------------------------------------

def compare(case: Case, res, alone=None) -> tuple[str | None, str | None]:
    """(mismatch reproducer or None, note about a refusal message without CuTe's words or None).

    ``alone`` is CuTe's verdict on the case compiled by itself: in a batch, g++
    reports an instantiation's static_assert only for the first case that
    needs it, so the condition is checked against the case alone.
    """
    status, got, own = case.symcute()
    if res.ok and status == "ok" and got == res.output:
        return None, None
    if not res.ok and status == "rejected":
        if _names_condition(res, got) or (alone is not None and _names_condition(alone, got)):
            return None, None
        cond = (alone or res).condition
        msg = f"{case.text}: CuTe says {cond!r}, symcute says {got!r}"
        return (msg, None) if own else (None, msg)
    cute = res.output if res.ok else f"<{res.status}: {res.error}>"
    mine = got if status == "ok" else f"<LayoutError: {got}>"
    return f"{case.text}\n    CuTe:    {cute}\n    symcute: {mine}\n    C++:     print({case.cpp});", None


def _names_condition(res, message: str) -> bool:
    """symcute's message names CuTe's condition, or CuTe has none (a hard error comes first)."""
    cond = res.condition
    if cond in (None, "static assertion failed") or cond.rstrip(".") in message:
        return True
    first = next((line for line in res.diagnostics.splitlines() if ": error: " in line), "")
    return "static assertion failed" not in first


@pytest.fixture(scope="module")
def verdicts():
    oracle = oracle_or_skip()
    cases = unit_cases() + gmma_cases() + production_cases()
    for op in OPS:
        cases += random_cases(op, cases_per_op(op))
    results = oracle.run_exprs({f"sw{i}": case.cpp for i, case in enumerate(cases)})
    recheck = {}
    for i, case in enumerate(cases):
        res = results[f"sw{i}"]
        if not res.ok and compare(case, res) != (None, None):
            recheck[f"sw{i}"] = case.cpp
    alone = {}
    if recheck:  # few cases: compiled one by one, without the result memo
        alone = oracle_pkg.CuteOracle(batch_size=1, cache=False).run_exprs(recheck)
    table: dict[str, list] = {}
    for i, case in enumerate(cases):
        table.setdefault(case.op, []).append((case, results[f"sw{i}"], alone.get(f"sw{i}")))
    return table


@pytest.mark.parametrize("op", ["unit", "gmma", "production"] + OPS)
def test_swizzle_vs_cute(verdicts, op):
    rows = verdicts[op]
    bad, notes = [], []
    counts = COUNTS[f"swizzle:{op}"]
    for case, res, alone in rows:
        mismatch, note = compare(case, res, alone)
        counts["cases"] += 1
        counts["valid" if res.ok else "refused"] += 1
        if mismatch:
            counts["mismatch"] += 1
            bad.append(mismatch)
        if note:
            notes.append(note)
    if op in CI_CASES:
        assert len(rows) >= cases_per_op(op)
    if notes:
        print(f"\n{op}: {len(notes)} refusals (by other core modules) without CuTe's words, e.g. {notes[0]}")
    assert not bad, f"{len(bad)} of {len(rows)} {op} cases differ from CuTe:\n" + "\n".join(bad[:10])
