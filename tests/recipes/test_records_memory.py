"""The bank and swizzle recipes fill typed records (recipes/records_memory.py); the reports read them back, from
the derivation and from its JSON alike, and a malformed table is refused."""

import pytest

from symcute.errors import SymcuteError
from symcute.recipes import derive_bank, derive_swizzle
from symcute.recipes import records_memory as rm
from symcute.report import markdown
from symcute.report.bank import picture
from symcute.report.templates import Text
from symcute.trace import Derivation

BANK = {"bank_configuration": rm.BankConfiguration, "bank_address": rm.BankAddress, "bank_phases": rm.BankPhases,
        "bank_witness": rm.BankWitness, "bank_result": rm.BankResult, "bank_fix": rm.BankFix}
SWIZZLE = {"swizzle_formula": rm.SwizzleFormula, "swizzle_banks": rm.SwizzleBanks}
GMMA = {"mma": "SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", "atom_layout": (1, 1, 1),
        "smem": "GMMA::Layout_K_SW128_Atom@64x64"}
DOUBLE = {"mma": "SM80_8x8x4_F64F64F64F64_TN", "value_type": "double", "copy_atom": "UniversalCopy<double>",
          "smem": "(16,4):(4,1)"}


def _tables(d) -> dict:
    return {s.details["kind"]: s.details for s in d.steps() if s.rule == "table"}


def _records(d, kinds) -> dict:
    tables = _tables(d)
    assert set(tables) == set(kinds)
    return {kind: rec.from_details(tables[kind]) for kind, rec in kinds.items()}


@pytest.mark.parametrize("kwargs", [{}, {"smem": "Sw<3,3,3> o 0 o (32,64):(64,1)"}, GMMA, DOUBLE])
def test_bank_records_keep_the_json_and_read_back_the_same(kwargs):
    d = derive_bank(**kwargs)
    recs = _records(d, BANK)
    for kind, rec in recs.items():   # to_details gives back the recorded table, key for key
        assert {"kind": kind, **rec.to_details()} == _tables(d)[kind]
    assert _records(Derivation.from_json(d.to_json()), BANK) == recs


def test_bank_records_are_typed():
    r = _records(derive_bank(), BANK)
    c, ph, w, res, fix = (r[k] for k in ("bank_configuration", "bank_phases", "bank_witness", "bank_result",
                                         "bank_fix"))
    assert (c.side, c.phase_lanes, c.active_lanes) == ("S", 8, 32) and c.instruction.startswith("ldmatrix")
    assert isinstance(ph.rows[0], rm.PhaseRow) and ph.rows[0].lanes == (0, 7) and len(ph.banks) == 32
    # the seed's unswizzled read: 8 distinct words in one bank, lanes in typed rows, grouped per word
    assert w.ways == res.ways == 8 and len(w.lanes) == 8
    assert isinstance(w.lanes[0], rm.WordLanes) and isinstance(w.lanes[0][0], rm.WitnessLane)
    assert dict(w.lanes[0][0].axes).keys() >= set(w.varying)
    assert isinstance(res.certificate, rm.BankCertificate) and res.certificate.wavefronts == 8
    assert all(isinstance(p, rm.InstructionCount) for p in res.per_instruction) and res.notes == ()
    assert fix.skipped is None and isinstance(fix.alternatives[0], rm.SwizzleCost) and fix.current is None
    assert r["bank_address"].swizzle_unit is rm.SwizzleUnit.ELEMENTS and r["bank_address"].note is None


def test_bank_reasons_are_enum_members_and_worded_by_templates():
    r = _records(derive_bank(**GMMA), BANK)
    a, fix = r["bank_address"], r["bank_fix"]
    assert a.swizzle_unit is rm.SwizzleUnit.BYTES and a.note is rm.BankReason.BITS_OF_BYTE_SWIZZLE
    assert fix.skipped is rm.BankReason.FIX_OF_BYTE_SWIZZLE and fix.searched == 0 and fix.base is None
    assert "optimal" not in fix.to_details() and fix.to_details()["skipped"] == fix.skipped.value
    # a 64-bit value: bank bit 0 lies inside the element
    bits = _records(derive_bank(**DOUBLE), BANK)["bank_address"].bank_bits
    assert bits[0] == rm.BankBitRow(0, rm.BankReason.INSIDE_ELEMENT) and bits[0].xor is rm.BankReason.INSIDE_ELEMENT
    assert "`value bits inside the element`" in markdown(derive_bank(**DOUBLE), "en")
    # a refusal of symbolic's stays its own text
    assert rm.BankAddress.from_details({**r["bank_address"].to_details(), "note": "no formula"}).note == "no formula"
    # every reason has a template in both languages; in English it reads as the recorded text
    for reason in rm.BankReason:
        assert Text("en")(reason.template) == reason.value and Text("zh")(reason.template)


