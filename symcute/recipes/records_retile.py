"""The records of retile-d (the seed, ``recipes.retile``): its tables and the extras of its formula steps.

Each record is one table (``add_table(d, kind, **rec.to_details())``) or the recipe's own details of a
formula step (``add_formula(d, ..., **rec.to_details())``), read back by ``report/retile.py`` with
``Rec.from_details``; the base and the JSON rules are :mod:`symcute.recipes.records`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .records import Record, TableRecord, list_row, record, rows, typed


# --- the TiledMMA ("configuration") --------------------------------------------------------------------

@list_row
class ThreadMode(NamedTuple):
    """A mode of the TiledMMA's thread layout beyond the atom's own threads: ``wm``, ``wn`` or ``wk``."""
    name: str
    extent: int
    stride: int      # the mode's first stride in thr_layout_vmnk (0 when its extent is 1)


@dataclass(frozen=True)
@typed(thread_modes=rows(ThreadMode))
class TiledMMAConfiguration(TableRecord):
    """``make_tiled_mma(mma, atom_layout[, permutation])`` and the operand the recipe follows."""
    mma: str
    arch: str | None
    header: str
    ptx: str
    atom_shape: tuple           # the atom's (M,N,K)
    atom_layout: str            # CuTe's atom_layout_mnk
    atom_layout_shape: tuple    # its (M,N,K) extents
    permutation: tuple | None   # the tile extents PermutationMNK gives (None: no permutation)
    tile: tuple                 # tile_size<0..2>
    operand: str
    operand_axes: tuple         # ("m", "k") for A
    operand_tile: tuple
    atom_threads: int
    threads: int
    thr_layout_vmnk: str
    thread_modes: tuple         # ThreadMode rows: wm, wn, wk
    broadcast_mode: str | None  # the mode the operand is broadcast over, where that mode has threads


# --- the extras of the formula steps F, G and H ----------------------------------------------------------

@list_row
class Term(NamedTuple):
    """One term ``coefficient * name`` of a linear form over sub-axes, with the sub-axis' extent."""
    coefficient: int
    name: str
    extent: int


def _modes_of_terms(v):
    """Per mode, its terms (``coordinate_terms``, ``mode_terms``)."""
    return tuple(rows(Term)(mode) for mode in v)


@dataclass(frozen=True)
@typed(thread_terms=rows(Term), value_terms=rows(Term), coordinates=_modes_of_terms)
class TVTerms(Record):
    """The extra details of F's formula step: t and v as sums of sub-axes, and the tile coordinate F gives."""
    thread_terms: tuple         # t = sum(weight * digit) over mode 0's sub-axes
    value_terms: tuple          # v = the same over mode 1 (weights divided by the thread count)
    coordinates: tuple | None   # per tile mode its terms; None when F's value does not split that way
    tile: tuple
    axes_names: tuple
    broadcast: tuple            # names of the stride-0 sub-axes
    threads: int
    values: int


@dataclass(frozen=True)
class RightInverseModes(Record):
    """``right_inverse``'s own details (the coalesced F, its modes' stride order) by sub-axis name."""
    coalesced: str
    modes: tuple                # the coalesced modes' names
    weights: tuple
    order: tuple                # names in increasing stride order
    chosen: tuple
    skipped: tuple
    shapes: tuple
    strides: tuple
    strides_of_G: tuple         # G's flat strides as CuTe prints G


@dataclass(frozen=True)
@typed(right_inverse=record(RightInverseModes))
class RetileInverse(Record):
    """The extra details of G's formula step: ``right_inverse(F)`` and the digit of G with the top weight."""
    right_inverse: RightInverseModes
    size: int
    top_axis: str
    top_weight: int             # its coefficient in G: the product of the extents below it in F
    top_factors: tuple          # those extents
    top_stride_in_F: int
    threads: int


@list_row
class LargestTerm(NamedTuple):
    """A sub-axis at its top digit: ``top * stride`` is its part of the largest value."""
    top: int
    stride: int


