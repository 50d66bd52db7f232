"""CuTe's pictures of layouts, byte for byte: ``print_latex`` (TikZ) and ``print_svg`` (CUTLASS 4.2).

Each function returns the text that the CuTe function of the same name
(``cute/util/print_latex.hpp``, ``cute/util/print_svg.hpp``, default colours)
writes to stdout.  Values in the comment lines are printed as CuTe prints
*static* values (``_4``, ``_1@0``): symcute's layouts are CuTe's static layouts.

Where CuTe's picture code would not compile (a rank above 2, a layout that
returns coordinates where an index is read, or the other way round) or would
read and write outside its arrays (a negative index into the colour table, a
coordinate outside the tile), these functions raise a :class:`LayoutError`
instead.  ``MAX_CELLS`` bounds the size of a picture.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..atoms.mma_atom import MMAAtom
from ..atoms.tiled_copy import TiledCopy
from ..atoms.tiled_mma import TiledMMA, make_tiled_mma
from ..core import (
    ArithmeticTuple, Layout, ScaledBasis, _, append, composition, logical_divide, make_identity_layout,
    make_layout, size, slice_,
)
from ..core.composed import ComposedLayout, SmemPtrFlag, composition3
from ..core.int_tuple import product_each
from ..core.int_tuple import format_int_tuple
from ..core.recast import recast_layout
from ..errors import LayoutError, LimitError

MAX_CELLS = 1 << 16  # the most cells (and labels per axis) one picture draws; CuTe prints whatever it is given
MAX_TV_PAIRS = 1 << 22  # the most (thread, value) pairs one picture visits to find the cells it draws

TIKZ_BWX8 = ("black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70")
TIKZ_TV = tuple("{rgb,255:red,%d;green,%d;blue,%d}" % c for c in (
    (175, 175, 255), (175, 255, 175), (255, 255, 175), (255, 175, 175),
    (210, 210, 255), (210, 255, 210), (255, 255, 210), (255, 210, 210)))
SVG_TV = ("175,175,255", "175,255,175", "255,255,175", "255,175,175",
          "210,210,255", "210,255,210", "255,255,210", "255,210,210")

_TIKZ_HEADER = ("\\documentclass[convert]{standalone}\n"
                "\\usepackage{tikz}\n\n"
                "\\begin{document}\n"
                "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
                "every node/.style={minimum size=1cm, outer sep=0pt}]\n\n")
_TIKZ_FOOTER = "\\end{tikzpicture}\n\\end{document}\n"
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1


# --- CuTe's print of static values -----------------------------------------------------------------

def cute_print(x) -> str:
    """CuTe's ``print`` of a value: ``_4`` static, ``4`` run-time, ``(_4,_8):(_1@1,_1@0)``, ``_2@0@1``."""
    if isinstance(x, Layout):
        return x.cute_str()
    if isinstance(x, ComposedLayout):  # layout_composed.hpp: print(a) " o " print(offset) " o " print(b)
        return f"{x.outer} o {cute_print(x.offset)} o {cute_print(x.inner)}"
    return format_int_tuple(x, static_marks=True)


def _tensor_print(layout: Layout, rank: int) -> str:
    """``print`` of ``composition(make_identity_tensor(shape), layout)``: its iterator, then its layout."""
    return "ArithTuple(" + ",".join(["_0"] * rank) + ") o " + cute_print(layout)


# --- checks of what CuTe's loops read ---------------------------------------------------------------

