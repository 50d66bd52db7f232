"""Reproducers found by fuzzing, one per bug, each fixed at its source (the commit names the reproducer)."""

import json

import pytest

from symcute import expr as language
from symcute.errors import LayoutError, LimitError, ParseError

from ..cli_runner import run_cli
from .harness import outcome
from .test_fuzz_cli import check_exit

SEED = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


@pytest.mark.parametrize("text", ["append<100000000>(L)", "prepend<4611686018427387904>(L)",
                                  "append(L, 2147483648)"])
def test_append_to_a_huge_rank_is_refused(text):
    # was: a tuple of N modes built before anything looked at N (hang, then MemoryError)
    kind, e = outcome("regression", language.evaluate, text, {"L": SEED})
    assert kind == "error" and isinstance(e, LimitError) and "exceeds the limit" in str(e)


def test_basis_stride_with_a_huge_mode_index_is_refused_when_evaluated():
    # was: L(3) built the codomain coordinate (0, ..., 0, 1) of 10^8 + 1 entries
    kind, e = outcome("regression", language.evaluate, "L(3)", {"L": "(2,2):(1@0,1@100000000)"})
    assert kind == "error" and isinstance(e, LimitError) and "1@100000000" in str(e)


def test_basis_stride_nested_beyond_the_reader_limit_is_a_parse_error():
    # was: read as a value whose evaluation recursed 5,000 levels (RecursionError)
    kind, e = outcome("regression", language.evaluate, "L(1)", {"L": "4:1" + "@1" * 5000})
    assert kind == "error" and isinstance(e, ParseError) and "basis stride nested deeper" in str(e)


def test_usage_error_with_a_newline_in_an_argument_is_one_line():
    # was: "symcute: unrecognized arguments: \n" printed two lines
    argv = ["hwcheck", "--atom", "SM80_16x8x16_F16F16F16F16_TN", "\n"]
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2


def test_an_integer_literal_past_pythons_digit_limit_is_a_parse_error():
    # was: ValueError "Exceeds the limit (4300 digits) for integer string conversion" from the reader
    kind, e = outcome("regression", language.evaluate, "1" * 5000)
    assert kind == "error" and isinstance(e, ParseError) and "integer literal of 5000 digits" in str(e)


def test_the_cli_prints_results_of_more_than_4300_digits():
    # was: a traceback (ValueError from str(int)) when printing size((X,X,X,X,X)) with X of 1000 digits
    x = "9" * 1000
    code, out, err = run_cli(["calc", "size((X,X,X,X,X))", "--let", f"X={x}"])
    assert code == 0 and err == ""
    import sys
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert out.strip() == str((10 ** 1000 - 1) ** 5)
    finally:
        sys.set_int_max_str_digits(old)
    code, out, err = run_cli(["calc", "1" * 5000])
    assert code == 0 and out.strip() == "1" * 5000


def test_a_product_of_huge_bindings_is_refused_not_computed():
    kind, e = outcome("regression", language.evaluate, "size((" + ",".join(["X"] * 16000) + "))", {"X": "9" * 1000})
    assert kind == "error" and isinstance(e, LimitError) and "MAX_INTEGER_BITS" in str(e)


def test_many_big_literals_are_refused_too():
    # the literals themselves, not only variables: 90 literals of 1000 digits (within the 100,000-character input limit)
    kind, e = outcome("regression", language.evaluate, "size((" + ",".join(["9" * 1000] * 90) + "))")
    assert kind == "error" and isinstance(e, LimitError)


def test_the_integer_budget_leaves_room_for_2_62():
    # 2^62-sized layouts used several times stay far inside the budget
    kind, v = outcome("regression", language.evaluate, "size(logical_product(F, G))",
                      {"F": "(4611686018427387904,2):(1,4611686018427387904)", "G": "(2,2):(1,2)"})
    assert kind == "value" and v == 4611686018427387904 * 2 * 4


@pytest.mark.parametrize("argv", [
    ["hwcheck", "--atom", "SM80_16x8x16_F16F16F16F16_TN", "--emit", "/proc/no/such/dir/f"],
    ["hwcheck", "--atom", "SM80_16x8x16_F16F16F16F16_TN", "--emit", "a_file"],
])
def test_hwcheck_emit_into_an_unwritable_place_is_one_line(argv):
    # was: FileNotFoundError / FileExistsError tracebacks from Path.mkdir
    open("a_file", "w").close()  # the suite runs in a scratch directory
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2 and "hwcheck: cannot write into" in err


@pytest.mark.parametrize("key", ["a", 1.5, None, (0, "x")])
def test_a_mode_index_that_is_not_an_integer(key):
    # was: TypeError from Layout.__getitem__'s range comparison
    from symcute import Layout
    kind, e = outcome("regression", lambda: Layout.parse("(4,8):(8,1)")[key])
    assert kind == "error" and "is not an integer" in str(e)


@pytest.mark.parametrize("text", ["MMA_Atom{}", "Copy_Atom{}", "Copy_Atom<SM75_U32x2_LDSM_N>{}"])
def test_registered_cpp_values_with_wrong_template_arguments(text):
    # was: TypeError from the registered constructor (called outside _apply); then a generic
    # "is not a valid call"; now the count of template arguments CuTe's specializations take
    kind, e = outcome("regression", language.evaluate, text)
    assert kind == "error" and str(e).startswith(text.split('<')[0].rstrip('{}') + "<")
    assert "template arguments" in str(e)


