"""``symcute calc --param`` (parametric layouts) and ``--cute-print`` (CuTe's own notation, run-time ints)."""


def test_issue_example_closed_form(cli):
    code, out, err = cli(["calc", "zipped_divide((M,K):(K,1), (128,32))", "--param", "M:128", "--param", "K:32"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "((128,32),(M/128,K/32)):((K,1),(128*K,32))"
    assert lines[1] == "for M >= 128, M % 128 == 0; K >= 32, K % 32 == 0"


def test_without_divisors_ceil_div(cli):
    code, out, _ = cli(["calc", "zipped_divide((M,K):(K,1), (128,32))", "--param", "M", "--param", "K"])
    assert code == 0 and out.splitlines()[0] == "((128,32),(ceil_div(M,128),ceil_div(K,32))):((K,1),(128*K,32))"


def test_strides_over_parameters_and_used_facts(cli):
    code, out, _ = cli(["calc", "composition((N,4):(1,N), 2)", "--param", "N"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "(min(2,N),floor_div(2,min(2,N))):(1,N)"
    assert lines[2].startswith("using ") and "2 divisible by min(2,N)" in lines[2]


def test_refusals_are_one_line(cli):
    code, out, err = cli(["calc", "composition((N,4):(1,N), 128)", "--param", "N"])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "Shape Divisibility Condition" in err and "N=127" in err
    code, _, err = cli(["calc", "right_inverse((M,K):(K,1))", "--param", "M", "--param", "K"])
    assert code == 2 and "is_static" in err
    code, _, err = cli(["calc", "(M,K):(K,1)", "--param", "M:0"])
    assert code == 2 and "M:0" in err
    code, _, err = cli(["calc", "(M,K):(K,1)", "--param", "M"])
    assert code == 2 and "K" in err


def test_cute_print_keeps_run_time_ints(cli):
    code, out, _ = cli(["calc", "coalesce((_2,1,_3):(3,_3,_1))", "--cute-print"])
    assert code == 0 and out.strip() == "(_2,1,_3):(3,_3,_1)"
    # without the flag symcute's notation reads every number as static, as before
    code, out, _ = cli(["calc", "coalesce((_2,1,_3):(3,_3,_1))"])
    assert out.strip() == "(2,3):(3,1)"
    code, out, _ = cli(["calc", "composition((_4,8):(_1,4), _8:_1)", "--cute-print"])
    assert out.strip() == "(_4,_2):(_1,4)"
    code, out, _ = cli(["calc", "right_inverse((4,8):(8,1))", "--cute-print"])
    assert out.strip() == "(_8,_4):(_4,_1)"