def test_swizzle_records_keep_the_json_and_read_back_the_same():
    d = derive_swizzle()
    recs = _records(d, SWIZZLE)
    for kind, rec in recs.items():
        assert {"kind": kind, **rec.to_details()} == _tables(d)[kind]
    assert _records(Derivation.from_json(d.to_json()), SWIZZLE) == recs
    f, b = recs["swizzle_formula"], recs["swizzle_banks"]
    assert f.axes[0].name == "r" and isinstance(f.bits[0], rm.BitRow) and f.bits[0].offset_bit == "bit 0"
    assert isinstance(b.swizzled, rm.ColumnBanks) and b.swizzled.ways == 2 and b.plain.ways == 8
    assert b.swizzled.pairs[:2] == (rm.RowPair(0, 1), rm.RowPair(2, 3)) and b.swizzled.pairs[0].high == 1
    assert b.plain.kernel == (("r_0",), ("r_1",), ("r_2",))


def test_a_malformed_table_is_refused_with_the_record_and_field_named():
    details = _tables(derive_bank())
    witness = dict(details["bank_witness"])
    with pytest.raises(SymcuteError, match="BankWitness record has no field 'ways'"):
        rm.BankWitness.from_details({**witness, "ways": 8})
    del witness["varying"]
    with pytest.raises(SymcuteError, match="BankWitness record has no 'varying'"):
        rm.BankWitness.from_details(witness)
    # a derivation from before the notes existed still renders: notes are optional
    old = {k: v for k, v in details["bank_result"].items() if k != "notes"}
    assert rm.BankResult.from_details(old).notes is None


def test_the_reports_read_every_table_through_its_record(monkeypatch):
    read = []
    original = rm.TableRecord.from_details.__func__

    def spy(cls, details):
        read.append(cls)
        return original(cls, details)

    monkeypatch.setattr(rm.TableRecord, "from_details", classmethod(spy))
    d = derive_bank()
    markdown(d, "en")
    assert set(read) == set(BANK.values())
    read.clear()
    picture(d)
    assert set(read) == {rm.BankConfiguration, rm.BankPhases}
    read.clear()
    markdown(derive_swizzle(), "zh")
    assert set(read) == set(SWIZZLE.values())


def test_the_notes_are_the_memory_models_keys():
    from symcute.memory import NoteKey
    d = derive_bank(copy_atom="SM90_U32x4_STSM_N", smem="Sw<3,3,3> o 0 o (32,64):(64,1)")
    notes = _records(d, BANK)["bank_result"].notes
    assert notes == (NoteKey.STORE_STREAM, NoteKey.STORE_CONCURRENT) and all(type(n) is NoteKey for n in notes)
    assert _tables(d)["bank_result"]["notes"] == ["store_stream", "store_concurrent"]
    assert _records(Derivation.from_json(d.to_json()), BANK)["bank_result"].notes == notes
    # each key has its sentence in both languages
    for key in NoteKey:
        assert Text("en")("bank_note_" + key.value) and Text("zh")("bank_note_" + key.value)
    with pytest.raises(ValueError):
        rm.BankResult.from_details({**_tables(d)["bank_result"], "notes": ["store stream"]})


def test_bit_rows_hold_the_bit_number_and_keep_the_stored_label():
    row = rm.BitRow.from_details(["bit 4", "r_1 ^ c_4"])
    assert row == rm.BitRow(4, "r_1 ^ c_4") and isinstance(row.bit, int) and row.to_details() == ["bit 4", "r_1 ^ c_4"]
    for bad in (["4", "c_4"], ["bit x", "c_4"], ["byte 4", "c_4"]):
        with pytest.raises(ValueError, match="bit <i>"):
            rm.BitRow.from_details(bad)
    # the report words the number: the same cell in both languages' own words
    f = _records(derive_swizzle(), SWIZZLE)["swizzle_formula"]
    assert [r.bit for r in f.bits] == list(range(len(f.bits)))
    assert "| bit 4 | `r_1 ^ c_4` |" in markdown(derive_swizzle(), "en")
    assert "| 第 4 位 | `r_1 ^ c_4` |" in markdown(derive_swizzle(), "zh")


def test_the_bank_method_is_a_member_worded_by_its_template():
    from symcute.memory.shared import BankMethod
    r = _records(derive_bank(**GMMA), BANK)["bank_result"]
    assert r.method is BankMethod.EXACT_CERTIFIED and r.certificate is not None
    assert r.to_details()["method"] == "exact per-lane count + F2 kernel certificate"   # the JSON as before
    assert rm.BankResult.from_details(r.to_details()).method is BankMethod.EXACT_CERTIFIED
    with pytest.raises(ValueError):
        rm.BankResult.from_details({**r.to_details(), "method": "a guess"})
    for m in BankMethod:
        assert Text("en")("bank_method_" + m.name.lower()) and Text("zh")("bank_method_" + m.name.lower())
    assert Text("zh")("bank_method_exact_certified") in markdown(derive_bank(**GMMA), "zh")
