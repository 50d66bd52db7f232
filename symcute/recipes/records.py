"""Typed records a recipe fills and a renderer reads: rows of the seed's tables, one field per column.

A record is stored in a step's details as JSON-native data (``to_details``: the same keys and values the
untyped dicts had, so a derivation's JSON is unchanged) and read back with ``from_details``, which also
takes the details of a derivation re-imported from JSON.  The derivation graph's node structure is
``symcute.trace``'s; these are the payloads of the recipes' own table and formula steps.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar, NamedTuple

from ..errors import SymcuteError


class Record:
    """Base of the records: JSON round trip by field name; ``ROWS`` names the fields that hold row records.

    A field whose default is None is optional: left out of the details while None, None when absent.
    """

    ROWS: ClassVar[dict] = {}

    def to_details(self) -> dict:
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is None and f.default is None:
                continue
            out[f.name] = [r.to_details() for r in v] if f.name in self.ROWS and v is not None else _json(v)
        return out

    @classmethod
    def from_details(cls, details: dict):
        """The record from a step's details (keys of other records in the same step are ignored)."""
        kw = {}
        for f in fields(cls):
            if f.name not in details and f.default is None:
                kw[f.name] = None
                continue
            if f.name not in details:
                raise SymcuteError(f"report: the {cls.__name__} record has no {f.name!r} (a malformed derivation)")
            v = details[f.name]
            kw[f.name] = (tuple(cls.ROWS[f.name].from_details(r) for r in v) if f.name in cls.ROWS and v is not None
                          else _frozen(v))
        return cls(**kw)


def _json(v):
    if isinstance(v, (list, tuple)):
        return [_json(x) for x in v]
    return v


def _frozen(v):
    """JSON lists as tuples: records are immutable values."""
    if isinstance(v, list):
        return tuple(_frozen(x) for x in v)
    return v


def list_row(cls):
    """A row stored as the list of its fields (``[name, extent]``): a NamedTuple, so ``row[0]`` and
    ``row.name`` both read it."""
    cls.to_details = lambda self: [_json(v) for v in self]
    cls.from_details = classmethod(lambda c, row: c(*(_frozen(v) for v in row)))
    return cls


# --- every formula step ------------------------------------------------------------------------------

@list_row
class AxisRow(NamedTuple):
    """A sub-axis of a formula (the seed's table columns): its name, extent, stride and weight."""
    name: str
    extent: int
    stride: int
    weight: int


@dataclass(frozen=True)
class FormulaStep(Record):
    """What every formula step records (``add_formula``); a recipe's own extras are a record of their own."""
    ROWS: ClassVar[dict] = {"axes": AxisRow}
    label: str
    axes: tuple
    text: str          # the formula in sub-axis order
    text_zeros: str    # the same with its stride-0 terms kept (0*wn)


# --- retile-d (the seed) -----------------------------------------------------------------------------

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
class ThreadDomain(Record):
    ROWS: ClassVar[dict] = {"rows": StageRow}
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
class SelectedTVs(Record):
    ROWS: ClassVar[dict] = {"rows": SelectedTV}
    rows: tuple
    threads: int
    ranges: tuple | None    # (v, lowest tv, highest tv) per value index, None when the image is not counted
    top_axis: str
    top_stride: int
    top_coord: tuple


@dataclass(frozen=True)
class UpcastRow(Record):
    """One sub-axis through ``upcast<n>``: ``per_group = ceil_div(n, |stride|)`` (None for stride 0),
    ``new_shape = ceil_div(shape, per_group)``, ``new_stride = ceil_div(|stride|, n)``."""
    axis: str
    shape: int
    stride: int
    per_group: int | None
    new_shape: int
    new_stride: int


@dataclass(frozen=True)
class Upcast(Record):
    """The extra details of an upcast formula step."""
    ROWS: ClassVar[dict] = {"rows": UpcastRow}
    n: int
    product_each: tuple
    rows: tuple
    modes: tuple
    steps: dict | None      # the symbolic upcast's per-mode table (Table.to_dict)


@dataclass(frozen=True)
class RetileConfig(Record):
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
class Retile(Record):
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


# --- gmem ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GmemCheck(Record):
    """One claim of the gmem recipe, decided for every admissible (M, K) (or by a cross-check of core).

    ``verdict``: the prover's ("proved", "refuted", "unknown"), or a cross-check's "agrees" / "differs";
    a refutation names its ``witness`` (parameter values), ``coordinate`` and the two ``values``.
    """
    claim: str
    verdict: str
    method: str
    witness: dict | None = None
    coordinate: str | None = None
    values: tuple | None = None
    reference: str | None = None     # static_tv: CuTe's static layout of the tile
    instances: int | None = None     # cross_check: admissible (M, K) tried
    points: int | None = None        # cross_check: (thread, value) points compared

    @property
    def failed(self) -> bool:
        return self.verdict in ("refuted", "differs")


@dataclass(frozen=True)
class GmemChecks(Record):
    ROWS: ClassVar[dict] = {"checks": GmemCheck}
    checks: tuple


# --- tv ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TVConfiguration(Record):
    """The atom (an MMA, or a TMEM copy for ``derive_tv_copy``) and its tile."""
    mma: str                          # the atom's name (a copy atom's for derive_tv_copy)
    ptx: str
    header: str
    arch: str | None
    tile: tuple
    threads: int
    atom_layout: str
    descriptors: dict                 # operand -> the GMMA descriptor type of a shared-memory operand
    value_type: str | None = None     # derive_tv_copy: the TMEM value type
    layout_tv: str | None = None      # derive_tv_copy: the TiledCopy's TiledLayout_TV
    tiler: tuple | None = None        # derive_tv_copy: Tiler_MN, one text per mode


@list_row
class BroadcastAxis(NamedTuple):
    """A stride-0 sub-axis of extent > 1."""
    name: str
    extent: int


@dataclass(frozen=True)
class TVLayout(Record):
    """The extra details of a TV layout's formula step ``F_<op>``."""
    ROWS: ClassVar[dict] = {"broadcast": BroadcastAxis}
    operand: str
    tile: tuple
    broadcast: tuple
    copies: int                       # product of the broadcast extents: how many TVs hold each element
    threads: int
    values: int
    size: int


@dataclass(frozen=True)
class TVInverse(Record):
    """The extra details of ``G_<op> = right_inverse(F_<op>)``: the coalesced modes in stride order, and
    the ones right_inverse skipped (each ``label(stride)`` / ``label``)."""
    operand: str
    size: int
    order: tuple
    skipped: tuple
