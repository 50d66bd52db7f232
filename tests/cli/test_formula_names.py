"""A TV layout's formula gets its thread / atom / value names by default (no --names needed)."""


MMA = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN,(2,2,1))"


def test_tv_layouts_are_named_t_w_v(cli):
    code, out, _ = cli(["formula", f"{MMA}.get_layoutA_TV()"])
    assert code == 0
    assert "formula: 64*t0 + t1 + 16*wm + 32*v0 + 8*v1 + 256*v2" in out
    code, out, _ = cli(["formula", "mma.get_layoutB_TV()", "--let", f"mma={MMA}", "--zeros"])
    assert code == 0
    assert "0*wm" in out and "wn" in out and "x0_0" not in out


def test_given_names_win_and_other_layouts_keep_positional_names(cli):
    code, out, _ = cli(["formula", f"{MMA}.get_layoutC_TV()", "--names", "((a,b,c,d),((e,f),(g,h)))"])
    assert code == 0
    assert "t0" not in out
    code, out, _ = cli(["formula", "(4,8):(8,1)"])
    assert code == 0
    assert "8*x0 + x1" in out
