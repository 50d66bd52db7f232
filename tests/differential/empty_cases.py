"""Rank-0 (empty) layouts and layouts with an empty mode, against real CuTe.

CuTe 4.2 computes size, cosize, rank, flatten, filter_zeros, nullspace,
make_layout_like, make_ordered_layout, append and mode access on ``():()``,
and refuses (does not compile) coalesce, filter, the inverses, complement,
composition, the divides and products, the casts and evaluation: their
implementations take ``get<R-1>`` of an empty tuple.  An empty *mode* beside
others (``((),4):((),1)``) is fine for everything but evaluation.
"""

from __future__ import annotations

import symcute as sc
from symcute import Layout
from symcute.oracle import cpp_value

from .core_cases import Case

E = "():()"
M = "((),4):((),1)"
M2 = "((),4):((),2)"
L = "(4,2):(1,4)"


def _lay(text):
    return sc.Layout.parse(text)


def _c(text):
    return cpp_value(text)


def cases() -> list[Case]:
    e, m, m2, l = _lay(E), _lay(M), _lay(M2), _lay(L)
    ce, cm, cm2, cl = _c(E), _c(M), _c(M2), _c(L)
    rows = [
        # (symcute text, C++ expression, computation)
        (f"coalesce({E})", f"coalesce({ce})", lambda: sc.coalesce(e)),
        (f"coalesce({E}, ())", f"coalesce({ce}, make_shape())", lambda: sc.coalesce(e, ())),
        (f"coalesce({L}, ())", f"coalesce({cl}, make_shape())", lambda: sc.coalesce(l, ())),
        (f"filter({E})", f"filter({ce})", lambda: sc.filter(e)),
        (f"filter_zeros({E})", f"filter_zeros({ce})", lambda: sc.filter_zeros(e)),
        (f"right_inverse({E})", f"right_inverse({ce})", lambda: sc.right_inverse(e)),
        (f"left_inverse({E})", f"left_inverse({ce})", lambda: sc.left_inverse(e)),
        (f"complement({E})", f"complement({ce})", lambda: sc.complement(e)),
        (f"complement({E}, 4)", f"complement({ce}, Int<4>{{}})", lambda: sc.complement(e, 4)),
        (f"complement({L}, ())", f"complement({cl}, make_shape())", lambda: sc.complement(l, ())),
        (f"composition({E}, {E})", f"composition({ce}, {ce})", lambda: sc.composition(e, e)),
        (f"composition({L}, {E})", f"composition({cl}, {ce})", lambda: sc.composition(l, e)),
        (f"composition({E}, {L})", f"composition({ce}, {cl})", lambda: sc.composition(e, l)),
        (f"composition({E}, 1)", f"composition({ce}, Int<1>{{}})", lambda: sc.composition(e, 1)),
        (f"size({E})", f"size({ce})", lambda: sc.size(e)),
        (f"cosize({E})", f"cosize({ce})", lambda: sc.cosize(e)),
        (f"rank({E})", f"rank({ce})", lambda: sc.rank(e)),
        (f"{E}(0)", f"{ce}(0)", lambda: e(0)),
        (f"{E}(1)", f"{ce}(Int<1>{{}})", lambda: e(1)),
        (f"{E}(())", f"{ce}(make_coord())", lambda: e(())),
        (f"flatten({E})", f"flatten({ce})", lambda: sc.flatten(e)),
        (f"logical_divide({L}, {E})", f"logical_divide({cl}, {ce})", lambda: sc.logical_divide(l, e)),
        (f"logical_divide({E}, {E})", f"logical_divide({ce}, {ce})", lambda: sc.logical_divide(e, e)),
        (f"logical_divide({E}, 1)", f"logical_divide({ce}, Int<1>{{}})", lambda: sc.logical_divide(e, 1)),
        (f"zipped_divide({L}, {E})", f"zipped_divide({cl}, {ce})", lambda: sc.zipped_divide(l, e)),
        (f"tiled_divide({L}, {E})", f"tiled_divide({cl}, {ce})", lambda: sc.tiled_divide(l, e)),
        (f"logical_product({E}, {E})", f"logical_product({ce}, {ce})", lambda: sc.logical_product(e, e)),
        (f"logical_product({L}, {E})", f"logical_product({cl}, {ce})", lambda: sc.logical_product(l, e)),
        (f"logical_product({E}, {L})", f"logical_product({ce}, {cl})", lambda: sc.logical_product(e, l)),
        (f"blocked_product({E}, {E})", f"blocked_product({ce}, {ce})", lambda: sc.blocked_product(e, e)),
        (f"raked_product({E}, {E})", f"raked_product({ce}, {ce})", lambda: sc.raked_product(e, e)),
        (f"zipped_product({E}, {E})", f"zipped_product({ce}, {ce})", lambda: sc.zipped_product(e, e)),
        (f"nullspace({E})", f"nullspace({ce})", lambda: sc.nullspace(e)),
        (f"max_common_layout({E}, {E})", f"max_common_layout({ce}, {ce})", lambda: sc.max_common_layout(e, e)),
        (f"max_common_vector({E}, {E})", f"max_common_vector({ce}, {ce})", lambda: sc.max_common_vector(e, e)),
        (f"max_common_layout({L}, {E})", f"max_common_layout({cl}, {ce})", lambda: sc.max_common_layout(l, e)),
        (f"upcast<2>({E})", f"upcast<2>({ce})", lambda: sc.upcast(e, 2)),
        (f"downcast<2>({E})", f"downcast<2>({ce})", lambda: sc.downcast(e, 2)),
        (f"{E}.with_shape(1)", f"{ce}.with_shape(Int<1>{{}})", lambda: e.with_shape(1)),
        (f"make_layout_like({E})", f"make_layout_like({ce})", lambda: sc.make_layout_like(e)),
        ("make_ordered_layout((), ())", "make_ordered_layout(make_shape(), make_tuple())",
         lambda: sc.make_ordered_layout((), ())),
        (f"tile_to_shape({E}, ())", f"tile_to_shape({ce}, make_shape())", lambda: sc.tile_to_shape(e, ())),
        (f"append<2>({E})", f"append<2>({ce})", lambda: sc.append(e, n=2)),
        (f"composition({L}, ())", f"composition({cl}, make_tile())", lambda: sc.composition(l, ())),
        (f"logical_divide({L}, ())", f"logical_divide({cl}, make_tile())", lambda: sc.logical_divide(l, ())),
        (f"complement({L}, (4,()))", f"complement({cl}, make_shape(Int<4>{{}}, make_shape()))",
         lambda: sc.complement(l, (4, ()))),
        (f"complement({L}, ((),16))", f"complement({cl}, make_shape(make_shape(), Int<16>{{}}))",
         lambda: sc.complement(l, ((), 16))),
        (f"right_inverse(1:0)", "right_inverse(Layout<_1,_0>{})", lambda: sc.right_inverse(_lay("1:0"))),
        # an empty mode beside others
        (f"coalesce({M})", f"coalesce({cm})", lambda: sc.coalesce(m)),
        (f"filter({M})", f"filter({cm})", lambda: sc.filter(m)),
        (f"right_inverse({M})", f"right_inverse({cm})", lambda: sc.right_inverse(m)),
        (f"left_inverse({M})", f"left_inverse({cm})", lambda: sc.left_inverse(m)),
        (f"complement({M2})", f"complement({cm2})", lambda: sc.complement(m2)),
        (f"cosize({M2})", f"cosize({cm2})", lambda: sc.cosize(m2)),
        (f"size({M2})", f"size({cm2})", lambda: sc.size(m2)),
        (f"composition({M}, 2:2)", f"composition({cm}, Layout<_2,_2>{{}})",
         lambda: sc.composition(m, _lay("2:2"))),
        (f"composition(8:1, {M})", f"composition(Layout<_8,_1>{{}}, {cm})",
         lambda: sc.composition(_lay("8:1"), m)),
        (f"logical_divide(8:1, {M})", f"logical_divide(Layout<_8,_1>{{}}, {cm})",
         lambda: sc.logical_divide(_lay("8:1"), m)),
        (f"{M2}(3)", f"{cm2}(Int<3>{{}})", lambda: m2(3)),
        (f"{M2}(((), 3))", f"{cm2}(make_coord(make_coord(), Int<3>{{}}))", lambda: m2(((), 3))),
        (f"get<0>({M})", f"get<0>({cm})", lambda: sc.get(m, 0)),
        (f"upcast<2>({M2})", f"upcast<2>({cm2})", lambda: sc.upcast(m2, 2)),
        (f"downcast<2>({M})", f"downcast<2>({cm})", lambda: sc.downcast(m, 2)),
        (f"complement({M2}, 16)", f"complement({cm2}, Int<16>{{}})", lambda: sc.complement(m2, 16)),
        (f"logical_product({M}, 2:1)", f"logical_product({cm}, Layout<_2,_1>{{}})",
         lambda: sc.logical_product(m, _lay("2:1"))),
        (f"logical_product(2:1, {M})", f"logical_product(Layout<_2,_1>{{}}, {cm})",
         lambda: sc.logical_product(_lay("2:1"), m)),
        (f"blocked_product({L}, {E})", f"blocked_product({cl}, {ce})", lambda: sc.blocked_product(l, e)),
        (f"max_common_vector({M}, {M})", f"max_common_vector({cm}, {cm})", lambda: sc.max_common_vector(m, m)),
        (f"nullspace({M2})", f"nullspace({cm2})", lambda: sc.nullspace(m2)),
        (f"coalesce({M}, (1,1))", f"coalesce({cm}, make_shape(Int<1>{{}}, Int<1>{{}}))",
         lambda: sc.coalesce(m, (1, 1))),
        (f"tile_to_shape({M}, (1,8))", f"tile_to_shape({cm}, make_shape(Int<1>{{}}, Int<8>{{}}))",
         lambda: sc.tile_to_shape(m, (1, 8))),
        (f"make_layout_like({M2})", f"make_layout_like({cm2})", lambda: sc.make_layout_like(m2)),
        (f"filter_zeros({M2})", f"filter_zeros({cm2})", lambda: sc.filter_zeros(m2)),
        (f"{M2}.with_shape(2,2)", f"{cm2}.with_shape(Int<2>{{}}, Int<2>{{}})", lambda: m2.with_shape(2, 2)),
    ]
    return [Case(f"empty#{i}", "empty", text, cpp, fn) for i, (text, cpp, fn) in enumerate(rows)]