@list_row
class Digit(NamedTuple):
    """A sub-axis of H by its new name: extent and weight."""
    name: str
    extent: int
    weight: int


@dataclass(frozen=True)
@typed(mode_terms=_modes_of_terms, largest_terms=rows(LargestTerm), digits=rows(Digit))
class RetileWithShape(Record):
    """The extra details of H's formula step (``G.with_shape(Tiler_MN)``): H per coordinate mode."""
    tile: tuple
    axes_names: tuple
    aliases: dict               # H's sub-axis name -> F's
    mode_terms: tuple           # per coordinate mode its terms (weights within the mode)
    largest: int                # H's largest value: every digit at its top
    largest_terms: tuple
    digits: tuple
    N: int                      # TiledNumThr * V, the upcast to come


# --- the thread domain, the selected TVs, upcast, the TiledCopy and retile -------------------------------

@dataclass(frozen=True)
class StageRow(Record):
    """One stage of the thread domain: thrfrg_X(ref) or the final TV layout."""
    stage: str
    layout: str
    threads: int
    values: int
    tvs: int
    distinct: int | None    # distinct tile elements the TVs reach (None: too many to count)


@dataclass(frozen=True)
@typed(rows=rows(StageRow))
class ThreadDomain(TableRecord):
    ref: str
    ref_shape: tuple
    rows: tuple             # (thrfrg, final)
    broadcast_tile: str | None
    thridx_2_thrid: str
    thrfrg_thread_shape: str


@dataclass(frozen=True)
class SelectedTV(Record):
    """A row of the seed's (m,k) -> q -> (t,v) -> tv table."""
    coord: tuple
    q: int
    tv: int
    tv_coord: tuple


@dataclass(frozen=True)
@typed(rows=rows(SelectedTV))
class SelectedTVs(TableRecord):
    rows: tuple
    threads: int
    ranges: tuple | None    # (v, lowest tv, highest tv) per value index, None when the image is not counted
    top_axis: str
    top_stride: int
    top_coord: tuple


@dataclass(frozen=True)
class UpcastRow(Record):
    """One sub-axis through ``upcast<n>``, as a step stores it: symbolic's
    :class:`~symcute.symbolic.ops.UpcastAxis` (core's ``upcast_mode`` on that sub-axis: ``per_group =
    ceil_div(n, |stride|)``, None for stride 0; ``new_shape = ceil_div(shape, per_group)``; ``new_stride =
    sign(stride) * ceil_div(|stride|, n)``), field for field."""
    axis: str
    shape: int
    stride: int
    per_group: int | None
    new_shape: int
    new_stride: int


@dataclass(frozen=True)
@typed(rows=rows(UpcastRow))
class Upcast(Record):
    """The extra details of an upcast formula step."""
    n: int
    product_each: tuple
    rows: tuple
    modes: tuple
    steps: dict | None      # the symbolic upcast's per-mode table (Table.to_dict)


@dataclass(frozen=True)
class RetileConfig(TableRecord):
    """The TiledCopy of retile-d and the fragment it retiles: CuTe's member types, V, N = TiledNumThr*V."""
    V: int
    N: int
    tiler: str
    tile: tuple
    elements: int
    fragment: str
    fragment_given: bool      # V came from --values, not from thread 0's fragment
    copy_atom: str
    value_type: str
    ptx: str
    copy_header: str
    layout_tv: str
    tiled_num_thr: int
    tiled_num_val: int
    atom_num_thr: int
    atom_num_val: int
    copy_arch: str | None = None
    mma_arch: str | None = None
    mma_threads: int | None = None


@dataclass(frozen=True)
class Retile(TableRecord):
    """``TiledCopy::retile``'s intermediate values (the seed's last section)."""
    V: int
    upcast_n: int
    frg_layout_mn: str
    product_each: tuple
    frg_layout_v: str
    tiler: tuple
    t_tensor: str
    v_tensor: str
    result: str
    grouping: str
    atom_num_val: int
    fragment: str
