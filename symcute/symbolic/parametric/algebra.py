"""CuTe's layout algebra over static and dynamic integers, following CuTe's run-time code paths.

Each function mirrors its ``cute/layout.hpp`` namesake branch for branch: the
branches are taken on what CuTe's *types* know (``is_static``,
``is_constant<1>``), never on run-time values, so the result's structure is
CuTe's for every value of the parameters and only its dynamic leaves are
closed forms.  The checks CuTe makes with ``static_assert`` on static values
raise :class:`LayoutError` in CuTe's words; the ones CuTe leaves to a disabled
run-time ``assert`` on dynamic values (the Stride and Shape Divisibility
Conditions) must be *proved* from the side conditions, or the operation is
refused with the missing condition named: otherwise CuTe's value would not be
the layout the operation promises for some admissible parameters.
"""

from __future__ import annotations

from functools import wraps

from .lazy_sympy import sympy

from ...core import Layout
from ...core.layout import Underscore
from ...errors import LayoutError
from . import values as V
from .layout import ParamLayout, compact_col_major, lift, _leaves
from .printing import show_expr, show_tree

# --- tuple helpers ----------------------------------------------------------------------------


def _flatten(t) -> tuple:
    return tuple(_leaves(t)) if type(t) is tuple else (t,)


def _get(t, i):
    if type(t) is tuple:
        return t[i]
    if i != 0:
        raise LayoutError(f"mode {i} of a rank-1 layout")
    return t


def _rank(t) -> int:
    return len(t) if type(t) is tuple else 1


def _product(t):
    out = 1
    for x in _leaves(t):
        out = V.mul(out, x)
    return out


def _unwrap(t):
    return t[0] if type(t) is tuple and len(t) == 1 else t


def _show(t) -> str:
    e = V.env()
    return show_tree(t, lambda x: str(x) if type(x) is int else show_expr(e.params.user(x)))


def _lshow(shape, stride) -> str:
    return _show(shape) + ":" + _show(stride)


# --- operation wrapper ---------------------------------------------------------------------------

def _params_of(args):
    """The operands' parameters; a bare expression's symbols are looked up only if no layout declares them."""
    ps, loose = None, set()

    def walk(x):
        nonlocal ps
        if isinstance(x, ParamLayout):
            ps = x.params if ps is None else ps.union(x.params)
        elif isinstance(x, (tuple, list)):
            for y in x:
                walk(y)
        elif isinstance(x, sympy.Basic):
            loose.update(x.free_symbols)
    walk(args)
    if ps is not None:
        loose = {s for s in loose if s not in set(ps)}
    if loose:
        from .registry import params_of
        extra = params_of(loose)
        ps = extra if ps is None else ps.union(extra)
    return ps


def _conds_of(args, acc):
    for a in args:
        if isinstance(a, ParamLayout):
            for c in a.conditions:
                if c not in acc:
                    acc.append(c)
        elif isinstance(a, tuple):
            _conds_of(a, acc)
    return acc


def operation(name):
    """Run ``f`` on (shape, stride) pairs under its operands' parameters; the result keeps the facts used."""
    def deco(f):
        @wraps(f)
        def run(*args, **kw):
            ps = _params_of(args)
            if ps is None:
                from .conditions import Params
                ps = Params(())
            with V.using(ps) as e:
                shape, stride = f(*args, **kw)
                conds = _conds_of(args, [])
                for u in e.used:
                    if u not in conds:
                        conds.append(u)
                return ParamLayout(shape, stride, e.params, tuple(conds))
        run.cute_name = name
        return run
    return deco


def _pair(x, where: str):
    """``(shape, stride)`` of a layout argument: a ParamLayout, a core Layout (static) or a static int ``n:1``."""
    if isinstance(x, ParamLayout):
        return x.shape, x.stride
    if isinstance(x, Layout):
        return x.shape, x.stride
    if type(x) is int:
        return x, (0 if x == 1 else 1)   # make_layout(Int<n>{}) = n:_1 (_1:_0)
    raise LayoutError(f"{where}: {x!r} is not a layout")


# --- coalesce ---------------------------------------------------------------------------------------

