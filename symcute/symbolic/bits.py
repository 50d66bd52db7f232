"""The bits view of a layout (docs/symbolic.md, "Swizzled layouts (the bits view)"): an F2-affine map of named bits.

A swizzle ``Sw<B,M,S>`` XORs bit-field ``[M+S, M+S+B)`` of its input into
``[M, M+B)``: it is linear over GF(2) on the bits of any offset.  A layout is
F2-linear on the bits of its sub-axes when every sub-axis's multiples occupy
their own bits of the offset (a power-of-two stride, or a one-bit sub-axis)
and no two sub-axes share an offset bit (then ``+`` never carries and is XOR).
A ``ComposedLayout`` ``A o O o B`` is then ``A(O ^ B(x))`` when the offset's
bits are disjoint from ``B``'s.  So every swizzled shared-memory layout of
practice is a :class:`BitLayout`: ``value = matrix(bits) ^ constant`` over the
named input bits (``r_1`` is bit 1 of sub-axis ``r``; a one-bit sub-axis is its
own bit), with the matrix an :class:`~symcute.symbolic.f2.F2Matrix`.

    >>> b = bit_layout(ComposedLayout.parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), names=("r", "c"))
    >>> b.row_names(3)                    # offset bit 3 = c_3 ^ r_0
    ('r_0', 'c_3')

Values always agree with ``symcute.core`` (the tests check every point of small
layouts); a layout outside this view raises :class:`NotF2Linear` naming the
sub-axis, stride or offset that breaks it.  Non-power-of-two extents are
allowed (``r < 3`` has two bits); the domain is then a subset of the bit box,
which :attr:`BitLayout.is_box` reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..core import int_tuple as it
from ..core.composed import ComposedLayout
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..errors import SymcuteError
from .f2 import F2Matrix, bit_positions
from .table import Table


class NotF2Linear(SymcuteError):
    """The layout has no F2-affine bits view (the message names the sub-axis, stride or offset why)."""


class Bit(NamedTuple):
    """Input bit ``position`` of sub-axis ``axis`` (named ``axis_position``, or ``axis`` for a one-bit axis)."""
    name: str
    axis: str
    position: int


class Axis(NamedTuple):
    """A sub-axis of the domain: ``name in [0, extent)``, contributing ``weight * name`` to the input index."""
    name: str
    extent: int
    weight: int


@dataclass(frozen=True)
class BitLayout:
    """``x -> matrix(bits(x)) ^ constant`` over named input bits; ``layout`` is the core value it views.

    ``inputs[j]`` names column ``j`` of ``matrix``; ``axes`` is the domain
    (the input index is ``sum(weight * digit)``), its bits in ``inputs`` order.
    @post self(q) == layout(q) for every index q of the domain
    """

    inputs: tuple
    matrix: F2Matrix
    constant: int
    axes: tuple
    layout: object

    # --- domain -------------------------------------------------------------------
    @property
    def n_in(self) -> int:
        return self.matrix.n_cols

    @property
    def n_out(self) -> int:
        return self.matrix.n_rows

    def size(self) -> int:
        n = 1
        for a in self.axes:
            n *= a.extent
        return n

    @property
    def is_box(self) -> bool:
        """Every sub-axis extent is a power of two: the domain is all ``2^n_in`` bit vectors."""
        return all(a.extent & (a.extent - 1) == 0 for a in self.axes)

    def bits_of(self, index: int) -> int:
        """The input bit vector of a linear index of the domain."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size():
            raise SymcuteError(f"bits of {self.layout}: index {index!r} is outside the domain [0, {self.size()})")
        out, j = 0, 0
        for a in self.axes:
            out |= ((index // a.weight) % a.extent) << j
            j += _width(a.extent)
        return out

    def index_of(self, bits: int):
        """The linear index whose input bits are ``bits``, or ``None`` when a digit leaves its extent."""
        q, j = 0, 0
        for a in self.axes:
            w = _width(a.extent)
            d = (bits >> j) & ((1 << w) - 1)
            if d >= a.extent:
                return None
            q += d * a.weight
            j += w
        return q if bits >> j == 0 else None

    # --- values -------------------------------------------------------------------
    def __call__(self, index: int) -> int:
        return self.value_of_bits(self.bits_of(index))

    def value_of_bits(self, bits: int) -> int:
        return self.matrix(bits) ^ self.constant

    def then(self, outer) -> "BitLayout":
        """``outer`` applied to this map's values (a Swizzle, Layout or ComposedLayout on offsets).

        @post result(q) == outer(self(q))
        """
        m, c = integer_map(outer, max(self.n_out, 1))
        return BitLayout(self.inputs, m.compose(self.matrix.widen(m.n_cols)), m(self.constant) ^ c, self.axes,
                         _Then(outer, self.layout))

    # --- reading ------------------------------------------------------------------
    def row_names(self, i: int) -> tuple:
        """The input bits XORed into output bit ``i`` (``"1"`` last when the constant sets it)."""
        row = [b.name for j, b in enumerate(self.inputs) if (self.matrix.columns[j] >> i) & 1]
        if (self.constant >> i) & 1:
            row.append("1")
        return tuple(row)

    def column_names(self, j: int) -> tuple:
        """The output bits input bit ``j`` flips (its basis vector, as bit positions)."""
        return tuple(bit_positions(self.matrix.columns[j]))

    def table(self) -> Table:
        """The bit table: for each output bit (offset bit), the named input bits XORed into it."""
        rows = [[f"bit {i}", " ^ ".join(self.row_names(i)) or "0"] for i in range(self.n_out)]
        return Table(["offset bit", "= XOR of"], rows)

    def bases(self) -> Table:
        """Triton's view: each input bit with the output it produces on its own (its basis vector)."""
        return Table(["input bit", "axis", "basis"],
                     [[b.name, b.axis, self.matrix.columns[j]] for j, b in enumerate(self.inputs)])

    def to_dict(self) -> dict:
        return {"layout": str(self.layout), "inputs": [b.name for b in self.inputs],
                "axes": [list(a) for a in self.axes], "columns": list(self.matrix.columns),
                "n_out": self.n_out, "constant": self.constant}


class _Then:
    """The label of ``outer o inner`` as a function (for messages and ``BitLayout.layout``)."""

    def __init__(self, outer, inner):
        self.outer, self.inner = outer, inner

    def __call__(self, *x):
        return self.outer(self.inner(*x))

    def __str__(self) -> str:
        return f"({self.outer}) after ({self.inner})"


def _width(extent: int) -> int:
    """Bits of a digit in ``[0, extent)``."""
    return (extent - 1).bit_length()


def bit_names(axes) -> tuple:
    """The :class:`Bit` of each input bit of ``axes``, low first (``r_0, r_1, r_2, c, ...``)."""
    out, taken = [], {a.name for a in axes if _width(a.extent) == 1}
    for a in axes:
        w = _width(a.extent)
        for p in range(w):
            if w == 1:
                out.append(Bit(a.name, a.name, 0))
                continue
            name = f"{a.name}_{p}"
            while name in taken:
                name = name.replace("_", "__", 1)
            taken.add(name)
            out.append(Bit(name, a.name, p))
    return tuple(out)


# --- building the view -----------------------------------------------------------------

def bit_layout(layout, names=None) -> BitLayout:
    """The bits view of a power-of-two layout, a swizzle, or a ``ComposedLayout`` (any nesting).

    ``layout``: a Layout, a :class:`~symcute.symbolic.Formula` (its sub-axes name
    the bits), a Swizzle (on ``[0, size)``) or a ComposedLayout (``names`` name
    its domain, the inner layout's modes, as :func:`symcute.symbolic.formula`).
    @post result(q) == layout(q) for every q < size(layout)
    @raises NotF2Linear naming what has no F2 view
    """
    from .formula import Formula, formula
    if isinstance(layout, Formula):
        return _domain_view(layout.layout, layout.axes, layout)
    if isinstance(layout, Swizzle):
        ax = (Axis("x", layout.size(), 1),) if layout.size() > 1 else ()
        m, c = integer_map(layout, _width(layout.size()))
        return BitLayout(bit_names(ax), m, c, ax, layout)
    if isinstance(layout, ComposedLayout):
        inner = bit_layout(layout.inner, names)
        after_offset = _add_offset(inner, layout.offset, layout)
        out = after_offset.then(layout.outer)
        return BitLayout(out.inputs, out.matrix, out.constant, out.axes, layout)
    if isinstance(layout, Layout):
        f = formula(layout, names)
        return _domain_view(layout, f.axes, layout)
    raise SymcuteError(f"bit_layout: {layout!r} is not a layout, a swizzle or a composed layout")


def _domain_view(layout: Layout, sub_axes, source) -> BitLayout:
    axes = tuple(Axis(a.name, a.extent, a.weight) for a in sub_axes)
    cols = []
    for a in sub_axes:
        cols += _digit_columns(a.name, a.extent, a.stride, layout)
    _check_disjoint(bit_names(axes), cols, layout)
    width = max((c.bit_length() for c in cols), default=0)
    return BitLayout(bit_names(axes), F2Matrix(tuple(cols), width), 0, axes, source)


def _digit_columns(name: str, extent: int, stride, layout) -> list:
    """The offset bits each bit of digit ``name`` sets: ``stride << p`` (refused where multiples carry)."""
    w = _width(extent)
    if isinstance(stride, bool) or not isinstance(stride, int):
        raise NotF2Linear(f"{layout}: sub-axis {name} has the basis stride {stride}; the bits view takes "
                          f"integer strides")
    if stride < 0:
        raise NotF2Linear(f"{layout}: sub-axis {name} has the negative stride {stride} (no F2 view)")
    if w > 1 and stride & (stride - 1):
        raise NotF2Linear(f"{layout}: sub-axis {name} (extent {extent}) has stride {stride}, not a power of "
                          f"two: its multiples carry, so it is not F2-linear on its bits")
    return [stride << p for p in range(w)]


def _check_disjoint(bits, cols, layout) -> None:
    seen = 0
    for j, c in enumerate(cols):
        if c & seen:
            clash = (c & seen) & -(c & seen)
            other = next(bits[k].name for k in range(j) if cols[k] & clash)
            raise NotF2Linear(f"{layout}: input bits {other} and {bits[j].name} both reach offset bit "
                              f"{clash.bit_length() - 1}, so the sum carries (not F2-linear)")
        seen |= c


def _add_offset(inner: BitLayout, offset, where) -> BitLayout:
    """``O + v`` is ``O ^ v`` when ``O`` shares no bit with any value ``v`` of ``inner``."""
    o = int(offset)
    if o < 0:
        raise NotF2Linear(f"{where}: the offset {o} is negative (no F2 view)")
    reach = inner.constant
    for c in inner.matrix.columns:
        reach |= c
    if o & reach:
        raise NotF2Linear(f"{where}: the offset {o} shares offset bit {(o & reach).bit_length() - 1} with the "
                          f"inner layout's values, so adding it carries (not F2-linear)")
    width = max(inner.n_out, o.bit_length())
    return BitLayout(inner.inputs, inner.matrix.widen(width), inner.constant ^ o, inner.axes, inner.layout)


def integer_map(fn, n_bits: int):
    """``(matrix, constant)`` with ``fn(x) == matrix(x) ^ constant`` for every ``0 <= x < 2^n_bits``.

    ``fn``: a Swizzle (linear on all offsets), a Layout (applied to an integer
    index, its last mode taking the overflow, as CuTe evaluates it) or a
    ComposedLayout.  @raises NotF2Linear naming what breaks linearity
    """
    if isinstance(fn, Swizzle):
        cols = tuple(fn(1 << j) for j in range(n_bits))
        return F2Matrix(cols, max([n_bits] + [c.bit_length() for c in cols])), 0
    if isinstance(fn, ComposedLayout):
        m, c = integer_map(fn.inner, n_bits)
        inner = BitLayout((), m, c, (), fn.inner)
        o = _add_offset(inner, fn.offset, fn)
        mo, co = integer_map(fn.outer, max(o.n_out, 1))
        return mo.compose(o.matrix.widen(mo.n_cols)), mo(o.constant) ^ co
    if isinstance(fn, Layout):
        return _layout_on_integers(fn, n_bits)
    raise NotF2Linear(f"{fn!r} is not a swizzle or a layout (no F2 view)")


def _layout_on_integers(layout: Layout, n_bits: int):
    """A layout applied to integers of ``n_bits`` bits: mode ``k`` reads index bits ``[log P_k, log P_k+1)``."""
    shape = it.flatten_to_tuple(layout.shape)
    stride = it.flatten_to_tuple(layout.stride)
    cols, j, w = [], 0, 1
    names = []
    for k, (s, d) in enumerate(zip(shape, stride)):
        last = k == len(shape) - 1
        if j >= n_bits:
            break
        if not last and s & (s - 1):
            raise NotF2Linear(f"{layout}: mode {k} has extent {s}, not a power of two, so the index bits "
                              f"do not split over its modes (no F2 view)")
        width = n_bits - j if last else _width(s)
        width = min(width, n_bits - j)
        cols += _digit_columns(f"mode {k}", 1 << width if width else 1, d, layout)
        names += [Bit(f"q{j + p}", f"mode {k}", p) for p in range(width)]
        j += width
        w *= s
    cols += [0] * (n_bits - len(cols))
    names += [Bit(f"q{p}", "", p) for p in range(len(names), n_bits)]
    _check_disjoint(names, cols, layout)
    return F2Matrix(tuple(cols), max([0] + [c.bit_length() for c in cols])), 0
