"""CuTe's operations on Formulas: the core result, expressed over the input's named digits.

Each function computes its value with :mod:`symcute.core` (``result.layout``
is exactly the core result) and then names the result's sub-axes:

==================  ========================================================
operation           the result's sub-axes are named after ...
==================  ========================================================
right_inverse(F)    the digits of F each mode lands on (G's input digits are
                    F's output digits): ``t1, v1, wm, v0, t0, v2`` for the seed
left_inverse(F)     F's codomain digits, gaps named ``g0, g1, ...``
composition(F, G)   G's digits when G is a Formula (split where CuTe splits
                    them: ``m`` -> ``m0, m1, m2``), with ``aliases`` giving the
                    digit of F each one lands on (``m0 -> t1``); when G is a
                    plain layout, directly after the digits of F they land on
with_shape(F, s)    as composition with ``make_layout(s)``; pass
                    ``names=("m","k")`` to name the new coordinates
coalesce(F)         F's digits (a merged mode holds several)
upcast(F, N)        F's digits that survive the division; ``.steps`` holds the
                    per-mode ``ceil_div`` arithmetic
downcast(F, N)      F's digits, plus ``<mode>_lo`` for the new low digit of a
                    stride-1 mode
complement(F, n)    the gaps of F's codomain, ``g0, g1, ...``
logical_divide,     composition with ``(tiler, complement(tiler))``; tile
zipped_divide       digits named by the tiler Formula, or after F's digits
logical_product     F's digits, then the repeats named after the gaps of F's
                    codomain (or after the tiler Formula's names)
==================  ========================================================

When a result's modes do not decompose over the named chain (no common
refinement exists), they get default names (``y`` + mode path) instead.

A swizzled formula (``Sw o O o L``) goes through composition, with_shape,
coalesce, the divides and logical_product as CuTe's ComposedLayout overloads
do: the operation applies to ``L`` (names flowing as above) and the swizzle
and offset stay.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core import int_tuple as it
from ..core import (
    Layout, Underscore, coalesce as core_coalesce, complement as core_complement,
    composition as core_composition, cosize, downcast as core_downcast, left_inverse as core_left_inverse,
    logical_divide as core_logical_divide, logical_product as core_logical_product,
    make_layout as core_make_layout, right_inverse as core_right_inverse, upcast as core_upcast,
    zipped_divide as core_zipped_divide,
)
from ..core.composed import ComposedLayout, composition3
from ..core.recast import check_n, upcast_mode, upcast_modes
from ..core.swizzle import Swizzle
from ..core.tiler import zip2_by
from ..errors import LayoutError, SymcuteError
from .digits import Landing, split_points
from .formula import Formula, formula
from .names import default_names, split_names, unique_name
from .swizzled import SwizzledFormula
from .naming import Chain, codomain_chain, input_chain, land_modes, name_modes, piece_names, leaf_items
from .table import Table

__all__ = [
    "composition", "with_shape", "right_inverse", "left_inverse", "coalesce", "upcast", "downcast",
    "complement", "logical_divide", "zipped_divide", "logical_product", "make_layout", "upcast_axes",
    "UpcastAxis",
]


def _f(x, what: str) -> Formula:
    if isinstance(x, Formula):
        return x
    if isinstance(x, Layout):
        return formula(x)
    raise SymcuteError(f"{what}: {x!r} is not a layout or a formula")


def _through_swizzle(fn):
    """CuTe's ComposedLayout overload ``A o O o fn(B, ...)`` (``layout_composed.hpp``) on a swizzled formula.

    The operation runs on the domain's Formula, so the names flow as for a plain
    layout; the swizzle and the offset stay (``core.composed.through_layout_b``).
    """
    import functools

    @functools.wraps(fn)
    def op(f, *args, **kwargs):
        if isinstance(f, (ComposedLayout, Swizzle)):
            f = formula(f)
        if not isinstance(f, SwizzledFormula):
            return fn(f, *args, **kwargs)
        L = f.layout
        if not isinstance(L, ComposedLayout) or not isinstance(L.inner, Layout):
            raise SymcuteError(f"{fn.__name__}: {L} is not a swizzle over a plain layout (Sw o O o L)")
        g = fn(f.domain, *args, **kwargs)
        out = composition3(L.outer, L.offset, g.layout)
        return g if isinstance(out, Layout) else SwizzledFormula(out, g)
    return op


def _names(f: Formula) -> set:
    return {a.name for a in f.axes} | set(f.leaf_labels)


def _fallback(layout: Layout, op: str, prefix: str = "y", **kw) -> Formula:
    f = formula(layout, default_names(layout.shape, prefix))
    return Formula(layout, f.leaf_digits(), f.leaf_labels, op=op, **kw)


# --- composition ----------------------------------------------------------------

@_through_swizzle
def composition(lhs, rhs, names=None) -> Formula:
    """CuTe's ``composition(lhs, rhs)`` over named digits.

    ``rhs``: a Formula (its names name the result), a Layout (the result is
    named after the digits of ``lhs`` it lands on), an int, ``_`` or a tuple
    tiler of those (mode by mode, as CuTe).  ``names`` names a Layout ``rhs``.
    @post result.layout == core.composition(lhs.layout, rhs.layout)
    @post result.aliases[d] is the digit of lhs that sub-axis d steps through (when it differs)
    """
    f = _f(lhs, "composition")
    if isinstance(rhs, tuple):
        if len(rhs) > f.layout.rank:
            core_composition(f.layout, _layouts(rhs))  # raises CuTe's error
        modes = [composition(f[i], r) for i, r in enumerate(rhs)]
        result = make_layout(*modes)
        _check(result, core_composition(f.layout, _layouts(rhs)), "composition")
        return result
    if isinstance(rhs, Underscore):
        return f
    if isinstance(rhs, int) and not isinstance(rhs, bool):
        rhs = Layout(rhs)
    if isinstance(rhs, Layout) and names is not None:
        rhs = formula(rhs, names)
    if isinstance(rhs, Formula):
        return _compose(f, rhs, user_named=True)
    if isinstance(rhs, Layout):
        return _compose(f, formula(rhs, default_names(rhs.shape, "y")), user_named=False)
    raise SymcuteError(f"composition: right-hand side {rhs!r} is not a layout, a formula, an int, _ or a tuple")


@_through_swizzle
def with_shape(f, *shape, names=None) -> Formula:
    """``composition(f, make_layout(shape))`` (CuTe's ``Layout::with_shape``).

    ``names`` names the new coordinates (``names=("m","k")`` gives the seed's
    ``m0, m1, m2`` / ``k0, k1, k2``); without it the result is named after the
    digits of ``f`` its modes land on.
    """
    s = shape[0] if len(shape) == 1 else tuple(shape)
    return composition(f, Layout(s), names=names)


def _compose(f: Formula, g: Formula, user_named: bool) -> Formula:
    result = core_composition(f.layout, g.layout)
    gchain = input_chain(g)
    # 1. the result's modes are digits of g's input space: land them on g's digits
    pieces = land_modes(leaf_items(result, "weight"), gchain)
    if pieces is None:
        return _fallback(result, "composition")
    fchain = input_chain(f)
    taken = _names(f) | _names(g)
    # 2. each piece reaches f's input through g's stride: land it on f's digits (mutual refinement)
    final = []  # per result mode: list of (g target, position in g digit, extent, f-landings or None)
    for ps in pieces:
        digits = []
        for p in ps:
            g_axis = p.target
            g_stride = _chain_stride(g, gchain, g_axis) * p.step
            sub = land_modes([(p.extent, g_stride)], fchain) if g_stride >= 0 else None
            if sub is None or not sub[0]:
                digits.append((g_axis, p.step, p.extent, None))
                continue
            for q in sub[0]:
                digits.append((g_axis, p.step * q.sub, q.extent, q))
        final.append(digits)
    # 3. name the final digits after g's digits (split where needed)
    g_pieces = [Landing(d[0], d[1], d[2], 1) for ds in final for d in ds]
    g_points = split_points(g_pieces, gchain.extents)
    if g_points is None:
        return _fallback(result, "composition")
    g_names = {j: dict(zip(pts, split_names(gchain.names[j], len(pts) - 1, taken))) for j, pts in g_points.items()}
    own = [[g_names[d[0]][d[1]] for d in ds] for ds in final]
    # 4. aliases: the digit of f each final digit steps through (split names of f's digits)
    f_land = [d[3] for ds in final for d in ds]
    aliases = {}
    if all(q is not None and q.target is not None for q in f_land):
        f_names = piece_names([[q] for q in f_land], fchain, taken)
        if f_names is not None:
            flat_own = [n for ns in own for n in ns]
            aliases = {n: fn[0] for n, fn in zip(flat_own, f_names)}
    if not user_named and aliases and len(set(aliases.values())) == len(aliases):
        own = [[aliases[n] for n in ns] for ns in own]
        aliases = {}
    leaf_digits = [[(n, d[2]) for n, d in zip(ns, ds)] for ns, ds in zip(own, final)]
    aliases = {k: v for k, v in aliases.items() if k != v}
    return Formula(result, leaf_digits, aliases=aliases, op="composition")


def _chain_stride(f: Formula, chain: Chain, j: int) -> int:
    """Output stride of chain digit ``j`` of ``f``'s input chain (the unbounded tail: the last mode's)."""
    if j < len(f.axes):
        return f.axes[j].stride
    return it.flatten_to_tuple(f.layout.stride)[-1]


def _layouts(t):
    if isinstance(t, tuple):
        return tuple(_layouts(x) for x in t)
    if isinstance(t, Formula):
        return t.layout
    return t


# --- inverses -------------------------------------------------------------------------

def right_inverse(f) -> Formula:
    """CuTe's ``right_inverse`` over F's digits: each input digit of G is the digit of F it selects.

    For the seed, ``G = 4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2``: G's input
    digits are F's output digits (t1 has q-stride 1 in F, so it is G's lowest
    digit), and the coefficients are F's input weights (its TV weights).
    @post result.layout == core.right_inverse(f.layout)
    """
    f = _f(f, "right_inverse")
    result = core_right_inverse(f.layout)
    digits = name_modes(result, input_chain(f), "stride", _names(f))
    if digits is None:
        return _fallback(result, "right_inverse")
    return Formula(result, digits, op="right_inverse")


def left_inverse(f) -> Formula:
    """CuTe's ``left_inverse`` over F's codomain digits (gaps of the codomain named ``g0, g1, ...``).

    @post result.layout == core.left_inverse(f.layout)
    """
    f = _f(f, "left_inverse")
    result = core_left_inverse(f.layout)
    chain = codomain_chain(f, _names(f))
    digits = name_modes(result, chain, "weight", _names(f)) if chain is not None else None
    if digits is None:
        return _fallback(result, "left_inverse")
    return Formula(result, digits, op="left_inverse")


# --- coalesce, complement -----------------------------------------------------------------

@_through_swizzle
def coalesce(f, profile=None) -> Formula:
    """CuTe's ``coalesce``: the same digits, grouped into fewer modes.

    @post result.layout == core.coalesce(f.layout, profile); str(result) == str(f)
    """
    f = _f(f, "coalesce")
    result = core_coalesce(f.layout, profile)
    digits = name_modes(result, input_chain(f), "weight", _names(f))
    if digits is None:
        return _fallback(result, "coalesce")
    return Formula(result, digits, op="coalesce")


def complement(f, cotarget=None) -> Formula:
    """CuTe's ``complement``: its modes fill the gaps of F's codomain, named ``g0, g1, ...``.

    @post result.layout == core.complement(f.layout, cotarget)
    """
    f = _f(f, "complement")
    result = core_complement(f.layout, cotarget)
    chain = codomain_chain(f, _names(f))
    digits = name_modes(result, chain, "stride", _names(f)) if chain is not None else None
    if digits is None or any(n in {a.name for a in f.axes} for ds in digits for n, _ in ds):
        return _fallback(result, "complement", prefix="c")
    return Formula(result, digits, op="complement")


# --- upcast, downcast ------------------------------------------------------------------

def _recast_swizzled(core_op):
    """``upcast``/``downcast`` of a swizzled formula: core's value; when the swizzle survives unchanged (the
    smem_ptr flag keeps it, as ``pointer_flagged.hpp``) the domain is the symbolic result, names kept."""
    import functools

    def deco(fn):
        @functools.wraps(fn)
        def op(f, n):
            if isinstance(f, (ComposedLayout, Swizzle)):
                f = formula(f)
            if not isinstance(f, SwizzledFormula):
                return fn(f, n)
            value = core_op(f.layout, n)
            if isinstance(value, ComposedLayout) and isinstance(f.layout, ComposedLayout) \
                    and value.outer == f.layout.outer and isinstance(f.layout.inner, Layout):
                g = fn(f.domain, n)
                if g.layout == value.inner:
                    return SwizzledFormula(value, g)
            return formula(value)
        return op
    return deco


@_recast_swizzled(core_upcast)
def upcast(f, n: int) -> Formula:
    """CuTe's ``upcast<N>``: per mode ``(ceil_div(s, ceil_div(N, d)) : ceil_div(d, N))``.

    The surviving digits keep their names (the digits absorbed into one group
    of N disappear); ``result.steps`` is the per-sub-axis arithmetic table of
    the seed (old shape, old stride, ``ceil_div(N, stride)``, new shape, new stride).
    @post result.layout == core.upcast(f.layout, n)
    """
    f = _f(f, "upcast")
    result = core_upcast(f.layout, n)
    groups = f.leaf_digits()
    taken = _names(f)
    leaf_digits, rows = [], []
    for k, (s, d, per_group, s2, d2) in enumerate(upcast_modes(f.layout, n)):   # core's rows, per flat mode
        label = f.leaf_labels[k]
        if d == 0:
            leaf_digits.append(groups[k] if s2 == s else [])
            if s > 1:
                rows.append([label, s, d, "-", f"{s2} (stride 0 kept)", d2])
            continue
        if per_group is None:   # a run-time stride: CuTe keeps the extent; its digits are cut as a static one's
            per_group = upcast_mode(s, int(d), n).per_group
        kept = _upper_digits(groups[k], per_group, s2, label, taken)
        leaf_digits.append(kept)
        if s > 1:
            rows.append([label, s, d, f"ceil_div({n},{abs(d)})={per_group}", f"ceil_div({s},{per_group})={s2}",
                         f"ceil_div({abs(d)},{n})={abs(d2)}" if d > 0 else f"-ceil_div({abs(d)},{n})={d2}"])
    steps = Table(["sub-axis", "shape", "stride", "per group", "new shape", "new stride"], rows,
                  title=f"upcast<{n}>")
    return Formula(result, leaf_digits, list(f.leaf_labels), steps=steps, op="upcast")


class UpcastAxis(NamedTuple):
    """One sub-axis of a formula through ``upcast<N>``: core's per-mode arithmetic
    (:class:`~symcute.core.recast.UpcastMode`) applied to that sub-axis alone, the seed's table row."""
    axis: str
    shape: int
    stride: int
    per_group: int | None     # ceil_div(N, |stride|); None for stride 0
    new_shape: int            # ceil_div(shape, per_group)
    new_stride: int           # sign(stride) * ceil_div(|stride|, N)