def test_hwcheck_manifest_that_is_a_json_list(tmp_path):
    # was: AttributeError ('list' object has no attribute 'get') in read_manifest
    (tmp_path / "m.json").write_text("[1]")
    (tmp_path / "r.jsonl").write_text("{}\n")
    argv = ["hwcheck", "--results", str(tmp_path / "r.jsonl"), "--manifest", str(tmp_path / "m.json")]
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2 and "is not a symcute-hwcheck/1 manifest" in err


@pytest.mark.parametrize("argv", [
    ["derive", "tv", "--output", "x\x00"],
    ["derive", "--regenerate-proofs", "x\x00"],
    ["derive", "--regenerate-proofs", "/proc/no/such/dir"],
    ["hwcheck", "--atom", "SM80_16x8x16_F16F16F16F16_TN", "--emit", "x\x00"],
])
def test_paths_that_cannot_be_written_in_process(argv):
    # was: ValueError (embedded null byte) / FileNotFoundError tracebacks
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2 and "cannot write" in err


@pytest.mark.parametrize("text, binding, message", [
    # found by the large fuzz run: crd2idx added an int to a basis coordinate (TypeError)
    ("X(1)", "(2,2):(1,1@0)", "ScaledBasis op+ error!"),
    ("X(1,1)", "(2,2):(1,1@0)", "ScaledBasis op+ error!"),
    ("X(1,1,1)", "(2,2,2):(1,1@0,1@1)", "Arithmetic tuple op+ error!"),
    # an index split over an extent 0 (ZeroDivisionError)
    ("X(5)", "(2,0,2):(1,1,1)", "divides by an extent 0"),
])
def test_layout_evaluation_that_cute_refuses(text, binding, message):
    kind, e = outcome("regression", language.evaluate, text, {"X": binding})
    assert kind == "error" and isinstance(e, LayoutError) and message in str(e)


def test_basis_coordinates_plus_a_static_zero_still_evaluate():
    assert str(language.evaluate("X(1)", {"X": "(2,2):(1@0,1)"})) == "1@0"
    assert str(language.evaluate("X(2)", {"X": "(2,2):(1,1@0)"})) == "1@0"


def test_a_stride_past_int64_in_a_prover_enumeration():
    # found by the large fuzz run: numpy converted the stride 2^63 to int64 (OverflowError)
    kind, p = outcome("regression", language.evaluate, "is_bijective(1:9223372036854775808,32,1)")
    assert kind == "value" and p.verdict == "refuted"
    kind, p = outcome("regression", language.evaluate, "is_bijective(1:9223372036854775808,1)")
    assert kind == "value" and p.verdict == "proved"


def test_prove_with_a_stride_past_int64_on_the_other_side():
    # found by the large fuzz run: the equality prover's enumeration overflowed numpy (OverflowError)
    import symcute as sc
    from symcute.symbolic import prove
    kind, p = outcome("regression", prove, sc.Layout.parse("(3,2):(2,1)"),
                      sc.Layout.parse("(3,1,8,1):(-4,-1,16,9223372036854775813)"))
    assert kind == "value" and p.verdict == "refuted"


@pytest.mark.parametrize("bad", [float("inf"), 4.0, True, "4"])
def test_formula_json_with_a_number_that_is_not_an_integer(bad):
    # found by the large fuzz run: int(1e4008) raised OverflowError; int(4.0) was accepted silently
    import json
    import symcute as sc
    from symcute.symbolic.formula import Formula
    d = json.loads(sc.formula(sc.Layout.parse("(4,8):(8,1)"), names=("m", "k")).to_json())
    d["axes"][0]["extent" if bad == 4.0 else "stride"] = bad
    kind, e = outcome("regression", Formula.from_json, json.dumps(d))
    # schema-checked since issue 16: the path and the expected type, or the number refused by the reader
    assert kind == "error" and ("is not of type 'integer'" in str(e) or "not a JSON number" in str(e)), e


def test_derivation_json_with_a_node_id_of_unicode_digits():
    text = json.dumps({"directed": True, "multigraph": False, "graph": {"symcute": "derivation", "version": 2},
                       "nodes": [{"id": "in\u00b2", "role": "value", "kind": "int", "text": "3", "origin": "input",
                                  "order": 0}], "edges": []})
    from symcute.trace import Derivation
    kind, e = outcome("regression", Derivation.from_json, text)
    assert kind == "error" and "$.nodes[0].id" in str(e) and "a value id" in str(e), e


def test_an_alarm_swallowed_by_python_still_fails_the_input():
    # seen in the large fuzz run: the CPU alarm landed inside a garbage-collector callback, where
    # Python ignores exceptions, so an input past the bound passed; the harness now remembers alarms
    from . import harness

    def swallowed():
        harness._FIRED.append("CPU time")  # what _alarm records before its Hang is ignored
        return 1
    with pytest.raises(AssertionError, match="the alarm was swallowed"):
        outcome("harness self-check", swallowed)

    def swallowed_then_refused():
        harness._FIRED.append("CPU time")
        raise LimitError("refused after the bound")  # a SymcuteError after the bound passed is no excuse
    with pytest.raises(AssertionError, match="the alarm was swallowed"):
        outcome("harness self-check", swallowed_then_refused)
