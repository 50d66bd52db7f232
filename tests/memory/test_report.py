"""The bank recipe's report: both languages, the store-stream note, and a JSON round trip."""

from symcute.recipes import derive_bank
from symcute.report import markdown
from symcute.report.bank import picture
from symcute.trace.derivation import Derivation


def test_store_copies_carry_the_measured_store_notes_in_both_languages():
    # four warps of one stmatrix.x4 each: the concurrency note; no stream (one instruction per warp)
    d = derive_bank(copy_atom="SM90_U32x4_STSM_N", smem="(32,16):(16,1)")
    assert "do not overlap" in markdown(d, "en") and "不重叠" in markdown(d, "zh")
    assert "Store streams" not in markdown(d, "en")
    # four stmatrix.x4 per warp into CuTe's swizzled tile: conflict-free 512-byte stores, the measured extra
    d = derive_bank(copy_atom="SM90_U32x4_STSM_N", smem="Sw<3,3,3> o 0 o (32,64):(64,1)")
    assert "every second one costs one more wavefront" in markdown(d, "en")
    assert "每第二条多花一个 wavefront" in markdown(d, "zh")
    # the same over the unswizzled tile conflicts: timing-dependent, declared
    d = derive_bank(copy_atom="SM90_U32x4_STSM_N", smem="(32,64):(64,1)")
    assert "depends on how the instructions are spaced" in markdown(d, "en")
    assert "Store streams" not in markdown(derive_bank(), "en")     # an ldmatrix read has no such note


def test_the_report_renders_the_same_after_a_json_round_trip():
    d = derive_bank(smem="Sw<3,3,3> o 0 o (32,64):(64,1)")
    again = Derivation.from_json(d.to_json())
    assert markdown(again, "en").startswith(markdown(d, "en").rstrip("\n"))
    assert picture(again) == picture(d)
