"""The records of the gmem recipe (``recipes.gmem``): a parametric (M, K) tensor through local_tile and
partition_A, then a TiledCopy's partition_S.

Each record is one table of the derivation (``add_table(d, kind, **rec.to_details())``), read back by
``report/gmem.py`` with ``Rec.from_details``; the base and the JSON rules are :mod:`symcute.recipes.records`.
Parametric values (layouts, offsets, coefficients in M and K) are kept as the text the parametric printer
gives; verdicts of the parametric decisions are :class:`~symcute.symbolic.vocabulary.Verdict` members.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from ..symbolic.vocabulary import Verdict
from .records import Record, TableRecord, list_row, rows, typed


PARAMETERS = ("M", "K")   # gA's shape (M, K): a witness names them in this order


def parameter_values(v) -> dict:
    """A ``typed`` reader: a witness (parameter -> value) keyed by name in :data:`PARAMETERS` order, so a
    derivation read back from JSON (whose keys are sorted) prints ``M=1, K=1`` as the one it came from."""
    named = {str(k): x for k, x in v.items()}
    return {k: named[k] for k in sorted(named, key=lambda k: (PARAMETERS.index(k) if k in PARAMETERS
                                                             else len(PARAMETERS), k))}


@dataclass(frozen=True)
class GmemConfiguration(TableRecord):
    """The TiledMMA, the CTA tile (BM, BK) and the conditions on the parameters M and K."""
    mma: str
    ptx: str
    header: str
    arch: str | None
    atom_layout: str
    tile: tuple                 # (BM, BK)
    threads: int
    mma_tile: tuple             # the TiledMMA's tile_size<0..2>
    conditions: tuple           # one text per parameter (M >= 128, M % 128 == 0)


@dataclass(frozen=True)
@typed(all_full_loose=Verdict, all_full_witness=parameter_values)
class GmemTiles(TableRecord):
    """``zipped_divide(mA, (BM, BK))`` with the divisibility conditions and without, and gA's offset."""
    global_layout: str
    global_cute: str            # the same as CuTe prints it (static strides _1)
    tiles: str
    tiles_loose: str            # for M, K only positive integers
    tile_counts: tuple          # the two tile counts (M/BM, K/BK)
    tile_counts_loose: tuple
    offset: str                 # gA's offset in bm, bk
    tile_layout: str
    all_full_loose: Verdict     # every tile full, for M, K only positive integers
    all_full_witness: dict      # parameter values where a tile is partial (empty unless refuted)


@list_row
class ThreadPartition(NamedTuple):
    """One thread's ``partition_A(gA)``: its offset and layout."""
    thread: int
    offset: str
    layout: str


@dataclass(frozen=True)
@typed(threads=rows(ThreadPartition))
class GmemPartition(TableRecord):
    thrfrg: str
    layout_tv: str
    threads: tuple              # ThreadPartition rows of a few sample threads


@list_row
class AddressAxis(NamedTuple):
    """A sub-axis of the address formula: its coefficient, split into the m and k parts (m*K + k)."""
    name: str
    extent: str
    coefficient: str
    m: str
    k: str


@dataclass(frozen=True)
@typed(axes=rows(AddressAxis))
class GmemFormula(TableRecord):
    """The (thread, value) -> address formula over named sub-axes, and its closed form."""
    formula: str
    domain: str
    axes: tuple
    address: str                # gA's offset + the formula
    closed: str                 # (BM*bm + m)*K + BK*bk + k
    m: str                      # m(t, v)
    k: str                      # k(t, v)


@list_row
class CopyAxis(NamedTuple):
    """A sub-axis of the copy's formula."""
    name: str
    extent: str
    coefficient: str


@dataclass(frozen=True)
@typed(axes=rows(CopyAxis), aligned=Verdict, aligned_loose=Verdict, aligned_loose_witness=parameter_values,
       aligned_k8=Verdict)
class GmemCopy(TableRecord):
    """The CTA tile through a TiledCopy's partition_S, and whether each copy's vector is aligned."""
    atom: str
    thr_layout: str
    val_layout: str
    tidfrg: str
    partition0: str             # thread 0's partition_S
    offset0: str
    formula: str
    axes: tuple
    vector: int                 # elements per copy
    contiguous: bool            # the vector is one sub-axis of coefficient 1
    aligned: Verdict            # under the divisibility conditions
    aligned_loose: Verdict      # for K only a positive integer
    aligned_loose_witness: dict
    aligned_k8: Verdict         # for K only a multiple of the vector


class Agreement(str, Enum):
    """A cross-check's answer: the parametric result and core's agree at every point tried, or differ."""
    AGREES = "agrees"
    DIFFERS = "differs"

    def __str__(self) -> str:
        return str.__str__(self)

    __format__ = str.__format__


class GmemMethod(str, Enum):
    """How the recipe itself decided a check (a check the parametric prover decided carries the prover's
    method instead: its phrase).  The report words each member; the numbers are the check's fields."""
    EXHAUSTIVE = "exhaustive"                  # static_tv: every one of ``points`` (thread, value) points
    EXHAUSTIVE_STOPPED = "exhaustive_stopped"  # static_tv refuted: the evaluation stopped at the counterexample
    EVEN_COEFFICIENTS = "even_coefficients"    # aligned_pairs: every coefficient but v0's even for every K
    A_COEFFICIENT = "a_coefficient"            # aligned_pairs not proved: a coefficient (or v0 not adjacent)
    CORE_AGREES = "core_agrees"                # cross_check: ``instances`` (M, K), ``points`` points equal
    CORE_DIFFERS = "core_differs"              # cross_check: core's partition_A differs (the counterexample)

    def __str__(self) -> str:
        return str.__str__(self)

    __format__ = str.__format__


def _check_verdict(v):
    try:
        return Agreement(v)
    except ValueError:
        return Verdict(v)


def _check_method(v):
    """The recipe's own method as its member; the parametric prover's method (its phrase's text) stays text."""
    try:
        return GmemMethod(v)
    except ValueError:
        return v


@dataclass(frozen=True)
@typed(verdict=_check_verdict, method=_check_method, witness=parameter_values)
class GmemCheck(Record):
    """One claim of the gmem recipe, decided for every admissible (M, K) (or by a cross-check of core).

    ``verdict``: the prover's :class:`Verdict`, or a cross-check's :class:`Agreement`; a refutation names
    its ``witness`` (parameter values), ``coordinate`` and the two ``values``.  ``method``: a
    :class:`GmemMethod` where the recipe decided it, else the parametric prover's method (a phrase).
    """
    claim: str
    verdict: Verdict | Agreement
    method: GmemMethod | str
    witness: dict | None = None
    coordinate: str | None = None
    values: tuple | None = None
    reference: str | None = None     # static_tv: CuTe's static layout of the tile
    instances: int | None = None     # cross_check: admissible (M, K) tried
    points: int | None = None        # static_tv: (thread, value) points evaluated; cross_check: compared

    @property
    def failed(self) -> bool:
        return self.verdict in (Verdict.REFUTED, Agreement.DIFFERS)


@dataclass(frozen=True)
@typed(checks=rows(GmemCheck))
class GmemChecks(TableRecord):
    checks: tuple
