"""Semantic names for the sub-axes of TV layouts and of the tiles they map onto.

A TV layout's thread mode is a mixed-radix number: each leaf of extent ``s``
at prefix product ``P`` is a *digit* covering ``[P, P*s)`` of the thread index
(likewise for values).  Names are attached to digits where they are born:

* the atom's logical thread digits (cut by its ThrID and by the thread modes of
  its A, B and C layouts, so A, B and C share them) are ``t0, t1, ...``, placed
  into the thread index through ThrID;
* the atom-layout modes of ``thr_layout_vmnk`` are ``wm, wn, wk`` (``wm0, wm1``
  when a mode has several leaves); thread indices in its holes (its complement,
  which CuTe's ``thridx_2_thrid`` spans: SM70's quad pairs skip lanes 4..15) are ``c``;
* an operand's atom values are ``v0, v1, ...``; the values of the tiles a
  thread repeats over (the Rest modes) are ``rm, rn, rk``;
* a copy's own value digits are ``sv0...`` (source) and ``dv0...``
  (destination); ``make_tiled_copy``'s thread and value layouts give ``t*``, ``v*``.

A leaf that splits a digit gets ``name_0, name_1, ...``; a leaf spanning
several digits gets their names joined (``t0t1``); a size-1 leaf gets a
placeholder ``_0, _1, ...`` (it is omitted from formulas).  The result is a tree
of plain strings congruent to the layout's shape.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Layout
from ..core import int_tuple as it
from ..errors import LayoutError
from .operand import OPERANDS


@dataclass(frozen=True)
class Digit:
    lo: int       # prefix product: the digit's weight in the index
    extent: int
    name: str

    @property
    def hi(self) -> int:
        return self.lo * self.extent


def _leaf_intervals(shape) -> list[tuple[int, int]]:
    out, p = [], 1
    for s in it.flatten_to_tuple(shape):
        out.append((p, s))
        p *= s
    return out


def _name_leaves(shape, table: list[Digit], counter: list) -> list[str]:
    """Names of the flat leaves of ``shape`` (a mode), read against the digit table."""
    leaves = _leaf_intervals(shape)
    cuts = set()
    for p, s in leaves:
        if s > 1:
            cuts.update((p, p * s))
    pieces = []  # (lo, hi, name): digits refined at the leaves' boundaries
    for d in sorted(table, key=lambda d: d.lo):
        inner = sorted(c for c in cuts if d.lo < c < d.hi)
        bounds = [d.lo] + inner + [d.hi]
        if len(bounds) == 2:
            pieces.append((d.lo, d.hi, d.name))
        else:
            pieces += [(a, b, f"{d.name}_{i}") for i, (a, b) in enumerate(zip(bounds, bounds[1:]))]
    names = []
    for p, s in leaves:
        if s == 1:
            names.append(f"_{counter[0]}")
            counter[0] += 1
            continue
        lo, hi = p, p * s
        covered = [n for a, b, n in pieces if a >= lo and b <= hi]
        exact = any(a == lo for a, _, _ in pieces) and any(b == hi for _, b, _ in pieces)
        if covered and exact and _contiguous(pieces, lo, hi):
            names.append("".join(covered))
        else:  # not reachable through the table: a neutral name that still says where it sits
            names.append(f"x{lo}")
    return names


def _contiguous(pieces, lo, hi) -> bool:
    pos = lo
    for a, b, _ in sorted(pieces):
        if a == pos and b <= hi:
            pos = b
    return pos == hi


def name_tree(shape, tables: tuple) -> object:
    """Names congruent to ``shape`` (a rank-2 TV shape): mode i is named against ``tables[i]``."""
    counter = [0]
    out = []
    for mode, table in zip(it.wrap(shape), tables):
        flat = _name_leaves(mode, table, counter)
        out.append(it.unflatten(tuple(flat), mode) if isinstance(mode, tuple) else flat[0])
    return tuple(out)


# --- digit tables -------------------------------------------------------------------------------------

def _numbered(extents_and_los: list[tuple[int, int]], prefix: str) -> list[Digit]:
    """Digits from (lo, extent) pairs (extent > 1), named prefix0, prefix1, ... in index order."""
    pairs = sorted((lo, s) for lo, s in extents_and_los if s > 1)
    return [Digit(lo, s, f"{prefix}{i}") for i, (lo, s) in enumerate(pairs)]


def _cut(total: int, cut_points: set) -> list[tuple[int, int]]:
    """The (lo, extent) digits of [1, total) cut at the given points (points not dividing the chain are dropped)."""
    bounds = [1]
    for c in sorted(cut_points):
        if bounds[-1] < c < total and c % bounds[-1] == 0 and total % c == 0:
            bounds.append(c)
    bounds.append(total)
    return [(a, b // a) for a, b in zip(bounds, bounds[1:]) if b > a]


def atom_thread_digits(atom) -> list[Digit]:
    """The atom's logical thread digits t0, t1, ... placed in the thread index through ThrID."""
    thr_id = atom.thr_id
    n = thr_id.size()
    cuts = {p for p, s in _leaf_intervals(thr_id.shape)} | {p * s for p, s in _leaf_intervals(thr_id.shape)}
    for op in OPERANDS:
        lay = getattr(atom, op.lower() + "_layout")
        if lay is not None:
            for p, s in _leaf_intervals(lay.shape[0] if isinstance(lay.shape, tuple) else lay.shape):
                cuts.update((p, p * s))
    logical = _cut(n, cuts)
    # ThrID leaves: logical prefix Q, extent S, stride D into the thread index
    leaves = [(q, s, d) for (q, s), d in zip(_leaf_intervals(thr_id.shape), it.flatten_to_tuple(thr_id.stride))]
    digits = []
    for i, (lo, s) in enumerate(logical):
        for q, ext, d in leaves:
            if q <= lo and lo * s <= q * ext and d != 0:
                digits.append(Digit(d * lo // q, s, f"t{i}"))
                break
    return digits


def mma_thread_table(tiled_mma) -> list[Digit]:
    """Thread-index digits of a TiledMMA: the atom's t* and the atom layout's wm, wn, wk."""
    table = list(atom_thread_digits(tiled_mma.atom))
    vmnk = tiled_mma.thr_layout_vmnk
    for mode, tag in ((1, "wm"), (2, "wn"), (3, "wk")):
        m = vmnk[mode]
        leaves = [(s, d) for s, d in zip(it.flatten_to_tuple(m.shape), it.flatten_to_tuple(m.stride)) if s > 1]
        for j, (s, d) in enumerate(leaves):
            if d != 0:
                table.append(Digit(d, s, tag if len(leaves) == 1 else f"{tag}{j}"))
    # thread indices in the holes of thr_layout_vmnk (SM70's quad pairs skip lanes 4..15): CuTe's
    # thridx_2_thrid spans them through complement(vmnk), so they are digits too
    from ..core import complement
    comp = complement(vmnk)
    leaves = [(s, d) for s, d in zip(it.flatten_to_tuple(comp.shape), it.flatten_to_tuple(comp.stride)) if s > 1]
    for j, (s, d) in enumerate(leaves):
        table.append(Digit(d, s, "c" if len(leaves) == 1 else f"c{j}"))
    return table


def mma_value_table(tiled_mma, operand: str) -> list[Digit]:
    """Value-index digits of a TiledMMA operand: the atom's v* then the Rest modes rm/rn/rk."""
    op = operand.upper()
    atom_tv = tiled_mma.atom.layout(op)
    frg = atom_tv[1].size()
    table = _numbered(_leaf_intervals(atom_tv.shape[1]), "v")
    layout = tiled_mma.get_layout_TV(op)
    rest = layout[1, 1] if layout[1].rank > 1 else None
    if rest is not None:
        p = frg
        for i, mode in enumerate(rest.modes()):
            tag = OPERANDS[op].rest_axes[i] if i < 2 else f"r{i}"
            leaves = [s for s in it.flatten_to_tuple(mode.shape)]
            big = [s for s in leaves if s > 1]
            j = 0
            for s in leaves:
                if s > 1:
                    table.append(Digit(p, s, tag if len(big) == 1 else f"{tag}{j}"))
                    j += 1
                p *= s
    return table


def _layout_digits(layout: Layout, prefix: str) -> list[Digit]:
    """Digits of an index space produced by ``layout`` (coordinate -> index): its leaves sorted by stride."""
    pairs = [(d, s) for s, d in zip(it.flatten_to_tuple(layout.shape), it.flatten_to_tuple(layout.stride))
             if s > 1 and isinstance(d, int) and d > 0]
    return _numbered(pairs, prefix)


def copy_tables(tiled_copy) -> tuple:
    """(thread table, value table) of a TiledCopy's TiledLayout_TV."""
    src = tiled_copy.source
    if src is not None and src[0] != "thr_val":
        mma, op = src
        return mma_thread_table(mma), mma_value_table(mma, op)
    if src is not None:
        _, thr, val = src
        return _layout_digits(thr, "t"), _layout_digits(val, "v")
    lay = tiled_copy.layout_tv
    return (_numbered(_leaf_intervals(lay.shape[0]), "t"), _numbered(_leaf_intervals(lay.shape[1]), "v"))


def _shift_values(table: list[Digit], atom_vals: int, trg_vals: int) -> list[Digit]:
    """The digits of the TiledLayout's value index above the atom's, moved to sit above the trg values."""
    out = []
    for d in table:
        lo, hi = max(d.lo, atom_vals), d.hi
        if hi <= atom_vals:
            continue
        name = d.name if lo == d.lo else f"{d.name}_1"
        out.append(Digit(lo // atom_vals * trg_vals, hi // lo, name))
    return out


def _is_tiled_mma(obj) -> bool:
    """A TiledMMA, told by its members: this module sits below the TiledMMA and TiledCopy classes (their
    ``layout*_TV_names`` methods call it), so it does not import them."""
    return hasattr(obj, "thr_layout_vmnk") and hasattr(obj, "get_layout_TV")


def _is_tiled_copy(obj) -> bool:
    """A TiledCopy, told by its members (see :func:`_is_tiled_mma`)."""
    return hasattr(obj, "layout_tv") and hasattr(obj, "tiler_mn") and hasattr(obj, "get_layoutS_TV")


def tv_names(obj, operand: str = "TV"):
    """Names congruent to the shape of a TV layout of ``obj``.

    ``obj``: a TiledMMA (operand 'A', 'B', 'C') or a TiledCopy (operand 'S', 'D',
    or 'TV' for its TiledLayout_TV).  For the seed's
    ``((4,8,2,2),((2,2,2),(1,1)))`` the names are ``((t0,t1,wm,wn),((v0,v1,v2),(_0,_1)))``.
    """
    op = operand.upper() if isinstance(operand, str) else operand
    if _is_tiled_mma(obj):
        if op not in OPERANDS:
            raise LayoutError(f"tv_names: a TiledMMA has operands A, B and C, not {operand!r}")
        layout = obj.get_layout_TV(op)
        return name_tree(layout.shape, (mma_thread_table(obj), mma_value_table(obj, op)))
    if _is_tiled_copy(obj):
        thr, val = copy_tables(obj)
        if op == "TV":
            return name_tree(obj.layout_tv.shape, (thr, val))
        if op not in ("S", "D"):
            raise LayoutError(f"tv_names: a TiledCopy has layouts S, D and TV, not {operand!r}")
        layout = obj.get_layoutS_TV() if op == "S" else obj.get_layoutD_TV()
        trg = obj.atom.val_layout_src if op == "S" else obj.atom.val_layout_dst
        trg_vals = trg[1].size()
        own = _numbered(_leaf_intervals(trg.shape[1]), "sv" if op == "S" else "dv")
        values = own + _shift_values(val, obj.atom_num_val, trg_vals)
        return name_tree(layout.shape, (thr, values))
    raise LayoutError(f"tv_names: expected a TiledMMA or a TiledCopy, got {obj!r}")


def tile_names(obj, operand: str = "TV") -> tuple:
    """The refined coordinates of the tile a TV layout maps onto: ``(shape, names)``.

    The tile index ``q = r + R*c`` (column-major, as CuTe's reference layouts) is
    cut wherever a mode of the TV layout starts or ends (stride ``d``, extent
    ``s``: ``[d, d*s)``) and at ``R``.  For the seed's A layout:
    ``(((8,2,2),(2,4,2)), (("m0","m1","m2"),("k0","k1","k2")))``.
    """
    op = operand.upper() if isinstance(operand, str) else operand
    if _is_tiled_mma(obj):
        layout = obj.get_layout_TV(op)
        o = OPERANDS[op]
        rows, cols = o.tile_shape([obj.tile_size(k) for k in range(3)])
        axes = o.axes
    elif _is_tiled_copy(obj):
        if op not in ("TV", "S", "D"):
            raise LayoutError(f"tile_names: a TiledCopy has layouts S, D and TV, not {operand!r}")
        layout = obj.layout_tv if op == "TV" else obj.get_layoutS_TV() if op == "S" else obj.get_layoutD_TV()
        shape = it.product_each(obj.tiler_mn if not isinstance(obj.tiler_mn, Layout) else obj.tiler_mn.shape)
        if len(shape) != 2:
            raise LayoutError(f"tile_names: the tile {shape} is not two-dimensional")
        rows, cols = shape
        src = obj.source
        axes = OPERANDS[src[1]].axes if src is not None and src[0] != "thr_val" else ("m", "n")
    else:
        raise LayoutError(f"tile_names: expected a TiledMMA or a TiledCopy, got {obj!r}")
    total = rows * cols
    cuts = {rows}
    for s, d in zip(it.flatten_to_tuple(layout.shape), it.flatten_to_tuple(layout.stride)):
        if s > 1 and isinstance(d, int) and d > 0:
            cuts.update((d, d * s))
    pieces = _cut(total, cuts)
    row = [(lo, s) for lo, s in pieces if lo < rows]
    col = [(lo, s) for lo, s in pieces if lo >= rows]
    shape = (tuple(s for _, s in row), tuple(s for _, s in col))
    names = (tuple(f"{axes[0]}{i}" for i in range(len(row))), tuple(f"{axes[1]}{i}" for i in range(len(col))))
    return shape, names
