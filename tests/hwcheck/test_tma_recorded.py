"""TMA's swizzle modes on the H200 (hw/h200_2026-12-01_memory/run4/tma.txt.gz), re-judged on CPU: every box
element lands where Swizzle<B,4,3> on the shared byte address puts it, for loads and stores, 16- and 32-bit
elements, and a box 512 bytes past the 1024-byte alignment (the swizzle follows the absolute address)."""

from pathlib import Path

import numpy as np

from symcute.atoms.smem_layouts import smem_layout_atom
from symcute.hwcheck.tma_evidence import expected, judge_recorded
from symcute.memory.addresses import bit_addresses
from symcute.memory.model import tma_smem_byte, tma_swizzle

TMA = Path(__file__).resolve().parents[2] / "hw" / "h200_2026-12-01_memory" / "run4" / "tma.txt.gz"


def test_every_tma_box_element_is_where_the_model_puts_it():
    verdicts = judge_recorded(TMA)
    assert len(verdicts) == 17 and all(v.agrees for v in verdicts)
    assert {(v.store, v.esize, v.swizzle_bytes) for v in verdicts} == {
        (s, e, b) for s in (False, True) for e in (2, 4) for b in (0, 32, 64, 128)}
    assert sum(v.elements for v in verdicts) > 20000
    assert any(v.soff == 512 and v.swizzle_bytes == 128 for v in verdicts)


def test_the_judge_would_see_a_wrong_swizzle():
    # the 128-byte-swizzled 16-bit load judged as if unswizzled, or with the 64-byte mode: most elements differ
    text = TMA.read_bytes()
    import gzip
    line = next(l for l in gzip.decompress(text).decode().splitlines() if l.startswith("case 3 "))
    got = [int(x) for x in line.split(":", 1)[1].split()]
    assert got == expected(0, 2, 3, 64, 16, 128, 32, 64, 8, 0)
    assert sum(a != b for a, b in zip(got, expected(0, 2, 0, 64, 16, 128, 32, 64, 8, 0))) > 800
    assert sum(a != b for a, b in zip(got, expected(0, 2, 2, 64, 16, 128, 32, 64, 8, 0))) > 400


def test_tma_swizzle_modes_are_cutes_gmma_k_atoms_on_bytes():
    # CuTe's Layout_K_SW{32,64,128}_Atom<half_t> = Sw<B,4,3> o smem_ptr o (8, 16B/2 * 2^B): element (r, c) sits
    # where TMA's 32/64/128-byte mode puts box element (r, c) of a box with rows of that span
    for name, span in (("GMMA::Layout_K_SW32_Atom", 32), ("GMMA::Layout_K_SW64_Atom", 64),
                       ("GMMA::Layout_K_SW128_Atom", 128), ("GMMA::Layout_K_INTER_Atom", 0)):
        atom = smem_layout_atom(name, "half_t")
        rows, cols = 8, (span or 16) // 2
        idx = np.arange(rows * cols)
        got = bit_addresses(atom, 16, idx) // 8            # CuTe's coordinate order: column-major over (r, c)
        want = [tma_smem_byte(span, int(i) % rows, (int(i) // rows) * 2, cols * 2) for i in idx]
        assert list(got) == want, name
    assert str(tma_swizzle(128)) == "Sw<3,4,3>" and str(tma_swizzle(32)) == "Sw<1,4,3>"


def test_the_tma_box_layout_is_cutes_atom_and_feeds_the_bank_analysis():
    from symcute.errors import SymcuteError
    from symcute.memory import shared_access
    from symcute.memory.model import tma_box_layout
    import pytest
    assert str(tma_box_layout(128, 8, 64, 16)) == str(smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t"))
    assert str(tma_box_layout(64, 8, 32, 16)) == str(smem_layout_atom("GMMA::Layout_K_SW64_Atom", "half_t"))
    # a warp reading one 16-byte chunk of each of 8 rows of a TMA-loaded (8,64) half box: 8-way unswizzled,
    # conflict-free with the 128-byte mode
    tv = "((8,4),8):((1,0),8)"
    assert shared_access(tv, tma_box_layout(0, 8, 64, 16), 16).ways == 8
    assert shared_access(tv, tma_box_layout(128, 8, 64, 16), 16).conflict_free
    with pytest.raises(SymcuteError, match="wider than the 32-byte swizzle span"):
        tma_box_layout(32, 8, 64, 16)
