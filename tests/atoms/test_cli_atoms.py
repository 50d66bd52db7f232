"""``symcute atoms`` and ``symcute lint``."""


def test_atoms_listing(cli):
    code, out, _ = cli(["atoms", "--arch", "sm80", "--filter", "16x8x16_F16"])
    assert code == 0
    assert "SM80_16x8x16_F16F16F16F16_TN" in out and "mma.sync.aligned.m16n8k16" in out
    assert out.strip().endswith("1 MMA atoms")
    code, out, _ = cli(["atoms", "--filter", "64x256x16_F16F16F16_SS", "--base-only"])
    assert code == 0
    assert "SM90_64x256x16_F16F16F16_SS<GMMA::Major tnspA,GMMA::Major tnspB>" in out


def test_atoms_show(cli):
    code, out, _ = cli(["atoms", "--show", "SM80_16x8x32_S32S4S4S32_TN"])
    assert code == 0
    assert "LayoutB_TV: ((4,8),(8)):((32,1),(8))" in out and "known upstream defect in B" in out
    code, out, _ = cli(["atoms", "--copy", "--show", "SM75_U32x2_LDSM_N", "--value-type", "half_t"])
    assert code == 0
    assert "ValLayoutDst: (32,(2,2)):(2,(1,64))" in out


def test_lint_catalog(cli):
    code, out, _ = cli(["lint"])
    assert code == 0
    assert "10 with known upstream defects, 0 with new findings" in out
    # a finding shared by several atoms (one layout, eight integer type combinations) is printed once
    assert out.count("B: coverage: ((4,8),(8)):((32,1),(8))") == 1
    assert "SM80_16x8x32_S32S4S4S32_TN, SM80_16x8x32_S32S4S4S32_TN_SATURATE," in out and "(8 atoms" in out
    assert "_XORPOPC, SM80_16x8x128_S32U1U1S32_TN_ANDPOPC (2 atoms" in out


def test_lint_user_atom(cli):
    args = ["lint", "--mma-shape", "16,8,16", "--thr-id", "32:1", "--a", "((4,8),(2,2,2)):((32,1),(16,8,128))",
            "--c", "((4,8),(2,2)):((32,1),(16,8))"]
    code, out, _ = cli(args + ["--b", "((4,8),(2,2)):((16,1),(8,64))"])
    assert code == 0
    assert "user-defined atom: ok" in out
    code, out, _ = cli(args + ["--b", "((4,8),(2,2)):((16,1),(8,32))"])
    assert code == 1
    assert "B: coverage" in out and "counterexample" in out


def test_bad_input_is_one_line(cli):
    unknown = cli(["lint", "NOT_AN_ATOM"])
    bad_shape = cli(["lint", "--mma-shape", "16,8", "--a", "1:0", "--b", "1:0", "--c", "1:0"])
    assert (unknown.code, bad_shape.code) == (2, 2)
    err = unknown.err + bad_shape.err
    assert err.count("\n") == 2 and "Traceback" not in err