def _c_int(v, where: str, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise LayoutError(f"{where}: {what} is {v}, not an integer (CuTe's picture reads it into an int)")
    if not _INT_MIN <= v <= _INT_MAX:
        raise LayoutError(f"{where}: {what} {v} does not fit the int that CuTe's picture prints with %d")
    return v


def _extents(shape, n: int, where: str, drawn=None) -> tuple:
    """``product_each(shape)`` as the ints of ``auto [M, N, ...]``; the cells the picture draws
    (``drawn(extents)``, by default their product) are bounded by MAX_CELLS."""
    ext = product_each(shape) if isinstance(shape, tuple) else (shape,)
    if len(ext) != n:
        raise LayoutError(f"{where}: the tile {cute_print(shape)} has rank {len(ext)}, CuTe's picture "
                          f"needs rank {n}")
    for e in ext:
        _c_int(e, where, "a tile extent")
        if abs(e) > MAX_CELLS:   # each loop bounded, not only their product (a zero extent empties that)
            raise LimitError(f"{where}: the tile {cute_print(shape)} has an extent {e} above the limit of "
                             f"{MAX_CELLS} cells ({_RAISE})")
    cells = drawn(ext) if drawn is not None else _product(ext)
    if cells > MAX_CELLS:
        raise LimitError(f"{where}: the picture of the tile {cute_print(shape)} draws {cells} cells, more than "
                         f"the limit of {MAX_CELLS} ({_RAISE})")
    return ext


_RAISE = "raise it with symcute calc --max-cells N, or symcute.report.pictures.MAX_CELLS"


def _product(ext) -> int:
    cells = 1
    for e in ext:
        cells *= max(e, 0)
    return cells


def _check_rank2(layout, where: str, what: str) -> Layout:
    if not isinstance(layout, Layout):
        raise LayoutError(f"{where}: {what} must be a Layout, got {layout}")
    if layout.rank != 2:
        raise LayoutError(f"{where}: {what} {layout} has rank {layout.rank}; CuTe requires rank 2 "
                          f"(static_assert rank({what}) == Int<2>)")
    return layout


def _tv_cells(layout_tv: Layout, extents: tuple, where: str):
    """``(tid, vid, m, n)`` for each cell the first time CuTe's loops (tid outer, vid inner) reach it."""
    nthr, nval = size(layout_tv[0]), size(layout_tv[1])
    # the work bound: CuTe's loops visit every (thread, value) pair, a broadcast one included (a GMMA
    # SS operand: 128 threads x every value), though a cell is drawn once
    if max(nthr, 0) * max(nval, 0) > MAX_TV_PAIRS:
        raise LimitError(f"{where}: {layout_tv} has more than {MAX_TV_PAIRS} (thread, value) pairs to visit "
                         f"(symcute.report.pictures.MAX_TV_PAIRS)")
    filled = set()
    for tid in range(nthr):
        for vid in range(nval):
            m, n = _coord2(layout_tv(tid, vid), layout_tv, where)
            if not (0 <= m < extents[0] and 0 <= n < extents[1]):
                raise LayoutError(f"{where}: {layout_tv} sends (thread {tid}, value {vid}) to ({m},{n}), outside "
                                  f"the tile ({extents[0]},{extents[1]}) that CuTe's picture marks")
            if (m, n) not in filled:
                filled.add((m, n))
                yield tid, vid, m, n


def _coord2(c, layout_tv: Layout, where: str) -> tuple:
    """``auto [m, n] = layout_tv(tid, vid)``: the value must be a 2-D coordinate."""
    if isinstance(c, ScaledBasis):
        c = ArithmeticTuple.of(c)
    items = c.items if isinstance(c, ArithmeticTuple) else None
    if items is not None and len(items) < 2:
        # CuTe's identity tensor counts from the tile's origin (0,0): a TV layout whose strides never reach
        # the second mode (a UniversalFMA operand tile (16,1)) still yields (m, 0)
        items = tuple(items) + (0,) * (2 - len(items))
    if items is None or len(items) != 2 or not all(isinstance(x, int) for x in items):
        raise LayoutError(f"{where}: {layout_tv} returns {c}, not an (m,n) coordinate "
                          f"(CuTe's `auto [m, n] = layout_tv(tid, vid)` does not compile)")
    return items


def _is_coordinate_layout(layout: Layout) -> bool:
    def any_basis(t):
        return any(any_basis(x) for x in t) if isinstance(t, tuple) else isinstance(t, ScaledBasis)
    return any_basis(layout.stride)


# --- LaTeX ------------------------------------------------------------------------------------------

def print_latex(x) -> str:
    """CuTe's ``print_latex``: the TikZ picture of a 2-D layout, a TiledMMA, an MMA atom or a TiledCopy.

    - ``Layout`` (``print_latex(LayoutA const&)``, ``TikzColor_BWx8``): cell (m,n) shows ``layout(m,n)``.
      @pre rank(layout) <= 2 (rank 1 is drawn as ``append<2>(layout, 1:0)``), integer strides,
      every index >= 0 (CuTe reads ``color_map[idx % 8]``).
    - ``TiledMMA`` (``print_latex(TiledMMA const&)``): ``print_latex_mma`` of the C, A, B TV layouts
      composed with identity tensors of ``tile_shape(mma)``, ``TikzColor_TV``.
    - ``MMAAtom``: ``print_latex(make_tiled_mma(atom))``.
    - ``TiledCopy`` (``print_latex(TiledCopy const&)``): ``print_latex_copy`` of ``tidfrg_S/D`` of an
      identity tensor of the tile, sliced at rest index 0, ``TikzColor_TV``.
    @result the text CuTe writes to stdout (ends with a newline).
    """
    if isinstance(x, TiledMMA):
        return _latex_mma(*_mma_operands(x, "print_latex"))
    if isinstance(x, MMAAtom):
        return print_latex(make_tiled_mma(x))
    if isinstance(x, TiledCopy):
        return _latex_copy(*_copy_operands(x))
    if isinstance(x, Layout):
        return _latex_layout(x)
    if isinstance(x, ComposedLayout):
        return _latex_layout(as_position_independent_swizzle_layout(x) if isinstance(x.offset, SmemPtrFlag) else x)
    raise LayoutError(f"print_latex({format_int_tuple(x)}): expected a Layout, a ComposedLayout, a TiledMMA, an MMA atom "
                      f"or a TiledCopy")


def as_position_independent_swizzle_layout(layout: ComposedLayout):
    """CuTe's ``as_position_independent_swizzle_layout`` (``pointer_flagged.hpp``) of ``Sw o smem_ptr[B] o L``:
    ``composition(recast_layout<uint8_t, uint_bit_t<B>>(Sw), Int<0>, L)`` (the swizzle moved from bytes to
    elements; an identity swizzle drops, leaving ``L``)."""
    return composition3(recast_layout(layout.outer, 8, layout.offset.bits), 0, layout.inner)


def _latex_layout(layout_a: Layout) -> str:
    where = f"print_latex({layout_a})"
    if not isinstance(layout_a, Layout) and not isinstance(layout_a.inner, Layout):
        raise LayoutError(f"{where}: a swizzle over a composed layout is not drawn")
    if layout_a.rank > 2:
        raise LayoutError(f"{where}: the layout has rank {layout_a.rank}; CuTe's print_latex draws layouts of "
                          f"rank <= 2 (static_assert rank(layout_a) <= Int<2>)")
    if _is_coordinate_layout(layout_a if isinstance(layout_a, Layout) else layout_a.inner):
        raise LayoutError(f"{where}: the layout has basis strides and returns coordinates; print_latex draws "
                          f"integer-valued layouts (CuTe's `int idx = layout(m,n)` does not compile)")
    layout = append(layout_a, Layout(1, 0), 2)
    M, N = _extents(layout.shape, 2, where)
    out = ["% Layout: ", cute_print(layout), "\n", _TIKZ_HEADER]
    for m in range(M):
        for n in range(N):
            idx = _c_int(layout(m, n), where, f"layout({m},{n})")
            if idx < 0:
                raise LayoutError(f"{where}: layout({m},{n}) = {idx} is negative; CuTe's TikzColor_BWx8 would "
                                  f"read color_map[{idx} % 8], outside its table")
            out.append(f"\\node[fill={TIKZ_BWX8[idx % 8]}] at ({m},{n}) {{{idx}}};\n")
    out.append(f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({M},{N});\n\n")
    out += _tikz_labels(M, N, lambda m: (m, -1), lambda n: (-1, n))
    out.append(_TIKZ_FOOTER)
    return "".join(out)


def _tikz_labels(M: int, N: int, row_at, col_at) -> list:
    """The row labels 0..M-1 and the column labels 0..N-1, at the positions the two functions give."""
    label = "\\node at ({},{}) {{\\Large{{\\texttt{{{}}}}}}};\n"
    return ([label.format(*row_at(m), m) for m in range(M)] + [label.format(*col_at(n), n) for n in range(N)])


def _tikz_tv_node(tid: int, vid: int, x: int, y: int) -> str:
    return f"\\node[fill={TIKZ_TV[tid % 8]}] at ({x},{y}) {{\\shortstack{{T{tid} \\\\ V{vid}}}}};\n"


def print_latex_tv(layout_tv: Layout, tile_mn) -> str:
    """CuTe's ``print_latex_tv(layout_tv, tile_mn)`` (``TikzColor_TV``): which (thread, value) owns each cell.

    ``layout_tv``: (tid, vid) -> (m, n), a layout with basis strides, as CuTe requires.  An
    integer-valued TV layout (an index into the column-major tile, as ``get_layoutC_TV()`` returns)
    is drawn as CuTe's ``print_latex_tv(composition(make_identity_layout(tile_mn), layout_tv), tile_mn)``.
    ``tile_mn``: a shape (or a layout, whose shape is taken) of rank 2.
    @pre rank(layout_tv) == 2; every coordinate lies in the tile.
    @result the text CuTe writes; the first owner (lowest tid, then vid) of a cell is drawn.
    """
    shape = tile_mn.shape if isinstance(tile_mn, Layout) else tile_mn
    where = f"print_latex_tv({format_int_tuple(layout_tv)}, {format_int_tuple(tile_mn)})"
    _check_rank2(layout_tv, where, "layout_tv")
    M, N = _extents(shape, 2, where)
    if not _is_coordinate_layout(layout_tv):
        try:
            layout_tv = composition(make_identity_layout(shape), layout_tv)
        except LayoutError as e:
            raise LayoutError(f"{where}: {e}") from None
    out = ["% Layout TV: ", cute_print(layout_tv), "\n", _TIKZ_HEADER]
    out += [_tikz_tv_node(t, v, m, n) for t, v, m, n in _tv_cells(layout_tv, (M, N), where)]
    out.append(f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({M},{N});\n\n")
    out += _tikz_labels(M, N, lambda m: (m, -1), lambda n: (-1, n))
    out.append(_TIKZ_FOOTER)
    return "".join(out)


def _mma_operands(mma: TiledMMA, where: str):
    """CuTe's ``print_latex(TiledMMA)`` / ``print_svg(TiledMMA)``: identity tensors composed with the TV layouts."""
    tile = mma.tile_shape()
    where = f"{where}({mma._where()})"
    # C (M x N), A (M x K) and B (N x K) are drawn, not an M x N x K block
    M, N, K = _extents(tile, 3, where, drawn=lambda e: e[0] * e[1] + e[0] * e[2] + e[1] * e[2])
    ops = {}
    for op, (i, j) in (("C", (0, 1)), ("A", (0, 2)), ("B", (1, 2))):
        ops[op] = composition(make_identity_layout((tile[i], tile[j])), mma.get_layout_TV(op))
    return ops["C"], ops["A"], ops["B"], tile, (M, N, K), where


def _latex_mma(C: Layout, A: Layout, B: Layout, tile: tuple, extents: tuple, where: str) -> str:
    """CuTe's ``detail::print_latex_mma``: C at (0,0), A to its left, B above, with A's and B's labels."""
    M, N, K = extents
    out = ["% LayoutC: ", _tensor_print(C, 2), "\n", "% LayoutA: ", _tensor_print(A, 2), "\n",
           "% LayoutB: ", _tensor_print(B, 2), "\n", _TIKZ_HEADER]
    grid = "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({},{}) grid ({},{});\n\n"
    out += [_tikz_tv_node(t, v, m, n) for t, v, m, n in _tv_cells(C, (M, N), where)]
    out.append(grid.format(0, 0, M, N))
    out += [_tikz_tv_node(t, v, m, k - K - 1) for t, v, m, k in _tv_cells(A, (M, K), where)]
    out.append(grid.format(0, -K - 1, M, -1))
    out += _tikz_labels(M, K, lambda m: (m, -1 - K - 1), lambda k: (-1, k - K - 1))
    out += [_tikz_tv_node(t, v, k - K - 1, n) for t, v, n, k in _tv_cells(B, (N, K), where)]
    out.append(grid.format(-K - 1, 0, -1, N))
    out += _tikz_labels(N, K, lambda n: (-1 - K - 1, n), lambda k: (k - K - 1, -1))
    out.append(_TIKZ_FOOTER)
    return "".join(out)


def _copy_operands(copy: TiledCopy):
    """CuTe's ``print_latex(TiledCopy)``: the S and D TV tensors of an identity tensor of the tile."""
    where = f"print_latex({copy._where()})"
    try:
        tile_mn = product_each(logical_divide(make_layout((1, 1)), copy.tiler_mn).shape)
        ref = make_identity_layout(tile_mn)
        S = slice_((_, _, 0), copy.tidfrg_S(ref))
        D = slice_((_, _, 0), copy.tidfrg_D(ref))
    except LayoutError as e:
        raise LayoutError(f"{where}: {e}") from None
    return S, D, tile_mn, _extents(tile_mn, 2, where, drawn=lambda e: 2 * e[0] * e[1]), where


def _latex_copy(S: Layout, D: Layout, tile_mn: tuple, extents: tuple, where: str) -> str:
    """CuTe's ``detail::print_latex_copy``: S at (0,0), D to its right at column N+3, both labelled."""
    M, N = extents
    out = ["% Layout S TV: ", _tensor_print(S, 2), "\n", "% Layout D TV: ", _tensor_print(D, 2), "\n",
           _TIKZ_HEADER]
    grid = "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({},{}) grid ({},{});\n\n"
    out += [_tikz_tv_node(t, v, m, n) for t, v, m, n in _tv_cells(S, (M, N), where)]
    out.append(grid.format(0, 0, M, N))
    out += _tikz_labels(M, N, lambda m: (m, -1), lambda n: (-1, n))
    out += [_tikz_tv_node(t, v, m, n + N + 3) for t, v, m, n in _tv_cells(D, (M, N), where)]
    out.append(grid.format(0, N + 3, M, N + N + 3))
    out += _tikz_labels(M, N, lambda m: (m, N + N + 3), lambda n: (-1, n + N + 3))
    out.append(_TIKZ_FOOTER)
    return "".join(out)


# --- SVG --------------------------------------------------------------------------------------------

def print_svg(x) -> str:
    """CuTe's ``print_svg(TiledMMA)`` (``print_svg_mma``, ``SVGColor_TV``); an MMA atom is ``make_tiled_mma(atom)``.

    C is drawn at the bottom right, A to its left, B above it; cells are 20 units square.
    @result the text CuTe writes to stdout (ends with a newline).
    """
    if isinstance(x, MMAAtom):
        x = make_tiled_mma(x)
    if not isinstance(x, TiledMMA):
        raise LayoutError(f"print_svg({format_int_tuple(x)}): expected a TiledMMA or an MMA atom (CuTe 4.2's print_svg.hpp "
                          f"draws only those; print_latex draws layouts, swizzled ones included)")
    C, A, B, tile, (M, N, K), where = _mma_operands(x, "print_svg")
    cell = 20
    out = [f"<!--  Tile: {cute_print(tile)}  -->\n", f"<!--     A: {_tensor_print(A, 2)}  -->\n",
           f"<!--     B: {_tensor_print(B, 2)}  -->\n", f"<!--     C: {_tensor_print(C, 2)}  -->\n",
           f'<svg width="100%" height="100%" viewBox="0 0 {(K + N + 2) * cell} {(K + M + 2) * cell}" '
           'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">\n']

    def rect(x, y, tid, vid, close):
        return (f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="rgb({SVG_TV[tid % 8]})" '
                f'stroke="black"{close}>\n' + _svg_text(x + cell // 2, y + cell // 4, 8, f"T{tid}")
                + _svg_text(x + cell // 2, y + 3 * cell // 4, 8, f"V{vid}"))

    out += [rect((n + K + 2) * cell, (m + K + 2) * cell, t, v, "/") for t, v, m, n in _tv_cells(C, (M, N), where)]
    out += [rect((k + 1) * cell, (m + K + 2) * cell, t, v, " /") for t, v, m, k in _tv_cells(A, (M, K), where)]
    out += [_svg_text(cell // 2, (m + K + 2) * cell + cell // 2, 12, m) for m in range(M)]
    out += [_svg_text((k + 1) * cell + cell // 2, (K + 1) * cell + cell // 2, 12, k) for k in range(K)]
    out += [rect((n + K + 2) * cell, (k + 1) * cell, t, v, " /") for t, v, n, k in _tv_cells(B, (N, K), where)]
    out += [_svg_text((n + K + 2) * cell + cell // 2, cell // 2, 12, n) for n in range(N)]
    out += [_svg_text((K + 1) * cell + cell // 2, (k + 1) * cell + cell // 2, 12, k) for k in range(K)]
    out.append("</svg>\n")
    return "".join(out)


def _svg_text(x: int, y: int, font_size: int, text) -> str:
    return (f'<text x="{x}" y="{y}" text-anchor="middle" alignment-baseline="central" '
            f'font-size="{font_size}">{text}</text>\n')


# --- the expression language ------------------------------------------------------------------------

@dataclass(frozen=True)
class Picture:
    """A picture as a value of the expression language: ``print(picture)`` writes exactly CuTe's bytes."""
    text: str

    def __str__(self) -> str:
        return self.text[:-1] if self.text.endswith("\n") else self.text

    def __repr__(self) -> str:
        first = self.text.split("\n", 1)[0]
        return f"Picture({len(self.text)} characters: {first[:60]!r}...)"


# --- cells as data (the web page draws them; the same cells CuTe's pictures draw) ----------------------

def tv_panels(x) -> list:
    """The cells CuTe's ``print_latex`` draws for a TiledMMA (C, A, B) or a TiledCopy (S, D), as data:
    ``[(title, (M, N), [(m, n, thread, value), ...]), ...]``, each cell the first (thread, value) CuTe's
    loops reach.  @raises LayoutError/LimitError as the pictures do"""
    if isinstance(x, MMAAtom):
        x = make_tiled_mma(x)
    if isinstance(x, TiledMMA):
        C, A, B, _, (M, N, K), where = _mma_operands(x, "picture")
        return [("C", (M, N), [(m, n, t, v) for t, v, m, n in _tv_cells(C, (M, N), where)]),
                ("A", (M, K), [(m, k, t, v) for t, v, m, k in _tv_cells(A, (M, K), where)]),
                ("B", (N, K), [(n, k, t, v) for t, v, n, k in _tv_cells(B, (N, K), where)])]
    if isinstance(x, TiledCopy):
        S, D, _, (M, N), where = _copy_operands(x)
        return [(side, (M, N), [(m, n, t, v) for t, v, m, n in _tv_cells(L, (M, N), where)])
                for side, L in (("S", S), ("D", D))]
    raise LayoutError(f"tv_panels: expected a TiledMMA, an MMA atom or a TiledCopy, got {type(x).__name__}")
