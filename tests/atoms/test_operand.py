"""The one operand table: A over (M,K), B over (N,K), C over (M,N), as CuTe's thrfrg_A/B/C partition them."""

import pytest

from symcute.atoms import make_tiled_mma
from symcute.atoms.operand import OPERANDS, get_operand
from symcute.errors import LayoutError


def test_tile_shapes_follow_the_tiled_mma():
    tiled = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    mnk = [tiled.tile_size(k) for k in range(3)]           # (32, 16, 16)
    for name, op in OPERANDS.items():
        layout = tiled.get_layout_TV(name)
        rows, cols = op.tile_shape(mnk)
        assert layout.cosize() <= rows * cols, name        # the TV layout lands inside its operand's tile
    assert [OPERANDS[o].tile_shape(mnk) for o in "ABC"] == [(32, 16), (16, 16), (32, 16)]


def test_thread_coordinates_and_rest_names():
    assert get_operand("a").thread_coord("v", "m", "n", "k") == ("v", ("m", "k"))
    assert get_operand("B").thread_coord("v", "m", "n", "k") == ("v", ("n", "k"))
    assert get_operand("C").rest_axes == ("rm", "rn")
    assert [OPERANDS[o].broadcast for o in "ABC"] == [1, 0, None]


@pytest.mark.parametrize("bad", ["D", "", 0, None, "AB"])
def test_an_unknown_operand_is_refused_by_name(bad):
    with pytest.raises(LayoutError, match=r"operand must be A, B or C, got " + repr(bad).replace("(", r"\(")):
        get_operand(bad)


def test_the_cli_choices_are_the_table():
    # the CLI spells the operands out (its parser is built before any layer loads): they must not drift
    from symcute.cli.derive import OPERANDS as CLI_OPERANDS
    assert CLI_OPERANDS == tuple(OPERANDS)
