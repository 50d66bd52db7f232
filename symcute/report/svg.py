"""symcute's own SVG pictures, for notebooks: a layout's grid of values, a TiledCopy's source and destination.

CuTe's ``print_svg`` draws only MMAs (:func:`symcute.report.pictures.print_svg` reproduces it
byte for byte); these draw what it does not, in its style (20-unit cells, ``SVG_TV`` colours):

- :func:`layout_svg`: a rank-1 or rank-2 layout (a swizzled one too) as an M x N grid, each cell
  showing its value and coloured by ``value % 8``;
- :func:`copy_svg`: a TiledCopy's S and D tiles side by side, each cell showing the
  thread and value (``T3``/``V1``) that first reaches it, coloured by thread (as print_svg colours C).

The cells drawn are bounded by ``pictures.MAX_CELLS`` (``symcute calc --max-cells``).
"""

from __future__ import annotations

from ..atoms.tiled_copy import TiledCopy
from ..core import ComposedLayout, Layout
from ..errors import LayoutError, LimitError
from . import pictures

CELL = 20


def _text(x: int, y: int, size: int, text) -> str:
    return (f'<text x="{x}" y="{y}" text-anchor="middle" alignment-baseline="central" '
            f'font-size="{size}">{text}</text>\n')


def _svg(width: int, height: int, body: list) -> str:
    return (f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'xmlns="http://www.w3.org/2000/svg">\n' + "".join(body) + "</svg>\n")


def layout_svg(layout) -> str:
    """The grid of ``layout``'s values (rank 1: one row).

    @pre rank(layout) <= 2; the values are integers (an identity layout's coordinates are refused)
    """
    if not isinstance(layout, (Layout, ComposedLayout)):
        raise LayoutError(f"layout_svg: {layout!r} is not a layout")
    if layout.rank > 2:
        raise LayoutError(f"layout_svg({layout}): rank {layout.rank}; the grid draws rank 1 or 2")
    if layout.rank == 2:
        M, N = layout[0].size(), layout[1].size()
        at = lambda m, n: layout(m, n)  # noqa: E731
    else:
        M, N = 1, layout.size()
        at = lambda m, n: layout(n)  # noqa: E731
    if M * N > pictures.MAX_CELLS:
        raise LimitError(f"layout_svg({layout}): {M * N} cells exceed the limit of {pictures.MAX_CELLS} "
                         f"({pictures._RAISE})")
    body = []
    for m in range(M):
        for n in range(N):
            v = at(m, n)
            if not isinstance(v, int):
                raise LayoutError(f"layout_svg({layout}): its value at ({m},{n}) is {v}, not an index")
            x, y = (n + 1) * CELL, (m + 1) * CELL
            body.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                        f'fill="rgb({pictures.SVG_TV[v % 8]})" stroke="black"/>\n')
            body.append(_text(x + CELL // 2, y + CELL // 2, 8, v))
    body += [_text(CELL // 2, (m + 1) * CELL + CELL // 2, 10, m) for m in range(M)]
    body += [_text((n + 1) * CELL + CELL // 2, CELL // 2, 10, n) for n in range(N)]
    return _svg((N + 1) * CELL, (M + 1) * CELL, body)


def copy_svg(copy: TiledCopy) -> str:
    """A TiledCopy's S (left) and D (right) tiles: the (thread, value) that first reaches each cell."""
    if not isinstance(copy, TiledCopy):
        raise LayoutError(f"copy_svg: {copy!r} is not a TiledCopy")
    S, D, _tile, (M, N), where = pictures._copy_operands(copy)
    body = []
    for layout_tv, dx in ((S, 1), (D, N + 3)):
        for t, v, m, n in pictures._tv_cells(layout_tv, (M, N), where):
            x, y = (n + dx) * CELL, (m + 1) * CELL
            body.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                        f'fill="rgb({pictures.SVG_TV[t % 8]})" stroke="black"/>\n')
            body.append(_text(x + CELL // 2, y + CELL // 4, 7, f"T{t}"))
            body.append(_text(x + CELL // 2, y + 3 * CELL // 4, 7, f"V{v}"))
        body += [_text((n + dx) * CELL + CELL // 2, CELL // 2, 10, n) for n in range(N)]
    body += [_text(CELL // 2, (m + 1) * CELL + CELL // 2, 10, m) for m in range(M)]
    return _svg((2 * N + 4) * CELL, (M + 1) * CELL, body)
