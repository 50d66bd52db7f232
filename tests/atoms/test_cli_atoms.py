"""``symcute atoms`` and ``symcute lint``."""

from symcute.cli import main


def test_atoms_listing(capsys):
    assert main(["atoms", "--arch", "sm80", "--filter", "16x8x16_F16"]) == 0
    out = capsys.readouterr().out
    assert "SM80_16x8x16_F16F16F16F16_TN" in out and "mma.sync.aligned.m16n8k16" in out
    assert out.strip().endswith("1 MMA atoms")
    assert main(["atoms", "--filter", "64x256x16_F16F16F16_SS", "--base-only"]) == 0
    assert "SM90_64x256x16_F16F16F16_SS<GMMA::Major tnspA,GMMA::Major tnspB>" in capsys.readouterr().out


def test_atoms_show(capsys):
    assert main(["atoms", "--show", "SM80_16x8x32_S32S4S4S32_TN"]) == 0
    out = capsys.readouterr().out
    assert "LayoutB_TV: ((4,8),(8)):((32,1),(8))" in out and "known upstream defect in B" in out
    assert main(["atoms", "--copy", "--show", "SM75_U32x2_LDSM_N", "--value-type", "half_t"]) == 0
    assert "ValLayoutDst: (32,(2,2)):(2,(1,64))" in capsys.readouterr().out


def test_lint_catalog(capsys):
    assert main(["lint"]) == 0
    out = capsys.readouterr().out
    assert "10 with known upstream defects, 0 with new findings" in out


def test_lint_user_atom(capsys):
    args = ["lint", "--mma-shape", "16,8,16", "--thr-id", "32:1", "--a", "((4,8),(2,2,2)):((32,1),(16,8,128))",
            "--c", "((4,8),(2,2)):((32,1),(16,8))"]
    assert main(args + ["--b", "((4,8),(2,2)):((16,1),(8,64))"]) == 0
    assert "user-defined atom: ok" in capsys.readouterr().out
    assert main(args + ["--b", "((4,8),(2,2)):((16,1),(8,32))"]) == 1
    out = capsys.readouterr().out
    assert "B: coverage" in out and "counterexample" in out


def test_bad_input_is_one_line(capsys):
    assert main(["lint", "NOT_AN_ATOM"]) == 2
    assert main(["lint", "--mma-shape", "16,8", "--a", "1:0", "--b", "1:0", "--c", "1:0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err
