"""Layouts with multi-term arithmetic-tuple strides (``(4,4):((1,1),(3,1))``) against real CuTe.

CuTe 4.2 compiles such a layout (``make_arithmetic_tuple`` strides, or ``E<0>{} + E<1>{}``) and
prints it, its size, rank, depth, shape, stride and modes, and takes ``append``, ``prepend``,
``select``, ``group``, ``take`` and ``make_layout`` of it; it refuses to evaluate it and every
algebra operation on it (``arithmetic_tuple.hpp`` has no ``operator*`` of an integer and an
ArithmeticTuple).  symcute must print the same values and raise a SymcuteError where CuTe refuses.
"""

from __future__ import annotations

import random

import pytest

import symcute as sc
from symcute import Layout
from symcute.core.basis import ArithmeticTuple
from symcute.core.layout import format_int_tuple
from .core_cases import Case, show
from symcute.errors import SymcuteError
from .harness import compare, large, oracle_or_skip, run_guided

pytestmark = pytest.mark.cute

SEED = 20261201


def _cpp_leaf(x) -> str:
    if isinstance(x, ArithmeticTuple):
        return "cute::make_arithmetic_tuple(" + ", ".join(_cpp_leaf(y) for y in x.items) + ")"
    if isinstance(x, tuple):  # a nested term of an arithmetic tuple
        return "cute::make_arithmetic_tuple(" + ", ".join(_cpp_leaf(y) for y in x) + ")"
    return f"cute::Int<{x}>{{}}"


def _cpp_tuple(t, maker: str) -> str:
    if isinstance(t, tuple):
        return f"cute::{maker}(" + ", ".join(_cpp_tuple(x, maker) for x in t) + ")"
    return _cpp_leaf(t)


def cpp_layout(L: Layout) -> str:
    """C++ building ``L`` with static ints and ``make_arithmetic_tuple`` strides."""
    return f"cute::make_layout({_cpp_tuple(L.shape, 'make_shape')}, {_cpp_tuple(L.stride, 'make_stride')})"


def _term(rng, depth=0):
    if depth == 0 and rng.random() < 0.15:
        return tuple(_term(rng, 1) for _ in range(2))
    return rng.choice([1, 1, 2, 3, 4, 8])


def rand_at_layout(rng) -> Layout:
    def shape(d):
        if d == 0 or rng.random() < 0.5:
            return rng.choice([2, 3, 4, 8])
        return tuple(shape(d - 1) for _ in range(rng.randint(1, 3)))
    s = tuple(shape(1) for _ in range(rng.randint(1, 3)))   # a tuple shape: where CuTe's stride is a coordinate
    leaves = []

    def stride(x):
        if isinstance(x, tuple):
            return tuple(stride(y) for y in x)
        if x > 1 and rng.random() < 0.6:  # multi-term, on a mode CuTe must multiply: (4,4):((1,1),(3,1))
            v = ArithmeticTuple(tuple(_term(rng) for _ in range(rng.randint(2, 3))))
        else:
            v = rng.choice([0, 1, 2, 4])
        leaves.append(v)
        return v
    d = stride(s)
    if not any(isinstance(v, ArithmeticTuple) for v in leaves):  # at least one arithmetic-tuple stride
        return rand_at_layout(rng)
    return Layout(s, d)


def _text(x) -> str:
    return format_int_tuple(x) if isinstance(x, tuple) else str(x)


def _ops(L: Layout, rng):
    """(op, text, cpp, compute) for one layout: what CuTe computes and what it refuses."""
    c = cpp_layout(L)
    r = L.rank
    i = rng.randrange(r)
    T = "cute::Layout<cute::Int<2>, cute::Int<1>>{}"
    two = Layout(2, 1)
    yield "print", f"{L}", c, lambda: L
    yield "size", f"size({L})", f"cute::size({c})", lambda: sc.size(L)
    yield "rank", f"rank({L})", f"cute::rank({c})", lambda: sc.rank(L)
    yield "depth", f"depth({L})", f"cute::depth({c})", lambda: sc.depth(L)
    yield "shape", f"shape({L})", f"cute::shape({c})", lambda: sc.shape(L)
    yield "stride", f"stride({L})", f"cute::stride({c})", lambda: sc.stride(L)
    yield "mode", f"layout<{i}>({L})", f"cute::layout<{i}>({c})", lambda: L[i]
    yield "append", f"append({L}, 2:1)", f"cute::append({c}, {T})", lambda: sc.append(L, two)
    yield "prepend", f"prepend({L}, 2:1)", f"cute::prepend({c}, {T})", lambda: sc.prepend(L, two)
    yield "select", f"select<{i}>({L})", f"cute::select<{i}>({c})", lambda: sc.select(L, i)
    yield "group", f"group<0,{r}>({L})", f"cute::group<0,{r}>({c})", lambda: sc.group(L, 0, r)
    yield "take", f"take<0,1>({L})", f"cute::take<0,1>({c})", lambda: sc.take(L, 0, 1)
    yield "make_layout", f"make_layout({L}, 2:1)", f"cute::make_layout({c}, {T})", lambda: sc.make_layout(L, two)
    # CuTe refuses each of these (no int * ArithmeticTuple, or its tuple algorithms walk into the terms)
    k = rng.randrange(max(L.size(), 1))
    yield "evaluate", f"{L}({k})", f"{c}({k})", lambda: L(k)
    yield "cosize", f"cosize({L})", f"cute::cosize({c})", lambda: sc.cosize(L)
    yield "coalesce", f"coalesce({L})", f"cute::coalesce({c})", lambda: sc.coalesce(L)
    yield "filter", f"filter({L})", f"cute::filter({c})", lambda: sc.filter(L)
    yield "flatten", f"flatten({L})", f"cute::flatten({c})", lambda: sc.flatten(L)
    yield "composition", f"composition({L}, 2:1)", f"cute::composition({c}, {T})", lambda: sc.composition(L, two)
    yield "right_inverse", f"right_inverse({L})", f"cute::right_inverse({c})", lambda: sc.right_inverse(L)
    yield "left_inverse", f"left_inverse({L})", f"cute::left_inverse({c})", lambda: sc.left_inverse(L)
    yield "complement", f"complement({L})", f"cute::complement({c})", lambda: sc.complement(L)
    yield "logical_divide", f"logical_divide({L}, 2:1)", f"cute::logical_divide({c}, {T})", \
        lambda: sc.logical_divide(L, two)
    yield "logical_product", f"logical_product({L}, 2:1)", f"cute::logical_product({c}, {T})", \
        lambda: sc.logical_product(L, two)
    yield "upcast", f"upcast<2>({L})", f"cute::upcast<2>({c})", lambda: sc.upcast(L, 2)
    yield "nullspace", f"nullspace({L})", f"cute::nullspace({c})", lambda: sc.nullspace(L)
    yield "max_common_vector", f"max_common_vector({L}, {L})", f"cute::max_common_vector({c}, {c})", \
        lambda: sc.max_common_vector(L, L)


