"""The records of ``derive expr`` (``symcute.expr.derive``): the variables it was given and its result.

The table is ``add_table(d, "bindings", **Bindings(...).to_details())``, read back by ``report/generic.py``
with ``Bindings.from_details``; the base and the JSON rules are :mod:`symcute.recipes.records`.  The
expression language lives above the report; its records live here, below both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .records import Record, TableRecord, list_row, rows, typed


@list_row
class Binding(NamedTuple):
    """A ``--let`` variable: its value as CuTe prints it, and its names tree where ``--name`` gave one."""
    var: str
    value: str
    names: str | None


@dataclass(frozen=True)
@typed(rows=rows(Binding))
class Bindings(TableRecord):
    rows: tuple
    result: str                      # the expression's value as CuTe prints it


@dataclass(frozen=True)
class ExprFormula(Record):
    """The extra details of a formula step of ``derive expr``: the top-level step whose result it explains."""
    step: int                        # that step's number (1, 2, ...), as the report numbers the steps
    rule: str                        # that step's rule
