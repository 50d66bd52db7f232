"""A TV layout's formula gets its thread / atom / value names by default (no --names needed)."""

from symcute.cli import main

MMA = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN,(2,2,1))"


def test_tv_layouts_are_named_t_w_v(capsys):
    assert main(["formula", f"{MMA}.get_layoutA_TV()"]) == 0
    assert "formula: 64*t0 + t1 + 16*wm + 32*v0 + 8*v1 + 256*v2" in capsys.readouterr().out
    assert main(["formula", "mma.get_layoutB_TV()", "--let", f"mma={MMA}", "--zeros"]) == 0
    out = capsys.readouterr().out
    assert "0*wm" in out and "wn" in out and "x0_0" not in out


def test_given_names_win_and_other_layouts_keep_positional_names(capsys):
    assert main(["formula", f"{MMA}.get_layoutC_TV()", "--names", "((a,b,c,d),((e,f),(g,h)))"]) == 0
    assert "t0" not in capsys.readouterr().out
    assert main(["formula", "(4,8):(8,1)"]) == 0
    assert "8*x0 + x1" in capsys.readouterr().out
