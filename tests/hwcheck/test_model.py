"""The product model: operand maps, conflicts, and D = A*B^T + C on column-major tiles."""

import pytest

from symcute.hwcheck.model import assemble, operand_map, predict_d
from symcute.core import Layout
from symcute.errors import LayoutError


def test_operand_map_of_a_bijective_layout():
    m = operand_map("C", Layout.parse("((4,8),(2,2)):((32,1),(16,8))"), 32, 4, 128)
    assert m.conflicts == () and m.outside == () and m.uncovered == 0
    assert m.index[5][3] == Layout.parse("((4,8),(2,2)):((32,1),(16,8))")(5, 3) == 57


def test_cutes_16x8x32_s4_b_layout_has_conflicts():
    # CuTe 4.2's BLayout of SM80_16x8x32_S32S4S4S32_TN: (t0=1, v=0) and (t0=0, v=4) both hold B(0, 4)
    m = operand_map("B", Layout.parse("((4,8),8):((32,1),8)"), 32, 8, 256)
    assert len(m.conflicts) == 96 and m.uncovered == 96
    i, holders = next((i, h) for i, h in m.conflicts if (1, 0) in h)
    assert i == 32 and (0, 4) in holders
    fixed = operand_map("B", Layout.parse("((4,8),8):((64,1),8)"), 32, 8, 256)
    assert fixed.conflicts == () and fixed.uncovered == 0


def test_out_of_tile_and_shape_checks():
    m = operand_map("A", Layout.parse("(2,2):(1,4)"), 2, 2, 4)
    assert m.outside == ((0, 1), (1, 1)) and m.uncovered == 2
    with pytest.raises(LayoutError, match="threads x"):
        operand_map("A", Layout.parse("(2,3):(1,2)"), 2, 2, 4)


def test_assemble_first_holder_wins_and_zero_fills():
    m = operand_map("A", Layout.parse("(2,2):(1,0)"), 2, 2, 4)   # value mode broadcast: conflicts
    assert assemble(m, [[5, 6], [7, 8]], 0) == [5, 7, 0, 0]


def test_predict_d_by_hand():
    # M=N=K=2; A = [[1,2],[3,4]] (m,k), B = [[5,6],[7,8]] (n,k), C = [[1,0],[0,1]]
    a = [1, 3, 2, 4]            # column-major m + 2k
    b = [5, 7, 6, 8]            # n + 2k
    c = [1, 0, 0, 1]            # m + 2n
    d = predict_d((2, 2, 2), a, b, c, "real")
    # D(m,n) = sum_k A(m,k) B(n,k) + C
    assert d == [1 * 5 + 2 * 6 + 1, 3 * 5 + 4 * 6, 1 * 7 + 2 * 8, 3 * 7 + 4 * 8 + 1]


def test_predict_d_complex_gauss_and_xor():
    a, b = [(1, 2)], [(3, -1)]
    assert predict_d((1, 1, 1), a, b, [(10, 20)], "complex") == [(1 * 3 + 2 + 10, -1 + 6 + 20)]
    # Gauss: (re*re, im*im, (re+im)*(re+im)) added to the triple C
    assert predict_d((1, 1, 1), a, b, [(1, 1, 1)], "gauss") == [(3 + 1, -2 + 1, 3 * 2 + 1)]
    # b1 xor.popc: popc(a ^ b) + c over k
    assert predict_d((1, 1, 4), [1, 0, 1, 1], [1, 1, 0, 1], [5], "xor") == [5 + 0 + 1 + 1 + 0]
    assert predict_d((1, 1, 4), [1, 0, 1, 1], [1, 1, 0, 1], [5], "real") == [5 + 1 + 0 + 0 + 1]