def _bw_coalesce(old_shape, old_stride, new_shape, new_stride):
    """``detail::bw_coalesce`` from the last mode to the first."""
    for i in range(len(old_shape) - 2, -1, -1):
        s, d = old_shape[i], old_stride[i]
        if V.is_constant(1, s):
            continue
        if V.is_constant(1, new_shape):
            new_shape, new_stride = s, d
            continue
        front_shape = new_shape[0] if type(new_shape) is tuple else new_shape
        front_stride = new_stride[0] if type(new_stride) is tuple else new_stride
        if V.is_static(front_shape) and V.static_eq(V.mul(s, d), front_stride):
            merged = V.mul(s, front_shape)
            if type(new_shape) is tuple:
                new_shape, new_stride = (merged,) + new_shape[1:], (d,) + new_stride[1:]
            else:
                new_shape, new_stride = merged, d
            continue
        if type(new_shape) is tuple:
            new_shape, new_stride = (s,) + new_shape, (d,) + new_stride
        else:
            new_shape, new_stride = (s, new_shape), (d, new_stride)
    if V.is_constant(1, new_shape):
        return 1, 0
    return new_shape, new_stride


def _coalesce(shape, stride):
    fs, fd = _flatten(shape), _flatten(stride)
    return _bw_coalesce(fs, fd, fs[-1], fd[-1])


def _coalesce_x(shape, stride, profile=None):
    if type(profile) is tuple:
        if len(profile) > _rank(shape):
            raise LayoutError("coalesce: the profile has more modes than the layout")
        modes = [_coalesce_x(_get(shape, i), _get(stride, i), p) for i, p in enumerate(profile)]
        extra = [(_get(shape, i), _get(stride, i)) for i in range(len(profile), _rank(shape))]
        modes += extra
        return tuple(m[0] for m in modes), tuple(m[1] for m in modes)
    fs, fd = _flatten(shape), _flatten(stride)
    if V.is_constant(1, fs[-1]):
        return _bw_coalesce(fs, fd, 2, fd[-1])
    return _bw_coalesce(fs, fd, fs[-1], fd[-1])


def _coalesce_profile(shape, stride, profile):
    if type(profile) is tuple:
        if len(profile) > _rank(shape):
            raise LayoutError("coalesce: the profile has more modes than the layout")
        modes = [_coalesce_profile(_get(shape, i), _get(stride, i), p) for i, p in enumerate(profile)]
        modes += [(_get(shape, i), _get(stride, i)) for i in range(len(profile), _rank(shape))]
        return tuple(m[0] for m in modes), tuple(m[1] for m in modes)
    return _coalesce(shape, stride)


@operation("coalesce")
def coalesce(layout, profile=None):
    """CuTe's ``coalesce``: merges modes only where CuTe's types prove ``s0*d0 == d1`` (static)."""
    s, d = _pair(layout, "coalesce")
    if profile is not None:
        return _coalesce_profile(s, d, profile)
    return _coalesce(s, d)


def _filter_zeros(stride, shape):
    if type(stride) is tuple:
        return tuple(_filter_zeros(a, b) for a, b in zip(stride, shape))
    if V.is_constant(0, stride):
        return _repeat_like(shape, 1)
    return shape


def _repeat_like(t, x):
    return tuple(_repeat_like(y, x) for y in t) if type(t) is tuple else x


def _filter(shape, stride):
    return _coalesce(_filter_zeros(stride, shape), stride)


@operation("filter")
def filter(layout):
    """CuTe's ``filter``: ``coalesce(filter_zeros(layout))`` (only static-0 strides are zeros)."""
    return _filter(*_pair(layout, "filter"))


# --- composition --------------------------------------------------------------------------------------

