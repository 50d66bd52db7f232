"""The records of the catalog recipe (``recipes.catalog``): right_inverse / left_inverse facts of every
catalogued MMA atom's A, B and C TV layouts, one row per atom.

The table is ``add_table(d, "catalog", **Catalog(...).to_details())``, read back by ``report/catalog.py``
with ``Catalog.from_details``; the base and the JSON rules are :mod:`symcute.recipes.records`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..atoms.operand import OPERANDS
from ..symbolic.vocabulary import Method, Verdict
from .records import BroadcastAxis, Record, TableRecord, read_method, record, rows, typed

LEFT_REFUSED = "error"   # ``left``: CuTe's left_inverse refused the layout (its message is ``left_method``)


def _verdict_or_refused(v):
    return LEFT_REFUSED if v == LEFT_REFUSED else Verdict(v)


@dataclass(frozen=True)
@typed(right=Verdict, right_method=read_method, broadcast=rows(BroadcastAxis), left=_verdict_or_refused,
       left_method=read_method)
class InverseFacts(Record):
    """One TV layout L: size(L), size(right_inverse(L)), the verdicts on ``L(R(i)) == i`` and on
    ``left_inverse(L)`` undoing L, and L's broadcast sub-axes (``t0, t1, ...``, ``v0, v1, ...``)."""
    size: int
    rsize: int
    right: Verdict
    right_method: Method | str
    broadcast: tuple                 # BroadcastAxis rows
    left: Verdict | str              # a verdict, or LEFT_REFUSED
    left_method: Method | str        # the prover's method, or CuTe's message when left is LEFT_REFUSED

    @property
    def left_refused(self) -> bool:
        return self.left == LEFT_REFUSED


def _cells(v):
    """Operand -> its InverseFacts (None where the atom has no layout for it), in the operands' order."""
    return {op: None if v[op] is None else record(InverseFacts)(v[op]) for op in OPERANDS}


@dataclass(frozen=True)
@typed(cells=_cells)
class CatalogRow(Record):
    """One catalogued MMA atom."""
    atom: str
    arch: str | None
    header: str
    cells: dict                      # "A", "B", "C" -> InverseFacts or None


@dataclass(frozen=True)
@typed(rows=rows(CatalogRow))
class Catalog(TableRecord):
    rows: tuple
    count: int
    version: str                     # the CUTLASS version the catalog follows