def upcast_axes(f, n: int) -> tuple:
    """The per-sub-axis refinement of ``upcast<N>(f)``: one :class:`UpcastAxis` per sub-axis of ``f``.

    Where every flat mode is one sub-axis the rows are core's :func:`~symcute.core.recast.upcast_modes`
    (named); a mode split into several sub-axes gets one row per sub-axis, each with its own stride (the
    Divisibility condition is CuTe's, per mode: :func:`upcast` checks it).
    @pre n is a positive integer
    @post len(result) == len(f.axes) and result[k].axis == f.axes[k].name
    """
    check_n(n, "upcast")
    f = _f(f, "upcast")
    return tuple(UpcastAxis(a.name, *upcast_mode(a.extent, a.stride, n)) for a in f.axes)


def _upper_digits(digits, per_group: int, new_extent: int, label: str, taken: set) -> list:
    """The digits of a mode above sub-weight ``per_group`` (a digit cut in two keeps its upper split)."""
    if new_extent == 1:
        return []
    out, sub = [], 1
    for name, e in digits:
        if sub * e <= per_group:
            pass
        elif sub >= per_group:
            out.append((name, e))
        elif per_group % sub == 0 and e % (per_group // sub) == 0:
            out.append((split_names(name, 2, taken)[1], e // (per_group // sub)))
        else:
            out = None
            break
        sub *= e
    if out is None or it.product(tuple(e for _, e in out)) != new_extent:
        base = digits[-1][0] if digits else label
        return [(unique_name(f"{base}_up", taken), new_extent)]
    return out


@_recast_swizzled(core_downcast)
def downcast(f, n: int) -> Formula:
    """CuTe's ``downcast<N>``: a stride-1 mode gains a low digit ``<mode>_lo`` of extent N.

    @post result.layout == core.downcast(f.layout, n)
    """
    f = _f(f, "downcast")
    result = core_downcast(f.layout, n)
    old_s, old_d = it.flatten_to_tuple(f.layout.shape), it.flatten_to_tuple(f.layout.stride)
    new_s, new_d = it.flatten_to_tuple(result.shape), it.flatten_to_tuple(result.stride)
    groups = f.leaf_digits()
    taken = set(_names(f))
    leaf_digits, rows = [], []
    for k, (s, d, s2, d2) in enumerate(zip(old_s, old_d, new_s, new_d)):
        label = f.leaf_labels[k]
        if s2 != s:
            base = groups[k][0][0] if groups[k] else label
            lo = unique_name(f"{base}_lo", taken)
            taken.add(lo)
            leaf_digits.append([(lo, s2 // s)] + list(groups[k]))
        else:
            leaf_digits.append(groups[k])
        if s2 > 1:
            rows.append([label, s, d, s2, d2])
    steps = Table(["sub-axis", "shape", "stride", "new shape", "new stride"], rows, title=f"downcast<{n}>")
    return Formula(result, leaf_digits, list(f.leaf_labels), steps=steps, op="downcast")


# --- make_layout, divides and products ---------------------------------------------------

def make_layout(*formulas) -> Formula:
    """Concatenate Formulas into one (CuTe's ``make_layout(a, b, ...)``); clashing names get a suffix."""
    fs = [_f(x, "make_layout") for x in formulas]
    layout = core_make_layout(*[x.layout for x in fs])
    leaf_digits, labels, aliases, taken = [], [], {}, set()
    for x in fs:
        rename = {}
        for a in x.axes:
            if a.name in taken:
                rename[a.name] = unique_name(a.name, taken | {b.name for b in x.axes})
            taken.add(rename.get(a.name, a.name))
        for ds in x.leaf_digits():
            leaf_digits.append([(rename.get(nm, nm), e) for nm, e in ds])
        labels += [rename.get(lb, lb) for lb in x.leaf_labels]
        aliases.update({rename.get(k, k): v for k, v in x.aliases.items()})
    return Formula(layout, leaf_digits, labels, aliases=aliases, op="make_layout")


@_through_swizzle
def logical_divide(f, tiler) -> Formula:
    """CuTe's ``logical_divide``: ``composition(f, make_layout(tiler, complement(tiler, shape(coalesce(f)))))``.

    @post result.layout == core.logical_divide(f.layout, tiler)
    """
    f = _f(f, "logical_divide")
    expected = core_logical_divide(f.layout, _layouts(tiler))
    if isinstance(tiler, (Layout, Formula)):
        t = tiler if isinstance(tiler, Formula) else formula(tiler, default_names(tiler.shape, "y"))
        rest = complement(t, core_coalesce(f.layout).shape)
        rhs = make_layout(t, rest)
        result = _compose(f, rhs, user_named=isinstance(tiler, Formula))
    else:
        result = _by_mode(f, tiler, logical_divide)
    _check(result, expected, "logical_divide")
    return Formula(result.layout, result.leaf_digits(), result.leaf_labels, aliases=result.aliases,
                   op="logical_divide")


@_through_swizzle
def zipped_divide(f, tiler) -> Formula:
    """CuTe's ``zipped_divide``: ``((tile modes), (rest modes))``, the digits of logical_divide regrouped.

    @post result.layout == core.zipped_divide(f.layout, tiler)
    """
    f = _f(f, "zipped_divide")
    divided = logical_divide(f, tiler)
    expected = core_zipped_divide(f.layout, _layouts(tiler))
    n = len(divided.leaf_labels)
    ids = it.unflatten(tuple(range(n)), divided.layout.shape)
    order = it.flatten_to_tuple(zip2_by(ids, _layouts(tiler)) if isinstance(tiler, tuple) else ids)
    groups = divided.leaf_digits()
    result = Formula(expected, [groups[k] for k in order], [divided.leaf_labels[k] for k in order],
                     aliases=divided.aliases, op="zipped_divide")
    return result


@_through_swizzle
def logical_product(f, tiler) -> Formula:
    """CuTe's ``logical_product``: ``(f, composition(complement(f, size(f)*cosize(tiler)), tiler))``.

    The repeats are named after the gaps of f's codomain they fill (or by a
    tiler Formula's names, with aliases to those gaps).
    @post result.layout == core.logical_product(f.layout, tiler)
    """
    f = _f(f, "logical_product")
    expected = core_logical_product(f.layout, _layouts(tiler))
    if isinstance(tiler, (Layout, Formula)):
        t_layout = tiler.layout if isinstance(tiler, Formula) else tiler
        rest = complement(f, f.size() * cosize(t_layout))
        repeats = composition(rest, tiler)
        clash = {a.name for a in repeats.axes} & {a.name for a in f.axes}
        if clash and isinstance(tiler, Formula):
            raise SymcuteError(f"logical_product: tiler names {sorted(clash)} are already names of the block")
        result = make_layout(f, repeats)
    else:
        result = _by_mode(f, tiler, logical_product)
    _check(result, expected, "logical_product")
    return Formula(result.layout, result.leaf_digits(), result.leaf_labels, aliases=result.aliases,
                   op="logical_product")


def _by_mode(f: Formula, tiler, op) -> Formula:
    if isinstance(tiler, Underscore):
        return f
    if isinstance(tiler, int) and not isinstance(tiler, bool):
        return op(f, Layout(tiler))
    if isinstance(tiler, tuple):
        if len(tiler) > f.layout.rank:
            raise LayoutError(f"Too many modes in tiler: {len(tiler)} modes for layout {f.layout} "
                              f"of rank {f.layout.rank}")
        modes = [op(f[i], t) for i, t in enumerate(tiler)] + [f[i] for i in range(len(tiler), f.layout.rank)]
        return make_layout(*modes)
    raise SymcuteError(f"tiler {tiler!r} is not a layout, a formula, an int, _ or a tuple of those")


def _check(result: Formula, expected: Layout, op: str) -> None:
    """The formula-level construction must give exactly the core value (it is a bug otherwise)."""
    if result.layout != expected:
        raise AssertionError(f"symbolic {op} built {result.layout}, core computes {expected}")
