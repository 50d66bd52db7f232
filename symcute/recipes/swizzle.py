"""A swizzled shared-memory tile, end to end: its formula, bit table, bijection proof and bank collisions.

For ``Sw<B,M,S> o O o L`` with named sub-axes the recipe records

- the formula (``(64*r + c) ^ ((r >> 1) << 4)``) and the bit table (each
  offset bit as the XOR of named input bits), with and without the swizzle;
- the prover's bijectivity proof of both (GF(2) for the swizzled one);
- the bank each row's element of one column falls into, for elements of
  ``element_bits``: shared memory has 32 banks of 4 bytes, so the bank is bits
  ``[2, 7)`` of the byte address.  Over GF(2) the bank of the column's elements
  is a linear map of the row bits; its kernel is exactly the set of row
  differences that collide (rows ``r`` and ``r ^ v`` share a bank for every
  kernel vector ``v``).  Every collision is re-evaluated with core.

All numbers come from core evaluation and :mod:`symcute.symbolic`.
"""

from __future__ import annotations

from .. import symbolic as sym
from ..core.parse import parse_layout
from ..errors import SymcuteError
from ..symbolic.bits import bit_layout
from ..symbolic.f2 import F2Matrix, bit_positions
from ..trace.derivation import Derivation
from .records import AxisRow
from .records_memory import BitRow, ColumnBanks, RowPair, SwizzleBanks, SwizzleFormula
from .steps import add_proof, add_table

BANK_BITS = (2, 7)   # 32 banks x 4 bytes: bank = (byte address >> 2) % 32


MAX_TILE_ELEMENTS = 1 << 16   # elements of one swizzled smem tile (228 KiB of smem holds 2^17 bytes)


def derive_swizzle(layout="Sw<3,4,3> o 0 o (8,64):(64,1)", names=None, element_bits: int = 16,
                   column: int = 0) -> Derivation:
    """The tile ``layout`` (a ComposedLayout or its notation) named ``names``; rows are mode 0, columns mode 1.

    ``names`` default to ``(r, c)`` for a tile of two plain modes, to the default mode-path names otherwise
    (a tile_to_shape of a GMMA atom has nested modes).

    @pre layout is ``Sw o O o L`` with a rank-2 ``L`` whose offsets are F2-linear (power-of-two strides)
    """
    L = parse_layout(layout) if isinstance(layout, str) else layout
    if not hasattr(L, "inner") or getattr(L.inner, "rank", 0) != 2:
        raise SymcuteError(f"derive_swizzle: {layout} is not a swizzled rank-2 layout Sw o O o (rows, columns)")
    if names is None and all(isinstance(m, int) for m in L.inner.shape):
        names = ("r", "c")
    if L.size() > MAX_TILE_ELEMENTS:   # the bit table and bank rows walk the tile
        from ..errors import LimitError
        raise LimitError(f"derive_swizzle: {L} has {L.size()} elements, more than the limit of "
                         f"{MAX_TILE_ELEMENTS} (symcute.recipes.swizzle.MAX_TILE_ELEMENTS)")
    if element_bits not in (8, 16, 32, 64):
        raise SymcuteError(f"derive_swizzle: element_bits must be 8, 16, 32 or 64, got {element_bits}")
    f = sym.formula(L, names)
    d = Derivation(f"The swizzled tile {L}", recipe="swizzle", layout=str(L), names=list(f.domain.leaf_labels),
                   element_bits=element_bits, column=column)   # the whole call: a reader derives it again
    plain = sym.formula(L.inner, names)
    add_table(d, "swizzle_formula", **SwizzleFormula(
        layout=str(L), inner=str(L.inner), swizzle=str(L.outer), text=str(f), latex=f.latex(), plain_text=str(plain),
        axes=tuple(AxisRow(a.name, a.extent, a.stride, a.weight) for a in f.axes),
        bits=_bit_rows(f), bit_names=tuple(b.name for b in f.bits.inputs),
        plain_bits=_bit_rows(bit_layout(plain))).to_details())
    for term, label in ((f, "L"), (plain, "L_plain")):
        p = sym.is_bijective(term)
        add_proof(d, "is_bijective", p, {"L": term.layout}, [str(term.layout)], "bijective", term.size(), term.size())
    add_table(d, "swizzle_banks", **SwizzleBanks(element_bits, column, swizzled=_banks(L, names, element_bits, column),
                                                 plain=_banks(L.inner, names, element_bits, column)).to_details())
    return d


def _bit_rows(term) -> tuple:
    """The bit table of ``term`` (a swizzled formula, or a :class:`~symcute.symbolic.bits.BitLayout`) as rows:
    offset bit i as the XOR of the named input bits (its table, row by row)."""
    return tuple(BitRow(i, xor) for i, (_label, xor) in enumerate(term.table().rows))


def _banks(layout, names, element_bits: int, column: int) -> ColumnBanks:
    """The bank of element (r, column) for every row r, and the colliding row pairs from the GF(2) kernel."""
    from ..core import int_tuple as it
    row_shape = layout.shape[0]
    rows = it.product(row_shape) if isinstance(row_shape, tuple) else row_shape
    if rows & (rows - 1):
        raise SymcuteError(f"derive_swizzle: the row mode of {layout} has {rows} rows, not a power of two")
    inner = layout
    while hasattr(inner, "inner"):
        inner = inner.inner
    f = sym.formula(inner, names)
    n_row_leaves = len(it.flatten_to_tuple(row_shape)) if isinstance(row_shape, tuple) else 1
    row_axes = {a.name for a in f.axes if a.leaf < n_row_leaves}
    bits = bit_layout(layout, names)
    row_bits = [j for j, b in enumerate(bits.inputs) if b.axis in row_axes]
    shift = (element_bits // 8).bit_length() - 1          # element offset -> byte address: << log2(bytes)
    lo, hi = BANK_BITS
    def bank_of_offset_bits(v: int) -> int:
        return ((v << shift) >> lo) & ((1 << (hi - lo)) - 1)
    # the bank of row bits x (column fixed) is bank(M x ^ M c ^ const): linear in x, plus a constant
    A = F2Matrix(tuple(bank_of_offset_bits(bits.matrix.columns[j]) for j in row_bits), hi - lo)
    kernel = list(A.kernel())   # over the row bits, low first: a kernel vector is a row difference
    span = {0}
    for v in kernel:
        span |= {s ^ v for s in span}
    pairs = sorted({(min(r, r ^ v), max(r, r ^ v)) for r in range(rows) for v in span if v})
    banks = [((layout(r, column) * element_bits // 8) >> lo) % 32 for r in range(rows)]
    for a, b in pairs:   # every kernel collision is a real one (core evaluation)
        if banks[a] != banks[b]:
            raise AssertionError(f"derive_swizzle: rows {a} and {b} do not share a bank")
    distinct = len(set(banks))
    return ColumnBanks(banks=tuple(banks),
                       kernel=tuple(tuple(bits.inputs[row_bits[k]].name for k in bit_positions(v)) for v in kernel),
                       pairs=tuple(RowPair(*p) for p in pairs), ways=rows // distinct, distinct=distinct)
