"""The bank recipe's report: both languages, the store-stream note, and a JSON round trip."""

from symcute.recipes import derive_bank
from symcute.report import markdown
from symcute.report.bank import picture
from symcute.trace.derivation import Derivation


def test_store_copies_carry_the_measured_store_stream_note_in_both_languages():
    d = derive_bank(copy_atom="SM90_U32x4_STSM_N", smem="(32,16):(16,1)")
    assert "Store streams" in markdown(d, "en") and "Store streams" in markdown(d, "zh")
    assert "Store streams" not in markdown(derive_bank(), "en")     # an ldmatrix read has no such note


def test_the_report_renders_the_same_after_a_json_round_trip():
    d = derive_bank(smem="Sw<3,3,3> o 0 o (32,64):(64,1)")
    again = Derivation.from_json(d.to_json())
    assert markdown(again, "en").startswith(markdown(d, "en").rstrip("\n"))
    assert picture(again) == picture(d)