def cases(n: int) -> list[Case]:
    rng = random.Random(SEED)
    out = [Case("fixed#0", "print", "(4,4):((1,1),(3,1))", cpp_layout(Layout((4, 4), (ArithmeticTuple((1, 1)),
                ArithmeticTuple((3, 1))))), lambda: Layout.parse("(4,4):((1,1),(3,1))"))]
    for j in range(n):
        L = rand_at_layout(rng)
        for op, text, cpp, fn in _ops(L, rng):
            out.append(Case(f"{op}#{j}", op, text, f"{cpp}", fn))
    return out


STRUCTURAL = {"print", "size", "rank", "depth", "shape", "stride", "mode", "append", "prepend", "select", "group",
              "take", "make_layout"}
# CuTe refused every one of these in every case drawn (no int * ArithmeticTuple)
ALWAYS_REFUSED = {"evaluate", "cosize", "filter", "complement", "logical_product", "upcast"}


def test_arithmetic_tuple_strides_equal_cute():
    """Structural operations print CuTe's value; symcute refuses every algebra operation.  CuTe refuses
    them too, except where the operation flattens the stride first: then CuTe compiles it and pairs the
    ArithmeticTuple's terms with the wrong extents (``coalesce((4):((4,4,1)))`` is ``4:4``), which symcute
    does not reproduce (counted as ``flattened`` in the summary, and said so in the error)."""
    from .harness import COUNTS
    oracle = oracle_or_skip()
    table = cases(120 if large() else 12)
    results = run_guided(oracle, table, show)
    structural = [c for c in table if c.op in STRUCTURAL]
    bad = compare(structural, results, show, "arith-strides")
    problems = [m for ms in bad.values() for m in ms[:3]]
    for case in table:
        if case.op in STRUCTURAL:
            continue
        res, c = results[case.key], COUNTS[f"arith-strides:{case.op}"]
        c["cases"] += 1
        try:
            value = case.compute()
        except SymcuteError as e:
            if "arithmetic-tuple stride" not in str(e):
                problems.append(f"{case.text}: symcute's refusal does not say why: {e}")
        else:
            c["mismatch"] += 1
            problems.append(f"{case.text}: symcute computed {value}, CuTe {res.status} {res.output}")
            continue
        if res.ok:
            c["valid"] += 1
            c["flattened"] += 1
            if case.op in ALWAYS_REFUSED or case.key == "fixed#0":
                problems.append(f"{case.text}: CuTe computed {res.output}")
        else:
            c["refused"] += 1
    assert not problems, "\n".join(problems[:10])


def test_cute_refuses_the_algebra_on_the_issues_layout():
    """``(4,4):((1,1),(3,1))``: CuTe prints it and its size and refuses evaluation and the algebra."""
    oracle = oracle_or_skip()
    L = Layout.parse("(4,4):((1,1),(3,1))")
    picked = [c for c in _fixed_cases(L) if c.op not in STRUCTURAL]
    results = oracle.run_exprs({c.key: c.cpp for c in picked})
    assert all(not results[c.key].ok for c in picked), [c.text for c in picked if results[c.key].ok]
    for c in picked:
        with pytest.raises(SymcuteError, match="arithmetic-tuple stride"):
            c.compute()


def _fixed_cases(L):
    rng = random.Random(0)
    return [Case(f"issue#{op}", op, text, cpp, fn) for op, text, cpp, fn in _ops(L, rng)
            if op in ("evaluate", "cosize", "coalesce", "composition", "right_inverse", "filter", "flatten",
                      "logical_divide", "complement", "upcast")]


def test_the_printed_text_parses_back_to_the_same_layout():
    rng = random.Random(SEED)
    for _ in range(200):
        L = rand_at_layout(rng)
        assert Layout.parse(str(L)) == L and str(Layout.parse(str(L))) == str(L)
