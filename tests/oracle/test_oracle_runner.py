"""(c) The runner: verdicts per case, one bad case never spoils its batch, caching, crashes."""

from __future__ import annotations

import pytest

from symcute.oracle import CuteOracle, OracleError, OracleUnavailable, cpp_call, cpp_dynamic
from symcute.oracle.runner import CaseResult

# composition((4,6,8):(1,10,100), 2:6): rest_stride 6 vs curr_shape 4: 6 % 4 != 0 and 6 >= 4.
STRIDE_BAD = cpp_call("composition", "(4,6,8):(1,10,100)", "2:6")
# composition((4,6,8):(1,10,100), 6:1): new_shape min(4,6) = 4 does not divide 6.
SHAPE_BAD = cpp_call("composition", "(4,6,8):(1,10,100)", "6:1")
NON_INJECTIVE = cpp_call("complement", "(2,2):(1,1)", "8")


@pytest.fixture(scope="module")
def fresh(oracle, tmp_path_factory):
    """A single-batch oracle without result cache: every verdict comes from g++ here and now."""
    return CuteOracle(jobs=1, cache=False, cache_dir=oracle.toolchain.cache_dir)


@pytest.fixture(scope="module")
def mixed(fresh):
    return fresh.run({
        "good1": f"print({cpp_call('right_inverse', '(4,2):(1,4)')});",
        "stride": f"print({STRIDE_BAD});",
        "good2": f"print({cpp_call('composition', '(4,6,8):(1,10,100)', '2:1')});",
        "shape": f"print({SHAPE_BAD});",
        # the same failing instantiation again: g++ reports it only for its first user
        "stride_again": f"auto r = {STRIDE_BAD}; print(size(r));",
        "injective": f"print({NON_INJECTIVE});",
        "undeclared": "print(no_such_function(_4{}));",
        "brace": "}",  # structural damage must stay inside this case
        "good3": "SYMCUTE_PRINT(cute::make_layout(cute::make_shape(4, 2)));",
        "fpe": 'volatile long zero = 0; printf("before "); print(7 / zero);',
        "exit": "std::exit(3);",
        "good4": f"print({cpp_call('logical_divide', '(8,8):(8,1)', '32:2')});",
    })


def test_valid_cases_in_a_failing_batch_still_succeed(mixed):
    assert mixed["good1"].ok and mixed["good1"].output == "8:1"
    assert mixed["good2"].ok and mixed["good2"].output == "2:1"
    assert mixed["good3"].ok and mixed["good3"].output == "(4,2):(1,4)"
    assert mixed["good4"].ok and mixed["good4"].output == "((4,8),2):((16,1),8)"


def test_static_assert_rejections_carry_cutes_condition(mixed):
    assert mixed["stride"].rejected and mixed["stride"].condition == "Stride Divisibility Condition"
    assert "Stride Divisibility Condition" in mixed["stride"].error
    assert mixed["shape"].rejected and mixed["shape"].condition == "Shape Divisibility Condition"
    assert mixed["injective"].condition == "Non-injective Layout detected in complement."
    assert "symcute-case-" in mixed["stride"].diagnostics


def test_a_failure_shared_with_an_earlier_case_is_still_attributed(mixed):
    assert mixed["stride_again"].rejected
    assert mixed["stride_again"].condition == "Stride Divisibility Condition"


def test_hard_errors_are_rejections_too(mixed):
    assert mixed["undeclared"].rejected and "no_such_function" in mixed["undeclared"].error
    assert mixed["undeclared"].condition is None
    assert mixed["brace"].rejected


def test_run_time_crashes_are_reported_per_case(mixed):
    assert mixed["fpe"].crashed and "SIGFPE" in mixed["fpe"].error
    assert mixed["fpe"].output == "before"
    assert mixed["exit"].crashed and "status 3" in mixed["exit"].error


def test_identical_bodies_share_one_verdict(fresh):
    body = f"print({cpp_call('coalesce', '(2,4):(1,2)')});"
    res = fresh.run([("a", body), ("b", body)])
    assert res["a"].output == res["b"].output == "8:1"
    assert fresh.last_stats.unique == 1


def test_dynamic_values_may_crash_where_static_ones_are_rejected(fresh):
    # With run-time integers CuTe cannot check divisibility at compile time.
    res = fresh.run_exprs({"dyn": cpp_call("complement", "4:0", "8", dynamic=True)})
    assert res["dyn"].crashed and "SIGFPE" in res["dyn"].error


def test_a_broken_preamble_is_an_oracle_error_not_a_rejection(fresh):
    with pytest.raises(OracleError):
        fresh.run({"x": "print(_1{});"}, preamble="int broken(")


def test_result_cache_serves_repeats_and_can_be_disabled(oracle, tmp_path, monkeypatch):
    # The PCH stays in the shared cache dir; results go to a private one.
    cached = CuteOracle(jobs=1, cache=True, cache_dir=oracle.toolchain.cache_dir)
    cached.cache.directory = tmp_path / "results"
    cases = {"a": f"SYMCUTE_PRINT({cpp_dynamic('(3,6):(1,3)')});", "bad": f"print({STRIDE_BAD});"}
    first = cached.run(cases)
    second = cached.run(cases)
    assert not first["a"].cached and second["a"].cached and second["bad"].cached
    assert (second["a"].output, second["bad"].error) == (first["a"].output, first["bad"].error)
    assert cached.last_stats.compiles == 0

    monkeypatch.setenv("SYMCUTE_ORACLE_CACHE", "0")
    uncached = CuteOracle(jobs=1, cache_dir=oracle.toolchain.cache_dir)
    assert uncached.cache is None


def test_unknown_compiler_is_reported_as_unavailable():
    with pytest.raises(OracleUnavailable, match="no-such-compiler"):
        CuteOracle(cxx="no-such-compiler-symcute")


def test_duplicate_case_names_are_refused(fresh):
    with pytest.raises(ValueError):
        fresh.run([("a", "print(_1{});"), ("a", "print(_2{});")])


def test_batches_are_balanced_and_bounded():
    planner = object.__new__(CuteOracle)
    planner.jobs, planner.batch_size = 2, 500
    assert [len(b) for b in planner._plan(list("abcde"))] == [3, 2]
    assert [len(b) for b in planner._plan([str(i) for i in range(1001)])] == [334, 334, 333]
    planner.jobs = 4
    assert [len(b) for b in planner._plan(["x"])] == [1]


def test_case_result_properties():
    rejected = CaseResult("n", "rejected", error="static assertion failed: Shape Divisibility Condition")
    assert rejected.rejected and not rejected.ok and rejected.condition == "Shape Divisibility Condition"
    assert CaseResult("n", "ok", "1:0").condition is None
