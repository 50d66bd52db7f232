"""Every table of a bank document agrees with the per-lane computation it summarises.

The bank-bit table and the offset formula are read from the derivation (and from its JSON), then evaluated
at every (thread, value) of the copy's first tile and compared with this test's own per-lane address: the TV
layout's tile index -> its (m, n) coordinate in the copy's tile -> the smem layout at that coordinate -> bytes.
A smem layout taller or wider than the copy's tile is where the two index spaces differ (the bank-bit table
once put ``t1_1``, a 16-byte step, at bank bit 0 for ``Sw<3,3,3> o 0 o (128,64):(64,1)``).
"""

import re

import pytest

from symcute.core import ComposedLayout
from symcute.core import int_tuple as it
from symcute.recipes import derive_bank
from symcute.recipes import records_memory as rm
from symcute.recipes.bank import build_copy, resolve_smem
from symcute.report import markdown
from symcute.symbolic.bits import bit_layout
from symcute.atoms import tv_names
from symcute.trace import Derivation

COPIES = [("SM75_U32x4_LDSM_N", "A"), ("SM75_U32x2_LDSM_N", "B"), ("SM75_U32x1_LDSM_N", "A"),
          ("UniversalCopy<uint32_t>", "A")]
SMEMS = ["(32,64):(64,1)", "(128,64):(64,1)", "Sw<3,3,3> o 0 o (128,64):(64,1)", "Sw<2,3,3> o 0 o (64,32):(32,1)",
         "Sw<3,3,3> o 0 o (64,64):(64,1)", "(64,16):(16,1)"]
MMA, ATOMS = "SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)


def _tables(d) -> dict:
    return {s.details["kind"]: s.details for s in d.steps() if s.rule == "table"}


def _lane_bytes(tv, tile, smem, nbytes):
    """``{(t, v): byte address}`` over the copy's first tile, computed lane by lane with core alone."""
    nt, nv = tv[0].size(), tv[1].size()
    out = {}
    for t in range(nt):
        for v in range(nv):
            q = tv(t + nt * v)
            coord = (q % tile[0], q // tile[0])
            out[t, v] = smem(coord) * nbytes
    return out


def _inner_offset(smem, coord):
    return (smem.inner if isinstance(smem, ComposedLayout) else smem)(coord)


def _eval_formula(text, values):
    """``64*a + b + 8*c`` at the named values (the recipe prints a sum of integer multiples of names)."""
    total = 0
    for term in text.split("+"):
        m = re.fullmatch(r"\s*(?:(-?\d+)\*)?([A-Za-z_]\w*)\s*", term)
        assert m, f"unexpected term {term!r} in {text!r}"
        total += int(m.group(1) or 1) * values[m.group(2)]
    return total


@pytest.mark.parametrize("smem", SMEMS)
@pytest.mark.parametrize("copy_atom,operand", COPIES)
def test_bank_bit_table_and_formula_match_every_lane(copy_atom, operand, smem):
    d = derive_bank(mma=MMA, atom_layout=ATOMS, operand=operand, copy_atom=copy_atom, smem=smem)
    _, tc = build_copy(MMA, ATOMS, operand, copy_atom, "half_t")
    tv = tc.get_layoutS_TV()
    tile = it.flatten_to_tuple(tc.tiler_mn)
    layout = resolve_smem(smem, "half_t", tc.tiler_mn)
    lanes = _lane_bytes(tv, tile, layout, 2)
    names = tv_names(tc, "S")
    bits = bit_layout(tv, names)          # the TV layout's own named bits: what the table's names refer to
    by_name = {b.name: j for j, b in enumerate(bits.inputs)}
    axes = [(a.name, a.extent, a.weight) for a in bits.axes]
    for again in (d, Derivation.from_json(d.to_json())):
        a = rm.BankAddress.from_details(_tables(again)["bank_address"])
        assert a.note is None and len(a.bank_bits) == 5
        for (t, v), byte in lanes.items():
            q = t + tv[0].size() * v
            inb = bits.bits_of(q)
            for row in a.bank_bits:
                if row.xor is rm.BankReason.INSIDE_ELEMENT:
                    continue
                want = (byte >> (row.bit + 2)) & 1
                got = 0
                for name in row.xor.split(" ^ "):
                    got ^= 0 if name == "0" else 1 if name == "1" else (inb >> by_name[name]) & 1
                assert got == want, (copy_atom, smem, t, v, row)
            values = {n: (q // w) % e for n, e, w in axes}
            coord = (tv(q) % tile[0], tv(q) // tile[0])
            assert _eval_formula(a.formula, values) == _inner_offset(layout, coord), (copy_atom, smem, t, v)


def test_the_documents_lane_list_and_table_agree_in_both_languages():
    # lane 16 of the swizzled 128-row tile is 16 bytes on: bank 4 in the lane list, bank bit 2 in the table
    d = derive_bank(smem="Sw<3,3,3> o 0 o (128,64):(64,1)")
    for lang in ("en", "zh"):
        text = markdown(d, lang)
        assert "| 2 | `t0t1_0_0 ^ t1_1` |" in text and "| 0 | `sv0_1` |" in text
        assert re.search(r"16-23 \D* 4  0 12  8 20 16 28 24", text)
