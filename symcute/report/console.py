"""CuTe's console tables, byte for byte: ``print_layout`` and ``print_tensor`` (``cute/util/print_tensor.hpp``).

Each function returns the text the CuTe function writes to stdout (CUTLASS 4.2),
with the layout in the header printed as symcute prints it (no ``_`` on static
integers; the differential suite compares modulo those underscores).

- ``print_layout(layout)``: a rank-2 layout as a grid of its values, the column
  width ``num_digits(cosize) + 2``;
- ``print_tensor(tensor, print_type)``: the values of a rank 1-4 tensor (each an
  integer ``%5d``, or ``"  "`` + a coordinate for identity tensors), rank 3 and 4
  as slices separated by ``-`` / ``=`` rules of ``5 * size<1>`` characters.
"""

from __future__ import annotations

from ..core import ComposedLayout, Layout, _, cosize
from ..core.composed import SmemPtrFlag, composition3
from ..core.tensor import Tensor
from ..errors import LayoutError, LimitError

MAX_CELLS = 1 << 16  # the most values one table prints; CuTe prints whatever it is given
_DELIM = "+-----------------------"


def num_digits(x: int) -> int:
    """CuTe's ``num_digits`` (util/print.hpp): 1 below 10, ... (a negative cosize counts as 1 digit)."""
    n = 1
    while x >= 10:
        x //= 10
        n += 1
    return n


def print_layout(layout) -> str:
    """CuTe's ``print_layout``: the ``(m,n) -> idx`` table of a rank-2 layout.

    @pre rank(layout) == 2 (CuTe static_asserts it)
    """
    if isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag):
        layout = composition3(layout.outer, 0, layout.inner)  # as_position_independent_swizzle_layout
    if not isinstance(layout, (Layout, ComposedLayout)):
        raise LayoutError(f"print_layout: {layout!r} is not a layout")
    if layout.rank != 2:
        raise LayoutError(f"print_layout({layout}): the layout has rank {layout.rank}; print_layout takes rank 2")
    m_size, n_size = layout[0].size(), layout[1].size()
    _check_extents((m_size, n_size), "print_layout", layout)
    width = num_digits(int(cosize(layout))) + 2
    out = [f"{layout}\n", "    "]
    out += [f"  {n:>{width - 2}} " for n in range(n_size)]
    out.append("\n")
    rule = "    " + _DELIM[:width + 1] * n_size + "+\n"
    for m in range(m_size):
        out.append(rule)
        out.append(f"{m:>2}  ")
        for n in range(n_size):
            v = layout(m, n)
            if not isinstance(v, int):
                raise LayoutError(f"print_layout({layout}): its value at ({m},{n}) is {v}, not an index")
            out.append(f"| {v:>{width - 2}} ")
        out.append("|\n")
    out.append(rule)
    return "".join(out)


def print_tensor(tensor, print_type: bool = True) -> str:
    """CuTe's ``print_tensor(tensor, print_type)`` for symcute's tensors (values: indices or coordinates; a
    pointer tensor's values are the elements' indices from the pointer's base, as symcute holds no data)."""
    if isinstance(tensor, (Layout, ComposedLayout)):
        tensor = Tensor(tensor)
    if not isinstance(tensor, Tensor):
        raise LayoutError(f"print_tensor: {tensor!r} is not a tensor")
    if not 1 <= tensor.rank <= 4:
        raise LayoutError(f"print_tensor({tensor}): rank {tensor.rank}; CuTe prints ranks 1 to 4")
    _check_extents([tensor.layout()[i].size() for i in range(tensor.rank)], "print_tensor", tensor)
    out = [f"{tensor}:\n"] if print_type else []
    _values(tensor, out)
    return "".join(out)


def _values(t: Tensor, out: list) -> None:
    rank = t.rank
    if rank == 1:
        for m in range(t.size()):
            out.append(_pretty(t(m)) + "\n")
    elif rank == 2:
        for m in range(t.layout()[0].size()):
            out.append("".join(_pretty(t(m, n)) for n in range(t.layout()[1].size())) + "\n")
    else:
        last = t.layout()[rank - 1].size()
        rule = ("-" if rank == 3 else "=") * (5 * t.layout()[1].size()) + "\n"
        for k in range(last):
            if k:
                out.append(rule)
            _values(t(*((_,) * (rank - 1)), k), out)


def _pretty(v) -> str:
    """CuTe's ``pretty_print``: ``%5d`` for an int, ``"  "`` + ``print`` for anything else (a coordinate)."""
    if isinstance(v, int):
        return f"{v:>5}"
    return "  " + str(v)


def _check_extents(extents, fn: str, what) -> None:
    """Bound the printer's loops, not only its cells: each extent (labels, rules, rows) and their product.
    A zero extent empties the product but not the other loops (``print_layout((0,2^40):(1,1))`` printed
    2^40 column labels, and a rule of 2^40 characters, for a table of no cells)."""
    for e in extents:
        if type(e) is not int:
            raise LayoutError(f"{fn}({what}): the extent {e} is not an integer")
        if abs(e) > MAX_CELLS:
            raise LimitError(f"{fn}({what}): an extent of {e} exceeds the limit of {MAX_CELLS} "
                             f"(symcute.report.console.MAX_CELLS)")
    n = 1
    for e in extents:
        n *= max(e, 1)
    _check_cells(n, fn, what)


def _check_cells(n: int, fn: str, what) -> None:
    if n > MAX_CELLS:
        raise LimitError(f"{fn}({what}): {n} values exceed the limit of {MAX_CELLS} "
                         f"(symcute.report.console.MAX_CELLS)")
