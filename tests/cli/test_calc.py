"""``symcute calc`` and the CLI's error contract (one line on stderr, exit status 2)."""

import pytest

from ..cli_runner import run_cli_process

SEED_EXPR = ("upcast<1024>(right_inverse(((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0))))"
             ".with_shape(32,16))")


def test_calc_seed_expression(cli):
    code, out, err = cli(["calc", SEED_EXPR])
    assert code == 0 and err == ""
    assert out.strip() == "((1,1,1),(1,1,1)):((1,1,1),(1,1,1))"


def test_calc_with_let(cli):
    code, out, _ = cli(["calc", "G(256)", "--let",
                        "G=(8,2,2,2,4,2):(4,256,32,128,1,512)"])
    assert code == 0 and out.strip() == "512"


@pytest.mark.parametrize("argv", [
    ["calc", "composition((4,6):(1,5), 3:2)"],
    ["calc", "(((("],
    ["calc", "x", "--let", "1bad=3"],
    ["calc"],
    ["nosuchcommand"],
    ["calc", "(" * 10000 + "1" + ")" * 10000],
])
def test_bad_input_is_one_line_and_exit_2(argv, cli):
    code, out, err = cli(argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_python_dash_m_is_the_same_command():
    code, out, _ = run_cli_process("calc", "right_inverse((4,2):(2,1))")
    assert code == 0 and out.strip() == "(2,4):(4,1)"
    code, _, err = run_cli_process("calc", "upcast<3>(4:2)")
    assert code == 2 and err.count("\n") == 1 and "Divisibility condition" in err


@pytest.mark.parametrize("command", ["calc", "formula"])
def test_a_let_may_use_the_lets_before_it(cli, command):
    code, out, err = cli([command, "B", "--let", "A=(8,2,2,2,4,2):(4,256,32,128,1,512)",
                          "--let", "B=right_inverse(A)"])
    assert (code, err) == (0, "")
    assert "(4,8,2):(64,1,16)" in out  # the seed's F, back from the inverse of its inverse


def test_a_let_cannot_use_a_later_one(cli):
    code, _, err = cli(["calc", "B", "--let", "B=right_inverse(A)", "--let", "A=4:1"])
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize("flag, want", [
    ("--cpp", "make_layout(make_shape(Int<8>{}, Int<4>{}), make_stride(Int<4>{}, Int<1>{}))"),
    ("--dsl", "cute.make_layout((8,4), stride=(4,1))")])
def test_calc_code_spellings(cli, flag, want):
    code, out, _ = cli(["calc", "right_inverse((4,8):(8,1))", flag])
    assert code == 0 and out.strip() == want
