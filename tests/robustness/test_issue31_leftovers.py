"""Issue 31 item 1, the leftovers: basis strides through ``aligned`` and through the bit-split prover,
environment values of the oracle and of the probe checked with a one-line error, and a FIFO refused by
``sparse.emit`` before it generates the probe.  (The other reproducers of the item are
test_issue31_reproducers.py; the scan of every fuzzer's clean errors for Python's own messages is
``harness.INTERNAL_MESSAGE``, applied by fuzz16, fuzz31 and ``harness.outcome``.)
"""

import os

import pytest

from symcute import environment
from symcute.core import ComposedLayout, Layout, ScaledBasis, Swizzle
from symcute.errors import LayoutError, SymcuteError
from symcute.oracle import cache, runner
from symcute.symbolic import bitsplit

from ..cli_runner import run_cli
from .harness import INTERNAL_MESSAGE

E0, E1 = ScaledBasis(1, (0,)), ScaledBasis(1, (1,))


@pytest.mark.parametrize("argv", [
    ["prove", "aligned", "(4,8):(1@0,1@1)", "--alignment", "4"],
    ["prove", "aligned", "(4,8):(1,2@1)", "--alignment", "18446744073709551616"],
    ["prove", "aligned(L, 16)", "--let", "L=(4,8):(1@0,1@1)"],
    ["prove", "bijective(L)", "--let", "L=Sw<3,4,3> o 0 o (64,64):(64,1@1)"],
    ["prove", "equal(L, L)", "--let", "L=Sw<1,2,3> o 0 o (32,32):(1,32@0)"],
])
def test_basis_strides_through_aligned_and_swizzles_are_one_line_errors(argv):
    code, out, err = run_cli(argv)
    assert code == 2 and err.count("\n") == 1 and "basis stride" in err, err
    assert not INTERNAL_MESSAGE.search(err), err


def test_bit_split_prover_refuses_basis_strides():
    L = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((64, 64), (64, E1)))
    assert bitsplit.split(L, 4096) is None   # no split: the digits are no integer strides
    with pytest.raises(LayoutError, match="basis stride"):
        bitsplit.decide("bijective", L, "bijective(L)", 4096)
    with pytest.raises(LayoutError, match="basis stride"):
        bitsplit.equal(L, L, 4096, "equal(L, L)", ("L", "L"))


@pytest.mark.parametrize("name,value", [("SYMCUTE_ORACLE_JOBS", "abc"), ("SYMCUTE_ORACLE_JOBS", "0"),
                                        ("SYMCUTE_ORACLE_JOBS", "-3"), ("SYMCUTE_ORACLE_BATCH", "1e3"),
                                        ("SYMCUTE_ORACLE_BATCH", "٣")])
def test_oracle_counts_are_checked(name, value, monkeypatch):
    monkeypatch.setenv(name, value)
    with pytest.raises(SymcuteError, match=name) as e:
        runner._env_int(name, 4096)
    assert "\n" not in str(e.value)


def test_oracle_switches_are_checked(monkeypatch):
    monkeypatch.setenv("SYMCUTE_ORACLE_CACHE", "nein")
    with pytest.raises(SymcuteError, match="SYMCUTE_ORACLE_CACHE"):
        cache.enabled_by_env()
    monkeypatch.setenv("SYMCUTE_ORACLE_CACHE", "Off")
    assert cache.enabled_by_env() is False
    monkeypatch.setenv("SYMCUTE_ORACLE_JOBS", "8")
    assert runner._env_int("SYMCUTE_ORACLE_JOBS", 4096) == 8
    monkeypatch.delenv("SYMCUTE_ORACLE_JOBS")
    assert runner._env_int("SYMCUTE_ORACLE_JOBS", 4096) is None


def test_count_reader():
    os.environ["SYMCUTE_TEST_COUNT"] = " 12 "
    try:
        assert environment.count("SYMCUTE_TEST_COUNT", None, 100) == 12
        os.environ["SYMCUTE_TEST_COUNT"] = "101"
        with pytest.raises(SymcuteError, match=r"whole number in \[1, 100\]"):
            environment.count("SYMCUTE_TEST_COUNT", None, 100)
    finally:
        del os.environ["SYMCUTE_TEST_COUNT"]


def test_probe_switch_is_checked_at_import():
    from ..cli_runner import run_cli_process
    code, out, err = run_cli_process(["prove", "bijective", "4:1"], env={**os.environ, "SYMCUTE_PROBE": "maybe"},
                                     timeout=120)
    assert code == 2 and err.count("\n") == 1 and "SYMCUTE_PROBE" in err and "Traceback" not in err, err


def test_sparse_emit_refuses_a_fifo_before_generating(tmp_path):
    from symcute.hwcheck import sparse
    fifo = tmp_path / "probe"
    os.mkfifo(fifo)
    with pytest.raises(SymcuteError, match="FIFO"):
        sparse.emit(fifo)
    regular = tmp_path / "file"
    regular.write_text("keep\n")
    with pytest.raises(SymcuteError, match="not a directory"):
        sparse.emit(regular)
    assert regular.read_text() == "keep\n"
