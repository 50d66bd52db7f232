"""Parametric tensors: ``local_tile``, ``local_partition`` and TiledMMA / TiledCopy partitioning.

A :class:`ParamTensor` is what CuTe's ``Tensor`` is to these functions: an
offset added to the data pointer (a closed form in the parameters and in any
symbolic coordinates, e.g. the CTA tile ``(bm, bk)``) and a ParamLayout.
The partitioning patterns are CuTe's (``tensor_impl.hpp``, ``mma_atom.hpp``,
``copy_atom.hpp``) applied with the parametric algebra; the atoms' own layouts
are static, as in CuTe.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lazy_sympy import sympy

from ...atoms.operand import get_operand
from ...core import Layout
from ...core.layout import Underscore, _
from ...errors import LayoutError
from . import algebra as A
from . import values as V
from .layout import ParamLayout, lift, _leaves


@dataclass(frozen=True)
class ParamTensor:
    """``offset + layout(c)``: ``offset`` in inner form (parameters and coordinate symbols)."""

    offset: object
    layout: ParamLayout

    @property
    def params(self):
        return self.layout.params

    def offset_expr(self) -> sympy.Expr:
        """The offset in the declared names."""
        return self.params.user(sympy.expand(V._expr(self.offset)))

    def __str__(self) -> str:
        from .printing import show_expr
        return f"{show_expr(self.offset_expr())} + {self.layout}"


def _as_tensor(x) -> ParamTensor:
    if isinstance(x, ParamTensor):
        return x
    if isinstance(x, ParamLayout):
        return ParamTensor(0, x)
    raise LayoutError(f"{x!r} is not a parametric layout or tensor")


def _coord_in(c, params):
    if isinstance(c, (tuple, list)):
        return tuple(_coord_in(x, params) for x in c)
    if isinstance(c, Underscore):
        return c
    if isinstance(c, bool):
        raise LayoutError(f"coordinate {c!r} is not an integer")
    if type(c) is int:
        return c
    if isinstance(c, sympy.Basic):
        # coordinate symbols (bm, bk) stay; parameters go to inner form
        return c.xreplace({p.symbol: p.multiple * p.inner for p in params.params})
    raise LayoutError(f"coordinate {c!r} is not an int, a symbol, _ or a tuple")


def _idx2crd_offset(c, shape, stride):
    """The offset of (int or symbolic) coordinate ``c`` in mode ``shape:stride`` (CuTe's crd2idx)."""
    if type(c) is tuple:
        if type(shape) is not tuple or len(c) != len(shape):
            raise LayoutError("slice: Mismatched Ranks between the coordinate and the layout")
        return sum((_idx2crd_offset(x, s, d) for x, s, d in zip(c, shape, stride)), sympy.Integer(0))
    if type(shape) is tuple:   # an index split colexicographically, the last mode takes the rest
        total, rest = sympy.Integer(0), V._expr(c)
        for i, (s, d) in enumerate(zip(shape, stride)):
            n = V._expr(_prod(s))
            if i == len(shape) - 1:
                total += _idx2crd_offset(rest, s, d)
            else:
                total += _idx2crd_offset(sympy.Mod(rest, n) if not (rest.is_Integer and n.is_Integer)
                                         else sympy.Integer(int(rest) % int(n)), s, d)
                rest = sympy.floor(rest / n)
        return total
    return V._expr(c) * V._expr(stride)


def _prod(s):
    out = sympy.Integer(1)
    for x in _leaves(s):
        out = out * V._expr(x)
    return out


def _slice_keep(c, shape, stride):
    """CuTe's ``slice``: the modes where ``c`` has ``_`` (nested ``_`` tuples flatten one level)."""
    if type(c) is tuple:
        out_s, out_d = (), ()
        for x, s, d in zip(c, shape if type(shape) is tuple else (shape,), stride if type(stride) is tuple
                           else (stride,)):
            ks, kd = _lift(x, s, d)
            out_s += ks
            out_d += kd
        return out_s, out_d
    if isinstance(c, Underscore):
        return shape, stride
    return (), ()


def _lift(c, s, d):
    if type(c) is tuple:
        out_s, out_d = (), ()
        for x, y, z in zip(c, s, d):
            a, b = _lift(x, y, z)
            out_s += a
            out_d += b
        return out_s, out_d
    if isinstance(c, Underscore):
        return (s,), (d,)
    return (), ()


def _zero_underscores(c, shape):
    if isinstance(c, Underscore):
        return _repeat0(shape)
    if type(c) is tuple:
        return tuple(_zero_underscores(x, s) for x, s in zip(c, shape if type(shape) is tuple else (shape,)))
    return c


def _repeat0(s):
    return tuple(_repeat0(x) for x in s) if type(s) is tuple else 0


def slice_tensor(t, coord) -> ParamTensor:
    """``tensor(coord)`` with ``_`` keeping modes: the offset of the coordinate and the kept layout."""
    t = _as_tensor(t)
    L = t.layout
    c = _coord_in(coord, L.params)
    off = _idx2crd_offset(_zero_underscores(c, L.shape), L.shape, L.stride)
    s, d = _slice_keep(c, L.shape, L.stride)
    return ParamTensor(V._expr(t.offset) + off, ParamLayout(s, d, L.params, L.conditions))


def _repeat(n):
    return _ if n == 1 else (_,) * n


def _rank(t):
    return len(t) if type(t) is tuple else 1


def local_tile(tensor, tiler, coord) -> ParamTensor:
    """CuTe's ``local_tile(tensor, tiler, coord)``: ``zipped_divide`` then slice the rest mode at ``coord``."""
    t = _as_tensor(tensor)
    tiled = A.zipped_divide(t.layout, tiler)
    R0 = _rank(tiled.shape[0])
    if isinstance(coord, (tuple, list)):
        R1 = _rank(tiled.shape[1])
        coord = tuple(coord) + (_,) * (R1 - len(coord))
        c = (_repeat(R0), coord if len(coord) > 1 else coord[0])
    else:
        c = (_repeat(R0), coord)
    return slice_tensor(ParamTensor(t.offset, tiled), c)


def local_partition(tensor, tile: Layout, index: int) -> ParamTensor:
    """CuTe's ``local_partition(tensor, tile, index)``: ``outer_partition`` by ``product_each(shape(tile))``."""
    from ...atoms.tiled_mma import get_flat_coord
    from ...core import int_tuple as it
    if isinstance(index, bool) or not isinstance(index, int):
        raise LayoutError(f"local_partition: index {index!r} must be an integer (CuTe: is_integral<Index>)")
    t = _as_tensor(tensor)
    tiler = it.product_each(tile.shape) if isinstance(tile.shape, tuple) else tile.shape
    coord = get_flat_coord(tile, index)
    tiled = A.zipped_divide(t.layout, tiler)
    R0 = _rank(tiled.shape[0])
    R1 = _rank(tiled.shape[1])
    crd = tuple(coord) + (_,) * (R0 - len(coord)) if R0 > 1 else (coord[0] if isinstance(coord, tuple) else coord)
    return slice_tensor(ParamTensor(t.offset, tiled), (crd, _repeat(R1)))


# --- TiledMMA ---------------------------------------------------------------------------------------------

def thrfrg(mma, operand: str, tensor) -> ParamTensor:
    """``mma.thrfrg_{A,B,C}(tensor)``: ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...))) over the parameters."""
    op = operand.upper()
    i, j = get_operand(op).modes
    t = _as_tensor(tensor)
    L = t.layout
    if L.rank < 2:
        raise LayoutError(f"thrfrg_{op}({L}): the tensor must have rank >= 2")
    ps = L.params
    atom_tv = lift(mma.atom.layout(op), ps)
    shape = mma.atom.shape_mnk
    vmnk = mma.thr_layout_vmnk

    def perm(k):
        p = mma.permutation_mnk(k)
        return lift(p, ps) if isinstance(p, Layout) else p
    t_tensor = A.logical_divide(L, (perm(i), perm(j)))
    a_tensor = A.zipped_divide(t_tensor, (lift(Layout(shape[i]), ps), lift(Layout(shape[j]), ps)))
    tv_tensor = A.composition(a_tensor, (atom_tv, _))
    thr_tile = (_, (lift(Layout(vmnk[i + 1].size()), ps), lift(Layout(vmnk[j + 1].size()), ps)))
    return ParamTensor(t.offset, A.zipped_divide(tv_tensor, thr_tile))


def partition(mma, operand: str, tensor, thr_idx: int) -> ParamTensor:
    """``mma.get_slice(thr_idx).partition_{A,B,C}(tensor)``: (FrgV,RestM,RestK,...) and its offset."""
    from ...atoms.tiled_mma import get_flat_coord
    op = operand.upper()
    thr = thrfrg(mma, op, tensor)
    v, m, n, k = get_flat_coord(mma.thr_layout_vmnk, thr_idx)
    crd = get_operand(op).thread_coord(v, m, n, k)
    rest_rank = _rank(thr.layout.shape[1][1])
    return slice_tensor(thr, (crd, (_, _repeat(rest_rank))))


def layout_tv(mma, operand: str, tensor) -> ParamTensor:
    """(thr_idx, (FrgV, Rest...)) -> offset: thrfrg composed with CuTe's thread-index map (get_layout*_TV's recipe)."""
    op = operand.upper()
    thr = thrfrg(mma, op, tensor)
    ps = thr.layout.params
    vmnk = mma.thr_layout_vmnk
    L = thr.layout
    if op == "A":
        L = A.composition(L, ((_, (lift(Layout((vmnk[1].size(), vmnk[2].size()), (1, 0)), ps), _)), _))
    elif op == "B":
        L = A.composition(L, ((_, (lift(Layout((vmnk[1].size(), vmnk[2].size()), (0, 1)), ps), _)), _))
    L = A.composition(L, (lift(mma.thridx_2_thrid, ps), _))
    return ParamTensor(thr.offset, L)


# --- TiledCopy ---------------------------------------------------------------------------------------------

def tidfrg(copy, role: str, tensor) -> ParamTensor:
    """``copy.tidfrg_{S,D}(tensor)``: (Thr,(FrgV,FrgX),(RestM,RestN,...)) over the parameters."""
    from ...core import coalesce, composition, right_inverse, zip_layouts, zipped_divide
    role = role.upper()
    t = _as_tensor(tensor)
    ps = t.layout.params
    trg = copy.atom.val_layout_src if role == "S" else copy.atom.val_layout_dst
    ref2trg = composition(right_inverse(copy.atom.val_layout_ref), trg)
    atom_layout_tv = zipped_divide(copy.layout_tv, (copy.atom_num_thr, copy.atom_num_val))
    trg_layout_tv = composition(atom_layout_tv, (ref2trg, _))
    thrval2mn = coalesce(zip_layouts(trg_layout_tv), (1, (1, 1)))
    tiler = _lift_tiler(copy.tiler_mn, ps)
    tiled = A.zipped_divide(t.layout, tiler)
    tv = A.composition(tiled, (lift(thrval2mn, ps), _))
    s, d = _slice_keep(((_, _), _), tv.shape, tv.stride)
    return ParamTensor(t.offset, ParamLayout(s, d, ps, tv.conditions))


def _lift_tiler(t, ps):
    if isinstance(t, Layout):
        return lift(t, ps)
    if isinstance(t, tuple):
        return tuple(_lift_tiler(x, ps) for x in t)
    return t


def partition_copy(copy, role: str, tensor, thr_idx: int) -> ParamTensor:
    """``copy.get_slice(thr_idx).partition_{S,D}(tensor)``."""
    thr = tidfrg(copy, role, tensor)
    rest_rank = _rank(_as_tensor(tensor).layout.shape)
    return slice_tensor(thr, (thr_idx, _, _repeat(rest_rank)))
