"""Random parametric cases: a layout over run-time parameters, admissible values, one CuTe call.

Each case is written three ways: the parametric call (symcute.symbolic.parametric),
a C++ body that builds the same layout with run-time ``int`` parameters and
``Int<n>{}`` static leaves and prints CuTe's result, and the core call on the
instantiated input (``subs(values)``: its dynamic leaves are core's run-time
integers, so core takes CuTe's run-time code paths and must print CuTe's
result too).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import sympy

import symcute as sc
from symcute import Layout
from symcute.core.integer import DynamicInt
from symcute.symbolic import parametric as P
from symcute.oracle import cpp_value

from .core_cases import rand_tile_layout

NAMES = ["M", "N", "K"]
EXTENTS = [1, 2, 2, 3, 4, 4, 8]
MULTIPLES = [1, 1, 2, 4, 8, 16]


@dataclass
class PCase:
    key: str
    op: str
    text: str          # a reproducer
    params: P.Params
    values: dict       # admissible run-time values
    inputs: tuple      # (ParamLayout, extra args...)
    cpp: str           # C++ statements printing CuTe's result

    def compute(self):
        return OPS[self.op][0](*self.inputs)

    def core(self):
        return OPS[self.op][1](self)


def rand_params(rng):
    names = rng.sample(NAMES, rng.randint(1, 2))
    mult = {n: rng.choice(MULTIPLES) for n in names}
    ps = P.params(" ".join(names), multiple_of={n: m for n, m in mult.items() if m > 1})
    values = {n: mult[n] * rng.randint(1, 5) for n in names}
    return ps, values


def _leaves(t):
    return [x for s in t for x in _leaves(s)] if isinstance(t, tuple) else [t]


def _like(shape, vals):
    it = iter(vals)

    def go(s):
        return tuple(go(x) for x in s) if isinstance(s, tuple) else next(it)
    return go(shape)


def rand_dyn_leaf(rng, ps):
    r = rng.random()
    syms = list(ps)
    if r < 0.15:
        return P.dynamic(rng.choice([1, 2, 4]))
    s = rng.choice(syms)
    if r < 0.3:
        return s * rng.choice([2, 4])
    return s


def rand_shape(rng, ps, depth=2, max_rank=3, p_dyn=0.35):
    if depth == 0 or rng.random() < 0.35:
        return rand_dyn_leaf(rng, ps) if rng.random() < p_dyn else rng.choice(EXTENTS)
    return tuple(rand_shape(rng, ps, depth - 1, max_rank, p_dyn) for _ in range(rng.randint(1, max_rank)))


def _mul(a, b):
    if isinstance(a, P.dynamic):
        a = sympy.Integer(a.value)
    if isinstance(b, P.dynamic):
        b = sympy.Integer(b.value)
    return a * b


def _as_input_leaf(x):
    """Products that came out static-times-dynamic are dynamic leaves."""
    if isinstance(x, sympy.Integer):
        return P.dynamic(int(x))
    return x


def rand_strides(rng, shape, ps, static_strides=False):
    """Compact strides in a random order (products of the extents, dynamic where they involve parameters)."""
    flat = _leaves(shape)
    order = list(range(len(flat)))
    rng.shuffle(order)
    strides = [None] * len(flat)
    cur = 1
    for i in order:
        strides[i] = cur
        cur = _mul(cur, flat[i])
        if rng.random() < 0.15:
            cur = _mul(cur, 2)
    out = []
    for d in strides:
        if static_strides:
            d = d if isinstance(d, int) else rng.choice([1, 2, 4, 8, 16])
        elif rng.random() < 0.08:
            d = P.dynamic(1) if rng.random() < 0.5 else rng.choice(list(ps))
        out.append(_as_input_leaf(d))
    return _like(shape, out)


def rand_layout(rng, ps, static_strides=False, **kw):
    shape = rand_shape(rng, ps, **kw)
    return P.layout(shape, rand_strides(rng, shape, ps, static_strides), ps)


def rand_static_tiler(rng, size_hint=16):
    r = rng.random()
    if r < 0.3:
        return rng.choice([1, 2, 4, 8])
    if r < 0.6:
        return rand_tile_layout(rng, rng.choice([4, 8, 16]))
    n = rng.randint(1, 2)
    return tuple(rng.choice([sc._, 2, 4, rand_tile_layout(rng, 8)]) for _ in range(n))


# --- C++ text -------------------------------------------------------------------------------------

def cpp_leaf(x, ps) -> str:
    if type(x) is int:
        return f"Int<{x}>{{}}"
    e = ps.user(x)
    if e.is_Integer:
        return f"int({int(e)})"
    if e.is_Symbol:
        return str(e)
    factors = []
    for a in (e.args if isinstance(e, sympy.Mul) else (e,)):
        if a.is_Integer:
            factors.append(f"int({int(a)})")
        elif a.is_Symbol:
            factors.append(str(a))
        elif isinstance(a, sympy.Pow) and a.base.is_Symbol and a.exp.is_Integer and a.exp > 0:
            factors.extend([str(a.base)] * int(a.exp))
        else:
            raise ValueError(f"no C++ for {e}")
    return "(" + "*".join(factors) + ")"


def cpp_tree(t, ps, maker) -> str:
    if type(t) is tuple:
        return f"{maker}(" + ", ".join(cpp_tree(x, ps, maker) for x in t) + ")"
    return cpp_leaf(t, ps)


def cpp_layout(L: P.ParamLayout) -> str:
    return f"make_layout({cpp_tree(L.shape, L.params, 'make_shape')}, {cpp_tree(L.stride, L.params, 'make_stride')})"


def cpp_tiler(t) -> str:
    if isinstance(t, tuple):
        return "make_tile(" + ", ".join(cpp_tiler(x) for x in t) + ")"
    if t is sc._:
        return "_"
    if isinstance(t, int):
        return f"Int<{t}>{{}}"
    return cpp_value(str(t))


def body(ps, values, call: str) -> str:
    decl = " ".join(f"int {n} = {values[n]};" for n in ps.names())
    use = " ".join(f"(void){n};" for n in ps.names())
    return f"{decl} {use}\nprint({call});"


def text_tiler(t) -> str:
    if isinstance(t, tuple):
        return "(" + ",".join(text_tiler(x) for x in t) + ")"
    return str(t)


# --- operations: (parametric call, core call on the instantiated case) ----------------------------

def _core_tiler_op(name):
    return lambda c: getattr(sc, name)(c.inputs[0].subs(c.values), c.inputs[1])


OPS = {
    "coalesce": (P.coalesce, lambda c: sc.coalesce(c.inputs[0].subs(c.values))),
    "filter": (P.filter, lambda c: sc.filter(c.inputs[0].subs(c.values))),
    "composition": (P.composition, _core_tiler_op("composition")),
    "complement": (P.complement, lambda c: sc.complement(c.inputs[0].subs(c.values), DynamicInt(
        c.params.evaluate(c.params.inner(c.inputs[1]), c.params.check_values(c.values))))),
    "logical_divide": (P.logical_divide, _core_tiler_op("logical_divide")),
    "zipped_divide": (P.zipped_divide, _core_tiler_op("zipped_divide")),
    "tiled_divide": (P.tiled_divide, _core_tiler_op("tiled_divide")),
    "flat_divide": (P.flat_divide, _core_tiler_op("flat_divide")),
    "logical_product": (P.logical_product, _core_tiler_op("logical_product")),
    "blocked_product": (P.blocked_product, _core_tiler_op("blocked_product")),
    "raked_product": (P.raked_product, _core_tiler_op("raked_product")),
    "with_shape": (P.with_shape, lambda c: c.inputs[0].subs(c.values).with_shape(tuple(   # make_shape(...)
        x if type(x) is int else DynamicInt(c.params.evaluate(c.params.inner(x), c.params.check_values(c.values)))
        for x in c.inputs[1]))),
    "upcast": (P.upcast, lambda c: sc.upcast(c.inputs[0].subs(c.values), c.inputs[1])),
    "downcast": (P.downcast, lambda c: sc.downcast(c.inputs[0].subs(c.values), c.inputs[1])),
}


def gen(op: str, rng: random.Random, i: int) -> PCase:
    ps, values = rand_params(rng)
    key = f"param-{op}#{i}"
    if op in ("coalesce", "filter"):
        L = rand_layout(rng, ps)
        return PCase(key, op, f"{op}({L})", ps, values, (L,), body(ps, values, f"{op}({cpp_layout(L)})"))
    if op in ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        L = rand_layout(rng, ps)
        t = rand_static_tiler(rng)
        return PCase(key, op, f"{op}({L}, {text_tiler(t)})", ps, values, (L, t),
                     body(ps, values, f"{op}({cpp_layout(L)}, {cpp_tiler(t)})"))
    if op in ("logical_product", "blocked_product", "raked_product"):
        L = rand_layout(rng, ps, static_strides=rng.random() < 0.7, max_rank=2)
        t = rand_tile_layout(rng, rng.choice([4, 8]))
        if op != "logical_product" and rng.random() < 0.5:
            t = Layout((rng.choice([1, 2, 4]), rng.choice([1, 2, 3])))
        return PCase(key, op, f"{op}({L}, {t})", ps, values, (L, t),
                     body(ps, values, f"{op}({cpp_layout(L)}, {cpp_value(str(t))})"))
    if op == "complement":
        if rng.random() < 0.6:
            shape = rand_shape(rng, ps, p_dyn=0.0)
            L = P.layout(shape, rand_strides(rng, shape, ps, static_strides=True), ps)
        else:
            L = P.layout(rand_dyn_leaf(rng, ps) if rng.random() < 0.5 else rng.choice(EXTENTS),
                         rng.choice([1, 2, rng.choice(list(ps))]), ps)
        s = rng.choice(list(ps))
        cot = s * rng.choice([1, 2, 4, 8])
        return PCase(key, op, f"complement({L}, {cot})", ps, values, (L, cot),
                     body(ps, values, f"complement({cpp_layout(L)}, {cpp_leaf(ps.inner(cot), ps)})"))
    if op == "with_shape":
        L = rand_layout(rng, ps, max_rank=2)
        s = rng.choice(list(ps))
        shape = rng.choice([(s, 2), (2, s), (4, s), (s,), (2, 2)])
        shape_cpp = ", ".join(f"Int<{x}>{{}}" if type(x) is int else str(x) for x in shape)
        return PCase(key, op, f"({L}).with_shape({shape})", ps, values, (L, shape),
                     body(ps, values, f"{cpp_layout(L)}.with_shape(make_shape({shape_cpp}))"))
    if op in ("upcast", "downcast"):
        L = rand_layout(rng, ps)
        n = rng.choice([2, 4, 8])
        return PCase(key, op, f"{op}<{n}>({L})", ps, values, (L, n),
                     body(ps, values, f"{op}<{n}>({cpp_layout(L)})"))
    raise ValueError(op)


def cases(op: str, n: int, seed: int) -> list[PCase]:
    rng = random.Random(f"{seed}:{op}")
    return [gen(op, rng, i) for i in range(n)]
