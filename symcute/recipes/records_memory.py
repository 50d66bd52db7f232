"""Typed records of the shared-memory recipes: the bank-conflict recipe's ``bank_*`` tables and the swizzle
recipe's ``swizzle_*`` tables.

Each record is one table step (``add_table(d, kind, **rec.to_details())``) and is read back by the renderer
with ``Rec.from_details(view.table(kind))``.  ``to_details`` gives exactly the keys and JSON values the
untyped dicts had, so a derivation's JSON does not change.  A table record refuses details with a key it
does not know, as well as details missing a field.  The numbers come from :mod:`symcute.memory` and
:mod:`symcute.symbolic`; the wording of every reason is a template of ``report/templates``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .records import AxisRow, Record, TableRecord, list_row, record, rows, typed


class SwizzleUnit(str, Enum):
    """What a smem layout's swizzle permutes: element offsets (``Sw o 0 o L``) or byte addresses (a GMMA
    atom's ``Sw o smem_ptr_flag o L``, CuTe's ``smem_ptr_flag_bits``)."""
    ELEMENTS = "elements"
    BYTES = "bytes"


class BankReason(str, Enum):
    """Why a part of the bank recipe shows no formula or no synthesis.  The value is the text the derivation
    records (the JSON is the same as before these were typed); the report words it with the template
    ``bank_reason_<name>``."""
    BITS_OF_BYTE_SWIZZLE = "the swizzle acts on byte addresses; bank bits are shown per lane in the table"
    INSIDE_ELEMENT = "value bits inside the element"
    FIX_OF_BYTE_SWIZZLE = "the smem layout swizzles byte addresses (GMMA atom)"
    NO_BASE = "no unswizzled base layout"

    @property
    def template(self) -> str:
        return "bank_reason_" + self.name.lower()


def reason_or_text(v):
    """A recorded reason: a :class:`BankReason` where the text is one, else the text itself (an error
    message of symcute's, shown as it is)."""
    if v is None or isinstance(v, BankReason):
        return v
    try:
        return BankReason(v)
    except ValueError:
        return v


# --- bank_configuration ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class BankConfiguration(TableRecord):
    """The TiledCopy, the side analysed and the shared-memory instruction (:mod:`symcute.memory.model`)."""
    atom: str
    ptx: str
    header: str
    value_type: str
    value_bits: int
    smem: str
    side: str                # "S" or "D": get_layoutS_TV() or get_layoutD_TV()
    tiler: tuple
    tv: str
    names: tuple             # the TV layout's sub-axis names, nested like its shape
    threads: int
    warps: int
    per_warp: int            # instructions per warp
    instruction: str
    lane_bytes: int
    phase_lanes: int
    phases: int
    active_lanes: int


# --- bank_phases ------------------------------------------------------------------------------------------

@list_row
class PhaseRow(NamedTuple):
    """One phase of the worst instruction: its lanes (first, last), wavefronts, ideal, busiest bank and the
    distinct words that bank serves."""
    phase: int
    lanes: tuple
    wavefronts: int
    ideal: int
    bank: int
    words: tuple


@dataclass(frozen=True)
@typed(rows=rows(PhaseRow))
class BankPhases(TableRecord):
    """The worst instruction, phase by phase, and each lane's bank and first word (None: inactive lane)."""
    warp: int
    instruction: int
    rows: tuple
    banks: tuple
    words: tuple


# --- bank_witness -----------------------------------------------------------------------------------------

@list_row
class WitnessLane(NamedTuple):
    """A lane of the witness: its thread, its named sub-axis values ``((name, value), ...)``, its byte
    address."""
    lane: int
    thread: int
    axes: tuple
    byte_address: int


class WordLanes(tuple):
    """The lanes of the witness that touch one of its words (a tuple of :class:`WitnessLane`)."""

    @classmethod
    def from_details(cls, lanes) -> WordLanes:
        return cls(lane if isinstance(lane, WitnessLane) else WitnessLane.from_details(lane) for lane in lanes)


@dataclass(frozen=True)
@typed(lanes=rows(WordLanes))
class BankWitness(TableRecord):
    """The worst phase's busiest bank: the distinct ``words`` it serves one wavefront each, the lanes of each
    word, and the sub-axes on which those lanes differ."""
    warp: int
    instruction: int
    phase: int
    bank: int
    words: tuple
    varying: tuple
    lanes: tuple             # per word: WordLanes

    @property
    def ways(self) -> int:
        return len(self.words)


# --- bank_result ------------------------------------------------------------------------------------------

@list_row
class InstructionCount(NamedTuple):
    """One warp instruction's wavefronts against its ideal."""
    warp: int
    instruction: int
    wavefronts: int
    ideal: int


@dataclass(frozen=True)
class BankCertificate(Record):
    """The F2 kernel certificate (:mod:`symcute.memory.certificate`): the lane bits' images and the kernel
    dimensions, ``2^(dim ker bank - dim ker word)`` wavefronts in the worst phase."""
    images: tuple
    dim_ker_bank: int
    dim_ker_word: int
    wavefronts: int


def _bank_method(text):
    from ..memory.shared import BankMethod   # here, as for the notes: symcute.memory loads numpy
    return BankMethod(text)


def _note_keys(keys) -> tuple:
    from ..memory.shared import NoteKey   # here: symcute.memory loads numpy, which the swizzle report needs not
    return tuple(NoteKey(k) for k in keys)


@dataclass(frozen=True)
@typed(per_instruction=rows(InstructionCount), certificate=record(BankCertificate), notes=_note_keys,
       method=_bank_method)
class BankResult(TableRecord):
    """The exact totals (``symcute.memory.SharedAccess``), the first eight instructions' counts, and the keys
    of the memory model's notes (:class:`symcute.memory.shared.NoteKey`, worded by the template
    ``bank_note_<key>``)."""
    wavefronts: int
    ideal: int
    ways: int
    conflicts: int
    conflict_free: bool
    method: object                          # memory.shared.BankMethod
    per_instruction: tuple
    instructions: int
    certificate: BankCertificate | None     # recorded as null where there is none
    notes: tuple | None = None              # NoteKey, ...; absent from derivations written before the notes


# --- bank_address -----------------------------------------------------------------------------------------

@list_row
class BankBitRow(NamedTuple):
    """Bank bit ``bit`` (byte address bit ``bit + 2``) as the XOR of named sub-axis bits, or
    :attr:`BankReason.INSIDE_ELEMENT` for a bit inside one value."""
    bit: int
    xor: BankReason | str


BankBitRow.from_details = classmethod(lambda cls, row: cls(row[0], reason_or_text(row[1])))


@dataclass(frozen=True)
@typed(swizzle_unit=SwizzleUnit, bank_bits=rows(BankBitRow), note=reason_or_text)
class BankAddress(TableRecord):
    """The element offset as a formula of the named sub-axes (None where the layout has no unswizzled base or
    the formula is refused), the swizzle applied to it, and the bank bits as XORs where F2-linear.

    ``note``: why the bank bits are not shown: a :class:`BankReason`, or the refusal's message."""
    formula: str | None
    swizzle: str | None
    swizzle_unit: SwizzleUnit | None
    bank_bits: tuple
    note: BankReason | str | None
    bytes_per_value: int | None


# --- bank_fix ---------------------------------------------------------------------------------------------

@list_row
class SwizzleCost(NamedTuple):
    """A candidate swizzle of the synthesis and its total wavefronts."""
    swizzle: str
    total: int


def _synth_reasons(texts) -> tuple:
    """The synthesis's reasons (memory.synth) as the prover's phrases: a derivation read from JSON has their
    text only, which reads back as the same Reason.SYNTH_* phrase."""
    from ..symbolic.vocabulary import Reason, read_phrase   # here: only a synthesis with reasons needs it
    return tuple(read_phrase(t, (Reason,)) for t in texts)


@dataclass(frozen=True)
@typed(alternatives=rows(SwizzleCost), skipped=BankReason, reasons=_synth_reasons)
class BankFix(TableRecord):
    """The swizzle synthesis over the unswizzled base (:func:`symcute.memory.synth.synthesize_swizzle`), or
    why there is none (``skipped``; then ``searched`` is 0 and ``optimal``, ``current_optimal`` and ``base``
    are absent)."""
    searched: int
    best: str | None
    cost: int | None
    ideal: int | None
    alternatives: tuple
    reasons: tuple
    current: str | None          # the layout's own swizzle (found), the layout itself (skipped)
    skipped: BankReason | None
    optimal: tuple | None = None
    current_optimal: bool | None = None
    base: str | None = None

    @classmethod
    def none(cls, reason: BankReason, current: str) -> BankFix:
        """No synthesis, for ``reason``."""
        return cls(searched=0, best=None, cost=None, ideal=None, alternatives=(), reasons=(), current=current,
                   skipped=reason)


# --- swizzle_formula --------------------------------------------------------------------------------------

class BitRow(NamedTuple):
    """Offset bit number ``bit`` as the XOR of named input bits (``xor``, e.g. ``r_1 ^ c_4``).  Stored as
    ``["bit <i>", xor]``, the row of symbolic's bit table; the report words the bit number."""
    bit: int
    xor: str

    @property
    def offset_bit(self) -> str:
        """The stored label, ``bit <i>``."""
        return f"bit {self.bit}"

    def to_details(self) -> list:
        return [self.offset_bit, self.xor]

    @classmethod
    def from_details(cls, row) -> BitRow:
        label, xor = row
        head, _, number = str(label).partition(" ")
        if head != "bit" or not number.isdigit():
            raise ValueError(f"swizzle_formula: a bit row starts with 'bit <i>', got {label!r}")
        return cls(int(number), xor)


@dataclass(frozen=True)
@typed(axes=rows(AxisRow), bits=rows(BitRow), plain_bits=rows(BitRow))
class SwizzleFormula(TableRecord):
    """A swizzled tile ``Sw o O o L``: its formula and bit table, with and without the swizzle."""
    layout: str
    inner: str
    swizzle: str
    text: str
    latex: str
    plain_text: str
    axes: tuple
    bits: tuple
    bit_names: tuple
    plain_bits: tuple


# --- swizzle_banks ----------------------------------------------------------------------------------------

@list_row
class RowPair(NamedTuple):
    """Two rows whose elements of the column share a bank (``low < high``)."""
    low: int
    high: int


@dataclass(frozen=True)
@typed(pairs=rows(RowPair))
class ColumnBanks(Record):
    """The bank of each row's element of one column, the GF(2) kernel of the row bits' bank map (each vector
    the names of its bits), the colliding row pairs it gives, and rows / distinct banks."""
    banks: tuple
    kernel: tuple
    pairs: tuple
    ways: int
    distinct: int


@dataclass(frozen=True)
@typed(swizzled=record(ColumnBanks), plain=record(ColumnBanks))
class SwizzleBanks(TableRecord):
    """The banks of one column of the tile, with the swizzle and without it."""
    element_bits: int
    column: int
    swizzled: ColumnBanks
    plain: ColumnBanks
