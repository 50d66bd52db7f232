"""The picture limit counts the cells a picture draws (C + A + B for an MMA), and --max-cells moves it."""

import pytest

from symcute.report import console, pictures

GMMA = "make_tiled_mma(SM90_64x128x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}, (1,1,1))"


@pytest.fixture(autouse=True)
def restore_limits():
    before = pictures.MAX_CELLS, console.MAX_CELLS
    yield
    pictures.MAX_CELLS, console.MAX_CELLS = before


def test_gmma_64x128x16_is_drawn(cli):
    # 64*128 + 64*16 + 128*16 = 11264 cells are drawn; the old bound multiplied M*N*K = 131072
    code, out, _ = cli(["calc", f"print_svg({GMMA})"])
    assert code == 0
    assert out.startswith("<!--  Tile: (_64,_128,_16)  -->") and out.count("<rect ") == 64 * 128 + 64 * 16 + 128 * 16


def test_max_cells_lowers_and_raises_the_limit(cli):
    code, _, err = cli(["calc", f"print_svg({GMMA})", "--max-cells", "11263"])
    assert code == 2
    assert "draws 11264 cells, more than the limit of 11263" in err and "--max-cells" in err
    code, _, err = cli(["calc", "print_layout((4,8):(8,1))", "--max-cells", "31"])
    assert code == 2
    assert "32 values exceed the limit of 31" in err
    assert cli(["calc", "print_layout((4,8):(8,1))", "--max-cells", "32"]).code == 0


def test_max_cells_must_be_positive(cli):
    code, _, err = cli(["calc", "print_layout((4,8):(8,1))", "--max-cells", "0"])
    assert code == 2
    assert err.count("\n") == 1


def test_max_cells_holds_for_one_command(cli):
    """--max-cells was left set after the command: a later in-process call (a notebook, the next fuzz input)
    drew under the other bound (print_latex of a 100000-cell tile was drawn after a --max-cells 100000000)."""
    before = pictures.MAX_CELLS, console.MAX_CELLS
    assert cli(["calc", "print_layout((4,8):(8,1))", "--max-cells", "100000000"]).code == 0
    assert (pictures.MAX_CELLS, console.MAX_CELLS) == before
    assert cli(["calc", "print_layout((4,8):(8,1))", "--max-cells", "0"]).code == 2
    assert (pictures.MAX_CELLS, console.MAX_CELLS) == before
