"""Pictures (symcute.report.pictures): contracts and errors; byte equality with CuTe is in tests/differential."""

import pytest

import symcute as sc
from symcute import Layout
from symcute.errors import LayoutError, LimitError
from symcute.report.pictures import MAX_CELLS, Picture, cute_print, print_latex, print_latex_tv, print_svg


def test_print_latex_layout_cells_and_comment():
    text = print_latex(Layout.parse("(2,3):(3,1)"))
    assert text.startswith("% Layout: (_2,_3):(_3,_1)\n\\documentclass[convert]{standalone}\n")
    assert "\\node[fill=black!60] at (1,0) {3};\n" in text
    assert "(0,0) grid (2,3);\n\n" in text
    assert text.endswith("\\end{tikzpicture}\n\\end{document}\n")


def test_rank1_is_drawn_as_append_2():
    assert print_latex(Layout.parse("4:2")).startswith("% Layout: (_4,_1):(_2,_0)\n")


def test_cute_print_is_the_static_print():
    assert cute_print(Layout.parse("((2,2),4):((1@0,2@1),1@1)")) == "((_2,_2),_4):((_1@0,_2@1),_1@1)"
    assert cute_print((16, 8, -1)) == "(_16,_8,_-1)"


def test_rank3_layout_is_a_layout_error_naming_input_and_condition():
    with pytest.raises(LayoutError) as e:
        print_latex(Layout.parse("(2,3,4):(1,2,6)"))
    msg = str(e.value)
    assert "print_latex((2,3,4):(1,2,6))" in msg and "rank 3" in msg and "rank(layout_a) <= Int<2>" in msg


@pytest.mark.parametrize("text, words", [
    ("(4,4):(1@0,1@1)", "basis strides"),       # returns coordinates: `int idx = layout(m,n)` does not compile
    ("(4,4):(1,-4)", "negative"),               # color_map[idx % 8] would read outside the table
    ("(65536,65536):(1,0)", "MAX_CELLS"),
])
def test_layouts_cute_cannot_draw(text, words):
    with pytest.raises((LayoutError, LimitError), match=words):
        print_latex(Layout.parse(text))


def test_print_latex_tv_reads_an_index_layout_through_the_identity():
    tv = Layout.parse("((4,8),(2,2)):((32,1),(16,8))")
    text = print_latex_tv(tv, (16, 8))
    assert text.startswith("% Layout TV: ((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))\n")
    assert text.count("\\shortstack") == 128


def test_print_latex_tv_errors():
    with pytest.raises(LayoutError, match="outside the tile"):
        print_latex_tv(Layout.parse("(8,4):(4,1)"), (4, 4))
    with pytest.raises(LayoutError, match="rank 3"):
        print_latex_tv(Layout.parse("(2,2,2):(1,2,4)"), (4, 2))
    with pytest.raises(LayoutError, match="rank 3"):
        print_latex_tv(Layout.parse("(8,4):(4,1)"), (4, 4, 2))


def test_mma_and_copy_pictures_cover_their_tiles():
    mma = sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    svg = print_svg(mma)
    assert svg.startswith("<!--  Tile: (_32,_16,_16)  -->\n")
    assert svg.count("<rect") == 32 * 16 + 32 * 16 + 16 * 16 and svg.endswith("</svg>\n")
    assert print_latex(mma).count("\\shortstack") == 32 * 16 + 32 * 16 + 16 * 16
    copy = sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    assert print_latex(copy).count("\\shortstack") == 2 * 32 * 16
    assert print_latex(mma.atom) == print_latex(sc.make_tiled_mma(mma.atom.name, (1, 1, 1)))


def test_wrong_argument_types():
    with pytest.raises(LayoutError, match="expected a Layout"):
        print_latex((4, 8))
    with pytest.raises(LayoutError, match="expected a TiledMMA"):
        print_svg(Layout.parse("(4,8):(8,1)"))


def test_calc_prints_the_picture_raw(cli):
    code, out, err = cli(["calc", "print_latex((4,8):(8,1))"])
    assert code == 0
    assert err == "" and out == print_latex(Layout.parse("(4,8):(8,1)"))
    code, out, err = cli(["calc", "print_svg(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1)))"])
    assert code == 0
    assert out == print_svg(sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)))
    assert str(Picture("a\n")) == "a"


@pytest.mark.parametrize("expr", ["print_latex((2,3,4):(3,1,6))", "print_latex(SM80_16x8x16_F16F16F16F16_TN)",
                                  "print_svg((4,8):(8,1))", "print_latex_tv((8,4):(4,1), (4,4))",
                                  f"print_latex(({MAX_CELLS},2):(1,0))"])
def test_calc_bad_picture_is_one_line_and_exit_2(expr, cli):
    code, out, err = cli(["calc", expr])
    assert code == 2
    assert out == "" and err.startswith("symcute: error: ") and err.count("\n") == 1
