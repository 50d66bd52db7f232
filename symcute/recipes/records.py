"""Typed records a recipe fills and a renderer reads: rows of the seed's tables, one field per column.

A record is stored in a step's details as JSON-native data (``to_details``: the same keys and values the
untyped dicts had, so a derivation's JSON is unchanged) and read back with ``from_details``, which also
takes the details of a derivation re-imported from JSON.  The derivation graph's node structure is
``symcute.trace``'s; these are the payloads of the recipes' own table and formula steps.

This module holds the base (:class:`Record`, :class:`StepRecord`, :class:`TableRecord`, :func:`list_row`,
:func:`typed`), the formula step, worked example and proof step every recipe writes, and tv's records; each other recipe's records are a
sibling module (``records_retile``, ``records_gmem``, ``records_catalog``, ``records_expr``,
``records_memory``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum, unique
from typing import ClassVar, NamedTuple

from ..errors import SymcuteError
from ..symbolic.vocabulary import Method, Verdict


class RecordError(SymcuteError, ValueError):
    """A record refused a value (text that is no member of the field's enum, in a malformed derivation): a
    SymcuteError for the report's callers, and still the ValueError the field's reader raised."""


class Record:
    """Base of the records: JSON round trip by field name.

    A field whose default is None is optional: left out of the details while None, None when absent.
    A field without a default is required: ``from_details`` refuses details without it.  A required field
    may still hold None when its type says so (``domain: int | None``): it is written as JSON null, and read
    back as None, so the key is there either way.
    Fields holding rows, nested records or enum members are declared with :func:`typed`.
    """

    def to_details(self) -> dict:
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is None and f.default is None:
                continue
            out[f.name] = _json(v)
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
            kw[f.name] = _frozen(details[f.name])
        return cls(**kw)


class StepRecord(Record):
    """A record that is the whole of one step's details: ``from_details`` refuses a key it does not know
    (as well as a missing field), besides the step's own ``EXTRA_KEYS``."""

    EXTRA_KEYS: ClassVar[frozenset] = frozenset()

    @classmethod
    def from_details(cls, details: dict):
        known = {f.name for f in fields(cls)} | cls.EXTRA_KEYS
        extra = sorted(set(details) - known)
        if extra:
            raise SymcuteError(f"report: the {cls.__name__} record has no field {extra[0]!r} (a malformed derivation)")
        return super().from_details(details)


class TableRecord(StepRecord):
    """A record that is the whole of one table step: its details hold its fields and the step's ``kind``."""

    EXTRA_KEYS = frozenset({"kind"})


def _json(v):
    """JSON-native details: nested records as their details, rows as lists, an enum member as its value."""
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, Record) or (isinstance(v, tuple) and hasattr(v, "to_details")):
        return v.to_details()     # a record, or a row that stores itself (list_row, or its own spelling)
    if isinstance(v, dict):
        return {k: _json(x) for k, x in v.items()}
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


def typed(**read):
    """Class decorator, placed below ``@dataclass``: each named field goes through ``read[name]`` when the
    record is made (None stays None).  A record a recipe builds and one read back from JSON then hold the
    same types: enum members, row records (:func:`rows`), nested records (:func:`record`).  A value the
    reader refuses (text that is no member, from a malformed derivation) is a :class:`RecordError` naming
    the record and the field."""
    def decorate(cls):
        def __post_init__(self):
            for name, convert in read.items():
                v = getattr(self, name)
                if v is None:
                    continue
                try:
                    v = convert(v)
                except (ValueError, TypeError):
                    shown = repr(v) if len(repr(v)) <= 80 else repr(v)[:77] + "..."
                    raise RecordError(f"report: the {cls.__name__} record's {name!r} cannot be {shown} "
                                       f"(a malformed derivation)") from None
                object.__setattr__(self, name, v)
        cls.__post_init__ = __post_init__
        return cls
    return decorate


def rows(cls):
    """A ``typed`` reader: a sequence of ``cls`` rows (records or their JSON) as a tuple of ``cls``."""
    return lambda v: tuple(r if isinstance(r, cls) else cls.from_details(r) for r in v)


def record(cls):
    """A ``typed`` reader: a nested ``cls`` record (or its JSON dict)."""
    return lambda v: v if isinstance(v, cls) else cls.from_details(v)


# --- every formula step, every worked example -------------------------------------------------------

@list_row
class AxisRow(NamedTuple):
    """A sub-axis of a formula (the seed's table columns): its name, extent, stride and weight."""
    name: str
    extent: int
    stride: int
    weight: int


@dataclass(frozen=True)
@typed(axes=rows(AxisRow))
class FormulaStep(Record):
    """What every formula step records (``add_formula``); a recipe's own extras are a record of their own."""
    label: str
    axes: tuple
    text: str          # the formula in sub-axis order
    text_zeros: str    # the same with its stride-0 terms kept (0*wn)


@dataclass(frozen=True)
class Evaluation(Record):
    """A worked example (an ``evaluate`` step, ``add_evaluation``): ``label(at) = value``, with the input's
    index and its nonzero digits by sub-axis name.  A composite example (retile-d's ``G∘F``) also names
    the ``inner`` value and the broadcast ``axis`` it is about."""
    label: str
    kind: str          # what the example shows, for the report that picks it (broadcast, chosen, ...)
    at: object         # the input: an index, or a coordinate (a tuple)
    index: int
    digits: dict
    value: int
    inner: int | None = None
    axis: str | None = None


def read_method(v):
    """A ``typed`` reader: a prover method as its member (a conjunction's joined method, or an error
    message, stays text)."""
    try:
        return Method(v)
    except ValueError:
        return v


@unique
class ProofClaim(str, Enum):
    """What a recipe's proof step claims; its statement template is ``claim_<value>`` (labels, domain and
    target filled in)."""
    RIGHT_INVERSE = "right_inverse"          # a(b(i)) == i on [0, domain)
    LEFT_INVERSE = "left_inverse"            # b(a(x)) == x on [0, domain)
    INJECTIVE = "injective"
    SURJECTIVE = "surjective"                # onto [0, target)
    BIJECTIVE = "bijective"                  # onto [0, target)
    EQUAL = "equal"                          # a(i) == b(i) on [0, domain)
    WITH_SHAPE = "with_shape"                # retile-d: H == G
    RETILE_WITH_SHAPE = "retile_with_shape"  # retile-d: TiledCopy::retile's with_shape == H
    RETILE_UPCAST = "retile_upcast"          # retile-d: TiledCopy::retile's upcast == frg_layout_mn
    CONTRACT = "contract"                    # derive expr: CuTe's value meets its documented postcondition

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
@typed(claim=ProofClaim, labels=tuple, verdict=Verdict, method=read_method)
class ProofDetails(StepRecord):
    """What a proof step records (``add_proof``): the claim, its operands' labels, the prover's verdict and
    method, the inputs ``[0, domain)`` the claim is about, and for a surjectivity claim its range
    ``[0, target)``.  derive_tv's checks name the ``operand``, derive expr's the ``step`` they check.

    ``claim`` None: a check with no statement template of its own (the report words the prover's statement);
    ``domain`` None: a value without a size (derive expr's contract on a non-layout) -- both required keys,
    written as JSON null.
    """
    claim: ProofClaim | None
    labels: tuple
    verdict: Verdict
    method: Method | str
    domain: int | None
    target: int | None = None
    operand: str | None = None
    step: int | None = None


# --- tv ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TVConfiguration(TableRecord):
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
@typed(broadcast=rows(BroadcastAxis))
class TVLayout(Record):
    """The extra details of a TV layout's formula step ``F_<op>``."""
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