def _composition_impl(lshape, lstride, rshape, rstride, where):
    if type(rshape) is tuple:
        pairs = [_composition_impl(lshape, lstride, s, d, where) for s, d in zip(rshape, rstride)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if V.is_constant(0, rstride):
        return rshape, rstride
    if type(lshape) is not tuple:
        return rshape, V.mul(rstride, lstride)
    e = V.env()
    result_shape, result_stride = [], []
    rest_shape, rest_stride = rshape, rstride
    R = len(lshape)
    for i in range(R - 1):
        curr_shape, curr_stride = lshape[i], lstride[i]
        if V.is_static(curr_shape) and V.is_static(rest_stride):
            if not (V.mod(rest_stride, curr_shape) == 0 or rest_stride < curr_shape):
                raise LayoutError(f"{where}: Stride Divisibility Condition violated: stride {rest_stride} is "
                                  f"neither divisible by nor less than shape {curr_shape}")
        else:
            # CuTe's run-time assert is disabled; the value is a layout only if it holds
            fact = sympy.Or(V.divides_fact(curr_shape, V.cabs(rest_stride)), V.less_fact(V.cabs(rest_stride), curr_shape))
            e.require(fact, f"{where}: Stride Divisibility Condition",
                      f"{_show(rest_stride)} divisible by or less than {_show(curr_shape)}")
        a = V.cabs(rest_stride)
        next_shape = V.ceil_div(curr_shape, a)
        next_stride = V.mul(V.ceil_div(a, curr_shape), V.signum(rest_stride))
        if V.is_constant(1, next_shape) or V.is_constant(1, rest_shape):
            rest_stride = next_stride
            continue
        new_shape = V.cmin(next_shape, rest_shape)
        if V.is_static(new_shape) and V.is_static(rest_shape):
            if rest_shape % new_shape != 0:
                raise LayoutError(f"{where}: Shape Divisibility Condition violated: shape {rest_shape} is not "
                                  f"divisible by {new_shape}")
        else:
            e.require(V.divides_fact(new_shape, rest_shape), f"{where}: Shape Divisibility Condition",
                      f"{_show(rest_shape)} divisible by {_show(new_shape)}")
        result_shape.append(new_shape)
        result_stride.append(V.mul(rest_stride, curr_stride))
        rest_shape = V.div(rest_shape, new_shape, where)
        rest_stride = next_stride
    if not result_shape:
        return rest_shape, V.mul(rest_stride, lstride[R - 1])
    if V.is_constant(1, rest_shape):
        return _unwrap(tuple(result_shape)), _unwrap(tuple(result_stride))
    result_shape.append(rest_shape)
    result_stride.append(V.mul(rest_stride, lstride[R - 1]))
    return tuple(result_shape), tuple(result_stride)


def _composition(lshape, lstride, rhs, where):
    """``composition(lhs, rhs)`` for ``rhs`` a layout pair, an int, ``_`` or a tiler tuple."""
    if isinstance(rhs, Underscore):
        return lshape, lstride
    if isinstance(rhs, tuple) and not _is_pair(rhs):
        if len(rhs) > _rank(lshape):
            raise LayoutError(f"{where}: tiler has {len(rhs)} modes but the layout has rank {_rank(lshape)}")
        modes = [_composition(_get(lshape, i), _get(lstride, i), r, where) for i, r in enumerate(rhs)]
        return tuple(m[0] for m in modes), tuple(m[1] for m in modes)
    if type(rhs) is int:
        fs, fd = _coalesce_x(lshape, lstride)
        return _composition_impl(_wrap_flat(fs), _wrap_flat(fd), rhs, 1, where)
    rs, rd = _as_pair(rhs, where)
    fs, fd = _coalesce_x(lshape, lstride)
    return _composition_impl(_wrap_flat(fs), _wrap_flat(fd), rs, rd, where)


def _wrap_flat(t):
    return t  # coalesce_x returns an integral or a flat tuple: composition_impl takes both


class _Pair(tuple):
    """A (shape, stride) pair standing for a layout inside a tiler tuple."""


def _is_pair(x) -> bool:
    return isinstance(x, _Pair)


def _as_pair(x, where):
    if isinstance(x, _Pair):
        return x[0], x[1]
    if isinstance(x, (ParamLayout, Layout)):
        return x.shape, x.stride
    raise LayoutError(f"{where}: {x!r} is not a layout, an int, _ or a tiler tuple")


def _tiler(t):
    """A user tiler with layouts replaced by (shape, stride) pairs (ints and ``_`` stay)."""
    if isinstance(t, (ParamLayout, Layout)):
        return _Pair((t.shape, t.stride))
    if isinstance(t, (tuple, list)) and not isinstance(t, _Pair):
        return tuple(_tiler(x) for x in t)
    if isinstance(t, bool) or not (type(t) is int or isinstance(t, Underscore) or isinstance(t, _Pair)):
        raise LayoutError(f"tiler {t!r} is not a layout, an int, _ or a tuple of those")
    return t


@operation("composition")
def composition(lhs, rhs):
    """CuTe's ``composition(lhs, rhs)``; ``rhs`` a layout, an int ``n`` (``n:1``), ``_`` or a tiler tuple."""
    s, d = _pair(lhs, "composition")
    return _composition(s, d, _tiler(rhs), f"composition({_lshow(s, d)}, ...)")


# --- complement ------------------------------------------------------------------------------------

def _complement(shape, stride, cotarget, where):
    """``detail::complement`` on a filtered layout; ``cotarget`` an IntTuple."""
    if V.is_constant(0, stride):
        cs = _coalesce_shape(cotarget)
        return cs, compact_col_major(cs)
    fs, fd = _flatten(shape), _flatten(stride)
    R = len(fs)
    if R != 1 and not V.is_static(stride):
        raise LayoutError(f"{where}: Dynamic-stride complement only for rank-1 layouts")
    shape_l, stride_l = list(fs), list(fd)
    result_shape, result_stride = [], [1]
    for i in range(R - 1):
        min_stride = min(stride_l)  # static strides (asserted above)
        min_idx = stride_l.index(min_stride)
        new_shape = V.div(min_stride, result_stride[i], where)
        new_stride = V.mul(min_stride, shape_l[min_idx])
        if V.is_constant(0, new_shape):
            raise LayoutError(f"{where}: Non-injective Layout detected in complement.")
        del shape_l[min_idx]
        del stride_l[min_idx]
        result_shape.append(new_shape)
        result_stride.append(new_stride)
    new_shape = V.div(stride_l[0], result_stride[R - 1], where)
    if V.is_constant(0, new_shape):
        raise LayoutError(f"{where}: Non-injective Layout detected in complement.")
    result_shape.append(new_shape)
    new_stride = V.mul(stride_l[0], shape_l[0])
    rest = _ceil_div_tuple(cotarget, new_stride)
    rest_shape = _coalesce_shape(rest)
    rest_stride = compact_col_major(rest_shape, new_stride)
    return _coalesce((tuple(result_shape), rest_shape), (tuple(result_stride), rest_stride))


def _ceil_div_tuple(a, b):
    """CuTe's ``ceil_div(IntTuple, int)``: folded over the modes of ``a``."""
    if type(a) is tuple:
        out = []
        rest = b
        for x in a:
            out.append(V.ceil_div(x, rest))
            rest = V.ceil_div(rest, x)
        return tuple(out)
    return V.ceil_div(a, b)


def _coalesce_shape(shape):
    """CuTe's ``coalesce(Shape)``: multiply neighbours that are both static or both dynamic."""
    flat = _flatten(shape)
    out = [flat[0]]
    for a in flat[1:]:
        if V.is_static(out[-1]) == V.is_static(a):
            out[-1] = V.mul(out[-1], a)
        else:
            out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def _cotarget_in(c, params_env):
    """A cotarget: an int (static), a parameter expression (dynamic), a layout (its shape) or a tuple."""
    if isinstance(c, (ParamLayout, Layout)):
        return c.shape
    if isinstance(c, (tuple, list)):
        return tuple(_cotarget_in(x, params_env) for x in c)
    if isinstance(c, bool):
        raise LayoutError(f"complement: cotarget {c!r} is not an integer")
    if type(c) is int:
        return c
    if isinstance(c, sympy.Basic):
        return params_env.params.inner(c)
    raise LayoutError(f"complement: cotarget {c!r} is not an integer, an expression in parameters or a shape")


@operation("complement")
def complement(layout, cotarget=None):
    """CuTe's ``complement(layout, cotarget)`` (``cosize(filter(layout))`` without one)."""
    s, d = _pair(layout, "complement")
    fs, fd = _filter(s, d)
    where = f"complement({_lshow(s, d)})"
    if cotarget is None:
        ct = _cosize(fs, fd)
    else:
        ct = _cotarget_in(cotarget, V.env())
    return _complement(fs, fd, ct, where)


def _cosize(shape, stride):
    total = 1
    for s, d in zip(_flatten(shape), _flatten(stride)):
        total = V.add(total, V.mul(V.sub(s, 1), d))
    return total


# --- divides ------------------------------------------------------------------------------------------

def _make_layout2(a, b):
    """``make_layout(layout_a, layout_b)``: the two layouts as the two modes."""
    return (a[0], b[0]), (a[1], b[1])


def _logical_divide(shape, stride, tiler, where):
    if isinstance(tiler, tuple) and not _is_pair(tiler):
        if len(tiler) > _rank(shape):
            raise LayoutError(f"{where}: Too many modes in tiler")
        modes = [_logical_divide(_get(shape, i), _get(stride, i), t, where) for i, t in enumerate(tiler)]
        modes += [(_get(shape, i), _get(stride, i)) for i in range(len(tiler), _rank(shape))]
        return tuple(m[0] for m in modes), tuple(m[1] for m in modes)
    if isinstance(tiler, Underscore):
        return shape, stride
    if type(tiler) is int:
        tiler = _Pair((tiler, 0 if tiler == 1 else 1))
    ts, td = _as_pair(tiler, where)
    cs, _ = _coalesce(shape, stride)
    fs, fd = _filter(ts, td)
    rest = _complement(fs, fd, cs, where)
    return _composition(shape, stride, _Pair(_make_layout2((ts, td), rest)), where)


@operation("logical_divide")
def logical_divide(layout, tiler):
    """CuTe's ``logical_divide``: ``composition(layout, make_layout(tiler, complement(tiler, shape(coalesce(layout)))))``."""
    s, d = _pair(layout, "logical_divide")
    return _logical_divide(s, d, _tiler(tiler), f"logical_divide({_lshow(s, d)}, ...)")


def _zip2_by(t, guide):
    if isinstance(guide, tuple) and not _is_pair(guide):
        if type(t) is not tuple or len(t) < len(guide):
            raise LayoutError("zip2_by: Mismatched ranks")
        split = [_zip2_by(t[i], g) for i, g in enumerate(guide)]
        return (tuple(s[0] for s in split), tuple(s[1] for s in split) + t[len(guide):])
    if type(t) is not tuple or len(t) != 2:
        raise LayoutError("zip2_by: Mismatched ranks")
    return t


def _zipped(shape, stride, tiler):
    return _zip2_by(shape, tiler), _zip2_by(stride, tiler)


def _arranged(logical, name, layout, tiler, first: bool, second: bool):
    """CuTe's zipped/tiled/flat arrangements of a logical divide or product (``layout.hpp``): ``zip2_by`` the
    result by the tiler, then unpack the tile mode (``first``) and the rest mode (``second``) into the top."""
    s, d = _pair(layout, name)
    t = _tiler(tiler)
    zs, zd = _zipped(*logical(s, d, t, f"{name}({_lshow(s, d)}, ...)"), t)
    return _unpack(zs, zd, first, second) if first or second else (zs, zd)


@operation("zipped_divide")
def zipped_divide(layout, tiler):
    """``((TILE_0, TILE_1, ...), (REST_0, REST_1, ...))``."""
    return _arranged(_logical_divide, "zipped_divide", layout, tiler, False, False)


def _unpack(shape, stride, first: bool, second: bool):
    """``result(_, repeat<R1>(_))`` / ``result(repeat<R0>(_), repeat<R1>(_))``: unpack modes into the top level."""
    out_s, out_d = [], []
    for k, (s, d) in enumerate(zip(shape, stride)):
        if (k == 0 and first) or (k == 1 and second):
            if type(s) is tuple and len(s) > 1:
                out_s.extend(s)
                out_d.extend(d)
            else:
                out_s.append(s)
                out_d.append(d)
        else:
            out_s.append(s)
            out_d.append(d)
    return tuple(out_s), tuple(out_d)


@operation("tiled_divide")
def tiled_divide(layout, tiler):
    """``((TILE_0, TILE_1, ...), REST_0, REST_1, ...)``."""
    return _arranged(_logical_divide, "tiled_divide", layout, tiler, False, True)


@operation("flat_divide")
def flat_divide(layout, tiler):
    """``(TILE_0, TILE_1, ..., REST_0, REST_1, ...)``."""
    return _arranged(_logical_divide, "flat_divide", layout, tiler, True, True)


# --- products ---------------------------------------------------------------------------------------

def _logical_product(shape, stride, tiler, where):
    if isinstance(tiler, tuple) and not _is_pair(tiler):
        if len(tiler) > _rank(shape):
            raise LayoutError(f"{where}: Too many modes in tiler")
        modes = [_logical_product(_get(shape, i), _get(stride, i), t, where) for i, t in enumerate(tiler)]
        modes += [(_get(shape, i), _get(stride, i)) for i in range(len(tiler), _rank(shape))]
        return tuple(m[0] for m in modes), tuple(m[1] for m in modes)
    if isinstance(tiler, Underscore):
        return shape, stride
    if type(tiler) is int:
        tiler = _Pair((tiler, 0 if tiler == 1 else 1))
    ts, td = _as_pair(tiler, where)
    cot = V.mul(_product(shape), _cosize(ts, td))
    fs, fd = _filter(shape, stride)
    comp = _complement(fs, fd, cot, where)
    rest = _composition(comp[0], comp[1], _Pair((ts, td)), where)
    return _make_layout2((shape, stride), rest)


@operation("logical_product")
def logical_product(block, tiler):
    """CuTe's ``logical_product``: ``make_layout(block, composition(complement(block, size(block)*cosize(tiler)), tiler))``."""
    s, d = _pair(block, "logical_product")
    return _logical_product(s, d, _tiler(tiler), "logical_product")


@operation("zipped_product")
def zipped_product(block, tiler):
    """``((BLOCK_0, BLOCK_1, ...), (TILER_0, TILER_1, ...))``."""
    return _arranged(_logical_product, "zipped_product", block, tiler, False, False)


@operation("tiled_product")
def tiled_product(block, tiler):
    """``((BLOCK_0, BLOCK_1, ...), TILER_0, TILER_1, ...)``."""
    return _arranged(_logical_product, "tiled_product", block, tiler, False, True)


@operation("flat_product")
def flat_product(block, tiler):
    """``(BLOCK_0, BLOCK_1, ..., TILER_0, TILER_1, ...)``."""
    return _arranged(_logical_product, "flat_product", block, tiler, True, True)


def _append_to(shape, stride, R):
    """``append<R>(layout)``: pad with ``_1:_0`` modes up to rank R."""
    s = shape if type(shape) is tuple else (shape,)
    d = stride if type(stride) is tuple else (stride,)
    if R == 1 and type(shape) is not tuple:
        return shape, stride
    return s + (1,) * (R - len(s)), d + (0,) * (R - len(d))


def _blocked_or_raked(block, tiler, raked: bool, name: str):
    bs, bd = _pair(block, name)
    ts, td = _pair(tiler, name)
    R = max(_rank(bs), _rank(ts))
    bs, bd = _append_to(bs, bd, R)
    ts, td = _append_to(ts, td, R)
    rs, rd = _logical_product(bs, bd, _Pair((ts, td)), name)
    first, second = (1, 0) if raked else (0, 1)
    return _zip_modes(rs[first], rs[second]), _zip_modes(rd[first], rd[second])


def _zip_modes(a, b):
    if type(a) is not tuple:
        return ((a, b),)
    if type(b) is not tuple or len(b) != len(a):
        raise LayoutError("zip: Mismatched Ranks")
    return tuple((x, y) for x, y in zip(a, b))


@operation("blocked_product")
def blocked_product(block, tiler):
    """``zip(logical_product(append<R>(block), append<R>(tiler)))``."""
    return _blocked_or_raked(block, tiler, False, "blocked_product")


@operation("raked_product")
def raked_product(block, tiler):
    return _blocked_or_raked(block, tiler, True, "raked_product")


# --- with_shape, upcast, downcast, inverses ----------------------------------------------------------------

def _shape_in(shape, env):
    if isinstance(shape, (tuple, list)):
        return tuple(_shape_in(x, env) for x in shape)
    if isinstance(shape, bool):
        raise LayoutError(f"with_shape: {shape!r} is not an integer")
    if type(shape) is int:
        return shape
    if isinstance(shape, sympy.Basic):
        return env.params.inner(shape)
    raise LayoutError(f"with_shape: {shape!r} is not an integer or an expression in parameters")


@operation("with_shape")
def with_shape(layout, shape):
    """``layout.with_shape(shape)`` = ``composition(layout, make_layout(shape))``."""
    s, d = _pair(layout, "with_shape")
    shp = _shape_in(shape, V.env())
    return _composition(s, d, _Pair((shp, compact_col_major(shp))), "with_shape")


def _upcast(shape, stride, n, where):
    if type(shape) is tuple:
        pairs = [_upcast(s, d, n, where) for s, d in zip(shape, stride)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if V.is_constant(0, stride):
        return shape, stride
    if V.is_static(stride):
        if not (stride % n == 0 or n % stride == 0):
            raise LayoutError(f"{where}: Divisibility condition: stride {stride} and {n}")
        return (V.ceil_div(shape, V.ceil_div(n, abs(stride))),
                V.mul(V.signum(stride), V.ceil_div(abs(stride), n)))
    # CuTe: "Assume dynamic strides are larger than N and divisible" -- we prove it instead
    V.env().require(V.divides_fact(n, stride), f"{where}: dynamic stride", f"{_show(stride)} divisible by {n}")
    return shape, V.div(stride, n, where)   # safe_div


@operation("upcast")
def upcast(layout, n: int):
    """CuTe's ``upcast<N>(layout)``; a dynamic stride must be provably divisible by N (CuTe assumes it)."""
    if isinstance(n, bool) or type(n) is not int or n < 1:
        raise LayoutError(f"upcast<{n!r}>: N must be a positive integer")
    s, d = _pair(layout, "upcast")
    return _upcast(s, d, n, f"upcast<{n}>({_lshow(s, d)})")


def _downcast(shape, stride, n):
    if type(shape) is tuple:
        pairs = [_downcast(s, d, n) for s, d in zip(shape, stride)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if V.is_constant(1, stride) or V.is_constant(-1, stride):
        return V.mul(shape, n), stride
    return shape, V.mul(stride, n)


@operation("downcast")
def downcast(layout, n: int):
    """CuTe's ``downcast<N>(layout)`` (requires a static unit stride somewhere: ``has_int1``)."""
    if isinstance(n, bool) or type(n) is not int or n < 1:
        raise LayoutError(f"downcast<{n!r}>: N must be a positive integer")
    s, d = _pair(layout, "downcast")
    if not any(V.is_constant(1, x) or V.is_constant(-1, x) for x in _flatten(d)):
        raise LayoutError(f"downcast<{n}>({_lshow(s, d)}): Downcast requires adjacent elements (a static stride 1)")
    return _downcast(s, d, n)


def _static_only(name):
    def run(layout):
        if isinstance(layout, ParamLayout):
            if not layout.is_static():
                raise LayoutError(f"{name}({layout}): CuTe requires a static layout (@pre is_static<Layout>); "
                                  f"this one has run-time extents or strides")
            core = Layout(layout.shape, layout.stride)
            from ... import core as core_ops
            return lift(getattr(core_ops, name)(core), layout.params)
        raise LayoutError(f"{name}: {layout!r} is not a parametric layout")
    run.__name__ = name
    run.__doc__ = f"CuTe's ``{name}``: defined for static layouts only (``@pre is_static<Layout>``), as in CuTe."
    return run


right_inverse = _static_only("right_inverse")
left_inverse = _static_only("left_inverse")


def make_layout(*layouts):
    """``make_layout(a, b, ...)``: the layouts as the modes of one layout."""
    ps = _params_of(layouts)
    from .conditions import Params
    ps = ps or Params(())
    shapes, strides = [], []
    for l in layouts:
        s, d = _pair(l, "make_layout")
        shapes.append(s)
        strides.append(d)
    return ParamLayout(tuple(shapes), tuple(strides), ps, tuple(_conds_of(layouts, [])))
